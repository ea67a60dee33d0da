package openaicoerce_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/coerce-go/coerce"
	"github.com/coerce-go/coerce/openai"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"
	"github.com/openai/openai-go/v3/shared"
)

// The recorded Chat Completions reply breaks every argument in its own way:
// an object where a string is declared (holding an integer beyond 2^53), an
// array and an object as JSON text (the object's integer as "7" inside the
// text), an integer as a string, one beyond 2^53 as a string, and a boolean
// as "false". encoding/json refuses it; Unmarshal gives what it means.
func TestChatRecordedCall(t *testing.T) {
	call := chatCall(t, recorded(t, "testdata/chat_completion.json"))
	var plain searchArgs
	if err := json.Unmarshal([]byte(call.Function.Arguments), &plain); err == nil {
		t.Fatal("encoding/json decoded the broken arguments")
	}

	tools, err := openaicoerce.NewChatTools(chatTools(t))
	if err != nil {
		t.Fatal(err)
	}
	var in searchArgs
	if err := tools.Unmarshal(t.Context(), call, &in); err != nil {
		t.Fatal(err)
	}
	if want := wantSearch(); !reflect.DeepEqual(in, want) {
		t.Errorf("got %+v, want %+v", in, want)
	}

	// The repaired text decodes with encoding/json alone, and keeps the
	// integers' digits as text.
	raw, err := tools.Arguments(t.Context(), call)
	if err != nil {
		t.Fatal(err)
	}
	in = searchArgs{}
	if err := json.Unmarshal(raw, &in); err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	if want := wantSearch(); !reflect.DeepEqual(in, want) {
		t.Errorf("got %+v, want %+v", in, want)
	}
	for _, digits := range []string{`\"guild_id\":1458059302022549698`, `"author_id": 1458059302022549699`} {
		if !bytes.Contains(raw, []byte(digits)) {
			t.Errorf("%s lost %s", raw, digits)
		}
	}
}

