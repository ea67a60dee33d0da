package coerce

import (
	"encoding/json"
	"testing"
)

// Regressions found by the examples, kept here at the level of the core:
// JSON text that an agent or a command line hands over, parsed without a
// declared type (Structured) or declared "dict | list", and written back
// as text for a parameter declared str.
func TestRegressionJSONTextRoundTrip(t *testing.T) {
	for _, tt := range []struct {
		name string
		text string
		want any // nil: Structured refuses it, and the text stays as it is
		str  string
	}{{
		name: "an integer beyond 2^53 stays exact",
		text: `{"id": 1458059302022549698}`,
		want: map[string]any{"id": json.Number("1458059302022549698")},
		str:  `{"id":1458059302022549698}`,
	}, {
		name: "an integer beyond 2^53 in an array",
		text: `[1458059302022549698, 1]`,
		want: []any{json.Number("1458059302022549698"), 1.0},
		str:  `[1458059302022549698,1]`,
	}, {
		name: "an escaped lone surrogate is not JSON text",
		text: `{"name": "\ud800"}`,
	}} {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := Structured(tt.text)
			if d := diff(tt.want, got); d != "" || ok != (tt.want != nil) {
				t.Fatalf("Structured(%s) = %v (-want +got):\n%s", tt.text, ok, d)
			}
			v, err := ToDeclared(tt.text, "dict | list")
			if tt.want == nil {
				if err == nil || v != tt.text {
					t.Errorf(`ToDeclared(%s, "dict | list") = %#v, %v; want the text back with an error`, tt.text, v, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			s, err := ToDeclared(v, "str")
			if err != nil || s != tt.str {
				t.Errorf(`ToDeclared(%#v, "str") = %#v, %v; want %s`, v, s, err, tt.str)
			}
		})
	}
}
