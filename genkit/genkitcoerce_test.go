package genkitcoerce_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/coerce-go/coerce"
	"github.com/coerce-go/coerce/coercetest"
	genkitcoerce "github.com/coerce-go/coerce/genkit"
	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/genkit"
	"github.com/google/go-cmp/cmp"
)

type filter struct {
	Lang string `json:"lang"`
	Min  int    `json:"min"`
}

// searchInput is the typed input of the search tool: Genkit infers its
// JSON Schema, and decodes what it validated into it.
type searchInput struct {
	Query   string   `json:"query"`
	Limit   int      `json:"limit"`
	Tags    []string `json:"tags"`
	Filter  filter   `json:"filter"`
	Verbose bool     `json:"verbose"`
	Ratio   float64  `json:"ratio"`
	ID      string   `json:"id"`
	Payload string   `json:"payload"` // JSON text of an object
	Fields  string   `json:"fields"`  // JSON text of an array
}

var validSearch = map[string]any{
	"query":   "go generics",
	"limit":   5,
	"tags":    []string{"go", "generics"},
	"filter":  map[string]any{"lang": "go", "min": 2},
	"verbose": true,
	"ratio":   2.5,
	"id":      "42",
	"payload": `{"id":"1"}`,
	"fields":  `["title","body"]`,
}

// optionsSchema is the input schema of the options tool, given with
// ai.WithInputSchema: nullable parameters, a string holding JSON text and a
// union, which a Go struct does not make Genkit infer.
var optionsSchema = map[string]any{
	"type": "object",
	"properties": map[string]any{
		"id":      map[string]any{"type": "string"},
		"enabled": map[string]any{"type": "string"},
		"page":    map[string]any{"type": []any{"integer", "null"}},
		"sort":    map[string]any{"anyOf": []any{map[string]any{"type": "string"}, map[string]any{"type": "array", "items": map[string]any{"type": "string"}}}},
		"options": map[string]any{"type": []any{"object", "null"}, "properties": map[string]any{"depth": map[string]any{"type": "integer"}}},
		"cursor":  map[string]any{"type": []any{"string", "null"}},
		"ids":     map[string]any{"type": "array", "items": map[string]any{"type": "integer"}},
	},
	"required": []any{"id"},
}

var validOptions = map[string]any{
	"id":      "7",
	"enabled": "true",
	"page":    nil,
	"sort":    []any{"name"},
	"options": map[string]any{"depth": 2},
	"cursor":  "",
	"ids":     []any{1, 2},
}

// setup returns a Genkit with no plugins, the scripted models (one decoding
// numbers as float64, one as json.Number) and the tools: search (typed
// input) and options (input schema given), each of which answers with the
// input it received.
func setup(t testing.TB) (g *genkit.Genkit, floats, exact ai.Model, search, options ai.Tool) {
	t.Helper()
	g = genkit.Init(context.Background())
	floats = defineScriptedModel(g, "test/scripted", false)
	exact = defineScriptedModel(g, "test/scripted-exact", true)
	search = genkit.DefineTool(g, "search", "Searches the documents.",
		func(_ *ai.ToolContext, in searchInput) (searchInput, error) { return in, nil })
	options = genkit.DefineTool(g, "options", "Sets options.",
		func(_ *ai.ToolContext, in any) (any, error) { return in, nil },
		ai.WithInputSchema(optionsSchema))
	return g, floats, exact, search, options
}

