package anthropiccoerce_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"
	"github.com/coerce-go/coerce"
	"github.com/coerce-go/coerce/anthropic"
)

// cutOffFeedback is what the model reads for each call of a cut-off turn.
const cutOffFeedback = "cut off before their end"

// streamAPI is a Messages API on 127.0.0.1 that streams stream to a
// streaming request, and answers any other with the recorded end_turn
// reply, keeping its body.
type streamAPI struct {
	server *httptest.Server
	mu     sync.Mutex
	bodies [][]byte
}

// maxTokensStream is testdata/message_max_tokens_stream.txt, a reply cut
// off by max_tokens inside the input of its tool_use block, as the API
// streams it; broken, the same stream dropped after the last delta of
// that input, as a connection that breaks leaves it.
func maxTokensStream(t *testing.T, broken bool) []byte {
	t.Helper()
	stream, err := os.ReadFile("testdata/message_max_tokens_stream.txt")
	if err != nil {
		t.Fatal(err)
	}
	if broken {
		i := bytes.Index(stream, []byte(`event: content_block_stop`+"\n"+`data: {"type":"content_block_stop","index":1}`))
		if i < 0 {
			t.Fatal("no end of the tool_use block in the recorded stream")
		}
		stream = stream[:i]
	}
	return stream
}

func newStreamAPI(t *testing.T, stream []byte) *streamAPI {
	t.Helper()
	final, err := os.ReadFile("testdata/message_end_turn.json")
	if err != nil {
		t.Fatal(err)
	}
	a := &streamAPI{}
	a.server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil || r.URL.Path != "/v1/messages" {
			http.NotFound(w, r)
			return
		}
		var req struct {
			Stream bool `json:"stream"`
		}
		_ = json.Unmarshal(body, &req)
		if req.Stream {
			w.Header().Set("Content-Type", "text/event-stream")
			w.Write(stream)
			return
		}
		a.mu.Lock()
		a.bodies = append(a.bodies, body)
		a.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.Write(final)
	}))
	t.Cleanup(a.server.Close)
	return a
}

func (a *streamAPI) client() anthropic.Client {
	return anthropic.NewClient(option.WithBaseURL(a.server.URL), option.WithAPIKey("test-key"), option.WithMaxRetries(0))
}

// lastBody returns the body of the last request that was not streamed.
func (a *streamAPI) lastBody(t *testing.T) []byte {
	t.Helper()
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(a.bodies) == 0 {
		t.Fatal("no request reached the API")
	}
	return a.bodies[len(a.bodies)-1]
}

// sentBack reads, from a request body, the input of the tool_use block the
// assistant's message sent back, and the text of the tool_result answering it.
func sentBack(t *testing.T, body []byte) (input json.RawMessage, result string) {
	t.Helper()
	if !json.Valid(body) {
		t.Fatalf("the request body is not JSON:\n%s", body)
	}
	var req struct {
		Messages []struct {
			Content []struct {
				Type    string          `json:"type"`
				Input   json.RawMessage `json:"input"`
				Content json.RawMessage `json:"content"`
				IsError bool            `json:"is_error"`
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
				input = b.Input
			case "tool_result":
				if !b.IsError {
					t.Error("the tool_result of a cut-off call is not an error")
				}
				result = string(b.Content)
			}
		}
	}
	return input, result
}

func streamParams(t *testing.T) anthropic.MessageNewParams {
	return anthropic.MessageNewParams{
		Model:     anthropic.ModelClaudeSonnet4_6,
		MaxTokens: 64,
		Messages:  []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("Find last week's deploy messages in #general."))},
		Tools:     []anthropic.ToolUnionParam{{OfTool: &anthropic.ToolParam{Name: "search_messages", InputSchema: inputSchema(t)}}},
	}
}

// A reply streamed until max_tokens cut it off inside a tool_use input,
// read by the SDK's streaming client and gathered by Message.Accumulate:
// Finished refuses it, so that no tool runs, even though the SDK hands the
// block on with {} as its input (v1.84.0 empties a cut-off input when the
// block stops; so its own msg.ToParam() replays it). The next request,
// sent by the SDK to the API, is JSON and carries the cut-off feedback as
// the tool_result.
func TestCutOffStreamRunsNothing(t *testing.T) {
	api := newStreamAPI(t, maxTokensStream(t, false))
	client := api.client()
	params := streamParams(t)
	tools, err := anthropiccoerce.NewTools(params.Tools)
	if err != nil {
		t.Fatal(err)
	}
	msg := accumulate(t, client, params)
	cut := tools.Finished(&msg)
	if !errors.Is(cut, coerce.ErrTruncated) {
		t.Fatalf("Finished: %v", cut)
	}
	use := onlyToolUse(t, &msg)
	if string(use.Input) != "{}" {
		t.Errorf("anthropic-sdk-go no longer empties a cut-off input (%s): see that the README still says what it does", use.Input)
	}
	params.Messages = append(params.Messages, msg.ToParam(),
		anthropic.NewUserMessage(anthropic.NewToolResultBlock(use.ID, anthropiccoerce.Feedback(cut), true)))
	if _, err := client.Messages.New(t.Context(), params); err != nil {
		t.Fatal(err)
	}
	input, result := sentBack(t, api.lastBody(t))
	if string(input) != "{}" {
		t.Errorf("the replayed input: %s, want {}", input)
	}
	if !strings.Contains(result, cutOffFeedback) {
		t.Errorf("the tool_result sent: %s", result)
	}
}

