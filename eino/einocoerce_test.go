package einocoerce_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"
	"github.com/coerce-go/coerce"
	"github.com/coerce-go/coerce/eino"
	"github.com/eino-contrib/jsonschema"
	"github.com/google/go-cmp/cmp"
)

// What reaches the tool, byte for byte, for arguments that conform, need
// converting, or hold what coercion must not touch.
func TestWhatReachesTheTool(t *testing.T) {
	tests := []struct {
		name, args, want string
	}{
		{"conforming arguments keep every byte",
			`{ "tags" : ["a"],  "limit":5, "x": 1.50 }`,
			`{ "tags" : ["a"],  "limit":5, "x": 1.50 }`},
		{"only converted values are rewritten",
			`{"x": 1.50, "tags": "[\"a\", \"b\"]", "limit": 5}`,
			`{"x": 1.50, "tags": ["a","b"], "limit": 5}`},
		{"integers beyond 2^53 stay exact",
			`{ "id" : "9007199254740993", "limit": "18446744073709551615" }`,
			`{ "id" : 9007199254740993, "limit": 18446744073709551615 }`},
		{"keys of another case are their properties, misspelled",
			`{"Limit":"5","TAGS":"[\"a\"]"}`,
			`{"limit":5,"tags":["a"]}`},
		{"a key given in both spellings is left as sent",
			`{"Limit":"5","limit":5}`,
			`{"Limit":"5","limit":5}`},
		{"no arguments",
			``,
			``},
		{"no arguments, null",
			`null`,
			`null`},
		{"whitespace",
			" \n",
			" \n"},
	}
	var changes []coerce.Change
	node := newNode(t, einocoerce.Options{
		OnChange: func(_ context.Context, _ string, c coerce.Change) { changes = append(changes, c) },
		OnError:  func(_ context.Context, _ string, err error) { t.Errorf("OnError: %v", err) },
	}.Install, echoTool{"echo", echoParams})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			changes = nil
			got, err := runNode(context.Background(), node, false, call{"1", "echo", tt.args})
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("the tool got %q, want %q", got, tt.want)
			}
			if tt.args == tt.want && len(changes) > 0 {
				t.Errorf("changes reported for arguments left alone: %v", changes)
			}
		})
	}
}

// The typed tool decodes integers beyond 2^53 exactly, whether they came
// as strings or inside JSON text, and values nested in JSON text convert
// too.
func TestTypedToolGetsExactIntegers(t *testing.T) {
	var recS received[searchInput]
	var recJ received[jobInput]
	tools := searchTools(t, &recS)
	node := newNode(t, einocoerce.Install, tools["search"], &scheduleTool{rec: &recJ})

	args := `{"query":"q","limit":"5","id":"9223372036854775807","tags":"[\"go\"]",` +
		`"config":"{}","filter":"{\"lang\":\"go\",\"min_stars\":\"10\"}","verbose":"true","ratio":"0.5","path_params":"{}"}`
	if _, err := runNode(context.Background(), node, false, call{"s", "search", args}); err != nil {
		t.Fatal(err)
	}
	got, _ := recS.get("s")
	want := searchInput{Query: "q", Limit: 5, ID: 9223372036854775807, Tags: []string{"go"},
		Config: map[string]any{}, Filter: filter{Lang: "go", MinStars: 10}, Verbose: true, Ratio: 0.5, PathParams: "{}"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("search got (-want +got):\n%s", diff)
	}

	args = `{"ids":"[9007199254740993, \"9007199254740995\"]","options":{"mode":"slow","retries":"2"}}`
	if _, err := runNode(context.Background(), node, false, call{"j", "schedule", args}); err != nil {
		t.Fatal(err)
	}
	job, _ := recJ.get("j")
	if want := []int64{9007199254740993, 9007199254740995}; !cmp.Equal(job.IDs, want) || job.Options.Retries != 2 {
		t.Errorf("schedule got ids %v, retries %d; want %v, 2", job.IDs, job.Options.Retries, want)
	}
}

