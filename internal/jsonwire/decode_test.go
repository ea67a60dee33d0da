package jsonwire

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// decEqual is reflect.DeepEqual for decoded JSON values, except that float64
// values are compared by their bits (so -0 differs from 0) and json.Number by
// its text.
func decEqual(a, b any) bool {
	switch a := a.(type) {
	case float64:
		b, ok := b.(float64)
		return ok && math.Float64bits(a) == math.Float64bits(b)
	case []any:
		b, ok := b.([]any)
		if !ok || len(a) != len(b) || (a == nil) != (b == nil) {
			return false
		}
		for i := range a {
			if !decEqual(a[i], b[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		b, ok := b.(map[string]any)
		if !ok || len(a) != len(b) || (a == nil) != (b == nil) {
			return false
		}
		for k, va := range a {
			vb, ok := b[k]
			if !ok || !decEqual(va, vb) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(a, b)
}

// decSameErr reports whether two decoding errors are the same.
func decSameErr(a, b *Error) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a == *b
}

func decIsSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// decDecode decodes in as a string and as a []byte, checks that both give
// the same result, that Skip agrees with them, and that the []byte result
// survives the caller reusing its bytes.
func decDecode(t testing.TB, in string, useNumber bool, maxDepth int) (any, *Error) {
	t.Helper()
	v, err := Decode(in, useNumber, maxDepth)
	if err != nil && (err.Kind == 0 || err.Msg == "") {
		t.Fatalf("Decode(%.60q): error %#v has no Kind or Msg", in, err)
	}
	b := []byte(in)
	vb, errb := Decode(b, useNumber, maxDepth)
	if !decSameErr(err, errb) || !decEqual(v, vb) {
		t.Fatalf("Decode(%.60q): string gives %#v, %v; []byte gives %#v, %v", in, v, err, vb, errb)
	}
	for i := range b {
		b[i] = 'x'
	}
	if !decEqual(v, vb) {
		t.Fatalf("Decode(%.60q): result changed when the input bytes were reused: %#v", in, vb)
	}
	decCheckSkip(t, in, maxDepth, err)
	return v, err
}

// decWalk validates the value at data[i] as Skip does, with Open, Key and
// Next for its structure: the pieces a caller that walks JSON text itself
// uses.
func decWalk(data string, i, depth, maxDepth int) (int, *Error) {
	i = Space(data, i)
	if i >= len(data) || data[i] != '{' && data[i] != '[' {
		return Skip(data, i, depth, maxDepth)
	}
	obj := data[i] == '{'
	i, more, err := Open(data, i, depth, maxDepth)
	for more && err == nil {
		if obj {
			if _, _, _, i, err = Key(data, i); err != nil {
				break
			}
		}
		if i, err = decWalk(data, i, depth+1, maxDepth); err != nil {
			break
		}
		i, more, err = Next(data, i, obj)
	}
	if err != nil {
		return 0, err
	}
	return i, nil
}

// decCheckSkip checks that Skip accepts, rejects and ends as Decode does
// (decErr is Decode's error for in), and that a walk with Open, Key and
// Next agrees with Skip.
func decCheckSkip(t testing.TB, in string, maxDepth int, decErr *Error) {
	t.Helper()
	end, err := Skip(in, 0, 0, maxDepth)
	if wend, werr := decWalk(in, 0, 0, maxDepth); wend != end || !decSameErr(werr, err) {
		t.Fatalf("walk(%.60q) = %d, %v; Skip: %d, %v", in, wend, werr, end, err)
	}
	for _, input := range []any{in, []byte(in)} {
		var end int
		var err *Error
		switch input := input.(type) {
		case string:
			end, err = Skip(input, 0, 0, maxDepth)
		case []byte:
			end, err = Skip(input, 0, 0, maxDepth)
		}
		if err != nil {
			if !decSameErr(err, decErr) {
				t.Fatalf("Skip(%.60q): %v; Decode: %v", in, err, decErr)
			}
			continue
		}
		rest := end
		for rest < len(in) && decIsSpace(in[rest]) {
			rest++
		}
		switch {
		case end > 0 && decIsSpace(in[end-1]):
			t.Fatalf("Skip(%.60q) = %d: includes trailing whitespace", in, end)
		case rest < len(in):
			want := &Error{Kind: Syntax, Msg: "trailing data", Offset: rest}
			if !decSameErr(decErr, want) {
				t.Fatalf("Skip(%.60q) = %d; Decode: %v, want %v", in, end, decErr, want)
			}
		case decErr != nil:
			t.Fatalf("Skip(%.60q) = %d; Decode: %v", in, end, decErr)
		}
	}
}

func decNested(open, close string, n int, inner string) string {
	return strings.Repeat(open, n) + inner + strings.Repeat(close, n)
}

func decBigPow2(n uint) string { return new(big.Int).Lsh(big.NewInt(1), n).String() }

// decDetail is the message of a decoding error with its offset, as Error
// writes it (but with an offset of 0 too).
func decDetail(err *Error) string {
	if err == nil {
		return ""
	}
	return err.Msg + " at offset " + strconv.Itoa(err.Offset)
}

type decCase struct {
	in        string
	useNumber bool
	maxDepth  int
	want      any
	err       ErrorKind // 0 means success
	detail    string    // the exact message and offset, if set
}

func decRunCases(t *testing.T, cases []decCase) {
	t.Helper()
	for _, c := range cases {
		name := c.in
		if len(name) > 40 {
			name = fmt.Sprintf("%.30s...(%d bytes)", name, len(name))
		}
		if c.useNumber {
			name += "/useNumber"
		}
		t.Run(name, func(t *testing.T) {
			got, err := decDecode(t, c.in, c.useNumber, c.maxDepth)
			if c.err == 0 {
				if err != nil {
					t.Fatalf("error %v, want %#v", err, c.want)
				}
				if !decEqual(got, c.want) {
					t.Fatalf("got %#v (%T), want %#v (%T)", got, got, c.want, c.want)
				}
				return
			}
			if err == nil || err.Kind != c.err {
				t.Fatalf("got %#v, %v; want error %v", got, err, c.err)
			}
			if got := decDetail(err); c.detail != "" && got != c.detail {
				t.Fatalf("detail %q, want %q", got, c.detail)
			}
		})
	}
}

func TestDecodeNumbers(t *testing.T) {
	negZero := math.Copysign(0, -1)
	five000 := "1" + strings.Repeat("0", 4999)
	decRunCases(t, []decCase{
		{in: "0", want: 0.0},
		{in: "-0", want: negZero},
		{in: "-0.0", want: negZero},
		{in: "-0e5", want: negZero},
		{in: "0.0", want: 0.0},
		{in: "0e-999999999999", want: 0.0},
		{in: "1", want: 1.0},
		{in: "-1", want: -1.0},
		{in: "10", want: 10.0},
		{in: "999999999999999", want: 999999999999999.0},
		{in: "-999999999999999", want: -999999999999999.0},
		{in: "1234567890123456", want: 1234567890123456.0},
		// Exactness boundaries: 2^53 ± 1.
		{in: "9007199254740991", want: 9007199254740991.0},
		{in: "9007199254740992", want: 9007199254740992.0},
		{in: "9007199254740993", want: json.Number("9007199254740993")},
		{in: "-9007199254740993", want: json.Number("-9007199254740993")},
		{in: "9007199254740994", want: 9007199254740994.0},
		{in: "1458059302022549698", want: json.Number("1458059302022549698")},
		// Integers keep their digits: float64 holds 2^60 exactly, but writes
		// it back as 1152921504606847000.
		{in: "1152921504606846976", want: json.Number("1152921504606846976")},
		{in: "-1152921504606846976", want: json.Number("-1152921504606846976")},
		{in: "100000000000000000000", want: 1e20},
		{in: "18446744073709551615", want: json.Number("18446744073709551615")},
		{in: "18446744073709551616", want: json.Number("18446744073709551616")},
		{in: "18446744073709551617", want: json.Number("18446744073709551617")},
		{in: "100000000000000000000000", want: json.Number("100000000000000000000000")}, // 1e23 is not exact
		{in: "10000000000000000000000", want: json.Number("10000000000000000000000")},   // written back as 1e+22
		{in: decBigPow2(1023), want: json.Number(decBigPow2(1023))},
		{in: decBigPow2(1024), want: json.Number(decBigPow2(1024))},
		{in: five000, want: json.Number(five000)},
		{in: "-" + five000, want: json.Number("-" + five000)},
		// Fractions and exponents round as strconv.ParseFloat does.
		{in: "1.5", want: 1.5},
		{in: "-1.5", want: -1.5},
		{in: "0.1", want: 0.1},
		{in: "0.30000000000000004", want: 0.30000000000000004},
		{in: "1e3", want: 1000.0},
		{in: "1E+3", want: 1000.0},
		{in: "1e-3", want: 0.001},
		{in: "123.456e-7", want: 123.456e-7},
		// A whole number written with a fraction or an exponent is an
		// integer too: float64 only if it holds it exactly.
		{in: "9007199254740992.0", want: 9007199254740992.0},
		{in: "9007199254740993.0", want: json.Number("9007199254740993.0")},
		{in: "9007199254740993e0", want: json.Number("9007199254740993e0")},
		{in: "1e22", want: 1e22},
		{in: "1e23", want: json.Number("1e23")}, // float64's is 99999999999999991611392
		{in: "1.7976931348623157e308", want: json.Number("1.7976931348623157e308")},
		{in: "-1.7976931348623157e308", want: json.Number("-1.7976931348623157e308")},
		{in: "1.2e17", want: 1.2e17},
		{in: "4.9e-324", want: 5e-324},
		// Never a rounded value (README, Hostile input): a nonzero number
		// that float64 would round to zero stays as written, as one that
		// would round to infinity does. encoding/json returns 0 here.
		{in: "1e-400", want: json.Number("1e-400")},
		{in: "-1e-400", want: json.Number("-1e-400")},
		{in: "2.4703282292062327e-324", want: json.Number("2.4703282292062327e-324")}, // below 2^-1075: rounds to 0
		{in: "2.4703282292062328e-324", want: 5e-324},                                 // above it: the smallest subnormal
		{in: "0e-999999999", want: 0.0},
		{in: "-0.0e-400", want: negZero},
		// A fraction that float64 makes whole keeps its digits, so that it
		// never passes for an integer.
		{in: "123456789012345678901234567890.5", want: json.Number("123456789012345678901234567890.5")},
		{in: "9007199254740993.5", want: json.Number("9007199254740993.5")},
		{in: "1.00000000000000000001", want: json.Number("1.00000000000000000001")},
		{in: "1.5e300", want: json.Number("1.5e300")},
		{in: "0.000000000000000000000000000001234", want: 1.234e-30},
		{in: "1e400", want: json.Number("1e400")},
		{in: " [1e400]", want: []any{json.Number("1e400")}},
		{in: "-1e999999999", want: json.Number("-1e999999999")},
		{in: "1e99999999999999999999999999", want: json.Number("1e99999999999999999999999999")},
		{in: "1.7976931348623159e308", want: json.Number("1.7976931348623159e308")},
		{in: "1.0e" + strings.Repeat("9", 5000), want: json.Number("1.0e" + strings.Repeat("9", 5000))},
		{in: "0." + strings.Repeat("0", 5000) + "1e5400", want: json.Number("0." + strings.Repeat("0", 5000) + "1e5400")},
		{in: decBigPow2(1024) + ".0", want: json.Number(decBigPow2(1024) + ".0")},
		// Strict JSON number syntax.
		{in: "01", err: Syntax, detail: "invalid character '1' after leading zero in numeric literal at offset 1"},
		{in: "-01", err: Syntax},
		{in: "00", err: Syntax},
		{in: "[01]", err: Syntax},
		{in: "+1", err: Syntax, detail: "invalid character '+' looking for beginning of value at offset 0"},
		{in: ".5", err: Syntax},
		{in: "1.", err: Truncated, detail: "unexpected end of JSON input at offset 2"},
		{in: "1.e5", err: Syntax},
		{in: "1e", err: Truncated},
		{in: "1e+", err: Truncated},
		{in: "[1e+]", err: Syntax, detail: "invalid character ']' in exponent of numeric literal at offset 4"},
		{in: "-", err: Truncated},
		{in: "--1", err: Syntax},
		{in: "-a", err: Syntax, detail: "invalid character 'a' in numeric literal at offset 1"},
		{in: "0x10", err: Syntax},
		{in: "1_000", err: Syntax},
		{in: "NaN", err: Syntax},
		{in: "Infinity", err: Syntax},
		{in: "-Infinity", err: Syntax},
		{in: "1.5.5", err: Syntax},
		// useNumber keeps the text of every number.
		{in: "1.50", useNumber: true, want: json.Number("1.50")},
		{in: "-0", useNumber: true, want: json.Number("-0")},
		{in: "10", useNumber: true, want: json.Number("10")},
		{in: "9007199254740993", useNumber: true, want: json.Number("9007199254740993")},
		{in: five000, useNumber: true, want: json.Number(five000)},
		{in: "1E-7", useNumber: true, want: json.Number("1E-7")},
		{in: "1e400", useNumber: true, want: json.Number("1e400")},
		{in: "01", useNumber: true, err: Syntax},
		{in: `{"a":[1,2.5]}`, useNumber: true, want: map[string]any{"a": []any{json.Number("1"), json.Number("2.5")}}},
	})
}

// TestDecodeFloatBits checks the fast float path against strconv on numbers
// it takes and on its boundaries.
func TestDecodeFloatBits(t *testing.T) {
	var ins []string
	for _, m := range []string{"1", "3", "7", "0.1", "1.1", "9007199254740991", "9007199254740993", "123456789012345678", "4503599627370497", "2.2250738585072014"} {
		for _, e := range []int{-330, -325, -308, -23, -22, -21, -1, 0, 1, 15, 21, 22, 23, 300, 308, 309} {
			ins = append(ins, m+"e"+strconv.Itoa(e), "-"+m+"e"+strconv.Itoa(e))
		}
	}
	for _, in := range ins {
		want, perr := strconv.ParseFloat(in, 64)
		got, err := Decode(in, false, 0)
		if perr != nil || want == 0 { // beyond the range, or rounded to zero: kept as written
			if err != nil || got != json.Number(in) {
				t.Errorf("%s: got %v, %v; want json.Number", in, got, err)
			}
			continue
		}
		// A number float64 would change keeps its digits: a fraction it
		// makes whole, or a whole number it does not hold exactly.
		r, _ := new(big.Rat).SetString(in)
		changed := want == math.Trunc(want) && (!r.IsInt() || new(big.Rat).SetFloat64(want).Cmp(r) != 0)
		if n, ok := got.(json.Number); ok && err == nil && changed {
			if string(n) != in {
				t.Errorf("%s: got json.Number %v", in, n)
			}
			continue
		}
		if changed {
			t.Errorf("%s: got %v, %v; want json.Number: float64 changes it", in, got, err)
			continue
		}
		if f, ok := got.(float64); !ok || math.Float64bits(f) != math.Float64bits(want) || err != nil {
			t.Errorf("%s: got %v, %v; want %v", in, got, err, want)
		}
	}
}

// TestDecodeOverflowThreshold checks the allocation-free range check at the
// exact boundary: 2^1024 - 2^970 is the smallest value that rounds to +Inf.
func TestDecodeOverflowThreshold(t *testing.T) {
	th := new(big.Int).Lsh(big.NewInt(1), 1024)
	th.Sub(th, new(big.Int).Lsh(big.NewInt(1), 970))
	ts := th.String()
	below := new(big.Int).Sub(th, big.NewInt(1)).String()
	for _, c := range []struct {
		in       string
		overflow bool
	}{
		{ts + ".0", true},
		{ts + "e0", true},
		{below + ".9999999999999999999999999", false},
		{below + "e0", false},
		{ts[:1] + "." + ts[1:] + "e308", true},
		{ts[:1] + "." + below[1:] + "e308", false},
		{"0.0" + ts + "e310", true},
		{"0.0" + below + "e310", false},
		{ts + "00e-2", true},
		{ts + "0000000000000001e-16", true},
		{below + "9999999999999999e-16", false},
		{ts[:20] + "e289", false}, // a prefix is smaller
		{ts[:20] + "4e288", true},
		{"1.797693134862315807e308", false},
		{"1.797693134862315808e308", true},
		{"-1.797693134862315808e308", true},
	} {
		f, perr := strconv.ParseFloat(c.in, 64)
		if (perr != nil) != c.overflow {
			t.Fatalf("test case %.40s: strconv gives %v, %v", c.in, f, perr)
		}
		if got := magnitude(c.in, 0, len(c.in)) == Overflow; got != c.overflow {
			t.Errorf("magnitude(%.40s...) overflows: %v, want %v", c.in, got, c.overflow)
		}
		got, err := decDecode(t, c.in, false, 0)
		if _, isNumber := got.(json.Number); err != nil || c.overflow && !isNumber {
			t.Errorf("Decode(%.40s...) = %#v, %v; want json.Number beyond the range", c.in, got, err)
		}
	}
}

func TestDecodeStrings(t *testing.T) {
	decRunCases(t, []decCase{
		{in: `""`, want: ""},
		{in: `"abc"`, want: "abc"},
		{in: `"a\"b\\c\/d\be\ff\ng\rh\ti"`, want: "a\"b\\c/d\be\ff\ng\rh\ti"},
		{in: `"\u0041\u00e9\u4E2D\u0000"`, want: "Aé中\x00"},
		{in: `"\ud83d\ude00"`, want: "😀"},
		{in: `"\uD83D\uDE00x"`, want: "😀x"},
		{in: `"\ufffd"`, want: "\ufffd"},
		{in: `"\uffff"`, want: "\uffff"},
		{in: "\"é中😀\u2028\x7f\"", want: "é中😀\u2028\x7f"},
		{in: "\"\xef\xbf\xbd\"", want: "\ufffd"},
		{in: `"<>&"`, want: "<>&"},
		{in: `"` + strings.Repeat(`ab\n`, 2000) + `"`, want: strings.Repeat("ab\n", 2000)},
		{in: `["a\nb","c","d\te"]`, want: []any{"a\nb", "c", "d\te"}},
		{in: `{"k\u00e9y":"v\u00e4l"}`, want: map[string]any{"kéy": "väl"}},
		// Escaped lone surrogates are errors (encoding/json makes them U+FFFD).
		{in: `"\ud800"`, err: Syntax, detail: `lone surrogate \ud800 at offset 1`},
		{in: `["ab\uDBFF"]`, err: Syntax, detail: `lone surrogate \udbff at offset 4`},
		{in: `"\udc00"`, err: Syntax, detail: `lone surrogate \udc00 at offset 1`},
		{in: `"\ud800\u0041"`, err: Syntax},
		{in: `"\ud800\ud800"`, err: Syntax},
		{in: `"\ud800\\udc00"`, err: Syntax},
		{in: `"\ude00\ud83d"`, err: Syntax},
		{in: `"\ud800x"`, err: Syntax},
		{in: `"\ud800`, err: Syntax},
		{in: `{"\ud800":1}`, err: Syntax},
		// Bad escapes.
		{in: `"\x"`, err: Syntax, detail: `invalid character 'x' in string escape code at offset 2`},
		{in: `"\'"`, err: Syntax},
		{in: `"\u12"`, err: Syntax, detail: `invalid character '"' in \u hexadecimal character escape at offset 5`},
		{in: `"\u12g4"`, err: Syntax},
		{in: `"\U0041"`, err: Syntax},
		{in: `"\`, err: Truncated, detail: "unexpected end of JSON input at offset 2"},
		// Raw control characters.
		{in: "\"a\nb\"", err: Syntax, detail: `invalid character '\n' in string literal at offset 2`},
		{in: "\"\x00\"", err: Syntax},
		{in: "\"\x1f\"", err: Syntax},
		{in: "\"\t\"", err: Syntax},
		// Invalid UTF-8 (encoding/json makes it U+FFFD).
		{in: "\"ab\xff\"", err: Syntax, detail: "invalid UTF-8 at offset 3"},
		{in: "\"\xc3\"", err: Syntax},
		{in: "\"\xc3", err: Syntax},
		{in: "\"\xc0\xaf\"", err: Syntax},         // overlong
		{in: "\"\xe0\x80\xaf\"", err: Syntax},     // overlong
		{in: "\"\xed\xa0\x80\"", err: Syntax},     // surrogate
		{in: "\"\xf4\x90\x80\x80\"", err: Syntax}, // beyond U+10FFFF
		{in: "\"\xf0\x9f\x98\"", err: Syntax},     // truncated
		{in: "\"\x80\"", err: Syntax},             // lone continuation
		{in: "{\"a\xff\":1}", err: Syntax},        // in a key
		{in: "\xff", err: Syntax},                 // outside a string
		{in: "[1,\xc3\xa9]", err: Syntax, detail: "invalid character 'é' looking for beginning of value at offset 3"},
		{in: `"abc`, err: Truncated, detail: "unexpected end of JSON input at offset 4"},
	})
}

func TestDecodeStructure(t *testing.T) {
	decRunCases(t, []decCase{
		{in: "{}", want: map[string]any{}},
		{in: "[]", want: []any{}},
		{in: "[[]]", want: []any{[]any{}}},
		{in: "[{}]", want: []any{map[string]any{}}},
		{in: "true", want: true},
		{in: "false", want: false},
		{in: "null", want: nil},
		{in: " \t\r\n[ 1 ,\n2 , [ ] , { } ]\r\n ", want: []any{1.0, 2.0, []any{}, map[string]any{}}},
		{in: "{ \"a\" : 1 , \"b\" :[ true,false ,null ] }", want: map[string]any{"a": 1.0, "b": []any{true, false, nil}}},
		{in: `{"channel_id":"1458059302022549698","limit":10}`, want: map[string]any{"channel_id": "1458059302022549698", "limit": 10.0}},
		{in: `{"a":1,"b":2,"a":3}`, want: map[string]any{"a": 3.0, "b": 2.0}},
		{in: `{"a":{"x":1},"a":{"y":2}}`, want: map[string]any{"a": map[string]any{"y": 2.0}}},
		{in: `[{"a":[1,{"b":null}]},"s",-2.5e-3]`, want: []any{map[string]any{"a": []any{1.0, map[string]any{"b": nil}}}, "s", -2.5e-3}},
		// Empty input, whitespace and trailing data.
		{in: "", err: Truncated, detail: "unexpected end of JSON input at offset 0"},
		{in: "  \n", err: Truncated, detail: "unexpected end of JSON input at offset 3"},
		{in: "\f1", err: Syntax},
		{in: "\u00a01", err: Syntax},
		{in: "\ufeff1", err: Syntax},
		{in: "1 2", err: Syntax, detail: "trailing data at offset 2"},
		{in: "[1] [2]", err: Syntax, detail: "trailing data at offset 4"},
		{in: "{} x", err: Syntax},
		{in: "truex", err: Syntax, detail: "trailing data at offset 4"},
		{in: "\"a\"\"b\"", err: Syntax},
		{in: "1\x00", err: Syntax},
		// Structural errors.
		{in: "[1,]", err: Syntax, detail: "invalid character ']' looking for beginning of value at offset 3"},
		{in: "[,1]", err: Syntax},
		{in: "[1 2]", err: Syntax, detail: "invalid character '2' after array element at offset 3"},
		{in: "[1}", err: Syntax},
		{in: "{]", err: Syntax, detail: "invalid character ']' looking for beginning of object key string at offset 1"},
		{in: `{"a":1,}`, err: Syntax},
		{in: `{"a" 1}`, err: Syntax, detail: "invalid character '1' after object key at offset 5"},
		{in: `{"a":1 "b":2}`, err: Syntax, detail: "invalid character '\"' after object key:value pair at offset 7"},
		{in: `{"a":1]`, err: Syntax},
		{in: `{1:2}`, err: Syntax},
		{in: `{'a':1}`, err: Syntax},
		{in: `{"a"`, err: Truncated, detail: "unexpected end of JSON input at offset 4"},
		{in: `{"a":`, err: Truncated},
		{in: `[`, err: Truncated},
		{in: `[1`, err: Truncated},
		{in: `[1,`, err: Truncated},
		{in: `{`, err: Truncated},
		{in: `]`, err: Syntax},
		{in: `x`, err: Syntax, detail: "invalid character 'x' looking for beginning of value at offset 0"},
		{in: "tru", err: Truncated, detail: "unexpected end of JSON input at offset 3"},
		{in: "trUe", err: Syntax, detail: "invalid character 'U' in literal true (expecting 'u') at offset 2"},
		{in: "nul", err: Truncated},
		{in: "nulL", err: Syntax},
		{in: "fals", err: Truncated},
		{in: "True", err: Syntax},
		{in: "[true,fals]", err: Syntax},
	})
}

func TestDecodeDepth(t *testing.T) {
	const deep = 200000
	decRunCases(t, []decCase{
		{in: decNested("[", "]", 10000, ""), want: decNestedValue(10000, "")},
		{in: decNested("[", "]", 10000, "1"), want: decNestedValue(10000, "1")},
		{in: decNested("[", "]", 10001, ""), err: Depth, detail: "nesting deeper than 10000 at offset 10000"},
		{in: decNested(`{"a":`, "}", 10000, "1"), want: decNestedValue(10000, "o")},
		{in: decNested(`{"a":`, "}", 10001, "1"), err: Depth, detail: "nesting deeper than 10000 at offset 50000"},
		{in: decNested("[", "]", 3, "1"), maxDepth: 3, want: decNestedValue(3, "1")},
		{in: decNested("[", "]", 4, "1"), maxDepth: 3, err: Depth, detail: "nesting deeper than 3 at offset 3"},
		{in: `[[[1]],{"a":[{}]}]`, maxDepth: 3, err: Depth, detail: "nesting deeper than 3 at offset 13"},
		{in: `[[[1]],{"a":[2]}]`, maxDepth: 3, want: []any{[]any{[]any{1.0}}, map[string]any{"a": []any{2.0}}}},
		{in: "1", maxDepth: -1, want: 1.0},
		// Hostile nesting: an error, quickly, not a stack overflow.
		{in: strings.Repeat("[", deep), err: Depth},
		{in: decNested("[", "]", deep, ""), err: Depth},
		{in: strings.Repeat(`{"a":`, deep), err: Depth},
		{in: strings.Repeat(`[{"a":`, deep), err: Depth},
		{in: strings.Repeat("[", deep), maxDepth: 1 << 30, err: Truncated, detail: "unexpected end of JSON input at offset 200000"},
		{in: decNested("[", "]", deep, "1"), maxDepth: 1 << 30, want: decNestedValue(deep, "1")},
		{in: decNested("[", "]", deep, "1") + "]", maxDepth: 1 << 30, err: Syntax, detail: "trailing data at offset 400001"},
		{in: strings.Repeat(`[{"a":`, deep/2) + "x", maxDepth: 1 << 30, err: Syntax},
	})
}

// decNestedValue builds n nested arrays around 1, or nothing ("") or, for
// "o", n nested {"a":...} objects around 1.
func decNestedValue(n int, inner string) any {
	var v any
	switch inner {
	case "":
		v = []any{}
		n--
	case "1":
		v = 1.0
	case "o":
		v = 1.0
		for ; n > 0; n-- {
			v = map[string]any{"a": v}
		}
		return v
	}
	for ; n > 0; n-- {
		v = []any{v}
	}
	return v
}

func TestSkip(t *testing.T) {
	for _, c := range []struct {
		in       string
		i, end   int
		maxDepth int
		detail   string
	}{
		{in: "  [1, 2]  x", end: 8},
		{in: `{"a":1}{"b":2}`, end: 7},
		{in: `{"a":1}{"b":2}`, i: 7, end: 14},
		{in: `{"a":1}, {"b":2}`, i: 8, end: 16},
		{in: `x"abc"`, i: 1, end: 6},
		{in: `x"ab`, i: 1, detail: "unexpected end of JSON input at offset 4"},
		{in: `[1,2,3] garbage`, end: 7},
		{in: `123abc`, end: 3},
		{in: `-0.5e+7,`, end: 7},
		{in: `truefalse`, end: 4},
		{in: "", detail: "unexpected end of JSON input at offset 0"},
		{in: "x  ", i: 1, detail: "unexpected end of JSON input at offset 3"},
		{in: "x  ]", i: 1, detail: "invalid character ']' looking for beginning of value at offset 3"},
		{in: `[1e400]`, end: 7}, // a number beyond float64 is JSON all the same
		{in: `["\ud800"]`, detail: `lone surrogate \ud800 at offset 2`},
		{in: "[[[]]]", maxDepth: 2, detail: "nesting deeper than 2 at offset 2"},
		{in: decNested("[", "]", 5000, "1") + "x", maxDepth: 5000, end: 10001},
		{in: decNested("[", "]", 5000, "1"), maxDepth: 4999, detail: "nesting deeper than 4999 at offset 4999"},
		{in: decNested("[{\"a\":", "}]", 3000, "1"), end: 3000*8 + 1},
		{in: decNested("[{\"a\":", "]}", 3000, "1"), detail: "invalid character ']' after object key:value pair at offset 18001"},
	} {
		for _, input := range []any{c.in, []byte(c.in)} {
			var end int
			var err *Error
			switch input := input.(type) {
			case string:
				end, err = Skip(input, c.i, 0, c.maxDepth)
			case []byte:
				end, err = Skip(input, c.i, 0, c.maxDepth)
			}
			if c.detail != "" {
				if decDetail(err) != c.detail {
					t.Errorf("Skip(%.40q, %d) = %d, %v; want error %q", c.in, c.i, end, err, c.detail)
				}
				continue
			}
			if err != nil || end != c.end {
				t.Errorf("Skip(%.40q, %d) = %d, %v; want %d", c.in, c.i, end, err, c.end)
			}
		}
	}
	// Deeper than one skip call's own stack, with a limit that allows it.
	const deep = 200000
	in := decNested("[", "]", deep, `{"a":[1,"x"]}`)
	if end, err := Skip(in, 0, 0, 1<<30); err != nil || end != len(in) {
		t.Errorf("Skip(200000 deep) = %d, %v", end, err)
	}
	if _, err := Skip(in[:len(in)-1], 0, 0, 1<<30); err == nil {
		t.Errorf("Skip(200000 deep, unclosed) accepted")
	}
	if _, err := Skip(in, 0, 0, 0); err == nil || err.Kind != Depth {
		t.Errorf("Skip(200000 deep, default limit): %v", err)
	}
}

func TestSkipAllocs(t *testing.T) {
	doc := decDoc10KB()
	docString := string(doc)
	small := []byte(decSmallDoc)
	for name, f := range map[string]func(){
		"10KB/bytes":  func() { Skip(doc, 0, 0, 0) },
		"10KB/string": func() { Skip(docString, 0, 0, 0) },
		"small/bytes": func() { Skip(small, 0, 0, 0) },
		"deep":        func() { Skip(decDeepDoc, 0, 0, 1<<20) },
		"numbers":     func() { Skip(decNumbersDoc, 0, 0, 0) },
	} {
		if n := testing.AllocsPerRun(20, f); n != 0 {
			t.Errorf("Skip(%s): %v allocations", name, n)
		}
	}
}

var (
	decDeepDoc    = decNested("[", "]", 5000, `{"a":"\u00e9\ud83d\ude00"}`)
	decNumbersDoc = "[" + decBigPow2(1024) + ".5e-3, 1.7976931348623157e308, 0." + strings.Repeat("0", 400) + "1e400, 123456789012345678901234567890]"
)

// decBytesPerRun returns the average number of bytes f allocates.
func decBytesPerRun(runs int, f func()) uint64 {
	f()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range runs {
		f()
	}
	runtime.ReadMemStats(&after)
	return (after.TotalAlloc - before.TotalAlloc) / uint64(runs)
}

func TestDecodeStringShares(t *testing.T) {
	in := `"` + strings.Repeat("abcdefgh", 100) + `"`
	// The content of a string input is not copied: a substring goes in the
	// interface. (Not an exact count: under -race, sync.Pool drops items.)
	if n := decBytesPerRun(100, func() { Decode(in, false, 0) }); n >= 800 {
		t.Errorf("Decode(string) allocated %v bytes per run: the string was copied", n)
	}
	// A []byte input is copied, once.
	b := []byte(in)
	if n := decBytesPerRun(100, func() { Decode(b, false, 0) }); n < 800 || n >= 1600 {
		t.Errorf("Decode([]byte) allocated %v bytes per run, want one copy", n)
	}
	// Many escaped strings of a document share one arena: 101 string
	// headers, the arena, the slice and its header.
	esc := "[" + strings.Repeat(`"a\nb",`, 100) + `"x"]`
	if n := testing.AllocsPerRun(100, func() { Decode(esc, false, 0) }); n > 115 {
		t.Errorf("Decode(100 escaped strings) allocated %v times, want about 104", n)
	}
}

// Equal short string values of a document share one interface (box): the
// values are as encoding/json reads them, a repeated one costs no
// allocation, and the pooled decoder keeps none of them.
func TestDecodeBoxesRepeatedStrings(t *testing.T) {
	in := "[" + strings.Repeat(`"echo","alpha","line\none","",`, 250) + `"x", "` + strings.Repeat("long", 20) + `"]`
	var want any
	if err := json.Unmarshal([]byte(in), &want); err != nil {
		t.Fatal(err)
	}
	if got, err := Decode(in, false, 0); err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("Decode = %v, %v; want encoding/json's %v", got, err, want)
	}
	// The slice, the escape arenas (256 bytes to 2 KB), the first boxAfter
	// strings, the distinct ones after them and the long one: 18, not the
	// thousand of a string each. (Not an exact count: under -race,
	// sync.Pool drops items, and a new decoder grows its scratch.)
	if n := testing.AllocsPerRun(100, func() { Decode(in, false, 0) }); n > 40 {
		t.Errorf("Decode(1000 strings, 4 distinct) allocated %v times, want about %d", n, 1+4+boxAfter+4+1)
	}
	// A new decoder that meets many strings, none of them shared.
	d := new(decoder)
	d.s = "[" + strings.Repeat(`"`+strings.Repeat("long", 20)+`",`, 20) + `""]`
	if _, err := d.parse(DefaultMaxDepth); err != nil {
		t.Fatal(err)
	}
	d.release()
	d = new(decoder)
	d.s = in
	if _, err := d.parse(DefaultMaxDepth); err != nil {
		t.Fatal(err)
	}
	if d.boxes == nil {
		t.Fatal("no string was shared")
	}
	if d.boxOff {
		t.Error("box stopped looking in a document of 4 distinct strings")
	}
	boxes := d.boxes
	d.release()
	for i, b := range boxes {
		if b != (boxed{}) {
			t.Fatalf("released decoder still holds boxed string %d: %q", i, b.s)
		}
	}
	// A document of unique strings stops looking them up.
	var uniq strings.Builder
	uniq.WriteString(`["x"`)
	for i := range 500 {
		fmt.Fprintf(&uniq, `,"user%d@example.com"`, i*7919)
	}
	uniq.WriteString(`]`)
	d = new(decoder)
	d.s = uniq.String()
	if _, err := d.parse(DefaultMaxDepth); err != nil {
		t.Fatal(err)
	}
	if !d.boxOff || d.boxMisses > boxGiveUp {
		t.Errorf("box looked up %d unique strings, want it to stop after %d", d.boxMisses, boxGiveUp)
	}
	d.release()
}

// TestDecodeMatchesEncodingJSON compares whole documents with encoding/json.
func TestDecodeMatchesEncodingJSON(t *testing.T) {
	for name, doc := range map[string][]byte{
		"small": []byte(decSmallDoc),
		"10KB":  decDoc10KB(),
	} {
		var want any
		if err := json.Unmarshal(doc, &want); err != nil {
			t.Fatal(err)
		}
		got, err := decDecode(t, string(doc), false, 0)
		if err != nil || !decEqual(got, want) {
			t.Errorf("%s: differs from encoding/json: %v", name, err)
		}
		d := json.NewDecoder(bytes.NewReader(doc))
		d.UseNumber()
		if err := d.Decode(&want); err != nil {
			t.Fatal(err)
		}
		got, err = decDecode(t, string(doc), true, 0)
		if err != nil || !decEqual(got, want) {
			t.Errorf("%s (useNumber): differs from encoding/json: %v", name, err)
		}
	}
}

// TestDecodeHostile runs inputs meant to be slow; each must finish quickly
// (not asserted: the test run time shows it).
func TestDecodeHostile(t *testing.T) {
	digits := strings.Repeat("7", 1<<20)
	for name, in := range map[string]string{
		"1MB integer":          digits,
		"1MB integer in array": "[" + digits + "," + digits + "]",
		"1MB fraction":         "0." + digits,
		"1MB mantissa exp":     digits + "e-999999999999999999",
		"huge exponent":        "1e" + digits,
		"huge negative exp":    "-1.5e-" + digits,
		"1MB zeros":            "0." + strings.Repeat("0", 1<<20) + "1",
		"many numbers":         "[" + strings.Repeat("123456789.123456789e-5,", 50000) + "0]",
		"many big ints":        "[" + strings.Repeat("123456789012345678901234567890,", 50000) + "0]",
		"deep unclosed":        strings.Repeat("[", 1<<20),
		"deep objects":         strings.Repeat(`{"":`, 1<<18),
		"long escapes":         `"` + strings.Repeat(`\ud83d\ude00\n`, 1<<16) + `"`,
	} {
		for _, useNumber := range []bool{false, true} {
			v, err := decDecode(t, in, useNumber, 0)
			if name == "1MB integer" && !useNumber && !decEqual(v, json.Number(digits)) {
				t.Errorf("%s: %v", name, err)
			}
		}
	}
}

// Benchmark documents.

const decSmallDoc = `{"channel_id":"1458059302022549698","limit":10}`

// decDoc10KB builds, deterministically, a JSON array of about 10 KB of
// objects with string, integer, float, bool, null, nested array and nested
// object fields, as tool results and workflow data look.
func decDoc10KB() []byte {
	words := []string{"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet", "kilo", "lima"}
	seed := uint32(12345)
	next := func() int {
		seed = seed*1664525 + 1013904223
		return int(seed >> 8)
	}
	var b bytes.Buffer
	b.WriteString("[")
	for i := 0; b.Len() < 10*1024-300; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"id":%d,"name":"%s %s","email":"user%d@example.com","active":%t,"score":%d.%02d,`,
			100000+next()%900000, words[next()%len(words)], words[next()%len(words)], next()%10000, next()%2 == 0, next()%100, next()%100)
		fmt.Fprintf(&b, `"ratio":%g,"tags":["%s","%s","%s"],"parent":null,"counts":[%d,%d,%d],`,
			float64(next()%1000000)/7.0, words[next()%len(words)], words[next()%len(words)], words[next()%len(words)], next()%1000, next()%1000, -next()%1000)
		fmt.Fprintf(&b, `"meta":{"created":"2024-%02d-%02dT%02d:%02d:00Z","version":%d,"note":"line one\nline \"two\""}}`,
			1+next()%12, 1+next()%28, next()%24, next()%60, next()%10)
	}
	b.WriteString("]")
	return b.Bytes()
}

func BenchmarkDecode(b *testing.B) {
	for _, doc := range []struct {
		name string
		data []byte
	}{
		{"small", []byte(decSmallDoc)},
		{"10KB", decDoc10KB()},
	} {
		s := string(doc.data)
		b.Run("doc="+doc.name+"/impl=coerce", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(doc.data)))
			for b.Loop() {
				if _, err := Decode(doc.data, false, 0); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("doc="+doc.name+"-string/impl=coerce", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(s)))
			for b.Loop() {
				if _, err := Decode(s, false, 0); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("doc="+doc.name+"/impl=encoding_json", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(doc.data)))
			for b.Loop() {
				var v any
				if err := json.Unmarshal(doc.data, &v); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkSkipValue(b *testing.B) {
	for _, doc := range []struct {
		name string
		data []byte
	}{
		{"small", []byte(decSmallDoc)},
		{"10KB", decDoc10KB()},
	} {
		b.Run("doc="+doc.name+"/impl=coerce", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(doc.data)))
			for b.Loop() {
				if _, err := Skip(doc.data, 0, 0, 0); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("doc="+doc.name+"/impl=encoding_json", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(doc.data)))
			for b.Loop() {
				if !json.Valid(doc.data) {
					b.Fatal("invalid")
				}
			}
		})
	}
}

// Differential fuzzing against encoding/json.

// decStdUseNumber decodes data with encoding/json's UseNumber, requiring
// nothing but whitespace after the value, as Unmarshal does.
func decStdUseNumber(data []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	for _, c := range data[d.InputOffset():] {
		if !decIsSpace(c) {
			return nil, errors.New("trailing data")
		}
	}
	return v, nil
}

// decOurNumbers maps the json.Numbers of encoding/json's UseNumber result
// to our rule: float64 unless an integer literal float64 cannot hold exactly.
// The exactness oracle is math/big, independent of the code under test. It
// reports false if a number with a fraction or exponent is beyond range.
func decOurNumbers(v any) (any, bool) {
	switch v := v.(type) {
	case json.Number:
		// The rule: float64, as encoding/json reads it, unless that
		// changes the number written: an integer float64 holds inexactly
		// (however written) or writes back otherwise, or a fraction
		// float64 makes whole.
		s := string(v)
		f, err := strconv.ParseFloat(s, 64)
		exact, ok := new(big.Rat).SetString(s)
		if !ok {
			// An exponent beyond what big.Rat takes ("0E1000...0"): zero
			// if the digits are; otherwise a number ParseFloat overflows
			// (an error below) or, with a negative exponent, a nonzero
			// fraction it reads as 0, which is kept as written, as 1e-400 is.
			mantissa, _, _ := strings.Cut(strings.ToLower(s), "e")
			if strings.Trim(mantissa, "-0.") != "" {
				return v, true
			}
			exact = new(big.Rat)
		}
		if err != nil || f == 0 && exact.Sign() != 0 {
			return v, true // beyond float64's range: kept as written
		}
		if strings.ContainsAny(s, ".eE") {
			if err == nil && f == math.Trunc(f) {
				if fr, _ := new(big.Float).SetFloat64(f).Rat(nil); !exact.IsInt() || fr.Cmp(exact) != 0 {
					return v, true
				}
				// A whole number must also write back as itself.
				if math.Abs(f) < 1e21 && strconv.FormatFloat(f, 'f', -1, 64) != strconv.FormatFloat(f, 'f', 0, 64) {
					return v, true
				}
			}
			return f, err == nil
		}
		if err != nil {
			return v, true
		}
		fr, _ := new(big.Float).SetFloat64(f).Rat(nil)
		if fr.Cmp(exact) != 0 || math.Abs(f) >= 1e21 || strconv.FormatFloat(f, 'f', -1, 64) != s {
			return v, true
		}
		return f, true
	case []any:
		out := make([]any, len(v))
		for i := range v {
			var ok bool
			if out[i], ok = decOurNumbers(v[i]); !ok {
				return nil, false
			}
		}
		return out, true
	case map[string]any:
		out := make(map[string]any, len(v))
		for k := range v {
			var ok bool
			if out[k], ok = decOurNumbers(v[k]); !ok {
				return nil, false
			}
		}
		return out, true
	}
	return v, true
}

// decLoneSurrogateAt reports whether data[off:] is an escaped surrogate that
// is not the high half of a well-formed pair.
func decLoneSurrogateAt(data []byte, off int) bool {
	hex := func(i int) int64 {
		if i+6 > len(data) || data[i] != '\\' || data[i+1] != 'u' {
			return -1
		}
		n, err := strconv.ParseInt(string(data[i+2:i+6]), 16, 32)
		if err != nil {
			return -1
		}
		return n
	}
	r := hex(off)
	if r < 0xd800 || r > 0xdfff {
		return false
	}
	r2 := hex(off + 6)
	return r >= 0xdc00 || r2 < 0xdc00 || r2 > 0xdfff
}

// decNumberOverflowsAt reports whether a number with a fraction or exponent
// that strconv.ParseFloat finds out of range starts at data[off].
func decNumberOverflowsAt(data []byte, off int) bool {
	s := decNumberAt(data, off)
	_, err := strconv.ParseFloat(s, 64)
	return strings.ContainsAny(s, ".eE") && err != nil || decNumberUnderflowsAt(data, off)
}

// decNumberUnderflowsAt reports a nonzero number that float64 rounds to
// zero, which encoding/json reads as 0 and we refuse.
func decNumberUnderflowsAt(data []byte, off int) bool {
	s := decNumberAt(data, off)
	f, err := strconv.ParseFloat(s, 64)
	mantissa, _, _ := strings.Cut(strings.ToLower(s), "e")
	return err == nil && f == 0 && strings.ContainsAny(mantissa, "123456789")
}

func decNumberAt(data []byte, off int) string {
	end := off
	for end < len(data) && strings.IndexByte("+-0123456789.eE", data[end]) >= 0 {
		end++
	}
	return string(data[off:end])
}

// decCheckDivergence checks that our rejecting what encoding/json accepted
// is one of the documented divergences.
func decCheckDivergence(t *testing.T, data []byte, err *Error) {
	t.Helper()
	switch off := err.Offset; {
	case strings.HasPrefix(err.Msg, "lone surrogate") && err.Kind == Syntax && decLoneSurrogateAt(data, off):
	case err.Kind == Range && decNumberOverflowsAt(data, off):
	default:
		t.Fatalf("%q: we reject (%v), encoding/json accepts", data, err)
	}
}

func FuzzDecodeDifferential(f *testing.F) {
	for _, s := range []string{
		decSmallDoc, `{"a":[1,2.5,-0,true,false,null,"x\u00e9\ud83d\ude00"],"b":{}}`,
		`9007199254740993`, `[1e400]`, `"\ud800"`, `"\udc00\ud800"`, "\"\xff\"", `01`, ` [ ] `,
		`{"a":1,"a":2}`, `1.7976931348623159e308`, `-0.0e-0`, `[1,2`, `{"a" : "b" } x`,
		`123456789012345678901234567890`, `0.1e1`, `"\/\b\f\n\r\t\"\\"`, "\"\u2028\"",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		in := string(data)
		got, err := decDecode(t, in, false, 0) // string vs []byte, Skip, reuse
		gotN, errN := decDecode(t, in, true, 0)
		if !decSameErr(err, errN) {
			t.Fatalf("%q: useNumber changes the verdict: %v vs %v", data, err, errN)
		}
		if !utf8.Valid(data) {
			if err == nil || errN == nil {
				t.Fatalf("%q: invalid UTF-8 accepted", data)
			}
			return
		}
		if str, ok := got.(string); ok {
			// A string's content, unescaped alone, is what Decode reads.
			lit := strings.Trim(in, " \t\r\n")
			if u := Unescape(lit[1 : len(lit)-1]); u != str {
				t.Fatalf("%q: Unescape gives %q, Decode %q", data, u, str)
			}
		}
		std, stdErr := decStdUseNumber(data)
		var plain any
		plainErr := json.Unmarshal(data, &plain)

		// useNumber against encoding/json's UseNumber.
		switch {
		case errN == nil && stdErr != nil:
			t.Fatalf("%q: useNumber accepts, encoding/json rejects: %v", data, stdErr)
		case errN == nil && !decEqual(gotN, std):
			t.Fatalf("%q: useNumber gives %#v, encoding/json %#v", data, gotN, std)
		case errN != nil && stdErr == nil:
			decCheckDivergence(t, data, errN)
		}

		// Default numbers against encoding/json.
		switch {
		case err == nil && stdErr != nil:
			t.Fatalf("%q: accepted, encoding/json rejects: %v", data, stdErr)
		case err == nil:
			want, ok := decOurNumbers(std)
			if !ok || !decEqual(got, want) {
				t.Fatalf("%q: got %#v, want %#v", data, got, want)
			}
			if plainErr == nil && !decEqual(got, plain) && !decHasNumber(got) {
				t.Fatalf("%q: got %#v, encoding/json Unmarshal %#v", data, got, plain)
			}
		case stdErr == nil:
			decCheckDivergence(t, data, err)
			// Overflow is refused by plain encoding/json too; underflow it
			// reads as 0, which we refuse as a rounded value.
			if err.Kind == Range && plainErr == nil && !decNumberUnderflowsAt(data, err.Offset) {
				t.Fatalf("%q: out of range for us, not for encoding/json", data)
			}
		}
	})
}

func decHasNumber(v any) bool {
	switch v := v.(type) {
	case json.Number:
		return true
	case []any:
		for _, e := range v {
			if decHasNumber(e) {
				return true
			}
		}
	case map[string]any:
		for _, e := range v {
			if decHasNumber(e) {
				return true
			}
		}
	}
	return false
}

// TestJSONPlainRun checks the eight-bytes-at-a-time scan against the table,
// for every byte value at every lane, alone and followed by another.
func TestJSONPlainRun(t *testing.T) {
	want := func(b []byte, i int) int {
		for i < len(b) && plain[b[i]] {
			i++
		}
		return i
	}
	buf := make([]byte, 24)
	for c := range 256 {
		for p := range 20 {
			for _, c2 := range []byte{'a', 0, '"', '\\', 0x80, 0xff, 0x1f, 0x7f} {
				for k := range buf {
					buf[k] = 'a'
				}
				buf[p] = byte(c)
				buf[p+2] = c2
				for start := range 3 {
					if got, w := plainRun(buf, start), want(buf, start); got != w {
						t.Fatalf("plainRun(%q, %d) = %d, want %d", buf, start, got, w)
					}
					if got, w := plainRun(string(buf), start), want(buf, start); got != w {
						t.Fatalf("plainRun(string %q, %d) = %d, want %d", buf, start, got, w)
					}
				}
			}
		}
	}
}

// TestDecodeConcurrent decodes from several goroutines at once (the scratch
// is pooled); run it with -race.
func TestDecodeConcurrent(t *testing.T) {
	doc := decDoc10KB()
	want, err := Decode(doc, false, 0)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan bool)
	for g := range 4 {
		go func() {
			defer func() { done <- true }()
			for k := range 20 {
				in := []byte(`{"a":[1,"x\n",{"b":null}],"c":"d"}`)
				got, err := Decode(in, g%2 == 0, 0)
				if err != nil || !decEqual(got, map[string]any{"a": []any{decNum(1, g%2 == 0), "x\n", map[string]any{"b": nil}}, "c": "d"}) {
					t.Errorf("concurrent decodeJSON: %#v, %v", got, err)
					return
				}
				if k%5 == 0 {
					if got, err := Decode(string(doc), false, 0); err != nil || !decEqual(got, want) {
						t.Errorf("concurrent decodeJSON of the 10 KB document differs: %v", err)
						return
					}
				}
				if _, err := Decode(`[1,2,`, false, 0); err == nil {
					t.Errorf("concurrent decodeJSON accepted bad input")
					return
				}
			}
		}()
	}
	for range 4 {
		<-done
	}
}

func decNum(f float64, useNumber bool) any {
	if useNumber {
		return json.Number(strconv.FormatFloat(f, 'f', -1, 64))
	}
	return f
}

// TestJSONDecimal checks the exact value of number text: significant
// digits and their scale.
func TestJSONDecimal(t *testing.T) {
	for _, c := range []struct {
		in     string
		neg    bool
		digits string
		scale  int
	}{
		{"0", false, "", 0},
		{"-0.000e5", true, "", 0},
		{"5", false, "5", 0},
		{"1.50e3", false, "15", 2},
		{"-0.05", true, "5", -2},
		{"1200", false, "12", 2},
		{"10.01", false, "1001", -2},
		{"0.0010e-2", false, "1", -5},
		{"1e9999999999999999999", false, "1", 1 << 30},
		{"1e-9999999999999999999", false, "1", -1 << 30},
	} {
		neg, digits, scale := Decimal(c.in)
		if neg != c.neg || digits != c.digits || scale != c.scale {
			t.Errorf("Decimal(%q) = %v, %q, %d; want %v, %q, %d", c.in, neg, digits, scale, c.neg, c.digits, c.scale)
		}
	}
}

// TestUnescape decodes the content of string literals as Decode does, for
// keys read in place.
func TestUnescape(t *testing.T) {
	for _, lit := range []string{
		`""`, `"abc"`, `"a\"b\\c\/d\be\ff\ng\rh\ti"`, `"\u0041\u00e9\u4E2D\u0000"`, `"\ud83d\ude00x"`,
		`"é中😀"`, `"` + strings.Repeat(`ab\n`, 100) + `"`, `"\uffff\ufffd"`,
	} {
		want, err := Decode(lit, false, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, got := range []string{Unescape(lit[1 : len(lit)-1]), Unescape([]byte(lit[1 : len(lit)-1]))} {
			if got != want {
				t.Errorf("Unescape(%s) = %q, want %q", lit, got, want)
			}
		}
	}
	// Content without escapes is copied once, if it is bytes, and not at
	// all if it is a string.
	if n := testing.AllocsPerRun(100, func() { Unescape("plain key") }); n != 0 {
		t.Errorf("Unescape(string without escapes): %v allocations", n)
	}
	key := []byte("plain key")
	if n := testing.AllocsPerRun(100, func() { Unescape(key) }); n != 1 {
		t.Errorf("Unescape(bytes without escapes): %v allocations", n)
	}
}

func TestScanString(t *testing.T) {
	for _, c := range []struct {
		in      string
		i, end  int
		escaped bool
		msg     string
	}{
		{in: `x"a\"b"y`, i: 1, end: 7, escaped: true},
		{in: `"abc"`, end: 5},
		{in: `"é"`, end: 4},
		{in: `"ab`, msg: "unexpected end of JSON input at offset 3"},
		{in: "\"a\x01\"", msg: `invalid character '\x01' in string literal at offset 2`},
	} {
		end, escaped, err := scanString(c.in, c.i+1)
		if c.msg != "" {
			if decDetail(err) != c.msg {
				t.Errorf("scanString(%q, %d): %v, want %q", c.in, c.i, err, c.msg)
			}
			continue
		}
		if err != nil || end != c.end || escaped != c.escaped {
			t.Errorf("scanString(%q, %d) = %d, %v, %v; want %d, %v", c.in, c.i, end, escaped, err, c.end, c.escaped)
		}
	}
}

// The short readers agree with the general ones wherever they answer:
// ShortKey with Key, ShortString with SkipString, ShortInt with
// SkipNumber, for keys and values of every length around their limits,
// every byte value inside them, and the bytes that may follow.
func TestShortReaders(t *testing.T) {
	var keys []string
	for n := range 11 {
		for c := range 256 {
			for p := range max(n, 1) {
				k := []byte(strings.Repeat("k", n))
				if n > 0 {
					k[p] = byte(c)
				}
				keys = append(keys, string(k))
			}
		}
	}
	for _, k := range keys {
		for _, after := range []string{`:`, `: `, `:  `, ` :`, `:"`, `x`, `: 1, "b": 2}`, `:` + "\t1"} {
			for _, in := range [][]byte{[]byte(`"` + k + `"` + after + "          "), []byte(`"` + k + `"` + after)} {
				w, n, next, ok := ShortKey(in, 0)
				if !ok {
					continue
				}
				start, end, escaped, knext, err := Key(in, 0)
				if err != nil || escaped || start != 1 || end != 1+n || next != knext {
					t.Fatalf("ShortKey(%q) = %d, %d, true; Key = %d, %d, %v, %d, %v", in, n, next, start, end, escaped, knext, err)
				}
				var want uint64
				for i := n - 1; i >= 0; i-- {
					want = want<<8 | uint64(in[1+i])
				}
				if w != want {
					t.Fatalf("ShortKey(%q) word %#x, want %#x", in, w, want)
				}
			}
		}
		in := []byte(`"` + k + `",        `)
		if end, ok := ShortString(in, 0); ok {
			if want, err := SkipString(in, 0); err != nil || end != want {
				t.Fatalf("ShortString(%q) = %d; SkipString = %d, %v", in, end, want, err)
			}
		}
	}
	for _, num := range []string{"0", "7", "00", "01", "10", "1234567", "12345678", "-1", "1.5", "1e5", "1E5", "0.", "1x", "0e", "12,"} {
		in := []byte(num + ",       ")
		if end, ok := ShortInt(in, 0); ok {
			if want, isInt, err := SkipNumber(in, 0); err != nil || !isInt || end != want {
				t.Fatalf("ShortInt(%q) = %d; SkipNumber = %d, %v, %v", in, end, want, isInt, err)
			}
		}
	}
}

func TestShortIntAnswers(t *testing.T) {
	for num, want := range map[string]bool{"0": true, "7": true, "1234567": true, "12345678": false,
		"00": false, "01": false, "-1": false, "1.5": false, "1e5": false, "1E5": false, "x": false} {
		if _, ok := ShortInt([]byte(num+",       "), 0); ok != want {
			t.Errorf("ShortInt(%q) ok = %v, want %v", num, ok, want)
		}
	}
}
