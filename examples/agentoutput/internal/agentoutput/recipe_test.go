package agentoutput

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// scripted returns an executor whose agents reply from replies (by agent,
// then by instruction, "*" for any) and that logs every instruction.
func scripted(replies map[string]map[string]string, log *[]string) *Executor {
	return &Executor{Spawn: func(_ context.Context, agent, instruction string) (Reply, error) {
		*log = append(*log, agent+": "+instruction)
		r, ok := replies[agent][instruction]
		if !ok {
			r, ok = replies[agent]["*"]
		}
		if !ok {
			return Reply{}, fmt.Errorf("agent %s has no reply to %q", agent, instruction)
		}
		return Reply{Output: r, SessionID: "recipe_xyz_abc123"}, nil
	}}
}

// selectThenAnalyze selects files with one agent, then analyzes each
// selected file with another.
var selectThenAnalyze = []Step{{
	ID:     "select-files",
	Agent:  "architect",
	Prompt: "Select files to analyze.",
	Output: "selection",
}, {
	ID:      "analyze-files",
	Agent:   "analyzer",
	Foreach: "{{selection.selected_files}}",
	Prompt:  "Analyze {{item}}",
	Output:  "analyses",
}}

const selection = `{"selected_files": ["/path/1.py", "/path/2.py"], "rationale": "These are the core files"}`

