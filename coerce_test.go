package coerce

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"unicode"
)

// The tables below follow the README's conversion rules row by row, one
// table per direction. TestToDeclaredContract then runs every row of every
// table again to check the promises that hold for all of them: the input is
// never mutated, a failure returns the input, a conforming value comes back
// as it is, results conform and are fixed points, and the same input always
// gives the same output.

// errUnspecified stands for "some error" in a case where the README says
// that the input is rejected but names no sentinel for it.
var errUnspecified = errors.New("an error, sentinel unspecified")

// coerceCase is one row: in, declared with opts, gives want, or an error
// wrapping err. paths, when set, lists the Path of every *Error in the
// result, in the order the joined error gives them.
type coerceCase struct {
	name     string
	in       any
	declared string
	opts     Options
	want     any
	err      error
	paths    []string
}

// Named types that are strings, structs and so on underneath: Go callers
// hand these over too.
type (
	testText  string
	testPoint struct {
		A int    `json:"a"`
		B string `json:"b,omitempty"`
		C []int  `json:"c,omitempty"`
		D string `json:"-"`
	}
)

// coerceCall runs o.ToDeclared and turns a panic into a test failure, so
// that one bad row does not take the other tables down with it.
func coerceCall(t *testing.T, o Options, in any, declared string) (got any, err error) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("ToDeclared(%s, %q) panicked: %v", short(in), declared, r)
		}
	}()
	return o.ToDeclared(in, declared)
}

func runCoerceCases(t *testing.T, cases []coerceCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := coerceCall(t, c.opts, c.in, c.declared)
			if c.err != nil {
				if err == nil {
					t.Fatalf("ToDeclared(%s, %q) = %s, want an error", short(c.in), c.declared, short(got))
				}
				if c.err != errUnspecified && !errors.Is(err, c.err) {
					t.Errorf("ToDeclared(%s, %q): error %q, want errors.Is %v", short(c.in), c.declared, err, c.err)
				}
				if c.paths != nil {
					var paths []string
					for _, e := range errorLeaves(err) {
						paths = append(paths, e.Path)
					}
					if d := diff(c.paths, paths); d != "" {
						t.Errorf("ToDeclared(%s, %q): error paths (-want +got):\n%s\nerror: %v", short(c.in), c.declared, d, err)
					}
				}
				return
			}
			if err != nil {
				t.Fatalf("ToDeclared(%s, %q): unexpected error: %v", short(c.in), c.declared, err)
			}
			if d := valueMismatch(got, c.want, byTypeAndValue); d != "" {
				t.Errorf("ToDeclared(%s, %q) = %s: %s", short(c.in), c.declared, short(got), d)
			}
		})
	}
}

