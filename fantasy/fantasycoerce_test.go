package fantasycoerce_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"reflect"
	"strings"
	"sync"
	"testing"

	"charm.land/fantasy"
	"github.com/coerce-go/coerce"
	fantasycoerce "github.com/coerce-go/coerce/fantasy"
)

type task struct {
	ID    int64  `json:"id"`
	Title string `json:"title"`
}

// searchInput is the input of a typed tool: a parameter of each kind that
// models get wrong, a list of objects and a string holding JSON text.
type searchInput struct {
	Query   string   `json:"query"`
	Limit   int      `json:"limit"`
	Tags    []string `json:"tags"`
	Verbose bool     `json:"verbose"`
	Score   float64  `json:"score"`
	Tasks   []task   `json:"tasks"`
	Config  string   `json:"config"`
	Owner   *task    `json:"owner,omitempty"`
}

// Both ways fantasy runs an agent: Generate, and Stream, which runs tools
// marked Parallel concurrently.
var modes = []struct {
	name   string
	stream bool
}{{"Generate", false}, {"Stream", true}}

func TestBrokenCallReachesTheToolRepaired(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.name, func(t *testing.T) {
			search, got := typedTool[searchInput]("search", mode.stream)
			model := newModel([]fantasy.Content{toolCall("1", "search",
				`{"query": "go", "limit": "5", "tags": "[\"a\", \"b\"]", "verbose": "true", "score": "0.5",
				  "tasks": "[{\"id\": \"7\", \"title\": \"x\"}]", "config": {"depth": 2}}`)})
			res := runCoerced(t, mode.stream, model, fantasycoerce.Options{}, search)

			if r := results(res)["1"]; r != "ok" {
				t.Fatalf("tool result %q, want ok", r)
			}
			want := searchInput{Query: "go", Limit: 5, Tags: []string{"a", "b"}, Verbose: true, Score: 0.5,
				Tasks: []task{{ID: 7, Title: "x"}}, Config: `{"depth":2}`}
			if in, _ := got.get("1"); !reflect.DeepEqual(in, want) {
				t.Errorf("tool got %+v, want %+v", in, want)
			}
			if text := res.Response.Content.Text(); text != "done" {
				t.Errorf("agent answered %q, want done", text)
			}
		})
	}
}

// Without fantasycoerce, fantasy takes the same call (it is a JSON object
// with every required key) and the typed tool fails to decode it.
func TestWithoutCoercionTheTypedToolFails(t *testing.T) {
	search, got := typedTool[searchInput]("search", false)
	model := newModel([]fantasy.Content{toolCall("1", "search", `{"query": "go", "limit": "5", "tags": [], "verbose": true, "score": 1, "tasks": [], "config": ""}`)})
	res := run(t, false, model, fantasy.WithTools(search))
	r := results(res)["1"]
	if !strings.HasPrefix(r, "error: invalid parameters: json: cannot unmarshal string into Go struct field searchInput.limit of type int") {
		t.Errorf("tool result %q", r)
	}
	if _, ok := got.get("1"); ok {
		t.Error("the tool ran")
	}
}

// A conforming call reaches the tool as the model wrote it, byte for byte,
// and nothing is reported.
func TestConformingCallUntouched(t *testing.T) {
	raw := newRawTool("raw", rawParameters)
	input := `{ "ids": [1, 2], "limit": 10 ,"mode":"fast", "path_params": "{\"a\": 1}", "n": 1.50}`
	model := newModel([]fantasy.Content{toolCall("1", "raw", input)})
	reported := 0
	opts := fantasycoerce.Options{
		OnChange: func(context.Context, string, coerce.Change) { reported++ },
		OnError:  func(context.Context, string, error) { reported++ },
	}
	runCoerced(t, false, model, opts, raw)
	if got, _ := raw.rec.get("1"); got != input {
		t.Errorf("tool got %s, want %s", got, input)
	}
	if reported != 0 {
		t.Errorf("%d reports", reported)
	}
}

