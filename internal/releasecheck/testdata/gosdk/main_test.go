// Package main is the whole of a scratch module that tests the released gosdk module as a user gets it (go get, go mod tidy, go test).
package main

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/coerce-go/coerce/gosdk"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type searchArgs struct {
	Tags  []string `json:"tags"`
	Limit int      `json:"limit"`
}

// newServer is a server as the README shows it: one line installs coercion,
// and the tool is registered as usual.
func newServer(got chan<- searchArgs) *mcp.Server {
	server := mcp.NewServer(&mcp.Implementation{Name: "releasecheck"}, nil)
	gosdkcoerce.Install(server)
	mcp.AddTool(server, &mcp.Tool{Name: "search"}, func(ctx context.Context, req *mcp.CallToolRequest, in searchArgs) (*mcp.CallToolResult, any, error) {
		got <- in
		return &mcp.CallToolResult{}, nil, nil
	})
	return server
}

// A call as LLM hosts send it, an array as JSON text and an integer as a
// string, goes through the SDK's own client and server and reaches the tool
// repaired; without coercion the SDK would reject it.
func TestBrokenCallIsRepaired(t *testing.T) {
	ctx := context.Background()
	got := make(chan searchArgs, 1)
	st, ct := mcp.NewInMemoryTransports()
	ss, err := newServer(got).Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "host"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()

	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "search", Arguments: map[string]any{"tags": `["a","b"]`, "limit": "5"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError {
		text, _ := json.Marshal(res.Content)
		t.Fatalf("tool error: %s", text)
	}
	want := searchArgs{Tags: []string{"a", "b"}, Limit: 5}
	if in := <-got; !reflect.DeepEqual(in, want) {
		t.Errorf("the tool got %+v, want %+v", in, want)
	}
}
