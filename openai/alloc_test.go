package openaicoerce_test

import (
	"context"
	"testing"

	"github.com/coerce-go/coerce/openai"
	"github.com/openai/openai-go/v3/responses"
)

// Conforming arguments, the common case, cost one allocation: the copy of
// the argument string into the json.RawMessage returned. Coercion itself
// allocates nothing when nothing needs converting and nobody listens.
func TestConformingCallAllocations(t *testing.T) {
	if testing.Short() {
		t.Skip("counts allocations")
	}
	tools, err := openaicoerce.NewResponseTools(responseTools(t))
	if err != nil {
		t.Fatal(err)
	}
	call := responses.ResponseFunctionToolCall{Name: "search_messages", Arguments: `{"channel": "{\"guild_id\": 1458059302022549698}", "tags": ["a"], "limit": null,
		"author_id": 1458059302022549699, "include_bots": true, "window": {"from": "x", "days": 1}}`}
	ctx := context.Background()
	allocs := testing.AllocsPerRun(100, func() {
		if _, err := tools.Arguments(ctx, call); err != nil {
			t.Fatal(err)
		}
	})
	if allocs > 1 {
		t.Errorf("%v allocations a call, want at most 1", allocs)
	}
}
