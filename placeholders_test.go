package coerce

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// The rule of placeholders through every entry point: "", {} or [] for a
// parameter that is not required and whose type does not take it is
// removed, reported as placeholder-removed; the rest is as sent.
func TestPlaceholdersRemoved(t *testing.T) {
	s := schemaOf(t, `{"type":"object","required":["q"],"properties":{
		"q":{"type":"string"},"limit":{"type":"integer"},"sort":{"enum":["asc","desc"]},
		"filter":{"type":"object","required":["field"],"properties":{"field":{"type":"string"}}},
		"note":{"type":"string"},"opts":{"type":"object"},"tags":{"type":"array","items":{"type":"string"}},
		"page":{"type":["integer","null"]},"ids":{"type":"array","items":{"type":"integer"}},"when":{"type":"object","properties":{"at":{"type":"string"}}}}}`)
	for _, tc := range []struct {
		name, args, want string
		removed          []string // the paths reported removed
	}{
		{"an empty string for an integer", `{"q":"x","limit":""}`, `{"q":"x"}`, []string{"/limit"}},
		{"an empty string outside an enum", `{"q":"x","sort":""}`, `{"q":"x"}`, []string{"/sort"}},
		{"an empty object that lacks a required key", `{"q":"x","filter":{}}`, `{"q":"x"}`, []string{"/filter"}},
		{"an empty object with space inside", `{"q":"x","filter":{ }}`, `{"q":"x"}`, []string{"/filter"}},
		{"several at once, with a null", `{"q":"x","limit":"","sort":"","filter":{},"note":null}`, `{"q":"x"}`, []string{"/filter", "/limit", "/note", "/sort"}},
		// What must not change:
		{"an empty string for a plain string", `{"q":"x","note":""}`, `{"q":"x","note":""}`, nil},
		{"an empty object that requires nothing", `{"q":"x","opts":{}}`, `{"q":"x","opts":{}}`, nil},
		{"an empty array", `{"q":"x","tags":[]}`, `{"q":"x","tags":[]}`, nil},
		{"an empty string where null is declared: null", `{"q":"x","page":""}`, `{"q":"x","page":null}`, nil},
		{"a required placeholder", `{"q":""}`, `{"q":""}`, nil},
	} {
		var heard []Change
		got, err := s.WithOptions(Options{OnChange: func(c Change) { heard = append(heard, c) }}).CoerceJSON([]byte(tc.args))
		if err != nil || !jsonEqualText(got, []byte(tc.want)) {
			t.Errorf("%s: CoerceJSON(%s) = %s, %v; want %s", tc.name, tc.args, got, err, tc.want)
		}
		var removed []string
		for _, c := range heard {
			if c.Rule == PlaceholderRemoved || c.Rule == NullRemoved {
				removed = append(removed, c.Path)
			}
		}
		if len(removed) != len(tc.removed) || len(removed) > 0 && !equalStrings(removed, tc.removed) {
			t.Errorf("%s: removed %v, want %v", tc.name, removed, tc.removed)
		}
		var m map[string]any
		json.Unmarshal([]byte(tc.args), &m)
		v, err := s.Coerce(m)
		if back, _ := json.Marshal(v); err != nil || !jsonEqualText(back, []byte(tc.want)) {
			t.Errorf("%s: Coerce = %s, %v; want %s", tc.name, back, err, tc.want)
		}
		if d := oneAnswer(s, []byte(tc.args)); d != "" {
			t.Error(d)
		}
	}
	// An integer's "" that is required stays, and fails as it did.
	if _, err := schemaOf(t, `{"type":"object","required":["n"],"properties":{"n":{"type":"integer"}}}`).CoerceJSON([]byte(`{"n":""}`)); err == nil {
		t.Error(`a required integer's "" passed`)
	}
	// KeepNulls keeps placeholders too.
	out, err := s.WithOptions(Options{KeepNulls: true}).CoerceJSON([]byte(`{"q":"x","limit":""}`))
	if err == nil || !bytes.Equal(out, []byte(`{"q":"x","limit":""}`)) {
		t.Errorf("KeepNulls: %s, %v", out, err)
	}
	// "" where an object or array is declared is empty JSON text: an error.
	if _, err := s.CoerceJSON([]byte(`{"q":"x","ids":""}`)); err == nil {
		t.Error(`"" for an array passed`)
	}
}

func jsonEqualText(a, b []byte) bool {
	var x, y any
	return json.Unmarshal(a, &x) == nil && json.Unmarshal(b, &y) == nil && valueMismatch(x, y, byValue) == ""
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// fitParams takes a scalar its parameter's type accepts quickly without
// asking the rule of placeholders: no placeholder may be such a scalar.
// Every kind of type that can have "" as a placeholder (the one scalar
// placeholder) is here, with the schemas of testdata.
func TestNoPlaceholderIsAQuickScalar(t *testing.T) {
	srcs := []string{`{"type":"object","properties":{
		"enum":{"enum":["asc","desc"]},"typed-enum":{"type":"string","enum":["a"]},"const":{"const":"x"},
		"number-enum":{"type":"integer","enum":[1,2]},"beside-a-union":{"type":["string","null"],"enum":["a",null]},
		"member-enum":{"anyOf":[{"type":"string","enum":["a"]},{"type":"null"}]},
		"members-enum":{"anyOf":[{"type":"string","enum":["a"]},{"type":"integer"}]},
		"plain":{"type":"string"},"object":{"type":"object","required":["a"]}}}`}
	names, _ := filepath.Glob(filepath.Join("testdata", "schemas", "*.json"))
	for _, name := range names {
		text, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, string(text))
	}
	seen := 0
	for _, src := range srcs {
		s := schemaOf(t, src)
		if s.params == nil || s.params.index == nil {
			continue
		}
		for _, p := range s.params.index.list {
			if !isEmptyS.in(p.ph) {
				continue
			}
			seen++
			if quickKind("")&p.t.quickAccepts() != 0 {
				t.Errorf("%q: \"\" is a placeholder of %s, which takes it quickly", p.name, p.t)
			}
		}
	}
	if seen < 6 {
		t.Errorf("%d properties with \"\" as a placeholder; the test means to look at at least 6", seen)
	}
}