// The recorded Responses API reply: the same call, its window in a
// markdown fence, and a call to a function inside a namespace tool whose
// integers beyond 2^53 arrive as JSON text.
func TestResponseRecordedCalls(t *testing.T) {
	calls := responseCalls(t, recorded(t, "testdata/response.json"))
	if len(calls) != 2 {
		t.Fatalf("got %d function calls", len(calls))
	}
	tools, err := openaicoerce.NewResponseTools(responseTools(t))
	if err != nil {
		t.Fatal(err)
	}
	var in searchArgs
	if err := tools.Unmarshal(t.Context(), calls[0], &in); err != nil {
		t.Fatal(err)
	}
	if want := wantSearch(); !reflect.DeepEqual(in, want) {
		t.Errorf("got %+v, want %+v", in, want)
	}

	if calls[1].Namespace != "moderation" {
		t.Fatalf("namespace %q", calls[1].Namespace)
	}
	var del deleteArgs
	if err := tools.Unmarshal(t.Context(), calls[1], &del); err != nil {
		t.Fatal(err)
	}
	if want := []int64{1458059302022549698, 1458059302022549699}; !reflect.DeepEqual(del.IDs, want) {
		t.Errorf("got %v, want %v", del.IDs, want)
	}
	raw, err := tools.Arguments(t.Context(), calls[1])
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"ids":[1458059302022549698,1458059302022549699]}`; string(raw) != want {
		t.Errorf("got %s, want %s", raw, want)
	}
}

// The same name outside its namespace is another function, which the
// registry does not know: its arguments pass through.
func TestResponseNamespaceIsPartOfTheName(t *testing.T) {
	tools, err := openaicoerce.NewResponseTools(responseTools(t))
	if err != nil {
		t.Fatal(err)
	}
	call := responses.ResponseFunctionToolCall{Name: "delete_messages", Arguments: `{"ids":"[1]"}`}
	raw, err := tools.Arguments(t.Context(), call)
	if err != nil || string(raw) != call.Arguments {
		t.Errorf("got %s, %v; want the arguments as sent", raw, err)
	}
	call.Namespace = "moderation"
	if raw, err = tools.Arguments(t.Context(), call); err != nil || string(raw) != `{"ids":[1]}` {
		t.Errorf("got %s, %v", raw, err)
	}
}

// Conforming arguments come back as the very bytes the model sent, and
// nobody hears of a change.
func TestConformingCallUntouched(t *testing.T) {
	conforming := `{"channel": "{\"guild_id\": 1458059302022549698}", "tags": ["a"], "limit": null,
		"author_id": 1458059302022549699, "include_bots": true, "window": {"from": "x", "days": 1}}`
	var heard []string
	tools, err := openaicoerce.Options{
		OnChange: func(_ context.Context, tool string, c coerce.Change) { heard = append(heard, c.Path) },
		OnError:  func(_ context.Context, tool string, err error) { heard = append(heard, err.Error()) },
	}.NewChatTools(chatTools(t))
	if err != nil {
		t.Fatal(err)
	}
	call := chatCall(t, recorded(t, "testdata/chat_completion.json", conforming))
	raw, err := tools.Arguments(t.Context(), call)
	if err != nil || string(raw) != conforming {
		t.Errorf("got %s, %v; want the arguments as sent", raw, err)
	}
	var in, plain searchArgs
	if err := tools.Unmarshal(t.Context(), call, &in); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(conforming), &plain); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(in, plain) {
		t.Errorf("got %+v, encoding/json %+v", in, plain)
	}
	if len(heard) > 0 {
		t.Errorf("heard %q", heard)
	}
}

type key string

// OnChange and Logger hear each repair, and OnError each failure, with the
// call's context and the function's name; the error comes back to the
// caller too, and Unmarshal writes nothing.
func TestReports(t *testing.T) {
	ctx := context.WithValue(t.Context(), key("request"), "r-1")
	type heard struct{ ctx, tool, what string }
	var got []heard
	var logged bytes.Buffer
	tools, err := openaicoerce.Options{
		OnChange: func(ctx context.Context, tool string, c coerce.Change) {
			got = append(got, heard{ctx.Value(key("request")).(string), tool, c.Path + " " + c.Rule.String()})
		},
		OnError: func(ctx context.Context, tool string, err error) {
			got = append(got, heard{ctx.Value(key("request")).(string), tool, err.Error()})
		},
		Logger: slog.New(slog.NewTextHandler(&logged, &slog.HandlerOptions{Level: slog.LevelDebug})),
	}.NewResponseTools(responseTools(t))
	if err != nil {
		t.Fatal(err)
	}

	call := responseCalls(t, recorded(t, "testdata/response.json", `{"tags": "[\"a\"]", "limit": "ten"}`))[0]
	raw, err := tools.Arguments(ctx, call)
	var ce *coerce.Error
	if !errors.As(err, &ce) || ce.Path != "/limit" || !errors.Is(err, coerce.ErrSyntax) {
		t.Fatalf("got %v, want the *coerce.Error of /limit", err)
	}
	if want := `{"tags": ["a"], "limit": "ten"}`; string(raw) != want {
		t.Errorf("got %s, want %s: the tags repaired, the limit as sent", raw, want)
	}
	want := []heard{
		{"r-1", "search_messages", "/tags json-text"},
		{"r-1", "search_messages", err.Error()},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("heard %q, want %q", got, want)
	}
	if !strings.Contains(logged.String(), "tool=search_messages") || !strings.Contains(logged.String(), "change.path=/tags") {
		t.Errorf("logged %q", logged.String())
	}

	got = nil
	in := searchArgs{Channel: "kept"}
	if err := tools.Unmarshal(ctx, call, &in); err == nil {
		t.Fatal("Unmarshal accepted an unfixable limit")
	}
	if in.Channel != "kept" || in.Tags != nil {
		t.Errorf("Unmarshal wrote %+v", in)
	}
	if len(got) != 2 || got[1].what != err.Error() {
		t.Errorf("heard %q", got)
	}

	// A namespaced function is reported under its full name.
	got = nil
	if _, err := tools.Arguments(ctx, responses.ResponseFunctionToolCall{Namespace: "moderation", Name: "delete_messages", Arguments: `{"ids": "[1]"}`}); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].tool != "moderation.delete_messages" {
		t.Errorf("heard %q", got)
	}
}

// Unmarshal repairs what v's Go type declares, where the schema leaves it
// open: here a function the registry does not know, whose arguments
// Arguments passes through as sent.
func TestUnknownFunction(t *testing.T) {
	tools, err := openaicoerce.NewChatTools(nil)
	if err != nil {
		t.Fatal(err)
	}
	var call openai.ChatCompletionMessageToolCallUnion
	call.Function.Name, call.Function.Arguments = "lookup", `{"ids": "[\"1\", 2]"}`
	raw, err := tools.Arguments(t.Context(), call)
	if err != nil || string(raw) != call.Function.Arguments {
		t.Errorf("got %s, %v; want the arguments as sent", raw, err)
	}
	var in struct {
		IDs []int `json:"ids"`
	}
	if err := tools.Unmarshal(t.Context(), call, &in); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(in.IDs, []int{1, 2}) {
		t.Errorf("got %v", in.IDs)
	}
}

// A custom tool's input is free text: asking for its arguments is a
// mistake the caller hears of, not a silent pass.
func TestCustomToolCall(t *testing.T) {
	body := []byte(`{"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "gpt-5",
		"choices": [{"index": 0, "finish_reason": "tool_calls", "message": {"role": "assistant", "content": null,
		"tool_calls": [{"id": "call_1", "type": "custom", "custom": {"name": "run_sql", "input": "SELECT 1"}}]}}]}`)
	var tool string
	tools, err := openaicoerce.Options{OnError: func(_ context.Context, name string, _ error) { tool = name }}.NewChatTools(chatTools(t))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tools.Arguments(t.Context(), chatCall(t, body)); err == nil || !strings.Contains(err.Error(), "custom") {
		t.Errorf("got %v, want an error about a custom tool call", err)
	}
	if tool != "run_sql" {
		t.Errorf("OnError heard %q", tool)
	}
}

// Mistakes in the program's own tool list fail at start-up.
func TestNewToolsErrors(t *testing.T) {
	search := openai.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{Name: "search", Parameters: params(t, searchParams)})
	if _, err := openaicoerce.NewChatTools([]openai.ChatCompletionToolUnionParam{search, search}); err == nil {
		t.Error("a function declared twice was accepted")
	}
	bad := openai.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{Name: "bad", Parameters: shared.FunctionParameters{"type": "no-such-type"}})
	if _, err := openaicoerce.NewChatTools([]openai.ChatCompletionToolUnionParam{bad}); err == nil || !strings.Contains(err.Error(), `"bad"`) {
		t.Errorf("got %v, want an error naming the function", err)
	}
	// A function without parameters takes what it is given.
	none := openai.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{Name: "now"})
	tools, err := openaicoerce.NewChatTools([]openai.ChatCompletionToolUnionParam{none})
	if err != nil {
		t.Fatal(err)
	}
	var call openai.ChatCompletionMessageToolCallUnion
	call.Function.Name, call.Function.Arguments = "now", `{}`
	if raw, err := tools.Arguments(t.Context(), call); err != nil || string(raw) != `{}` {
		t.Errorf("got %s, %v", raw, err)
	}
}

// Arguments that are not a JSON object (cut off by max_tokens) are an
// error, returned and reported.
func TestTruncatedArguments(t *testing.T) {
	var reported error
	tools, err := openaicoerce.Options{OnError: func(_ context.Context, _ string, err error) { reported = err }}.NewChatTools(chatTools(t))
	if err != nil {
		t.Fatal(err)
	}
	call := chatCall(t, recorded(t, "testdata/chat_completion.json", `{"tags": ["a", "b`))
	var in searchArgs
	if err := tools.Unmarshal(t.Context(), call, &in); err == nil || reported == nil {
		t.Errorf("got %v, reported %v; want an error", err, reported)
	}
}

// One registry serves concurrent calls, as one built at start-up does.
func TestConcurrentCalls(t *testing.T) {
	var mu sync.Mutex
	changes := 0
	tools, err := openaicoerce.Options{OnChange: func(context.Context, string, coerce.Change) {
		mu.Lock()
		changes++
		mu.Unlock()
	}}.NewChatTools(chatTools(t))
	if err != nil {
		t.Fatal(err)
	}
	call := chatCall(t, recorded(t, "testdata/chat_completion.json"))
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 20 {
				var in searchArgs
				if err := tools.Unmarshal(context.Background(), call, &in); err != nil {
					t.Error(err)
					return
				}
				if !reflect.DeepEqual(in, wantSearch()) {
					t.Errorf("got %+v", in)
					return
				}
			}
		})
	}
	wg.Wait()
	if changes == 0 {
		t.Error("no change heard")
	}
}

