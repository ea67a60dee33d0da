package fantasycoerce_test

import (
	"context"
	"errors"
	"fmt"

	"charm.land/fantasy"
	"github.com/coerce-go/coerce"
	fantasycoerce "github.com/coerce-go/coerce/fantasy"
)

// replay is a language model that makes the tool calls it is given, then
// replies "done": a stand-in for a provider, in process.
type replay struct {
	calls []fantasy.ToolCallContent
	done  bool
}

func (m *replay) Generate(context.Context, fantasy.Call) (*fantasy.Response, error) {
	if m.done {
		return &fantasy.Response{Content: []fantasy.Content{fantasy.TextContent{Text: "done"}}, FinishReason: fantasy.FinishReasonStop}, nil
	}
	m.done = true
	var content []fantasy.Content
	for _, c := range m.calls {
		content = append(content, c)
	}
	return &fantasy.Response{Content: content, FinishReason: fantasy.FinishReasonToolCalls}, nil
}

func (m *replay) Stream(ctx context.Context, call fantasy.Call) (fantasy.StreamResponse, error) {
	resp, err := m.Generate(ctx, call)
	return func(yield func(fantasy.StreamPart) bool) {
		for _, c := range resp.Content {
			if tc, ok := c.(fantasy.ToolCallContent); ok {
				yield(fantasy.StreamPart{Type: fantasy.StreamPartTypeToolCall, ID: tc.ToolCallID, ToolCallName: tc.ToolName, ToolCallInput: tc.Input})
			}
		}
		yield(fantasy.StreamPart{Type: fantasy.StreamPartTypeFinish, FinishReason: resp.FinishReason})
	}, err
}

func (m *replay) GenerateObject(context.Context, fantasy.ObjectCall) (*fantasy.ObjectResponse, error) {
	return nil, errors.New("no objects")
}

func (m *replay) StreamObject(context.Context, fantasy.ObjectCall) (fantasy.ObjectStreamResponse, error) {
	return nil, errors.New("no objects")
}

func (m *replay) Provider() string { return "replay" }
func (m *replay) Model() string    { return "replay" }

type searchArgs struct {
	Query string   `json:"query"`
	Limit int      `json:"limit"`
	Tags  []string `json:"tags"`
}

var search = fantasy.NewAgentTool("search", "Searches the notes.",
	func(_ context.Context, in searchArgs, _ fantasy.ToolCall) (fantasy.ToolResponse, error) {
		fmt.Printf("search %q, limit %d, tags %q\n", in.Query, in.Limit, in.Tags)
		return fantasy.NewTextResponse("3 notes"), nil
	})

// A model sends the limit as a string and the tags as JSON text. fantasy
// takes the call (a JSON object with the required keys), and without
// coercion the tool's json.Unmarshal fails; with it, the tool gets the
// values it declared.
func ExampleWithTools() {
	model := &replay{calls: []fantasy.ToolCallContent{{
		ToolCallID: "1", ToolName: "search",
		Input: `{"query": "generics", "limit": "5", "tags": "[\"go\"]"}`,
	}}}
	agent := fantasy.NewAgent(model, fantasycoerce.WithTools(search))
	res, err := agent.Generate(context.Background(), fantasy.AgentCall{Prompt: "Find my notes on generics"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Response.Content.Text())
	// Output:
	// search "generics", limit 5, tags ["go"]
	// done
}

// Agent.Stream reads the repair hook from the call, so give it there too:
// here it unwraps an input that the model sent whole as JSON text, encoded
// once more as a JSON string.
func ExampleOptions_RepairToolCall() {
	repair := fantasycoerce.Options{}
	model := &replay{calls: []fantasy.ToolCallContent{{
		ToolCallID: "1", ToolName: "search",
		Input: `"{\"query\": \"generics\", \"limit\": 5, \"tags\": [\"go\"]}"`,
	}}}
	agent := fantasy.NewAgent(model, repair.WithTools(search))
	_, err := agent.Stream(context.Background(), fantasy.AgentStreamCall{
		Prompt:         "Find my notes on generics",
		RepairToolCall: repair.RepairToolCall(nil),
	})
	if err != nil {
		fmt.Println(err)
	}
	// Output:
	// search "generics", limit 5, tags ["go"]
}

// OnChange hears each repair with the call's context and the tool's name;
// OnError what could not be repaired, which the tool then rejects as it
// would have without coercion.
func ExampleOptions() {
	opts := fantasycoerce.Options{
		OnChange: func(_ context.Context, tool string, c coerce.Change) {
			fmt.Printf("%s: %s %s -> %s (%s)\n", tool, c.Path, c.Found, c.Declared, c.Rule)
		},
		OnError: func(_ context.Context, tool string, err error) {
			fmt.Printf("%s: %v\n", tool, err)
		},
	}
	model := &replay{calls: []fantasy.ToolCallContent{
		{ToolCallID: "1", ToolName: "search", Input: `{"query": "generics", "limit": "5", "tags": "[\"go\"]"}`},
		{ToolCallID: "2", ToolName: "search", Input: `{"query": "generics", "limit": "five", "tags": []}`},
	}}
	res, err := fantasy.NewAgent(model, opts.WithTools(search)).Generate(context.Background(), fantasy.AgentCall{Prompt: "Find my notes"})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range res.Steps[0].Content.ToolResults() {
		if e, ok := r.Result.(fantasy.ToolResultOutputContentError); ok {
			fmt.Println("tool result:", e.Error)
		}
	}
	// Output:
	// search: /limit string -> integer (number-from-text)
	// search: /tags string -> list[string] (json-text)
	// search "generics", limit 5, tags ["go"]
	// search: coerce: /limit: want integer, found string "five": invalid syntax: not a number
	// tool result: invalid parameters: json: cannot unmarshal string into Go struct field searchArgs.limit of type int
}
