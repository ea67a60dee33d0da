package mcpgocoerce_test

import (
	"context"
	"expvar"
	"fmt"
	"log/slog"
	"os"

	"github.com/coerce-go/coerce"
	"github.com/coerce-go/coerce/mcpgo"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// A typed tool on a server that validates its input: the client sends the
// array as JSON text and the integer as a string, as LLM clients do, and
// the handler gets them as declared.
func Example() {
	s := server.NewMCPServer("demo", "1.0.0", server.WithInputSchemaValidation())
	mcpgocoerce.Install(s)

	type searchArgs struct {
		Query string   `json:"query"`
		Tags  []string `json:"tags"`
		Limit int      `json:"limit"`
	}
	search := mcp.NewTool("search",
		mcp.WithString("query", mcp.Required()),
		mcp.WithArray("tags", mcp.WithStringItems()),
		mcp.WithInteger("limit"),
	)
	s.AddTool(search, mcp.NewTypedToolHandler(
		func(_ context.Context, _ mcp.CallToolRequest, args searchArgs) (*mcp.CallToolResult, error) {
			fmt.Printf("query %q, tags %q, limit %d\n", args.Query, args.Tags, args.Limit)
			return mcp.NewToolResultText("done"), nil
		}))

	s.HandleMessage(context.Background(), []byte(`{"jsonrpc": "2.0", "id": 1, "method": "tools/call",
		"params": {"name": "search", "arguments": {"query": "go", "tags": "[\"mcp\", \"json\"]", "limit": "5"}}}`))
	// Output:
	// query "go", tags ["mcp" "json"], limit 5
}

// Counting repairs per tool and rule, and logging each at debug level.
func ExampleOptions() {
	var repairs expvar.Map // a metric, safe for concurrent use as OnChange must be
	logger := slog.New(slog.NewTextHandler(os.Stdout, &slog.HandlerOptions{
		Level:       slog.LevelDebug,
		ReplaceAttr: withoutTime, // for a stable output
	}))

	s := server.NewMCPServer("demo", "1.0.0", server.WithInputSchemaValidation())
	mcpgocoerce.Options{
		OnChange: func(_ context.Context, tool string, c coerce.Change) {
			repairs.Add(tool+" "+c.Rule.String(), 1)
		},
		Logger: logger,
		OnError: func(ctx context.Context, tool string, err error) {
			logger.WarnContext(ctx, "arguments not repaired", "tool", tool, "err", err)
		},
	}.Install(s)
	s.AddTool(mcp.NewTool("search", mcp.WithInteger("limit")),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText("done"), nil
		})

	s.HandleMessage(context.Background(), []byte(`{"jsonrpc": "2.0", "id": 1, "method": "tools/call",
		"params": {"name": "search", "arguments": {"limit": "5"}}}`))
	fmt.Println(repairs.String())
	// Output:
	// level=DEBUG msg="coerce: argument repaired" tool=search change.path=/limit change.declared=integer change.found=string change.preview=5 change.rule=number-from-text
	// {"search number-from-text": 1}
}

func withoutTime(groups []string, a slog.Attr) slog.Attr {
	if a.Key == slog.TimeKey && len(groups) == 0 {
		return slog.Attr{}
	}
	return a
}
