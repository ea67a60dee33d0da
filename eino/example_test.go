package einocoerce_test

import (
	"context"
	"fmt"
	"log"

	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/components/tool/utils"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"
	"github.com/coerce-go/coerce"
	"github.com/coerce-go/coerce/eino"
)

// SearchInput is the input of the examples' search tool.
type SearchInput struct {
	Query string   `json:"query"`
	Tags  []string `json:"tags"`
	Limit int      `json:"limit"`
}

func search(_ context.Context, in SearchInput) (string, error) {
	return fmt.Sprintf("query=%s tags=%v limit=%d", in.Query, in.Tags, in.Limit), nil
}

// brokenCall is the examples' tool call, as models send it: the array as
// JSON text, the integer as a string.
var brokenCall = schema.AssistantMessage("", []schema.ToolCall{{
	ID: "call_1", Type: "function",
	Function: schema.FunctionCall{Name: "search", Arguments: `{"query": "generics", "tags": "[\"go\"]", "limit": "5"}`},
}})

// Install coercion on a ToolsNode's config, then build the node (or the
// agent that takes the config) as usual. The model's tool call sends the
// array as JSON text and the integer as a string; without coercion the
// tool fails to decode it.
func Example() {
	ctx := context.Background()
	searchTool, err := utils.InferTool("search", "Search the index.",
		func(_ context.Context, in SearchInput) (string, error) {
			return fmt.Sprintf("query=%s tags=%v limit=%d", in.Query, in.Tags, in.Limit), nil
		})
	if err != nil {
		log.Fatal(err)
	}

	conf := compose.ToolsNodeConfig{Tools: []tool.BaseTool{searchTool}}
	einocoerce.Install(&conf)
	node, err := compose.NewToolNode(ctx, &conf)
	if err != nil {
		log.Fatal(err)
	}

	call := schema.AssistantMessage("", []schema.ToolCall{{
		ID: "call_1", Type: "function",
		Function: schema.FunctionCall{Name: "search", Arguments: `{"query": "generics", "tags": "[\"go\"]", "limit": "5"}`},
	}})
	out, err := node.Invoke(ctx, call)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(out[0].Content)
	// Output: query=generics tags=[go] limit=5
}

// Report each repair, with the call's context and the tool's name.
func ExampleOptions() {
	ctx := context.Background()
	searchTool, err := utils.InferTool("search", "Search the index.", search)
	if err != nil {
		log.Fatal(err)
	}

	conf := compose.ToolsNodeConfig{Tools: []tool.BaseTool{searchTool}}
	einocoerce.Options{
		OnChange: func(ctx context.Context, tool string, c coerce.Change) {
			fmt.Printf("%s %s: %s %q -> %s (%s)\n", tool, c.Path, c.Found, c.Preview, c.Declared, c.Rule)
		},
		OnError: func(ctx context.Context, tool string, err error) {
			fmt.Printf("%s: %v\n", tool, err)
		},
	}.Install(&conf)
	node, err := compose.NewToolNode(ctx, &conf)
	if err != nil {
		log.Fatal(err)
	}

	if _, err := node.Invoke(ctx, brokenCall); err != nil {
		log.Fatal(err)
	}
	// Unordered output:
	// search /limit: string "5" -> integer (number-from-text)
	// search /tags: string "[\"go\"]" -> list[string] (json-text)
}

// Wrap a single tool, to call it without a ToolsNode or to pass it to a
// run with compose.WithToolList.
func ExampleWrap() {
	ctx := context.Background()
	searchTool, err := utils.InferTool("search", "Search the index.", search)
	if err != nil {
		log.Fatal(err)
	}

	wrapped := einocoerce.Wrap(searchTool).(tool.InvokableTool)
	out, err := wrapped.InvokableRun(ctx, `{"query": "generics", "tags": "[\"go\"]", "limit": "5"}`)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(out)
	// Output: query=generics tags=[go] limit=5
}
