package agentoutput

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParse(t *testing.T) {
	files := map[string]any{"selected_files": []any{"/p1.py", "/p2.py"}, "rationale": "core"}
	const filesJSON = `{"selected_files": ["/p1.py", "/p2.py"], "rationale": "core"}`
	tests := []struct {
		name  string
		reply string
		want  any // nil: the reply itself
	}{
		{"object", filesJSON, files},
		{"array", `["a", "b", "c"]`, []any{"a", "b", "c"}},
		{"surrounding whitespace", "\n  " + filesJSON + "\n", files},
		{"fence with language", "```json\n" + filesJSON + "\n```", files},
		{"fence without language", "```\n" + filesJSON + "\n```", files},
		{"fence with whitespace around", "\n```json\n" + filesJSON + "\n```\n", files},
		{"double-encoded", `"{\"selected_files\": [\"/p1.py\", \"/p2.py\"], \"rationale\": \"core\"}"`, files},
		{"nested", `{"foo": {"bar": "baz"}, "meta": {"count": 2}}`, map[string]any{"foo": map[string]any{"bar": "baz"}, "meta": map[string]any{"count": 2.0}}},
		{"integer beyond 2^53 stays exact", `{"id": 1458059302022549698}`, map[string]any{"id": json.Number("1458059302022549698")}},

		// Stays text.
		{"prose before a fence", "Here's the JSON:\n```json\n" + filesJSON + "\n```", nil},
		{"prose after a fence", "```json\n" + filesJSON + "\n```\nHope that helps.", nil},
		{"two fences", "```json\n{}\n```\n```json\n[]\n```", nil},
		{"prose around bare JSON", "Result: " + filesJSON, nil},
		{"plain text", "hello world", nil},
		{"number", "123", nil},
		{"boolean", "true", nil},
		{"null", "null", nil},
		{"JSON string", `"hello"`, nil},
		{"fenced scalar", "```json\n42\n```", nil},
		{"truncated JSON", `{"selected_files": ["/p1.py"`, nil},
		{"trailing data", `{"a": 1} {"b": 2}`, nil},
		{"double-encoded and fenced", "```json\n\"{\\\"a\\\": 1}\"\n```", nil},
		{"empty", "", nil},
		{"escaped lone surrogate", `{"name": "\ud800"}`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := tt.want
			if want == nil {
				want = tt.reply
			}
			if diff := cmp.Diff(want, Parse(tt.reply)); diff != "" {
				t.Errorf("Parse(%q) (-want +got):\n%s", tt.reply, diff)
			}
		})
	}
}

// TestParseArgs checks positional arguments as an LLM writes them: only
// objects and arrays are parsed.
func TestParseArgs(t *testing.T) {
	tests := []struct {
		name string
		args []any
		want []any
	}{
		{"json string arg parsed to dict", []any{`{"a": 1}`}, []any{map[string]any{"a": 1.0}}},
		{"json string list parsed", []any{`[1, 2, 3]`}, []any{[]any{1.0, 2.0, 3.0}}},
		{"plain string unchanged", []any{"hello"}, []any{"hello"}},
		{"mixed args parsed", []any{"register", `{"id": "x"}`}, []any{"register", map[string]any{"id": "x"}}},
		{"numbers as strings unchanged", []any{"123", "-1.5", "1e3"}, []any{"123", "-1.5", "1e3"}},
		{"bools and null as strings unchanged", []any{"true", "false", "null"}, []any{"true", "false", "null"}},
		{"JSON string literal unchanged", []any{`"hello"`}, []any{`"hello"`}},
		{"nested JSON", []any{`{"entry": {"tags": ["a"], "n": 2}}`}, []any{map[string]any{"entry": map[string]any{"tags": []any{"a"}, "n": 2.0}}}},
		{"double-encoded", []any{`"{\"id\": \"x\"}"`}, []any{map[string]any{"id": "x"}}},
		{"invalid JSON unchanged", []any{`{"id": `}, []any{`{"id": `}},
		{"non-strings unchanged", []any{5.0, true, nil, map[string]any{"k": "v"}}, []any{5.0, true, nil, map[string]any{"k": "v"}}},
		{"no args", []any{}, []any{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := slices.Clone(tt.args)
			got := ParseArgs(tt.args)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ParseArgs(%q) (-want +got):\n%s", tt.args, diff)
			}
			if diff := cmp.Diff(in, tt.args); diff != "" {
				t.Errorf("ParseArgs modified its argument (-before +after):\n%s", diff)
			}
		})
	}
}

// TestParseArgsUnchangedIsSame checks that arguments with nothing to parse
// come back as the same slice, not a copy.
func TestParseArgsUnchangedIsSame(t *testing.T) {
	args := []any{"register", "123", "hello"}
	if got := ParseArgs(args); &got[0] != &args[0] {
		t.Error("ParseArgs copied arguments that needed no change")
	}
}

// TestPositionalArgsInvoke shows why arguments are parsed: an artifact
// that wants an object gets the JSON text the LLM wrote, until ParseArgs
// runs first.
func TestPositionalArgsInvoke(t *testing.T) {
	register := func(args ...any) (string, bool) {
		entry, ok := args[1].(map[string]any) // Python: args[1].get("id")
		if !ok {
			return "", false
		}
		return entry["id"].(string), true
	}
	args := []any{"register", `{"id": "foo"}`}
	if _, ok := register(args...); ok {
		t.Fatal("without parsing: the artifact accepted a string entry; the failure does not reproduce")
	}
	if id, ok := register(ParseArgs(args)...); !ok || id != "foo" {
		t.Errorf("with ParseArgs: register = %q, %v; want \"foo\", true", id, ok)
	}
}
