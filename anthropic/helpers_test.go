package anthropiccoerce_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"sync"
	"testing"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"
	"github.com/anthropics/anthropic-sdk-go/toolrunner"
)

// The tests decode Messages API bodies as the API returns them
// (testdata/message_tool_use.json, testdata/message_end_turn.json) with the
// SDK's own types, and drive the SDK's own tool runner against an
// httptest server on the loopback interface that answers with them.

// searchParams is the input schema of search_messages. channel is a string
// that holds JSON text; limit is nullable.
const searchParams = `{
	"type": "object",
	"properties": {
		"channel":      {"type": "string", "description": "The channel as JSON text: {\"guild_id\": ..., \"name\": ...}"},
		"tags":         {"type": "array", "items": {"type": "string"}},
		"limit":        {"type": ["integer", "null"]},
		"author_id":    {"type": "integer"},
		"include_bots": {"type": "boolean"},
		"window":       {
			"type": "object",
			"properties": {"from": {"type": "string"}, "days": {"type": "integer"}},
			"required": ["from", "days"],
			"additionalProperties": false
		}
	},
	"required": ["channel", "tags", "limit", "author_id", "include_bots", "window"],
	"additionalProperties": false
}`

type searchArgs struct {
	Channel     string   `json:"channel"`
	Tags        []string `json:"tags"`
	Limit       *int     `json:"limit"`
	AuthorID    int64    `json:"author_id"`
	IncludeBots bool     `json:"include_bots"`
	Window      struct {
		From string `json:"from"`
		Days int    `json:"days"`
	} `json:"window"`
}

// wantSearch is what the recorded tool_use block means: it holds integers
// beyond 2^53, which must arrive with every digit where the API's text
// reaches the code.
func wantSearch() searchArgs {
	var want searchArgs
	want.Channel = `{"guild_id":1458059302022549698,"name":"general"}`
	want.Tags = []string{"deploy", "rollback"}
	limit := 25
	want.Limit = &limit
	want.AuthorID = 1458059302022549699
	want.Window.From = "2025-10-01"
	want.Window.Days = 7
	return want
}

func inputSchema(t testing.TB) anthropic.ToolInputSchemaParam {
	t.Helper()
	var s anthropic.ToolInputSchemaParam
	if err := s.UnmarshalJSON([]byte(searchParams)); err != nil {
		t.Fatal(err)
	}
	return s
}

func betaInputSchema(t testing.TB) anthropic.BetaToolInputSchemaParam {
	t.Helper()
	var s anthropic.BetaToolInputSchemaParam
	if err := s.UnmarshalJSON([]byte(searchParams)); err != nil {
		t.Fatal(err)
	}
	return s
}

// recorded reads the recorded tool_use reply. With input, the input of its
// tool_use block is replaced by it, as the model might have sent it.
func recorded(t testing.TB, input ...json.RawMessage) []byte {
	t.Helper()
	body, err := os.ReadFile("testdata/message_tool_use.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(input) == 0 {
		return body
	}
	var m map[string]any
	d := json.NewDecoder(bytes.NewReader(body))
	d.UseNumber()
	if err := d.Decode(&m); err != nil {
		t.Fatal(err)
	}
	m["content"].([]any)[1].(map[string]any)["input"] = input[0]
	if body, err = json.Marshal(m); err != nil {
		t.Fatal(err)
	}
	return body
}

// toolUse decodes a recorded reply with the SDK and returns its tool_use
// block.
func toolUse(t testing.TB, body []byte) anthropic.ToolUseBlock {
	t.Helper()
	var m anthropic.Message
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatal(err)
	}
	for _, block := range m.Content {
		if use, ok := block.AsAny().(anthropic.ToolUseBlock); ok {
			return use
		}
	}
	t.Fatal("no tool_use block")
	return anthropic.ToolUseBlock{}
}

