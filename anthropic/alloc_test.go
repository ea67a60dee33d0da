package anthropiccoerce_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/coerce-go/coerce/anthropic"
)

// Conforming input, the common case, costs a wrapped tool nothing beyond
// the tool's own work, and a registry nothing at all, when nobody listens.
func TestConformingInputAllocations(t *testing.T) {
	if testing.Short() {
		t.Skip("counts allocations")
	}
	input := json.RawMessage(`{"channel": "{\"guild_id\": 1458059302022549698}", "tags": ["a"], "limit": null,
		"author_id": 1458059302022549699, "include_bots": true, "window": {"from": "x", "days": 1}}`)
	ctx := context.Background()
	var sent json.RawMessage
	inner := rawTool{name: "search_messages", schema: betaInputSchema(t), got: &sent}
	tool := anthropiccoerce.WrapTool(inner)
	if allocs := testing.AllocsPerRun(100, func() {
		if _, err := tool.Execute(ctx, input); err != nil {
			t.Fatal(err)
		}
	}); allocs > 0 {
		t.Errorf("a wrapped tool: %v allocations a call, want 0", allocs)
	}

	tools, err := anthropiccoerce.NewTools([]anthropic.ToolUnionParam{{OfTool: &anthropic.ToolParam{Name: "search_messages", InputSchema: inputSchema(t)}}})
	if err != nil {
		t.Fatal(err)
	}
	use := anthropic.ToolUseBlock{Name: "search_messages", Input: input}
	if allocs := testing.AllocsPerRun(100, func() {
		if _, err := tools.Input(ctx, use); err != nil {
			t.Fatal(err)
		}
	}); allocs > 0 {
		t.Errorf("Tools.Input: %v allocations a call, want 0", allocs)
	}
}
