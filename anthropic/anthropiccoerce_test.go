package anthropiccoerce_test

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

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/coerce-go/coerce"
	"github.com/coerce-go/coerce/anthropic"
)

// The recorded reply breaks every parameter in its own way: an object where
// a string is declared (holding an integer beyond 2^53), an array and an
// object as JSON text (the object's integer as "7" inside it), an integer
// as a string, one beyond 2^53 as a string, and a boolean as "false".
// encoding/json refuses it; Unmarshal gives what it means.
func TestToolsRecordedMessage(t *testing.T) {
	use := toolUse(t, recorded(t))
	var plain searchArgs
	if err := json.Unmarshal(use.Input, &plain); err == nil {
		t.Fatal("encoding/json decoded the broken input")
	}

	tools, err := anthropiccoerce.NewTools([]anthropic.ToolUnionParam{
		{OfTool: &anthropic.ToolParam{Name: "search_messages", InputSchema: inputSchema(t)}},
		{OfWebSearchTool20250305: &anthropic.WebSearchTool20250305Param{}},
	})
	if err != nil {
		t.Fatal(err)
	}
	var in searchArgs
	if err := tools.Unmarshal(t.Context(), use, &in); err != nil {
		t.Fatal(err)
	}
	if want := wantSearch(); !reflect.DeepEqual(in, want) {
		t.Errorf("got %+v, want %+v", in, want)
	}

	// The repaired text decodes with encoding/json alone and keeps every
	// digit.
	raw, err := tools.Input(t.Context(), use)
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
}

// The beta API's block holds its input as a Go value with float64 numbers;
// BetaTools reads the text the API sent, so the digits survive.
func TestBetaToolsRecordedMessage(t *testing.T) {
	use := betaToolUse(t, recorded(t))
	tools, err := anthropiccoerce.NewBetaTools([]anthropic.BetaToolUnionParam{
		{OfTool: &anthropic.BetaToolParam{Name: "search_messages", InputSchema: betaInputSchema(t)}},
	})
	if err != nil {
		t.Fatal(err)
	}
	var in searchArgs
	if err := tools.Unmarshal(t.Context(), use, &in); err != nil {
		t.Fatal(err)
	}
	if want := wantSearch(); !reflect.DeepEqual(in, want) {
		t.Errorf("got %+v, want %+v", in, want)
	}

	// A block built in Go has no API text: its Input is encoded. It lacks
	// the required parameters, which fails it (with the repaired text),
	// and the feedback for the model is one call away.
	built := anthropic.BetaToolUseBlock{Name: "search_messages", Input: map[string]any{"tags": `["a"]`}}
	raw, err := tools.Input(t.Context(), built)
	var ie *anthropiccoerce.InputError
	if string(raw) != `{"tags":["a"]}` || !errors.As(err, &ie) || !errors.Is(err, coerce.ErrMissing) || ie.Tool != "search_messages" {
		t.Errorf("got %s, %v", raw, err)
	}
	if fb := anthropiccoerce.Feedback(err); !strings.Contains(fb, "/channel: missing, and required: a string.") {
		t.Errorf("feedback:\n%s", fb)
	}
}

// The tool runner, driven by the SDK's client against recorded replies,
// runs a wrapped tool with the input repaired; unwrapped, the same tool
// fails and the runner sends the model its error.
func TestRunnerRepairsInput(t *testing.T) {
	a := newAPI(t)
	got := make(chan searchArgs, 1)

	results := a.run(t, []anthropic.BetaTool{searchTool(t, got)})
	if len(results) != 1 || results[0]["is_error"] != true {
		t.Fatalf("without coercion the runner sent %v, want the tool's error", results)
	}
	if !strings.Contains(string(mustJSON(t, results[0]["content"])), "failed to parse tool input") {
		t.Errorf("got %v", results[0]["content"])
	}

	results = a.run(t, anthropiccoerce.WrapTools(searchTool(t, got)))
	if len(results) != 1 || results[0]["is_error"] == true {
		t.Fatalf("the runner sent %v", results)
	}
	// The runner rounds integers beyond 2^53 that the model sent as
	// numbers before any tool sees them (TestRunnerRoundsBigIntegers): the
	// guild_id inside channel. author_id came as a string, which keeps its
	// digits until coercion makes it an exact integer.
	want := wantSearch()
	want.Channel = `{"guild_id":1458059302022549800,"name":"general"}`
	if in := <-got; !reflect.DeepEqual(in, want) {
		t.Errorf("got %+v, want %+v", in, want)
	}
}

