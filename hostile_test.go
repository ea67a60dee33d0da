package coerce

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unsafe"
)

// The hostile inputs of the README: each must be answered, quickly, with the
// error it prescribes. Big inputs are made here; small ones live in
// testdata/hostile.

// hangAfter is far beyond what any case here needs: a case that takes it
// hangs, and fails instead of blocking CI until the global test timeout.
// It is a hang detector, not the time budget: every case is to be answered
// within a second, which `go test -run Hostile -v .` shows (answer logs each
// time), but timings are never asserted on these shared, noisy machines,
// least of all under -race.
const hangAfter = 60 * time.Second

// answer runs f and returns its results, failing the test if f has not
// returned after hangAfter. f runs in its own goroutine, which keeps
// running after such a failure: Go cannot stop it.
func answer[T any](t *testing.T, what string, f func() T) T {
	t.Helper()
	done := make(chan T, 1)
	start := time.Now()
	go func() { done <- f() }()
	select {
	case v := <-done:
		if testing.Verbose() {
			t.Logf("%s: answered in %v", what, time.Since(start).Round(time.Microsecond))
		}
		return v
	case <-time.After(hangAfter):
		t.Fatalf("%s: no answer after %v", what, hangAfter)
		panic("unreachable")
	}
}

type answered struct {
	out any
	err error
}

// nested is open n times, leaf, close n times.
func nested(open, leaf, close string, n int) string {
	return strings.Repeat(open, n) + leaf + strings.Repeat(close, n)
}

const hostileDepth = 200_000

func TestHostileNesting(t *testing.T) {
	deepArray := nested("[", "", "]", hostileDepth)
	deepObject := nested(`{"a":`, "1", "}", hostileDepth)
	tests := []struct {
		name      string
		opts      Options
		in        any
		declared  string
		sentinels []error
	}{
		{"array closed", Options{}, deepArray, "array", []error{ErrLimit, ErrSyntax}},
		{"array closed typed", Options{}, deepArray, "list[list]", []error{ErrLimit, ErrSyntax}},
		{"array unclosed", Options{}, strings.Repeat("[", hostileDepth) + "]", "array", []error{ErrLimit, ErrSyntax}},
		{"object closed", Options{}, deepObject, "object", []error{ErrLimit, ErrSyntax}},
		{"object closed typed", Options{}, deepObject, "dict[str, dict]", []error{ErrLimit, ErrSyntax}},
		{"object unclosed", Options{}, strings.Repeat(`{"a":`, hostileDepth) + "}", "dict", []error{ErrLimit, ErrSyntax}},
		{"mixed closed", Options{}, nested(`[{"a":`, "1", "}]", hostileDepth/2), "list[dict]", []error{ErrLimit, ErrSyntax}},
		// Neither first nor last byte says JSON: rejected without parsing.
		{"only openers", Options{}, strings.Repeat("[", hostileDepth), "array", []error{ErrKind}},
		{"double-encoded", Options{}, strconv.Quote(deepArray), "array", []error{ErrLimit, ErrSyntax}},
		{"fenced", Options{}, "```json\n" + deepArray + "\n```", "array", []error{ErrLimit, ErrSyntax}},
		{"raw message", Options{}, json.RawMessage(deepArray), "array", []error{ErrLimit, ErrSyntax}},
		// Options.MaxDepth is the package's own limit: ErrLimit, whatever
		// the parser beneath says.
		{"MaxDepth text", Options{MaxDepth: 5}, nested("[", "1", "]", 10), "array", []error{ErrLimit}},
		{"MaxDepth text typed", Options{MaxDepth: 5}, nested("[", "1", "]", 10), "list[list[list[list[list[list[list[list[list[list[int]]]]]]]]]]", []error{ErrLimit}},
		{"Go value to string", Options{}, nestedSlices(hostileDepth, []any{}), "string", []error{ErrLimit}},
		{"Go value to string MaxDepth", Options{MaxDepth: 5}, nestedSlices(10, []any{}), "string", []error{ErrLimit}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := answer(t, tt.name, func() answered {
				out, err := tt.opts.ToDeclared(tt.in, tt.declared)
				return answered{out, err}
			})
			wantErr(t, fmt.Sprintf("ToDeclared(%.40v..., %q)", tt.in, tt.declared), r.err, tt.sentinels...)
			if s, ok := tt.in.(string); ok && !identical(r.out, s) {
				t.Errorf("on error got %.40v..., want the input string itself", r.out)
			}
		})
	}
}

