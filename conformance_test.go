package coerce

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"reflect"
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
}

type schemaCase struct {
	ID         string          `json:"id"`
	Schema     json.RawMessage `json:"schema"`
	Args       json.RawMessage `json:"args"`
	Want       json.RawMessage `json:"want"`
	Error      bool            `json:"error"`
	ErrorPaths []string        `json:"error_paths"`
}

// jsonMismatch compares got with a vector's want as JSON: got is written and
// read back with numbers as json.Number, numbers compare by exact decimal
// value, and {"$json": X} matches a string whose JSON equals X. It returns
// "" on a match, else what differs where.
func jsonMismatch(t testing.TB, got any, want json.RawMessage) string {
	text, err := json.Marshal(exactFloats(got))
	if err != nil {
		return fmt.Sprintf("result cannot be written as JSON: %v", err)
	}
	return matchJSON("", mustUseNumber(t, text), mustUseNumber(t, want))
}

// exactFloats returns v with each whole float64 beyond 2^53 replaced by a
// json.Number of its exact value. encoding/json writes such a float in its
// shortest form (2^64 as 18446744073709552000), which names another
// integer; the float itself is exactly 18446744073709551616, which a
// vector may want. Fractions are left to the shortest form, which is what
// they were read from. v itself is not modified.
func exactFloats(v any) any {
	switch x := v.(type) {
	case float64:
		if x == math.Trunc(x) && math.Abs(x) >= 1<<53 && !math.IsInf(x, 0) {
			return json.Number(new(big.Float).SetFloat64(x).Text('f', 0))
		}
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = exactFloats(e)
		}
		return m
	case []any:
		s := make([]any, len(x))
		for i, e := range x {
			s[i] = exactFloats(e)
		}
		return s
	}
	return v
}

func matchJSON(path string, got, want any) string {
	if w, ok := want.(map[string]any); ok && len(w) == 1 && w["$json"] != nil {
		s, ok := got.(string)
		if !ok {
			return fmt.Sprintf("%s: want a string holding JSON, got %T %v", path, got, got)
		}
		if !json.Valid([]byte(s)) {
			return fmt.Sprintf("%s: want a string holding JSON, got %q", path, s)
		}
		v, _ := decodeUseNumber([]byte(s)) // valid, as checked above
		return matchJSON(path+"($json)", v, w["$json"])
	}
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok || len(g) != len(w) {
			return fmt.Sprintf("%s: want %v, got %v", path, w, got)
		}
		for k := range w {
			if d := matchJSON(path+"/"+k, g[k], w[k]); d != "" {
				return d
			}
		}
		return ""
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return fmt.Sprintf("%s: want %v, got %v", path, w, got)
		}
		for i := range w {
			if d := matchJSON(fmt.Sprintf("%s/%d", path, i), g[i], w[i]); d != "" {
				return d
			}
		}
		return ""
	case json.Number:
		g, ok := got.(json.Number)
		if !ok || !sameDecimal(string(g), string(w)) {
			return fmt.Sprintf("%s: want number %s, got %T %v", path, w, got, got)
		}
		return ""
	}
	if !reflect.DeepEqual(got, want) {
		return fmt.Sprintf("%s: want %T %#v, got %T %#v", path, want, want, got, got)
	}
	return ""
}

// sameDecimal compares two JSON numbers by exact value: 5, 5.0 and 5e0 are
// equal; 9007199254740992 and 9007199254740993 are not.
func sameDecimal(a, b string) bool {
	na, oka := scanNumeral(a)
	nb, okb := scanNumeral(b)
	if !oka || !okb {
		return false
	}
	da, sa := na.significand()
	db, sb := nb.significand()
	return da == db && sa == sb && (da == "" || na.neg == nb.neg)
}

func TestConformanceValues(t *testing.T) {
	cases := loadCases[valueCase](t, "testdata/conformance/*values.json")
	for _, c := range cases {
		t.Run(c.ID, func(t *testing.T) {
			input := decodeFloat64(t, c.Input)
			before := deepCopy(input)
			got, err := ToDeclared(input, c.Declared)
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
			if d := jsonMismatch(t, got, c.Want); d != "" {
				t.Fatalf("ToDeclared(%s, %q) = %#v: %s", c.Input, c.Declared, got, d)
			}
			again, err := ToDeclared(got, c.Declared)
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
			if jsonMismatch(t, before, c.Want) == "" {
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
	if d := jsonMismatch(t, got, c.Want); d != "" {
		t.Fatalf("%s(%s) = %#v: %s", how, c.Args, got, d)
	}
}

// TestVendoredCopiesAreCurrent checks that the copies in testdata have not
// drifted from the folders they were copied from, when those sit beside
// this checkout (in ../shared): the conformance vectors, beside which only
// our own *-values.json and *-schemas.json may be added, and the JSON
// Schema Test Suite, copied whole and unchanged. Each folder's README.md is
// our own, describing the copy; it is not compared. A clone elsewhere has
// no such folder and skips the check.
func TestVendoredCopiesAreCurrent(t *testing.T) {
	for _, c := range []struct {
		shared, copy string
		ours         func(name string) bool // files of our own beside the copy
	}{
		{
			shared: filepath.Join("..", "shared", "conformance"),
			copy:   filepath.Join("testdata", "conformance"),
			ours: func(name string) bool {
				return !strings.Contains(name, "/") &&
					(strings.HasSuffix(name, "-values.json") || strings.HasSuffix(name, "-schemas.json"))
			},
		},
		{
			shared: filepath.Join("..", "shared", "jsonschema-suite"),
			copy:   filepath.Join("testdata", "jsonschema-suite"),
			ours:   func(string) bool { return false },
		},
	} {
		t.Run(filepath.Base(c.copy), func(t *testing.T) {
			if _, err := os.Stat(c.shared); err != nil {
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
