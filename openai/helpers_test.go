package openaicoerce_test

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"
	"github.com/openai/openai-go/v3/shared"
)

// The tests decode response bodies as the API returns them
// (testdata/chat_completion.json, testdata/response.json) with the SDK's
// own types, in process: what a program's client.Chat.Completions.New or
// client.Responses.New returns, without a network.

// searchParams are the parameters of search_messages, written as programs
// write them for the SDK: a JSON Schema in a map. channel is a string that
// holds JSON text; limit is nullable, as strict mode writes optional values.
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

// deleteParams are the parameters of delete_messages, in the Responses
// API namespace moderation.
const deleteParams = `{
	"type": "object",
	"properties": {"ids": {"type": "array", "items": {"type": "integer"}}},
	"required": ["ids"],
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

type deleteArgs struct {
	IDs []int64 `json:"ids"`
}

// wantSearch is what the recorded calls mean: both hold integers beyond
// 2^53, which must arrive with every digit.
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

func params(t testing.TB, text string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(text), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func chatTools(t testing.TB) []openai.ChatCompletionToolUnionParam {
	return []openai.ChatCompletionToolUnionParam{
		openai.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{
			Name:        "search_messages",
			Description: openai.String("Search the messages of a channel."),
			Parameters:  params(t, searchParams),
			Strict:      openai.Bool(true),
		}),
		openai.ChatCompletionCustomTool(openai.ChatCompletionCustomToolCustomParam{Name: "run_sql"}),
	}
}

func responseTools(t testing.TB) []responses.ToolUnionParam {
	return []responses.ToolUnionParam{
		{OfFunction: &responses.FunctionToolParam{
			Name:       "search_messages",
			Parameters: params(t, searchParams),
			Strict:     openai.Bool(true),
		}},
		{OfNamespace: &responses.NamespaceToolParam{
			Name:        "moderation",
			Description: "Moderate a channel.",
			Tools: []responses.NamespaceToolToolUnionParam{{OfFunction: &responses.NamespaceToolToolFunctionParam{
				Name:       "delete_messages",
				Parameters: params(t, deleteParams),
			}}},
		}},
		{OfWebSearch: &responses.WebSearchToolParam{Type: responses.WebSearchToolTypeWebSearch}},
	}
}

// recorded reads a recorded body. With arguments, the arguments of its
// first tool call are replaced by them, as the model might have sent them.
func recorded(t testing.TB, file string, arguments ...string) []byte {
	t.Helper()
	body, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if len(arguments) == 0 {
		return body
	}
	var m map[string]any
	d := json.NewDecoder(bytes.NewReader(body))
	d.UseNumber()
	if err := d.Decode(&m); err != nil {
		t.Fatal(err)
	}
	if choices, ok := m["choices"].([]any); ok {
		call := choices[0].(map[string]any)["message"].(map[string]any)["tool_calls"].([]any)[0]
		call.(map[string]any)["function"].(map[string]any)["arguments"] = arguments[0]
	} else {
		m["output"].([]any)[0].(map[string]any)["arguments"] = arguments[0]
	}
	body, err = json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return body
}

// chatCall decodes a recorded Chat Completions body with the SDK and
// returns its first tool call.
func chatCall(t testing.TB, body []byte) openai.ChatCompletionMessageToolCallUnion {
	t.Helper()
	var c openai.ChatCompletion
	if err := json.Unmarshal(body, &c); err != nil {
		t.Fatal(err)
	}
	return c.Choices[0].Message.ToolCalls[0]
}

// responseCalls decodes a recorded Responses API body with the SDK and
// returns its function calls.
func responseCalls(t testing.TB, body []byte) []responses.ResponseFunctionToolCall {
	t.Helper()
	var r responses.Response
	if err := json.Unmarshal(body, &r); err != nil {
		t.Fatal(err)
	}
	var calls []responses.ResponseFunctionToolCall
	for _, item := range r.Output {
		if item.Type == "function_call" {
			calls = append(calls, item.AsFunctionCall())
		}
	}
	return calls
}

func mustJSON(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
