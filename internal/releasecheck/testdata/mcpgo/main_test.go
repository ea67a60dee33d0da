// Release check: a tool on an mcp-go server with github.com/coerce-go/coerce/mcpgo installed, as a user's module builds it.
package main

import (
	"context"
	"reflect"
	"testing"

	"github.com/coerce-go/coerce/mcpgo"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

type addArgs struct {
	Tags  []string `json:"tags"`
	Count int      `json:"count"`
}

// newServer serves the tool "add", which sends what it got to got.
func newServer(got chan<- addArgs) *server.MCPServer {
	s := server.NewMCPServer("releasecheck", "1.0.0", server.WithInputSchemaValidation())
	mcpgocoerce.Install(s)
	add := mcp.NewTool("add", mcp.WithArray("tags", mcp.WithStringItems()), mcp.WithInteger("count"))
	s.AddTool(add, mcp.NewTypedToolHandler(func(_ context.Context, _ mcp.CallToolRequest, args addArgs) (*mcp.CallToolResult, error) {
		got <- args
		return mcp.NewToolResultText("ok"), nil
	}))
	return s
}

func TestBrokenCallIsRepaired(t *testing.T) {
	got := make(chan addArgs, 1)
	resp := newServer(got).HandleMessage(t.Context(), []byte(`{"jsonrpc": "2.0", "id": 1, "method": "tools/call",
		"params": {"name": "add", "arguments": {"tags": "[\"a\", \"b\"]", "count": "5"}}}`))
	if r, ok := resp.(mcp.JSONRPCResponse); !ok {
		t.Fatalf("got %#v, want a response", resp)
	} else if res, ok := r.Result.(*mcp.CallToolResult); !ok || res.IsError {
		t.Fatalf("got %#v, want a successful call", r.Result)
	}
	select {
	case args := <-got:
		if want := (addArgs{Tags: []string{"a", "b"}, Count: 5}); !reflect.DeepEqual(args, want) {
			t.Errorf("tool got %+v, want %+v", args, want)
		}
	default:
		t.Fatal("the tool was not called")
	}
}