// The same reply, its stream broken inside the tool_use input: no stop
// reason came, so Finished has nothing to refuse, but the input is text
// cut off, which Unmarshal refuses (coerce.ErrTruncated), with feedback
// that says so. A block built from that text (the union's Input) gives a
// param, block.ToParam(), that cannot be marshalled, so the next request
// would never be sent; ReplayToolUse's can, with {} as the input.
func TestBrokenStreamReplays(t *testing.T) {
	api := newStreamAPI(t, maxTokensStream(t, true))
	client := api.client()
	params := streamParams(t)
	tools, err := anthropiccoerce.NewTools(params.Tools)
	if err != nil {
		t.Fatal(err)
	}
	msg := accumulate(t, client, params)
	if err := tools.Finished(&msg); err != nil {
		t.Fatalf("Finished: %v", err)
	}
	use := onlyToolUse(t, &msg)
	if json.Valid(use.Input) {
		t.Fatalf("the broken stream should leave the input cut off: %s", use.Input)
	}
	var in searchArgs
	err = tools.Unmarshal(t.Context(), use, &in)
	if !errors.Is(err, coerce.ErrTruncated) {
		t.Fatalf("Unmarshal: %v", err)
	}
	if _, err := json.Marshal(use.ToParam()); err == nil {
		t.Error("the ToParam() of a block holding cut-off text marshals: anthropic-sdk-go changed, and the README's reason for ReplayToolUse with it")
	}
	replayed := anthropiccoerce.ReplayToolUse(use)
	if _, err := json.Marshal(replayed); err != nil {
		t.Fatalf("ReplayToolUse: %v", err)
	}
	params.Messages = append(params.Messages,
		anthropic.NewAssistantMessage(anthropic.ContentBlockParamUnion{OfToolUse: &replayed}),
		anthropic.NewUserMessage(anthropic.NewToolResultBlock(use.ID, anthropiccoerce.Feedback(err), true)))
	if _, err := client.Messages.New(t.Context(), params); err != nil {
		t.Fatal(err)
	}
	input, result := sentBack(t, api.lastBody(t))
	if string(input) != "{}" {
		t.Errorf("the replayed input: %s, want {}", input)
	}
	if !strings.Contains(result, cutOffFeedback) {
		t.Errorf("the tool_result sent: %s", result)
	}
}