func structuredFromStringCases() []coerceCase {
	obj := map[string]any{"a": 1.0}
	arr := []any{1.0, 2.0}
	deep := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	nested := any([]any{})
	for range 99 {
		nested = []any{nested}
	}
	digits := strings.Repeat("9", 5000)
	return []coerceCase{
		// {…} and […]: the whole string is parsed.
		{name: "object", in: `{"a":1}`, declared: "object", want: obj},
		{name: "array", in: `[1,"x",null,true,{"b":[]}]`, declared: "array", want: []any{1.0, "x", nil, true, map[string]any{"b": []any{}}}},
		{name: "empty object", in: `{}`, declared: "dict", want: map[string]any{}},
		{name: "empty array", in: `[]`, declared: "list", want: []any{}},
		{name: "padding", in: " \t\r\n{\"a\":1}\n\t ", declared: "object", want: obj},
		{name: "padding inside", in: "[ 1 ,\n2 ]", declared: "array", want: arr},
		{name: "typed string", in: testText(`{"a":1}`), declared: "object", want: obj},
		{name: "raw message", in: json.RawMessage(`{"a":"1"}`), declared: "dict[str, int]", want: obj},
		{name: "duplicate keys last wins", in: `{"a":0,"a":1}`, declared: "object", want: obj},
		{name: "surrogate pair", in: `["\ud83d\ude00"]`, declared: "array", want: []any{"😀"}},
		{name: "100 deep", in: deep(100), declared: "array", want: nested},

		// Numbers inside the text: float64 unless that would round.
		{name: "numbers inside", in: `[9007199254740992, 9007199254740993, 1.5, 1e2, -7]`, declared: "array",
			want: []any{9007199254740992.0, json.Number("9007199254740993"), 1.5, 100.0, -7.0}},
		{name: "beyond int64 inside", in: `[12345678901234567890]`, declared: "array", want: []any{json.Number("12345678901234567890")}},
		{name: "5000 digits inside", in: "[" + digits + "]", declared: "array", want: []any{json.Number(digits)}},

		// "…": one level of double encoding.
		{name: "double-encoded object", in: `"{\"a\":1}"`, declared: "object", want: obj},
		{name: "double-encoded array", in: `"[1,2]"`, declared: "array", want: arr},
		{name: "double-encoded padded", in: " \"[1,2]\"\n", declared: "array", want: arr},
		{name: "double-encoded inner padding", in: `" [1,2] "`, declared: "array", want: arr},
		{name: "triple-encoded", in: `"\"{\\\"a\\\":1}\""`, declared: "object", err: ErrKind},
		{name: "double-encoded wrong kind", in: `"[1]"`, declared: "object", err: ErrKind},
		{name: "double-encoded word", in: `"hello"`, declared: "object", err: ErrKind},
		{name: "double-encoded empty", in: `""`, declared: "array", err: ErrKind},
		{name: "double-encoded bad escape", in: `"{\x}"`, declared: "object", err: ErrSyntax},
		{opts: Options{StrictJSON: true}, name: "strict: double-encoded invalid JSON", in: `"{a:1}"`, declared: "object", err: ErrSyntax},
		{name: "double-encoded fence", in: "\"```json\\n{}\\n```\"", declared: "object", err: ErrKind},

		// A markdown fence around the whole string.
		{name: "fence with tag", in: "```json\n{\"a\":1}\n```", declared: "object", want: obj},
		{name: "fence without tag", in: "```\n[1,2]\n```", declared: "array", want: arr},
		{name: "fence uppercase tag", in: "```JSON\n[1,2]\n```", declared: "array", want: arr},
		{name: "fence CRLF", in: "```json\r\n{\"a\":1}\r\n```", declared: "object", want: obj},
		{name: "fence CRLF no tag", in: "```\r\n[1,2]\r\n```\r\n", declared: "array", want: arr},
		{name: "fence padded", in: "\n  ```json\n{\"a\":1}\n```  \n", declared: "object", want: obj},
		{name: "fence padded inside", in: "```json\n\n  {\"a\":1}\n\n```", declared: "object", want: obj},
		{name: "fence multi-line", in: "```json\n{\n  \"a\": 1\n}\n```", declared: "object", want: obj},
		{name: "fence prose before", in: "Here you go:\n```json\n{\"a\":1}\n```", declared: "object", err: ErrKind},
		{name: "fence prose after", in: "```json\n{\"a\":1}\n```\nAnything else?", declared: "object", err: ErrKind},
		{name: "fence prose around", in: "Sure.\n```json\n{\"a\":1}\n```\nDone.", declared: "object", err: ErrKind},
		{name: "two fences", in: "```json\n{\"a\":1}\n```\n```json\n{\"b\":2}\n```", declared: "object", err: errUnspecified},
		{name: "two array fences", in: "```\n[1]\n```\n\n```\n[2]\n```", declared: "array", err: errUnspecified},
		{name: "fence tag with digits", in: "```json5\n{\"a\":1}\n```", declared: "object", err: ErrKind},
		{name: "fence closing inline", in: "```json\n{\"a\":1}```", declared: "object", err: ErrKind},
		{name: "fence opening inline", in: "```json {\"a\":1}\n```", declared: "object", err: ErrKind},
		{name: "fence empty content", in: "```json\n\n```", declared: "object", err: ErrKind},
		{name: "fence no content line", in: "```json\n```", declared: "object", err: ErrKind},
		{name: "fence bare no content line", in: "```\n```", declared: "array", err: ErrKind},
		{name: "fence wrong kind", in: "```json\n[1]\n```", declared: "object", err: ErrKind},
		{name: "fence word", in: "```\nhello\n```", declared: "object", err: ErrKind},
		{opts: Options{StrictJSON: true}, name: "strict: fence invalid JSON", in: "```json\n{a:1}\n```", declared: "object", err: ErrSyntax},
		{name: "fence around double-encoded", in: "```json\n\"{\\\"a\\\":1}\"\n```", declared: "object", err: ErrKind},
		{name: "single backticks", in: "`{\"a\":1}`", declared: "object", err: ErrKind},

		// Wrong kind, trailing data, invalid JSON.
		{name: "array text for object", in: `[1,2]`, declared: "object", err: ErrKind},
		{name: "object text for array", in: `{"a":1}`, declared: "array", err: ErrKind},
		{name: "word", in: "hello", declared: "dict", err: ErrKind},
		{name: "empty", in: "", declared: "object", err: ErrKind},
		{name: "spaces", in: " \n ", declared: "array", err: ErrKind},
		{name: "null text", in: "null", declared: "object", err: ErrKind},
		{name: "number text", in: "5", declared: "array", err: ErrKind},
		{name: "NBSP is not JSON whitespace", in: "\u00a0{\"a\":1}", declared: "object", err: ErrKind},
		{name: "trailing object", in: `{"a":1} {"b":2}`, declared: "object", err: ErrSyntax},
		{name: "trailing array", in: `[1] [2]`, declared: "array", err: ErrSyntax},
		{name: "trailing brace", in: `{"a":1}}`, declared: "object", err: ErrSyntax},
		{name: "trailing bracket", in: `[1]]`, declared: "array", err: ErrSyntax},
		{name: "unterminated", in: `[not valid json`, declared: "list", err: errUnspecified},
		{opts: Options{StrictJSON: true}, name: "strict: unquoted key", in: `{a:1}`, declared: "object", err: ErrSyntax},
		{opts: Options{StrictJSON: true}, name: "strict: trailing comma", in: `[1,2,]`, declared: "array", err: ErrSyntax},
		{opts: Options{StrictJSON: true}, name: "strict: trailing comma in object", in: `{"a":1,}`, declared: "object", err: ErrSyntax},
		{opts: Options{StrictJSON: true}, name: "strict: single quotes", in: `['a']`, declared: "array", err: ErrSyntax},
		{name: "leading zero", in: `[01]`, declared: "array", err: ErrSyntax},
		{name: "NaN literal", in: `[NaN]`, declared: "array", err: ErrSyntax},
		{name: "key without value", in: `{"a"}`, declared: "object", err: ErrSyntax},

		// Near-JSON, repaired by default (StrictJSON refuses it, above).
		{name: "unquoted key repaired", in: `{a:1}`, declared: "object", want: map[string]any{"a": 1.0}},
		{name: "trailing comma repaired", in: `[1,2,]`, declared: "array", want: []any{1.0, 2.0}},
		{name: "trailing comma in object repaired", in: `{"a":1,}`, declared: "object", want: map[string]any{"a": 1.0}},
		{name: "single quotes repaired", in: `['a']`, declared: "array", want: []any{"a"}},
		{name: "python literals repaired", in: `{'k': True, 'n': None}`, declared: "object", want: map[string]any{"k": true, "n": nil}},
		{name: "double-encoded near-JSON repaired", in: `"{a:1}"`, declared: "object", want: map[string]any{"a": 1.0}},
		{name: "fenced near-JSON repaired", in: "```json\n{a:1}\n```", declared: "object", want: map[string]any{"a": 1.0}},
		{name: "template tokens repaired", in: "<tool_call>{\"a\": 1}</tool_call>", declared: "object", want: map[string]any{"a": 1.0}},
		{name: "truncated near-JSON refused", in: `{'a': [1, 2`, declared: "object", err: errUnspecified},
		{name: "ambiguous quote refused", in: `['it's']`, declared: "array", err: errUnspecified},
		{name: "underscore number refused", in: `[1_000]`, declared: "array", err: ErrSyntax},

		// Hostile text: encoding/json would silently change these.
		{name: "invalid UTF-8", in: "[\"\xff\"]", declared: "array", err: ErrSyntax},
		{name: "raw control character", in: "[\"a\tb\"]", declared: "array", err: ErrSyntax},
		{name: "lone high surrogate", in: `["\ud800"]`, declared: "array", err: ErrSyntax},
		{name: "lone low surrogate", in: `{"a":"\udc00"}`, declared: "object", err: ErrSyntax},
		{name: "deeper than 10000", in: deep(10001), declared: "array", err: ErrLimit},
		{name: "100000 deep", in: deep(100000), declared: "array", err: ErrLimit},

		// Values of other kinds.
		{name: "number for object", in: 5.0, declared: "object", err: ErrKind},
		{name: "bool for array", in: true, declared: "array", err: ErrKind},
		{name: "array for object", in: []any{}, declared: "object", err: ErrKind},
		{name: "object for array", in: map[string]any{}, declared: "array", err: ErrKind},
		{name: "raw array for object", in: json.RawMessage(`[1]`), declared: "object", err: ErrKind},
	}
}

func TestToDeclaredStructuredFromString(t *testing.T) {
	runCoerceCases(t, structuredFromStringCases())
}

// A JSON object holding itself cannot be written as text.
func cyclicMap() map[string]any {
	m := map[string]any{"name": "loop"}
	m["self"] = m
	return m
}

func cyclicSlice() []any {
	s := []any{"loop", nil}
	s[1] = s
	return s
}

