package workflow

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestTemplates(t *testing.T) {
	obj := map[string]any{"b": []any{true, nil}, "a": 1.0, "h": "<b>&"}
	scope := map[string]any{
		"inputs": map[string]any{
			"n":    5.0,
			"half": 0.5,
			"big":  json.Number(channelID),
			"s":    "x",
			"flag": true,
			"null": nil,
			"obj":  obj,
			"list": []any{"a", "b"},
		},
		"steps": map[string]any{
			"llm": map[string]any{"output": map[string]any{
				"text":   `{"k": {"deep": [10, 20]}}`,
				"double": `"{\"k\": 1}"`,
				"fenced": "```json\n{\"k\": 1}\n```",
				"prose":  `here: {"k": 1}`,
			}},
		},
	}
	tests := []struct {
		in   any
		want any
	}{
		// A whole template keeps the value's own type.
		{"${inputs.n}", 5.0},
		{"${inputs.big}", json.Number(channelID)},
		{"${inputs.flag}", true},
		{"${inputs.null}", nil},
		{"${inputs.obj}", obj},
		{"${inputs.list}", []any{"a", "b"}},
		{"${inputs.list.1}", "b"},
		{"${steps.llm.output.text}", `{"k": {"deep": [10, 20]}}`},

		// An embedded template becomes text.
		{"id-${inputs.n}", "id-5"},
		{"${inputs.half}%", "0.5%"},
		{"id-${inputs.big}", "id-1458059302022549698"},
		{"${inputs.s}-${inputs.n}", "x-5"},
		{" ${inputs.n}", " 5"},
		{"is ${inputs.flag}", "is true"},
		{"got ${inputs.null}", "got null"},
		{"obj=${inputs.obj}", `obj={"a":1,"b":[true,null],"h":"<b>&"}`},
		{"list=${inputs.list}", `list=["a","b"]`},

		// Paths go through JSON text an output holds.
		{"${steps.llm.output.text.k.deep.1}", 20.0},
		{"${steps.llm.output.text.k}", map[string]any{"deep": []any{10.0, 20.0}}},
		{"${steps.llm.output.double.k}", 1.0},
		{"${steps.llm.output.fenced.k}", 1.0},

		// Not templates.
		{"$5 and ${", "$5 and ${"},
		{"plain", "plain"},
		{"${inputs.s", "${inputs.s"},

		// Templates inside objects and arrays.
		{map[string]any{"id": "${inputs.big}", "tag": "t-${inputs.n}"}, map[string]any{"id": json.Number(channelID), "tag": "t-5"}},
		{[]any{"${inputs.n}", 7.0, []any{"${inputs.s}"}}, []any{5.0, 7.0, []any{"x"}}},
	}
	for _, tt := range tests {
		got, err := resolve(tt.in, scope)
		if err != nil {
			t.Errorf("resolve(%#v): %v", tt.in, err)
			continue
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("resolve(%#v) (-want +got):\n%s", tt.in, diff)
		}
	}

	errs := []struct {
		in   string
		want string
	}{
		{"${inputs.missing}", `${inputs.missing}: no "missing" in inputs`},
		{"a ${inputs.missing} b", `${inputs.missing}: no "missing" in inputs`},
		{"${inputs.list.2}", `${inputs.list.2}: no index "2" in inputs.list (length 2)`},
		{"${inputs.list.x}", `${inputs.list.x}: no index "x" in inputs.list (length 2)`},
		{"${inputs.s.k}", `${inputs.s.k}: inputs.s is not an object or array: coerce: want object | array, found string "x": wrong kind: not JSON text`},
		{"${steps.llm.output.prose.k}", `${steps.llm.output.prose.k}: steps.llm.output.prose is not an object or array: coerce: want object | array, found string "here: {\"k\": 1}": wrong kind: not JSON text`},
		{"${}", `${}: no "" in the workflow's scope`},
	}
	for _, tt := range errs {
		_, err := resolve(tt.in, scope)
		if err == nil || err.Error() != tt.want {
			t.Errorf("resolve(%q): got error %v\nwant %s", tt.in, err, tt.want)
		}
	}
}

func TestWholeTemplate(t *testing.T) {
	tests := []struct {
		in   string
		path string
		ok   bool
	}{
		{"${a.b}", "a.b", true},
		{"${a}-${b}", "", false},
		{" ${a}", "", false},
		{"${a} ", "", false},
		{"${a", "", false},
		{"$a", "", false},
	}
	for _, tt := range tests {
		path, ok := wholeTemplate(tt.in)
		if ok != tt.ok || (ok && path != tt.path) {
			t.Errorf("wholeTemplate(%q) = %q, %v; want %q, %v", tt.in, path, ok, tt.path, tt.ok)
		}
	}
}
