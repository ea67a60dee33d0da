package jsonwire

import (
	"bytes"
	"encoding/json"
	"math"
	"math/bits"
	"strconv"
	"strings"
)

// Numbers. JSON number text is read here for everything a caller asks of
// it: its syntax (scanNumber, IsNumber), its float64 and where it lies
// against float64's range (Float), whether it is whole (IsWhole), whether
// float64 holds an integer exactly (ExactInt), its exact value (Decimal),
// and the decoder's rule for the value it becomes (intValue, floatValue). The rules look at the digits as written, so
// that they cost time linear in the text whatever its exponent, and none
// allocates but Decimal.

// IsNumber reports whether text is exactly one JSON number.
func IsNumber[T Text](text T) bool {
	if len(text) == 0 {
		return false
	}
	end, _, err := scanNumber(text, 0)
	return err == nil && end == len(text)
}

// scanNumber validates the JSON number that starts at data[i] (which is
// '-' or a digit) and returns the index just past it, and whether it is a
// plain integer (no fraction, no exponent). Whatever follows the number is
// left to the caller.
func scanNumber[T Text](data T, i int) (end int, isInt bool, err *Error) {
	if data[i] == '-' {
		i++
	}
	if i >= len(data) {
		return 0, false, errEOF(len(data))
	}
	switch c := data[i]; {
	case c == '0':
		i++
		if i < len(data) && data[i]-'0' <= 9 {
			return 0, false, errChar(data, i, "after leading zero in numeric literal")
		}
	case c-'1' <= 8:
		i = digitRun(data, i+1)
	default:
		return 0, false, errChar(data, i, "in numeric literal")
	}
	isInt = true
	if i < len(data) && data[i] == '.' {
		isInt = false
		i++
		if i >= len(data) {
			return 0, false, errEOF(len(data))
		}
		if data[i]-'0' > 9 {
			return 0, false, errChar(data, i, "after decimal point in numeric literal")
		}
		i = digitRun(data, i+1)
	}
	if i < len(data) && data[i]|0x20 == 'e' {
		isInt = false
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		if i >= len(data) {
			return 0, false, errEOF(len(data))
		}
		if data[i]-'0' > 9 {
			return 0, false, errChar(data, i, "in exponent of numeric literal")
		}
		i = digitRun(data, i+1)
	}
	return i, isInt, nil
}

// digitRun returns the index of the first byte at or after i that is not
// an ASCII digit, or len(data), looking at eight bytes at a time: a byte
// below '0' sets the high bit of its lane in x-'0', one above '9' in
// x+0x46 (a byte >= 0xba in the first); a borrow or carry only leaves a
// lane that is set, so the lowest set lane is exact.
func digitRun[T Text](data T, i int) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	for i >= 0 && i+8 <= len(data) {
		x := le64(data[i : i+8])
		if m := ((x - '0'*ones) | (x + 0x46*ones)) & highs; m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
		i += 8
	}
	for i < len(data) && data[i]-'0' <= 9 {
		i++
	}
	return i
}

// numberParts are the parts of valid JSON number text: its sign, the
// spans of its integer and fraction digits, and its exponent.
type numberParts struct {
	neg                bool
	intStart, intEnd   int
	fracStart, fracEnd int   // empty without a fraction
	exp                int64 // clamped to about ±2^40, beyond which no digit count reaches
}

// maxExp is where an exponent stops being read: no text is long enough
// for its digits to bring a number with a larger exponent back into
// float64's range, or to make it less than whole.
const maxExp = 1 << 40

// splitNumber splits the valid JSON number text data[start:end].
func splitNumber[T Text](data T, start, end int) (p numberParts) {
	i := start
	if data[i] == '-' {
		p.neg = true
		i++
	}
	p.intStart = i
	for i < end && data[i]-'0' <= 9 {
		i++
	}
	p.intEnd = i
	p.fracStart, p.fracEnd = i, i
	if i < end && data[i] == '.' {
		i++
		p.fracStart = i
		for i < end && data[i]-'0' <= 9 {
			i++
		}
		p.fracEnd = i
	}
	if i < end { // exponent
		i++
		neg := false
		if data[i] == '+' || data[i] == '-' {
			neg = data[i] == '-'
			i++
		}
		for ; i < end; i++ {
			if p.exp < maxExp {
				p.exp = p.exp*10 + int64(data[i]-'0')
			}
		}
		if neg {
			p.exp = -p.exp
		}
	}
	return p
}

// A Magnitude is where a number lies against float64's range.
type Magnitude uint8