// The tool runner encodes a tool_use block's input from the float64s the
// SDK decoded it into, so a tool, wrapped or not, gets an integer beyond
// 2^53 rounded: 1458059302022549698 becomes 1458059302022549800. This test
// documents that behaviour of SDK v1.84.0, which the package doc and README
// describe; if it fails, the SDK now keeps the digits, and they should say
// so.
func TestRunnerRoundsBigIntegers(t *testing.T) {
	a := newAPI(t)
	a.setInput(json.RawMessage(`{"channel": "c", "tags": [], "limit": null, "author_id": 1458059302022549699,
		"include_bots": false, "window": {"from": "x", "days": 1}}`))
	got := make(chan searchArgs, 1)
	a.run(t, anthropiccoerce.WrapTools(searchTool(t, got)))
	if in := <-got; in.AuthorID == 1458059302022549699 {
		t.Errorf("the runner kept the digits of author_id: update the docs")
	}
}

// A wrapped tool keeps the name, description and schema the model is
// shown, and reports each repair, and each failure, with the call's
// context and the tool's name. What cannot be repaired reaches the tool as
// sent.
func TestWrappedToolReports(t *testing.T) {
	type key string
	ctx := context.WithValue(t.Context(), key("request"), "r-1")
	var mu sync.Mutex
	var heard []string
	var logged bytes.Buffer
	got := make(chan searchArgs, 1)
	inner := searchTool(t, got)
	tool := anthropiccoerce.Options{
		OnChange: func(ctx context.Context, tool string, c coerce.Change) {
			mu.Lock()
			defer mu.Unlock()
			heard = append(heard, ctx.Value(key("request")).(string)+" "+tool+" "+c.Path+" "+c.Rule.String())
		},
		OnError: func(ctx context.Context, tool string, err error) {
			mu.Lock()
			defer mu.Unlock()
			heard = append(heard, ctx.Value(key("request")).(string)+" "+tool+" "+err.Error())
		},
		Logger: slog.New(slog.NewTextHandler(&logged, &slog.HandlerOptions{Level: slog.LevelDebug})),
	}.WrapTool(inner)

	if tool.Name() != inner.Name() || tool.Description() != inner.Description() ||
		!reflect.DeepEqual(mustJSON(t, tool.InputSchema()), mustJSON(t, inner.InputSchema())) {
		t.Error("the wrapped tool is declared otherwise than the tool")
	}

	_, err := tool.Execute(ctx, json.RawMessage(`{"tags": "[\"a\"]", "limit": "ten"}`))
	if err == nil || !strings.Contains(err.Error(), "failed to parse tool input") {
		t.Errorf("got %v, want the tool's own error", err)
	}
	want := []string{
		"r-1 search_messages /tags json-text",
		`r-1 search_messages coerce: /limit: want integer | null, found string "ten": invalid syntax: not a number`,
	}
	if !reflect.DeepEqual(heard, want) {
		t.Errorf("heard %q, want %q", heard, want)
	}
	if !strings.Contains(logged.String(), "tool=search_messages") || !strings.Contains(logged.String(), "change.path=/tags") {
		t.Errorf("logged %q", logged.String())
	}
}

