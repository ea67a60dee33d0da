package fantasycoerce_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"charm.land/fantasy"
	"charm.land/fantasy/providers/anthropic"
	"github.com/coerce-go/coerce"
	fantasycoerce "github.com/coerce-go/coerce/fantasy"
	"github.com/google/go-cmp/cmp"
)

// lookupInput is the typed input of the lookup tool.
type lookupInput struct {
	Query string   `json:"query"`
	Limit int      `json:"limit"`
	Tags  []string `json:"tags"`
}

// messagesAPI is an Anthropic Messages API on 127.0.0.1 that answers the
// n-th request with the n-th of its replies (the last once they run out),
// each recorded as the API sends it, and streamed (asStream) when the
// request asks for a stream. It keeps every request body. Each API gives
// its calls IDs of its own (toolu_<n>...), since a wrapped model's marks
// last for the process.
type messagesAPI struct {
	server  *httptest.Server
	mu      sync.Mutex
	replies [][]byte
	bodies  [][]byte
}

var apis atomic.Int32

func newMessagesAPI(t *testing.T, files ...string) *messagesAPI {
	t.Helper()
	a := &messagesAPI{}
	id := fmt.Sprintf("toolu_%d", apis.Add(1))
	for _, f := range files {
		b, err := os.ReadFile("testdata/" + f)
		if err != nil {
			t.Fatal(err)
		}
		a.replies = append(a.replies, bytes.ReplaceAll(b, []byte("toolu_"), []byte(id)))
	}
	a.server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil || r.URL.Path != "/v1/messages" {
			http.NotFound(w, r)
			return
		}
		a.mu.Lock()
		reply := a.replies[min(len(a.bodies), len(a.replies)-1)]
		a.bodies = append(a.bodies, body)
		a.mu.Unlock()
		var req struct {
			Stream bool `json:"stream"`
		}
		_ = json.Unmarshal(body, &req)
		if req.Stream {
			w.Header().Set("Content-Type", "text/event-stream")
			w.Write(asStream(t, reply))
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(reply)
	}))
	t.Cleanup(a.server.Close)
	return a
}

// asStream streams a recorded message as the API streams the same reply:
// message_start, each block started, its text or input in one delta, and
// stopped, then message_delta with the stop reason, and message_stop. A
// reply recorded as a stream (its events) is streamed as it is.
func asStream(t *testing.T, body []byte) []byte {
	if bytes.HasPrefix(body, []byte("event: ")) {
		return body // recorded as a stream
	}
	var m map[string]any
	if err := json.Unmarshal(body, &m); err != nil {
		t.Error(err)
		return body
	}
	var b bytes.Buffer
	event := func(name string, data map[string]any) {
		text, err := json.Marshal(data)
		if err != nil {
			t.Error(err)
		}
		fmt.Fprintf(&b, "event: %s\ndata: %s\n\n", name, text)
	}
	start := map[string]any{}
	for k, v := range m {
		start[k] = v
	}
	start["content"] = []any{}
	start["stop_reason"] = nil
	event("message_start", map[string]any{"type": "message_start", "message": start})
	for i, block := range m["content"].([]any) {
		block := block.(map[string]any)
		switch block["type"] {
		case "text":
			event("content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": map[string]any{"type": "text", "text": ""}})
			event("content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": map[string]any{"type": "text_delta", "text": block["text"]}})
		case "tool_use":
			input, err := json.Marshal(block["input"])
			if err != nil {
				t.Error(err)
			}
			event("content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": map[string]any{"type": "tool_use", "id": block["id"], "name": block["name"], "input": map[string]any{}}})
			event("content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": map[string]any{"type": "input_json_delta", "partial_json": string(input)}})
		}
		event("content_block_stop", map[string]any{"type": "content_block_stop", "index": i})
	}
	event("message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": m["stop_reason"], "stop_sequence": nil}, "usage": m["usage"]})
	event("message_stop", map[string]any{"type": "message_stop"})
	return b.Bytes()
}

