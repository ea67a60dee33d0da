package mcpgocoerce_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/coerce-go/coerce"
	"github.com/coerce-go/coerce/mcpgo"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
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

// The checks Check makes answer a call before the handler runs, with the
// schema's feedback, whether the server validates or not (mcp-go's
// default); KeepSDKErrors leaves them to the validator or the handler.
func TestChecksBeforeHandler(t *testing.T) {
	s, err := coerce.ParseSchema([]byte(checkSchema))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name     string
		validate bool
		opts     mcpgocoerce.Options
	}{
		{"validator", true, mcpgocoerce.Options{}},
		{"no validator", false, mcpgocoerce.Options{}},
		{"KeepSDKErrors", false, mcpgocoerce.Options{KeepSDKErrors: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var opts []server.ServerOption
			if tc.validate {
				opts = append(opts, server.WithInputSchemaValidation())
			}
			srv := server.NewMCPServer("test", "0.0.0", opts...)
			tc.opts.Install(srv)
			got := make(chan map[string]any, 10)
			srv.AddTool(mcp.NewToolWithRawSchema("search", "Search.", json.RawMessage(checkSchema)),
				func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
					got <- req.GetArguments()
					return mcp.NewToolResultText("ok"), nil
				})
			c := connect(t, srv)
			for _, args := range checkCalls {
				res := call(t, c, "search", args)
				text, _ := json.Marshal(args)
				want := s.Feedback(s.CheckJSON(text))
				switch {
				case tc.opts.KeepSDKErrors && res.IsError:
					t.Errorf("%v: %v", args, res.Content)
				case !tc.opts.KeepSDKErrors && (!res.IsError || len(res.Content) != 1 || res.Content[0].(mcp.TextContent).Text != want):
					t.Errorf("%v: got IsError=%v %v, want %q", args, res.IsError, res.Content, want)
				}
			}
			if res := call(t, c, "search", map[string]any{"query": "x", "order": "ASC"}); res.IsError {
				t.Errorf("a respelled enum value: %v", res.Content)
			}
			want := 1
			if tc.opts.KeepSDKErrors {
				want += len(checkCalls)
			}
			if len(got) != want {
				t.Errorf("the handler ran %d times, want %d", len(got), want)
			}
		})
	}
}