func stringFromStructuredCases() []coerceCase {
	return []coerceCase{
		{name: "map keys sorted", in: map[string]any{"b": 1.0, "a": []any{"x"}, "c": nil}, declared: "str", want: `{"a":["x"],"b":1,"c":null}`},
		{name: "slice", in: []any{1.0, "two", nil, true}, declared: "string", want: `[1,"two",null,true]`},
		{name: "nested", in: []any{map[string]any{"k": []any{map[string]any{"z": 1.5, "a": []any{}}}}, map[string]any{}}, declared: "str",
			want: `[{"k":[{"a":[],"z":1.5}]},{}]`},
		{name: "no HTML escaping", in: map[string]any{"h": "<a&b>"}, declared: "str", want: `{"h":"<a&b>"}`},
		{name: "unicode kept", in: []any{"é", "日本"}, declared: "str", want: `["é","日本"]`},
		{name: "typed map", in: map[string]int{"b": 2, "a": 1}, declared: "str", want: `{"a":1,"b":2}`},
		{name: "typed map of slices", in: map[string][]string{"k": {"<v>"}}, declared: "str", want: `{"k":["<v>"]}`},
		{name: "typed slice", in: []int{3, 1, 2}, declared: "str", want: `[3,1,2]`},
		{name: "string slice", in: []string{"a", "<b>"}, declared: "str", want: `["a","<b>"]`},
		{name: "Go array", in: [2]bool{true, false}, declared: "str", want: `[true,false]`},
		{name: "struct", in: testPoint{A: 1, D: "hidden"}, declared: "str", want: `{"a":1}`},
		{name: "struct pointer", in: &testPoint{A: 1, B: "<b>", C: []int{2}}, declared: "str", want: `{"a":1,"b":"<b>","c":[2]}`},
		{name: "raw message", in: json.RawMessage(`{"b": 1, "a": [1, 2]}`), declared: "str", want: `{"a":[1,2],"b":1}`},
		{name: "raw message array", in: json.RawMessage(" [1, \"<x>\"] "), declared: "str", want: `[1,"<x>"]`},
		{name: "json.Number text kept", in: map[string]any{"id": json.Number("1458059302022549698"), "f": json.Number("1.50")}, declared: "str",
			want: `{"f":1.50,"id":1458059302022549698}`},
		{name: "large float", in: map[string]any{"n": 1e21, "m": 1e-7}, declared: "str", want: `{"m":1e-7,"n":1e+21}`},
		{name: "discord ids", in: map[string]any{"channel_id": "1458059302022549698"}, declared: "str", want: `{"channel_id":"1458059302022549698"}`},
		{name: "empty map", in: map[string]any{}, declared: "str", want: `{}`},
		{name: "empty slice", in: []any{}, declared: "str", want: `[]`},
		{name: "JSON text stays", in: `{"already": "json"}`, declared: "str", want: `{"already": "json"}`},
		{name: "NaN inside", in: map[string]any{"x": math.NaN()}, declared: "str", err: ErrKind},
		{name: "Inf inside", in: []any{1.0, math.Inf(-1)}, declared: "str", err: ErrKind},
		{name: "NaN in typed slice", in: []float32{float32(math.NaN())}, declared: "str", err: ErrKind},
		{name: "cyclic map", in: cyclicMap(), declared: "str", err: ErrLimit},
		{name: "cyclic slice", in: cyclicSlice(), declared: "str", err: ErrLimit},
	}
}

func TestToDeclaredStringFromStructured(t *testing.T) {
	runCoerceCases(t, stringFromStructuredCases())
}

// The numeric strings the README admits and rejects, for integer and number
// alike unless a row says otherwise.
var (
	numeralSyntaxErrors = []string{
		"", " ", "0x10", "0X10", "0b1", "0o7", "1_000", "1,000", "NaN", "nan", "inf", "-inf", "Inf",
		"Infinity", "-Infinity", "+", "-", ".", "e3", "1e", "1e+", "1.2.3", "--5", "+-5", "5-",
		"5 5", "five", "١٢", "５", "0x", "1e3.5",
	}
	// 5000 digits: exact as json.Number, and answered quickly.
	longDigits = "1" + strings.Repeat("234567890", 555) + "1234"
)

// label names a row by its input, shortened so that a 5000-digit string
// does not become a 5000-byte test name.
func label(in string) string {
	if len(in) > 40 {
		return fmt.Sprintf("%s...(%d bytes)", in[:12], len(in))
	}
	return in
}

