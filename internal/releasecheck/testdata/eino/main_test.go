// Release check: a fresh module gets github.com/coerce-go/coerce/eino, installs it on an eino ToolsNode, and a broken tool call reaches the tool repaired.
package releasecheck

import (
	"context"
	"reflect"
	"testing"

	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/components/tool/utils"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"
	einocoerce "github.com/coerce-go/coerce/eino"
)

type searchInput struct {
	Tags  []string `json:"tags"`
	Limit int      `json:"limit"`
}

// newToolsNode is an agent's tool setup: one tool, and coercion installed
// in one line. got receives what the tool decoded.
func newToolsNode(ctx context.Context, got *searchInput) (*compose.ToolsNode, error) {
	search, err := utils.InferTool("search", "Search the index.",
		func(_ context.Context, in searchInput) (string, error) { *got = in; return "ok", nil })
	if err != nil {
		return nil, err
	}
	conf := compose.ToolsNodeConfig{Tools: []tool.BaseTool{search}}
	einocoerce.Install(&conf)
	return compose.NewToolNode(ctx, &conf)
}

func TestBrokenToolCallReachesTheToolRepaired(t *testing.T) {
	ctx := context.Background()
	var got searchInput
	node, err := newToolsNode(ctx, &got)
	if err != nil {
		t.Fatal(err)
	}
	// As models send it: the array as JSON text, the integer as a string.
	call := schema.AssistantMessage("", []schema.ToolCall{{ID: "call_1", Type: "function",
		Function: schema.FunctionCall{Name: "search", Arguments: `{"tags": "[\"go\", \"generics\"]", "limit": "5"}`}}})
	if _, err := node.Invoke(ctx, call); err != nil {
		t.Fatal(err)
	}
	if want := (searchInput{Tags: []string{"go", "generics"}, Limit: 5}); !reflect.DeepEqual(got, want) {
		t.Errorf("the tool got %+v, want %+v", got, want)
	}
}
