package mcpgocoerce_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
)

// echoTool declares one parameter of each shape that LLM clients are known to
// send wrongly: an array and an object arrive as JSON text, an integer as a
// numeric string, and a string meant to hold JSON text arrives as an object.
func echoTool() mcp.Tool {
	return mcp.NewTool("echo",
		mcp.WithDescription("Echoes its arguments with the Go type each one arrived as."),
		mcp.WithArray("tags", mcp.WithStringItems(), mcp.Description("Labels to attach.")),
		mcp.WithObject("meta", mcp.Description("Free-form metadata.")),
		mcp.WithInteger("count", mcp.Description("How many items to return.")),
		mcp.WithString("filter", mcp.Description("A filter as JSON text, forwarded verbatim to the backend.")),
	)
}

// echo answers with one line per argument: its name, the Go type the handler
// received, and its value as JSON.
func echo(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return mcp.NewToolResultText(describe(req.GetArguments())), nil
}

// describe renders arguments as echo does, sorted by name.
func describe(args map[string]any) string {
	var b strings.Builder
	for _, name := range slices.Sorted(maps.Keys(args)) {
		fmt.Fprintf(&b, "%s: %T %s\n", name, args[name], jsonText(args[name]))
	}
	return b.String()
}

func jsonText(v any) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Sprintf("<%v>", err)
	}
	return strings.TrimSuffix(buf.String(), "\n")
}