func numberCases() []coerceCase {
	var cases []coerceCase
	for _, r := range []struct {
		in   string
		want any
	}{
		{"5", 5.0}, {"+5", 5.0}, {"-5", -5.0}, {"007", 7.0}, {" 5 ", 5.0}, {"\t5\n", 5.0},
		{"5.", 5.0}, {"5.0", 5.0}, {"1e3", 1000.0}, {"1E3", 1000.0}, {"1e+3", 1000.0}, {"-1e3", -1000.0},
		{"1.5e1", 15.0}, {"0.1e1", 1.0}, {"0", 0.0}, {"-0", 0.0}, {"00", 0.0}, {"0e999999999", 0.0},
		{"1e20", 1e20},
		{"9007199254740992", 9007199254740992.0},
		{"9007199254740993", json.Number("9007199254740993")},
		{"-9007199254740993", json.Number("-9007199254740993")},
		{"+9007199254740993", json.Number("9007199254740993")},
		{"0009007199254740993", json.Number("9007199254740993")},
		{"9007199254740993.0", json.Number("9007199254740993")},
		{"1458059302022549698", json.Number("1458059302022549698")},
		{"18446744073709551616", json.Number("18446744073709551616")}, // 2^64: float64 would write it back as 18446744073709552000
		{"100000000000000000000", 1e20},
		{longDigits, json.Number(longDigits)},
		{"-" + longDigits, json.Number("-" + longDigits)},
	} {
		cases = append(cases, coerceCase{name: "integer " + label(r.in), in: r.in, declared: "integer", want: r.want})
	}
	for _, r := range []struct {
		in  string
		err error
	}{
		{"5.5", ErrPrecision}, {"1e-2", ErrPrecision}, {".5", ErrPrecision}, {"-0.5", ErrPrecision},
		{"1e400", ErrPrecision}, {"-1e400", ErrPrecision}, {"1e-400", ErrPrecision},
		{"1e999999999", ErrPrecision}, {"1e-999999999", ErrPrecision},
	} {
		cases = append(cases, coerceCase{name: "integer " + r.in, in: r.in, declared: "integer", err: r.err})
	}
	for _, r := range []struct {
		in   string
		want any
	}{
		{"5", 5.0}, {"1.5", 1.5}, {".5", 0.5}, {"-.5", -0.5}, {"+1.5", 1.5}, {"5.", 5.0}, {" 2.5 ", 2.5},
		{"007.5", 7.5}, {"1e-2", 0.01}, {"1E-7", 1e-7}, {"1e3", 1000.0}, {"1e308", 1e308},
		{"1.7976931348623157e308", math.MaxFloat64},
		{"9007199254740993", json.Number("9007199254740993")},
		{longDigits, json.Number(longDigits)},
	} {
		cases = append(cases, coerceCase{name: "number " + label(r.in), in: r.in, declared: "number", want: r.want})
	}
	for _, in := range []string{"1e400", "1e309", "-1e400", "1e999999999"} {
		cases = append(cases, coerceCase{name: "number " + in, in: in, declared: "number", err: ErrPrecision})
	}
	for _, in := range numeralSyntaxErrors {
		cases = append(cases,
			coerceCase{name: "integer " + in, in: in, declared: "int", err: ErrSyntax},
			coerceCase{name: "number " + in, in: in, declared: "float", err: ErrSyntax})
	}
	return append(cases, []coerceCase{
		{name: "typed string", in: testText("42"), declared: "integer", want: 42.0},
		{name: "whole float for integer", in: 5.0, declared: "integer", want: 5.0},
		{name: "large whole float for integer", in: 1e300, declared: "integer", want: 1e300},
		{name: "fraction for integer", in: 5.5, declared: "integer", err: ErrPrecision},
		{name: "int for integer", in: 7, declared: "integer", want: 7},
		{name: "int64 for integer", in: int64(-7), declared: "integer", want: int64(-7)},
		{name: "uint64 for integer", in: uint64(math.MaxUint64), declared: "integer", want: uint64(math.MaxUint64)},
		{name: "float32 for integer", in: float32(2), declared: "integer", want: float32(2)},
		{name: "float32 fraction for integer", in: float32(2.5), declared: "integer", err: ErrPrecision},
		{name: "json.Number for integer", in: json.Number("9007199254740993"), declared: "integer", want: json.Number("9007199254740993")},
		{name: "json.Number exponent for integer", in: json.Number("1e3"), declared: "integer", want: json.Number("1e3")},
		{name: "json.Number fraction for integer", in: json.Number("5.5"), declared: "integer", err: ErrPrecision},
		{name: "true for integer", in: true, declared: "integer", want: 1.0},
		{name: "false for integer", in: false, declared: "integer", want: 0.0},
		{name: "true for number", in: true, declared: "number", want: 1.0},
		{name: "false for number", in: false, declared: "number", want: 0.0},
		{name: "fraction for number", in: 5.5, declared: "number", want: 5.5},
		{name: "int8 for number", in: int8(3), declared: "number", want: int8(3)},
		{name: "NaN for number", in: math.NaN(), declared: "number", err: errUnspecified},
		{name: "NaN for integer", in: math.NaN(), declared: "integer", err: errUnspecified},
		{name: "+Inf for number", in: math.Inf(1), declared: "number", err: errUnspecified},
		{name: "-Inf for integer", in: math.Inf(-1), declared: "integer", err: errUnspecified},
		{name: "float32 NaN for number", in: float32(math.NaN()), declared: "number", err: errUnspecified},
		{name: "word true for integer", in: "true", declared: "integer", err: ErrSyntax},
		{name: "object for integer", in: map[string]any{}, declared: "integer", err: ErrKind},
		{name: "array for number", in: []any{1.0}, declared: "number", err: ErrKind},
	}...)
}

func TestToDeclaredNumbers(t *testing.T) {
	runCoerceCases(t, numberCases())
}

// caseVariants returns every upper/lower-case spelling of an ASCII word.
func caseVariants(word string) []string {
	out := []string{""}
	for _, r := range word {
		lo, up := string(unicode.ToLower(r)), string(unicode.ToUpper(r))
		var next []string
		for _, prefix := range out {
			next = append(next, prefix+lo)
			if up != lo {
				next = append(next, prefix+up)
			}
		}
		out = next
	}
	return out
}

func booleanCases() []coerceCase {
	var cases []coerceCase
	for _, words := range []struct {
		list []string
		want bool
	}{
		{[]string{"true", "1", "yes", "on", "t", "y"}, true},
		{[]string{"false", "0", "no", "off", "f", "n"}, false},
	} {
		for _, w := range words.list {
			for _, v := range caseVariants(w) {
				cases = append(cases, coerceCase{name: v, in: v, declared: "boolean", want: words.want})
			}
		}
	}
	for _, in := range []string{" true", "true ", "\ttrue", "true\n", " 1", "tru", "truee", "", "2", "-1", "01", "1.0", "yes!", "nope", "nil", "null"} {
		cases = append(cases, coerceCase{name: "string " + in, in: in, declared: "bool", err: ErrSyntax})
	}
	return append(cases, []coerceCase{
		{name: "typed string", in: testText("Yes"), declared: "bool", want: true},
		{name: "true", in: true, declared: "bool", want: true},
		{name: "number 0", in: 0.0, declared: "bool", want: false},
		{name: "number -0", in: math.Copysign(0, -1), declared: "bool", want: false},
		{name: "number 1", in: 1.0, declared: "bool", want: true},
		{name: "int 0", in: 0, declared: "bool", want: false},
		{name: "int 1", in: 1, declared: "bool", want: true},
		{name: "uint8 1", in: uint8(1), declared: "bool", want: true},
		{name: "float32 1", in: float32(1), declared: "bool", want: true},
		{name: "json.Number 1", in: json.Number("1"), declared: "bool", want: true},
		{name: "json.Number 0", in: json.Number("0"), declared: "bool", want: false},
		{name: "number 2", in: 2.0, declared: "bool", err: errUnspecified},
		{name: "number -1", in: -1.0, declared: "bool", err: errUnspecified},
		{name: "number 0.5", in: 0.5, declared: "bool", err: errUnspecified},
		{name: "int 2", in: 2, declared: "bool", err: errUnspecified},
		{name: "json.Number 2", in: json.Number("2"), declared: "bool", err: errUnspecified},
		{name: "NaN", in: math.NaN(), declared: "bool", err: errUnspecified},
		{name: "object", in: map[string]any{}, declared: "bool", err: ErrKind},
	}...)
}

func TestToDeclaredBoolean(t *testing.T) {
	runCoerceCases(t, booleanCases())
}