func TestVariantsReachTheTool(t *testing.T) {
	g, floats, exact, search, options := setup(t)
	repair := genkitcoerce.Middleware()
	// Every form coercetest makes must be among the variants of the tools.
	forms := map[string]bool{}
	for _, f := range strings.Fields(`
		array-as-json-text array-as-spaced-json-text array-as-indented-json-text
		array-as-double-encoded-json-text array-as-fenced-json-text
		object-as-json-text object-as-spaced-json-text object-as-indented-json-text
		object-as-double-encoded-json-text object-as-fenced-json-text
		integer-as-string number-as-string boolean-as-string boolean-as-python-string
		boolean-as-number null-as-empty-string null-as-string json-text-as-object
		json-text-as-array string-as-number string-as-boolean`) {
		forms[f] = true
	}
	defer func() {
		if len(forms) > 0 {
			t.Errorf("no variant of the tools is broken in these forms: %v", slices.Sorted(maps.Keys(forms)))
		}
	}()
	for _, tc := range []struct {
		tool  ai.Tool
		valid map[string]any
		// got decodes the tool's output as the model replies it, and want
		// what the tool must receive, into values to compare.
		got, want func(t *testing.T, text string) any
	}{
		{search, validSearch, decodeAs[searchInput], decodeAs[searchInput]},
		// An input given as a schema reaches the tool as a map, from which
		// Genkit drops null parameters before validating it.
		{options, validOptions, decodeAs[map[string]any], withoutNulls},
	} {
		schema := parseSchema(t, tc.tool.Definition().InputSchema)
		variants := coercetest.Variants(schema, tc.valid)
		if len(variants) == 0 {
			t.Fatalf("%s: no variants", tc.tool.Name())
		}
		for _, v := range variants {
			for _, part := range strings.Split(v.Name, "+") {
				delete(forms, part[strings.LastIndexByte(part, '/')+1:]) // the form is the last segment
			}
		}
		for _, model := range []ai.Model{floats, exact} {
			for _, v := range variants {
				prompt := call(tc.tool.Name(), v.Args)
				t.Run(model.Name()+"/"+tc.tool.Name()+"/"+v.Name, func(t *testing.T) {
					resp, err := genkit.Generate(context.Background(), g, ai.WithModel(model),
						ai.WithTools(tc.tool), ai.WithPrompt(prompt), ai.WithMiddleware(repair))
					if err != nil {
						t.Fatalf("%s\n%v", prompt, err)
					}
					want := tc.want(t, string(mustJSON(t, v.Want)))
					if diff := cmp.Diff(want, tc.got(t, resp.Text())); diff != "" {
						t.Errorf("%s\ntool input differs (-want +got):\n%s", prompt, diff)
					}
				})
			}
		}
	}
}

// TestWithoutMiddlewareGenkitRejects shows that each variant the middleware
// repairs is one that Genkit's validation rejects as sent.
func TestWithoutMiddlewareGenkitRejects(t *testing.T) {
	g, floats, _, search, options := setup(t)
	for _, tc := range []struct {
		tool  ai.Tool
		valid map[string]any
	}{{search, validSearch}, {options, validOptions}} {
		schema := parseSchema(t, tc.tool.Definition().InputSchema)
		for _, v := range coercetest.Variants(schema, tc.valid) {
			prompt := call(tc.tool.Name(), v.Args)
			_, err := genkit.Generate(context.Background(), g, ai.WithModel(floats),
				ai.WithTools(tc.tool), ai.WithPrompt(prompt))
			if err == nil {
				t.Errorf("%s: Genkit accepted %s without the middleware", v.Name, prompt)
			}
		}
	}
}

type ctxKey struct{}

func TestOnError(t *testing.T) {
	g, floats, _, search, _ := setup(t)
	type report struct {
		tool string
		err  error
		ctx  any
	}
	var reports []report
	repair := genkitcoerce.Options{
		KeepSDKErrors: true,
		OnError: func(ctx context.Context, tool string, err error) {
			reports = append(reports, report{tool, err, ctx.Value(ctxKey{})})
		},
	}.Middleware()
	ctx := context.WithValue(context.Background(), ctxKey{}, "call-1")
	prompt := `search {"query": "q", "limit": "five", "tags": "[\"go\"]", "filter": {"lang": "go", "min": 1}, "verbose": true, "ratio": 1, "id": "1", "payload": "{}", "fields": "[]"}`
	_, err := genkit.Generate(ctx, g, ai.WithModel(floats), ai.WithTools(search),
		ai.WithPrompt(prompt), ai.WithMiddleware(repair))

	// The call went on with tags repaired: Genkit's validation reports
	// limit alone.
	if err == nil || !strings.Contains(err.Error(), "limit") || strings.Contains(err.Error(), "tags") {
		t.Errorf("Genkit's error = %v, want one about limit alone", err)
	}
	if len(reports) != 1 {
		t.Fatalf("OnError called %d times, want 1: %v", len(reports), reports)
	}
	r := reports[0]
	var ce *coerce.Error
	if r.tool != "search" || r.ctx != "call-1" || !errors.As(r.err, &ce) || ce.Path != "/limit" || !errors.Is(r.err, coerce.ErrSyntax) {
		t.Errorf("OnError(ctx %v, %q, %v), want the generate call's context, search and a syntax error at /limit", r.ctx, r.tool, r.err)
	}
}