// An argument coerce cannot repair reaches fantasy's own handling as the
// model sent it, next to the ones repaired: the typed tool fails to decode
// it and answers the model "invalid parameters: ...", as it would have
// without coercion, and the agent goes on to the model's next turn.
func TestUnfixableArgumentReachesFantasyUnchanged(t *testing.T) {
	var logs strings.Builder
	logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelWarn}))
	type report struct {
		tool string
		err  error
	}
	var reports []report
	opts := fantasycoerce.Options{
		Logger:  logger,
		OnError: func(_ context.Context, tool string, err error) { reports = append(reports, report{tool, err}) },
	}

	search, got := typedTool[searchInput]("search", false)
	raw := newRawTool("raw", rawParameters)
	model := newModel([]fantasy.Content{
		toolCall("typed", "search", `{"query": "go", "limit": "five", "tags": "[\"a\"]", "verbose": true, "score": 1, "tasks": [], "config": ""}`),
		toolCall("raw", "raw", `{"limit": "five", "ids": "[1]"}`),
	})
	res := runCoerced(t, false, model, opts, search, raw)

	r := results(res)
	if want := "error: invalid parameters: json: cannot unmarshal string into Go struct field searchInput.limit of type int"; r["typed"] != want {
		t.Errorf("typed tool result %q, want %q", r["typed"], want)
	}
	if _, ok := got.get("typed"); ok {
		t.Error("the typed tool's function ran")
	}
	if in, _ := raw.rec.get("raw"); in != `{"limit": "five", "ids": [1]}` {
		t.Errorf("raw tool got %s", in)
	}
	if text := res.Response.Content.Text(); text != "done" {
		t.Errorf("agent answered %q, want done", text)
	}

	if len(reports) != 2 {
		t.Fatalf("OnError called %d times, want 2: %v", len(reports), reports)
	}
	for i, tool := range []string{"search", "raw"} {
		var ce *coerce.Error
		if reports[i].tool != tool || !errors.As(reports[i].err, &ce) || ce.Path != "/limit" || !errors.Is(ce, coerce.ErrSyntax) {
			t.Errorf("report %d: %s: %v", i, reports[i].tool, reports[i].err)
		}
	}
	for _, want := range []string{
		`level=WARN msg="coerce: argument rejected" tool=search rejection.path=/limit rejection.declared=integer rejection.found=string rejection.preview=five rejection.rule=syntax`,
		`level=WARN msg="coerce: argument rejected" tool=raw rejection.path=/limit rejection.declared="integer | null" rejection.found=string rejection.preview=five rejection.rule=syntax`,
	} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("log lacks %s:\n%s", want, logs.String())
		}
	}
}

// A call that fantasy's check rejects (no JSON object, or a required key
// missing) goes to the repair hook. The hook unwraps an object sent as JSON
// text once more encoded, or in a markdown fence, refuses a call cut off,
// and otherwise leaves the call to fantasy's own syntax repair; the tool
// then coerces the values.
func TestRepairHook(t *testing.T) {
	cases := []struct {
		name, input string
		want        searchInput
		result      string // the tool result, if not ok
	}{
		{"double-encoded", `"{\"query\": \"go\", \"limit\": \"5\", \"tags\": [\"a\"], \"verbose\": true, \"score\": 1, \"tasks\": [], \"config\": \"\"}"`,
			searchInput{Query: "go", Limit: 5, Tags: []string{"a"}, Verbose: true, Score: 1, Tasks: []task{}}, ""},
		{"fenced", "```json\n{\"query\": \"go\", \"limit\": 5, \"tags\": \"[\\\"a\\\"]\", \"verbose\": true, \"score\": 1, \"tasks\": [], \"config\": \"\"}\n```",
			searchInput{Query: "go", Limit: 5, Tags: []string{"a"}, Verbose: true, Score: 1, Tasks: []task{}}, ""},
		// Text that ends inside the object is a call cut off: jsonrepair
		// would close it into arguments the model did not write.
		{"unclosed: cut off, never closed", `{"query": "go", "limit": "5", "tags": ["a"], "verbose": true, "score": 1, "tasks": [], "config": ""`,
			searchInput{}, "error: invalid JSON input: unexpected end of JSON input"},
		{"trailing comma, repaired by fantasy's jsonrepair", `{"query": "go", "limit": 5, "tags": "[\"a\"]", "verbose": "yes", "score": 1, "tasks": [], "config": "",}`,
			searchInput{Query: "go", Limit: 5, Tags: []string{"a"}, Verbose: true, Score: 1, Tasks: []task{}}, ""},
		{"required key missing", `{"query": "go"}`, searchInput{}, "error: missing required parameter: limit"},
		{"double-encoded, required key missing", `"{\"query\": \"go\"}"`, searchInput{}, "error: invalid JSON input: json: cannot unmarshal string into Go value of type map[string]interface {}"},
	}
	for _, mode := range modes {
		for _, c := range cases {
			t.Run(mode.name+"/"+c.name, func(t *testing.T) {
				search, got := typedTool[searchInput]("search", mode.stream)
				model := newModel([]fantasy.Content{toolCall("1", "search", c.input)})
				res := runCoerced(t, mode.stream, model, fantasycoerce.Options{}, search)
				r := results(res)["1"]
				if c.result != "" {
					if r != c.result {
						t.Errorf("tool result %q, want %q", r, c.result)
					}
					if _, ok := got.get("1"); ok {
						t.Error("the tool ran")
					}
					return
				}
				if r != "ok" {
					t.Fatalf("tool result %q", r)
				}
				if in, _ := got.get("1"); !reflect.DeepEqual(in, c.want) {
					t.Errorf("tool got %+v, want %+v", in, c.want)
				}
			})
		}
	}
}