func stringFromScalarCases() []coerceCase {
	return []coerceCase{
		{name: "5", in: 5.0, declared: "str", want: "5"},
		{name: "1.5", in: 1.5, declared: "str", want: "1.5"},
		{name: "-2.25", in: -2.25, declared: "str", want: "-2.25"},
		{name: "0.1", in: 0.1, declared: "str", want: "0.1"},
		{name: "1e21", in: 1e21, declared: "str", want: "1e+21"},
		{name: "1e20", in: 1e20, declared: "str", want: "100000000000000000000"},
		{name: "1e-7", in: 1e-7, declared: "str", want: "1e-7"},
		{name: "1e-6", in: 1e-6, declared: "str", want: "0.000001"},
		{name: "123456789", in: 123456789.0, declared: "str", want: "123456789"},
		{name: "json.Number big", in: json.Number("9007199254740993"), declared: "str", want: "9007199254740993"},
		{name: "json.Number text kept", in: json.Number("1.50"), declared: "str", want: "1.50"},
		{name: "json.Number exponent kept", in: json.Number("1e3"), declared: "str", want: "1e3"},
		{name: "int", in: -3, declared: "str", want: "-3"},
		{name: "int64 max", in: int64(math.MaxInt64), declared: "str", want: "9223372036854775807"},
		{name: "int64 min", in: int64(math.MinInt64), declared: "str", want: "-9223372036854775808"},
		{name: "uint64 max", in: uint64(math.MaxUint64), declared: "str", want: "18446744073709551615"},
		{name: "uint8", in: uint8(255), declared: "str", want: "255"},
		{name: "float32", in: float32(1.1), declared: "str", want: "1.1"},
		{name: "float32 1e21", in: float32(1e21), declared: "str", want: "1e+21"},
		{name: "true", in: true, declared: "str", want: "true"},
		{name: "false", in: false, declared: "str", want: "false"},
		{name: "string stays", in: "5", declared: "str", want: "5"},
		{name: "typed string stays", in: testText("x"), declared: "str", want: testText("x")},
		{name: "NaN", in: math.NaN(), declared: "str", err: ErrKind},
		{name: "+Inf", in: math.Inf(1), declared: "str", err: ErrKind},
		{name: "float32 -Inf", in: float32(math.Inf(-1)), declared: "str", err: ErrKind},
	}
}

func TestToDeclaredStringFromScalar(t *testing.T) {
	runCoerceCases(t, stringFromScalarCases())
}

func nullCases() []coerceCase {
	return []coerceCase{
		{name: "empty for int|null", in: "", declared: "int | null", want: nil},
		{name: "null for int|null", in: "null", declared: "int | null", want: nil},
		{name: "empty for Optional[int]", in: "", declared: "Optional[int]", want: nil},
		{name: "null for Optional[int]", in: "null", declared: "Optional[int]", want: nil},
		{name: "null for Optional[list[int]]", in: "null", declared: "Optional[list[int]]", want: nil},
		{name: "empty for dict|null", in: "", declared: "dict | null", want: nil},
		{name: "empty for null", in: "", declared: "null", want: nil},
		{name: "null for none", in: "null", declared: "none", want: nil},
		{name: "number for int|null", in: "5", declared: "int | null", want: 5.0},
		{name: "empty for str|None", in: "", declared: "str | None", want: ""},
		{name: "null for str|None", in: "null", declared: "str | None", want: "null"},
		{name: "null for Optional[str]", in: "null", declared: "Optional[str]", want: "null"},
		{name: "NULL for int|null", in: "NULL", declared: "int | null", err: errUnspecified},
		{name: "None for int|null", in: "None", declared: "int | null", err: errUnspecified},
		{name: "spaced null for int|null", in: " null", declared: "int | null", err: errUnspecified},
		{name: "nil for null", in: "nil", declared: "null", err: errUnspecified},
		{name: "null for int", in: "null", declared: "int", err: ErrSyntax},
		{name: "empty for int", in: "", declared: "int", err: ErrSyntax},
		{name: "zero for null", in: 0.0, declared: "null", err: errUnspecified},
		{name: "false for null", in: false, declared: "null", err: errUnspecified},
	}
}

func TestToDeclaredNull(t *testing.T) {
	runCoerceCases(t, nullCases())
}

func unionCases() []coerceCase {
	m := map[string]any{"a": 1.0}
	s := []any{"a"}
	return []coerceCase{
		{name: "conforming map kept", in: m, declared: "dict | str", want: m},
		{name: "conforming slice kept", in: s, declared: "list[str] | str", want: s},
		{name: "JSON text kept for str|None", in: `{"x": 1}`, declared: "str | None", want: `{"x": 1}`},
		{name: "JSON text kept for str|list[str]", in: `["a"]`, declared: "str | list[str]", want: `["a"]`},
		{name: "string kept for dict|str", in: "x", declared: "dict|str", want: "x"},
		{name: "own kind first: array", in: []any{"1"}, declared: "str | list[int]", want: []any{1.0}},
		{name: "own kind first: object", in: map[string]any{"a": "1"}, declared: "str | dict[str, int]", want: m},
		{name: "other kinds after own kind", in: []any{"a"}, declared: "list[int] | str", want: `["a"]`},
		{name: "declared order: bool first", in: "1", declared: "bool | int", want: true},
		{name: "declared order: int first", in: "1", declared: "int | bool", want: 1.0},
		{name: "declared order: str first", in: 1.0, declared: "str | bool", want: "1"},
		{name: "declared order: bool before str", in: 1.0, declared: "bool | str", want: true},
		{name: "first success wins", in: map[string]any{"a": "1"}, declared: "dict[str, int] | dict[str, bool]", want: m},
		{name: "first success wins reversed", in: map[string]any{"a": "1"}, declared: "dict[str, bool] | dict[str, int]", want: map[string]any{"a": true}},
		{name: "JSON text for list|null", in: `[1, "2"]`, declared: "list[int] | null", want: []any{1.0, 2.0}},
		{name: "JSON text for Optional[List[int]]", in: "[1, 2, 3]", declared: "Optional[List[int]]", want: []any{1.0, 2.0, 3.0}},
		{name: "elements for list[dict]|str", in: []any{`{"a":1}`}, declared: "list[dict] | str", want: []any{m}},
		{name: "no member fits", in: map[string]any{"a": 1.0}, declared: "int | bool", err: ErrKind, paths: []string{""}},
		{name: "no structured member fits", in: "hello", declared: "list[int] | dict", err: ErrKind, paths: []string{""}},
	}
}

func TestToDeclaredUnion(t *testing.T) {
	runCoerceCases(t, unionCases())
}

// When the value itself fits no member, the error names the whole union,
// not whichever member was tried first.
func TestToDeclaredUnionErrorNamesUnion(t *testing.T) {
	for _, c := range []struct {
		in             any
		declared, want string
	}{
		{map[string]any{"a": 1.0}, "int | bool", "integer | boolean"},
		{"hello", "list[int] | dict", "list[integer] | object"},
		{"x", "Optional[int]", "integer | null"},
		{true, "list[int] | dict", "list[integer] | object"},
	} {
		_, err := coerceCall(t, Options{}, c.in, c.declared)
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("ToDeclared(%s, %q): error %v, want an *Error", short(c.in), c.declared, err)
			continue
		}
		if e.Declared != c.want || e.Path != "" {
			t.Errorf("ToDeclared(%s, %q): Declared %q at %q, want %q at the root", short(c.in), c.declared, e.Declared, e.Path, c.want)
		}
	}
}

