package openaicoerce_test

import (
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

	"github.com/coerce-go/coerce"
	"github.com/coerce-go/coerce/openai"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"
)

// A reply streamed until the output limit cut it off inside a call's
// arguments (testdata/chat_completion_length_stream.txt: the recorded
// stream's first deltas, then finish_reason "length", as the API ends
// such a stream), read by the SDK's streaming client from an httptest
// server and gathered by its accumulator. Finished refuses the choice, so
// that no call runs; the SDK's own message.ToParam() sends the cut-off
// text back, and ReplayMessage sends {}. The next request, sent by the
// SDK, is JSON, every call's arguments in it are JSON, and the tool
// message answering the call is the cut-off feedback.
func TestCutOffStreamReplays(t *testing.T) {
	stream, err := os.ReadFile("testdata/chat_completion_length_stream.txt")
	if err != nil {
		t.Fatal(err)
	}
	final, err := os.ReadFile("testdata/chat_completion.json")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var sent []byte
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil || r.URL.Path != "/chat/completions" {
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
		mu.Lock()
		sent = body
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.Write(final)
	}))
	defer server.Close()
	client := openai.NewClient(option.WithBaseURL(server.URL), option.WithAPIKey("test-key"), option.WithMaxRetries(0))

	params := openai.ChatCompletionNewParams{
		Model:    openai.ChatModelGPT5_4Mini,
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Find last week's deploy messages in #general.")},
		Tools:    chatTools(t),
	}
	tools, err := openaicoerce.NewChatTools(params.Tools)
	if err != nil {
		t.Fatal(err)
	}
	s := client.Chat.Completions.NewStreaming(t.Context(), params)
	var acc openai.ChatCompletionAccumulator
	for s.Next() {
		acc.AddChunk(s.Current())
	}
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	choice := acc.Choices[0]
	cut := tools.Finished(choice)
	checkCutOff(t, cut)
	msg := choice.Message
	if len(msg.ToolCalls) != 1 || json.Valid([]byte(msg.ToolCalls[0].Function.Arguments)) {
		t.Fatalf("the recorded stream should cut one call's arguments off: %+v", msg.ToolCalls)
	}
	if args := msg.ToParam().OfAssistant.ToolCalls[0].OfFunction.Function.Arguments; json.Valid([]byte(args)) {
		t.Errorf("message.ToParam() replays the cut-off arguments as JSON (%s): openai-go changed, and the README's reason for ReplayMessage with it", args)
	}
	params.Messages = append(params.Messages, openaicoerce.ReplayMessage(msg))
	for _, call := range msg.ToolCalls {
		params.Messages = append(params.Messages, openai.ToolMessage(openaicoerce.Feedback(cut), call.ID))
	}
	if _, err := client.Chat.Completions.New(t.Context(), params); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	body := sent
	mu.Unlock()
	if !json.Valid(body) {
		t.Fatalf("the next request is not JSON:\n%s", body)
	}
	var req struct {
		Messages []struct {
			Role      string `json:"role"`
			Content   string `json:"content"`
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
	var calls, answers int
	for _, m := range req.Messages {
		for _, c := range m.ToolCalls {
			calls++
			if c.Function.Arguments != "{}" {
				t.Errorf("replayed arguments: %s, want {}", c.Function.Arguments)
			}
		}
		if m.Role == "tool" {
			answers++
			if !strings.Contains(m.Content, "cut off before their end, so the tool did not run") {
				t.Errorf("the tool message: %s", m.Content)
			}
		}
	}
	if calls != 1 || answers != 1 {
		t.Errorf("%d calls and %d answers sent back", calls, answers)
	}
}

// A complete reply replays as message.ToParam() does, and decodes,
// repaired, as before.
func TestCompleteMessageReplaysAsItIs(t *testing.T) {
	var c openai.ChatCompletion
	if err := json.Unmarshal(recorded(t, "testdata/chat_completion.json"), &c); err != nil {
		t.Fatal(err)
	}
	tools, err := openaicoerce.NewChatTools(chatTools(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := tools.Finished(c.Choices[0]); err != nil {
		t.Fatal(err)
	}
	var in searchArgs
	if err := tools.Unmarshal(t.Context(), c.Choices[0].Message.ToolCalls[0], &in); err != nil {
		t.Fatal(err)
	}
	if want := wantSearch(); !reflect.DeepEqual(in, want) {
		t.Errorf("got %+v, want %+v", in, want)
	}
	got, err := json.Marshal(openaicoerce.ReplayMessage(c.Choices[0].Message))
	if err != nil {
		t.Fatal(err)
	}
	want, err := json.Marshal(c.Choices[0].Message.ToParam())
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("replayed:\n%s\nToParam:\n%s", got, want)
	}
}

// A Responses API call replays as its own param when its arguments are
// JSON, and with {} when they were cut off: the recorded response, left
// incomplete at max_output_tokens with its call's arguments cut.
func TestReplayFunctionCall(t *testing.T) {
	var done responses.Response
	if err := json.Unmarshal(recorded(t, "testdata/response.json"), &done); err != nil {
		t.Fatal(err)
	}
	var call responses.ResponseFunctionToolCall
	for _, item := range done.Output {
		if item.Type == "function_call" {
			call = item.AsFunctionCall()
			break
		}
	}
	got, err := json.Marshal(openaicoerce.ReplayFunctionCall(call))
	if err != nil {
		t.Fatal(err)
	}
	want, err := json.Marshal(call.ToParam())
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("replayed:\n%s\nToParam:\n%s", got, want)
	}

	body := strings.Replace(string(recorded(t, "testdata/response.json")), `"incomplete_details": null`, `"incomplete_details": {"reason": "max_output_tokens"}`, 1)
	body = strings.Replace(body, `"status": "completed"`, `"status": "incomplete"`, 1)
	var r responses.Response
	if err := json.Unmarshal([]byte(body), &r); err != nil {
		t.Fatal(err)
	}
	rt, err := openaicoerce.NewResponseTools(responseTools(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := rt.Finished(&r); !errors.Is(err, coerce.ErrTruncated) {
		t.Fatalf("Finished: %v", err)
	}
	for _, item := range r.Output {
		if item.Type != "function_call" {
			continue
		}
		cut := item.AsFunctionCall()
		cut.Arguments = cut.Arguments[:len(cut.Arguments)/2]
		p := openaicoerce.ReplayFunctionCall(cut)
		text, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		var sent struct {
			Arguments string `json:"arguments"`
			CallID    string `json:"call_id"`
			Name      string `json:"name"`
			Type      string `json:"type"`
		}
		if err := json.Unmarshal(text, &sent); err != nil {
			t.Fatal(err)
		}
		if sent.Arguments != "{}" || sent.CallID != cut.CallID || sent.Name != cut.Name || sent.Type != "function_call" {
			t.Errorf("replayed: %s", text)
		}
	}
}