func TestOnChangeAndLogger(t *testing.T) {
	g, floats, _, search, _ := setup(t)
	var (
		mu      sync.Mutex
		changes []string
		inner   int
		logs    bytes.Buffer
	)
	repair := genkitcoerce.Options{
		Coerce: coerce.Options{OnChange: func(coerce.Change) { inner++ }},
		OnChange: func(ctx context.Context, tool string, c coerce.Change) {
			mu.Lock()
			defer mu.Unlock()
			changes = append(changes, ctx.Value(ctxKey{}).(string)+" "+tool+" "+c.Path+" "+c.Rule.String())
		},
		Logger: slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
	}.Middleware()
	ctx := context.WithValue(context.Background(), ctxKey{}, "call-2")
	prompt := `search {"query": "q", "limit": "5", "tags": "[\"go\"]", "filter": {"lang": "go", "min": 1}, "verbose": "true", "ratio": 1, "id": "1", "payload": "{}", "fields": "[]"}`
	if _, err := genkit.Generate(ctx, g, ai.WithModel(floats), ai.WithTools(search),
		ai.WithPrompt(prompt), ai.WithMiddleware(repair)); err != nil {
		t.Fatal(err)
	}

	want := []string{
		"call-2 search /limit number-from-text",
		"call-2 search /tags json-text",
		"call-2 search /verbose boolean-from-text",
	}
	if diff := cmp.Diff(want, changes); diff != "" {
		t.Errorf("OnChange (-want +got):\n%s", diff)
	}
	if inner != len(want) {
		t.Errorf("Options.Coerce.OnChange called %d times, want %d", inner, len(want))
	}
	var logged []string
	for line := range strings.Lines(logs.String()) {
		var rec struct {
			Level, Msg, Tool string
			Change           struct{ Path, Rule string }
		}
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatal(err)
		}
		logged = append(logged, rec.Level+" "+rec.Msg+" "+rec.Tool+" "+rec.Change.Path+" "+rec.Change.Rule)
	}
	wantLogged := []string{
		"DEBUG coerce: argument repaired search /limit number-from-text",
		"DEBUG coerce: argument repaired search /tags json-text",
		"DEBUG coerce: argument repaired search /verbose boolean-from-text",
	}
	if diff := cmp.Diff(wantLogged, logged); diff != "" {
		t.Errorf("Logger (-want +got):\n%s", diff)
	}
}

