package genkitcoerce_test

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
	"testing"

	"github.com/coerce-go/coerce"
	genkitcoerce "github.com/coerce-go/coerce/genkit"
	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/genkit"
	"github.com/firebase/genkit/go/plugins/compat_oai"
	"github.com/google/go-cmp/cmp"
	"github.com/openai/openai-go/option"
)

// lookupInput is the typed input of the lookup tool; Genkit requires each
// field.
type lookupInput struct {
	Query string   `json:"query"`
	Limit int      `json:"limit"`
	Tags  []string `json:"tags"`
}

// chatAPI is a Chat Completions API on 127.0.0.1 that answers the n-th
// request with the n-th of its replies (the last once they run out), each
// recorded as the API sends it: a JSON body, or a stream (a file of
// "data:" lines); a JSON body asked for as a stream is streamed (asStream).
// It keeps every request body.
type chatAPI struct {
	server  *httptest.Server
	mu      sync.Mutex
	replies [][]byte
	bodies  [][]byte
}

func newChatAPI(t *testing.T, files ...string) *chatAPI {
	t.Helper()
	a := &chatAPI{}
	for _, f := range files {
		b, err := os.ReadFile("testdata/" + f)
		if err != nil {
			t.Fatal(err)
		}
		a.replies = append(a.replies, b)
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
	return a.bodies
}

// lookupSetup returns a Genkit whose model is the compat_oai plugin's
// (openai-go underneath) talking to api, and the lookup tool, which
// records each input it ran with.
func lookupSetup(t *testing.T, api *chatAPI) (*genkit.Genkit, ai.Model, ai.Tool, *[]lookupInput) {
	t.Helper()
	ctx := context.Background()
	oai := &compat_oai.OpenAICompatible{
		Provider: "recorded",
		Opts:     []option.RequestOption{option.WithBaseURL(api.server.URL), option.WithAPIKey("test-key"), option.WithMaxRetries(0)},
	}
	g := genkit.Init(ctx, genkit.WithPlugins(oai))
	model := oai.DefineModel("recorded", "gpt-4o-mini", ai.ModelOptions{
		Supports: &ai.ModelSupports{Multiturn: true, Tools: true, SystemRole: true},
	})
	var mu sync.Mutex
	ran := &[]lookupInput{}
	tool := genkit.DefineTool(g, "lookup", "Looks posts up.",
		func(_ *ai.ToolContext, in lookupInput) (string, error) {
			mu.Lock()
			defer mu.Unlock()
			*ran = append(*ran, in)
			return fmt.Sprintf("%d posts", in.Limit), nil
		})
	return g, model, tool, ran
}

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

// A reply the output limit cut off (finish_reason "length", recorded as
// the API sends it) whose call's arguments are JSON with every field
// Genkit requires: without the middleware Genkit runs the tool with them;
// with it, the tool does not run, the model is asked again with the
// cut-off feedback as the call's tool response, and its next, complete
// call is repaired as before ("5" for an integer, an array as JSON text)
// and runs. Every request sent is JSON, its calls' arguments too.
func TestCutOffTurnNeverRuns(t *testing.T) {
	t.Run("without the middleware", func(t *testing.T) {
		api := newChatAPI(t, "chat_completion_length.json", "chat_completion_stop.json")
		g, model, tool, ran := lookupSetup(t, api)
		if _, err := genkit.Generate(context.Background(), g, ai.WithModel(model), ai.WithTools(tool),
			ai.WithPrompt("Find posts about Go generics.")); err != nil {
			t.Fatal(err)
		}
		if len(*ran) != 1 {
			t.Fatalf("the tool ran %d times", len(*ran))
		}
	})
	for _, stream := range []bool{false, true} {
		t.Run(fmt.Sprint("stream=", stream), func(t *testing.T) {
			first := "chat_completion_length.json"
			opts := []ai.GenerateOption{}
			if stream {
				first = "chat_completion_length_parses_stream.txt"
				opts = append(opts, ai.WithStreaming(func(context.Context, *ai.ModelResponseChunk) error { return nil }))
			}
			api := newChatAPI(t, first, "chat_completion_tool_calls.json", "chat_completion_stop.json")
			g, model, tool, ran := lookupSetup(t, api)
			var rejected []error
			mw := genkitcoerce.Options{OnError: func(_ context.Context, tool string, err error) { rejected = append(rejected, err) }}.Middleware()
			opts = append(opts, ai.WithModel(model), ai.WithTools(tool), ai.WithPrompt("Find posts about Go generics."), ai.WithMiddleware(mw))
			resp, err := genkit.Generate(context.Background(), g, opts...)
			if err != nil {
				t.Fatal(err)
			}
			want := []lookupInput{{Query: "go generics", Limit: 5, Tags: []string{"go", "generics"}}}
			if diff := cmp.Diff(want, *ran); diff != "" {
				t.Errorf("the tool ran with (-want +got):\n%s", diff)
			}
			if len(rejected) != 1 || !errors.Is(rejected[0], coerce.ErrTruncated) {
				t.Errorf("OnError heard %v", rejected)
			}
			if resp.Text() != "Found 5 posts about Go generics." {
				t.Errorf("the answer: %q", resp.Text())
			}
			reqs := api.requests()
			if len(reqs) != 3 {
				t.Fatalf("%d requests", len(reqs))
			}
			args, results := sentToModel(t, reqs[1])
			if len(args) != 1 || !json.Valid([]byte(args[0])) {
				t.Errorf("the cut-off call sent back: %q", args)
			}
			if len(results) != 1 || !strings.Contains(results[0], "cut off before their end, so the tool did not run") {
				t.Errorf("the tool response sent: %q", results)
			}
			for _, body := range reqs {
				args, _ := sentToModel(t, body)
				for _, a := range args {
					if !json.Valid([]byte(a)) {
						t.Errorf("arguments sent back: %s", a)
					}
				}
			}
		})
	}
}

// A model cut off at every turn: the middleware asks it again three times,
// then fails the generate call with an error wrapping coerce.ErrTruncated;
// the tool never runs.
func TestCutOffEveryTurn(t *testing.T) {
	api := newChatAPI(t, "chat_completion_length.json")
	g, model, tool, ran := lookupSetup(t, api)
	_, err := genkit.Generate(context.Background(), g, ai.WithModel(model), ai.WithTools(tool),
		ai.WithPrompt("Find posts about Go generics."), ai.WithMiddleware(genkitcoerce.Middleware()))
	if !errors.Is(err, coerce.ErrTruncated) {
		t.Fatalf("Generate: %v", err)
	}
	if len(*ran) != 0 || len(api.requests()) != 4 {
		t.Errorf("the tool ran %d times, after %d requests", len(*ran), len(api.requests()))
	}
}

// A stream cut off inside the arguments: the plugin fails the generate
// call itself, since it cannot decode them (compat_oai in Genkit v1.4.0),
// before the middleware sees a response; the tool never runs either way.
func TestCutOffArgumentsFailInThePlugin(t *testing.T) {
	api := newChatAPI(t, "chat_completion_length_stream.txt", "chat_completion_stop.json")
	g, model, tool, ran := lookupSetup(t, api)
	_, err := genkit.Generate(context.Background(), g, ai.WithModel(model), ai.WithTools(tool),
		ai.WithPrompt("Find posts about Go generics."), ai.WithMiddleware(genkitcoerce.Middleware()),
		ai.WithStreaming(func(context.Context, *ai.ModelResponseChunk) error { return nil }))
	if err == nil || !strings.Contains(err.Error(), "could not parse tool args") {
		t.Errorf("Generate: %v; the plugin no longer fails on arguments cut off: see that the README still says what it does", err)
	}
	if len(*ran) != 0 {
		t.Errorf("the tool ran %d times", len(*ran))
	}
}

// A plugin that hands on the text of a call cut off (a json.RawMessage
// that is not JSON): Genkit v1.4.0 fails the generate call itself, since
// the model's output does not marshal ("invalid output from action"),
// before the middleware sees it; so what the middleware writes back into
// the request it asks again with always marshals. No tool runs.
func TestCutOffTextFailsInGenkit(t *testing.T) {
	g := genkit.Init(context.Background())
	model := genkit.DefineModel(g, "test/cut-text", &ai.ModelOptions{
		Supports: &ai.ModelSupports{Multiturn: true, Tools: true},
	}, func(_ context.Context, req *ai.ModelRequest, _ ai.ModelStreamCallback) (*ai.ModelResponse, error) {
		part := ai.NewToolRequestPart(&ai.ToolRequest{Name: "lookup", Ref: "1", Input: json.RawMessage(`{"query": "go gen`)})
		return &ai.ModelResponse{Request: req, Message: &ai.Message{Role: ai.RoleModel, Content: []*ai.Part{part}}, FinishReason: ai.FinishReasonLength}, nil
	})
	var ran int
	tool := genkit.DefineTool(g, "lookup", "Looks posts up.",
		func(_ *ai.ToolContext, in lookupInput) (string, error) { ran++; return "", nil })
	_, err := genkit.Generate(context.Background(), g, ai.WithModel(model), ai.WithTools(tool),
		ai.WithPrompt("Find posts about Go generics."), ai.WithMiddleware(genkitcoerce.Middleware()))
	if err == nil || !strings.Contains(err.Error(), "invalid output from action") {
		t.Errorf("Generate: %v; Genkit no longer refuses a model output that does not marshal: the middleware must make what it writes back marshal", err)
	}
	if ran != 0 {
		t.Errorf("the tool ran %d times", ran)
	}
}