// A repair hook of one's own runs when coerce finds no object to unwrap.
func TestRepairHookChains(t *testing.T) {
	search, got := typedTool[searchInput]("search", false)
	var asked []string
	mine := func(_ context.Context, o fantasy.ToolCallRepairOptions) (*fantasy.ToolCallContent, error) {
		asked = append(asked, o.OriginalToolCall.Input)
		call := o.OriginalToolCall
		call.Input = `{"query": "mine", "limit": "1", "tags": [], "verbose": false, "score": 0, "tasks": [], "config": ""}`
		return &call, nil
	}
	model := newModel([]fantasy.Content{
		toolCall("1", "search", `"{\"query\": \"go\", \"limit\": 2, \"tags\": [], \"verbose\": false, \"score\": 0, \"tasks\": [], \"config\": \"\"}"`),
		toolCall("2", "search", `not json`),
	})
	run(t, false, model,
		fantasy.WithTools(fantasycoerce.Wrap(search)...),
		fantasy.WithRepairToolCall(fantasycoerce.Options{}.RepairToolCall(mine)))
	if len(asked) != 1 || asked[0] != "not json" {
		t.Errorf("own hook asked for %q", asked)
	}
	if in, _ := got.get("1"); in.Query != "go" || in.Limit != 2 {
		t.Errorf("call 1: tool got %+v", in)
	}
	if in, _ := got.get("2"); in.Query != "mine" || in.Limit != 1 {
		t.Errorf("call 2: tool got %+v", in)
	}
}

// OnChange hears each repair with the call's context and the tool's name,
// once the call carries it; Logger logs each at debug level.
func TestOnChangeAndLogger(t *testing.T) {
	type key struct{}
	var logs strings.Builder
	logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	var mu sync.Mutex
	var heard []string
	var inner []string
	opts := fantasycoerce.Options{
		Coerce: coerce.Options{OnChange: func(c coerce.Change) {
			mu.Lock()
			defer mu.Unlock()
			inner = append(inner, c.Path)
		}},
		OnChange: func(ctx context.Context, tool string, c coerce.Change) {
			mu.Lock()
			defer mu.Unlock()
			heard = append(heard, fmt.Sprintf("%v %s %s %s %s", ctx.Value(key{}), tool, c.Path, c.Found, c.Rule))
		},
		Logger: logger,
	}
	search, _ := typedTool[searchInput]("search", true)
	model := newModel([]fantasy.Content{toolCall("1", "search",
		`"{\"query\": \"go\", \"limit\": \"5\", \"tags\": \"[\\\"a\\\"]\", \"verbose\": true, \"score\": 1, \"tasks\": [], \"config\": \"\"}"`)})
	ctx := context.WithValue(t.Context(), key{}, "ctx")
	if _, err := fantasy.NewAgent(model, opts.WithTools(search)).Stream(ctx, fantasy.AgentStreamCall{Prompt: "go", RepairToolCall: opts.RepairToolCall(nil)}); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"ctx search  string double-encoded", // the whole input, by the repair hook
		"ctx search /limit string number-from-text",
		"ctx search /tags string json-text",
	}
	if !reflect.DeepEqual(heard, want) {
		t.Errorf("OnChange heard\n%s\nwant\n%s", strings.Join(heard, "\n"), strings.Join(want, "\n"))
	}
	if !reflect.DeepEqual(inner, []string{"", "/limit", "/tags"}) {
		t.Errorf("Coerce.OnChange heard %q", inner)
	}
	for _, want := range []string{
		`level=DEBUG msg="coerce: argument repaired" tool=search change.path=/limit change.declared=integer change.found=string change.preview=5 change.rule=number-from-text`,
		`level=DEBUG msg="coerce: argument repaired" tool=search change.path=/tags change.declared=list[string] change.found=string`,
	} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("log lacks %s:\n%s", want, logs.String())
		}
	}
}