func elementCases() []coerceCase {
	return []coerceCase{
		{name: "list[int]", in: []any{"1", 2.0}, declared: "list[int]", want: []any{1.0, 2.0}},
		{name: "dict[str, list[int]]", in: map[string]any{"a": []any{"1", "2"}, "b": "[3]", "c": []any{}}, declared: "dict[str, list[int]]",
			want: map[string]any{"a": []any{1.0, 2.0}, "b": []any{3.0}, "c": []any{}}},
		{name: "list[list[int]] from text", in: []any{`[1,"2"]`}, declared: "list[list[int]]", want: []any{[]any{1.0, 2.0}}},
		{name: "list[str] writes elements", in: []any{map[string]any{"a": 1.0}, "x", 5.0}, declared: "list[str]", want: []any{`{"a":1}`, "x", "5"}},
		{name: "list[dict]", in: []any{`{"a": 1}`, map[string]any{"b": 2.0}}, declared: "list[dict]", want: []any{map[string]any{"a": 1.0}, map[string]any{"b": 2.0}}},
		{name: "text in object", in: map[string]any{"cfg": `{"a":"1"}`}, declared: "dict[str, dict[str, int]]", want: map[string]any{"cfg": map[string]any{"a": 1.0}}},
		{name: "text then elements", in: `{"a":["1"]}`, declared: "dict[str, list[int]]", want: map[string]any{"a": []any{1.0}}},
		{name: "tuple", in: []any{"1", 2.0}, declared: "tuple[int, str]", want: []any{1.0, "2"}},
		{name: "tuple ellipsis", in: []any{"1", "2"}, declared: "tuple[int, ...]", want: []any{1.0, 2.0}},
		{name: "set", in: []any{"1"}, declared: "set[int]", want: []any{1.0}},
		{name: "Go slice syntax", in: []any{"true"}, declared: "[]bool", want: []any{true}},
		{name: "Go map syntax", in: map[string]any{"a": "1"}, declared: "map[string]int", want: map[string]any{"a": 1.0}},
		{name: "Optional[Dict[str, Any]]", in: `{"a":[1]}`, declared: "Optional[Dict[str, Any]]", want: map[string]any{"a": []any{1.0}}},
		{name: "any elements untouched", in: []any{"1"}, declared: "list[any]", want: []any{"1"}},
		{name: "typed map elements", in: map[string]string{"a": "1"}, declared: "dict[str, int]", want: map[string]any{"a": 1.0}},
		{name: "typed slice elements", in: []string{"1", "2"}, declared: "list[int]", want: []any{1.0, 2.0}},
		{name: "typed map conforms", in: map[string]int{"a": 1}, declared: "dict[str, int]", want: map[string]int{"a": 1}},
		{name: "typed slice conforms", in: []int{1, 2}, declared: "list[int]", want: []int{1, 2}},
		{name: "element fails", in: []any{"1", "x"}, declared: "list[int]", err: ErrSyntax, paths: []string{"/1"}},
		{name: "deep path", in: map[string]any{"tasks": []any{map[string]any{"id": "x"}}}, declared: "dict[str, list[dict[str, int]]]",
			err: ErrSyntax, paths: []string{"/tasks/0/id"}},
		{name: "escaped keys", in: map[string]any{"a/b": "x", "c~d": "y"}, declared: "dict[str, int]", err: ErrSyntax, paths: []string{"/a~1b", "/c~0d"}},
		{name: "failures sorted by path", in: map[string]any{"d": "x", "b": "y", "a": 1.0, "c": []any{}}, declared: "dict[str, int]",
			err: ErrSyntax, paths: []string{"/b", "/c", "/d"}},
		{name: "failures in list sorted", in: []any{"x", 1.0, "y", "3", "z"}, declared: "list[int]", err: ErrSyntax, paths: []string{"/0", "/2", "/4"}},
		{name: "failure inside text", in: `[1, "x"]`, declared: "list[int]", err: ErrSyntax, paths: []string{"/1"}},
	}
}

func TestToDeclaredElements(t *testing.T) {
	runCoerceCases(t, elementCases())
}

func nilCases() []coerceCase {
	var cases []coerceCase
	for _, d := range []string{"any", "str", "int", "number", "bool", "null", "object", "array", "list[int]",
		"dict[str, int]", "int | null", "str | None", "tuple[int, str]", "list[dict] | str"} {
		cases = append(cases, coerceCase{name: d, in: nil, declared: d, want: nil})
	}
	return cases
}

func TestToDeclaredNil(t *testing.T) {
	runCoerceCases(t, nilCases())
}

