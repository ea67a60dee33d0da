package mcpgocoerce_test

import (
	"context"
	"errors"
	"fmt"
	"log"

	"github.com/coerce-go/coerce"
	"github.com/coerce-go/coerce/mcpgo"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// A host forwards a model's call to a server it does not own, one that
// validates strictly and rejects the array sent as JSON text
// (input schema validation failed: /tags: &{Got:string Want:[array]}).
// Through the wrapper, the call arrives as the tool's input schema
// declares it.
func ExampleWrapClient() {
	ctx := context.Background()

	// Someone else's server, reached here in process.
	s := server.NewMCPServer("search", "1.0.0", server.WithInputSchemaValidation())
	type input struct {
		Tags  []string `json:"tags"`
		Limit int      `json:"limit"`
	}
	s.AddTool(mcp.NewTool("search", mcp.WithArray("tags", mcp.WithStringItems()), mcp.WithInteger("limit")),
		mcp.NewTypedToolHandler(func(_ context.Context, _ mcp.CallToolRequest, in input) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText(fmt.Sprintf("tags=%q limit=%d", in.Tags, in.Limit)), nil
		}))

	// The host.
	c, err := client.NewInProcessClient(s)
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	if err := c.Start(ctx); err != nil {
		log.Fatal(err)
	}
	if _, err := c.Initialize(ctx, mcp.InitializeRequest{}); err != nil {
		log.Fatal(err)
	}
	tools := mcpgocoerce.WrapClient(c)

	var req mcp.CallToolRequest
	req.Params.Name = "search"
	req.Params.Arguments = map[string]any{"tags": `["go","mcp"]`, "limit": "10"}
	res, err := tools.CallTool(ctx, req)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.IsError, res.Content[0].(mcp.TextContent).Text)
	// Output:
	// false tags=["go" "mcp"] limit=10
}

// OnChange hears of each repair and OnError of what could not be repaired;
// the call is sent regardless, with that argument as the model gave it, and
// the server answers as it would have without coercion.
func ExampleOptions_WrapClient() {
	ctx := context.Background()
	s := server.NewMCPServer("search", "1.0.0", server.WithInputSchemaValidation())
	s.AddTool(mcp.NewTool("search", mcp.WithArray("tags", mcp.WithStringItems()), mcp.WithInteger("limit")),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText("ok"), nil
		})
	c, err := client.NewInProcessClient(s)
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	if err := c.Start(ctx); err != nil {
		log.Fatal(err)
	}
	if _, err := c.Initialize(ctx, mcp.InitializeRequest{}); err != nil {
		log.Fatal(err)
	}

	tools := mcpgocoerce.Options{
		OnChange: func(ctx context.Context, tool string, c coerce.Change) {
			fmt.Printf("%s: repaired %s: %s %s -> %s\n", tool, c.Path, c.Rule, c.Found, c.Declared)
		},
		OnError: func(ctx context.Context, tool string, err error) {
			var e *coerce.Error
			if errors.As(err, &e) {
				fmt.Printf("%s: not repaired: %s: %v %s\n", tool, e.Path, e.Err, e.Value)
			}
		},
	}.WrapClient(c)
	var req mcp.CallToolRequest
	req.Params.Name = "search"
	req.Params.Arguments = map[string]any{"tags": `["go"]`, "limit": "ten"}
	res, err := tools.CallTool(ctx, req)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("rejected by the server:", res.IsError)
	// Output:
	// search: repaired /tags: json-text string -> list[string]
	// search: not repaired: /limit: invalid syntax ten
	// rejected by the server: true
}