// TestIntegersBeyond2To53 records which integers survive the trip from the
// model to the tool. The middleware keeps them exact, as json.Number, but
// Genkit decodes the tool input into float64 before it validates it: only
// what a string parameter holds stays exact beyond 2^53, and an integer
// beyond the range of int64 fails Genkit's conversion of float64 to int64.
func TestIntegersBeyond2To53(t *testing.T) {
	type idsInput struct {
		ID    string `json:"id"`
		Count uint64 `json:"count"`
	}
	g, floats, exact, _, _ := setup(t)
	ids := genkit.DefineTool(g, "ids", "Looks up an ID.",
		func(_ *ai.ToolContext, in idsInput) (idsInput, error) { return in, nil })
	for _, tc := range []struct {
		name  string
		model ai.Model
		input string
		want  idsInput
		err   string // what Genkit reports instead
	}{
		{"id sent as a number, decoded exactly by the model", exact,
			`{"id": 1458059302022549698, "count": 1}`, idsInput{"1458059302022549698", 1}, ""},
		{"id sent as a number, decoded into float64 by the model", floats,
			`{"id": 1458059302022549698, "count": 1}`, idsInput{"1458059302022549800", 1}, ""},
		{"count 2^53 sent as a string", floats,
			`{"id": "1", "count": "9007199254740992"}`, idsInput{"1", 9007199254740992}, ""},
		{"count 2^53+1 sent as a string, rounded by Genkit", exact,
			`{"id": "1", "count": "9007199254740993"}`, idsInput{"1", 9007199254740992}, ""},
		{"count beyond int64 sent as a string, rejected by Genkit", exact,
			`{"id": "1", "count": "12345678901234567890"}`, idsInput{}, "not a whole number"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, err := genkit.Generate(context.Background(), g, ai.WithModel(tc.model), ai.WithTools(ids),
				ai.WithPrompt("ids "+tc.input), ai.WithMiddleware(genkitcoerce.Middleware()))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Errorf("Genkit's error = %v, want one saying %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := decodeAs[idsInput](t, resp.Text()); got != tc.want {
				t.Errorf("tool received %+v, want %+v", got, tc.want)
			}
		})
	}

	// What the middleware hands on is exact.
	resp, err := genkit.Generate(context.Background(), g, ai.WithModel(exact), ai.WithTools(ids),
		ai.WithPrompt(`ids {"id": "1", "count": "9007199254740993"}`),
		ai.WithMiddleware(genkitcoerce.Middleware()), ai.WithReturnToolRequests(true))
	if err != nil {
		t.Fatal(err)
	}
	if got := resp.ToolRequests()[0].Input.(map[string]any)["count"]; got != json.Number("9007199254740993") {
		t.Errorf("repaired count = %#v, want json.Number 9007199254740993", got)
	}
}

func TestRepairedRequests(t *testing.T) {
	g, floats, _, search, options := setup(t)
	repair := genkitcoerce.Middleware()
	// The tool's output as the model replies it: Genkit decodes it into a
	// map, which encoding/json writes with its keys sorted.
	valid := `{"fields":"[]","filter":{"lang":"go","min":1},"id":"1","limit":5,"payload":"{}","query":"q","ratio":1,"tags":["go"],"verbose":true}`

	t.Run("whole input as JSON text", func(t *testing.T) {
		text := `{"query": "q", "limit": "5", "tags": "[\"go\"]", "filter": {"lang": "go", "min": 1}, "verbose": true, "ratio": 1, "id": "1", "payload": "{}", "fields": "[]"}`
		resp, err := genkit.Generate(context.Background(), g, ai.WithModel(floats), ai.WithTools(search),
			ai.WithPrompt(call("search", text)), ai.WithMiddleware(repair))
		if err != nil {
			t.Fatal(err)
		}
		if got := resp.Text(); got != valid+"\n" {
			t.Errorf("tool received %s, want %s", got, valid)
		}
	})

	t.Run("several requests in one response", func(t *testing.T) {
		prompt := `search {"query": "q", "limit": "5", "tags": "[\"go\"]", "filter": "{\"lang\": \"go\", \"min\": 1}", "verbose": 1, "ratio": "1", "id": 1, "payload": {}, "fields": []}` + "\n" +
			`options {"id": 7, "page": "", "ids": "[1, 2]"}`
		resp, err := genkit.Generate(context.Background(), g, ai.WithModel(floats), ai.WithTools(search, options),
			ai.WithPrompt(prompt), ai.WithMiddleware(repair))
		if err != nil {
			t.Fatal(err)
		}
		// The model replies with the tool outputs in the order they came.
		lines := strings.Split(strings.TrimSpace(resp.Text()), "\n")
		want := []string{valid, `{"id":"7","ids":[1,2]}`}
		if diff := cmp.Diff(want, sortedLines(lines, want)); diff != "" {
			t.Errorf("tools received (-want +got):\n%s", diff)
		}
	})

	t.Run("prompt", func(t *testing.T) {
		// Genkit v1.4.0 ignores middleware given to DefinePrompt (it
		// warns that it does): it takes it from Execute.
		prompt := genkit.DefinePrompt(g, "repairs", ai.WithModel(floats), ai.WithTools(search),
			ai.WithPrompt(`search {"query": "q", "limit": "5", "tags": ["go"], "filter": {"lang": "go", "min": 1}, "verbose": true, "ratio": 1, "id": "1", "payload": "{}", "fields": "[]"}`))
		resp, err := prompt.Execute(context.Background(), ai.WithMiddleware(repair))
		if err != nil {
			t.Fatal(err)
		}
		if got := resp.Text(); got != valid+"\n" {
			t.Errorf("tool received %s, want %s", got, valid)
		}
	})

	t.Run("returned tool requests", func(t *testing.T) {
		resp, err := genkit.Generate(context.Background(), g, ai.WithModel(floats), ai.WithTools(options),
			ai.WithPrompt(`options {"id": 7, "ids": "[1, 2]"}`), ai.WithMiddleware(repair), ai.WithReturnToolRequests(true))
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]any{"id": "7", "ids": []any{1.0, 2.0}}
		if diff := cmp.Diff(want, resp.ToolRequests()[0].Input); diff != "" {
			t.Errorf("tool request (-want +got):\n%s", diff)
		}
	})
}

