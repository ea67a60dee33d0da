package coerce

import (
	"encoding/json"
	"math"
	"reflect"
	"strconv"
	"strings"

	"github.com/coerce-go/coerce/internal/jsonwire"
)

// A numeral is a numeric string as the README admits them: surrounding
// whitespace, an optional sign, decimal digits (leading zeros allowed), an
// optional fraction (".5" and "5." too) and exponent. It is read once, into
// JSON number text, and is then judged by the rules of JSON numbers, so
// that wholeness, exactness and float64's range have one implementation
// for both, in package jsonwire.
type numeral struct {
	text  string // the number as JSON text: no '+', no leading zeros, no bare point, exponent "e" and its value
	neg   bool
	plain bool // written as digits alone: no point, no exponent
}

// largest number of digits of a whole float64 (MaxFloat64 ≈ 1.8e308).
const maxFloatDigits = 309

// scanNumeral reads a numeric string. Hex, underscores, commas, "", NaN
// and Inf are not numerals. The JSON text is s itself (trimmed) where s is
// JSON number text already, the usual case: then it costs no allocation.
func scanNumeral(s string) (n numeral, ok bool) {
	s = strings.TrimSpace(s)
	i := 0
	plus := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		n.neg, plus = s[i] == '-', s[i] == '+'
		i++
	}
	intStart := i
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	intEnd := i
	point := false
	fracStart, fracEnd := i, i
	if i < len(s) && s[i] == '.' {
		point = true
		i++
		fracStart = i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		fracEnd = i
	}
	if intEnd == intStart && fracEnd == fracStart {
		return n, false
	}
	expAt, expDigits := -1, -1 // where the exponent's 'e' and its digits start
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		expAt = i
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		expDigits = i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		if i == expDigits {
			return n, false
		}
	}
	if i != len(s) {
		return n, false
	}
	n.plain = !point && expAt < 0
	intDigits := strings.TrimLeft(s[intStart:intEnd], "0")
	// The exponent's value: its digits without leading zeros ("0" for
	// none), and a '-' unless it is zero.
	expSign, expVal := "", ""
	if expAt >= 0 {
		if expVal = strings.TrimLeft(s[expDigits:], "0"); expVal == "" {
			expVal = "0"
		} else if s[expDigits-1] == '-' {
			expSign = "-"
		}
	}
	// JSON text already: no '+', an integer part without leading zeros, no
	// bare point, and an exponent written "e" and its value.
	if !plus && intEnd-intStart == max(len(intDigits), 1) && (!point || fracEnd > fracStart) &&
		(expAt < 0 || s[expAt] == 'e' && s[expAt+1:expDigits] == expSign && s[expDigits:] == expVal) {
		n.text = s
		return n, true
	}
	var b strings.Builder
	b.Grow(len(s) + 1)
	if n.neg {
		b.WriteByte('-')
	}
	if intDigits == "" {
		intDigits = "0"
	}
	b.WriteString(intDigits)
	if fracEnd > fracStart {
		b.WriteByte('.')
		b.WriteString(s[fracStart:fracEnd])
	}
	if expAt >= 0 {
		b.WriteByte('e')
		b.WriteString(expSign)
		b.WriteString(expVal)
	}
	n.text = b.String()
	return n, true
}

// numberInEnum is enumHas for the JSON number text tok, without boxing it:
// the numbers of enum that are JSON number text (json.Number, as schemas
// decode them) are compared with it by their exact decimal value, as
// numbersEqual does. sure is false where enum holds a number of another
// type: enumHas then has the answer.
func numberInEnum(enum []any, tok []byte) (in, sure bool) {
	neg, digits, scale := jsonwire.Decimal(string(tok))
	for _, e := range enum {
		switch x := e.(type) {
		case json.Number:
			n, d, s := jsonwire.Decimal(string(x))
			if d == digits && (d == "" || s == scale && n == neg) {
				return true, true
			}
		case string, bool, nil, map[string]any, []any:
		default:
			return false, false
		}
	}
	return false, true
}