const (
	Zero      Magnitude = iota // zero, however written (-0.0e5)
	Finite                     // not zero, and a float64 holds it (perhaps rounded)
	Overflow                   // float64 would round it to ±Inf
	Underflow                  // not zero, but float64 would round it to zero
)

// magnitude tells where the valid JSON number data[start:end] lies against
// float64's range: Overflow and Underflow are what strconv.ParseFloat
// would turn into ±Inf or zero. It allocates nothing and takes time linear
// in the number's length whatever its exponent.
func magnitude[T Text](data T, start, end int) Magnitude {
	// The usual number has no exponent and fewer digits than float64's
	// range spans (10^-307 to 10^308): one look tells zero or not.
	if end-start < 308 {
		nonzero, exp := false, false
		for k := start; k < end && !exp; k++ {
			c := data[k]
			exp = c|0x20 == 'e'
			nonzero = nonzero || c-'1' <= 8
		}
		switch {
		case exp:
		case nonzero:
			return Finite
		default:
			return Zero
		}
	}
	p := splitNumber(data, start, end)
	// The value is 0.d1d2d3... × 10^e10 with d1 the first nonzero digit.
	first := -1
	var e10 int64
	for k := p.intStart; k < p.intEnd; k++ {
		if data[k] != '0' {
			first = k
			e10 = int64(p.intEnd-k) + p.exp
			break
		}
	}
	if first < 0 {
		for k := p.fracStart; k < p.fracEnd; k++ {
			if data[k] != '0' {
				first = k
				e10 = p.exp - int64(k-p.fracStart)
				break
			}
		}
	}
	switch {
	case first < 0:
		return Zero
	case e10 > int64(len(overflowDigits)):
		return Overflow
	case e10 == int64(len(overflowDigits)):
		// Ties round to even, and MaxFloat64 is odd: the threshold itself overflows.
		if compareDigits(data, first, p.fracEnd, overflowDigits) >= 0 {
			return Overflow
		}
	case e10 < underflowExp:
		return Underflow
	case e10 == underflowExp:
		// Ties round to even, which is zero here: the threshold itself underflows.
		if compareDigits(data, first, p.fracEnd, underflowDigits) <= 0 {
			return Underflow
		}
	}
	return Finite
}

// overflowDigits are the digits of 2^1024 - 2^970, half an ulp above
// math.MaxFloat64: decimal values at or above it round to infinity.
const overflowDigits = "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497792"

// underflowDigits are the digits of 2^-1075, half the smallest subnormal
// float64: 0.2470328... × 10^underflowExp. A nonzero number at or below it
// rounds to zero, which would lose it.
const (
	underflowDigits = "24703282292062327208828439643411068618252990130716238221279284125033775363510437593264991818081799618989828234772285886546332835517796989819938739800539093906315035659515570226392290858392449105184435931802849936536152500319370457678249219365623669863658480757001585769269903706311928279558551332927834338409351978015531246597263579574622766465272827220056374006485499977096599470454020828166226237857393450736339007967761930577506740176324673600968951340535537458516661134223766678604162159680461914467291840300530057530849048765391711386591646239524912623653881879636239373280423891018672348497668235089863388587925628302755995657524455507255189313690836254779186948667994968324049705821028513185451396213837722826145437693412532098591327667236328125"
	underflowExp    = -323
)

// compareDigits compares the digits of data[first:end] (a point among them
// is skipped) with digits, as decimal fractions of the same magnitude: -1,
// 0 or 1 as the number is below, equal to or above them.
func compareDigits[T Text](data T, first, end int, digits string) int {
	t := 0
	for k := first; k < end; k++ {
		c := data[k]
		if c == '.' {
			continue
		}
		if t == len(digits) {
			if c != '0' {
				return 1
			}
			continue
		}
		if c != digits[t] {
			if c > digits[t] {
				return 1
			}
			return -1
		}
		t++
	}
	for ; t < len(digits); t++ {
		if digits[t] != '0' {
			return -1
		}
	}
	return 0
}

