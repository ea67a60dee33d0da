// Command mcpserver is an MCP server on stdio, built with the official Go
// SDK, with coerce installed: its one tool, search_posts, has the shapes of
// input schema that LLM clients break (an array, an integer, an enum, an
// object, an optional object and a nullable integer nested in it), and
// answers with the arguments as it received them.
//
// Run it from a host (see README.md), or by hand:
//
//	go run ./examples/mcpserver
//
// Repairs are logged to standard error at debug level; standard output
// carries the protocol.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"log/slog"
	"os"

	"github.com/coerce-go/coerce/gosdk"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// inputSchema is search_posts' input schema, written out rather than
// inferred from SearchInput so that it can hold the enum and the bounds.
// Clients send "[\"go\"]" for tags, "5" for limit, "Newest" for sort, the
// filter as JSON text, "null" or "" for min_stars: the SDK refuses each
// (the arguments are validated against this schema), coerce repairs each.
const inputSchema = `{
  "type": "object",
  "properties": {
    "query": {"type": "string", "description": "Words to look for."},
    "tags":  {"type": "array", "items": {"type": "string"}, "description": "Only posts with all these tags."},
    "limit": {"type": "integer", "minimum": 1, "maximum": 50, "description": "How many posts at most."},
    "sort":  {"type": "string", "enum": ["relevance", "newest", "oldest"]},
    "filter": {
      "type": "object",
      "properties": {
        "author": {"type": "string"},
        "published": {
          "type": "object",
          "description": "Optional: a range of dates, YYYY-MM-DD.",
          "properties": {"after": {"type": "string"}, "before": {"type": "string"}}
        },
        "min_stars": {"type": ["integer", "null"]}
      }
    }
  },
  "required": ["query", "tags", "limit"],
  "additionalProperties": false
}`

// SearchInput is what the handler receives: the SDK decodes the arguments
// into it once they have passed its validation.
type SearchInput struct {
	Query  string   `json:"query"`
	Tags   []string `json:"tags"`
	Limit  int      `json:"limit"`
	Sort   string   `json:"sort,omitempty"`
	Filter *Filter  `json:"filter,omitempty"`
}

// Filter is the tool's nested object.
type Filter struct {
	Author    string `json:"author,omitempty"`
	Published *struct {
		After  string `json:"after,omitempty"`
		Before string `json:"before,omitempty"`
	} `json:"published,omitempty"`
	MinStars *int `json:"min_stars,omitempty"`
}

// searchPosts answers with the arguments it received, as JSON, so that the
// person at the host sees what reached the tool.
func searchPosts(ctx context.Context, req *mcp.CallToolRequest, in SearchInput) (*mcp.CallToolResult, any, error) {
	got, err := json.Marshal(in)
	if err != nil {
		return nil, nil, err
	}
	text := fmt.Sprintf("search_posts received %s (no posts here: this server only shows what arrives)", got)
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil, nil
}

// newServer returns the server with coerce installed and the tool added.
func newServer(logger *slog.Logger) (*mcp.Server, error) {
	schema := new(jsonschema.Schema)
	if err := json.Unmarshal([]byte(inputSchema), schema); err != nil {
		return nil, err
	}
	server := mcp.NewServer(&mcp.Implementation{Name: "coerce-mcpserver", Version: "0.1.0"}, nil)
	// Right after NewServer, so that coerce runs last, just before the SDK
	// validates: the SDK's validator then sees the types the schema declares.
	gosdkcoerce.Options{
		Logger:        logger, // repairs at debug level, rejections at warn
		NoticeRepairs: true,   // tell the model how its arguments were repaired
	}.Install(server)
	mcp.AddTool(server, &mcp.Tool{
		Name:        "search_posts",
		Description: "Search the blog's posts. Answers with the arguments it received.",
		InputSchema: schema,
	}, searchPosts)
	return server, nil
}

func main() {
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	server, err := newServer(logger)
	if err != nil {
		log.Fatal(err)
	}
	if err := server.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		log.Fatal(err)
	}
}
