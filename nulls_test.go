package coerce

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// nullsSchema declares nested objects whose optional properties do not
// take null, the shape OpenAI's strict mode sends nulls for.
const nullsSchema = `{"type":"object","properties":{
	"filter":{"type":"object","required":["q"],"properties":{
		"q":{"type":"string"},"label":{"type":"string"},"tag":{"type":"string"},"n":{"type":"integer"}}},
	"list":{"type":"array","items":{"type":"object","properties":{"q":{"type":"string"},"tag":{"type":"string"}}}}}}`

// The walk over text leaves out the member a null the rule removes is,
// with the one comma that joined it to the members kept, in the pass that
// converts the rest: every other byte stays as it came.
func TestNullsLeftOutOfTheTextAsTheWalkConverts(t *testing.T) {
	s := schemaOf(t, nullsSchema)
	for _, tc := range []struct{ in, want string }{
		{`{"filter":{"label":null,"q":"x"}}`, `{"filter":{"q":"x"}}`},
		{`{"filter":{"q":"x", "label": null}}`, `{"filter":{"q":"x"}}`},
		{`{"filter": { "label" : null , "tag":null, "q":"x" , "n":"5" }}`, `{"filter": { "q":"x" , "n":5 }}`},
		{`{"filter":{"q":"x","label":null,"tag":null}}`, `{"filter":{"q":"x"}}`},
		{`{"filter":{"label":null}}`, `{"filter":{}}`},
		{`{"filter":{"label":null,"tag":null}}`, `{"filter":{}}`},
		{`{"filter":{"q":"x","label":null,"n":"5","tag":null}}`, `{"filter":{"q":"x","n":5}}`},
		{`{"list":[{"tag":null},{"q":"y", "tag":null}, {"q":"z"}]}`, `{"list":[{},{"q":"y"}, {"q":"z"}]}`},
		{`{"filter":{"q":"x","l\u0061bel":null}}`, `{"filter":{"q":"x"}}`},
	} {
		out, err := s.CoerceJSON([]byte(tc.in))
		if err != nil || string(out) != tc.want {
			t.Errorf("CoerceJSON(%s) = %s, %v; want %s", tc.in, out, err, tc.want)
		}
		if d := oneAnswer(s, []byte(tc.in)); d != "" {
			t.Error(d)
		}
	}
}

// A null removed is a change like any other: reported once, in path
// order among the conversions, by Coerce and CoerceJSON alike.
func TestNullRemovedReportedInPathOrder(t *testing.T) {
	s := schemaOf(t, nullsSchema)
	wantReported(t, s, `{"filter":{"tag":null,"q":"x","n":"5","label":null}}`,
		"/filter/label null-removed", "/filter/n number-from-text", "/filter/tag null-removed")
}

// wantReported fails t unless CoerceJSON of the argument text in, and
// Coerce of it decoded, each report the changes want (each its path and
// rule), in that order.
func wantReported(t *testing.T, s *Schema, in string, want ...string) {
	t.Helper()
	var heard []string
	o := Options{OnChange: func(c Change) { heard = append(heard, c.Path+" "+c.Rule.String()) }}
	if _, err := s.WithOptions(o).CoerceJSON([]byte(in)); err != nil || !slices.Equal(heard, want) {
		t.Errorf("CoerceJSON(%s) reports %q, %v; want %q", in, heard, err, want)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(in), &m); err != nil {
		t.Fatal(err)
	}
	heard = nil
	if _, err := s.WithOptions(o).Coerce(m); err != nil || !slices.Equal(heard, want) {
		t.Errorf("Coerce(%s) reports %q, %v; want %q", in, heard, err, want)
	}
}

// A json.RawMessage counts as the JSON value it holds, for the rule of
// nulls too: Coerce removes the null in it that CoerceJSON removes from
// the same text written inline.
func TestNullsRemovedInsideRawMessage(t *testing.T) {
	s := schemaOf(t, nullsSchema)
	text := `{"q":"x","label":null}`
	out, err := s.Coerce(map[string]any{"filter": json.RawMessage(text)})
	if err != nil {
		t.Fatal(err)
	}
	inline, err := s.CoerceJSON([]byte(`{"filter":` + text + `}`))
	if err != nil {
		t.Fatal(err)
	}
	var want any
	if err := json.Unmarshal(inline, &want); err != nil {
		t.Fatal(err)
	}
	if got := asJSON(out); got != asJSON(want) || strings.Contains(got, "label") {
		t.Errorf("Coerce of a json.RawMessage = %s, CoerceJSON of its text = %s", got, inline)
	}
}

// A key given twice is the last occurrence, as decoders read it: when that
// one is a null the rule removes, the earlier ones go too, so that no
// decoder takes one of them instead; an earlier null the last one
// overrides stays, and nothing is reported of it. CoerceJSON then gives
// what Coerce gives the decoded call.
func TestNullGivenTwiceDecidedByTheLast(t *testing.T) {
	s := schemaOf(t, nullsSchema)
	for _, tc := range []struct{ in, want string }{
		{`{"filter":{"q":"y","label":"x","label":null}}`, `{"filter":{"q":"y"}}`},
		{`{"filter":{"label":"x","q":"y","l\u0061bel":null,"n":"5"}}`, `{"filter":{"q":"y","n":5}}`},
		{`{"filter":{"q":"y","label":null,"label":"x"}}`, `{"filter":{"q":"y","label":null,"label":"x"}}`},
	} {
		var heard []Change
		out, err := s.WithOptions(Options{OnChange: func(c Change) { heard = append(heard, c) }}).CoerceJSON([]byte(tc.in))
		if err != nil || string(out) != tc.want {
			t.Errorf("CoerceJSON(%s) = %s, %v; want %s", tc.in, out, err, tc.want)
		}
		removed := 0
		for _, c := range heard {
			if c.Rule == NullRemoved {
				removed++
			}
		}
		if want := strings.Count(tc.in, "bel\":null") - strings.Count(tc.want, "bel\":null"); removed != min(want, 1) {
			t.Errorf("CoerceJSON(%s) reports %d nulls removed: %+v", tc.in, removed, heard)
		}
		if d := oneAnswer(s, []byte(tc.in)); d != "" {
			t.Error(d)
		}
	}
}