// IsWhole reports whether the valid JSON number text is a whole number,
// judged on its digits: those that the exponent leaves after the point
// must all be zero. 1.0 and 1e3 are whole; 1.5 and 1e-3 are not, and
// neither is 1.00000000000000000001, which float64 would make whole.
func IsWhole[T Text](text T) bool {
	i := 0
	if i < len(text) && text[i] == '-' {
		i++
	}
	for i < len(text) && text[i]-'0' <= 9 {
		i++
	}
	if i == len(text) {
		return true // an integer: the usual case
	}
	p := splitNumber(text, 0, len(text))
	if p.fracStart == p.fracEnd && p.exp >= 0 {
		return true // an integer, perhaps scaled up
	}
	// Digits after the point once the exponent has moved it: the last
	// len(frac)-exp digits of int+frac.
	nInt, nFrac := int64(p.intEnd-p.intStart), int64(p.fracEnd-p.fracStart)
	after := nFrac - p.exp
	if after <= 0 {
		return true
	}
	for k := max(nInt+nFrac-after, 0); k < nInt+nFrac; k++ {
		var c byte
		if k < nInt {
			c = text[p.intStart+int(k)]
		} else {
			c = text[p.fracStart+int(k-nInt)]
		}
		if c != '0' {
			return false
		}
	}
	return true
}

// Decimal returns the exact value of the valid JSON number text as its
// significant digits (no leading or trailing zeros; "" for zero) and the
// power of ten they are scaled by: 1.50e3 is ("15", 2), -0.05 is
// (neg, "5", -2). A scale beyond ±2^30 is clamped there: no float64
// reaches it. It allocates when the digits span the point.
func Decimal(text string) (neg bool, digits string, scale int) {
	p := splitNumber(text, 0, len(text))
	lead := strings.TrimLeft(text[p.intStart:p.intEnd], "0")
	frac := text[p.fracStart:p.fracEnd]
	sc := p.exp - int64(len(frac))
	if lead == "" {
		frac = strings.TrimLeft(frac, "0")
	}
	digits = lead + frac // at most one is non-empty unless the digits span the point
	trimmed := strings.TrimRight(digits, "0")
	sc += int64(len(digits) - len(trimmed))
	if trimmed == "" {
		return p.neg, "", 0
	}
	return p.neg, trimmed, int(max(min(sc, 1<<30), -1<<30))
}

// ExactInt returns the float64 of the valid JSON integer text (no fraction,
// no exponent) if the float64 holds its value exactly and writes it back
// with the same digits: every integer up to 2^53, and beyond it those whose
// shortest decimal is their own digits (2^60 is exact, but written back as
// 1152921504606847000, so it is not).
func ExactInt[T Text](text T) (float64, bool) {
	digits := text
	neg := text[0] == '-'
	if neg {
		digits = text[1:]
	}
	switch {
	case len(digits) <= 19: // fits a uint64
		var u uint64
		for k := 0; k < len(digits); k++ {
			u = u*10 + uint64(digits[k]-'0')
		}
		f := float64(u)
		if neg {
			f = -f
		}
		if u <= 1<<53 { // every integer up to 2^53 is a float64, written with its digits
			return f, true
		}
		// Exact iff the odd part fits float64's 53-bit significand.
		if u>>bits.TrailingZeros64(u) >= 1<<53 {
			return 0, false
		}
		var buf [32]byte
		return f, string(strconv.AppendFloat(buf[:0], math.Abs(f), 'f', -1, 64)) == string(digits)
	case len(digits) <= 21: // below 10^21, where float64 is written with an exponent
		f, err := strconv.ParseFloat(string(text), 64)
		if err != nil {
			return 0, false
		}
		var buf [32]byte
		if string(strconv.AppendFloat(buf[:0], math.Abs(f), 'f', 0, 64)) != string(digits) || // inexact
			string(strconv.AppendFloat(buf[:0], math.Abs(f), 'f', -1, 64)) != string(digits) { // written otherwise
			return 0, false
		}
		return f, true
	}
	return 0, false
}

// The decoder's rule for the value of valid JSON number text within
// float64's range: float64, as encoding/json reads it, unless that would
// change the number written. Then it is a json.Number holding its text:
// an integer that float64 holds inexactly, or exactly but writes back
// otherwise (ExactInt), also when written with an exponent or a fraction
// of zeros (1e23, 9007199254740993.0: holdsWhole), and a fraction that
// float64 would make whole (1.00000000000000000001), which would
// otherwise pass for an integer.

// intValue is the value of integer text (no fraction, no exponent).
func intValue[T Text](text T) any {
	f, ok := ExactInt(text)
	switch {
	case !ok:
		return json.Number(text)
	case f >= 0 && f < float64(len(smallInts)) && text[0] != '-':
		return smallInts[int(f)]
	}
	return f
}

// floatValue is the value of number text with a fraction or an exponent,
// whose float64 is f.
func floatValue[T Text](text T, f float64) any {
	if changes(text, f) {
		return json.Number(text)
	}
	return f
}

