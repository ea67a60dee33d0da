package openaicoerce_test

import (
	"net/http"
	"net/http/httptest"
	"os"
	"reflect"
	"testing"

	"github.com/coerce-go/coerce/openai"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
)

// A streamed reply, recorded as the API sends it
// (testdata/chat_completion_stream.txt: the call of chat_completion.json,
// its arguments in six deltas), read by the SDK's streaming client from an
// httptest server on the loopback interface and gathered by its
// ChatCompletionAccumulator. The finished tool call, as
// JustFinishedToolCall gives it, decodes with UnmarshalFunction, and the
// accumulated message with Unmarshal.
func TestChatStreamedCall(t *testing.T) {
	stream, err := os.ReadFile("testdata/chat_completion_stream.txt")
	if err != nil {
		t.Fatal(err)
	}
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/chat/completions" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write(stream)
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
	finished := 0
	for s.Next() {
		acc.AddChunk(s.Current())
		if call, ok := acc.JustFinishedToolCall(); ok {
			finished++
			var in searchArgs
			if err := tools.UnmarshalFunction(t.Context(), call.ChatCompletionMessageFunctionToolCallFunction, &in); err != nil {
				t.Fatal(err)
			}
			if want := wantSearch(); !reflect.DeepEqual(in, want) {
				t.Errorf("got %+v, want %+v", in, want)
			}
		}
	}
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	if finished != 1 {
		t.Fatalf("%d tool calls finished", finished)
	}
	var in searchArgs
	if err := tools.Unmarshal(t.Context(), acc.Choices[0].Message.ToolCalls[0], &in); err != nil {
		t.Fatal(err)
	}
	if want := wantSearch(); !reflect.DeepEqual(in, want) {
		t.Errorf("accumulated: got %+v, want %+v", in, want)
	}
}
