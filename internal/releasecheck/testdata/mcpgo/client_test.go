// The client side, as a host or gateway builds it: a server that is not
// ours and validates strictly, called through mcpgocoerce.WrapClient.
package main

import (
	"context"
	"reflect"
	"testing"

	"github.com/coerce-go/coerce/mcpgo"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

func TestClientRepairsBrokenCall(t *testing.T) {
	ctx := context.Background()
	got := make(chan addArgs, 1)
	s := server.NewMCPServer("theirs", "1.0.0", server.WithInputSchemaValidation()) // no coercion installed
	s.AddTool(mcp.NewTool("add", mcp.WithArray("tags", mcp.WithStringItems()), mcp.WithInteger("count")),
		mcp.NewTypedToolHandler(func(_ context.Context, _ mcp.CallToolRequest, args addArgs) (*mcp.CallToolResult, error) {
			got <- args
			return mcp.NewToolResultText("ok"), nil
		}))
	c, err := client.NewInProcessClient(s)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Initialize(ctx, mcp.InitializeRequest{}); err != nil {
		t.Fatal(err)
	}

	var req mcp.CallToolRequest
	req.Params.Name = "add"
	req.Params.Arguments = map[string]any{"tags": `["a","b"]`, "count": "5"}
	res, err := mcpgocoerce.WrapClient(c).CallTool(ctx, req)
	if err != nil || res.IsError {
		t.Fatalf("the call was rejected: %v %+v", err, res)
	}
	if args, want := <-got, (addArgs{Tags: []string{"a", "b"}, Count: 5}); !reflect.DeepEqual(args, want) {
		t.Errorf("the tool got %+v, want %+v", args, want)
	}
}
