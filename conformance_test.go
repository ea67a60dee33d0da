package coerce

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// The conformance vectors: the shared ones, copied into testdata/conformance
// so that every clone has them, and ours beside them (files named
// *-values.json and *-schemas.json). README.md there gives the rules these
// tests apply.

type valueCase struct {
	ID       string          `json:"id"`
	Declared string          `json:"declared"`
	Input    json.RawMessage `json:"input"`
	Want     json.RawMessage `json:"want"`
	Error    bool            `json:"error"`
	// StrictJSON runs the vector with Options.StrictJSON (our own
	// vectors only: the shared ones run with the defaults).
	StrictJSON bool `json:"strict_json"`
}

type schemaCase struct {
	ID         string          `json:"id"`
	Schema     json.RawMessage `json:"schema"`
	Args       json.RawMessage `json:"args"`
	Want       json.RawMessage `json:"want"`
	Error      bool            `json:"error"`
	ErrorPaths []string        `json:"error_paths"`
}

// jsonMismatch compares a result with a vector's want as the README of
// testdata/conformance says: as JSON, numbers by exact decimal value
// (valueMismatch's byValue), and {"$json": X} as a string that holds JSON
// text equal to X. input is the vector's input (or args), which the test
// decoded for the call: see vectorNumbers.
func jsonMismatch(t testing.TB, got any, want, input json.RawMessage) string {
	t.Helper()
	return valueMismatch(vectorNumbers(got, readFloats(mustUseNumber(t, input))), vectorWant(mustUseNumber(t, want)), byValue)
}

// vectorWant is a want read from a vector, with each {"$json": X} made a
// jsonString.
func vectorWant(v any) any {
	switch x := v.(type) {
	case map[string]any:
		if len(x) == 1 && x["$json"] != nil {
			return jsonString{vectorWant(x["$json"])}
		}
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = vectorWant(e)
		}
		return m
	case []any:
		s := make([]any, len(x))
		for i, e := range x {
			s[i] = vectorWant(e)
		}
		return s
	}
	return v
}

// vectorNumbers returns got, copied where it changes, with each float64
// that holds one integer and writes another replaced. byValue takes a
// float64 for the number json.Marshal writes for it, which is right for
// most: the number it was read from. But float64(2^64) is written
// 18446744073709552000 and holds 18446744073709551616, and float64(1e300)
// holds neither 10^300 nor what it is written as:
//   - where a number of input (an element of an array, not JSON text in a
//     string) reads as that float64, the test made it when it decoded the
//     input as an SDK would, and coerce returned it as it was: it stands
//     for that number, as a json.Number of its digits;
//   - otherwise coerce made it, and it stands for no number (inexactFloat):
//     the README wants a json.Number wherever float64 would change the
//     digits.
//
// read maps the float64 of each number of input to the number.
func vectorNumbers(got any, read map[float64]json.Number) any {
	switch x := got.(type) {
	case float64:
		if x != math.Trunc(x) || math.IsInf(x, 0) {
			return x
		}
		held, _ := parseDecimal(new(big.Float).SetFloat64(x).Text('f', 0))
		if written, _ := numberOf(x); held.equal(written) {
			return x
		}
		if n, ok := read[x]; ok {
			return n
		}
		return inexactFloat(x)
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = vectorNumbers(e, read)
		}
		return m
	case []any:
		s := make([]any, len(x))
		for i, e := range x {
			s[i] = vectorNumbers(e, read)
		}
		return s
	}
	return got
}

// inexactFloat is a float64 that holds one integer and that json.Marshal
// writes as another: it matches no want.
type inexactFloat float64