// A name declared twice is an error whatever the first declaration holds:
// a function without parameters left no schema behind, so a second
// function of that name was accepted, and its calls repaired against the
// second declaration's parameters.
func TestDuplicateNameAfterFunctionWithoutParameters(t *testing.T) {
	search := shared.FunctionDefinitionParam{Name: "search", Parameters: params(t, searchParams)}
	for _, first := range []shared.FunctionDefinitionParam{
		{Name: "search"}, // no parameters
		{Name: "search", Parameters: shared.FunctionParameters{}},
	} {
		chat := []openai.ChatCompletionToolUnionParam{openai.ChatCompletionFunctionTool(first), openai.ChatCompletionFunctionTool(search)}
		if _, err := openaicoerce.NewChatTools(chat); err == nil || !strings.Contains(err.Error(), "declared twice") {
			t.Errorf("chat, first parameters %v: got %v, want a function declared twice", first.Parameters, err)
		}
		resp := []responses.ToolUnionParam{
			{OfFunction: &responses.FunctionToolParam{Name: "search", Parameters: map[string]any(first.Parameters)}},
			{OfFunction: &responses.FunctionToolParam{Name: "search", Parameters: map[string]any(search.Parameters)}},
		}
		if _, err := openaicoerce.NewResponseTools(resp); err == nil || !strings.Contains(err.Error(), "declared twice") {
			t.Errorf("responses, first parameters %v: got %v, want a function declared twice", first.Parameters, err)
		}
	}
	// Nor does a first declaration whose schema does not compile hide the
	// second: both mistakes are reported.
	bad := shared.FunctionDefinitionParam{Name: "search", Parameters: shared.FunctionParameters{"type": "no-such-type"}}
	chat := []openai.ChatCompletionToolUnionParam{openai.ChatCompletionFunctionTool(bad), openai.ChatCompletionFunctionTool(search)}
	if _, err := openaicoerce.NewChatTools(chat); err == nil || !strings.Contains(err.Error(), "declared twice") {
		t.Errorf("got %v, want a function declared twice beside the schema's error", err)
	}
}
