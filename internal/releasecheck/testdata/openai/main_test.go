// Release check: a tool call decoded with github.com/coerce-go/coerce/openai, as a user's module builds it.
package main

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/coerce-go/coerce/openai"
	"github.com/openai/openai-go/v3"
)

type searchArgs struct {
	Tags  []string `json:"tags"`
	Limit int      `json:"limit"`
}

// A Chat Completions reply as the API sends it, whose arguments hold an
// array as JSON text and an integer as a string, decodes into what it means.
func TestBrokenCallIsRepaired(t *testing.T) {
	tools, err := openaicoerce.NewChatTools([]openai.ChatCompletionToolUnionParam{openai.ChatCompletionFunctionTool(openai.FunctionDefinitionParam{
		Name: "search",
		Parameters: openai.FunctionParameters{"type": "object", "properties": map[string]any{
			"tags": map[string]any{"type": "array", "items": map[string]any{"type": "string"}}, "limit": map[string]any{"type": "integer"}}},
	})})
	if err != nil {
		t.Fatal(err)
	}
	var completion openai.ChatCompletion
	if err := json.Unmarshal([]byte(`{"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "gpt-5-mini",
		"choices": [{"index": 0, "finish_reason": "tool_calls", "message": {"role": "assistant", "content": null, "tool_calls": [
		{"id": "call_1", "type": "function", "function": {"name": "search", "arguments": "{\"tags\": \"[\\\"a\\\", \\\"b\\\"]\", \"limit\": \"5\"}"}}]}}]}`), &completion); err != nil {
		t.Fatal(err)
	}
	var in searchArgs
	if err := tools.Unmarshal(t.Context(), completion.Choices[0].Message.ToolCalls[0], &in); err != nil {
		t.Fatal(err)
	}
	if want := (searchArgs{Tags: []string{"a", "b"}, Limit: 5}); !reflect.DeepEqual(in, want) {
		t.Errorf("got %+v, want %+v", in, want)
	}
}
