// Release check: a fresh module installs github.com/coerce-go/coerce/fantasy, and a broken fantasy tool call reaches the tool repaired.
package releasecheck

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"charm.land/fantasy"
	fantasycoerce "github.com/coerce-go/coerce/fantasy"
)

type countInput struct {
	Limit int      `json:"limit"`
	Tags  []string `json:"tags"`
}

// model first calls the count tool the way models break tool calls (the
// limit as a string, the tags as JSON text), then replies with the tool's
// result.
type model struct{}

func (model) Generate(_ context.Context, call fantasy.Call) (*fantasy.Response, error) {
	last := call.Prompt[len(call.Prompt)-1]
	if last.Role == fantasy.MessageRoleTool {
		res, _ := fantasy.AsMessagePart[fantasy.ToolResultPart](last.Content[0])
		text, _ := res.Output.(fantasy.ToolResultOutputContentText)
		return &fantasy.Response{Content: []fantasy.Content{fantasy.TextContent{Text: text.Text}}, FinishReason: fantasy.FinishReasonStop}, nil
	}
	return &fantasy.Response{Content: []fantasy.Content{fantasy.ToolCallContent{ToolCallID: "1", ToolName: "count",
		Input: `{"limit": "5", "tags": "[\"a\",\"b\"]"}`}}, FinishReason: fantasy.FinishReasonToolCalls}, nil
}

func (model) Stream(context.Context, fantasy.Call) (fantasy.StreamResponse, error) {
	return nil, errors.New("not streamed")
}

func (model) GenerateObject(context.Context, fantasy.ObjectCall) (*fantasy.ObjectResponse, error) {
	return nil, errors.New("no objects")
}

func (model) StreamObject(context.Context, fantasy.ObjectCall) (fantasy.ObjectStreamResponse, error) {
	return nil, errors.New("no objects")
}

func (model) Provider() string { return "check" }
func (model) Model() string    { return "check" }

func TestBrokenToolCallReachesTheToolRepaired(t *testing.T) {
	count := fantasy.NewAgentTool("count", "Counts.", func(_ context.Context, in countInput, _ fantasy.ToolCall) (fantasy.ToolResponse, error) {
		return fantasy.NewTextResponse(fmt.Sprintf("limit %d, tags %q", in.Limit, in.Tags)), nil
	})
	res, err := fantasy.NewAgent(model{}, fantasycoerce.WithTools(count)).Generate(context.Background(), fantasy.AgentCall{Prompt: "count"})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := res.Response.Content.Text(), `limit 5, tags ["a" "b"]`; got != want {
		t.Errorf("the tool answered %q, want %q", got, want)
	}
}