func optionCases() []coerceCase {
	num := Options{UseNumber: true}
	structured := Options{StructuredOnly: true}
	wrap := Options{WrapScalars: true}
	depth := Options{MaxDepth: 3}
	size := Options{MaxSize: 8}
	n := func(s string) json.Number { return json.Number(s) }
	list6 := strings.Repeat("list[", 6) + "int" + strings.Repeat("]", 6)
	return []coerceCase{
		{name: "UseNumber integer", opts: num, in: "5", declared: "integer", want: n("5")},
		{name: "UseNumber number", opts: num, in: "1.5", declared: "number", want: n("1.5")},
		{name: "UseNumber exponent", opts: num, in: "1e3", declared: "integer", want: n("1000")},
		{name: "UseNumber big", opts: num, in: "9007199254740993", declared: "integer", want: n("9007199254740993")},
		{name: "UseNumber true", opts: num, in: true, declared: "integer", want: n("1")},
		{name: "UseNumber false", opts: num, in: false, declared: "number", want: n("0")},
		{name: "UseNumber text", opts: num, in: `[1, 2.5, 1e2, {"a": -3}]`, declared: "array", want: []any{n("1"), n("2.5"), n("100"), map[string]any{"a": n("-3")}}},
		{name: "UseNumber elements", opts: num, in: []any{"1", `[2]`}, declared: "tuple[int, list[int]]", want: []any{n("1"), []any{n("2")}}},

		{name: "StructuredOnly numeric string", opts: structured, in: "5", declared: "integer", err: ErrKind},
		{name: "StructuredOnly fraction string", opts: structured, in: "1.5", declared: "number", err: ErrKind},
		{name: "StructuredOnly number for string", opts: structured, in: 5.0, declared: "str", err: ErrKind},
		{name: "StructuredOnly bool for string", opts: structured, in: true, declared: "str", err: ErrKind},
		{name: "StructuredOnly word for bool", opts: structured, in: "true", declared: "bool", err: ErrKind},
		{name: "StructuredOnly number for bool", opts: structured, in: 1.0, declared: "bool", err: ErrKind},
		{name: "StructuredOnly bool for integer", opts: structured, in: true, declared: "integer", err: ErrKind},
		{name: "StructuredOnly empty for int|null", opts: structured, in: "", declared: "int | null", err: errUnspecified},
		{name: "StructuredOnly elements", opts: structured, in: `["1"]`, declared: "list[int]", err: ErrKind, paths: []string{"/0"}},
		{name: "StructuredOnly array text", opts: structured, in: "[1]", declared: "list[int]", want: []any{1.0}},
		{name: "StructuredOnly object text", opts: structured, in: `{"a":1}`, declared: "object", want: map[string]any{"a": 1.0}},
		{name: "StructuredOnly fence", opts: structured, in: "```json\n{\"a\":1}\n```", declared: "object", want: map[string]any{"a": 1.0}},
		{name: "StructuredOnly map for string", opts: structured, in: map[string]any{"a": 1.0}, declared: "str", want: `{"a":1}`},
		{name: "StructuredOnly slice for string", opts: structured, in: []any{1.0}, declared: "str", want: `[1]`},
		{name: "StructuredOnly conforming scalar", opts: structured, in: 5.0, declared: "integer", want: 5.0},

		{name: "WrapScalars string", opts: wrap, in: "a", declared: "list[str]", want: []any{"a"}},
		{name: "WrapScalars number", opts: wrap, in: 5.0, declared: "list[int]", want: []any{5.0}},
		{name: "WrapScalars numeric string", opts: wrap, in: "5", declared: "list[int]", want: []any{5.0}},
		{name: "WrapScalars bool", opts: wrap, in: true, declared: "list[bool]", want: []any{true}},
		{name: "WrapScalars bare array", opts: wrap, in: "x", declared: "array", want: []any{"x"}},
		{name: "WrapScalars JSON text still parsed", opts: wrap, in: `["a"]`, declared: "list[str]", want: []any{"a"}},
		{name: "WrapScalars broken text list[int]", opts: wrap, in: "[1", declared: "list[int]", err: errUnspecified},
		{name: "WrapScalars broken text list[str]", opts: wrap, in: "[1", declared: "list[str]", err: errUnspecified},
		{name: "WrapScalars broken text array", opts: wrap, in: "[1", declared: "array", err: errUnspecified},
		{name: "WrapScalars invalid text", opts: Options{WrapScalars: true, StrictJSON: true}, in: "[1,]", declared: "list[str]", err: ErrSyntax},
		{name: "WrapScalars element fails", opts: wrap, in: "x", declared: "list[int]", err: errUnspecified},
		{name: "WrapScalars map", opts: wrap, in: map[string]any{}, declared: "list", err: ErrKind},
		{name: "WrapScalars off", in: "a", declared: "list[str]", err: ErrKind},
		{name: "WrapScalars off number", in: 5.0, declared: "list[int]", err: ErrKind},

		{name: "MaxDepth text", opts: depth, in: "[[[[[[1]]]]]]", declared: "array", err: ErrLimit},
		{name: "MaxDepth object text", opts: depth, in: `{"a":{"b":{"c":{"d":{"e":{}}}}}}`, declared: "object", err: ErrLimit},
		{name: "MaxDepth within", opts: depth, in: "[[1]]", declared: "array", want: []any{[]any{1.0}}},
		{name: "MaxDepth value", opts: depth, in: nestedSlices(6, "1"), declared: list6, err: ErrLimit},
		{name: "MaxDepth value for string", opts: depth, in: nestedSlices(6, 1.0), declared: "str", err: ErrLimit},

		{name: "MaxSize text", opts: size, in: "[1,2,3,4,5,6,7,8]", declared: "list[int]", err: ErrLimit},
		{name: "MaxSize double-encoded", opts: size, in: `"[1,2,3,4,5,6,7,8]"`, declared: "array", err: ErrLimit},
		{name: "MaxSize fence", opts: size, in: "```json\n[1,2,3,4,5,6,7,8]\n```", declared: "array", err: ErrLimit},
		{name: "MaxSize written text", opts: size, in: map[string]any{"key": "value"}, declared: "str", err: ErrLimit},
		{name: "MaxSize within", opts: size, in: "[1,2]", declared: "list[int]", want: []any{1.0, 2.0}},
		{name: "MaxSize written within", opts: size, in: []any{1.0}, declared: "str", want: "[1]"},
	}
}

func TestOptions(t *testing.T) {
	runCoerceCases(t, optionCases())
}

// coerceTables is every table, by name, for the contract checks.
func coerceTables() map[string][]coerceCase {
	return map[string][]coerceCase{
		"structured":  structuredFromStringCases(),
		"tostring":    stringFromStructuredCases(),
		"numbers":     numberCases(),
		"boolean":     booleanCases(),
		"scalarstext": stringFromScalarCases(),
		"null":        nullCases(),
		"union":       unionCases(),
		"elements":    elementCases(),
		"nil":         nilCases(),
		"options":     optionCases(),
	}
}

// checkNumbers reports every json.Number in v that is not valid JSON
// number text (json.Marshal would fail on it), and, when noFloats, every
// float64: with UseNumber, numbers produced are all json.Number.
func checkNumbers(t *testing.T, v any, noFloats bool) {
	t.Helper()
	switch x := v.(type) {
	case json.Number:
		if _, ok := parseDecimal(string(x)); !ok {
			t.Errorf("result holds json.Number %q, not JSON number text", x)
		}
	case float64:
		if noFloats {
			t.Errorf("UseNumber result holds float64 %v", x)
		}
	case map[string]any:
		for _, e := range x {
			checkNumbers(t, e, noFloats)
		}
	case []any:
		for _, e := range x {
			checkNumbers(t, e, noFloats)
		}
	}
}

// TestToDeclaredContract checks the README's contract on every row of every
// table.
func TestToDeclaredContract(t *testing.T) {
	for table, cases := range coerceTables() {
		for _, c := range cases {
			t.Run(table+"/"+c.name, func(t *testing.T) {
				typ, perr := ParseType(c.declared)
				if perr != nil {
					t.Fatalf("ParseType(%q): %v", c.declared, perr)
				}
				before := deepCopy(c.in)
				got, err := coerceCall(t, c.opts, c.in, c.declared)

				// Nothing lost: the caller's value is never modified.
				if !equalNaN(before, c.in) {
					t.Errorf("ToDeclared mutated its input:\n%s", diff(before, c.in))
				}
				// Conforms or says why.
				if err != nil {
					checkErrorContract(t, err)
					if !identical(got, c.in) {
						t.Errorf("on error got %s, want the input itself %s", short(got), short(c.in))
					}
				} else {
					if !typ.Conforms(got) {
						t.Errorf("result %s does not conform to %s", short(got), typ)
					}
					checkNumbers(t, got, c.opts.UseNumber)
					again, err := c.opts.ToType(got, typ)
					if err != nil || !identical(again, got) {
						t.Errorf("not a fixed point: ToType(%s) = %s, %v", short(got), short(again), err)
					}
				}
				// Already fits: untouched. A value within MaxDepth's reach is
				// exempt: the limit applies to what conforms too.
				if c.opts.MaxDepth == 0 && typ.Conforms(c.in) && (err != nil || !identical(got, c.in)) {
					t.Errorf("%s conforms to %s but came back as %s, %v", short(c.in), typ, short(got), err)
				}
				// Deterministic: the same bytes every time.
				want := outcome(got, err)
				for range 20 {
					got, err := coerceCall(t, c.opts, c.in, c.declared)
					if o := outcome(got, err); o != want {
						t.Fatalf("not deterministic: %s, then %s", want, o)
					}
				}
			})
		}
	}
}

