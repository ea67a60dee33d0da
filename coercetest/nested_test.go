package coercetest_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/coerce-go/coerce"
	"github.com/coerce-go/coerce/coercetest"
)

// realSchemas are input schemas as real servers publish them (see
// testdata/schemas/README.md at the root of the repository), each with a
// valid argument set that nests what clients break.
var realSchemas = []struct {
	file  string
	valid string
}{
	{"gosdk-plan-tasks.json", `{
		"plan_id": "p1",
		"tasks": [
			{"id": 1, "title": "parse", "files": ["a.go"], "depends_on": [2], "estimate": 1.5},
			{"id": 2, "title": "lex", "files": null},
			{"id": 3, "title": "emit", "files": ["b.go", "c.go"], "depends_on": null}
		],
		"matrix": [[1, 2], [3], null],
		"labels": {"bug": ["ui"], "docs": null},
		"priority": 3,
		"attachment": [104, 105]
	}`},
	{"gosdk-query.json", `{
		"metric": "latency",
		"group_by": ["region"],
		"filters": [{"field": "status", "op": "=", "value": 500}],
		"window": {"start": "2024-01-01", "end": null},
		"limit": 10,
		"threshold": 0.5,
		"weights": {"p50": 1, "p99": 2.5},
		"verbose": true
	}`},
	{"gosdk-execute-action.json", `{
		"server_name": "discord",
		"action": "send",
		"path_params": "{\"channel_id\": \"1458059302022549698\"}",
		"body": {"content": "hi", "tts": false},
		"headers": {"x-id": "7"},
		"dry_run": true
	}`},
	{"gosdk-execute-action-pointer.json", `{
		"server_name": "discord",
		"action": "send",
		"path_params": "{\"channel_id\": \"1458059302022549698\"}",
		"headers": {"x-retry": "true"},
		"dry_run": false
	}`},
	{"pydantic-create-issue.json", `{
		"repo": "coerce", "title": "nested variants", "body": null,
		"labels": ["enhancement", "2024"], "assignees": ["ana"], "milestone": 4,
		"priority": "high", "draft": false, "estimate_hours": 2.5,
		"metadata": {"source": "cli", "n": 1}
	}`},
	{"pydantic-register-pet.json", `{
		"pet": {"pet_type": "dog", "barks": 2.5},
		"owner_id": 42,
		"vaccinated_on": ["2024-05-01"]
	}`},
	{"pydantic-search.json", `{
		"query": "go", "tags": ["lang"], "ids": [9007199254740993, 7], "limit": 10,
		"filters": {"year": 2024}, "mode": "deep", "min_score": null, "include_archived": true
	}`},
	{"pydantic-upsert-contact.json", `{
		"person": {
			"name": "Ana", "age": 41,
			"addresses": [{"street": "Main", "city": "Oslo", "zip": "0150"}, {"street": "Side", "city": "Rome", "zip": "00100"}],
			"tags": ["vip"]
		},
		"tree": {"name": "root", "value": null, "children": [{"name": "leaf", "value": 2.5, "children": []}]},
		"priority": "high", "level": 2,
		"metadata": {"k": [1, 2]},
		"ratio": 1,
		"point": [3, "north"]
	}`},
	{"openapi30-pet.json", `{
		"petId": 12, "name": null, "tags": ["cat"], "status": "sold",
		"weight": 4.5, "vaccinated": null, "owner": {"id": 7, "email": "a@b.c"}
	}`},
	{"draft07-shapes.json", `{
		"shape": {
			"id": 1,
			"path": [[0, 0], [1.5, 2]],
			"fill": [255, 0, 0, 0.5],
			"children": [{"id": 2, "fill": [1, 2, 3]}]
		},
		"offset": [1, -1],
		"record": ["a", 1, true, false]
	}`},
	{"draft2020-geo.json", `{
		"center": [10.75, 59.91],
		"polygon": [[0, 0], [0, 1], [1, 1]],
		"rows": [["oslo", 1, true, "extra"]],
		"radius_km": 5,
		"unit": "km"
	}`},
}