// TestResponse calls the middleware on the model's response directly, to
// see what it hands on to Genkit.
func TestResponse(t *testing.T) {
	_, _, _, search, _ := setup(t)
	tools := []*ai.ToolDefinition{search.Definition()}
	req := &ai.ModelRequest{Tools: tools}
	respond := func(resp *ai.ModelResponse) ai.ModelFunc {
		return func(context.Context, *ai.ModelRequest, ai.ModelStreamCallback) (*ai.ModelResponse, error) {
			return resp, nil
		}
	}
	text := ai.NewTextPart("calling")
	// Every field of searchInput, as Genkit's inferred schema requires
	// them, decoded as a model plugin decodes them.
	conforming := decoded(t, validSearch)
	conforming["query"], conforming["limit"], conforming["tags"] = "q", 5.0, []any{"go"}
	broken := maps.Clone(conforming)
	broken["limit"] = "5"

	t.Run("conforming input", func(t *testing.T) {
		resp := &ai.ModelResponse{Message: &ai.Message{Role: ai.RoleModel, Content: []*ai.Part{
			text, ai.NewToolRequestPart(&ai.ToolRequest{Name: "search", Input: conforming}),
		}}}
		next := genkitcoerce.Middleware()(respond(resp))
		if got, err := next(context.Background(), req, nil); err != nil || got != resp {
			t.Errorf("middleware returned %p, %v; want the model's response %p", got, err, resp)
		}
		allocs := testing.AllocsPerRun(100, func() { _, _ = next(context.Background(), req, nil) })
		if allocs != 0 {
			t.Errorf("a conforming response cost %v allocations, want 0", allocs)
		}
	})

	t.Run("broken input", func(t *testing.T) {
		part := ai.NewToolRequestPart(&ai.ToolRequest{Name: "search", Ref: "r1", Input: broken})
		resp := &ai.ModelResponse{FinishReason: ai.FinishReasonStop, Message: &ai.Message{Role: ai.RoleModel, Content: []*ai.Part{text, part}}}
		got, err := genkitcoerce.Middleware()(respond(resp))(context.Background(), req, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got == resp || got.Message == resp.Message || got.Message.Content[1] == part {
			t.Fatal("the model's response was modified in place, want a copy")
		}
		if broken["limit"] != "5" || part.ToolRequest.Input.(map[string]any)["limit"] != "5" {
			t.Error("the model's tool input was modified")
		}
		if got.FinishReason != ai.FinishReasonStop || got.Message.Content[0] != text || got.Message.Content[1].ToolRequest.Ref != "r1" {
			t.Error("the copy lost what was not repaired")
		}
		want := maps.Clone(conforming)
		if diff := cmp.Diff(want, got.Message.Content[1].ToolRequest.Input); diff != "" {
			t.Errorf("repaired input (-want +got):\n%s", diff)
		}
	})

	t.Run("tool not offered", func(t *testing.T) {
		resp := &ai.ModelResponse{Message: &ai.Message{Role: ai.RoleModel, Content: []*ai.Part{
			ai.NewToolRequestPart(&ai.ToolRequest{Name: "delete", Input: broken}),
		}}}
		if got, _ := genkitcoerce.Middleware()(respond(resp))(context.Background(), req, nil); got != resp {
			t.Error("a request for a tool the request did not offer was changed")
		}
	})

	t.Run("schema that does not compile", func(t *testing.T) {
		bad := &ai.ToolDefinition{Name: "bad", InputSchema: map[string]any{
			"type": "object", "properties": map[string]any{"a": map[string]any{"type": "strin"}},
		}}
		resp := &ai.ModelResponse{Message: &ai.Message{Role: ai.RoleModel, Content: []*ai.Part{
			ai.NewToolRequestPart(&ai.ToolRequest{Name: "bad", Input: map[string]any{"a": 1}}),
		}}}
		var got []error
		mw := genkitcoerce.Options{OnError: func(_ context.Context, tool string, err error) { got = append(got, err) }}.Middleware()
		if out, _ := mw(respond(resp))(context.Background(), &ai.ModelRequest{Tools: []*ai.ToolDefinition{bad}}, nil); out != resp {
			t.Error("the input of a tool whose schema does not compile was changed")
		}
		if len(got) != 1 || !errors.Is(got[0], coerce.ErrUnknownType) {
			t.Errorf("OnError got %v, want one error of unknown type", got)
		}
	})
}

// TestSchemaCompiledOnce counts the schemas compiled: once for a tool,
// however many generate calls and middleware values there are.
func TestSchemaCompiledOnce(t *testing.T) {
	type onceInput struct {
		N int `json:"n"`
	}
	g, floats, _, _, _ := setup(t)
	once := genkit.DefineTool(g, "once", "Counts.",
		func(_ *ai.ToolContext, in onceInput) (onceInput, error) { return in, nil })
	before := genkitcoerce.Compiles()
	for range 3 {
		// A middleware value for each call, as ai.WithMiddleware(genkitcoerce.Middleware()) makes.
		if _, err := genkit.Generate(context.Background(), g, ai.WithModel(floats), ai.WithTools(once),
			ai.WithPrompt(`once {"n": "1"}`), ai.WithMiddleware(genkitcoerce.Middleware())); err != nil {
			t.Fatal(err)
		}
	}
	if n := genkitcoerce.Compiles() - before; n != 1 {
		t.Errorf("compiled the schema %d times for three calls, want once", n)
	}
}

func parseSchema(t *testing.T, schema map[string]any) *coerce.Schema {
	t.Helper()
	s, err := coerce.ParseSchema(mustJSON(t, schema))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func mustJSON(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func decodeAs[T any](t *testing.T, text string) any {
	t.Helper()
	var v T
	if err := json.Unmarshal([]byte(text), &v); err != nil {
		t.Fatalf("%v: %s", err, text)
	}
	return v
}

// withoutNulls decodes an argument object and drops its null parameters,
// as Genkit does before it validates a tool input.
func withoutNulls(t *testing.T, text string) any {
	t.Helper()
	m := decodeAs[map[string]any](t, text).(map[string]any)
	for k, v := range m {
		if v == nil {
			delete(m, k)
		}
	}
	return m
}

// sortedLines orders got as want, for outputs of tools that ran
// concurrently; a line missing from want goes last.
func sortedLines(got, want []string) []string {
	out := make([]string, 0, len(got))
	rest := append([]string(nil), got...)
	for _, w := range want {
		for i, g := range rest {
			if g == w {
				out = append(out, g)
				rest = append(rest[:i], rest[i+1:]...)
				break
			}
		}
	}
	return append(out, rest...)
}

// decoded is v as a model plugin hands it over: encoded and decoded with
// encoding/json.
func decoded(t testing.TB, v map[string]any) map[string]any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}