// With KeepSDKErrors, what cannot be converted reaches the tool as the
// model sent it, next to what could, and OnError says what and where; the
// tool's own decoding then fails as it would have.
func TestOnError(t *testing.T) {
	type report struct {
		tool string
		err  error
	}
	var reports []report
	opts := einocoerce.Options{KeepSDKErrors: true, OnError: func(_ context.Context, tool string, err error) {
		reports = append(reports, report{tool, err})
	}}
	var rec received[searchInput]
	tools := searchTools(t, &rec)
	node := newNode(t, opts.Install, echoTool{"echo", echoParams}, tools["search"])

	got, err := runNode(context.Background(), node, false, call{"1", "echo", `{"limit":"many","tags":"[\"a\"]"}`})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"limit":"many","tags":["a"]}`; got != want {
		t.Errorf("the tool got %s, want %s", got, want)
	}
	if len(reports) != 1 || reports[0].tool != "echo" {
		t.Fatalf("reports = %v, want one for echo", reports)
	}
	var cerr *coerce.Error
	if !errors.As(reports[0].err, &cerr) || cerr.Path != "/limit" || !errors.Is(cerr, coerce.ErrSyntax) {
		t.Errorf("error = %v, want a *coerce.Error at /limit, ErrSyntax", reports[0].err)
	}

	reports = nil
	_, err = runNode(context.Background(), node, false, call{"2", "search", `{"limit":"many","tags":"[\"a\"]"}`})
	if err == nil || !strings.Contains(err.Error(), "failed to unmarshal arguments") {
		t.Errorf("search: error %v, want the tool's own decoding error", err)
	}
	if len(reports) != 1 || reports[0].tool != "search" {
		t.Errorf("reports = %v, want one for search", reports)
	}

	reports = nil
	got, err = runNode(context.Background(), node, false, call{"3", "echo", `{"tags": [`})
	if err != nil {
		t.Fatal(err)
	}
	if got != `{"tags": [` || len(reports) != 1 || !errors.Is(reports[0].err, coerce.ErrTruncated) {
		t.Errorf("cut-off JSON: the tool got %s, reports %v; want it as sent and one ErrTruncated", got, reports)
	}
}

type ctxKey struct{}

// OnChange gets each conversion with the call's context and the tool's
// name; coerce.Options.OnChange gets them too.
func TestOnChange(t *testing.T) {
	type seen struct {
		tool, path, ctx string
		rule            coerce.Rule
	}
	var mu sync.Mutex
	var got, plain []seen
	opts := einocoerce.Options{
		Coerce: coerce.Options{OnChange: func(c coerce.Change) {
			mu.Lock()
			defer mu.Unlock()
			plain = append(plain, seen{path: c.Path, rule: c.Rule})
		}},
		OnChange: func(ctx context.Context, tool string, c coerce.Change) {
			mu.Lock()
			defer mu.Unlock()
			v, _ := ctx.Value(ctxKey{}).(string)
			got = append(got, seen{tool, c.Path, v, c.Rule})
		},
	}
	node := newNode(t, opts.Install, echoTool{"echo", echoParams})
	ctx := context.WithValue(context.Background(), ctxKey{}, "request-1")
	if _, err := runNode(ctx, node, false, call{"1", "echo", `{"limit":"5","tags":"[\"a\"]","id":7}`}); err != nil {
		t.Fatal(err)
	}
	want := []seen{
		{"echo", "/limit", "request-1", coerce.NumberFromText},
		{"echo", "/tags", "request-1", coerce.JSONText},
	}
	sortSeen := cmp.Transformer("sort", func(s []seen) []seen {
		out := append([]seen(nil), s...)
		for i := range out {
			for j := i + 1; j < len(out); j++ {
				if out[j].path < out[i].path {
					out[i], out[j] = out[j], out[i]
				}
			}
		}
		return out
	})
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(seen{}), sortSeen); diff != "" {
		t.Errorf("OnChange (-want +got):\n%s", diff)
	}
	wantPlain := []seen{{path: "/limit", rule: coerce.NumberFromText}, {path: "/tags", rule: coerce.JSONText}}
	if diff := cmp.Diff(wantPlain, plain, cmp.AllowUnexported(seen{}), sortSeen); diff != "" {
		t.Errorf("coerce.Options.OnChange (-want +got):\n%s", diff)
	}
}

// Logger logs each conversion at debug level with the tool's name, and
// nothing for arguments that conform.
func TestLogger(t *testing.T) {
	var buf bytes.Buffer
	logger := slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	node := newNode(t, einocoerce.Options{Logger: logger}.Install, echoTool{"echo", echoParams})

	if _, err := runNode(context.Background(), node, false, call{"1", "echo", `{"limit":5}`}); err != nil {
		t.Fatal(err)
	}
	if buf.Len() != 0 {
		t.Errorf("logged for conforming arguments: %s", buf.String())
	}
	if _, err := runNode(context.Background(), node, false, call{"2", "echo", `{"tags":"[\"a\"]"}`}); err != nil {
		t.Fatal(err)
	}
	line := buf.String()
	for _, want := range []string{`"level":"DEBUG"`, `"tool":"echo"`, `"path":"/tags"`, `"rule":"json-text"`} {
		if !strings.Contains(line, want) {
			t.Errorf("log %s lacks %s", line, want)
		}
	}
	if n := strings.Count(line, "\n"); n != 1 {
		t.Errorf("%d lines logged, want 1", n)
	}
}

// A tool without parameters, and a tool whose schema coerce cannot
// compile, are called with their arguments untouched; the second is
// reported to OnError at each call.
func TestToolsWithoutASchema(t *testing.T) {
	var reports []string
	opts := einocoerce.Options{OnError: func(_ context.Context, tool string, err error) {
		reports = append(reports, tool+": "+err.Error())
	}}
	broken := &jsonschema.Schema{Type: "object", Properties: jsonschema.NewProperties()}
	broken.Properties.Set("a", &jsonschema.Schema{Ref: "#/$defs/missing"})
	node := newNode(t, opts.Install,
		echoTool{name: "now"},
		echoTool{"broken", schema.NewParamsOneOfByJSONSchema(broken)})

	for _, c := range []call{{"1", "now", `{"a":"5"}`}, {"2", "now", `not json`}} {
		if got, err := runNode(context.Background(), node, false, c); err != nil || got != c.args {
			t.Errorf("now: got %q, %v; want %q", got, err, c.args)
		}
	}
	if len(reports) != 0 {
		t.Errorf("reports for a tool without parameters: %v", reports)
	}
	for _, c := range []call{{"3", "broken", `{"a":"5"}`}, {"4", "broken", `{"a":"6"}`}} {
		if got, err := runNode(context.Background(), node, false, c); err != nil || got != c.args {
			t.Errorf("broken: got %q, %v; want %q", got, err, c.args)
		}
	}
	if len(reports) != 2 || !strings.HasPrefix(reports[0], `broken: einocoerce: tool "broken": parameters: `) {
		t.Errorf("reports = %q, want one per call about the schema", reports)
	}
}

// flakyInfo fails its first Info, as a tool that fetches its schema might.
type flakyInfo struct {
	echoTool
	mu    sync.Mutex
	calls int
}

func (f *flakyInfo) Info(ctx context.Context) (*schema.ToolInfo, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	if f.calls == 1 {
		return nil, errors.New("unavailable")
	}
	return f.echoTool.Info(ctx)
}

// Wrap works without a ToolsNode, and an Info that failed is tried again
// at the next call.
func TestWrapWithoutAToolsNode(t *testing.T) {
	var reports []string
	f := &flakyInfo{echoTool: echoTool{"echo", echoParams}}
	w := einocoerce.Options{OnError: func(_ context.Context, tool string, err error) {
		reports = append(reports, tool+": "+err.Error())
	}}.Wrap(f).(tool.InvokableTool)

	args := `{"limit":"5"}`
	got, err := w.InvokableRun(context.Background(), args)
	if err != nil || got != args {
		t.Errorf("first call: got %q, %v; want the arguments as sent", got, err)
	}
	if want := []string{": einocoerce: tool info: unavailable"}; !cmp.Equal(reports, want) {
		t.Errorf("reports = %q, want %q", reports, want)
	}
	for range 3 {
		got, err = w.InvokableRun(context.Background(), args)
		if err != nil || got != `{"limit":5}` {
			t.Errorf("got %q, %v; want {\"limit\":5}", got, err)
		}
	}
	if f.calls != 2 {
		t.Errorf("Info called %d times, want 2", f.calls)
	}
}

// Install wraps a copy of the tool list, chains after a
// ToolArgumentsHandler already set, and installing again replaces the
// options rather than coercing twice.
func TestInstall(t *testing.T) {
	tools := []tool.BaseTool{echoTool{"echo", echoParams}}
	var handled []string
	conf := compose.ToolsNodeConfig{
		Tools: tools,
		ToolArgumentsHandler: func(_ context.Context, name, args string) (string, error) {
			handled = append(handled, args)
			return strings.TrimSpace(args), nil
		},
	}
	var first, second int
	einocoerce.Options{OnChange: func(context.Context, string, coerce.Change) { first++ }}.Install(&conf)
	einocoerce.Options{OnChange: func(context.Context, string, coerce.Change) { second++ }}.Install(&conf)
	if _, ok := tools[0].(echoTool); !ok {
		t.Errorf("Install changed the caller's slice: %T", tools[0])
	}
	node, err := compose.NewToolNode(context.Background(), &conf)
	if err != nil {
		t.Fatal(err)
	}
	got, err := runNode(context.Background(), node, false, call{"1", "echo", ` {"limit":"5"} `})
	if err != nil {
		t.Fatal(err)
	}
	if got != `{"limit":5}` {
		t.Errorf("the tool got %s, want {\"limit\":5}", got)
	}
	if want := []string{` {"limit":"5"} `}; !cmp.Equal(handled, want) {
		t.Errorf("the handler got %q, want %q", handled, want)
	}
	if first != 0 || second != 1 {
		t.Errorf("OnChange of the first Install called %d times, of the second %d; want 0 and 1", first, second)
	}
}

// A wrapped tool given to a run with compose.WithToolList is coerced too.
func TestWithToolList(t *testing.T) {
	node := newNode(t, einocoerce.Install, echoTool{"echo", echoParams})
	other := einocoerce.Wrap(echoTool{"other", echoParams})
	out, err := node.Invoke(context.Background(), assistant(call{"1", "other", `{"limit":"5"}`}),
		compose.WithToolList(other))
	if err != nil {
		t.Fatal(err)
	}
	if got := content(out); got != `{"limit":5}` {
		t.Errorf("the tool got %s, want {\"limit\":5}", got)
	}
}
