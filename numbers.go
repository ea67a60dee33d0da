package coerce

import (
	"encoding/json"
	"math"
	"reflect"
	"strconv"
	"strings"
)

// numeral is a decimal number as written: [+-] digits [. digits] [e [+-] digits].
type numeral struct {
	neg    bool
	int    string // digits before the point; may be empty (".5")
	frac   string // digits after the point; may be empty ("5.")
	exp    int    // the exponent, clamped to ±maxExp
	hasExp bool
	point  bool
}

// maxExp clamps exponents: beyond it every nonzero value is out of
// float64's range either way, and the clamp keeps arithmetic from
// overflowing on "1e999999999999999999".
const maxExp = 1 << 20

// largest number of digits of a whole float64 (MaxFloat64 ≈ 1.8e308).
const maxFloatDigits = 309

// scanNumeral parses the numeric strings the README admits: surrounding
// whitespace, an optional sign, decimal digits (leading zeros allowed), an
// optional fraction (".5" and "5." too) and exponent. Hex, underscores,
// commas, "", NaN and Inf are not numerals.
func scanNumeral(s string) (n numeral, ok bool) {
	s = strings.TrimSpace(s)
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		n.neg = s[i] == '-'
		i++
	}
	start := i
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	n.int = s[start:i]
	if i < len(s) && s[i] == '.' {
		n.point = true
		i++
		start = i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		n.frac = s[start:i]
	}
	if n.int == "" && n.frac == "" {
		return n, false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		n.hasExp = true
		i++
		neg := false
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			neg = s[i] == '-'
			i++
		}
		if i == len(s) {
			return n, false
		}
		for ; i < len(s) && isDigit(s[i]); i++ {
			if n.exp < maxExp {
				n.exp = n.exp*10 + int(s[i]-'0')
			}
		}
		if neg {
			n.exp = -n.exp
		}
	}
	return n, i == len(s)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// significand returns the significant digits (no leading or trailing
// zeros; "" for zero) and the power of ten they are scaled by.
func (n numeral) significand() (digits string, scale int) {
	var b strings.Builder
	lead := strings.TrimLeft(n.int, "0")
	frac := n.frac
	scale = n.exp - len(frac)
	if lead == "" {
		frac = strings.TrimLeft(frac, "0")
	}
	if lead != "" && frac != "" {
		b.Grow(len(lead) + len(frac))
		b.WriteString(lead)
		b.WriteString(frac)
		digits = b.String()
	} else {
		digits = lead + frac // at most one is non-empty: no copy
	}
	trimmed := strings.TrimRight(digits, "0")
	scale += len(digits) - len(trimmed)
	if trimmed == "" {
		scale = 0
	}
	return trimmed, scale
}

// numberResult is the outcome of converting a numeral.
type numberResult struct {
	value any
	why   *Error // it does not convert: a template with Err and Detail set
}

// value converts n for an integer or number target. Integers are float64
// when float64 holds them exactly and json.Number otherwise, so that no
// digit is lost; fractions are float64 and must lie within float64's range
// (underflow to zero counts as a loss). useNumber makes every result a
// json.Number.
func (n numeral) value(integer, useNumber bool) numberResult {
	digits, scale := n.significand()
	plain := !n.point && !n.hasExp
	if digits == "" { // zero, in any spelling
		if useNumber {
			if n.neg {
				return numberResult{value: json.Number("-0")}
			}
			return numberResult{value: json.Number("0")}
		}
		if n.neg {
			return numberResult{value: math.Copysign(0, -1)}
		}
		return numberResult{value: float64(0)}
	}
	if scale >= 0 { // whole
		switch {
		case plain:
			digits = strings.TrimLeft(n.int, "0") // as written: no copy
		case !integer:
			return n.float(useNumber) // "1e3" declared number: float notation, float result
		case len(digits)+scale > maxFloatDigits:
			return numberResult{why: outOfRange}
		default:
			digits += strings.Repeat("0", scale)
		}
		return wholeNumber(n.neg, digits, useNumber)
	}
	if integer {
		return numberResult{why: notWhole}
	}
	return n.float(useNumber)
}

// float converts n with strconv.ParseFloat, refusing what would round to
// ±Inf or to zero.
func (n numeral) float(useNumber bool) numberResult {
	text := n.canonical()
	f, err := strconv.ParseFloat(text, 64)
	if err != nil || math.IsInf(f, 0) {
		return numberResult{why: outOfRange}
	}
	if f == 0 {
		return numberResult{why: tooSmall}
	}
	if useNumber {
		return numberResult{value: json.Number(text)}
	}
	return numberResult{value: f}
}

// canonical writes n as JSON number text: no '+', no leading zeros, no
// bare point.
func (n numeral) canonical() string {
	var b strings.Builder
	if n.neg {
		b.WriteByte('-')
	}
	if lead := strings.TrimLeft(n.int, "0"); lead != "" {
		b.WriteString(lead)
	} else {
		b.WriteByte('0')
	}
	if n.frac != "" {
		b.WriteByte('.')
		b.WriteString(n.frac)
	}
	if n.hasExp {
		b.WriteByte('e')
		b.WriteString(strconv.Itoa(n.exp))
	}
	return b.String()
}