func realSchema(t testing.TB, file string) *coerce.Schema {
	t.Helper()
	text, err := os.ReadFile(filepath.Join("..", "testdata", "schemas", file))
	if err != nil {
		t.Fatal(err)
	}
	s, err := coerce.ParseSchema(text)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return s
}

// decodeArgs decodes JSON text as a client does that keeps integers
// beyond float64 exact: numbers are float64, or json.Number where float64
// would change them (9007199254740993).
func decodeArgs(t testing.TB, text string) map[string]any {
	t.Helper()
	var args map[string]any
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	if err := dec.Decode(&args); err != nil {
		t.Fatal(err)
	}
	return floats(args).(map[string]any)
}

func floats(v any) any {
	switch x := v.(type) {
	case json.Number:
		if f, err := x.Float64(); err == nil && strconv.FormatFloat(f, 'f', -1, 64) == string(x) {
			return f
		}
	case []any:
		for i := range x {
			x[i] = floats(x[i])
		}
	case map[string]any:
		for k := range x {
			x[k] = floats(x[k])
		}
	}
	return v
}

// TestRealSchemasRepaired: every variant of every form, over real schemas,
// is broken as sent and repaired by both Coerce and CoerceJSON.
func TestRealSchemasRepaired(t *testing.T) {
	for _, tt := range realSchemas {
		t.Run(tt.file, func(t *testing.T) {
			schema := realSchema(t, tt.file)
			valid := decodeArgs(t, tt.valid)
			if !schema.Type().Conforms(valid) {
				t.Fatalf("the valid arguments do not conform")
			}
			vs := coercetest.Variants(schema, valid)
			nested := 0
			for _, v := range vs {
				if schema.Type().Conforms(v.Args) {
					t.Errorf("%s: conforms as sent: %v", v.Name, v.Args)
				}
				for part := range strings.SplitSeq(v.Name, "+") {
					if strings.Count(part, "/") > 1 {
						nested++
					}
				}
			}
			if nested == 0 {
				t.Errorf("no variant breaks a value inside a parameter")
			}
			t.Logf("%d variants", len(vs))
			if err := coercetest.Check(schema, valid); err != nil {
				t.Error(err)
			}
			if err := coercetest.CheckJSON(schema, []byte(tt.valid)); err != nil {
				t.Error(err)
			}
		})
	}
}

// pointer returns the value at a JSON Pointer inside v.
func pointer(t testing.TB, v any, ptr string) any {
	t.Helper()
	if ptr == "" {
		return v
	}
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = strings.NewReplacer("~1", "/", "~0", "~").Replace(tok)
		switch x := v.(type) {
		case map[string]any:
			v = x[tok]
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i >= len(x) {
				t.Fatalf("no %s in %v", ptr, v)
			}
			v = x[i]
		default:
			t.Fatalf("no %s in %v", ptr, v)
		}
	}
	return v
}