// A schema coerce cannot read is reported at each call, and the tool runs
// with the input as sent.
func TestWrappedToolBadSchema(t *testing.T) {
	var schema anthropic.BetaToolInputSchemaParam
	if err := schema.UnmarshalJSON([]byte(`{"type": "object", "properties": {"a": {"type": "no-such-type"}}}`)); err != nil {
		t.Fatal(err)
	}
	var sent json.RawMessage
	inner := rawTool{name: "bad", schema: schema, got: &sent}
	var reported error
	tool := anthropiccoerce.Options{OnError: func(_ context.Context, _ string, err error) { reported = err }}.WrapTool(inner)
	if _, err := tool.Execute(t.Context(), json.RawMessage(`{"a": "1"}`)); err != nil {
		t.Fatal(err)
	}
	if reported == nil || !strings.Contains(reported.Error(), `"bad"`) || string(sent) != `{"a": "1"}` {
		t.Errorf("reported %v, the tool got %s", reported, sent)
	}
	if _, err := anthropiccoerce.NewBetaTools([]anthropic.BetaToolUnionParam{{OfTool: &anthropic.BetaToolParam{Name: "bad", InputSchema: schema}}}); err == nil {
		t.Error("NewBetaTools accepted a schema it cannot read")
	}
}

// rawTool is a BetaTool of its own making, as a program may write one: it
// keeps the input it is given.
type rawTool struct {
	name   string
	schema anthropic.BetaToolInputSchemaParam
	got    *json.RawMessage
}

func (r rawTool) Name() string                                    { return r.name }
func (r rawTool) Description() string                             { return "" }
func (r rawTool) InputSchema() anthropic.BetaToolInputSchemaParam { return r.schema }
func (r rawTool) Execute(_ context.Context, input json.RawMessage) ([]anthropic.BetaToolResultBlockParamContentUnion, error) {
	*r.got = input
	return nil, nil
}

// Conforming input reaches the tool byte for byte, and nobody hears of a
// change.
func TestConformingInputUntouched(t *testing.T) {
	conforming := json.RawMessage(`{"channel": "{\"guild_id\": 1458059302022549698}", "tags": ["a"], "limit": null,
		"author_id": 1458059302022549699, "include_bots": true, "window": {"from": "x", "days": 1}}`)
	var sent json.RawMessage
	heard := 0
	opts := anthropiccoerce.Options{
		OnChange: func(context.Context, string, coerce.Change) { heard++ },
		OnError:  func(context.Context, string, error) { heard++ },
	}
	tool := opts.WrapTool(rawTool{name: "search_messages", schema: betaInputSchema(t), got: &sent})
	if _, err := tool.Execute(t.Context(), conforming); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(sent, conforming) {
		t.Errorf("the tool got %s", sent)
	}

	tools, err := opts.NewTools([]anthropic.ToolUnionParam{{OfTool: &anthropic.ToolParam{Name: "search_messages", InputSchema: inputSchema(t)}}})
	if err != nil {
		t.Fatal(err)
	}
	use := toolUse(t, recorded(t, conforming))
	raw, err := tools.Input(t.Context(), use)
	if err != nil || !bytes.Equal(raw, use.Input) {
		t.Errorf("got %s, %v; want the input as sent", raw, err)
	}
	if heard > 0 {
		t.Errorf("heard %d reports", heard)
	}
}

// Unmarshal reports and returns what cannot be fixed, writing nothing; a
// tool the registry does not know is shaped by v's Go type alone; a tool
// declared twice fails at start-up.
func TestToolsErrors(t *testing.T) {
	var reported []string
	tools, err := anthropiccoerce.Options{OnError: func(_ context.Context, tool string, err error) {
		reported = append(reported, tool)
	}}.NewTools([]anthropic.ToolUnionParam{{OfTool: &anthropic.ToolParam{Name: "search_messages", InputSchema: inputSchema(t)}}})
	if err != nil {
		t.Fatal(err)
	}
	use := toolUse(t, recorded(t, json.RawMessage(`{"tags": "a, b"}`)))
	in := searchArgs{Channel: "kept"}
	err = tools.Unmarshal(t.Context(), use, &in)
	var ce *coerce.Error
	if !errors.As(err, &ce) || ce.Path != "/tags" || !errors.Is(err, coerce.ErrKind) {
		t.Errorf("got %v, want the *coerce.Error of /tags", err)
	}
	if in.Channel != "kept" || in.Tags != nil {
		t.Errorf("Unmarshal wrote %+v", in)
	}
	if !reflect.DeepEqual(reported, []string{"search_messages"}) {
		t.Errorf("reported %q", reported)
	}

	unknown := anthropic.ToolUseBlock{Name: "lookup", Input: json.RawMessage(`{"ids": "[\"1\", 2]"}`)}
	if raw, err := tools.Input(t.Context(), unknown); err != nil || !bytes.Equal(raw, unknown.Input) {
		t.Errorf("got %s, %v; want the input as sent", raw, err)
	}
	var ids struct {
		IDs []int `json:"ids"`
	}
	if err := tools.Unmarshal(t.Context(), unknown, &ids); err != nil || !reflect.DeepEqual(ids.IDs, []int{1, 2}) {
		t.Errorf("got %v, %v", ids.IDs, err)
	}

	twice := anthropic.ToolUnionParam{OfTool: &anthropic.ToolParam{Name: "search_messages", InputSchema: inputSchema(t)}}
	if _, err := anthropiccoerce.NewTools([]anthropic.ToolUnionParam{twice, twice}); err == nil {
		t.Error("a tool declared twice was accepted")
	}
}