// fantasy's schema.Generate writes a Go map as an object whose only
// property is "*"; the tool decodes every key of it, so every key is
// coerced to the schema under "*".
func TestGoMapParameter(t *testing.T) {
	type group struct {
		Sizes map[string]int `json:"sizes"`
	}
	type labelsInput struct {
		Labels map[string][]int `json:"labels"`
		Groups []group          `json:"groups"`
		Counts []map[string]int `json:"counts"`
	}
	tool, got := typedTool[labelsInput]("label", false)
	model := newModel([]fantasy.Content{toolCall("1", "label",
		`{"labels": {"bug": "[1, \"2\"]", "*": [3]}, "groups": [{"sizes": {"s": "4"}}], "counts": "[{\"a\": \"5\"}]"}`)})
	runCoerced(t, false, model, fantasycoerce.Options{}, tool)
	want := labelsInput{
		Labels: map[string][]int{"bug": {1, 2}, "*": {3}},
		Groups: []group{{Sizes: map[string]int{"s": 4}}},
		Counts: []map[string]int{{"a": 5}},
	}
	if in, _ := got.get("1"); !reflect.DeepEqual(in, want) {
		t.Errorf("tool got %+v, want %+v", in, want)
	}
}

// A property named "*" beside others is a property like any other.
func TestStarPropertyBesideOthers(t *testing.T) {
	raw := newRawTool("raw", `{"obj": {"type": "object", "properties": {"*": {"type": "integer"}, "b": {"type": "integer"}}}}`)
	model := newModel([]fantasy.Content{toolCall("1", "raw", `{"obj": {"*": "1", "b": "2", "c": "3"}}`)})
	runCoerced(t, false, model, fantasycoerce.Options{}, raw)
	if in, _ := raw.rec.get("1"); in != `{"obj": {"*": 1, "b": 2, "c": "3"}}` {
		t.Errorf("tool got %s", in)
	}
}

// Wrap keeps the tool's own Info and provider options, and wraps once.
func TestWrap(t *testing.T) {
	raw := newRawTool("raw", rawParameters, "ids")
	w := fantasycoerce.Wrap(raw)[0]
	if !reflect.DeepEqual(w.Info(), raw.Info()) {
		t.Errorf("Info %+v", w.Info())
	}
	w.SetProviderOptions(fantasy.ProviderOptions{})
	if raw.opts == nil {
		t.Error("SetProviderOptions did not reach the tool")
	}
	if again := fantasycoerce.Wrap(w)[0]; again != w {
		t.Error("wrapped twice")
	}
	if fantasycoerce.Unwrap(w) != raw || fantasycoerce.Unwrap(raw) != raw {
		t.Error("Unwrap")
	}
}

// A schema that does not compile leaves the calls to the tool as sent, and
// OnError says why.
func TestSchemaThatDoesNotCompile(t *testing.T) {
	raw := newRawTool("raw", `{"x": {"type": "integer", "$ref": "#/$defs/missing"}}`)
	var errs []error
	opts := fantasycoerce.Options{OnError: func(_ context.Context, _ string, err error) { errs = append(errs, err) }}
	model := newModel([]fantasy.Content{toolCall("1", "raw", `{"x": "5"}`), toolCall("2", "raw", `{"x": "6"}`)})
	runCoerced(t, false, model, opts, raw)
	if in, _ := raw.rec.get("1"); in != `{"x": "5"}` {
		t.Errorf("tool got %s", in)
	}
	if len(errs) != 2 || !strings.Contains(errs[0].Error(), `fantasycoerce: input schema of tool "raw"`) {
		t.Errorf("OnError got %v", errs)
	}
}

