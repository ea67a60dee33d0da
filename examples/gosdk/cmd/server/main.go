// Command server is an MCP server on stdio with one tool, "echo", whose
// arguments are coerced to the types its input schema declares before the
// SDK validates them. The tool answers with what its handler received,
// printed with Go syntax so that the types show.
//
// Run it with -coerce=false to see the SDK reject the same calls.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"log/slog"
	"os"

	"github.com/coerce-go/coerce/examples/gosdk/gosdkcoerce"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// EchoArgs is the input of the echo tool: one parameter of each kind that
// LLM hosts get wrong.
type EchoArgs struct {
	Tags       []string       `json:"tags" jsonschema:"labels to apply"`
	Config     map[string]any `json:"config" jsonschema:"settings, as an object"`
	Limit      int            `json:"limit" jsonschema:"maximum number of results"`
	PathParams string         `json:"path_params" jsonschema:"path parameters, as JSON text"`
}

func echo(ctx context.Context, req *mcp.CallToolRequest, in EchoArgs) (*mcp.CallToolResult, EchoArgs, error) {
	text := fmt.Sprintf("Tags:       %#v\nConfig:     %#v\nLimit:      %#v\nPathParams: %#v\n",
		in.Tags, in.Config, in.Limit, in.PathParams)
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, in, nil
}

// newServer builds the server; without coercion it is the plain SDK setup.
func newServer(withCoercion bool, logger *slog.Logger) *mcp.Server {
	server := mcp.NewServer(&mcp.Implementation{Name: "coerce-echo", Version: "v0.1.0"}, nil)
	tool := &mcp.Tool{Name: "echo", Description: "Echo the arguments as the handler received them."}
	if !withCoercion {
		mcp.AddTool(server, tool, echo)
		return server
	}
	reg := &gosdkcoerce.Registry{
		OnError: func(ctx context.Context, req *mcp.CallToolRequest, err error) {
			logger.WarnContext(ctx, "arguments not coerced", "tool", req.Params.Name, "error", err)
		},
	}
	server.AddReceivingMiddleware(reg.Middleware())
	gosdkcoerce.AddTool(reg, server, tool, echo)
	return server
}

func main() {
	withCoercion := flag.Bool("coerce", true, "coerce tool arguments to their declared types")
	flag.Parse()
	// stdout carries the protocol; logs go to stderr.
	logger := slog.New(slog.NewTextHandler(os.Stderr, nil))
	if err := newServer(*withCoercion, logger).Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		log.Fatal(err)
	}
}
