package coerce

import (
	"encoding/json"
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/coerce-go/coerce/internal/jsonwire"
)

// TestNumeralValue converts numeric strings by the README's rules, which
// are those of JSON numbers once the string is read.
func TestNumeralValue(t *testing.T) {
	negZero := math.Copysign(0, -1)
	big308 := "2" + strings.Repeat("0", 308)
	for _, c := range []struct {
		in        string
		integer   bool
		useNumber bool
		want      any
		why       *Error // the refusal, instead of want
	}{
		// Digits alone: the decoder's rule for integers.
		{in: "5", integer: true, want: 5.0},
		{in: "+5", integer: true, want: 5.0},
		{in: "007", want: 7.0},
		{in: " 5 ", integer: true, want: 5.0},
		{in: "-0", want: negZero},
		{in: "-000", useNumber: true, want: json.Number("-0")},
		{in: "9007199254740993", integer: true, want: json.Number("9007199254740993")},
		{in: "+0009007199254740993", want: json.Number("9007199254740993")},
		{in: "1458059302022549698", integer: true, want: json.Number("1458059302022549698")},
		{in: "5", useNumber: true, want: json.Number("5")},
		{in: big308, integer: true, want: json.Number(big308)},
		// Whole, written with a point or an exponent, declared integer:
		// exact, as the digits it stands for.
		{in: "5.0", integer: true, want: 5.0},
		{in: "5.", integer: true, want: 5.0},
		{in: "1e3", integer: true, want: 1000.0},
		{in: "1.5e3", integer: true, useNumber: true, want: json.Number("1500")},
		{in: "9007199254740991.0", integer: true, want: 9007199254740991.0},
		{in: "9007199254740993.0", integer: true, want: json.Number("9007199254740993")},
		{in: "9007199254740993e0", integer: true, want: json.Number("9007199254740993")},
		{in: "1e21", integer: true, want: json.Number("1" + strings.Repeat("0", 21))},
		{in: " 1e21", integer: true, want: json.Number("1" + strings.Repeat("0", 21))},
		{in: "400309e15", integer: true, want: json.Number("400309" + strings.Repeat("0", 15))}, // float64 would round it
		{in: "2e308", integer: true, want: json.Number(big308)},
		{in: "1e309", integer: true, why: outOfRange},
		{in: "1e999999999999", integer: true, why: outOfRange},
		{in: "5.5", integer: true, why: notWhole},
		{in: "1e-3", integer: true, why: notWhole},
		{in: "1.00000000000000000001", integer: true, why: notWhole},
		// Declared number: a float64 as strconv.ParseFloat rounds it,
		// within float64's range.
		{in: "2.5", want: 2.5},
		{in: ".5", want: 0.5},
		{in: "-.5e1", want: -5.0},
		{in: "1E5", want: 1e5},
		{in: "1e3", want: 1000.0},
		{in: "12345678901234567890.", want: 12345678901234567890.0},
		{in: "1.00000000000000000001", want: 1.0},
		{in: "1.5e+05", useNumber: true, want: json.Number("1.5e5")},
		{in: "+01.50E-02", useNumber: true, want: json.Number("1.50e-2")},
		{in: "1e400", why: outOfRange},
		{in: "2e308", why: outOfRange},
		{in: "1e-400", why: tooSmall},
		{in: "-1e-400", useNumber: true, why: tooSmall},
		// Zero in any spelling.
		{in: "0.0", want: 0.0},
		{in: "-0.0e5", integer: true, want: negZero},
		{in: "+0.000e-999999", useNumber: true, want: json.Number("0")},
		{in: "-.0", useNumber: true, want: json.Number("-0")},
	} {
		n, ok := scanNumeral(c.in)
		if !ok {
			t.Errorf("scanNumeral(%q) failed", c.in)
			continue
		}
		got, why := n.value(c.integer, c.useNumber)
		switch {
		case c.why != nil && why != c.why:
			t.Errorf("%q (integer %v): got %#v, %v; want %v", c.in, c.integer, got, why, c.why)
		case c.why == nil && (why != nil || !sameNumber(got, c.want)):
			t.Errorf("%q (integer %v, useNumber %v): got %#v, %v; want %#v", c.in, c.integer, c.useNumber, got, why, c.want)
		}
	}
}

