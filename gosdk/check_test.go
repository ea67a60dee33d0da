package gosdkcoerce_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/coerce-go/coerce"
	"github.com/coerce-go/coerce/gosdk"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// checkSchema is the tool of the checks before the handler: a closed
// object with a required name and an enum.
const checkSchema = `{"type":"object","additionalProperties":false,"required":["query"],
	"properties":{"query":{"type":"string"},"order":{"type":"string","enum":["asc","desc"]}}}`

// checkCalls are calls coercion cannot fix and leaves to a validator: a
// value outside an enum, a name a closed schema does not declare, a
// required one missing.
var checkCalls = []map[string]any{
	{"query": "x", "order": "sideways"},
	{"query": "x", "colour": "red"},
	{"order": "asc"},
}

// wantFeedback is the answer every adapter gives a call: the schema's
// Feedback of its Check.
func wantFeedback(t *testing.T, args map[string]any) string {
	t.Helper()
	s, err := coerce.ParseSchema([]byte(checkSchema))
	if err != nil {
		t.Fatal(err)
	}
	text, _ := json.Marshal(args)
	return s.Feedback(s.CheckJSON(text))
}

type checkArgs struct {
	Query string `json:"query"`
	Order string `json:"order,omitempty"`
}

// The checks Check makes answer a call before the handler runs, with the
// same feedback, whether the tool validates (mcp.AddTool, typed) or not
// (Server.AddTool, raw); KeepSDKErrors leaves the untyped tool's handler
// to see them, as before.
func TestChecksBeforeHandler(t *testing.T) {
	typed := newServer(nil)
	gosdkcoerce.Install(typed)
	typedGot := make(chan checkArgs, 10)
	mcp.AddTool(typed, &mcp.Tool{Name: "search", InputSchema: json.RawMessage(checkSchema)},
		func(_ context.Context, _ *mcp.CallToolRequest, in checkArgs) (*mcp.CallToolResult, any, error) {
			typedGot <- in
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil, nil
		})
	raw := newServer(nil)
	gosdkcoerce.Install(raw)
	rawGot := addRaw(raw, "search", json.RawMessage(checkSchema))
	kept := newServer(nil)
	gosdkcoerce.Options{KeepSDKErrors: true}.Install(kept)
	keptGot := addRaw(kept, "search", json.RawMessage(checkSchema))

	for name, cs := range map[string]*mcp.ClientSession{"typed": connect(t, typed, client{}), "untyped": connect(t, raw, client{})} {
		for _, args := range checkCalls {
			res := call(t, cs, "search", args)
			if want := wantFeedback(t, args); !res.IsError || resultText(res) != want {
				t.Errorf("%s %v: got IsError=%v %q, want %q", name, args, res.IsError, resultText(res), want)
			}
		}
		if res := call(t, cs, "search", map[string]any{"query": "x", "order": "ASC"}); res.IsError {
			t.Errorf("%s: a respelled enum value: %s", name, resultText(res))
		}
	}
	if len(typedGot) != 1 || len(rawGot) != 1 {
		t.Errorf("handlers ran %d and %d times, want once each (the call that passed)", len(typedGot), len(rawGot))
	}
	cs := connect(t, kept, client{})
	for _, args := range checkCalls {
		if res := call(t, cs, "search", args); res.IsError {
			t.Errorf("KeepSDKErrors %v: %s", args, resultText(res))
		}
	}
	if len(keptGot) != len(checkCalls) {
		t.Errorf("KeepSDKErrors: the handler ran %d times, want %d", len(keptGot), len(checkCalls))
	}
}
