package openaicoerce_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/coerce-go/coerce"
	"github.com/coerce-go/coerce/openai"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"
)

// A turn cut off by the output limit runs none of its tool calls, not even
// one whose arguments parse: the recorded completion, its finish_reason
// made "length", and the recorded response, left incomplete at
// max_output_tokens. The model gets the cut-off feedback as each result.
func TestCutOffTurnRunsNoCall(t *testing.T) {
	chat, err := openaicoerce.NewChatTools(chatTools(t))
	if err != nil {
		t.Fatal(err)
	}
	var c openai.ChatCompletion
	body := strings.Replace(string(recorded(t, "testdata/chat_completion.json")), `"finish_reason": "tool_calls"`, `"finish_reason": "length"`, 1)
	if err := json.Unmarshal([]byte(body), &c); err != nil {
		t.Fatal(err)
	}
	if !json.Valid([]byte(c.Choices[0].Message.ToolCalls[0].Function.Arguments)) {
		t.Fatal("the recorded call's arguments should parse: the point is that they are not run all the same")
	}
	checkCutOff(t, chat.Finished(c.Choices[0]))

	var complete openai.ChatCompletion
	if err := json.Unmarshal(recorded(t, "testdata/chat_completion.json"), &complete); err != nil {
		t.Fatal(err)
	}
	if err := chat.Finished(complete.Choices[0]); err != nil {
		t.Errorf("a complete turn: %v", err)
	}

	rt, err := openaicoerce.NewResponseTools(responseTools(t))
	if err != nil {
		t.Fatal(err)
	}
	var r responses.Response
	body = strings.Replace(string(recorded(t, "testdata/response.json")), `"incomplete_details": null`, `"incomplete_details": {"reason": "max_output_tokens"}`, 1)
	body = strings.Replace(body, `"status": "completed"`, `"status": "incomplete"`, 1)
	if err := json.Unmarshal([]byte(body), &r); err != nil {
		t.Fatal(err)
	}
	checkCutOff(t, rt.Finished(&r))
	var done responses.Response
	if err := json.Unmarshal(recorded(t, "testdata/response.json"), &done); err != nil {
		t.Fatal(err)
	}
	if err := rt.Finished(&done); err != nil {
		t.Errorf("a complete response: %v", err)
	}
}

func checkCutOff(t *testing.T, err error) {
	t.Helper()
	var ae *openaicoerce.ArgumentsError
	if !errors.As(err, &ae) || !errors.Is(err, coerce.ErrTruncated) {
		t.Fatalf("got %v, want an ArgumentsError wrapping ErrTruncated", err)
	}
	fb := openaicoerce.Feedback(err)
	if !strings.Contains(fb, "cut off before their end, so the tool did not run") || strings.Contains(fb, "missing") {
		t.Errorf("feedback:\n%s", fb)
	}
}
