package coerce

import (
	"encoding/json"
	"testing"
)

// The rule of envelopes through Coerce, CoerceJSON (with and without a
// listener) and Check mode: one undeclared envelope key whose object
// conforms where the envelope does not is that object; the rest stays.
func TestEnvelopesUnwrapped(t *testing.T) {
	s := schemaOf(t, `{"type":"object","required":["query"],"properties":{"query":{"type":"string"},"limit":{"type":"integer"}}}`)
	declares := schemaOf(t, `{"type":"object","required":["query"],"properties":{"query":{"type":"string"},"input":{"type":"object"}}}`)
	open := schemaOf(t, `{"type":"object","properties":{"query":{"type":"string"}}}`)
	for _, tc := range []struct {
		name   string
		schema *Schema
		args   string
		want   string
		unwrap bool
	}{
		{"kwargs", s, `{"kwargs": {"query": "go", "limit": "5"}}`, `{"query": "go", "limit": 5}`, true},
		{"arguments as JSON text", s, `{"arguments": "{\"query\": \"go\"}"}`, `{"query": "go"}`, true},
		{"input, names repaired inside", s, `{"input": {"Query": "go"}}`, `{"query": "go"}`, true},
		{"params", s, `{"params": {"query": "go"}}`, `{"query": "go"}`, true},
		// What must not change:
		{"a declared envelope key", declares, `{"input": {"query": "go"}}`, `{"input": {"query": "go"}}`, false},
		{"a second key", s, `{"kwargs": {"query": "go"}, "limit": 5}`, `{"kwargs": {"query": "go"}, "limit": 5}`, false},
		{"content that does not conform", s, `{"kwargs": {"limit": 5}}`, `{"kwargs": {"limit": 5}}`, false},
		{"an envelope the schema takes", open, `{"kwargs": {"query": "go"}}`, `{"kwargs": {"query": "go"}}`, false},
		{"not an object inside", s, `{"args": ["go"]}`, `{"args": ["go"]}`, false},
		{"another key", s, `{"payload": {"query": "go"}}`, `{"payload": {"query": "go"}}`, false},
		{"an envelope in the envelope", s, `{"args": {"args": {"query": "go"}}}`, `{"args": {"args": {"query": "go"}}}`, false},
	} {
		var heard []Change
		got, err := tc.schema.WithOptions(Options{OnChange: func(c Change) { heard = append(heard, c) }}).CoerceJSON([]byte(tc.args))
		if err != nil || !jsonEqualText(got, []byte(tc.want)) {
			t.Errorf("%s: CoerceJSON = %s, %v; want %s", tc.name, got, err, tc.want)
		}
		unwrapped := len(heard) > 0 && heard[0].Rule == Unwrapped
		if unwrapped != tc.unwrap {
			t.Errorf("%s: changes %v", tc.name, heard)
		}
		var m map[string]any
		json.Unmarshal([]byte(tc.args), &m)
		v, err := tc.schema.Coerce(m)
		if back, _ := json.Marshal(v); err != nil || !jsonEqualText(back, []byte(tc.want)) {
			t.Errorf("%s: Coerce = %s, %v; want %s", tc.name, back, err, tc.want)
		}
		if d := oneAnswer(tc.schema, []byte(tc.args)); d != "" {
			t.Error(d)
		}
	}
	// ExactNames turns it off.
	out, _ := s.WithOptions(Options{ExactNames: true}).CoerceJSON([]byte(`{"kwargs": {"query": "go"}}`))
	if string(out) != `{"kwargs": {"query": "go"}}` {
		t.Errorf("ExactNames: %s", out)
	}
}
