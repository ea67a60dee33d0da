package openaicoerce_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"

	"github.com/coerce-go/coerce"
	"github.com/coerce-go/coerce/openai"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"
)

// SearchArgs is what the search tool takes: tags an array, limit an
// integer.
type SearchArgs struct {
	Tags  []string `json:"tags"`
	Limit int      `json:"limit"`
}

// searchTool is the tool a request declares, as the SDK takes it.
var searchTool = openai.ChatCompletionFunctionTool(openai.FunctionDefinitionParam{
	Name: "search",
	Parameters: openai.FunctionParameters{
		"type": "object",
		"properties": map[string]any{
			"tags":  map[string]any{"type": "array", "items": map[string]any{"type": "string"}},
			"limit": map[string]any{"type": "integer"},
		},
	},
})

// The model sent the array as JSON text and the integer as a string, and
// json.Unmarshal would fail with: json: cannot unmarshal string into Go
// struct field SearchArgs.tags of type []string.
func ExampleChatTools_Unmarshal() {
	tools, err := openaicoerce.NewChatTools([]openai.ChatCompletionToolUnionParam{searchTool})
	if err != nil {
		log.Fatal(err)
	}

	// A reply of client.Chat.Completions.New, as the API sends it.
	var completion openai.ChatCompletion
	if err := json.Unmarshal([]byte(`{"id": "chatcmpl-1", "object": "chat.completion", "created": 1760968412, "model": "gpt-4o-mini",
		"choices": [{"index": 0, "finish_reason": "tool_calls", "message": {"role": "assistant", "content": null,
		"tool_calls": [{"id": "call_1", "type": "function",
		"function": {"name": "search", "arguments": "{\"tags\": \"[\\\"go\\\", \\\"sdk\\\"]\", \"limit\": \"10\"}"}}]}}]}`), &completion); err != nil {
		log.Fatal(err)
	}

	for _, call := range completion.Choices[0].Message.ToolCalls {
		var in SearchArgs
		if err := tools.Unmarshal(context.Background(), call, &in); err != nil {
			log.Fatal(err) // a program sends err.Error() back as the tool's result
		}
		fmt.Printf("%s: tags=%q limit=%d\n", call.Function.Name, in.Tags, in.Limit)
	}
	// Output:
	// search: tags=["go" "sdk"] limit=10
}

// Arguments gives the repaired text, for a program that forwards it. What
// cannot be converted stays as sent, and the error says where and why.
func ExampleResponseTools_Arguments() {
	tools, err := openaicoerce.NewResponseTools([]responses.ToolUnionParam{{OfFunction: &responses.FunctionToolParam{
		Name:       "search",
		Parameters: searchTool.OfFunction.Function.Parameters,
	}}})
	if err != nil {
		log.Fatal(err)
	}

	call := responses.ResponseFunctionToolCall{Name: "search", CallID: "call_1", Arguments: `{"tags": "[\"go\"]", "limit": "ten"}`}
	args, err := tools.Arguments(context.Background(), call)
	fmt.Println(string(args))
	fmt.Println(err)
	// Output:
	// {"tags": ["go"], "limit": "ten"}
	// coerce: /limit: want integer, found string "ten": invalid syntax: not a number
}

// OnChange hears each repair, with the call's context and the function's
// name, for metrics.
func ExampleOptions_NewChatTools() {
	tools, err := openaicoerce.Options{
		OnChange: func(ctx context.Context, tool string, c coerce.Change) {
			fmt.Printf("%s %s: %s -> %s (%s)\n", tool, c.Path, c.Found, c.Declared, c.Rule)
		},
	}.NewChatTools([]openai.ChatCompletionToolUnionParam{searchTool})
	if err != nil {
		log.Fatal(err)
	}

	var call openai.ChatCompletionMessageToolCallUnion
	call.Function.Name, call.Function.Arguments = "search", `{"tags": ["go"], "limit": "10"}`
	args, err := tools.Arguments(context.Background(), call)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(string(args))
	// Output:
	// search /limit: string -> integer (number-from-text)
	// {"tags": ["go"], "limit": 10}
}

// A stream of a reply: each chunk is added as the SDK's streaming client
// gives it, OnPreview is shown the arguments so far, and Close decodes the
// call once the reply has ended (here with finish_reason "tool_calls").
func ExampleChatTools_Stream() {
	tools, err := openaicoerce.Options{
		OnPreview: func(ctx context.Context, call openaicoerce.StreamedCall, p coerce.Partial) {
			fmt.Println(call.ID, p.Args, p.Open)
		},
	}.NewChatTools([]openai.ChatCompletionToolUnionParam{searchTool})
	if err != nil {
		log.Fatal(err)
	}

	ctx := context.Background()
	calls := tools.Stream(ctx)
	for _, data := range []string{
		`{"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "id": "call_1", "type": "function", "function": {"name": "search", "arguments": ""}}]}}]}`,
		`{"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "function": {"arguments": "{\"limit\": \"10\", \"tags\": [\"go\", \"gen"}}]}}]}`,
		`{"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "function": {"arguments": "erics\"]}"}}]}}]}`,
		`{"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}`,
	} {
		var chunk openai.ChatCompletionChunk
		if err := json.Unmarshal([]byte(data), &chunk); err != nil {
			log.Fatal(err)
		}
		calls.Add(chunk)
	}
	for _, call := range calls.Close() {
		var in SearchArgs
		if err := calls.Unmarshal(call, &in); err != nil {
			log.Fatal(err) // a program sends openaicoerce.Feedback(err) as the tool message
		}
		fmt.Printf("%s %s: tags=%q limit=%d\n", call.ID, call.Name, in.Tags, in.Limit)
	}
	// Output:
	// call_1 map[limit:10 tags:[go gen]] [ /tags /tags/1]
	// call_1 map[limit:10 tags:[go generics]] []
	// call_1 search: tags=["go" "generics"] limit=10
}
