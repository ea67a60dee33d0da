package coerce

import (
	"encoding/json"
	"errors"
	"testing"
)

// A titled enum (MCP's: oneOf or anyOf of const and title, for one value
// or in items for several; the legacy enumNames beside enum) is a string
// type with an enum, whose values the rule of enums reads by their titles
// too: a title, exactly or but for case, becomes its value where it names
// one value and no other reading exists; a value is never respelled. Each
// case runs through every entry point (oneAnswer) and through Coerce.
func TestEnumTitlesRespelledAsTheirValues(t *testing.T) {
	s := schemaOf(t, `{"type":"object","properties":{
		"size":{"type":"string","oneOf":[{"const":"s","title":"Small"},{"const":"m","title":"Medium"},{"const":"M","title":"Mega"}]},
		"hues":{"type":"array","items":{"anyOf":[{"const":"#F00","title":"Red"},{"const":"#0F0","title":"Green"}]}},
		"fruit":{"type":"string","enum":["a","b"],"enumNames":["Apple","Banana"]},
		"twin":{"oneOf":[{"const":"x","title":"Same"},{"const":"y","title":"Same"}]},
		"tricky":{"oneOf":[{"const":"Small","title":"Tiny"},{"const":"big","title":"Small"}]}}}`)
	for _, c := range []struct {
		in, want string // want "": as it came, and refused by Check
	}{
		{`{"size":"Small"}`, `{"size":"s"}`},
		{`{"size":"small"}`, `{"size":"s"}`},
		{`{"size":"MEGA"}`, `{"size":"M"}`},
		{`{"size":"m"}`, `{"size":"m"}`}, // a value, never respelled
		{`{"hues":["Red","#0F0","green"]}`, `{"hues":["#F00","#0F0","#0F0"]}`},
		{`{"fruit":"Banana"}`, `{"fruit":"b"}`},
		{`{"twin":"Same"}`, ""},    // two values have the title
		{`{"tricky":"small"}`, ""}, // the value "Small" but for case, and the value titled "Small"
		{`{"tricky":"Small"}`, `{"tricky":"Small"}`},
		{`{"size":"Huge"}`, ""},
	} {
		if d := oneAnswer(s, []byte(c.in)); d != "" {
			t.Error(d)
		}
		var args map[string]any
		if err := json.Unmarshal([]byte(c.in), &args); err != nil {
			t.Fatal(err)
		}
		got, err := s.Coerce(args)
		if err != nil {
			t.Fatalf("Coerce(%s): %v", c.in, err)
		}
		b, _ := json.Marshal(got)
		cerr := s.Check(got)
		switch {
		case c.want == "" && (string(b) != c.in || !errors.Is(cerr, ErrEnum)):
			t.Errorf("Coerce(%s) = %s, Check %v; want it as it came, refused", c.in, b, cerr)
		case c.want != "" && (string(b) != c.want || cerr != nil):
			t.Errorf("Coerce(%s) = %s, Check %v; want %s", c.in, b, cerr, c.want)
		}
	}
	if p, _ := s.Lookup("size"); p.String() != "string" || len(p.Enum()) != 3 {
		t.Errorf("size is %s with enum %v, want a string with three values", p, p.Enum())
	}
	// ExactEnums turns the rule off, titles and case alike.
	exact := s.WithOptions(Options{ExactEnums: true})
	if got, _ := exact.CoerceJSON([]byte(`{"size":"Small","fruit":"B"}`)); string(got) != `{"size":"Small","fruit":"B"}` {
		t.Errorf("with ExactEnums: %s", got)
	}
}