// TestVariantsNested shows the values broken inside parameters of real
// schemas: what is sent at the path, and what coercion must make of it.
func TestVariantsNested(t *testing.T) {
	tests := []struct {
		file    string
		variant string
		sent    any // at the path the name gives
		want    any
	}{
		// An array of objects: the first task stands for the others.
		{"gosdk-plan-tasks.json", "tasks/0/id/integer-as-string", "1", 1.0},
		{"gosdk-plan-tasks.json", "tasks/0/estimate/number-as-string", "1.5", 1.5},
		{"gosdk-plan-tasks.json", "tasks/0/depends_on/0/integer-as-string", "2", 2.0},
		{"gosdk-plan-tasks.json", "tasks/0/files/array-as-json-text", `["a.go"]`, []any{"a.go"}},
		{"gosdk-plan-tasks.json", "tasks/0/object-as-json-text",
			`{"depends_on":[2],"estimate":1.5,"files":["a.go"],"id":1,"title":"parse"}`,
			map[string]any{"depends_on": []any{2.0}, "estimate": 1.5, "files": []any{"a.go"}, "id": 1.0, "title": "parse"}},
		// The second task is the first with a null files.
		{"gosdk-plan-tasks.json", "tasks/1/files/null-as-empty-string", "", nil},
		// Arrays of arrays, and a map's values.
		{"gosdk-plan-tasks.json", "matrix/0/array-as-double-encoded-json-text", `"[1,2]"`, []any{1.0, 2.0}},
		{"gosdk-plan-tasks.json", "matrix/0/0/integer-as-string", "1", 1.0},
		{"gosdk-plan-tasks.json", "matrix/2/null-as-string", "null", nil},
		{"gosdk-plan-tasks.json", "labels/bug/array-as-spaced-json-text", `["ui"]`, []any{"ui"}},
		{"gosdk-plan-tasks.json", "labels/docs/null-as-empty-string", "", nil},
		{"gosdk-plan-tasks.json", "attachment/0/integer-as-string", "104", 104.0},
		// Closed objects under a nullable union; any inside them.
		{"gosdk-query.json", "window/object-as-json-text", `{"end":null,"start":"2024-01-01"}`,
			map[string]any{"end": nil, "start": "2024-01-01"}}, // end is a string: "" is no null
		{"gosdk-query.json", "weights/p50/number-as-string", "1", 1.0},
		{"gosdk-query.json", "filters/0/object-as-fenced-json-text",
			"```json\n{\n  \"field\": \"status\",\n  \"op\": \"=\",\n  \"value\": 500\n}\n```",
			map[string]any{"field": "status", "op": "=", "value": 500.0}},
		// additionalProperties: a string map's values.
		{"gosdk-execute-action.json", "headers/x-id/string-as-number", 7.0, "7"},
		{"gosdk-execute-action-pointer.json", "headers/x-retry/string-as-boolean", true, "true"},
		// A discriminated oneOf: the member the pet is valid against
		// repairs it, and no other member can take it.
		{"pydantic-register-pet.json", "pet/barks/number-as-string", "2.5", 2.5},
		{"pydantic-register-pet.json", "pet/object-as-json-text", `{"barks":2.5,"pet_type":"dog"}`,
			map[string]any{"barks": 2.5, "pet_type": "dog"}},
		{"pydantic-create-issue.json", "labels/1/string-as-number", 2024.0, "2024"},
		{"pydantic-search.json", "ids/0/integer-as-string", "9007199254740993", json.Number("9007199254740993")},
		// $ref, recursion, nullable unions of objects, tuples.
		{"pydantic-upsert-contact.json", "person/age/integer-as-string", "41", 41.0},
		{"pydantic-upsert-contact.json", "person/addresses/0/object-as-json-text",
			`{"city":"Oslo","street":"Main","zip":"0150"}`,
			map[string]any{"city": "Oslo", "street": "Main", "zip": "0150"}},
		{"pydantic-upsert-contact.json", "tree/value/null-as-empty-string", "", nil},
		{"pydantic-upsert-contact.json", "tree/children/0/value/number-as-string", "2.5", 2.5},
		{"pydantic-upsert-contact.json", "point/0/integer-as-string", "3", 3.0},
		{"openapi30-pet.json", "owner/id/integer-as-string", "7", 7.0},
		{"draft07-shapes.json", "shape/path/0/0/number-as-string", "0", 0.0},
		{"draft07-shapes.json", "shape/fill/3/number-as-string", "0.5", 0.5},
		{"draft07-shapes.json", "shape/children/0/fill/0/integer-as-string", "1", 1.0},
		{"draft07-shapes.json", "record/1/integer-as-string", "1", 1.0},
		{"draft07-shapes.json", "record/2/boolean-as-python-string", "True", true},
		{"draft2020-geo.json", "rows/0/2/boolean-as-number", 1.0, true},
		{"draft2020-geo.json", "polygon/0/0/number-as-string", "0", 0.0},
	}
	variants := map[string]map[string]coercetest.Variant{}
	valids := map[string]map[string]any{}
	for _, s := range realSchemas {
		valid := decodeArgs(t, s.valid)
		valids[s.file] = valid
		variants[s.file] = map[string]coercetest.Variant{}
		for _, v := range coercetest.Variants(realSchema(t, s.file), valid) {
			variants[s.file][v.Name] = v
		}
	}
	for _, tt := range tests {
		v, ok := variants[tt.file][tt.variant]
		if !ok {
			t.Errorf("%s: no variant %s", tt.file, tt.variant)
			continue
		}
		path, _, _ := strings.Cut(tt.variant, "+")
		path = "/" + path[:strings.LastIndexByte(path, '/')]
		if diff := diff(tt.sent, pointer(t, v.Args, path)); diff != "" {
			t.Errorf("%s %s: sent at %s (-want +got):\n%s", tt.file, tt.variant, path, diff)
		}
		if diff := diff(tt.want, pointer(t, v.Want, path)); diff != "" {
			t.Errorf("%s %s: wanted at %s (-want +got):\n%s", tt.file, tt.variant, path, diff)
		}
		// Everything else is as valid: the parameters as given, the
		// values inside the broken one as their JSON.
		param, _, _ := strings.Cut(path[1:], "/")
		for p, val := range valids[tt.file] {
			if p != param && (!reflect.DeepEqual(v.Args[p], val) || !reflect.DeepEqual(v.Want[p], val)) {
				t.Errorf("%s %s: parameter %s changed", tt.file, tt.variant, p)
			}
		}
	}

	// What each route breaks once is not broken again.
	for _, name := range []string{
		"tasks/1/id/integer-as-string", "tasks/2/files/array-as-json-text",
		"tasks/1/object-as-json-text", "matrix/1/0/integer-as-string",
		"shape/path/1/0/number-as-string",
	} {
		for file := range variants {
			if _, ok := variants[file][name]; ok {
				t.Errorf("%s: variant %s, but the first element of its array is broken already", file, name)
			}
		}
	}
}

