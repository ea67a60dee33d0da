package einocoerce_test

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

	"github.com/cloudwego/eino-ext/components/model/openai"
	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/components/tool/utils"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/flow/agent/react"
	"github.com/cloudwego/eino/schema"
	"github.com/coerce-go/coerce"
	"github.com/coerce-go/coerce/eino"
	"github.com/google/go-cmp/cmp"
)

// lookupInput is the typed input of the lookup tool.
type lookupInput struct {
	Query string   `json:"query"`
	Limit int      `json:"limit"`
	Tags  []string `json:"tags"`
}

// chatAPI is a Chat Completions API on 127.0.0.1 that answers the n-th
// request with the n-th of its replies (the last once they run out), each
// recorded as the API sends it: a JSON body, or a stream (a file of
// "data:" lines); a JSON body asked for as a stream is streamed (asStream).
// It keeps every request body. Each API gives its calls IDs of its own
// (call_<n>...), since a wrapped model's marks last for the process.
type chatAPI struct {
	server  *httptest.Server
	mu      sync.Mutex
	replies [][]byte
	bodies  [][]byte
}

var apis atomic.Int32

func newChatAPI(t *testing.T, files ...string) *chatAPI {
	t.Helper()
	a := &chatAPI{}
	id := fmt.Sprintf("call_%d", apis.Add(1))
	for _, f := range files {
		b, err := os.ReadFile("testdata/" + f)
		if err != nil {
			t.Fatal(err)
		}
		a.replies = append(a.replies, bytes.ReplaceAll(b, []byte("call_"), []byte(id)))
	}
	a.server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil || r.URL.Path != "/chat/completions" {
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
		if req.Stream && !bytes.HasPrefix(reply, []byte("data:")) {
			reply = asStream(t, reply)
		}
		if bytes.HasPrefix(reply, []byte("data:")) {
			w.Header().Set("Content-Type", "text/event-stream")
		} else {
			w.Header().Set("Content-Type", "application/json")
		}
		w.Write(reply)
	}))
	t.Cleanup(a.server.Close)
	return a
}

// asStream streams a recorded chat.completion as the API streams the same
// reply: one chunk with the message as its delta (each tool call with its
// index), one with the finish reason, and [DONE].
func asStream(t *testing.T, body []byte) []byte {
	var c map[string]any
	if err := json.Unmarshal(body, &c); err != nil {
		t.Error(err)
		return body
	}
	choice := c["choices"].([]any)[0].(map[string]any)
	delta := choice["message"].(map[string]any)
	delete(delta, "annotations")
	if calls, ok := delta["tool_calls"].([]any); ok {
		for i, call := range calls {
			call.(map[string]any)["index"] = i
		}
	}
	chunk := func(delta map[string]any, finish any) []byte {
		out := map[string]any{}
		for _, k := range []string{"id", "created", "model", "service_tier", "system_fingerprint"} {
			out[k] = c[k]
		}
		out["object"] = "chat.completion.chunk"
		out["choices"] = []any{map[string]any{"index": 0, "delta": delta, "logprobs": nil, "finish_reason": finish}}
		b, err := json.Marshal(out)
		if err != nil {
			t.Error(err)
		}
		return b
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "data: %s\n\n", chunk(delta, nil))
	fmt.Fprintf(&b, "data: %s\n\n", chunk(map[string]any{}, choice["finish_reason"]))
	b.WriteString("data: [DONE]\n\n")
	return b.Bytes()
}

func (a *chatAPI) requests() [][]byte {
	a.mu.Lock()
	defer a.mu.Unlock()
	return slicesClone(a.bodies)
}

func slicesClone(b [][]byte) [][]byte { return append([][]byte(nil), b...) }