// The same depths inside a parameter: the parameter fails, the others
// convert, and CoerceJSON refuses text it cannot read at all.
func TestHostileNestingInSchema(t *testing.T) {
	s, err := ParseSchema([]byte(`{"type": "object", "properties": {
		"p": {"type": "array"},
		"q": {"type": "object", "additionalProperties": {"type": "integer"}},
		"n": {"type": "integer"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	deepArray := nested("[", "", "]", hostileDepth)
	deepObject := nested(`{"a":`, "1", "}", hostileDepth)
	for _, text := range []string{deepArray, strings.Repeat("[", hostileDepth) + "]"} {
		args := map[string]any{"p": text, "q": deepObject, "n": "5"}
		r := answer(t, "Coerce", func() answered {
			out, err := s.Coerce(args)
			return answered{out, err}
		})
		wantErr(t, "Coerce", r.err, ErrLimit, ErrSyntax)
		got := r.out.(map[string]any)
		if !identical(got["p"], text) || !identical(got["q"], deepObject) || got["n"] != float64(5) {
			t.Errorf("Coerce: p, q not kept or n not converted: n = %#v", got["n"])
		}
		var paths []string
		for _, e := range errorLeaves(r.err) {
			paths = append(paths, e.Path)
		}
		if !slices.Equal(paths, []string{"/p", "/q"}) {
			t.Errorf("Coerce: errors at %q, want /p and /q", paths)
		}

		// The same text raw, as JSON values: the arguments cannot be read.
		raw := []byte(`{"n": "5", "p": ` + text + `}`)
		rj := answer(t, "CoerceJSON raw", func() answered {
			out, err := s.CoerceJSON(raw)
			return answered{out, err}
		})
		wantErr(t, "CoerceJSON raw", rj.err, ErrLimit, ErrSyntax)
		if out := rj.out.([]byte); unsafe.SliceData(out) != unsafe.SliceData(raw) {
			t.Errorf("CoerceJSON raw: want the input itself back")
		}

		// As JSON strings holding that text: the parameter fails.
		quoted := []byte(`{"n": "5", "p": ` + strconv.Quote(text) + `}`)
		rq := answer(t, "CoerceJSON quoted", func() answered {
			out, err := s.CoerceJSON(quoted)
			return answered{out, err}
		})
		wantErr(t, "CoerceJSON quoted", rq.err, ErrLimit, ErrSyntax)
		var decoded map[string]any
		if err := json.Unmarshal(rq.out.([]byte), &decoded); err != nil {
			t.Fatalf("CoerceJSON quoted: output not JSON: %v", err)
		}
		if decoded["p"] != text || decoded["n"] != float64(5) {
			t.Errorf("CoerceJSON quoted: p not kept or n (%#v) not converted", decoded["n"])
		}
	}

	// A recursive schema walks as deep as the value goes.
	rec, err := ParseSchema([]byte(`{"type": "object", "$defs": {"Node": {"type": "object",
		"properties": {"next": {"$ref": "#/$defs/Node"}, "v": {"type": "integer"}}}},
		"properties": {"head": {"$ref": "#/$defs/Node"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	var head any = map[string]any{"v": "1"}
	for range hostileDepth {
		head = map[string]any{"next": head}
	}
	r := answer(t, "Coerce recursive", func() answered {
		out, err := rec.Coerce(map[string]any{"head": head})
		return answered{out, err}
	})
	wantErr(t, "Coerce recursive", r.err, ErrLimit)
}

func TestHostileNumbers(t *testing.T) {
	digits := "9" + strings.Repeat("0123456789", 500)[1:] // 5000 digits
	million := "1" + strings.Repeat("7", 999_999)
	runNumberCases(t, []numberCase{
		{"huge exponent", Options{}, "1e999999999", "number", nil, ErrPrecision},
		{"huge exponent integer", Options{}, "1e999999999", "integer", nil, ErrPrecision},
		{"huge negative exponent", Options{}, "1e-999999999", "number", nil, ErrPrecision},
		{"huge negative exponent integer", Options{}, "1e-999999999", "integer", nil, ErrPrecision},
		{"exponent beyond int64", Options{}, "1e99999999999999999999999", "number", nil, ErrPrecision},
		{"negative huge exponent", Options{}, "-1e999999999", "number", nil, ErrPrecision},
		{"zero with huge exponent", Options{}, "0e999999999", "integer", float64(0), nil},
		{"huge exponent UseNumber", Options{UseNumber: true}, "1e999999999", "number", nil, ErrPrecision},
		// In JSON text, the README allows the exact json.Number too.
		{"huge exponent in text", Options{}, "[1e999999999]", "list[number]", []any{json.Number("1e999999999")}, ErrPrecision},
		{"huge exponent in text integer", Options{}, `{"n": 1e999999999}`, "dict[str, int]", map[string]any{"n": json.Number("1e999999999")}, ErrPrecision},
		{"5000 digits integer", Options{}, digits, "integer", json.Number(digits), nil},
		{"5000 digits number", Options{}, digits, "number", json.Number(digits), nil},
		{"5000 digits negative", Options{}, "-" + digits, "int", json.Number("-" + digits), nil},
		{"5000 digits padded", Options{}, " +000" + digits + " ", "integer", json.Number(digits), nil},
		{"5000 digits string", Options{}, json.Number(digits), "string", digits, nil},
		{"5000 digits json.Number", Options{}, json.Number(digits), "integer", json.Number(digits), nil},
		{"5000 digits in text", Options{}, "[" + digits + "]", "list[integer]", []any{json.Number(digits)}, nil},
		{"5000 digits in text number", Options{}, `{"n":` + digits + "}", "dict[str, number]", map[string]any{"n": json.Number(digits)}, nil},
		{"5000 digits in text untyped", Options{}, "[" + digits + "]", "array", []any{json.Number(digits)}, nil},
		{"5000 digits in text UseNumber", Options{UseNumber: true}, "[" + digits + "]", "list[int]", []any{json.Number(digits)}, nil},
		{"5000 digits to string", Options{}, "[" + digits + "]", "list[str]", []any{digits}, nil},
		// A fraction or exponent must stay within float64's range.
		{"5000 digits with fraction", Options{}, digits + ".0", "integer", nil, ErrPrecision},
		{"million digits", Options{}, million, "integer", json.Number(million), nil},
		{"million digits in text", Options{}, "[" + million + "]", "list[number]", []any{json.Number(million)}, nil},
		{"beyond 2^53", Options{}, "9007199254740993", "integer", json.Number("9007199254740993"), nil},
		{"beyond 2^53 in text", Options{}, "[9007199254740993]", "list[int]", []any{json.Number("9007199254740993")}, nil},
	})
}

// numberCase is a conversion of a number that must lose nothing: want is
// the result, compared by exact value, or sentinel the error. With both,
// either will do.
type numberCase struct {
	name     string
	opts     Options
	in       any
	declared string
	want     any
	sentinel error
}

func runNumberCases(t *testing.T, tests []numberCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := answer(t, tt.name, func() answered {
				out, err := tt.opts.ToDeclared(tt.in, tt.declared)
				return answered{out, err}
			})
			what := fmt.Sprintf("ToDeclared(%.40v, %q)", tt.in, tt.declared)
			if tt.sentinel != nil && (tt.want == nil || r.err != nil) {
				wantErr(t, what, r.err, tt.sentinel)
				if !reflect.DeepEqual(r.out, tt.in) {
					t.Errorf("%s: on error got %.40v, want the input", what, r.out)
				}
				return
			}
			if r.err != nil {
				t.Fatalf("%s: %.300v", what, r.err)
			}
			if d := valueMismatch(r.out, tt.want, byValue); d != "" {
				t.Errorf("%s = %.60v: %.300s", what, r.out, d)
			}
			if n, ok := tt.want.(json.Number); ok && r.out != n {
				t.Errorf("%s = %T %.60v, want json.Number %.60s", what, r.out, r.out, n)
			}
		})
	}
}

// A number in JSON text is float64 as encoding/json gives it, but rounding
// must not make it fit an integer: a fraction that rounds to a whole
// float64 is no integer, as the numeric string "1170000000000000.1" is
// none ("no truncation"). And an exponent like 1e-999999999 is "an error,
// or an exact json.Number ... never a rounded value".
func TestHostileTextNumbersNotRounded(t *testing.T) {
	runNumberCases(t, []numberCase{
		{"fraction beyond 2^50", Options{}, "[1170000000000000.1]", "list[int]", nil, ErrPrecision},
		{"fraction beyond 2^53", Options{}, "[9007199254740993.5]", "list[int]", nil, ErrPrecision},
		{"fraction past float64 digits", Options{}, `{"a": 1.00000000000000000001}`, "dict[str, int]", nil, ErrPrecision},
		{"big fraction", Options{}, "[123456789012345678901234567890.5]", "list[integer]", nil, ErrPrecision},
		{"double-encoded", Options{}, `"[1170000000000000.1]"`, "[]int", nil, ErrPrecision},
		{"underflow integer", Options{}, "[1e-400]", "list[int]", nil, ErrPrecision},
		{"huge negative exponent", Options{}, "[-1e-999999999]", "array", []any{json.Number("-1e-999999999")}, ErrPrecision},
	})
}

func TestHostileNonFinite(t *testing.T) {
	values := []any{
		math.NaN(), math.Inf(1), math.Inf(-1),
		float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)),
	}
	for _, v := range values {
		for _, declared := range []string{"string", "number", "integer", "number | null", "list[str]", "boolean"} {
			r := answer(t, "ToDeclared", func() answered {
				out, err := ToDeclared(v, declared)
				return answered{out, err}
			})
			what := fmt.Sprintf("ToDeclared(%T(%v), %q)", v, v, declared)
			wantErr(t, what, r.err, ErrKind)
			if !identical(r.out, v) {
				t.Errorf("%s: on error got %T %v, want the input", what, r.out, r.out)
			}
		}
		// Inside a value that must become JSON text.
		for _, in := range []any{map[string]any{"x": v}, []any{1, v}, map[string]any{"a": []any{v}}} {
			r := answer(t, "ToDeclared", func() answered {
				out, err := ToDeclared(in, "string")
				return answered{out, err}
			})
			wantErr(t, fmt.Sprintf("ToDeclared(%v, string)", in), r.err, ErrKind)
			if !identical(r.out, in) {
				t.Errorf("ToDeclared(%v, string): on error got %v, want the input itself", in, r.out)
			}
		}
	}
}

func TestHostileCycles(t *testing.T) {
	cyclicMap := map[string]any{"name": "m"}
	cyclicMap["self"] = cyclicMap
	cyclicSlice := []any{"s", nil}
	cyclicSlice[1] = cyclicSlice
	onlyMaps := map[string]any{}
	onlyMaps["self"] = onlyMaps
	onlySlices := []any{nil}
	onlySlices[0] = onlySlices
	a, b := map[string]any{}, map[string]any{}
	a["b"], b["a"] = b, a
	throughSlice := map[string]any{}
	throughSlice["list"] = []any{throughSlice}
	type node struct {
		Next *node `json:"next"`
	}
	cyclicStruct := &node{}
	cyclicStruct.Next = cyclicStruct

	tests := []struct {
		name      string
		in        any
		declared  string
		sentinels []error // nil: the value conforms and comes back as it is
	}{
		{"map to string", cyclicMap, "string", []error{ErrLimit}},
		{"slice to string", cyclicSlice, "string", []error{ErrLimit}},
		{"two maps to string", a, "str", []error{ErrLimit}},
		{"map through slice to string", throughSlice, "string", []error{ErrLimit}},
		{"struct to string", cyclicStruct, "string", []error{ErrLimit}},
		{"map to dict[str, str]", cyclicMap, "dict[str, str]", []error{ErrLimit}},
		{"map to dict[str, dict[str, str]]", cyclicMap, "dict[str, dict[str, str]]", []error{ErrLimit, ErrKind}},
		{"slice to list[str]", cyclicSlice, "list[str]", []error{ErrLimit}},
		{"slice to list[list[str]]", cyclicSlice, "list[list[str]]", []error{ErrLimit, ErrKind}},
		{"map to str | list[int]", cyclicMap, "str | list[int]", []error{ErrLimit}},
		{"struct to dict[str, str]", cyclicStruct, "dict[str, str]", []error{ErrLimit}},
		{"map to dict[str, dict]", cyclicMap, "dict[str, dict]", []error{ErrKind}},
		{"slice to list[list]", cyclicSlice, "list[list]", []error{ErrKind}},
		{"maps only to string", onlyMaps, "string", []error{ErrLimit}},
		{"slices only to list[str]", onlySlices, "list[str]", []error{ErrLimit}},
		// Every value of the map is a map, every element of the slice a
		// slice: they fit as they are, and nothing needs to walk further.
		{"maps only to dict[str, dict]", onlyMaps, "dict[str, dict]", nil},
		{"slices only to list[list]", onlySlices, "list[list]", nil},
		{"map to object", cyclicMap, "object", nil},
		{"map to any", cyclicMap, "any", nil},
		{"slice to list", cyclicSlice, "list", nil},
		{"struct to object", cyclicStruct, "object", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := answer(t, tt.name, func() answered {
				out, err := ToDeclared(tt.in, tt.declared)
				return answered{out, err}
			})
			if tt.sentinels != nil {
				wantErr(t, tt.name, r.err, tt.sentinels...)
			} else if r.err != nil {
				t.Errorf("%s: %.300v", tt.name, r.err)
			}
			if !identical(r.out, tt.in) {
				t.Errorf("%s: got %T, want the input itself", tt.name, r.out)
			}
		})
	}

	// A recursive schema declares the cycle all the way down.
	s, err := ParseSchema([]byte(`{"type": "object", "$defs": {"M": {"type": "object",
		"properties": {"name": {"type": "string"}}, "additionalProperties": {"$ref": "#/$defs/M"}}},
		"properties": {"m": {"$ref": "#/$defs/M"}, "n": {"type": "integer"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	r := answer(t, "Coerce", func() answered {
		out, err := s.Coerce(map[string]any{"m": cyclicMap, "n": "1"})
		return answered{out, err}
	})
	wantErr(t, "Coerce cyclic", r.err, ErrLimit)
	if got := r.out.(map[string]any); got["n"] != float64(1) || !identical(got["m"], cyclicMap) {
		t.Errorf("Coerce cyclic: n = %#v, m kept: %v", got["n"], identical(got["m"], cyclicMap))
	}
}

// hostileCase is a case of testdata/hostile: text that ToDeclared must
// refuse, returning the string itself, or read exactly.
type hostileCase struct {
	ID       string `json:"id"`
	Declared string `json:"declared"`
	Text     string `json:"text"`
	Want     string `json:"want"` // a key of hostileWants, or JSON text of the result
	Why      string `json:"why"`
}

func TestHostileText(t *testing.T) {
	for _, c := range loadCases[hostileCase](t, "testdata/hostile/*.json") {
		t.Run(c.ID, func(t *testing.T) {
			text := unhex(t, c.Text)
			r := answer(t, c.ID, func() answered {
				out, err := ToDeclared(text, c.Declared)
				return answered{out, err}
			})
			what := fmt.Sprintf("ToDeclared(%q, %q) (%s)", text, c.Declared, c.Why)
			if sentinels, ok := hostileWants[c.Want]; ok {
				wantErr(t, what, r.err, sentinels...)
				if !identical(r.out, text) {
					t.Errorf("%s: on error got %#v, want the string itself", what, r.out)
				}
				return
			}
			if r.err != nil {
				t.Fatalf("%s: %v", what, r.err)
			}
			if d := valueMismatch(r.out, mustUseNumber(t, []byte(c.Want)), byValue); d != "" {
				t.Errorf("%s = %#v: %s", what, r.out, d)
			}
		})
	}
}

// hostileWants are the errors a hostile case may want, by name.
var hostileWants = map[string][]error{
	"syntax": {ErrSyntax},
	"kind":   {ErrKind},
	"error":  {ErrSyntax, ErrKind},
}

// unhex reads the \xNN escapes that stand for bytes which a JSON file cannot
// hold (invalid UTF-8); "\\x" is a backslash followed by x.
func unhex(t *testing.T, s string) string {
	t.Helper()
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch {
		case strings.HasPrefix(s[i:], `\\x`):
			b.WriteString(`\x`)
			i += 2
		case strings.HasPrefix(s[i:], `\x`) && i+4 <= len(s):
			n, err := strconv.ParseUint(s[i+2:i+4], 16, 8)
			if err != nil {
				t.Fatalf("bad \\x escape in %q", s)
			}
			b.WriteByte(byte(n))
			i += 3
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

// The arguments of CoerceJSON are JSON text too: bytes that are not valid
// JSON text are refused as a whole, as they came.
func TestHostileTextCoerceJSON(t *testing.T) {
	s, err := ParseSchema([]byte(`{"type": "object", "properties": {"a": {"type": "integer"}, "s": {"type": "string"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range []string{
		"{\"a\": \"1\", \"s\": \"\xff\"}",
		"{\"a\": \"1\", \"\xc3\x28\": 1}",
		"{\"a\": \"1\", \"s\": \"tab\there\"}",
		"{\"a\": \"1\", \"s\": \"nul\x00\"}",
		`{"a": "1", "s": "\ud800"}`,
		`{"a": "1", "\udfff": 2}`,
		`{"a": "1", "s": "\ud800\u0041"}`,
		`{"a": "1", "s": ["\ud83d"]}`,
	} {
		in := []byte(args)
		out, err := s.CoerceJSON(in)
		wantErr(t, fmt.Sprintf("CoerceJSON(%q)", args), err, ErrSyntax)
		if unsafe.SliceData(out) != unsafe.SliceData(in) || string(in) != args {
			t.Errorf("CoerceJSON(%q) = %q: want the input itself, unchanged", args, out)
		}
	}
}

func TestHostileDuplicateKeys(t *testing.T) {
	tests := []struct {
		text, declared, want string
	}{
		{`{"a": 1, "a": 2}`, "object", `{"a": 2}`},
		{`{"a": "x", "a": "5"}`, "dict[str, int]", `{"a": 5}`},
		{`{"a": "5", "a": "x"}`, "dict[str, str]", `{"a": "x"}`},
		{`{"o": {"k": 1, "k": [2]}, "o2": 3}`, "dict", `{"o": {"k": [2]}, "o2": 3}`},
		{`[{"k": {"x": 1}, "k": "last"}]`, "list[dict[str, str]]", `[{"k": "last"}]`},
		{`{"a": 1, "b": 2, "a": 3, "a": 4}`, "dict[str, number]", `{"a": 4, "b": 2}`},
		{`{"\u0061": 1, "a": 2}`, "object", `{"a": 2}`},
	}
	for _, tt := range tests {
		got, err := ToDeclared(tt.text, tt.declared)
		if err != nil {
			t.Errorf("ToDeclared(%s, %q): %v", tt.text, tt.declared, err)
			continue
		}
		if d := valueMismatch(got, mustUseNumber(t, []byte(tt.want)), byValue); d != "" {
			t.Errorf("ToDeclared(%s, %q) = %#v: %s", tt.text, tt.declared, got, d)
		}
	}

	// Inside a parameter that holds JSON text.
	s, err := ParseSchema([]byte(`{"type": "object", "properties": {"p": {"type": "object", "additionalProperties": {"type": "integer"}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	args := map[string]any{"p": `{"n": "x", "n": "7"}`}
	got, err := s.Coerce(args)
	if err != nil || valueMismatch(got["p"], map[string]any{"n": json.Number("7")}, byValue) != "" {
		t.Errorf("Coerce(%v) = %v, %v, want p = {n: 7}", args, got, err)
	}
	out, err := s.CoerceJSON([]byte(`{"p": "{\"n\": \"x\", \"n\": \"7\"}"}`))
	if err != nil || valueMismatch(mustUseNumber(t, out), map[string]any{"p": map[string]any{"n": json.Number("7")}}, byValue) != "" {
		t.Errorf("CoerceJSON = %s, %v, want p = {n: 7}", out, err)
	}
}

// bigIntArray is the JSON text of [0,1,2,...], at least size bytes long.
func bigIntArray(size int) (string, int) {
	b := make([]byte, 0, size+16)
	b = append(b, '[')
	n := 0
	for ; len(b) < size; n++ {
		if n > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(n), 10)
	}
	return string(append(b, ']')), n
}

func TestHostileLargeArray(t *testing.T) {
	text, n := bigIntArray(8 << 20)
	r := answer(t, "8 MB list[int]", func() answered {
		out, err := ToDeclared(text, "list[int]")
		return answered{out, err}
	})
	if r.err != nil {
		t.Fatalf("ToDeclared(8 MB, list[int]): %.300v", r.err)
	}
	list, ok := r.out.([]any)
	if !ok || len(list) != n {
		t.Fatalf("ToDeclared(8 MB, list[int]) = %T of %d elements, want %d", r.out, len(list), n)
	}
	for i, v := range list {
		if v != float64(i) {
			t.Fatalf("element %d = %#v", i, v)
		}
	}

	for _, tt := range []struct {
		max      int
		sentinel error
	}{
		{len(text) - 1, ErrLimit},
		{len(text), nil},
		{1, ErrLimit},
	} {
		r := answer(t, "MaxSize", func() answered {
			out, err := Options{MaxSize: tt.max}.ToDeclared(text, "list[int]")
			return answered{out, err}
		})
		switch {
		case tt.sentinel != nil:
			wantErr(t, fmt.Sprintf("MaxSize %d", tt.max), r.err, tt.sentinel)
			if !identical(r.out, text) {
				t.Errorf("MaxSize %d: on error want the string itself", tt.max)
			}
		case r.err != nil:
			t.Errorf("MaxSize %d: %.300v", tt.max, r.err)
		}
	}

	// Writing JSON text is bounded too.
	r = answer(t, "MaxSize encode", func() answered {
		out, err := Options{MaxSize: 1 << 20}.ToDeclared(list, "string")
		return answered{out, err}
	})
	wantErr(t, "MaxSize encode", r.err, ErrLimit)
}

func TestHostileHugeString(t *testing.T) {
	// Made one at a time: 64 MB each.
	const size = 64 << 20
	plain := strings.Repeat("a", size)
	tests := []struct {
		name     string
		text     func() string
		declared string
		want     error
	}{
		{"plain", func() string { return plain }, "object", ErrKind},
		{"plain array", func() string { return plain }, "list[str]", ErrKind},
		{"plain union", func() string { return plain }, "dict | list", ErrKind},
		// An object opened and never closed, as near-JSON reads it: cut off.
		{"opens only", func() string { return "{" + plain[1:] }, "object", ErrTruncated},
		{"closes only", func() string { return plain[1:] + "}" }, "dict", ErrKind},
		{"fence without close", func() string { return "```json\n" + plain }, "object", ErrKind},
		{"quote without close", func() string { return `"` + plain }, "array", ErrKind},
		{"object for array", func() string { return "{" + plain[2:] + "}" }, "array", ErrKind},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text := tt.text()
			r := answer(t, tt.name, func() answered {
				out, err := ToDeclared(text, tt.declared)
				return answered{out, err}
			})
			wantErr(t, tt.name, r.err, tt.want)
			if !identical(r.out, text) {
				t.Errorf("%s: on error want the string itself", tt.name)
			}
			// The message names the culprit without copying it.
			if r.err != nil && len(r.err.Error()) > 1000 {
				t.Errorf("%s: error message of %d bytes", tt.name, len(r.err.Error()))
			}
		})
	}
}

// Schemas come from servers and files: malformed or hostile ones must get an
// answer too, and one that compiles must be usable.
func TestHostileSchemas(t *testing.T) {
	deep := func(open, leaf, close string, n int) []byte {
		return []byte(nested(open, leaf, close, n))
	}
	tests := []struct {
		name      string
		schema    []byte
		sentinels []error // nil: compiles
	}{
		{"self ref root", []byte(`{"$ref": "#"}`), nil},
		{"self ref root with properties", []byte(`{"type": "object", "properties": {"a": {"$ref": "#"}, "n": {"type": "integer"}}}`), nil},
		{"self ref def", []byte(`{"$defs": {"A": {"$ref": "#/$defs/A"}}, "properties": {"a": {"$ref": "#/$defs/A"}}}`), nil},
		{"A->B->A", []byte(`{"$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"$ref": "#/$defs/A"}}, "properties": {"x": {"$ref": "#/$defs/A"}}}`), nil},
		{"A->B->A with types", []byte(`{"$defs": {"A": {"type": "object", "properties": {"b": {"$ref": "#/$defs/B"}}}, "B": {"type": "array", "items": {"$ref": "#/$defs/A"}}}, "properties": {"x": {"$ref": "#/$defs/A"}}}`), nil},
		{"allOf self", []byte(`{"allOf": [{"$ref": "#"}], "properties": {"a": {"allOf": [{"$ref": "#"}]}}}`), nil},
		{"anyOf self", []byte(`{"anyOf": [{"$ref": "#"}, {"type": "null"}], "properties": {"a": {"$ref": "#"}}}`), nil},
		{"ref with escapes", []byte(`{"$defs": {"a/b": {"type": "integer"}, "c~d": {"type": "string"}, "%": {"type": "boolean"}}, "properties": {"x": {"$ref": "#/$defs/a~1b"}, "y": {"$ref": "#/$defs/c~0d"}, "z": {"$ref": "#/$defs/%25"}}}`), nil},
		{"ref into properties", []byte(`{"properties": {"x": {"type": "integer"}, "y": {"$ref": "#/properties/x"}}}`), nil},
		{"ref into array", []byte(`{"$defs": {"l": [{"type": "integer"}]}, "properties": {"y": {"$ref": "#/$defs/l/0"}}}`), nil},
		{"boolean schema", []byte(`true`), nil},
		{"false schema", []byte(`{"properties": {"a": false}}`), nil},
		{"type 5", []byte(`{"type": 5}`), []error{ErrSyntax}},
		{"type list with 5", []byte(`{"type": ["string", 5]}`), []error{ErrSyntax}},
		{"type unknown", []byte(`{"type": "strnig"}`), []error{ErrUnknownType}},
		{"type empty list", []byte(`{"type": []}`), nil},
		{"properties 5", []byte(`{"properties": 5}`), []error{ErrSyntax}},
		{"property 5", []byte(`{"properties": {"a": 5}}`), []error{ErrSyntax}},
		{"enum 5", []byte(`{"enum": 5}`), []error{ErrSyntax}},
		{"anyOf object", []byte(`{"anyOf": {}}`), []error{ErrSyntax}},
		{"items string", []byte(`{"items": "x"}`), []error{ErrSyntax}},
		{"ref nowhere", []byte(`{"$ref": "#/$defs/nope"}`), []error{ErrUnknownType}},
		{"ref remote", []byte(`{"$ref": "https://example.com/schema.json"}`), []error{ErrUnknownType}},
		{"ref 5", []byte(`{"$ref": 5}`), []error{ErrUnknownType, ErrSyntax}},
		{"ref bad index", []byte(`{"$defs": {"l": []}, "properties": {"y": {"$ref": "#/$defs/l/-1"}}}`), []error{ErrUnknownType}},
		{"array", []byte(`[]`), []error{ErrSyntax}},
		{"string", []byte(`"object"`), []error{ErrSyntax}},
		{"null", []byte(`null`), []error{ErrSyntax}},
		{"empty", []byte(``), []error{ErrSyntax}},
		{"truncated", []byte(`{"type": "object", "properties": {`), []error{ErrSyntax}},
		{"invalid UTF-8", []byte("{\"type\": \"object\", \"properties\": {\"\xff\": {}}}"), []error{ErrSyntax}},
		{"trailing data", []byte(`{"type": "object"} {}`), []error{ErrSyntax}},
		{"properties 100000 deep", deep(`{"properties": {"a": `, "{}", "}}", 100_000), []error{ErrLimit, ErrSyntax}},
		{"items 100000 deep", deep(`{"items": `, "{}", "}", 100_000), []error{ErrLimit, ErrSyntax}},
		{"allOf 100000 deep", deep(`{"allOf": [`, "{}", "]}", 100_000), []error{ErrLimit, ErrSyntax}},
		{"items 100000 deep unclosed", deep(`{"items": `, "{}", "", 100_000), []error{ErrLimit, ErrSyntax}},
		{"items 5000 deep", deep(`{"items": `, `{"type": "integer"}`, "}", 5000), []error{ErrLimit}},
		{"items 500 deep", deep(`{"items": `, `{"type": "integer"}`, "}", 500), nil},
		{"ref chain 5000", refChain(5000), []error{ErrLimit}},
		{"ref chain 200", refChain(200), nil},
		{"enum of 100000", []byte(`{"properties": {"e": {"enum": [` + strings.Repeat(`"x", 1, 2.5, null, `, 25_000) + `true]}}}`), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkHostileSchema(t, tt.schema, tt.sentinels)
		})
	}
}

// refChain is a schema whose $defs refer each to the next, n long.
func refChain(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"properties": {"p": {"$ref": "#/$defs/d0"}}, "$defs": {`)
	for i := range n {
		fmt.Fprintf(&b, `"d%d": {"type": "array", "items": {"$ref": "#/$defs/d%d"}}, `, i, i+1)
	}
	fmt.Fprintf(&b, `"d%d": {"type": "integer"}}}`, n)
	return []byte(b.String())
}

// checkHostileSchema compiles a schema and, if it compiles, coerces some
// arguments with it: both must answer.
func checkHostileSchema(t *testing.T, schema []byte, sentinels []error) {
	t.Helper()
	type compiled struct {
		s   *Schema
		err error
	}
	c := answer(t, "ParseSchema", func() compiled {
		s, err := ParseSchema(schema)
		return compiled{s, err}
	})
	if sentinels != nil {
		wantErr(t, "ParseSchema", c.err, sentinels...)
		return
	}
	if c.err != nil {
		t.Fatalf("ParseSchema: %.300v", c.err)
	}
	args := map[string]any{
		"a": `{"a": {"n": "1"}, "n": "2"}`, "n": "3", "x": "[1, \"2\"]", "y": "4", "z": "true",
		"p": "[[[[1]]]]", "e": "2.5",
	}
	before := deepCopy(args)
	r := answer(t, "Coerce", func() answered {
		out, err := c.s.Coerce(args)
		return answered{out, err}
	})
	if r.err != nil {
		checkErrorContract(t, r.err)
	}
	if !reflect.DeepEqual(args, before) {
		t.Errorf("Coerce mutated its input")
	}
	text, _ := json.Marshal(args)
	rj := answer(t, "CoerceJSON", func() answered {
		out, err := c.s.CoerceJSON(text)
		return answered{out, err}
	})
	if rj.err != nil {
		checkErrorContract(t, rj.err)
	}
	if !json.Valid(rj.out.([]byte)) {
		t.Errorf("CoerceJSON wrote %q", rj.out)
	}
}

// isolated runs the calling test again in a child process and reports its
// outcome, for inputs that may take exponential time: when the child has no
// answer after hangAfter it is killed, where a goroutine would go on burning
// CPU and memory under the tests that follow. It returns true in the child,
// which then runs the test's body.
func isolated(t *testing.T) bool {
	t.Helper()
	const env = "COERCE_HOSTILE_CHILD"
	if os.Getenv(env) == t.Name() {
		return true
	}
	cmd := exec.Command(os.Args[0], "-test.run=^"+regexp.QuoteMeta(t.Name())+"$", "-test.count=1", "-test.v")
	// GORACE: a race-enabled child otherwise sleeps a second at exit.
	cmd.Env = append(os.Environ(), env+"="+t.Name(), "GORACE=atexit_sleep_ms=0 "+os.Getenv("GORACE"))
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("%v:\n%s", err, out.String())
		}
	case <-time.After(hangAfter):
		cmd.Process.Kill()
		<-done
		t.Fatalf("no answer after %v", hangAfter)
	}
	return false
}

// A schema of a few kilobytes must compile in reasonable time: allOf over n
// anyOf pairs of object types is 2^n object types when merged naively, and
// 20 pairs are 2 KB of schema.
func TestHostileSchemaAllOfAnyOfCrossProduct(t *testing.T) {
	if !isolated(t) {
		return
	}
	var subs []string
	for i := range 20 {
		subs = append(subs, fmt.Sprintf(`{"anyOf": [{"type": "object", "properties": {"a%d": {"type": "string"}}}, {"type": "object", "properties": {"b%d": {"type": "integer"}}}]}`, i, i))
	}
	schema := `{"type": "object", "properties": {"p": {"allOf": [` + strings.Join(subs, ", ") + `]}}}`
	checkHostileSchema(t, []byte(schema), nil)
}

// allOf of two recursive types with two self-references each: merging them
// property by property without remembering what was merged branches twice
// per level, down to the merge's depth cap of 32.
func TestHostileSchemaRecursiveMerge(t *testing.T) {
	if !isolated(t) {
		return
	}
	schema := `{"$defs": {
		"N": {"type": "object", "properties": {"a": {"$ref": "#/$defs/N"}, "b": {"$ref": "#/$defs/N"}}},
		"M": {"type": "object", "properties": {"a": {"$ref": "#/$defs/M"}, "b": {"$ref": "#/$defs/M"}}}},
	  "type": "object", "properties": {"p": {"allOf": [{"$ref": "#/$defs/N"}, {"$ref": "#/$defs/M"}]}}}`
	checkHostileSchema(t, []byte(schema), nil)
}

// A recursive union with two array members: trying both at every level of a
// value that fits neither is 2^depth attempts. 40 levels are 90 bytes of
// arguments.
func TestHostileSchemaRecursiveUnion(t *testing.T) {
	if !isolated(t) {
		return
	}
	s, err := ParseSchema([]byte(`{"type": "object", "$defs": {"N": {"anyOf": [
		{"type": "array", "items": {"$ref": "#/$defs/N"}},
		{"type": "array", "prefixItems": [{"$ref": "#/$defs/N"}]},
		{"type": "integer"}]}},
	  "properties": {"p": {"$ref": "#/$defs/N"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	value := nested("[", `"x"`, "]", 40)
	out, err := s.CoerceJSON([]byte(`{"p": ` + value + `}`))
	wantErr(t, "CoerceJSON", err, ErrKind)
	if string(out) != `{"p": `+value+`}` {
		t.Errorf("CoerceJSON = %s, want the input", out)
	}
	var decoded any
	if err := json.Unmarshal([]byte(value), &decoded); err != nil {
		t.Fatal(err)
	}
	_, err = s.Coerce(map[string]any{"p": decoded})
	wantErr(t, "Coerce", err, ErrKind)
}

func TestHostileTypeExpressions(t *testing.T) {
	const n = 100_000
	tests := []struct {
		expr      string
		sentinels []error
	}{
		{"strng", []error{ErrUnknownType}},
		{"foo", []error{ErrUnknownType}},
		{"list[foo]", []error{ErrUnknownType}},
		{"Optional[foo]", []error{ErrUnknownType}},
		{"int | foo", []error{ErrUnknownType}},
		{"dict[int, str]", []error{ErrUnknownType}},
		{"map[int]string", []error{ErrUnknownType}},
		{"list[", []error{ErrSyntax}},
		{"T?", []error{ErrUnknownType, ErrSyntax}},
		{"int?", []error{ErrSyntax}},
		{"list[int", []error{ErrSyntax}},
		{"list[int]]", []error{ErrSyntax}},
		{"list]int[", []error{ErrSyntax}},
		{"Optional[]", []error{ErrSyntax}},
		{"Union[]", []error{ErrSyntax}},
		{"dict[str]", []error{ErrSyntax}},
		{"int |", []error{ErrSyntax}},
		{"|", []error{ErrSyntax}},
		{"[]", []error{ErrSyntax}},
		{"list[int, str]", []error{ErrSyntax}},
		{"tuple[..., int]", []error{ErrSyntax}},
		{"\x00", []error{ErrSyntax}},
		{"int\xff", []error{ErrSyntax}},
		{strings.Repeat("list[", n), []error{ErrLimit, ErrSyntax}},
		{nested("list[", "int", "]", n), []error{ErrLimit, ErrSyntax}},
		{nested("List[", "int", "]", n), []error{ErrLimit, ErrSyntax}},
		{strings.Repeat("[]", n) + "int", []error{ErrLimit, ErrSyntax}},
		{nested("Optional[", "int", "]", n), []error{ErrLimit, ErrSyntax}},
		{nested("dict[str, ", "int", "]", n), []error{ErrLimit, ErrSyntax}},
		{strings.Repeat("map[string]", n) + "int", []error{ErrLimit, ErrSyntax}},
		{strings.Repeat("map[", n) + "string]int", []error{ErrLimit, ErrSyntax}},
		{nested("Union[int, ", "str", "]", n), []error{ErrLimit, ErrSyntax}},
		{strings.Repeat("int | ", n), []error{ErrSyntax}},
	}
	for _, tt := range tests {
		name := tt.expr
		if len(name) > 30 {
			name = fmt.Sprintf("%.20s...(%d bytes)", name, len(name))
		}
		t.Run(name, func(t *testing.T) {
			type parsed struct {
				typ *Type
				err error
			}
			p := answer(t, "ParseType", func() parsed {
				typ, err := ParseType(tt.expr)
				return parsed{typ, err}
			})
			wantErr(t, "ParseType", p.err, tt.sentinels...)
			if p.typ != nil {
				t.Errorf("ParseType = %v, want nil on error", p.typ)
			}
			in := map[string]any{"a": 1}
			r := answer(t, "ToDeclared", func() answered {
				out, err := ToDeclared(in, tt.expr)
				return answered{out, err}
			})
			wantErr(t, "ToDeclared", r.err, tt.sentinels...)
			if !identical(r.out, in) {
				t.Errorf("ToDeclared: on error got %v, want the input itself", r.out)
			}
			// Schemas fail at construction.
			c := answer(t, "SchemaFromTypes", func() error {
				_, err := SchemaFromTypes(map[string]string{"p": tt.expr})
				return err
			})
			wantErr(t, "SchemaFromTypes", c, tt.sentinels...)
			for _, e := range errorLeaves(c) {
				if e.Path != "/p" {
					t.Errorf("SchemaFromTypes: error at %q, want /p", e.Path)
				}
			}
		})
	}

	// Long but shallow expressions are types.
	for _, expr := range []string{
		strings.Repeat("int | ", n) + "str",
		"tuple[" + strings.Repeat("int, ", n) + "str]",
		nested("list[", "int", "]", 50),
	} {
		r := answer(t, "long expression", func() answered {
			out, err := ToDeclared("5", expr)
			return answered{out, err}
		})
		if r.err != nil && !errors.Is(r.err, ErrKind) {
			t.Errorf("ToDeclared(\"5\", %.30s... (%d bytes)): %.300v", expr, len(expr), r.err)
		}
	}
}

// One compiled schema serves every call of a server: it must be safe for
// concurrent use, and so must the cache behind ToDeclared's type names.
// Run with -race.
func TestHostileConcurrency(t *testing.T) {
	s, err := ParseSchema([]byte(`{"type": "object",
	  "$defs": {
		"Task": {"type": "object", "properties": {
			"id": {"type": "integer"},
			"files": {"type": "array", "items": {"type": "string"}},
			"meta": {"anyOf": [{"type": "object", "additionalProperties": {"type": "number"}}, {"type": "null"}]},
			"sub": {"type": "array", "items": {"$ref": "#/$defs/Task"}}}}},
	  "properties": {
		"tasks": {"type": "array", "items": {"$ref": "#/$defs/Task"}},
		"limit": {"type": "integer"},
		"verbose": {"type": "boolean"},
		"query": {"type": "string"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	const (
		workers    = 16
		iterations = 500
	)
	var wg sync.WaitGroup
	errs := make(chan string, workers)
	for g := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range iterations {
				id := g*iterations + i
				args := map[string]any{
					"tasks":   fmt.Sprintf(`[{"id": "%d", "files": "[\"f%d.go\"]", "meta": {"w": "%d.5"}, "sub": [{"id": %d.0}]}]`, id, i, g, id+1),
					"limit":   strconv.Itoa(i),
					"verbose": []string{"yes", "off"}[i%2],
					"query":   map[string]any{"g": g, "i": i},
				}
				want := map[string]any{
					"tasks": []any{map[string]any{
						"id": float64(id), "files": []any{fmt.Sprintf("f%d.go", i)},
						"meta": map[string]any{"w": float64(g) + 0.5}, "sub": []any{map[string]any{"id": float64(id + 1)}},
					}},
					"limit":   float64(i),
					"verbose": i%2 == 0,
					"query":   fmt.Sprintf(`{"g":%d,"i":%d}`, g, i),
				}
				got, err := s.Coerce(args)
				if err != nil || !reflect.DeepEqual(got, want) {
					errs <- fmt.Sprintf("Coerce(%v) = %v, %v, want %v", args, got, err, want)
					return
				}
				text, _ := json.Marshal(args)
				out, err := s.CoerceJSON(text)
				var decoded map[string]any
				if err != nil || json.Unmarshal(out, &decoded) != nil || !reflect.DeepEqual(decoded, want) {
					errs <- fmt.Sprintf("CoerceJSON(%s) = %s, %v, want %v", text, out, err, want)
					return
				}
			}
		}()
	}
	// Distinct type names, more than the cache keeps, and the same ones
	// from several goroutines at once.
	for g := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range iterations {
				k := (g%4)*iterations + i
				declared := fmt.Sprintf("tuple[int, %s] | str", strings.Repeat("str, ", k%40)+"bool"+strings.Repeat(" ", k/40))
				in := make([]any, 2+k%40)
				in[0] = "1"
				for j := 1; j < len(in)-1; j++ {
					in[j] = "s"
				}
				in[len(in)-1] = "true"
				got, err := ToDeclared(in, declared)
				if err != nil {
					errs <- fmt.Sprintf("ToDeclared(%v, %q): %v", in, declared, err)
					return
				}
				l, ok := got.([]any)
				if !ok || l[0] != float64(1) || l[len(l)-1] != true {
					errs <- fmt.Sprintf("ToDeclared(%v, %q) = %#v", in, declared, got)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
