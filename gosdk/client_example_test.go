package gosdkcoerce_test

import (
	"context"
	"errors"
	"fmt"
	"log"

	"github.com/coerce-go/coerce"
	"github.com/coerce-go/coerce/gosdk"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A host forwards a model's call to a server it does not own, one that
// validates strictly and rejects the array sent as JSON text:
// validating /properties/tags: type: ["go","mcp"] has type "string",
// want one of "null, array". Through the wrapper, the call arrives as the
// tool's input schema declares it.
func ExampleWrapClient() {
	ctx := context.Background()

	// Someone else's server, reached here in process.
	server := mcp.NewServer(&mcp.Implementation{Name: "search"}, nil)
	type input struct {
		Tags  []string `json:"tags"`
		Limit int      `json:"limit"`
	}
	mcp.AddTool(server, &mcp.Tool{Name: "search"}, func(ctx context.Context, req *mcp.CallToolRequest, in input) (*mcp.CallToolResult, any, error) {
		text := fmt.Sprintf("tags=%q limit=%d", in.Tags, in.Limit)
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil, nil
	})
	serverTransport, clientTransport := mcp.NewInMemoryTransports()
	serverSession, err := server.Connect(ctx, serverTransport, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer serverSession.Close()

	// The host: RefreshSchemas keeps the schemas current when the server's
	// tools change, and runs the host's own handler, if it has one.
	client := mcp.NewClient(&mcp.Implementation{Name: "host"}, &mcp.ClientOptions{
		ToolListChangedHandler: gosdkcoerce.RefreshSchemas(nil),
	})
	session, err := client.Connect(ctx, clientTransport, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer session.Close()
	tools := gosdkcoerce.WrapClient(session)

	res, err := tools.CallTool(ctx, &mcp.CallToolParams{
		Name:      "search",
		Arguments: map[string]any{"tags": `["go","mcp"]`, "limit": "10"},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.IsError, res.Content[0].(*mcp.TextContent).Text)
	// Output:
	// false tags=["go" "mcp"] limit=10
}

// OnChange hears of each repair and OnError of what could not be repaired;
// the call is sent regardless, with that argument as the model gave it, and
// the server answers as it would have without coercion.
func ExampleOptions_WrapClient() {
	ctx := context.Background()
	server := mcp.NewServer(&mcp.Implementation{Name: "search"}, nil)
	type input struct {
		Tags  []string `json:"tags"`
		Limit int      `json:"limit"`
	}
	mcp.AddTool(server, &mcp.Tool{Name: "search"}, func(ctx context.Context, req *mcp.CallToolRequest, in input) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{}, nil, nil
	})
	serverTransport, clientTransport := mcp.NewInMemoryTransports()
	serverSession, err := server.Connect(ctx, serverTransport, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer serverSession.Close()
	session, err := mcp.NewClient(&mcp.Implementation{Name: "host"}, nil).Connect(ctx, clientTransport, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer session.Close()

	tools := gosdkcoerce.Options{
		OnChange: func(ctx context.Context, tool string, c coerce.Change) {
			fmt.Printf("%s: repaired %s: %s %s -> %s\n", tool, c.Path, c.Rule, c.Found, c.Declared)
		},
		OnError: func(ctx context.Context, tool string, err error) {
			var e *coerce.Error
			if errors.As(err, &e) {
				fmt.Printf("%s: not repaired: %s: %v %s\n", tool, e.Path, e.Err, e.Value)
			}
		},
	}.WrapClient(session)
	res, err := tools.CallTool(ctx, &mcp.CallToolParams{
		Name:      "search",
		Arguments: map[string]any{"tags": `["go"]`, "limit": "ten"},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("rejected by the server:", res.IsError)
	// Output:
	// search: repaired /tags: json-text string -> list[string]
	// search: not repaired: /limit: invalid syntax ten
	// rejected by the server: true
}