func accumulate(t *testing.T, client anthropic.Client, params anthropic.MessageNewParams) anthropic.Message {
	t.Helper()
	var msg anthropic.Message
	s := client.Messages.NewStreaming(t.Context(), params)
	for s.Next() {
		if err := msg.Accumulate(s.Current()); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	return msg
}

func onlyToolUse(t *testing.T, msg *anthropic.Message) anthropic.ToolUseBlock {
	t.Helper()
	var uses []anthropic.ToolUseBlock
	for _, block := range msg.Content {
		if block.Type == "tool_use" {
			// The union's fields, not AsAny's: AsAny decodes the block's
			// JSON, whose input Accumulate updates only when it is valid.
			uses = append(uses, anthropic.ToolUseBlock{ID: block.ID, Name: block.Name, Input: block.Input, Type: "tool_use"})
		}
	}
	if len(uses) != 1 {
		t.Fatalf("%d tool_use blocks", len(uses))
	}
	return uses[0]
}

// The broken stream through the beta API: BetaMessage.Accumulate,
// BetaTools.Unmarshal and ReplayBetaToolUse.
func TestBetaBrokenStreamReplays(t *testing.T) {
	api := newStreamAPI(t, maxTokensStream(t, true))
	client := api.client()
	params := anthropic.BetaMessageNewParams{
		Model:     anthropic.ModelClaudeSonnet4_6,
		MaxTokens: 64,
		Messages:  []anthropic.BetaMessageParam{anthropic.NewBetaUserMessage(anthropic.NewBetaTextBlock("Find last week's deploy messages in #general."))},
		Tools:     []anthropic.BetaToolUnionParam{{OfTool: &anthropic.BetaToolParam{Name: "search_messages", InputSchema: betaInputSchema(t)}}},
	}
	tools, err := anthropiccoerce.NewBetaTools(params.Tools)
	if err != nil {
		t.Fatal(err)
	}
	var msg anthropic.BetaMessage
	s := client.Beta.Messages.NewStreaming(t.Context(), params)
	for s.Next() {
		if err := msg.Accumulate(s.Current()); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	if err := tools.Finished(&msg); err != nil {
		t.Fatalf("Finished: %v", err)
	}
	var assistant, results []anthropic.BetaContentBlockParamUnion
	for _, block := range msg.Content {
		if block.Type != "tool_use" {
			continue
		}
		use := anthropic.BetaToolUseBlock{ID: block.ID, Name: block.Name, Input: block.Input, Type: "tool_use"}
		var in searchArgs
		err := tools.Unmarshal(t.Context(), use, &in)
		if !errors.Is(err, coerce.ErrTruncated) {
			t.Fatalf("Unmarshal: %v", err)
		}
		if _, err := json.Marshal(use.ToParam()); err == nil {
			t.Error("the ToParam() of a beta block holding cut-off text marshals: anthropic-sdk-go changed")
		}
		replayed := anthropiccoerce.ReplayBetaToolUse(use)
		if _, err := json.Marshal(replayed); err != nil {
			t.Fatalf("ReplayBetaToolUse: %v", err)
		}
		assistant = append(assistant, anthropic.BetaContentBlockParamUnion{OfToolUse: &replayed})
		results = append(results, anthropic.NewBetaToolResultBlock(block.ID, anthropiccoerce.Feedback(err), true))
	}
	if len(results) != 1 {
		t.Fatalf("%d tool_use blocks", len(results))
	}
	params.Messages = append(params.Messages, anthropic.BetaMessageParam{Role: anthropic.BetaMessageParamRoleAssistant, Content: assistant},
		anthropic.NewBetaUserMessage(results...))
	if _, err := client.Beta.Messages.New(t.Context(), params); err != nil {
		t.Fatal(err)
	}
	input, result := sentBack(t, api.lastBody(t))
	if string(input) != "{}" {
		t.Errorf("the replayed input: %s, want {}", input)
	}
	if !strings.Contains(result, cutOffFeedback) {
		t.Errorf("the tool_result sent: %s", result)
	}
}

// A complete tool_use block replays as block.ToParam() does, its input
// byte for byte, and is decoded and repaired as before.
func TestCompleteToolUseReplaysAsItIs(t *testing.T) {
	var msg anthropic.Message
	if err := json.Unmarshal(recorded(t), &msg); err != nil {
		t.Fatal(err)
	}
	tools, err := anthropiccoerce.NewTools([]anthropic.ToolUnionParam{{OfTool: &anthropic.ToolParam{Name: "search_messages", InputSchema: inputSchema(t)}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := tools.Finished(&msg); err != nil {
		t.Fatal(err)
	}
	use := toolUse(t, recorded(t))
	var in searchArgs
	if err := tools.Unmarshal(t.Context(), use, &in); err != nil {
		t.Fatal(err)
	}
	if want := wantSearch(); !reflect.DeepEqual(in, want) {
		t.Errorf("got %+v, want %+v", in, want)
	}
	got, err := json.Marshal(anthropiccoerce.ReplayToolUse(use))
	if err != nil {
		t.Fatal(err)
	}
	want, err := json.Marshal(use.ToParam())
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("replayed:\n%s\nToParam:\n%s", got, want)
	}
}

// The tool runner runs no tool of a message cut off by max_tokens, even
// when its input parses: anthropic-sdk-go v1.84.0 stops the run. Pinned
// here, since the README says the runner needs no Finished.
func TestRunnerRunsNoToolOfACutOffMessage(t *testing.T) {
	cut := strings.Replace(string(recorded(t)), `"stop_reason": "tool_use"`, `"stop_reason": "max_tokens"`, 1)
	var requests int
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests++
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(cut))
	}))
	defer server.Close()
	client := anthropic.NewClient(option.WithBaseURL(server.URL), option.WithAPIKey("test-key"), option.WithMaxRetries(0))
	got := make(chan searchArgs, 1)
	runner := client.Beta.Messages.NewToolRunner(anthropiccoerce.WrapTools(searchTool(t, got)), anthropic.BetaToolRunnerParams{
		BetaMessageNewParams: anthropic.BetaMessageNewParams{
			Model:     anthropic.ModelClaudeSonnet4_6,
			MaxTokens: 64,
			Messages:  []anthropic.BetaMessageParam{anthropic.NewBetaUserMessage(anthropic.NewBetaTextBlock("Find last week's deploy messages in #general."))},
		},
		MaxIterations: 4,
	})
	final, err := runner.RunToCompletion(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if final.StopReason != anthropic.BetaStopReasonMaxTokens || requests != 1 {
		t.Errorf("the run ended with %q after %d requests", final.StopReason, requests)
	}
	select {
	case in := <-got:
		t.Errorf("the tool ran with %+v", in)
	default:
	}
}

// model_context_window_exceeded cuts a message off as max_tokens does.
func TestContextWindowExceededIsCutOff(t *testing.T) {
	tools, err := anthropiccoerce.NewTools(nil)
	if err != nil {
		t.Fatal(err)
	}
	msg := anthropic.Message{StopReason: anthropic.StopReasonModelContextWindowExceeded}
	if err := tools.Finished(&msg); !errors.Is(err, coerce.ErrTruncated) {
		t.Errorf("Finished: %v", err)
	}
	bt, err := anthropiccoerce.NewBetaTools(nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := bt.Finished(&anthropic.BetaMessage{StopReason: anthropic.BetaStopReasonModelContextWindowExceeded}); !errors.Is(err, coerce.ErrTruncated) {
		t.Errorf("beta Finished: %v", err)
	}
}
