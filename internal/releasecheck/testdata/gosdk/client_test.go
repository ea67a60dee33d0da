// The client side, as a host or gateway builds it: a server that is not
// ours and validates strictly, called through gosdkcoerce.WrapClient.
package main

import (
	"context"
	"reflect"
	"testing"

	"github.com/coerce-go/coerce/gosdk"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestClientRepairsBrokenCall(t *testing.T) {
	ctx := context.Background()
	got := make(chan searchArgs, 1)
	server := mcp.NewServer(&mcp.Implementation{Name: "theirs"}, nil) // no coercion installed
	mcp.AddTool(server, &mcp.Tool{Name: "search"}, func(ctx context.Context, req *mcp.CallToolRequest, in searchArgs) (*mcp.CallToolResult, any, error) {
		got <- in
		return &mcp.CallToolResult{}, nil, nil
	})
	st, ct := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	client := mcp.NewClient(&mcp.Implementation{Name: "host"}, &mcp.ClientOptions{ToolListChangedHandler: gosdkcoerce.RefreshSchemas(nil)})
	cs, err := client.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()

	res, err := gosdkcoerce.WrapClient(cs).CallTool(ctx, &mcp.CallToolParams{Name: "search", Arguments: map[string]any{"tags": `["a","b"]`, "limit": "5"}})
	if err != nil || res.IsError {
		t.Fatalf("the call was rejected: %v %+v", err, res)
	}
	if in, want := <-got, (searchArgs{Tags: []string{"a", "b"}, Limit: 5}); !reflect.DeepEqual(in, want) {
		t.Errorf("the tool got %+v, want %+v", in, want)
	}
}