func sameNumber(a, b any) bool {
	switch a := a.(type) {
	case float64:
		b, ok := b.(float64)
		return ok && math.Float64bits(a) == math.Float64bits(b)
	case json.Number:
		b, ok := b.(json.Number)
		return ok && a == b
	}
	return false
}

// TestScanNumeral reads numeric strings into JSON number text of the same
// value, and refuses the rest.
func TestScanNumeral(t *testing.T) {
	for _, in := range []string{
		"0", "-0", "+0", "00", "5", "+5", "-5", "007", " 5 ", "\t5\n", "\u00a05", ".5", "5.", "-.5", "+5.e3",
		"1e5", "1E5", "1e+05", "1e-05", "1e-0", "1e00", "0.0e0", "1.50", "123456789012345678901234567890",
		"1e99999", "000.000e-000",
	} {
		n, ok := scanNumeral(in)
		if !ok || !jsonwire.IsNumber(n.text) {
			t.Errorf("scanNumeral(%q) = %q, %v: not JSON number text", in, n.text, ok)
			continue
		}
		want, _ := new(big.Rat).SetString(strings.TrimSpace(in))
		if got, _ := new(big.Rat).SetString(n.text); got.Cmp(want) != 0 || n.neg != strings.HasPrefix(strings.TrimSpace(in), "-") {
			t.Errorf("scanNumeral(%q) = %q, neg %v: another value", in, n.text, n.neg)
		}
	}
	for _, in := range []string{"", " ", "+", "-", ".", "e5", ".e5", "5e", "5e+", "0x10", "1_000", "1,000", "NaN", "inf", "Infinity", "5 5", "--5", "5..", "1e5.5"} {
		if n, ok := scanNumeral(in); ok {
			t.Errorf("scanNumeral(%q) = %q: not a numeral", in, n.text)
		}
	}
	// JSON number text is its own text: reading it costs nothing.
	for _, in := range []string{"5", "-2.5", "1e-7", " 10 "} {
		if n := testing.AllocsPerRun(100, func() { scanNumeral(in) }); n != 0 {
			t.Errorf("scanNumeral(%q): %v allocations", in, n)
		}
	}
}

// TestWholeEqualIsNumbersEqual: the comparison of an enum's number text
// with a whole float64 that skips formatting (wholeEqual) answers as
// comparing their decimal values does.
func TestWholeEqualIsNumbersEqual(t *testing.T) {
	texts := []json.Number{"0", "-0", "0.0", "1", "1.0", "1e0", "10", "1e1", "100", "1e2", "1.5", "-5", "-5.00",
		"-50", "9007199254740992", "9007199254740993", "9007199254740991", "123456789", "1.23456789e8", "5e-1"}
	floats := []float64{0, math.Copysign(0, -1), 1, 10, 100, -5, -50, 1.5, 0.5, 9007199254740991, 9007199254740992,
		123456789, 1e15, -1e15, math.Inf(1)}
	for _, n := range texts {
		for _, x := range floats {
			want := false
			if xt, ok := numberText(x); ok {
				_, dn, sn := jsonwire.Decimal(string(n))
				nn, _, _ := jsonwire.Decimal(string(n))
				xn, dx, sx := jsonwire.Decimal(xt)
				want = dn == dx && (dn == "" || sn == sx && nn == xn)
			}
			if got := numbersEqual(n, x); got != want {
				t.Errorf("numbersEqual(%s, %v) = %v, want %v", n, x, got, want)
			}
			if got := numbersEqual(x, n); got != want {
				t.Errorf("numbersEqual(%v, %s) = %v, want %v", x, n, got, want)
			}
		}
	}
}