// Tools marked Parallel run concurrently under Stream; each call is
// coerced on its own.
func TestConcurrentCalls(t *testing.T) {
	search, got := typedTool[searchInput]("search", true)
	var calls []fantasy.Content
	for i := range 20 {
		calls = append(calls, toolCall(fmt.Sprint(i), "search",
			fmt.Sprintf(`{"query": "q", "limit": "%d", "tags": "[\"t%d\"]", "verbose": "true", "score": 1, "tasks": [], "config": ""}`, i, i)))
	}
	var mu sync.Mutex
	changes := 0
	opts := fantasycoerce.Options{OnChange: func(context.Context, string, coerce.Change) {
		mu.Lock()
		defer mu.Unlock()
		changes++
	}}
	runCoerced(t, true, newModel(calls), opts, search)
	for i := range 20 {
		in, _ := got.get(fmt.Sprint(i))
		if in.Limit != i || !reflect.DeepEqual(in.Tags, []string{fmt.Sprint("t", i)}) || !in.Verbose {
			t.Errorf("call %d: tool got %+v", i, in)
		}
	}
	if changes != 60 {
		t.Errorf("%d changes, want 60", changes)
	}
}

// fantasy v0.41.2's Stream reads the repair hook from the AgentStreamCall
// only (Generate from the agent's options only), so under Stream the hook
// that WithTools installs on the agent is not called, and fantasy's own
// syntax repair runs instead; the README says to set it on the call too.
// If this test fails, fantasy has changed that, and the README with it.
func TestStreamIgnoresTheAgentsRepairHook(t *testing.T) {
	search, _ := typedTool[searchInput]("search", false)
	model := newModel([]fantasy.Content{toolCall("1", "search", `"{\"query\": \"go\", \"limit\": 5, \"tags\": [], \"verbose\": true, \"score\": 1, \"tasks\": [], \"config\": \"\"}"`)})
	res, err := fantasy.NewAgent(model, fantasycoerce.WithTools(search)).Stream(t.Context(), fantasy.AgentStreamCall{Prompt: "go"})
	if err != nil {
		t.Fatal(err)
	}
	if r := results(res)["1"]; !strings.HasPrefix(r, "error: invalid JSON input") {
		t.Errorf("tool result %q: fantasy's Stream now calls the agent's repair hook", r)
	}
}

// Input that neither coerce nor fantasy's syntax repair makes an object of
// is answered by fantasy, with its validation error, and OnError says why
// coerce could not; a call of a tool the step does not offer is fantasy's
// alone to answer.
func TestNoObjectAtAll(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.name, func(t *testing.T) {
			search, got := typedTool[searchInput]("search", false)
			var errs []string
			opts := fantasycoerce.Options{OnError: func(_ context.Context, tool string, err error) {
				errs = append(errs, tool+": "+err.Error())
			}}
			model := newModel([]fantasy.Content{
				toolCall("1", "search", `search for go`),
				toolCall("2", "fetch", `"{\"url\": \"x\"}"`),
			})
			r := results(runCoerced(t, mode.stream, model, opts, search))
			if !strings.HasPrefix(r["1"], "error: invalid JSON input: ") {
				t.Errorf("tool result %q", r["1"])
			}
			if !strings.HasPrefix(r["2"], "error: tool not found: fetch") {
				t.Errorf("tool result %q", r["2"])
			}
			if _, ok := got.get("1"); ok {
				t.Error("the tool ran")
			}
			want := []string{`search: coerce: want object, found string "search for go": wrong kind: not JSON text`}
			if !reflect.DeepEqual(errs, want) {
				t.Errorf("OnError got %q, want %q", errs, want)
			}
		})
	}
}

// A tool without parameters (Info().Parameters nil, as a hand-made tool
// may leave it) takes its calls as sent.
func TestToolWithoutParameters(t *testing.T) {
	raw := newRawTool("ping", "null")
	var errs []error
	opts := fantasycoerce.Options{OnError: func(_ context.Context, _ string, err error) { errs = append(errs, err) }}
	model := newModel([]fantasy.Content{toolCall("1", "ping", `{"any": "5"}`)})
	runCoerced(t, false, model, opts, raw)
	if in, _ := raw.rec.get("1"); in != `{"any": "5"}` {
		t.Errorf("tool got %s", in)
	}
	if errs != nil {
		t.Errorf("OnError got %v", errs)
	}
}