// changes reports whether f, the float64 of number text with a fraction
// or an exponent, changes the number written.
func changes[T Text](text T, f float64) bool {
	if f != math.Trunc(f) {
		return false
	}
	if !IsWhole(text) {
		return true
	}
	if a := math.Abs(f); a >= 1<<53 {
		// Held exactly, it must also write back as itself: below 1e21
		// float64 is written with its shortest digits, which for 2^63
		// (9223372036854775808.0) are 9223372036854776000, another integer.
		return !holdsWhole(string(text), f) ||
			a < 1e21 && strconv.FormatFloat(f, 'f', -1, 64) != strconv.FormatFloat(f, 'f', 0, 64)
	}
	return false
}

// Value is the float64 that Decode makes of the valid JSON number text
// (without useNumber), and false where Decode keeps the text as a
// json.Number instead; unlike DecodeScalar it does not box the float64.
func Value[T Text](text T) (float64, bool) {
	for i := range len(text) {
		if c := text[i]; c == '.' || c|0x20 == 'e' {
			f, _ := Float(text)
			return f, !changes(text, f)
		}
	}
	return ExactInt(text)
}

// holdsWhole reports whether the whole number f, beyond 2^53, is exactly
// the whole number that text writes with an exponent or a fraction of
// zeros: 1e22 is a float64, 1e23 is not (its float64 is
// 99999999999999991611392), nor 9007199254740993.0.
func holdsWhole(text string, f float64) bool {
	_, digits, scale := Decimal(text)
	var buf [400]byte
	exact := strconv.AppendFloat(buf[:0], math.Abs(f), 'f', 0, 64) // f's every digit
	trimmed := bytes.TrimRight(exact, "0")
	return string(trimmed) == digits && len(exact)-len(trimmed) == scale
}

// Float returns the float64 nearest to the valid JSON number text, as
// strconv.ParseFloat rounds it, and where the text lies against float64's
// range: beyond it (Overflow, Underflow), the float64 is ±Inf or zero, as
// strconv.ParseFloat rounds it.
func Float[T Text](text T) (float64, Magnitude) {
	if f, ok := fastFloat(text); ok {
		if f == 0 {
			return f, Zero
		}
		return f, Finite
	}
	// strconv rounds as magnitude judges: ±Inf is Overflow, and zero
	// is Zero or Underflow, which the digits tell.
	f, _ := strconv.ParseFloat(string(text), 64)
	switch {
	case math.IsInf(f, 0):
		return f, Overflow
	case f == 0:
		return f, magnitude(text, 0, len(text))
	}
	return f, Finite
}

var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// fastFloat converts the valid number text when its significand fits in
// 53 bits and its decimal exponent in ±22: then one correctly rounded
// multiplication or division gives the correctly rounded result, the same
// float64 strconv.ParseFloat returns. strconv takes this path too, after
// parsing more than JSON allows (signs, underscores, hexadecimal,
// infinities): on the short numbers of tool arguments, doing it here takes
// a third of strconv's time, while a number of 17 significant digits pays
// half as much again for the attempt (BenchmarkParseFloat).
func fastFloat[T Text](text T) (float64, bool) {
	i := 0
	neg := text[0] == '-'
	if neg {
		i++
	}
	var m uint64
	nd, frac := 0, 0
	dot := false
	for ; i < len(text); i++ {
		c := text[i]
		if c == '.' {
			dot = true
			continue
		}
		if c|0x20 == 'e' {
			break
		}
		if dot {
			frac++
		}
		if m == 0 && c == '0' {
			continue
		}
		if nd++; nd > 16 {
			return 0, false
		}
		m = m*10 + uint64(c-'0')
	}
	if m == 0 {
		if neg {
			return math.Copysign(0, -1), true
		}
		return 0, true
	}
	exp := 0
	if i < len(text) {
		i++
		eneg := text[i] == '-'
		if text[i] == '+' || eneg {
			i++
		}
		for ; i < len(text); i++ {
			if exp > 1000 {
				return 0, false
			}
			exp = exp*10 + int(text[i]-'0')
		}
		if eneg {
			exp = -exp
		}
	}
	exp -= frac
	if m > 1<<53 || exp < -22 || exp > 22 {
		return 0, false
	}
	f := float64(m)
	if exp >= 0 {
		f *= pow10[exp]
	} else {
		f /= pow10[-exp]
	}
	if neg {
		f = -f
	}
	return f, true
}
