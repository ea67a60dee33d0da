package coerce

import (
	"bytes"
	"encoding/json"
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