// TestForeachOverReply runs a foreach over a list inside an agent's JSON
// reply, for the ways models write JSON.
func TestForeachOverReply(t *testing.T) {
	replies := []struct {
		name  string
		reply string
	}{
		{"bare", selection},
		{"fenced", "```json\n" + selection + "\n```"},
		{"double-encoded", fmt.Sprintf("%q", selection)},
	}
	for _, r := range replies {
		t.Run(r.name, func(t *testing.T) {
			var log []string
			e := scripted(map[string]map[string]string{
				"architect": {"*": r.reply},
				"analyzer":  {"*": "looks fine"},
			}, &log)
			vars, err := e.Run(context.Background(), selectThenAnalyze, nil)
			if err != nil {
				t.Fatal(err)
			}
			wantLog := []string{
				"architect: Select files to analyze.",
				"analyzer: Analyze /path/1.py",
				"analyzer: Analyze /path/2.py",
			}
			if diff := cmp.Diff(wantLog, log); diff != "" {
				t.Errorf("agents were asked (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff([]any{"looks fine", "looks fine"}, vars["analyses"]); diff != "" {
				t.Errorf("analyses (-want +got):\n%s", diff)
			}
		})
	}
}

// TestForeachWithoutParsing shows why replies are parsed: an executor that
// stores the raw spawn result keeps the list inside a string.
func TestForeachWithoutParsing(t *testing.T) {
	old := map[string]any{"selection": map[string]any{"output": selection, "session_id": "recipe_xyz_abc123"}}
	tests := []struct {
		ref  string
		want string
	}{
		// The reply object is not a list.
		{"{{selection}}", "foreach variable {{selection}} must be a list: coerce: want array, found object: wrong kind"},
		// "selected_files" is inside the JSON text in "output".
		{"{{selection.selected_files}}", `{{selection.selected_files}}: no "selected_files" in selection`},
	}
	for _, tt := range tests {
		_, err := foreachItems(old, tt.ref)
		if err == nil || err.Error() != tt.want {
			t.Errorf("foreach %s: got error %v\nwant %s", tt.ref, err, tt.want)
		}
	}
	// Parsed as Run stores it, the same reference works.
	items, err := foreachItems(map[string]any{"selection": Parse(selection)}, "{{selection.selected_files}}")
	if err != nil || len(items) != 2 {
		t.Errorf("foreach over the parsed reply: %v, %v; want 2 items", items, err)
	}
}

// TestRecipeReferences covers dot notation into a reply, plain text, a
// foreach over an array reply, and a nested array and value.
func TestRecipeReferences(t *testing.T) {
	var log []string
	e := scripted(map[string]map[string]string{
		"test-agent": {
			`Return: {"foo": {"bar": "baz"}}`:                               `{"foo": {"bar": "baz"}}`,
			"Return: hello world":                                           "hello world",
			`Return: ["a", "b", "c"]`:                                       `["a", "b", "c"]`,
			`Return: {"files": ["/p1.py", "/p2.py"], "meta": {"count": 2}}`: `{"files": ["/p1.py", "/p2.py"], "meta": {"count": 2}}`,
			"*": "ok",
		},
	}, &log)
	steps := []Step{
		{ID: "get-json", Agent: "test-agent", Prompt: `Return: {"foo": {"bar": "baz"}}`, Output: "data"},
		{ID: "use-nested", Agent: "test-agent", Prompt: "Value is: {{data.foo.bar}}"},
		{ID: "get-text", Agent: "test-agent", Prompt: "Return: hello world", Output: "text"},
		{ID: "use-text", Agent: "test-agent", Prompt: "Value is: {{text}}"},
		{ID: "get-list", Agent: "test-agent", Prompt: `Return: ["a", "b", "c"]`, Output: "items"},
		{ID: "iterate", Agent: "test-agent", Foreach: "{{items}}", Prompt: "Process {{item}}"},
		{ID: "get-complex", Agent: "test-agent", Prompt: `Return: {"files": ["/p1.py", "/p2.py"], "meta": {"count": 2}}`, Output: "result"},
		{ID: "use-nested-array", Agent: "test-agent", Foreach: "{{result.files}}", Prompt: "Analyze {{item}}"},
		{ID: "use-nested-value", Agent: "test-agent", Prompt: "Count: {{result.meta.count}}"},
		{ID: "embed-structure", Agent: "test-agent", Prompt: "Meta: {{result.meta}} / {{ items }}"},
	}
	if _, err := e.Run(context.Background(), steps, nil); err != nil {
		t.Fatal(err)
	}
	var asked []string
	for _, l := range log {
		asked = append(asked, strings.TrimPrefix(l, "test-agent: "))
	}
	want := []string{
		`Return: {"foo": {"bar": "baz"}}`,
		"Value is: baz",
		"Return: hello world",
		"Value is: hello world",
		`Return: ["a", "b", "c"]`,
		"Process a", "Process b", "Process c",
		`Return: {"files": ["/p1.py", "/p2.py"], "meta": {"count": 2}}`,
		"Analyze /p1.py", "Analyze /p2.py",
		"Count: 2",
		`Meta: {"count":2} / ["a","b","c"]`,
	}
	if diff := cmp.Diff(want, asked); diff != "" {
		t.Errorf("instructions (-want +got):\n%s", diff)
	}
}

// TestProseStaysText checks that a reply with prose around a fence is kept
// whole, and that reaching into it fails loudly instead of losing the prose.
func TestProseStaysText(t *testing.T) {
	reply := "Here's the JSON:\n```json\n" + selection + "\n```"
	var log []string
	e := scripted(map[string]map[string]string{
		"architect": {"*": reply},
		"analyzer":  {"*": "ok"},
	}, &log)
	_, err := e.Run(context.Background(), selectThenAnalyze, nil)
	const want = `step "analyze-files": {{selection.selected_files}}: selection is not an object or array: coerce: want object | array, found string "Here's the JSON:`
	if err == nil || !strings.HasPrefix(err.Error(), want) || !strings.HasSuffix(err.Error(), "wrong kind: not JSON text") {
		t.Errorf("got error %v\nwant %s...wrong kind: not JSON text", err, want)
	}

	vars, err := e.Run(context.Background(), selectThenAnalyze[:1], nil)
	if err != nil {
		t.Fatal(err)
	}
	if vars["selection"] != reply {
		t.Errorf("selection = %#v, want the reply unchanged", vars["selection"])
	}
}

func TestLookup(t *testing.T) {
	scope := map[string]any{
		"r":    map[string]any{"list": []any{"a", map[string]any{"k": "v"}}, "text": `{"inner": [1, 2]}`},
		"word": "hello",
	}
	tests := []struct {
		path string
		want any
		err  string
	}{
		{path: "r.list.0", want: "a"},
		{path: "r.list.1.k", want: "v"},
		{path: "r.text.inner.1", want: 2.0},
		{path: "word", want: "hello"},
		{path: "r.list.2", err: `{{r.list.2}}: no index "2" in r.list (length 2)`},
		{path: "r.nope", err: `{{r.nope}}: no "nope" in r`},
		{path: "nope", err: `{{nope}}: no "nope" in the variables`},
		{path: "word.x", err: `{{word.x}}: word is not an object or array: coerce: want object | array, found string "hello": wrong kind: not JSON text`},
	}
	for _, tt := range tests {
		got, err := Lookup(scope, tt.path)
		if tt.err != "" {
			if err == nil || err.Error() != tt.err {
				t.Errorf("Lookup(%q): got error %v\nwant %s", tt.path, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("Lookup(%q): %v", tt.path, err)
			continue
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("Lookup(%q) (-want +got):\n%s", tt.path, diff)
		}
	}
}

func TestSubstitute(t *testing.T) {
	scope := map[string]any{"n": 2.0, "ok": true, "none": nil, "m": map[string]any{"b": 1.0, "a": "<x>"}}
	got, err := Substitute("{{n}} {{ok}} {{none}} {{m}} {{m.a}} {not} {{", scope)
	if want := `2 true null {"a":"<x>","b":1} <x> {not} {{`; err != nil || got != want {
		t.Errorf("Substitute = %q, %v; want %q", got, err, want)
	}
	if _, err := Substitute("{{missing}}", scope); err == nil {
		t.Error("Substitute with a missing variable: no error")
	}
}

func TestForeachNotAList(t *testing.T) {
	scope := map[string]any{"s": "hello", "listText": `["x", "y"]`}
	if _, err := foreachItems(scope, "{{s}}"); err == nil {
		t.Error("foreach over a plain string: no error")
	}
	if _, err := foreachItems(scope, "s"); err == nil {
		t.Error("foreach without braces: no error")
	}
	// A foreach declares a list, so JSON text of one is read as one.
	items, err := foreachItems(scope, "{{listText}}")
	if diff := cmp.Diff([]any{"x", "y"}, items); err != nil || diff != "" {
		t.Errorf("foreach over list text: %v (-want +got):\n%s", err, diff)
	}
}
