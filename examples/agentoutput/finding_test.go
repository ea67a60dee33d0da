package agentoutput

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestFindingCoreJSONText holds findings against the core, not tests of
// this package; each fails until the core's JSON decoding follows
// DESIGN.md. Both reproduce with coerce.ToDeclared(reply, "object | array")
// on main at 6b44283.
func TestFindingCoreJSONText(t *testing.T) {
	tests := []struct {
		name  string
		rule  string
		reply string
		want  any
	}{{
		name:  "integer beyond float64 stays exact",
		rule:  "Conversions: numbers inside parsed text are float64 unless float64 cannot hold the integer exactly, which then stays exact as json.Number",
		reply: `{"id": 1458059302022549698}`,
		want:  map[string]any{"id": json.Number("1458059302022549698")},
	}, {
		name:  "escaped lone surrogate is not JSON text",
		rule:  "Hostile input: JSON text with ... an escaped lone surrogate (\\ud800) is an error (the string stays as it was)",
		reply: `{"name": "\ud800"}`,
		want:  `{"name": "\ud800"}`,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, Parse(tt.reply)); diff != "" {
				t.Errorf("Parse(%q) (-want +got):\n%s\nrule: %s", tt.reply, diff, tt.rule)
			}
		})
	}
}