// sentToModel reads a Chat Completions request body: the arguments of
// every tool call in its history, and the content of every tool message.
func sentToModel(t *testing.T, body []byte) (args, results []string) {
	t.Helper()
	if !json.Valid(body) {
		t.Fatalf("the request is not JSON:\n%s", body)
	}
	var req struct {
		Messages []struct {
			Role      string          `json:"role"`
			Content   json.RawMessage `json:"content"`
			ToolCalls []struct {
				Function struct {
					Arguments string `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatal(err)
	}
	for _, m := range req.Messages {
		for _, c := range m.ToolCalls {
			args = append(args, c.Function.Arguments)
		}
		if m.Role == "tool" {
			results = append(results, string(m.Content))
		}
	}
	return args, results
}

// lookupAgent returns a ReAct agent whose model is eino-ext's OpenAI model
// talking to api (wrapped by WrapModel, if wrap), with the lookup tool
// (utils.InferTool) installed by o; the tool records each input it ran
// with.
func lookupAgent(t *testing.T, api *chatAPI, o einocoerce.Options, wrap bool) (*react.Agent, *[]lookupInput) {
	t.Helper()
	ctx := context.Background()
	var cm model.ToolCallingChatModel
	cm, err := openai.NewChatModel(ctx, &openai.ChatModelConfig{BaseURL: api.server.URL, APIKey: "test-key", Model: "gpt-4o-mini"})
	if err != nil {
		t.Fatal(err)
	}
	if wrap {
		cm = o.WrapModel(cm)
	}
	var mu sync.Mutex
	ran := &[]lookupInput{}
	lookup, err := utils.InferTool("lookup", "Looks posts up.", func(_ context.Context, in lookupInput) (string, error) {
		mu.Lock()
		defer mu.Unlock()
		*ran = append(*ran, in)
		return fmt.Sprintf("%d posts", in.Limit), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	conf := react.AgentConfig{ToolCallingModel: cm, ToolsConfig: compose.ToolsNodeConfig{Tools: []tool.BaseTool{lookup}}}
	o.Install(&conf.ToolsConfig)
	agent, err := react.NewAgent(ctx, &conf)
	if err != nil {
		t.Fatal(err)
	}
	return agent, ran
}

func runAgent(t *testing.T, agent *react.Agent, stream bool) string {
	t.Helper()
	in := []*schema.Message{schema.UserMessage("Find posts about Go generics.")}
	if !stream {
		out, err := agent.Generate(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		return out.Content
	}
	sr, err := agent.Stream(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	defer sr.Close()
	var chunks []*schema.Message
	for {
		c, err := sr.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		chunks = append(chunks, c)
	}
	out, err := schema.ConcatMessages(chunks)
	if err != nil {
		t.Fatal(err)
	}
	return out.Content
}

// A reply the output limit cut off (finish_reason "length", recorded as
// the API sends it, whole and streamed) whose call's arguments are JSON:
// through eino-ext's OpenAI model and a ReAct agent, without WrapModel the
// tool runs with them; with it, the tool does not run, the model reads the
// cut-off feedback as the call's tool message, and its next, complete call
// is repaired as before and runs. Every request sent is JSON.
func TestCutOffTurnNeverRuns(t *testing.T) {
	t.Run("without WrapModel", func(t *testing.T) {
		api := newChatAPI(t, "chat_completion_length.json", "chat_completion_stop.json")
		agent, ran := lookupAgent(t, api, einocoerce.Options{}, false)
		runAgent(t, agent, false)
		if len(*ran) != 1 {
			t.Fatalf("the tool ran %d times", len(*ran))
		}
	})
	for _, stream := range []bool{false, true} {
		t.Run(fmt.Sprint("stream=", stream), func(t *testing.T) {
			first := "chat_completion_length.json"
			if stream {
				first = "chat_completion_length_parses_stream.txt"
			}
			api := newChatAPI(t, first, "chat_completion_tool_calls.json", "chat_completion_stop.json")
			var mu sync.Mutex
			var rejected []error
			o := einocoerce.Options{OnError: func(_ context.Context, _ string, err error) {
				mu.Lock()
				rejected = append(rejected, err)
				mu.Unlock()
			}}
			agent, ran := lookupAgent(t, api, o, true)
			if answer := runAgent(t, agent, stream); answer != "Found 5 posts about Go generics." {
				t.Errorf("the answer: %q", answer)
			}
			want := []lookupInput{{Query: "go generics", Limit: 5, Tags: []string{"go", "generics"}}}
			if diff := cmp.Diff(want, *ran); diff != "" {
				t.Errorf("the tool ran with (-want +got):\n%s", diff)
			}
			if len(rejected) != 1 || !errors.Is(rejected[0], coerce.ErrTruncated) {
				t.Errorf("OnError heard %v", rejected)
			}
			reqs := api.requests()
			if len(reqs) != 3 {
				t.Fatalf("%d requests", len(reqs))
			}
			_, results := sentToModel(t, reqs[1])
			if len(results) != 1 || !strings.Contains(results[0], "cut off before their end, so the tool did not run") {
				t.Errorf("the tool message sent: %q", results)
			}
		})
	}
}

// A stream cut off inside a call's arguments: the call reaches the
// ToolsNode as the text it came to, the wrapped tool answers with the
// cut-off feedback instead of running, and the next request sends the call
// back with {} as its arguments, where eino-ext's model would send the cut
// text (which the API refuses).
func TestCutOffArgumentsReplay(t *testing.T) {
	for _, wrap := range []bool{false, true} {
		t.Run(fmt.Sprint("WrapModel=", wrap), func(t *testing.T) {
			api := newChatAPI(t, "chat_completion_length_stream.txt", "chat_completion_stop.json")
			agent, ran := lookupAgent(t, api, einocoerce.Options{}, wrap)
			runAgent(t, agent, true)
			if len(*ran) != 0 {
				t.Errorf("the tool ran with %+v", *ran)
			}
			reqs := api.requests()
			if len(reqs) != 2 {
				t.Fatalf("%d requests", len(reqs))
			}
			args, results := sentToModel(t, reqs[1])
			if len(args) != 1 || len(results) != 1 {
				t.Fatalf("sent back %q and %q", args, results)
			}
			if !strings.Contains(results[0], "cut off before their end") {
				t.Errorf("the tool message sent: %s", results[0])
			}
			if wrap && args[0] != "{}" {
				t.Errorf("the call sent back: %s, want {}", args[0])
			}
			if !wrap && json.Valid([]byte(args[0])) {
				t.Errorf("eino-ext sends back the cut arguments as JSON (%s): see that the README still says what it does", args[0])
			}
		})
	}
}

// WrapModel keeps what eino reads of the model: its type name, its
// callback behavior, and WithTools.
func TestWrapModel(t *testing.T) {
	cm, err := openai.NewChatModel(context.Background(), &openai.ChatModelConfig{BaseURL: "http://127.0.0.1:1", APIKey: "k", Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	w := einocoerce.WrapModel(cm)
	if got, want := w.(interface{ GetType() string }).GetType(), cm.GetType(); got != want {
		t.Errorf("GetType: %q, want %q", got, want)
	}
	if got, want := w.(interface{ IsCallbacksEnabled() bool }).IsCallbacksEnabled(), cm.IsCallbacksEnabled(); got != want {
		t.Errorf("IsCallbacksEnabled: %v, want %v", got, want)
	}
	bound, err := w.WithTools([]*schema.ToolInfo{{Name: "lookup", Desc: "Looks posts up."}})
	if err != nil {
		t.Fatal(err)
	}
	if again := einocoerce.WrapModel(bound); fmt.Sprintf("%T", again) != fmt.Sprintf("%T", w) {
		t.Errorf("WithTools gave %T", bound)
	}
	if einocoerce.WrapModel(nil) != nil {
		t.Error("WrapModel(nil) is not nil")
	}
}

// cutModel is a chat model whose one reply is a tool call without an ID,
// cut off by the output limit, its finish reason in Gemini's words.
type cutModel struct{ args string }

func (m cutModel) Generate(context.Context, []*schema.Message, ...model.Option) (*schema.Message, error) {
	msg := schema.AssistantMessage("", []schema.ToolCall{{Type: "function", Function: schema.FunctionCall{Name: "lookup", Arguments: m.args}}})
	msg.ResponseMeta = &schema.ResponseMeta{FinishReason: "MAX_TOKENS"}
	return msg, nil
}

func (m cutModel) Stream(ctx context.Context, input []*schema.Message, opts ...model.Option) (*schema.StreamReader[*schema.Message], error) {
	msg, err := m.Generate(ctx, input, opts...)
	return schema.StreamReaderFromArray([]*schema.Message{msg}), err
}

func (m cutModel) WithTools([]*schema.ToolInfo) (model.ToolCallingChatModel, error) { return m, nil }

// A call without an ID is known by its tool's name and its arguments: the
// wrapped tool, called without a ToolsNode, refuses it; another call to
// it runs.
func TestCutOffCallWithoutID(t *testing.T) {
	args := fmt.Sprintf(`{"query": "cut %d", "limit": 5, "tags": ["go"]}`, apis.Add(1))
	if _, err := einocoerce.WrapModel(cutModel{args: args}).Generate(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	var ran []lookupInput
	lookup, err := utils.InferTool("lookup", "Looks posts up.", func(_ context.Context, in lookupInput) (string, error) {
		ran = append(ran, in)
		return "ok", nil
	})
	if err != nil {
		t.Fatal(err)
	}
	w := einocoerce.Wrap(lookup).(tool.InvokableTool)
	out, err := w.InvokableRun(context.Background(), args)
	if err != nil || !strings.Contains(out, "cut off before their end") || len(ran) != 0 {
		t.Errorf("the cut-off call: %q, %v; ran %v", out, err, ran)
	}
	out, err = w.InvokableRun(context.Background(), `{"query": "go", "limit": "5", "tags": ["go"]}`)
	if err != nil || out != "ok" || len(ran) != 1 || ran[0].Limit != 5 {
		t.Errorf("another call: %q, %v; ran %v", out, err, ran)
	}
}