func (a *messagesAPI) requests() [][]byte {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([][]byte(nil), a.bodies...)
}

// sentToModel reads a Messages request body: the input of every tool_use
// block in its history, and the text of every tool_result.
func sentToModel(t *testing.T, body []byte) (inputs, results []string) {
	t.Helper()
	if !json.Valid(body) {
		t.Fatalf("the request is not JSON:\n%s", body)
	}
	var req struct {
		Messages []struct {
			Content []struct {
				Type    string          `json:"type"`
				Input   json.RawMessage `json:"input"`
				Content json.RawMessage `json:"content"`
			} `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatal(err)
	}
	for _, m := range req.Messages {
		for _, b := range m.Content {
			switch b.Type {
			case "tool_use":
				inputs = append(inputs, string(b.Input))
			case "tool_result":
				results = append(results, string(b.Content))
			}
		}
	}
	return inputs, results
}

// conversation is an agent whose model is fantasy's Anthropic provider
// (anthropic-sdk-go underneath) talking to api (wrapped by WrapModel, if wrap), with the lookup tool
// given by fantasycoerce.WithTools; it keeps the messages of every turn,
// so that the conversation goes on where a run ended.
type conversation struct {
	agent    fantasy.Agent
	stream   bool
	messages []fantasy.Message
	ran      *recorder[lookupInput]
}

func newConversation(t *testing.T, api *messagesAPI, o fantasycoerce.Options, wrap, stream bool) *conversation {
	t.Helper()
	provider, err := anthropic.New(anthropic.WithBaseURL(api.server.URL), anthropic.WithAPIKey("test-key"))
	if err != nil {
		t.Fatal(err)
	}
	model, err := provider.LanguageModel(context.Background(), "claude-sonnet-4-6")
	if err != nil {
		t.Fatal(err)
	}
	if wrap {
		model = o.WrapModel(model)
	}
	lookup, ran := typedTool[lookupInput]("lookup", false)
	return &conversation{agent: fantasy.NewAgent(model, o.WithTools(lookup)), stream: stream, ran: ran}
}

// say runs the agent on prompt after the conversation so far, and returns
// the tool results of the run, by call ID.
func (c *conversation) say(t *testing.T, o fantasycoerce.Options, prompt string) map[string]string {
	t.Helper()
	var res *fantasy.AgentResult
	var err error
	if c.stream {
		res, err = c.agent.Stream(context.Background(), fantasy.AgentStreamCall{Prompt: prompt, Messages: c.messages, RepairToolCall: o.RepairToolCall(nil)})
	} else {
		res, err = c.agent.Generate(context.Background(), fantasy.AgentCall{Prompt: prompt, Messages: c.messages})
	}
	if err != nil {
		t.Fatal(err)
	}
	c.messages = append(c.messages, fantasy.NewUserMessage(prompt))
	for _, step := range res.Steps {
		c.messages = append(c.messages, step.Messages...)
	}
	return results(res)
}

// A reply the output limit cut off (stop_reason "max_tokens", recorded as
// the API sends it, whole and streamed) whose call's input is JSON with
// every required key: through fantasy's Anthropic provider and agent,
// without WrapModel the tool runs with it; with it, the tool does not run
// and the call's result is the cut-off feedback. fantasy ends the run
// there; when the conversation goes on, the model reads that feedback,
// and its next, complete call is repaired as before and runs. Every
// request sent is JSON.
func TestCutOffTurnNeverRuns(t *testing.T) {
	for _, stream := range []bool{false, true} {
		t.Run(fmt.Sprint("stream=", stream, "/without WrapModel"), func(t *testing.T) {
			api := newMessagesAPI(t, "message_max_tokens.json", "message_end_turn.json")
			c := newConversation(t, api, fantasycoerce.Options{}, false, stream)
			c.say(t, fantasycoerce.Options{}, "Find posts about Go generics.")
			if len(c.ran.got) != 1 {
				t.Fatalf("the tool ran %d times", len(c.ran.got))
			}
		})
		t.Run(fmt.Sprint("stream=", stream), func(t *testing.T) {
			api := newMessagesAPI(t, "message_max_tokens.json", "message_tool_use.json", "message_end_turn.json")
			var mu sync.Mutex
			var rejected []error
			o := fantasycoerce.Options{OnError: func(_ context.Context, _ string, err error) {
				mu.Lock()
				rejected = append(rejected, err)
				mu.Unlock()
			}}
			c := newConversation(t, api, o, true, stream)
			results := c.say(t, o, "Find posts about Go generics.")
			if len(results) != 1 {
				t.Fatalf("results %q", results)
			}
			for _, r := range results {
				if !strings.Contains(r, "cut off before their end, so the tool did not run") {
					t.Errorf("the result of the cut-off call: %q", r)
				}
			}
			if len(c.ran.got) != 0 {
				t.Fatalf("the tool ran with %+v", c.ran.got)
			}
			if len(rejected) != 1 || !errors.Is(rejected[0], coerce.ErrTruncated) {
				t.Errorf("OnError heard %v", rejected)
			}
			c.say(t, o, "Go on.")
			var ran []lookupInput
			for _, in := range c.ran.got {
				ran = append(ran, in)
			}
			want := []lookupInput{{Query: "go generics", Limit: 5, Tags: []string{"go", "generics"}}}
			if diff := cmp.Diff(want, ran); diff != "" {
				t.Errorf("the tool ran with (-want +got):\n%s", diff)
			}
			reqs := api.requests()
			if len(reqs) != 3 {
				t.Fatalf("%d requests", len(reqs))
			}
			inputs, results2 := sentToModel(t, reqs[1])
			if len(inputs) != 1 || !json.Valid([]byte(inputs[0])) {
				t.Errorf("the cut-off call sent back: %q", inputs)
			}
			if len(results2) != 1 || !strings.Contains(results2[0], "cut off before their end") {
				t.Errorf("the tool message sent: %q", results2)
			}
		})
	}
}

// cutModel is a language model whose first response is a call cut off
// inside its input (fantasy.FinishReasonLength), streamed as providers
// stream it, and whose next is "done"; it keeps the prompt of each call.
type cutModel struct {
	mu      sync.Mutex
	prompts []fantasy.Prompt
}

func (m *cutModel) Generate(_ context.Context, call fantasy.Call) (*fantasy.Response, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.prompts = append(m.prompts, call.Prompt)
	if len(m.prompts) > 1 {
		return &fantasy.Response{Content: []fantasy.Content{fantasy.TextContent{Text: "done"}}, FinishReason: fantasy.FinishReasonStop}, nil
	}
	return &fantasy.Response{Content: []fantasy.Content{toolCall("cut-1", "lookup", `{"query": "go gen`)}, FinishReason: fantasy.FinishReasonLength}, nil
}

func (m *cutModel) Stream(ctx context.Context, call fantasy.Call) (fantasy.StreamResponse, error) {
	resp, err := m.Generate(ctx, call)
	if err != nil {
		return nil, err
	}
	return func(yield func(fantasy.StreamPart) bool) {
		for _, c := range resp.Content {
			var parts []fantasy.StreamPart
			switch c := c.(type) {
			case fantasy.ToolCallContent:
				parts = []fantasy.StreamPart{
					{Type: fantasy.StreamPartTypeToolInputStart, ID: c.ToolCallID, ToolCallName: c.ToolName},
					{Type: fantasy.StreamPartTypeToolInputDelta, ID: c.ToolCallID, Delta: c.Input},
					{Type: fantasy.StreamPartTypeToolInputEnd, ID: c.ToolCallID},
					{Type: fantasy.StreamPartTypeToolCall, ID: c.ToolCallID, ToolCallName: c.ToolName, ToolCallInput: c.Input},
				}
			case fantasy.TextContent:
				parts = []fantasy.StreamPart{
					{Type: fantasy.StreamPartTypeTextStart, ID: "t"},
					{Type: fantasy.StreamPartTypeTextDelta, ID: "t", Delta: c.Text},
					{Type: fantasy.StreamPartTypeTextEnd, ID: "t"},
				}
			}
			for _, p := range parts {
				if !yield(p) {
					return
				}
			}
		}
		yield(fantasy.StreamPart{Type: fantasy.StreamPartTypeFinish, FinishReason: resp.FinishReason})
	}, nil
}

func (m *cutModel) GenerateObject(context.Context, fantasy.ObjectCall) (*fantasy.ObjectResponse, error) {
	return nil, errors.New("no objects")
}

func (m *cutModel) StreamObject(context.Context, fantasy.ObjectCall) (fantasy.ObjectStreamResponse, error) {
	return nil, errors.New("no objects")
}

func (m *cutModel) Provider() string { return "cut" }
func (m *cutModel) Model() string    { return "cut" }

// A call cut off inside its input: the repair hook refuses to have
// fantasy's jsonrepair close it (which it did before), so fantasy answers
// with its own error and the tool never runs, with Generate and Stream;
// when the conversation goes on, the wrapped model sends the call back
// with {} as its input, where the prompt holds the cut text (which
// fantasy's OpenAI provider sends as it is, and the API refuses).
func TestCutOffInputReplays(t *testing.T) {
	for _, stream := range []bool{false, true} {
		for _, wrap := range []bool{false, true} {
			t.Run(fmt.Sprint("stream=", stream, "/WrapModel=", wrap), func(t *testing.T) {
				m := &cutModel{}
				var model fantasy.LanguageModel = m
				if wrap {
					model = fantasycoerce.WrapModel(m)
				}
				lookup, ran := typedTool[lookupInput]("lookup", false)
				c := &conversation{agent: fantasy.NewAgent(model, fantasycoerce.WithTools(lookup)), stream: stream, ran: ran}
				results := c.say(t, fantasycoerce.Options{}, "Find posts about Go generics.")
				if r := results["cut-1"]; r != "error: invalid JSON input: unexpected end of JSON input" {
					t.Errorf("the result of the cut-off call: %q", r)
				}
				if len(ran.got) != 0 {
					t.Fatalf("the tool ran with %+v", ran.got)
				}
				c.say(t, fantasycoerce.Options{}, "Go on.")
				if len(m.prompts) != 2 {
					t.Fatalf("%d model calls", len(m.prompts))
				}
				var inputs []string
				for _, msg := range m.prompts[1] {
					for _, p := range msg.Content {
						if tc, ok := fantasy.AsMessagePart[fantasy.ToolCallPart](p); ok {
							inputs = append(inputs, tc.Input)
						}
					}
				}
				want := `{"query": "go gen`
				if wrap {
					want = "{}"
				}
				if len(inputs) != 1 || inputs[0] != want {
					t.Errorf("the call sent back: %q, want %q", inputs, want)
				}
			})
		}
	}
}

// WrapModel keeps the model's own name and provider, and wraps once.
func TestWrapModel(t *testing.T) {
	m := newModel()
	w := fantasycoerce.WrapModel(m)
	if w.Provider() != m.Provider() || w.Model() != m.Model() {
		t.Errorf("%s/%s, want %s/%s", w.Provider(), w.Model(), m.Provider(), m.Model())
	}
	if again := fantasycoerce.WrapModel(w); fmt.Sprintf("%T", again) != fmt.Sprintf("%T", w) {
		t.Errorf("wrapped twice: %T", again)
	}
	if fantasycoerce.WrapModel(nil) != nil {
		t.Error("WrapModel(nil) is not nil")
	}
}
