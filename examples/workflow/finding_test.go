package workflow

import (
	"context"
	"testing"
)

// TestFindingCoreBigIntegerInJSONText is a finding against the core, not a
// test of this package: DESIGN.md ("Numbers inside parsed text ... are
// float64 unless float64 cannot hold the integer exactly, which then stays
// exact as json.Number") and contract rule 3 ("no float64 rounding of
// integers beyond 2^53"). On main at 6b44283, ToDeclared of JSON text
// rounds such an integer to float64, so a Discord channel ID given as a
// number on the command line reaches the tool as a different channel.
// It fails until the core's decoder keeps these integers exact.
func TestFindingCoreBigIntegerInJSONText(t *testing.T) {
	params, err := ParseCLIParams([]string{
		`path_params={"channel_id":1458059302022549698}`,
		`body_schema={"content":"test message"}`,
	})
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	e := &Engine{Nodes: map[string]*Node{"discord": discord(t, &got)}}
	if _, err := e.RunNode(context.Background(), "discord", params); err != nil {
		t.Fatal(err)
	}
	if want := `{"channel_id":1458059302022549698}`; got["path_params"] != want {
		t.Errorf("path_params = %s, want %s", got["path_params"], want)
	}
}
