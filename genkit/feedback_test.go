package genkitcoerce_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	genkitcoerce "github.com/coerce-go/coerce/genkit"
	"github.com/coerce-go/coerce/internal/feedbacktest"
	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/genkit"
	"github.com/google/go-cmp/cmp"
)

// defineFeedbackModel defines a model that calls list_issues with the
// call its prompt holds, follows the feedback its tool response carries as
// a model reading it would, and once the tool answers, replies with the
// tool's output as JSON text. calls counts the tool requests it made.
func defineFeedbackModel(g *genkit.Genkit, name string, calls *atomic.Int32) ai.Model {
	return genkit.DefineModel(g, name, &ai.ModelOptions{
		Supports: &ai.ModelSupports{Multiturn: true, Tools: true},
	}, func(ctx context.Context, req *ai.ModelRequest, _ ai.ModelStreamCallback) (*ai.ModelResponse, error) {
		last := req.Messages[len(req.Messages)-1]
		var input map[string]any
		switch last.Role {
		case ai.RoleUser:
			if err := json.Unmarshal([]byte(last.Text()), &input); err != nil {
				return nil, err
			}
		case ai.RoleTool:
			out := last.Content[0].ToolResponse.Output
			text, ok := out.(string)
			if !ok || !strings.HasPrefix(text, "Invalid arguments") {
				b, err := json.Marshal(out)
				if err != nil {
					return nil, err
				}
				return &ai.ModelResponse{Request: req, Message: ai.NewModelTextMessage(string(b))}, nil
			}
			prev := req.Messages[len(req.Messages)-2].Content[0].ToolRequest.Input.(map[string]any)
			var err error
			if input, err = feedbacktest.Follow(prev, text); err != nil {
				return nil, fmt.Errorf("cannot act on %q: %w", text, err)
			}
		}
		calls.Add(1)
		part := ai.NewToolRequestPart(&ai.ToolRequest{Name: "list_issues", Ref: fmt.Sprint(calls.Load()), Input: input})
		return &ai.ModelResponse{Request: req, Message: &ai.Message{Role: ai.RoleModel, Content: []*ai.Part{part}}}, nil
	})
}

// A model that sends each class of broken call reads the feedback the
// middleware answers with, and its second call reaches the tool as the
// feedback said; the broken one never does.
func TestModelLoop(t *testing.T) {
	g := genkit.Init(context.Background())
	var schema map[string]any
	if err := json.Unmarshal([]byte(feedbacktest.Schema), &schema); err != nil {
		t.Fatal(err)
	}
	var ran atomic.Int32
	issues := genkit.DefineTool(g, "list_issues", "Lists issues.",
		func(_ *ai.ToolContext, in any) (any, error) { ran.Add(1); return in, nil },
		ai.WithInputSchema(schema))
	var calls atomic.Int32
	model := defineFeedbackModel(g, "test/feedback", &calls)
	for _, tc := range feedbacktest.Cases {
		t.Run(tc.Name, func(t *testing.T) {
			calls.Store(0)
			ran.Store(0)
			resp, err := genkit.Generate(context.Background(), g, ai.WithModel(model), ai.WithTools(issues),
				ai.WithPrompt(tc.Call), ai.WithMiddleware(genkitcoerce.Middleware()))
			if err != nil {
				t.Fatal(err)
			}
			if calls.Load() != 2 || ran.Load() != 1 {
				t.Errorf("%d tool requests, the tool ran %d times; want 2 and 1", calls.Load(), ran.Load())
			}
			var got, want map[string]any
			if err := json.Unmarshal([]byte(resp.Text()), &got); err != nil {
				t.Fatalf("answer %q: %v", resp.Text(), err)
			}
			if err := json.Unmarshal([]byte(tc.Fixed), &want); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("the tool got (-want +got):\n%s", diff)
			}
		})
	}
}

// NoticeRepairs tells the model, with the tool's response, how the input
// was repaired.
func TestNoticeRepairs(t *testing.T) {
	g, floats, _, search, _ := setup(t)
	var seen []string
	spy := func(next ai.ModelFunc) ai.ModelFunc {
		return func(ctx context.Context, req *ai.ModelRequest, cb ai.ModelStreamCallback) (*ai.ModelResponse, error) {
			if last := req.Messages[len(req.Messages)-1]; last.Role == ai.RoleTool {
				for _, p := range last.Content {
					if p.IsText() {
						seen = append(seen, p.Text)
					}
				}
			}
			return next(ctx, req, cb)
		}
	}
	input := decoded(t, validSearch)
	input["limit"] = "5"
	_, err := genkit.Generate(context.Background(), g, ai.WithModel(floats), ai.WithTools(search),
		ai.WithPrompt(call("search", input)),
		ai.WithMiddleware(genkitcoerce.Options{NoticeRepairs: true}.Middleware(), spy))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"Note: the arguments were repaired before the tool ran. Send them as declared next time:\n" +
		"- `limit` arrived as a string; send an integer, without quotes."}
	if diff := cmp.Diff(want, seen); diff != "" {
		t.Errorf("the model saw (-want +got):\n%s", diff)
	}
}