// readFloats maps the float64 that encoding/json reads each number of v
// as (v decoded with UseNumber) to the first number read as it.
func readFloats(v any) map[float64]json.Number {
	read := map[float64]json.Number{}
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case json.Number:
			f, err := strconv.ParseFloat(string(x), 64)
			if _, seen := read[f]; err == nil && !seen {
				read[f] = x
			}
		case map[string]any:
			for _, e := range x {
				walk(e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(v)
	return read
}

// TestJSONMismatch pins how vectors' numbers compare: a float64 that holds
// one integer and writes another matches its integer only when the test
// made it, decoding the input.
func TestJSONMismatch(t *testing.T) {
	for _, c := range []struct {
		got         any
		want, input string
		match       bool
	}{
		{[]any{18446744073709551616.0}, `[18446744073709551616]`, `{"u": [18446744073709551616, "5"]}`, true},
		{[]any{18446744073709551616.0}, `[18446744073709551616]`, `"[18446744073709551616]"`, false},
		{[]any{18446744073709551616.0}, `[18446744073709552000]`, `"[18446744073709552000]"`, false},
		{[]any{1e22}, `[1e22]`, `"[1e22]"`, true},
		{[]any{1e300}, `[1e300]`, `{"n": [1e300]}`, true},
		{[]any{1e300}, `[1e300]`, `"[1e300]"`, false},
		{[]any{0.1, 5.0}, `[0.1, 5]`, `"[0.1, 5]"`, true},
		{`{"b":[1]}`, `{"$json": {"b": [1.0]}}`, `{}`, true},
	} {
		d := jsonMismatch(t, c.got, json.RawMessage(c.want), json.RawMessage(c.input))
		if (d == "") != c.match {
			t.Errorf("jsonMismatch(%#v, %s, input %s) = %q, want a match: %t", c.got, c.want, c.input, d, c.match)
		}
	}
}

func TestConformanceValues(t *testing.T) {
	cases := loadCases[valueCase](t, "testdata/conformance/*values.json")
	for _, c := range cases {
		t.Run(c.ID, func(t *testing.T) {
			input := decodeFloat64(t, c.Input)
			before := deepCopy(input)
			o := Options{StrictJSON: c.StrictJSON}
			got, err := o.ToDeclared(input, c.Declared)
			if !reflect.DeepEqual(input, before) {
				t.Fatalf("ToDeclared mutated its input: before %#v, after %#v", before, input)
			}
			if c.Error {
				if err == nil {
					t.Fatalf("ToDeclared(%s, %q) = %#v, want an error", c.Input, c.Declared, got)
				}
				if !reflect.DeepEqual(got, before) {
					t.Fatalf("on error got %#v, want the input unchanged %#v", got, before)
				}
				return
			}
			if err != nil {
				t.Fatalf("ToDeclared(%s, %q): %v", c.Input, c.Declared, err)
			}
			if d := jsonMismatch(t, got, c.Want, c.Input); d != "" {
				t.Fatalf("ToDeclared(%s, %q) = %#v: %s", c.Input, c.Declared, got, d)
			}
			again, err := o.ToDeclared(got, c.Declared)
			if err != nil || !reflect.DeepEqual(again, got) {
				t.Fatalf("not a fixed point: ToDeclared(%#v) = %#v, %v", got, again, err)
			}
		})
	}
	t.Logf("%d value vectors", len(cases))
}

func TestConformanceSchemas(t *testing.T) {
	cases := loadCases[schemaCase](t, "testdata/conformance/*schemas.json")
	for _, c := range cases {
		t.Run(c.ID, func(t *testing.T) {
			s, err := ParseSchema(c.Schema)
			if err != nil {
				t.Fatalf("ParseSchema: %v", err)
			}
			args := decodeArgs(t, string(c.Args))
			before := deepCopy(args)
			got, err := s.Coerce(args)
			if !reflect.DeepEqual(args, before) {
				t.Fatalf("Coerce mutated its input: before %#v, after %#v", before, args)
			}
			checkSchemaResult(t, c, "Coerce", got, err)

			gotJSON, errJSON := s.CoerceJSON(c.Args)
			if !json.Valid(gotJSON) {
				t.Fatalf("CoerceJSON wrote invalid JSON %s", gotJSON)
			}
			// UseNumber: the exact digits CoerceJSON wrote are what is checked.
			checkSchemaResult(t, c, "CoerceJSON", mustUseNumber(t, gotJSON).(map[string]any), errJSON)
			if c.Error {
				return
			}

			// Arguments that already are what the vector wants come back
			// untouched: the same map, the same bytes.
			if jsonMismatch(t, before, c.Want, c.Args) == "" {
				if !identical(got, args) {
					t.Errorf("Coerce(%s) returned a copy of arguments that needed nothing", c.Args)
				}
				if !identical([]byte(c.Args), gotJSON) {
					t.Errorf("CoerceJSON(%s) returned a copy of arguments that needed nothing", c.Args)
				}
			}
			// A result is a fixed point: coercing it again changes nothing.
			if again, err := s.Coerce(got); err != nil || !identical(again, got) {
				t.Errorf("not a fixed point: Coerce(%#v) = %#v, %v", got, again, err)
			}
			if again, err := s.CoerceJSON(gotJSON); err != nil || !identical(again, gotJSON) {
				t.Errorf("not a fixed point: CoerceJSON(%s) = %s, %v", gotJSON, again, err)
			}
		})
	}
	t.Logf("%d schema vectors", len(cases))
}

func checkSchemaResult(t *testing.T, c schemaCase, how string, got map[string]any, err error) {
	t.Helper()
	if c.Error {
		if err == nil {
			t.Fatalf("%s(%s) = %#v, want an error", how, c.Args, got)
		}
		for _, p := range c.ErrorPaths {
			if !strings.Contains(err.Error(), p) {
				t.Errorf("%s: error %q does not name %s", how, err, p)
			}
		}
	} else if err != nil {
		t.Fatalf("%s(%s): %v", how, c.Args, err)
	}
	if d := jsonMismatch(t, got, c.Want, c.Args); d != "" {
		t.Fatalf("%s(%s) = %#v: %s", how, c.Args, got, d)
	}
}

// TestVendoredCopiesAreCurrent checks that the copies in testdata have not
// drifted from the folders they were copied from, when those sit beside
// this checkout (in ../shared): the conformance vectors, beside which only
// our own *-values.json and *-schemas.json may be added, and the JSON
// Schema Test Suite, copied whole and unchanged. Each folder's README.md is
// our own, describing the copy; it is not compared. A clone elsewhere has
// no such folder and skips the check, unless COERCE_SHARED names the folder
// to compare with (`make shared-copies` sets it wherever ../shared exists):
// then a missing folder fails.
func TestVendoredCopiesAreCurrent(t *testing.T) {
	shared, required := os.LookupEnv("COERCE_SHARED")
	if !required {
		shared = filepath.Join("..", "shared")
	}
	for _, c := range []struct {
		shared, copy string
		ours         func(name string) bool // files of our own beside the copy
	}{
		{
			shared: filepath.Join(shared, "conformance"),
			copy:   filepath.Join("testdata", "conformance"),
			ours: func(name string) bool {
				return !strings.Contains(name, "/") &&
					(strings.HasSuffix(name, "-values.json") || strings.HasSuffix(name, "-schemas.json"))
			},
		},
		{
			shared: filepath.Join(shared, "jsonschema-suite"),
			copy:   filepath.Join("testdata", "jsonschema-suite"),
			ours:   func(string) bool { return false },
		},
	} {
		t.Run(filepath.Base(c.copy), func(t *testing.T) {
			if _, err := os.Stat(c.shared); err != nil {
				if required {
					t.Fatalf("COERCE_SHARED: %v", err)
				}
				t.Skipf("no %s beside this checkout", c.shared)
			}
			want, got := treeFiles(t, c.shared), treeFiles(t, c.copy)
			delete(want, "README.md")
			delete(got, "README.md")
			if len(want) == 0 {
				t.Fatalf("%s is empty", c.shared)
			}
			for name, data := range want {
				if g, ok := got[name]; !ok {
					t.Errorf("%s/%s is missing: copy %s again", c.copy, name, c.shared)
				} else if !bytes.Equal(g, data) {
					t.Errorf("%s/%s differs from %s/%s: copy it again", c.copy, name, c.shared, name)
				}
			}
			for name := range got {
				if _, ok := want[name]; !ok && !c.ours(name) {
					t.Errorf("%s/%s is not in %s: remove it, or copy the folder again", c.copy, name, c.shared)
				}
			}
		})
	}
}

// treeFiles reads every file under dir, by slash-separated path relative to
// it.
func treeFiles(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		files[filepath.ToSlash(rel)] = data
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}