func betaToolUse(t testing.TB, body []byte) anthropic.BetaToolUseBlock {
	t.Helper()
	var m anthropic.BetaMessage
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatal(err)
	}
	for _, block := range m.Content {
		if use, ok := block.AsAny().(anthropic.BetaToolUseBlock); ok {
			return use
		}
	}
	t.Fatal("no tool_use block")
	return anthropic.BetaToolUseBlock{}
}

// api is a Messages API on 127.0.0.1 for the tool runner: it answers a
// request that carries no tool_result with the recorded tool_use reply (its
// input replaced by the current one, if set), and one that does with the
// recorded end_turn reply, after handing the tool_result blocks to results.
type api struct {
	server  *httptest.Server
	mu      sync.Mutex
	input   json.RawMessage
	results chan []map[string]any
}

func newAPI(t testing.TB) *api {
	a := &api{results: make(chan []map[string]any, 1)}
	final, err := os.ReadFile("testdata/message_end_turn.json")
	if err != nil {
		t.Fatal(err)
	}
	a.server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/messages" {
			http.NotFound(w, r)
			return
		}
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		var req struct {
			Messages []struct {
				Content json.RawMessage `json:"content"`
			} `json:"messages"`
		}
		if err := json.Unmarshal(body, &req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		var blocks []map[string]any
		_ = json.Unmarshal(req.Messages[len(req.Messages)-1].Content, &blocks) // a plain string is no tool_result
		var results []map[string]any
		for _, b := range blocks {
			if b["type"] == "tool_result" {
				results = append(results, b)
			}
		}
		w.Header().Set("Content-Type", "application/json")
		if len(results) > 0 {
			a.results <- results
			w.Write(final)
			return
		}
		a.mu.Lock()
		input := a.input
		a.mu.Unlock()
		if input == nil {
			w.Write(recorded(t))
		} else {
			w.Write(recorded(t, input))
		}
	}))
	t.Cleanup(a.server.Close)
	return a
}

func (a *api) setInput(input json.RawMessage) {
	a.mu.Lock()
	a.input = input
	a.mu.Unlock()
}

func (a *api) client() anthropic.Client {
	return anthropic.NewClient(option.WithBaseURL(a.server.URL), option.WithAPIKey("test-key"), option.WithMaxRetries(0))
}

// run runs the tool runner with tools to completion, and returns the
// tool_result blocks it sent back.
func (a *api) run(t testing.TB, tools []anthropic.BetaTool) []map[string]any {
	t.Helper()
	client := a.client()
	runner := client.Beta.Messages.NewToolRunner(tools, anthropic.BetaToolRunnerParams{
		BetaMessageNewParams: anthropic.BetaMessageNewParams{
			Model:     anthropic.ModelClaudeSonnet4_6,
			MaxTokens: 1024,
			Messages:  []anthropic.BetaMessageParam{anthropic.NewBetaUserMessage(anthropic.NewBetaTextBlock("Find last week's deploy messages in #general."))},
		},
		MaxIterations: 4,
	})
	final, err := runner.RunToCompletion(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if final.StopReason != anthropic.BetaStopReasonEndTurn {
		t.Fatalf("the run ended with %q", final.StopReason)
	}
	select {
	case r := <-a.results:
		return r
	default:
		t.Fatal("no tool_result was sent")
		return nil
	}
}

// searchTool is search_messages as the toolrunner package makes it: its
// handler decodes the input with json.Unmarshal into searchArgs, and sends
// what it got to got.
func searchTool(t testing.TB, got chan<- searchArgs) anthropic.BetaTool {
	t.Helper()
	tool, err := toolrunner.NewBetaToolFromBytes("search_messages", "Search the messages of a channel.", []byte(searchParams),
		func(_ context.Context, in searchArgs) (anthropic.BetaToolResultBlockParamContentUnion, error) {
			got <- in
			return anthropic.BetaToolResultBlockParamContentUnion{OfText: &anthropic.BetaTextBlockParam{Text: "3 messages"}}, nil
		})
	if err != nil {
		t.Fatal(err)
	}
	return tool
}

func mustJSON(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