// The runner runs the tools of one turn concurrently: one wrapped tool,
// and one registry, serve concurrent calls.
func TestConcurrentCalls(t *testing.T) {
	var mu sync.Mutex
	changes := 0
	opts := anthropiccoerce.Options{OnChange: func(context.Context, string, coerce.Change) {
		mu.Lock()
		changes++
		mu.Unlock()
	}}
	got := make(chan searchArgs, 160)
	tool := opts.WrapTool(searchTool(t, got))
	tools, err := opts.NewTools([]anthropic.ToolUnionParam{{OfTool: &anthropic.ToolParam{Name: "search_messages", InputSchema: inputSchema(t)}}})
	if err != nil {
		t.Fatal(err)
	}
	use := toolUse(t, recorded(t))
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 20 {
				if _, err := tool.Execute(context.Background(), use.Input); err != nil {
					t.Error(err)
					return
				}
				var in searchArgs
				if err := tools.Unmarshal(context.Background(), use, &in); err != nil || !reflect.DeepEqual(in, wantSearch()) {
					t.Errorf("got %+v, %v", in, err)
					return
				}
			}
		})
	}
	wg.Wait()
	close(got)
	for in := range got {
		if !reflect.DeepEqual(in, wantSearch()) {
			t.Fatalf("the tool got %+v", in)
		}
	}
	if changes == 0 {
		t.Error("no change heard")
	}
}

// A name declared twice is an error whatever the first declaration holds: an
// input schema that does not compile used to leave no entry behind, so that
// only the schema's error was reported; one without properties (a tool that
// takes no input) is a declaration too, as openaicoerce's regression of the
// same name shows.
func TestDuplicateNameAfterSchemaThatDoesNotCompile(t *testing.T) {
	second := anthropic.ToolParam{Name: "search_messages", InputSchema: inputSchema(t)}
	for _, first := range []anthropic.ToolInputSchemaParam{
		{}, // no properties
		{ExtraFields: map[string]any{"additionalProperties": "not a schema"}},
	} {
		tools := []anthropic.ToolUnionParam{{OfTool: &anthropic.ToolParam{Name: "search_messages", InputSchema: first}}, {OfTool: &second}}
		if _, err := anthropiccoerce.NewTools(tools); err == nil || !strings.Contains(err.Error(), "declared twice") {
			t.Errorf("first schema %+v: got %v, want a tool declared twice", first, err)
		}
		beta := []anthropic.BetaToolUnionParam{
			{OfTool: &anthropic.BetaToolParam{Name: "search_messages", InputSchema: anthropic.BetaToolInputSchemaParam{ExtraFields: first.ExtraFields}}},
			{OfTool: &anthropic.BetaToolParam{Name: "search_messages", InputSchema: anthropic.BetaToolInputSchemaParam{Properties: second.InputSchema.Properties}}},
		}
		if _, err := anthropiccoerce.NewBetaTools(beta); err == nil || !strings.Contains(err.Error(), "declared twice") {
			t.Errorf("beta, first schema %+v: got %v, want a tool declared twice", first, err)
		}
	}
}