// TestErrorMessage checks one message whole: the form the brief gives.
func TestErrorMessage(t *testing.T) {
	_, err := ToDeclared(map[string]any{"a": 1.0, "b": "x"}, "dict[str, int]")
	const want = `coerce: /b: want integer, found string "x": invalid syntax`
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error %v, want it to start %q", err, want)
	}
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v is not an *Error", err)
	}
	got := *e
	got.Detail = "" // what it says is not fixed
	if got.declared == nil || got.declared.String() != got.Declared {
		t.Errorf("the error's type, for Feedback, is %v; want the type Declared names, %s", got.declared, got.Declared)
	}
	got.declared = nil // the public fields follow
	if d := diff(Error{Path: "/b", Declared: "integer", Value: "x", Err: ErrSyntax}, got); d != "" {
		t.Errorf("*Error mismatch:\n%s", d)
	}
}

// TestErrorMessageOneLine: a key is the arguments' to choose, so a path
// that holds a line break, another rune that does not print, or invalid
// UTF-8 is quoted in the message, which stays one line per error; a
// printable key is shown as it is.
func TestErrorMessageOneLine(t *testing.T) {
	for _, c := range []struct{ key, want string }{
		{"b", `coerce: /b: `},
		{"é ü", `coerce: /é ü: `},
		{"x\ncoerce: /y", `coerce: "/x\ncoerce: ~1y": `},
		{"x\ny", `coerce: "/x\ny": `},
		{"\u2028", `coerce: "/\u2028": `},
		{"\xff", `coerce: "/\xff": `},
		{"\x7f", `coerce: "/\x7f": `},
	} {
		_, err := ToDeclared(map[string]any{c.key: "x"}, "dict[str, int]")
		if err == nil || !strings.HasPrefix(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("key %q: error %q, want one line that starts %q", c.key, err, c.want)
		}
		checkErrorContract(t, err)
		if text := Feedback(err); strings.Count(text, "\n") != strings.Count(Feedback(errOtherKey), "\n") {
			t.Errorf("key %q: the feedback has more lines than for a plain key:\n%s", c.key, text)
		}
	}
}

var _, errOtherKey = ToDeclared(map[string]any{"b": "x"}, "dict[str, int]")

// TestSentinels checks that each sentinel is used where the README says it
// applies, one representative each.
func TestSentinels(t *testing.T) {
	for _, c := range []struct {
		in       any
		declared string
		want     error
	}{
		{`{"a":`, "object", errUnspecified}, // rejected by the sniff or the parser
		{`{"a":}`, "object", ErrSyntax},
		{"x", "integer", ErrSyntax},
		{"maybe", "boolean", ErrSyntax},
		{"hello", "object", ErrKind},
		{[]any{}, "integer", ErrKind},
		{math.NaN(), "string", ErrKind},
		{5.5, "integer", ErrPrecision},
		{"1e400", "number", ErrPrecision},
		{map[string]any{}, "strng", ErrUnknownType},
		{map[string]any{}, "dict[int, str]", ErrUnknownType},
		{map[string]any{}, "list[", ErrSyntax},
		{cyclicMap(), "string", ErrLimit},
		{strings.Repeat("[", 10001) + strings.Repeat("]", 10001), "array", ErrLimit},
	} {
		got, err := coerceCall(t, Options{}, c.in, c.declared)
		if err == nil {
			t.Errorf("ToDeclared(%s, %q) = %s, want an error", short(c.in), c.declared, short(got))
			continue
		}
		if c.want != errUnspecified && !errors.Is(err, c.want) {
			t.Errorf("ToDeclared(%s, %q): %v, want errors.Is %v", short(c.in), c.declared, err, c.want)
		}
		if !identical(got, c.in) {
			t.Errorf("ToDeclared(%s, %q) returned %s, want the input", short(c.in), c.declared, short(got))
		}
		checkErrorContract(t, err)
	}
}

// A value that already fits comes back as the same map or slice, not a
// copy: the pointers compare equal.
func TestToDeclaredKeepsIdentity(t *testing.T) {
	m := map[string]any{"a": 1.0, "b": []any{"x"}}
	s := []any{"a", "b"}
	nums := []any{1.0, 2.0}
	typed := map[string]int{"a": 1}
	for _, c := range []struct {
		in       any
		declared string
	}{
		{m, "object"},
		{m, "dict | str"},
		{m, "Optional[dict[str, any]]"},
		{m, "str | dict"},
		{s, "list[str] | str"},
		{s, "str | list[str]"},
		{s, "list[str]"},
		{nums, "list[int]"},
		{nums, "list[int] | null"},
		{typed, "dict[str, int]"},
		{typed, "dict | str"},
	} {
		got, err := coerceCall(t, Options{}, c.in, c.declared)
		if err != nil {
			t.Errorf("ToDeclared(%s, %q): %v", short(c.in), c.declared, err)
			continue
		}
		if !identical(got, c.in) {
			t.Errorf("ToDeclared(%s, %q) returned a copy, want the same %T", short(c.in), c.declared, c.in)
		}
	}
}

func BenchmarkToDeclared(b *testing.B) {
	for _, c := range []struct {
		name     string
		in       any
		declared string
	}{
		{"conforming-map-object", map[string]any{"a": 1.0, "b": []any{"x"}}, "object"},
		{"conforming-list-list[int]", []any{1.0, 2.0, 3.0}, "list[int]"},
		{"plain-string-object", "hello", "object"},
		{"json-text-object", `{"selected_files": ["/p1.py", "/p2.py"], "rationale": "core"}`, "object"},
		{"fenced-object", "```json\n{\"a\": 1, \"b\": [1, 2, 3]}\n```", "object"},
		{"map-str", map[string]any{"b": 1.0, "a": []any{"x", "<y>"}}, "str"},
		{"numeric-string-integer", "1458059302022549698", "integer"},
		{"word-boolean", "Yes", "boolean"},
	} {
		b.Run("case="+c.name+"/impl=coerce", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				ToDeclared(c.in, c.declared)
			}
		})
	}
}

// Structured parses object or array text only, and a string that cannot be
// JSON text costs nothing.
func TestStructured(t *testing.T) {
	for _, c := range []struct {
		in   string
		want any
	}{
		{`{"id": "x"}`, map[string]any{"id": "x"}},
		{` [1, 2] `, []any{1.0, 2.0}},
		{"```json\n[\"a\"]\n```", []any{"a"}},
		{`"{\"a\":1}"`, map[string]any{"a": 1.0}},
		{"123", nil},
		{"true", nil},
		{"null", nil},
		{`"hello"`, nil},
		{"[1", nil},
		{"{not json}", nil},
		{"Here you go:\n```json\n{}\n```", nil},
	} {
		got, ok := Structured(c.in)
		if diff := diff(c.want, got); diff != "" || ok != (c.want != nil) {
			t.Errorf("Structured(%q) = %#v, %v; want %#v (-want +got):\n%s", c.in, got, ok, c.want, diff)
		}
	}
	prose := string([]byte("Select the files that matter most."))
	if n := testing.AllocsPerRun(100, func() { Structured(prose) }); n != 0 {
		t.Errorf("Structured(prose): %v allocations, want 0", n)
	}
}