// wholeNumber returns the integer ±digits (no leading zeros) as float64 when
// float64 holds it exactly, else as json.Number: the decoder's rule for
// integers in JSON text, so that "5" and 5 come out alike.
func wholeNumber(neg bool, digits string, useNumber bool) numberResult {
	text := digits
	if neg {
		text = "-" + digits
	}
	if !useNumber {
		if f, ok := jsonExactInt(text); ok {
			return numberResult{value: f}
		}
	}
	return numberResult{value: json.Number(text)}
}

// numberTraits reports whether v is a number (Go's numeric types and
// json.Number), and if so whether it is finite and whole.
func numberTraits(v any) (num, finite, whole bool) {
	switch x := v.(type) {
	case float64:
		return floatTraits(x)
	case json.Number:
		// Only JSON number text is a number: "+5", " 5" or "007" could not
		// be written as JSON as they are.
		if !isJSONNumber(string(x)) {
			return false, false, false
		}
		return true, true, numberTextWhole(string(x))
	case int, int64, int32, int16, int8, uint, uint64, uint32, uint16, uint8, uintptr:
		return true, true, true
	case float32:
		return floatTraits(float64(x))
	case string, bool, nil, map[string]any, []any:
		return false, false, false
	}
	rv := reflect.ValueOf(v)
	for rv.Kind() == reflect.Pointer && !rv.IsNil() {
		rv = rv.Elem()
	}
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return true, true, true
	case reflect.Float32, reflect.Float64:
		return floatTraits(rv.Float())
	}
	return false, false, false
}

func floatTraits(f float64) (num, finite, whole bool) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return true, false, false
	}
	return true, true, f == math.Trunc(f)
}

// numberText writes a number as JavaScript and encoding/json do: 5, 1.5,
// 1e+21; json.Number keeps its text. ok is false for NaN and ±Inf.
func numberText(v any) (string, bool) {
	switch x := v.(type) {
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return "", false
		}
		return string(appendFloat(nil, x, 64)), true
	case float32:
		if f := float64(x); math.IsNaN(f) || math.IsInf(f, 0) {
			return "", false
		}
		return string(appendFloat(nil, float64(x), 32)), true
	case json.Number:
		return string(x), true
	case int:
		return strconv.Itoa(x), true
	}
	rv := reflect.ValueOf(v)
	for rv.Kind() == reflect.Pointer && !rv.IsNil() {
		rv = rv.Elem()
	}
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(rv.Int(), 10), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return strconv.FormatUint(rv.Uint(), 10), true
	case reflect.Float32, reflect.Float64:
		return numberText(rv.Float())
	}
	return "", false
}

// numeralZeroOne reports whether v, a number, is exactly 0 or 1, for
// boolean targets.
func zeroOrOne(v any) (one, ok bool) {
	num, finite, whole := numberTraits(v)
	if !num || !finite || !whole {
		return false, false
	}
	text, _ := numberText(v)
	n, _ := scanNumeral(text)
	digits, scale := n.significand()
	switch {
	case digits == "":
		return false, true
	case digits == "1" && scale == 0 && !n.neg:
		return true, true
	}
	return false, false
}

// numberTextWhole reports whether valid JSON number text is a whole
// number, judged on its digits, without allocating: the digits that the
// exponent leaves after the point must all be zero.
func numberTextWhole[T ~string | ~[]byte](text T) bool {
	i := 0
	if i < len(text) && text[i] == '-' {
		i++
	}
	intStart := i
	for i < len(text) && isDigit(text[i]) {
		i++
	}
	intEnd := i
	if i == len(text) {
		return true // a plain integer
	}
	fracStart, fracEnd := i, i
	if text[i] == '.' {
		fracStart = i + 1
		for i++; i < len(text) && isDigit(text[i]); i++ {
		}
		fracEnd = i
	}
	exp := 0
	if i < len(text) { // exponent
		i++
		neg := false
		if text[i] == '+' || text[i] == '-' {
			neg = text[i] == '-'
			i++
		}
		for ; i < len(text); i++ {
			if exp < maxExp {
				exp = exp*10 + int(text[i]-'0')
			}
		}
		if neg {
			exp = -exp
		}
	}
	// Digits after the point once the exponent has moved it: the last
	// len(frac)-exp digits of int+frac.
	nInt, nFrac := intEnd-intStart, fracEnd-fracStart
	after := nFrac - exp
	if after <= 0 {
		return true
	}
	for k := max(nInt+nFrac-after, 0); k < nInt+nFrac; k++ {
		var c byte
		if k < nInt {
			c = text[intStart+k]
		} else {
			c = text[fracStart+k-nInt]
		}
		if c != '0' {
			return false
		}
	}
	return true
}

// isJSONNumber reports whether s is exactly one JSON number.
func isJSONNumber[T ~string | ~[]byte](s T) bool {
	if len(s) == 0 {
		return false
	}
	end, _, err := scanJSONNumber(s, 0)
	return err == nil && end == len(s)
}

// plainIntText reports whether a number, if it carries its text (a
// json.Number), writes it as plain digits: what a Go integer field's
// decoder takes. Other numbers are written as digits when whole.
func plainIntText(v any) bool {
	n, ok := v.(json.Number)
	return !ok || !strings.ContainsAny(string(n), ".eE")
}
