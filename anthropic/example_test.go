package anthropiccoerce_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/toolrunner"
	"github.com/coerce-go/coerce"
	"github.com/coerce-go/coerce/anthropic"
)

// SearchArgs is what the search tool takes: tags an array, limit an
// integer.
type SearchArgs struct {
	Tags  []string `json:"tags" jsonschema:"required"`
	Limit int      `json:"limit" jsonschema:"required"`
}

// A tool for the tool runner, wrapped. The runner calls Execute with the
// input of the model's tool_use block; here the model sent the array as
// JSON text and the integer as a string, which the tool's json.Unmarshal
// would reject: failed to parse tool input: json: cannot unmarshal string
// into Go struct field SearchArgs.tags of type []string.
func ExampleWrapTools() {
	search, err := toolrunner.NewBetaToolFromJSONSchema("search", "Search the index.",
		func(ctx context.Context, in SearchArgs) (anthropic.BetaToolResultBlockParamContentUnion, error) {
			text := fmt.Sprintf("tags=%q limit=%d", in.Tags, in.Limit)
			return anthropic.BetaToolResultBlockParamContentUnion{OfText: &anthropic.BetaTextBlockParam{Text: text}}, nil
		})
	if err != nil {
		log.Fatal(err)
	}
	tools := anthropiccoerce.WrapTools(search)
	// runner := client.Beta.Messages.NewToolRunner(tools, params)

	result, err := tools[0].Execute(context.Background(), json.RawMessage(`{"tags": "[\"go\", \"sdk\"]", "limit": "10"}`))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(result[0].OfText.Text)
	// Output:
	// tags=["go" "sdk"] limit=10
}

// A program that handles tool_use blocks itself repairs and decodes each
// with the registry of the tools it declared.
func ExampleTools_Unmarshal() {
	var schema anthropic.ToolInputSchemaParam
	if err := schema.UnmarshalJSON([]byte(`{"type": "object", "properties": {
		"tags": {"type": "array", "items": {"type": "string"}}, "limit": {"type": "integer"}}}`)); err != nil {
		log.Fatal(err)
	}
	declared := []anthropic.ToolUnionParam{{OfTool: &anthropic.ToolParam{Name: "search", InputSchema: schema}}}
	tools, err := anthropiccoerce.NewTools(declared)
	if err != nil {
		log.Fatal(err)
	}

	// A reply of client.Messages.New, as the API sends it.
	var message anthropic.Message
	if err := json.Unmarshal([]byte(`{"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-sonnet-4-6",
		"stop_reason": "tool_use", "usage": {"input_tokens": 1, "output_tokens": 1}, "content": [
		{"type": "tool_use", "id": "toolu_1", "name": "search", "input": {"tags": "[\"go\"]", "limit": "10"}}]}`), &message); err != nil {
		log.Fatal(err)
	}

	for _, block := range message.Content {
		if use, ok := block.AsAny().(anthropic.ToolUseBlock); ok {
			var in SearchArgs
			if err := tools.Unmarshal(context.Background(), use, &in); err != nil {
				log.Fatal(err) // a program sends err.Error() back as the tool_result, with is_error
			}
			fmt.Printf("%s: tags=%q limit=%d\n", use.Name, in.Tags, in.Limit)
		}
	}
	// Output:
	// search: tags=["go"] limit=10
}

// OnError hears what cannot be fixed; the tool then runs with that
// parameter as sent, and fails as it would have. OnChange hears each
// repair, with the call's context and the tool's name.
func ExampleOptions_WrapTool() {
	search, err := toolrunner.NewBetaToolFromJSONSchema("search", "Search the index.",
		func(ctx context.Context, in SearchArgs) (anthropic.BetaToolResultBlockParamContentUnion, error) {
			return anthropic.BetaToolResultBlockParamContentUnion{OfText: &anthropic.BetaTextBlockParam{Text: "ok"}}, nil
		})
	if err != nil {
		log.Fatal(err)
	}
	tool := anthropiccoerce.Options{
		OnChange: func(ctx context.Context, tool string, c coerce.Change) {
			fmt.Printf("%s %s: %s -> %s (%s)\n", tool, c.Path, c.Found, c.Declared, c.Rule)
		},
		OnError: func(ctx context.Context, tool string, err error) {
			fmt.Printf("%s: not coerced: %v\n", tool, err)
		},
	}.WrapTool(search)

	_, err = tool.Execute(context.Background(), json.RawMessage(`{"tags": "[\"go\"]", "limit": "ten"}`))
	fmt.Println(err)
	// Output:
	// search /tags: string -> list[string] (json-text)
	// search: not coerced: coerce: /limit: want integer, found string "ten": invalid syntax: not a number
	// failed to parse tool input: json: cannot unmarshal string into Go struct field SearchArgs.limit of type int
}

// A streamed message: each event is added as the SDK's streaming client
// gives it, OnPreview is shown the input so far, and Close decodes the
// tool_use block once the message has ended (here with stop_reason
// "tool_use").
func ExampleTools_Stream() {
	var schema anthropic.ToolInputSchemaParam
	if err := schema.UnmarshalJSON([]byte(`{"type": "object", "properties": {
		"tags": {"type": "array", "items": {"type": "string"}}, "limit": {"type": "integer"}}}`)); err != nil {
		log.Fatal(err)
	}
	tools, err := anthropiccoerce.Options{
		OnPreview: func(ctx context.Context, call anthropiccoerce.StreamedCall, p coerce.Partial) {
			fmt.Println(call.ID, p.Args, p.Open)
		},
	}.NewTools([]anthropic.ToolUnionParam{{OfTool: &anthropic.ToolParam{Name: "search", InputSchema: schema}}})
	if err != nil {
		log.Fatal(err)
	}

	ctx := context.Background()
	calls := tools.Stream(ctx)
	for _, data := range []string{
		`{"type": "content_block_start", "index": 0, "content_block": {"type": "tool_use", "id": "toolu_1", "name": "search", "input": {}}}`,
		`{"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": "{\"limit\": \"10\", \"tags\": \"[\\\"go\\\", \\\"gen"}}`,
		`{"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": "erics\\\"]\"}"}}`,
		`{"type": "content_block_stop", "index": 0}`,
		`{"type": "message_delta", "delta": {"stop_reason": "tool_use"}, "usage": {"output_tokens": 20}}`,
	} {
		var event anthropic.MessageStreamEventUnion
		if err := json.Unmarshal([]byte(data), &event); err != nil {
			log.Fatal(err)
		}
		calls.Add(event)
	}
	for _, call := range calls.Close() {
		var in SearchArgs
		if err := calls.Unmarshal(call, &in); err != nil {
			log.Fatal(err) // a program sends anthropiccoerce.Feedback(err) as the tool_result, with is_error
		}
		fmt.Printf("%s %s: tags=%q limit=%d\n", call.ID, call.Name, in.Tags, in.Limit)
	}
	// Output:
	// toolu_1 map[limit:10 tags:["go", "gen] [ /tags]
	// toolu_1 map[limit:10 tags:[go generics]] []
	// toolu_1 search: tags=["go" "generics"] limit=10
}