// TestVariantsInsideUnions shows where a union's choice of member makes a
// value inside it unsafe to break: the member coercion would choose for
// the broken value is not the one the valid value conforms to.
func TestVariantsInsideUnions(t *testing.T) {
	tests := []struct {
		name   string
		schema string
		valid  string
		want   []string // the single variants inside the parameter p
		// without is a form left out, and why: what coercion makes of it.
		without, sent, coerced string
	}{
		{
			name: "required tells the members apart",
			schema: `{"oneOf": [
				{"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]},
				{"type": "object", "properties": {"id": {"type": "integer"}}, "required": ["id"]}]}`,
			valid: `{"id": 7}`,
			want:  []string{"p/id/integer-as-string"},
		},
		{
			name: "closed objects, as github-mcp-server's projects_write items",
			schema: `{"oneOf": [
				{"type": "object", "properties": {"issue_number": {"type": "integer"}}, "required": ["issue_number"], "additionalProperties": false},
				{"type": "object", "properties": {"item_id": {"type": "integer"}, "archived": {"type": "boolean"}}, "required": ["item_id"], "additionalProperties": false}]}`,
			valid: `{"item_id": 1234567, "archived": false}`,
			want: []string{"p/archived/boolean-as-string", "p/archived/boolean-as-python-string",
				"p/archived/boolean-as-number", "p/item_id/integer-as-string"},
		},
		{
			name: "a const tag",
			schema: `{"anyOf": [
				{"type": "object", "properties": {"kind": {"const": "a"}, "n": {"type": "string"}}},
				{"type": "object", "properties": {"kind": {"const": "b"}, "n": {"type": "integer"}}}]}`,
			valid: `{"kind": "b", "n": 5}`,
			want:  []string{"p/n/integer-as-string"},
		},
		{
			name: "no keyword: the first member takes what it can",
			schema: `{"anyOf": [
				{"type": "object", "properties": {"id": {"type": "string"}}},
				{"type": "object", "properties": {"id": {"type": "integer"}, "n": {"type": "integer"}}}]}`,
			valid:   `{"id": 5, "n": 3}`,
			without: "p/n/integer-as-string", sent: `{"id": 5, "n": "3"}`, coerced: `{"id": "5", "n": "3"}`,
		},
		{
			name:    "arrays: the first member that converts",
			schema:  `{"anyOf": [{"type": "array", "items": {"type": "boolean"}}, {"type": "array", "items": {"type": "integer"}}]}`,
			valid:   `[1]`,
			without: "p/0/integer-as-string", sent: `["1"]`, coerced: `[true]`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			schema := mustSchema(t, `{"type": "object", "properties": {"p": `+tt.schema+`}}`)
			valid := decodeArgs(t, `{"p": `+tt.valid+`}`)
			var got []string
			for _, v := range coercetest.Variants(schema, valid) {
				if !strings.Contains(v.Name, "+") && strings.Count(v.Name, "/") > 1 {
					got = append(got, v.Name)
				}
			}
			if diff := diff(tt.want, got); diff != "" {
				t.Errorf("variants inside p (-want +got):\n%s", diff)
			}
			if tt.without != "" {
				if slices.Contains(got, tt.without) {
					t.Errorf("variant %s, which coercion does not repair", tt.without)
				}
				out, err := schema.Coerce(decodeArgs(t, `{"p": `+tt.sent+`}`))
				if err != nil {
					t.Fatal(err)
				}
				if diff := diff(decodeArgs(t, `{"p": `+tt.coerced+`}`), out); diff != "" {
					t.Errorf("Coerce(%s) (-want +got):\n%s", tt.sent, diff)
				}
			}
			if err := coercetest.Check(schema, valid); err != nil {
				t.Error(err)
			}
			if err := coercetest.CheckJSON(schema, mustJSON(t, valid)); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestVariantsRounds: in a round, a container sent as JSON text holds the
// values inside it as the round broke them, as a client sends it that
// stringifies every value and then the whole argument.
func TestVariantsRounds(t *testing.T) {
	schema := mustSchema(t, `{"type": "object", "properties": {"tasks": {"type": "array", "items": {
		"type": "object", "properties": {"id": {"type": "integer"}, "done": {"type": "boolean"}}}}}}`)
	valid := decodeArgs(t, `{"tasks": [{"id": 1, "done": true}]}`)
	var rounds []coercetest.Variant
	for _, v := range coercetest.Variants(schema, valid) {
		if strings.Contains(v.Name, "+") {
			rounds = append(rounds, v)
		}
	}
	want := []struct{ name, sent string }{
		{
			"tasks/array-as-json-text+tasks/0/object-as-json-text+tasks/0/done/boolean-as-string+tasks/0/id/integer-as-string",
			`["{\"done\":\"true\",\"id\":\"1\"}"]`,
		},
		{
			"tasks/array-as-spaced-json-text+tasks/0/object-as-spaced-json-text+tasks/0/done/boolean-as-python-string+tasks/0/id/integer-as-string",
			`["{\"done\": \"True\", \"id\": \"1\"}"]`,
		},
		{
			"tasks/array-as-indented-json-text+tasks/0/object-as-indented-json-text+tasks/0/done/boolean-as-number+tasks/0/id/integer-as-string",
			"[\n  \"{\\n  \\\"done\\\": 1,\\n  \\\"id\\\": \\\"1\\\"\\n}\\n\"\n]\n",
		},
	}
	if len(rounds) != 5 {
		t.Fatalf("%d rounds, want 5: %v", len(rounds), names(rounds))
	}
	for i, w := range want {
		if rounds[i].Name != w.name {
			t.Errorf("round %d: %s, want %s", i, rounds[i].Name, w.name)
		}
		if got := rounds[i].Args["tasks"]; got != w.sent {
			t.Errorf("round %d sends tasks %q, want %q", i, got, w.sent)
		}
		if diff := diff(valid["tasks"], rounds[i].Want["tasks"]); diff != "" {
			t.Errorf("round %d: Want (-valid +got):\n%s", i, diff)
		}
	}
	coercetest.AssertRepairs(t, schema, valid)
	coercetest.AssertRepairsJSON(t, schema, mustJSON(t, valid))
}

// TestVariantsBounds: the variants grow with the schema, not with the
// arguments.
func TestVariantsBounds(t *testing.T) {
	schema := realSchema(t, "gosdk-plan-tasks.json")
	args := func(n int) map[string]any {
		var tasks []any
		labels := map[string]any{}
		for i := range n {
			tasks = append(tasks, map[string]any{"id": float64(i), "title": "t", "files": []any{"a.go"}, "depends_on": []any{1.0, 2.0}})
			labels["label"+strconv.Itoa(i)] = []any{"x"}
		}
		return map[string]any{"plan_id": "p", "tasks": tasks, "labels": labels}
	}
	one, many := names(coercetest.Variants(schema, args(1))), names(coercetest.Variants(schema, args(1000)))
	if diff := diff(one, many); diff != "" {
		t.Errorf("1000 tasks and labels: variants differ from one's (-one +many):\n%s", diff)
	}

	// The elements of a list that take another member of a union are
	// broken too.
	union := mustSchema(t, `{"type": "object", "properties": {"items": {"type": "array", "items": {"oneOf": [
		{"type": "object", "properties": {"kind": {"const": "a"}, "n": {"type": "integer"}}, "required": ["kind"]},
		{"type": "object", "properties": {"kind": {"const": "b"}, "on": {"type": "boolean"}}, "required": ["kind"]}]}}}}`)
	valid := decodeArgs(t, `{"items": [{"kind": "a", "n": 1}, {"kind": "a", "n": 2}, {"kind": "b", "on": true}]}`)
	var got []string
	for _, v := range coercetest.Variants(union, valid) {
		if !strings.Contains(v.Name, "+") && !strings.Contains(v.Name, "json-text") {
			got = append(got, v.Name)
		}
	}
	want := []string{
		"items/0/n/integer-as-string",
		"items/2/on/boolean-as-string", "items/2/on/boolean-as-python-string", "items/2/on/boolean-as-number",
	}
	if diff := diff(want, got); diff != "" {
		t.Errorf("variants inside a list of a union (-want +got):\n%s", diff)
	}
	coercetest.AssertRepairs(t, union, valid)

	// At most 32 values inside one parameter, the first in document order.
	var props []string
	wide := map[string]any{}
	for i := range 100 {
		k := fmt.Sprintf("f%03d", i)
		props = append(props, fmt.Sprintf("%q: {\"type\": \"integer\"}", k))
		wide[k] = float64(i)
	}
	capped := mustSchema(t, `{"type": "object", "properties": {"p": {"type": "object", "properties": {`+strings.Join(props, ",")+`}}}}`)
	got = nil
	for _, v := range coercetest.Variants(capped, map[string]any{"p": wide}) {
		if !strings.Contains(v.Name, "+") && strings.Count(v.Name, "/") > 1 {
			got = append(got, v.Name)
		}
	}
	if len(got) != 32 || got[0] != "p/f000/integer-as-string" || got[31] != "p/f031/integer-as-string" {
		t.Errorf("%d variants inside p, want the 32 first in document order: %v", len(got), got)
	}
}
