package coerce

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// A key a pattern claims is a parameter as it stands: it is never renamed
// to the property it spells, nor removed as a null, when another key sets
// the rules of names and nulls off; given twice, Coerce and CoerceJSON
// agree.
func TestNamesPatternKeyNeverRenamed(t *testing.T) {
	s := schemaOf(t, `{"type":"object","properties":{"max_results":{"type":"integer"},"limit":{"type":"integer"}},
		"patternProperties":{"^max":{"type":"string"}}}`)
	for _, args := range []string{
		`{"maxResults": "5", "Limit": "2"}`,
		`{"maxResults": null, "Limit": "2"}`,
		`{"maxResults": "5", "maxResults": "6", "Limit": "2"}`,
	} {
		out, err := s.CoerceJSON([]byte(args))
		var got map[string]any
		if jerr := json.Unmarshal(out, &got); err != nil || jerr != nil {
			t.Fatalf("%s: %s, %v", args, out, err)
		}
		if _, renamed := got["max_results"]; renamed || got["limit"] != 2.0 {
			t.Errorf("%s: got %s, want maxResults kept and Limit renamed", args, out)
		}
		if d := oneAnswer(s, []byte(args)); d != "" {
			t.Error(d)
		}
	}
}

// An alias two properties declare, or an alias that is one property's and
// another's spelling, has two readings: it renames nothing.
func TestNamesAmbiguousAliasNeverApplied(t *testing.T) {
	for _, tc := range []struct{ schema, args string }{
		{`{"type":"object","properties":{"a":{"type":"integer","x-aliases":["q"]},"b":{"type":"integer","x-aliases":["q"]}}}`, `{"q": "1"}`},
		{`{"type":"object","properties":{"query":{"type":"string","x-aliases":["Text"]},"text":{"type":"string"}}}`, `{"Text": "x"}`},
	} {
		s := schemaOf(t, tc.schema)
		out, err := s.CoerceJSON([]byte(tc.args))
		if err != nil || string(out) != tc.args {
			t.Errorf("%s <- %s: got %s, %v; want it as sent", tc.schema, tc.args, out, err)
		}
		got, err := s.Coerce(map[string]any{strings.Trim(strings.SplitN(tc.args, ":", 2)[0], `{" `): "1"})
		if err != nil || len(got) != 1 {
			t.Errorf("Coerce: %v, %v", got, err)
		}
		for k := range got {
			if s.params.known(k) {
				t.Errorf("Coerce renamed the key to %q", k)
			}
		}
	}
	// One alias of one property, and nothing else that reads it: applied.
	s := schemaOf(t, `{"type":"object","properties":{"query":{"type":"string","x-aliases":["q"]}}}`)
	if out, err := s.CoerceJSON([]byte(`{"q": "x"}`)); err != nil || string(out) != `{"query": "x"}` {
		t.Errorf("a plain alias: %s, %v", out, err)
	}
}

// The rules of names on generated schemas with patterns and aliases: no
// key a property or a pattern claims is renamed, and every entry point
// gives one answer.
func TestNamesRulesProperty(t *testing.T) {
	words := []string{"max_results", "maxResults", "MaxResults", "limit", "Limit", "q", "query", "Query", "x-id", "xId", "text", "Text", "page", "PAGE"}
	for seed := range uint64(400) {
		r := rand.New(rand.NewPCG(seed, 7))
		props := map[string]any{}
		for range 1 + r.IntN(4) {
			p := map[string]any{"type": []string{"string", "integer"}[r.IntN(2)]}
			if r.IntN(3) == 0 {
				p["x-aliases"] = []string{words[r.IntN(len(words))]}
			}
			props[words[r.IntN(len(words))]] = p
		}
		schema := map[string]any{"type": "object", "properties": props}
		if r.IntN(2) == 0 {
			schema["patternProperties"] = map[string]any{[]string{"^max", "^x", "^[A-Z]"}[r.IntN(3)]: map[string]any{"type": "string"}}
		}
		text, _ := json.Marshal(schema)
		s, err := ParseSchema(text)
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		b.WriteString("{")
		for i := range 1 + r.IntN(4) {
			if i > 0 {
				b.WriteString(",")
			}
			v := []string{`"5"`, `null`, `7`, `"x"`}[r.IntN(4)]
			fmt.Fprintf(&b, "%q:%s", words[r.IntN(len(words))], v)
		}
		b.WriteString("}")
		args := []byte(b.String())
		var changes []Change
		if _, err := s.WithOptions(Options{OnChange: func(c Change) { changes = append(changes, c) }}).CoerceJSON(args); err == nil {
			for _, c := range changes {
				if c.Rule == Renamed && s.params.known(c.Preview) {
					t.Errorf("%s <- %s: %q, which the schema claims, renamed to %s", text, args, c.Preview, c.Path)
				}
			}
		}
		if d := oneAnswer(s, args); d != "" {
			t.Errorf("%s: %s", text, d)
		}
	}
}