// exactFloat bounds the whole numbers a float64 holds exactly, each with
// its neighbours: below it in magnitude, a whole number's float64 is that
// number and no other's, so that it can stand for its digits.
const exactFloat = 1 << 53

// wholeEqual is numbersEqual of valid JSON number text (an enum's) and a
// whole float64 below 2^53 in magnitude, as decoded JSON holds: exact,
// without formatting x (which allocates). sure is false for any other x.
func wholeEqual(n json.Number, x float64) (eq, sure bool) {
	if x != math.Trunc(x) || math.Abs(x) >= exactFloat {
		return false, false
	}
	neg, digits, scale := jsonwire.Decimal(string(n))
	i := int64(x)
	if i == 0 {
		return digits == "", true
	}
	var buf [24]byte
	d := strconv.AppendInt(buf[:0], max(i, -i), 10)
	zeros := 0
	for d[len(d)-1] == '0' {
		d, zeros = d[:len(d)-1], zeros+1
	}
	return neg == (i < 0) && scale == zeros && digits == string(d), true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// significand returns the significant digits (no leading or trailing
// zeros; "" for zero) and the power of ten they are scaled by.
func (n numeral) significand() (digits string, scale int) {
	_, digits, scale = jsonwire.Decimal(n.text)
	return digits, scale
}

// value converts n for an integer or number target, or says why it does
// not convert (a template with Err and Detail set). Digits alone follow
// the decoder's rule for integers, so that "5" and 5 come out alike. A
// whole number written otherwise ("5.0", "1e3") declared integer is exact
// in the same way, as the integer it stands for; declared number, it is a
// float64, as is a number with a fraction; either must lie within
// float64's range (underflow to zero counts as a loss). useNumber makes
// every result a json.Number.
func (n numeral) value(integer, useNumber bool) (any, *Error) {
	if n.plain {
		return wholeNumber(n.text, useNumber), nil
	}
	f, mag := jsonwire.Float(n.text)
	switch {
	case mag == jsonwire.Zero: // in any spelling
		switch {
		case useNumber && n.neg:
			return json.Number("-0"), nil
		case useNumber:
			return json.Number("0"), nil
		case n.neg:
			return math.Copysign(0, -1), nil
		}
		return float64(0), nil
	case !integer:
		switch {
		case mag == jsonwire.Overflow:
			return nil, outOfRange
		case mag == jsonwire.Underflow:
			return nil, tooSmall
		case useNumber:
			return json.Number(n.text), nil
		}
		return f, nil
	case !jsonwire.IsWhole(n.text):
		return nil, notWhole
	case !useNumber && math.Abs(f) < exactFloat:
		// A whole number below 2^53 is its float64, exactly; larger ones
		// are written out as the digits they stand for.
		return f, nil
	}
	neg, digits, scale := jsonwire.Decimal(n.text)
	if len(digits)+scale > maxFloatDigits {
		return nil, outOfRange
	}
	digits += strings.Repeat("0", scale)
	if neg {
		digits = "-" + digits
	}
	return wholeNumber(digits, useNumber), nil
}

// wholeNumber returns the valid JSON integer text as float64 when float64
// holds it exactly and writes it back with the same digits, else as
// json.Number: the decoder's rule for integers in JSON text.
func wholeNumber(text string, useNumber bool) any {
	if !useNumber {
		if f, ok := jsonwire.ExactInt(text); ok {
			return f
		}
	}
	return json.Number(text)
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
		if !jsonwire.IsNumber(x) {
			return false, false, false
		}
		return true, true, jsonwire.IsWhole(x)
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
		return string(jsonwire.AppendFloat(nil, x, 64)), true
	case float32:
		if f := float64(x); math.IsNaN(f) || math.IsInf(f, 0) {
			return "", false
		}
		return string(jsonwire.AppendFloat(nil, float64(x), 32)), true
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

// plainIntText reports whether a number, if it carries its text (a
// json.Number), writes it as plain digits: what a Go integer field's
// decoder takes. Other numbers are written as digits when whole.
func plainIntText(v any) bool {
	n, ok := v.(json.Number)
	return !ok || !strings.ContainsAny(string(n), ".eE")
}
