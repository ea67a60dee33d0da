package einocoerce_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/flow/agent/react"
	"github.com/cloudwego/eino/schema"
	"github.com/coerce-go/coerce/eino"
	"github.com/coerce-go/coerce/internal/feedbacktest"
	"github.com/eino-contrib/jsonschema"
	"github.com/google/go-cmp/cmp"
)

// feedbackModel is a chat model that calls list_issues with a broken
// call, then follows the feedback the tool answers with, as a model
// reading it would, and ends with the tool's output once it succeeds.
type feedbackModel struct {
	call  string
	calls *int // tool calls made
}

func (m feedbackModel) Generate(_ context.Context, input []*schema.Message, _ ...model.Option) (*schema.Message, error) {
	last := input[len(input)-1]
	args := m.call
	if last.Role == schema.Tool {
		if !strings.HasPrefix(last.Content, "Invalid arguments") {
			return schema.AssistantMessage("done: "+last.Content, nil), nil
		}
		prev := input[len(input)-2].ToolCalls[0].Function.Arguments
		var sent map[string]any
		if err := json.Unmarshal([]byte(prev), &sent); err != nil {
			return nil, err
		}
		fixed, err := feedbacktest.Follow(sent, last.Content)
		if err != nil {
			return nil, fmt.Errorf("cannot act on %q: %w", last.Content, err)
		}
		b, _ := json.Marshal(fixed)
		args = string(b)
	}
	*m.calls++
	return schema.AssistantMessage("", []schema.ToolCall{{
		ID: fmt.Sprintf("call_%d", *m.calls), Type: "function",
		Function: schema.FunctionCall{Name: "list_issues", Arguments: args},
	}}), nil
}

func (m feedbackModel) Stream(ctx context.Context, input []*schema.Message, opts ...model.Option) (*schema.StreamReader[*schema.Message], error) {
	msg, err := m.Generate(ctx, input, opts...)
	if err != nil {
		return nil, err
	}
	return schema.StreamReaderFromArray([]*schema.Message{msg}), nil
}

func (m feedbackModel) WithTools([]*schema.ToolInfo) (model.ToolCallingChatModel, error) {
	return m, nil
}

func issuesTool(t *testing.T) echoTool {
	t.Helper()
	var js jsonschema.Schema
	if err := json.Unmarshal([]byte(feedbacktest.Schema), &js); err != nil {
		t.Fatal(err)
	}
	return echoTool{"list_issues", schema.NewParamsOneOfByJSONSchema(&js)}
}

// A ReAct agent whose model sends each class of broken call gets the
// feedback as the tool's answer, follows it, and the second call reaches
// the tool as the feedback said.
func TestModelLoop(t *testing.T) {
	for _, tc := range feedbacktest.Cases {
		t.Run(tc.Name, func(t *testing.T) {
			ctx := context.Background()
			calls := 0
			conf := &react.AgentConfig{
				ToolCallingModel: feedbackModel{call: tc.Call, calls: &calls},
				ToolsConfig:      compose.ToolsNodeConfig{Tools: []tool.BaseTool{issuesTool(t)}},
			}
			einocoerce.Options{Validate: true}.Install(&conf.ToolsConfig)
			agent, err := react.NewAgent(ctx, conf)
			if err != nil {
				t.Fatal(err)
			}
			answer, err := agent.Generate(ctx, []*schema.Message{schema.UserMessage("list the issues")})
			if err != nil {
				t.Fatal(err)
			}
			if calls != 2 {
				t.Errorf("%d tool calls, want 2", calls)
			}
			got, ok := strings.CutPrefix(answer.Content, "done: ")
			if !ok {
				t.Fatalf("answer %q", answer.Content)
			}
			var gotArgs, want map[string]any
			if err := json.Unmarshal([]byte(got), &gotArgs); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal([]byte(tc.Fixed), &want); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, gotArgs); diff != "" {
				t.Errorf("the tool got (-want +got):\n%s", diff)
			}
		})
	}
}

// An unfixable argument is answered with the feedback as the tool's
// output, and the tool does not run; a fixable one reaches it repaired,
// with the notice appended when asked for.
func TestUnfixableCallGetsFeedback(t *testing.T) {
	ctx := context.Background()
	it := einocoerce.Options{NoticeRepairs: true}.Wrap(echoTool{"count", echoParams}).(tool.InvokableTool)
	out, err := it.InvokableRun(ctx, `{"limit": "ten"}`)
	want := "Invalid arguments: 1 problem. Correct it and send the call again.\n" +
		`- /limit: expected an integer; found the string "ten", which is not valid (not a number). Example: 1`
	if err != nil || out != want {
		t.Errorf("got %q, %v; want %q", out, err, want)
	}
	out, err = it.InvokableRun(ctx, `{"limit": "10"}`)
	want = `{"limit": 10}` + "\n\nNote: the arguments were repaired before the tool ran. Send them as declared next time:\n" +
		"- `limit` arrived as a string; send an integer, without quotes."
	if err != nil || out != want {
		t.Errorf("got %q, %v; want %q", out, err, want)
	}
	// Without Validate, what only a validator refuses reaches the tool.
	out, err = einocoerce.Wrap(issuesTool(t)).(tool.InvokableTool).InvokableRun(ctx, `{"state": "opne"}`)
	if err != nil || out != `{"state": "opne"}` {
		t.Errorf("got %q, %v", out, err)
	}
}
