// Release check: a fresh module installs github.com/coerce-go/coerce/genkit, and a broken Genkit tool call reaches the tool repaired.
package releasecheck

import (
	"context"
	"fmt"
	"testing"

	genkitcoerce "github.com/coerce-go/coerce/genkit"
	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/genkit"
)

type countInput struct {
	Limit int      `json:"limit"`
	Tags  []string `json:"tags"`
}

// answer is a model that first calls the count tool the way models break
// tool calls (the limit as a string, the tags as JSON text), then replies
// with what the tool returned.
func answer(_ context.Context, req *ai.ModelRequest, _ ai.ModelStreamCallback) (*ai.ModelResponse, error) {
	if last := req.Messages[len(req.Messages)-1]; last.Role == ai.RoleTool {
		return &ai.ModelResponse{Message: ai.NewModelTextMessage(fmt.Sprint(last.Content[0].ToolResponse.Output))}, nil
	}
	call := ai.NewToolRequestPart(&ai.ToolRequest{Name: "count", Input: map[string]any{"limit": "5", "tags": `["a","b"]`}})
	return &ai.ModelResponse{Message: &ai.Message{Role: ai.RoleModel, Content: []*ai.Part{call}}}, nil
}

func TestBrokenToolCallReachesTheToolRepaired(t *testing.T) {
	ctx := context.Background()
	g := genkit.Init(ctx)
	model := genkit.DefineModel(g, "check/model", &ai.ModelOptions{Supports: &ai.ModelSupports{Tools: true, Multiturn: true}}, answer)
	count := genkit.DefineTool(g, "count", "Counts.", func(_ *ai.ToolContext, in countInput) (string, error) {
		return fmt.Sprintf("limit %d, tags %q", in.Limit, in.Tags), nil
	})
	resp, err := genkit.Generate(ctx, g, ai.WithModel(model), ai.WithTools(count), ai.WithPrompt("count"),
		ai.WithMiddleware(genkitcoerce.Middleware()))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := resp.Text(), `limit 5, tags ["a" "b"]`; got != want {
		t.Errorf("the tool answered %q, want %q", got, want)
	}
}
