package coercetest_test

import (
	"encoding/json"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/coerce-go/coerce"
	"github.com/coerce-go/coerce/coercetest"
)

// everyTypeSchema declares a parameter of every JSON type, and strings
// that hold JSON text, digits and a boolean word.
const everyTypeSchema = `{
	"type": "object",
	"properties": {
		"query":   {"type": "string"},
		"payload": {"type": "string", "description": "JSON object text, passed on as is"},
		"columns": {"type": "string", "description": "JSON array text"},
		"channel": {"type": "string", "description": "digits"},
		"enabled": {"type": "string", "description": "a boolean word"},
		"limit":   {"type": "integer"},
		"big":     {"type": "integer"},
		"ratio":   {"type": "number"},
		"verbose": {"type": "boolean"},
		"cursor":  {"type": ["integer", "null"]},
		"note":    {"type": ["string", "null"]},
		"tags":    {"type": "array", "items": {"type": "string"}},
		"filter":  {
			"type": "object",
			"properties": {"lang": {"type": "string"}, "min": {"type": "integer"}}
		},
		"extra":   {}
	}
}`

func everyTypeArgs() map[string]any {
	return map[string]any{
		"query":   "go <generics> & more",
		"payload": `{"channel_id": "123", "n": [1, 2.5]}`,
		"columns": `["a", "b"]`,
		"channel": "1234567890",
		"enabled": "true",
		"limit":   10,
		"big":     json.Number("9007199254740993"), // beyond float64's exact integers
		"ratio":   2.5,
		"verbose": true,
		"cursor":  nil,
		"note":    nil, // nullable, but a string: "" would be a valid string
		"tags":    []string{"go", "é", "😀"},
		"filter":  map[string]any{"lang": "en", "min": 3},
		"extra":   "anything",
	}
}

func mustSchema(t testing.TB, schema string) *coerce.Schema {
	t.Helper()
	s, err := coerce.ParseSchema([]byte(schema))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func names(vs []coercetest.Variant) []string {
	var out []string
	for _, v := range vs {
		out = append(out, v.Name)
	}
	return out
}

func TestVariantsEveryForm(t *testing.T) {
	schema := mustSchema(t, everyTypeSchema)
	valid := everyTypeArgs()
	vs := coercetest.Variants(schema, valid)

	wantSingles := []string{
		"big/integer-as-string",
		"channel/string-as-number",
		"columns/json-text-as-array",
		"cursor/null-as-empty-string",
		"cursor/null-as-string",
		"enabled/string-as-boolean",
		"filter/object-as-json-text",
		"filter/object-as-spaced-json-text",
		"filter/object-as-indented-json-text",
		"filter/object-as-double-encoded-json-text",
		"filter/object-as-fenced-json-text",
		"filter/min/integer-as-string", // inside the object
		"limit/integer-as-string",
		"payload/json-text-as-object",
		"ratio/number-as-string",
		"tags/array-as-json-text",
		"tags/array-as-spaced-json-text",
		"tags/array-as-indented-json-text",
		"tags/array-as-double-encoded-json-text",
		"tags/array-as-fenced-json-text",
		"verbose/boolean-as-string",
		"verbose/boolean-as-python-string",
		"verbose/boolean-as-number",
	}
	var singles []string
	for _, name := range names(vs) {
		if !strings.Contains(name, "+") {
			singles = append(singles, name)
		}
	}
	if diff := diff(wantSingles, singles); diff != "" {
		t.Errorf("single variants (-want +got):\n%s", diff)
	}

	// Every form of the package documentation is among them.
	forms := map[string]bool{}
	for _, name := range singles {
		forms[name[strings.LastIndexByte(name, '/')+1:]] = true
	}
	for _, form := range []string{
		"array-as-json-text", "array-as-spaced-json-text", "array-as-indented-json-text",
		"array-as-double-encoded-json-text", "array-as-fenced-json-text",
		"object-as-json-text", "object-as-spaced-json-text", "object-as-indented-json-text",
		"object-as-double-encoded-json-text", "object-as-fenced-json-text",
		"integer-as-string", "number-as-string",
		"boolean-as-string", "boolean-as-python-string", "boolean-as-number",
		"null-as-empty-string", "null-as-string",
		"json-text-as-object", "json-text-as-array", "string-as-number", "string-as-boolean",
	} {
		if !forms[form] {
			t.Errorf("no variant of form %s", form)
		}
	}

	// Each is broken as sent and repaired by coercion, which is what
	// AssertRepairs checks.
	for _, v := range vs {
		if schema.Type().Conforms(v.Args) {
			t.Errorf("%s: Args already conform: %v", v.Name, v.Args)
		}
	}
	coercetest.AssertRepairs(t, schema, valid)
	coercetest.AssertRepairsJSON(t, schema, mustJSON(t, valid))
}

func mustJSON(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestVariantsSent(t *testing.T) {
	schema := mustSchema(t, everyTypeSchema)
	valid := everyTypeArgs()
	byName := map[string]coercetest.Variant{}
	for _, v := range coercetest.Variants(schema, valid) {
		byName[v.Name] = v
	}
	tests := []struct {
		variant, param string
		sent, want     any
	}{
		{"tags/array-as-json-text", "tags", `["go","é","😀"]`, valid["tags"]},
		{"tags/array-as-spaced-json-text", "tags", `["go", "\u00e9", "\ud83d\ude00"]`, valid["tags"]},
		{"tags/array-as-indented-json-text", "tags", "[\n  \"go\",\n  \"é\",\n  \"😀\"\n]\n", valid["tags"]},
		{"tags/array-as-double-encoded-json-text", "tags", `"[\"go\",\"é\",\"😀\"]"`, valid["tags"]},
		{"tags/array-as-fenced-json-text", "tags", "```json\n[\n  \"go\",\n  \"é\",\n  \"😀\"\n]\n```", valid["tags"]},
		{"filter/object-as-json-text", "filter", `{"lang":"en","min":3}`, valid["filter"]},
		{"filter/object-as-spaced-json-text", "filter", `{"lang": "en", "min": 3}`, valid["filter"]},
		{"limit/integer-as-string", "limit", "10", 10},
		{"big/integer-as-string", "big", "9007199254740993", json.Number("9007199254740993")},
		{"ratio/number-as-string", "ratio", "2.5", 2.5},
		{"verbose/boolean-as-string", "verbose", "true", true},
		{"verbose/boolean-as-python-string", "verbose", "True", true},
		{"verbose/boolean-as-number", "verbose", float64(1), true},
		{"cursor/null-as-empty-string", "cursor", "", nil},
		{"cursor/null-as-string", "cursor", "null", nil},
		{"channel/string-as-number", "channel", float64(1234567890), "1234567890"},
		{"enabled/string-as-boolean", "enabled", true, "true"},
		{
			"payload/json-text-as-object", "payload",
			map[string]any{"channel_id": "123", "n": []any{float64(1), 2.5}},
			`{"channel_id":"123","n":[1,2.5]}`, // as coercion writes it back
		},
		{"columns/json-text-as-array", "columns", []any{"a", "b"}, `["a","b"]`},
	}
	for _, tt := range tests {
		v, ok := byName[tt.variant]
		if !ok {
			t.Errorf("no variant %s", tt.variant)
			continue
		}
		if diff := diff(tt.sent, v.Args[tt.param]); diff != "" {
			t.Errorf("%s: Args[%q] (-want +got):\n%s", tt.variant, tt.param, diff)
		}
		if diff := diff(tt.want, v.Want[tt.param]); diff != "" {
			t.Errorf("%s: Want[%q] (-want +got):\n%s", tt.variant, tt.param, diff)
		}
		// The other parameters are the valid ones, untouched.
		for p, val := range valid {
			if p == tt.param {
				continue
			}
			if !reflect.DeepEqual(v.Args[p], val) || !reflect.DeepEqual(v.Want[p], val) {
				t.Errorf("%s: parameter %s changed: Args %v, Want %v, valid %v", tt.variant, p, v.Args[p], v.Want[p], val)
			}
		}
	}
}

// TestVariantsDeclaredType shows which forms each declared type admits:
// only those whose repair gives back the valid value. The single variants
// are listed, of the parameter p ("form") and of the values inside it
// ("0/form").
func TestVariantsDeclaredType(t *testing.T) {
	arrayForms := []string{
		"array-as-json-text", "array-as-spaced-json-text", "array-as-indented-json-text",
		"array-as-double-encoded-json-text", "array-as-fenced-json-text",
	}
	objectForms := []string{
		"object-as-json-text", "object-as-spaced-json-text", "object-as-indented-json-text",
		"object-as-double-encoded-json-text", "object-as-fenced-json-text",
	}
	tests := []struct {
		declared string
		valid    any
		want     []string // forms, in order
	}{
		{"any", []any{"a"}, nil},
		{"list[str]", []any{"a"}, arrayForms},
		{"list[int]", []any{}, arrayForms},
		{"[]int", []int{1, 2}, append(arrayForms, "0/integer-as-string")}, // 2 is broken like 1
		{"dict", map[string]any{}, objectForms},
		{"dict", map[string]any{"n": 1}, objectForms}, // any inside
		{
			"dict[str, list[int]]", map[string][]int{"a": {1}},
			slices.Concat(objectForms, prefixed("a/", arrayForms), []string{"a/0/integer-as-string"}),
		},
		// Text is a valid string: nothing to repair.
		{"str | list[str]", []any{"a"}, nil},
		{"dict | str", map[string]any{"a": 1}, nil},
		// The text holds a value that conforms to a member, which keeps it.
		{"list[int] | list[str]", []any{1}, arrayForms},
		{"list[str] | list[int]", []any{1}, arrayForms},
		// Not ["1"]: it conforms to list[str]. But ["1", 2] does not, and
		// list[int], tried first, converts it.
		{"list[int] | list[str]", []any{1, 2}, append(arrayForms, "0/integer-as-string")},
		{"list[str] | list[int]", []any{1, 2}, arrayForms}, // ["1", "2"] would come back
		// ["1"] would become [true]: the first array member that converts
		// it wins.
		{"list[bool] | list[int]", []any{1}, arrayForms},
		{"list[int] | list[bool]", []any{1}, append(arrayForms, "0/integer-as-string")},
		{"Optional[list[int]]", []any{1}, append(arrayForms, "0/integer-as-string")},
		{"list[Optional[int]]", []any{nil, 1}, append(arrayForms, "0/null-as-empty-string", "0/null-as-string", "1/integer-as-string")},
		{"list[int | str]", []any{1, "a"}, arrayForms}, // "1" would stay a string
		{"list[str | int]", []any{"5"}, arrayForms},    // 5 would stay a number
		{"list[str]", []any{"5", "true"}, append(arrayForms, "0/string-as-number", "1/string-as-boolean")},
		{"tuple[int, bool]", []any{1, true}, append(arrayForms,
			"0/integer-as-string", "1/boolean-as-string", "1/boolean-as-python-string", "1/boolean-as-number")},
		{"list[list[int]]", []any{[]any{1}}, slices.Concat(arrayForms, prefixed("0/", arrayForms), []string{"0/0/integer-as-string"})},
		{"list[any]", []any{"5"}, arrayForms},
		{"Optional[list[str]]", []any{"a"}, arrayForms},
		{"Optional[list[str]]", nil, []string{"null-as-empty-string", "null-as-string"}},
		{"null | dict", nil, []string{"null-as-empty-string", "null-as-string"}},
		{"str | None", nil, nil}, // "" is a valid string
		{"int", nil, nil},        // nil fits every type; "" would not become it
		{"int", 5, []string{"integer-as-string"}},
		{"int", 0, []string{"integer-as-string"}},
		{"int", json.Number("9007199254740993"), []string{"integer-as-string"}},
		{"int", 5.5, nil}, // does not fit: not valid
		{"float", 5, []string{"number-as-string"}},
		{"float", 1e21, []string{"number-as-string"}},
		{"int | float", 2.5, []string{"number-as-string"}}, // "2.5" is no integer: the number takes it
		{"int | bool", 1, []string{"integer-as-string"}},
		{"bool | int", 1, nil}, // "1" would become true
		{"bool | int", 7, []string{"integer-as-string"}},
		{"bool", true, []string{"boolean-as-string", "boolean-as-python-string", "boolean-as-number"}},
		{"bool", false, []string{"boolean-as-string", "boolean-as-python-string", "boolean-as-number"}},
		{"bool | int", true, []string{"boolean-as-string", "boolean-as-python-string"}}, // 1 fits int
		{"int | bool", false, []string{"boolean-as-string", "boolean-as-python-string"}},
		{"str | bool", true, nil}, // "true" is a valid string
		{"str", "5", []string{"string-as-number"}},
		{"str", "-1.5", []string{"string-as-number"}},
		{"str", "1e+21", []string{"string-as-number"}},
		{"str", "12345678901234567890", []string{"string-as-number"}}, // sent as json.Number
		{"str", "05", nil},                                            // 5 would come back as "5"
		{"str", "1.50", nil},                                          // and 1.5 as "1.5"
		{"str", "1e3", nil},
		{"str", " 5", nil},
		{"str", "true", []string{"string-as-boolean"}},
		{"str", "True", nil},
		{"str", "hello", nil},
		{"str", `{"b": 1, "a": [true]}`, []string{"json-text-as-object"}},
		{"str", " [1, 2] ", []string{"json-text-as-array"}},
		{"str", `{"a": 1}trailing`, nil},
		{"str", `{"a": 1e400}`, nil}, // coercion rejects the text
		{"str", "```json\n{}\n```", nil},
		{"str | dict", `{"a": 1}`, nil},             // the object would fit
		{"str | dict[str, int]", `{"a": "x"}`, nil}, // tried first, it might convert
		{"str | list[int]", `{"a": 1}`, []string{"json-text-as-object"}},
		{"str | bool", "1", []string{"string-as-number"}},
		{"bool | str", "1", nil},     // 1 would become true
		{"int | str", "5", nil},      // 5 fits
		{"float | str", "true", nil}, // true would become 1
		{"str | float", "true", []string{"string-as-boolean"}},
	}
	for _, tt := range tests {
		schema, err := coerce.SchemaFromTypes(map[string]string{"p": tt.declared})
		if err != nil {
			t.Fatal(err)
		}
		valid := map[string]any{"p": tt.valid}
		var got []string
		for _, v := range coercetest.Variants(schema, valid) {
			if !strings.Contains(v.Name, "+") {
				got = append(got, strings.TrimPrefix(v.Name, "p/"))
			}
		}
		if diff := diff(tt.want, got); diff != "" {
			t.Errorf("Variants of %#v declared %q (-want +got):\n%s", tt.valid, tt.declared, diff)
		}
		if !schema.Type().Conforms(valid) {
			continue
		}
		coercetest.AssertRepairs(t, schema, valid)
		coercetest.AssertRepairsJSON(t, schema, mustJSON(t, valid))
	}
}

func prefixed(prefix string, names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = prefix + n
	}
	return out
}

func TestVariantsCombinations(t *testing.T) {
	schema, err := coerce.SchemaFromTypes(map[string]string{
		"a": "int", "b": "bool", "c": "list[str]", "d": "any",
	})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		valid map[string]any
		want  []string // after the single variants
	}{
		{map[string]any{"a": 1, "d": 1}, nil},
		{
			map[string]any{"a": 1, "b": true},
			[]string{ // rounds only: the one pair is the first round
				"a/integer-as-string+b/boolean-as-string",
				"a/integer-as-string+b/boolean-as-python-string",
				"a/integer-as-string+b/boolean-as-number",
			},
		},
		{
			map[string]any{"a": 1, "b": true, "c": []any{"x"}, "d": 1},
			[]string{
				"a/integer-as-string+b/boolean-as-string",
				"a/integer-as-string+c/array-as-json-text",
				"b/boolean-as-string+c/array-as-json-text",
				"a/integer-as-string+b/boolean-as-string+c/array-as-json-text",
				"a/integer-as-string+b/boolean-as-python-string+c/array-as-spaced-json-text",
				"a/integer-as-string+b/boolean-as-number+c/array-as-indented-json-text",
				"a/integer-as-string+b/boolean-as-string+c/array-as-double-encoded-json-text",
				"a/integer-as-string+b/boolean-as-python-string+c/array-as-fenced-json-text",
			},
		},
	}
	for _, tt := range tests {
		vs := coercetest.Variants(schema, tt.valid)
		var got []string
		for _, v := range vs {
			if strings.Contains(v.Name, "+") {
				got = append(got, v.Name)
				// A combination breaks each of its parameters as its single
				// variant does.
				for part := range strings.SplitSeq(v.Name, "+") {
					single := vs[slices.IndexFunc(vs, func(s coercetest.Variant) bool { return s.Name == part })]
					p := part[:strings.IndexByte(part, '/')]
					if !reflect.DeepEqual(v.Args[p], single.Args[p]) {
						t.Errorf("%s: Args[%s] = %#v, single variant has %#v", v.Name, p, v.Args[p], single.Args[p])
					}
				}
			}
		}
		if diff := diff(tt.want, got); diff != "" {
			t.Errorf("combinations of %v (-want +got):\n%s", tt.valid, diff)
		}
		coercetest.AssertRepairs(t, schema, tt.valid)
	}
}

func TestVariantsDeterministic(t *testing.T) {
	schema := mustSchema(t, everyTypeSchema)
	first := coercetest.Variants(schema, everyTypeArgs())
	for range 5 {
		if diff := diff(first, coercetest.Variants(schema, everyTypeArgs())); diff != "" {
			t.Fatalf("Variants differ between calls (-first +later):\n%s", diff)
		}
	}
}

func TestVariantsLeaveValidAlone(t *testing.T) {
	schema := mustSchema(t, everyTypeSchema)
	valid := everyTypeArgs()
	vs := coercetest.Variants(schema, valid)
	if diff := diff(everyTypeArgs(), valid); diff != "" {
		t.Errorf("Variants modified the valid arguments (-before +after):\n%s", diff)
	}
	for _, v := range vs {
		v.Args["query"], v.Want["query"] = "changed", "changed"
	}
	if valid["query"] != everyTypeArgs()["query"] {
		t.Errorf("a variant's Args or Want is the valid map itself")
	}
}

func TestVariantsEdgeCases(t *testing.T) {
	schema, err := coerce.SchemaFromTypes(map[string]string{"a/b~c": "int", "nan": "float"})
	if err != nil {
		t.Fatal(err)
	}
	got := names(coercetest.Variants(schema, map[string]any{
		"a/b~c":      1,
		"nan":        math.NaN(), // no JSON form: not broken
		"undeclared": "5",        // not in the schema: passes through coercion
	}))
	want := []string{"a~1b~0c/integer-as-string"} // escaped as in a JSON Pointer
	if diff := diff(want, got); diff != "" {
		t.Errorf("Variants (-want +got):\n%s", diff)
	}

	if vs := coercetest.Variants(schema, nil); len(vs) != 0 {
		t.Errorf("Variants of no arguments = %v, want none", names(vs))
	}
}

// Schemas from the other sources: a workflow node's Go struct, and a
// Python server's anyOf with $defs.
func TestVariantsOtherSchemas(t *testing.T) {
	type node struct {
		Tags    []string       `json:"tags"`
		Limit   *int           `json:"limit"`
		Payload string         `json:"payload"`
		Meta    map[string]int `json:"meta"`
	}
	fromStruct, err := coerce.SchemaFor[node]()
	if err != nil {
		t.Fatal(err)
	}
	fromPython := mustSchema(t, `{
		"type": "object",
		"$defs": {"Tags": {"type": "array", "items": {"type": "string"}}},
		"properties": {
			"tags":    {"anyOf": [{"$ref": "#/$defs/Tags"}, {"type": "null"}]},
			"limit":   {"anyOf": [{"type": "integer"}, {"type": "null"}], "default": null},
			"payload": {"type": "string"},
			"meta":    {"type": "object", "additionalProperties": {"type": "integer"}}
		}
	}`)
	valid := map[string]any{
		"tags":    []string{"a"},
		"limit":   nil,
		"payload": `{"a": 1}`,
		"meta":    map[string]int{"n": 1},
	}
	want := []string{
		"limit/null-as-empty-string",
		"limit/null-as-string",
		"meta/object-as-json-text",
		"meta/object-as-spaced-json-text",
		"meta/object-as-indented-json-text",
		"meta/object-as-double-encoded-json-text",
		"meta/object-as-fenced-json-text",
		"meta/n/integer-as-string",
		"payload/json-text-as-object",
		"tags/array-as-json-text",
		"tags/array-as-spaced-json-text",
		"tags/array-as-indented-json-text",
		"tags/array-as-double-encoded-json-text",
		"tags/array-as-fenced-json-text",
	}
	for name, schema := range map[string]*coerce.Schema{"struct": fromStruct, "JSON Schema": fromPython} {
		var got []string
		for _, v := range coercetest.Variants(schema, valid) {
			if !strings.Contains(v.Name, "+") {
				got = append(got, v.Name)
			}
		}
		if diff := diff(want, got); diff != "" {
			t.Errorf("%s: single variants (-want +got):\n%s", name, diff)
		}
		coercetest.AssertRepairs(t, schema, valid)
		coercetest.AssertRepairsJSON(t, schema, mustJSON(t, valid))
	}
}

// TestRepairsTrickyValues runs the helpers over values that are hard to
// write as JSON text: escapes, fences and JSON inside strings, keys that
// need escaping, extreme and negative-zero numbers.
func TestRepairsTrickyValues(t *testing.T) {
	tests := []struct {
		declared string
		valid    any
	}{
		{"list[str]", []any{"", `"`, `\`, "\n\t", "<a>&amp;", "\u2028\u2029", "\x00\x1f", "é😀", "```", "{", "[1]"}},
		{"dict[str, str]", map[string]any{"": "", "a/b": "x", "é": "😀", `"`: `\`}},
		{"dict", map[string]any{"k": []any{"v", "```json\n[1]\n```"}}},
		{"list[float]", []any{0.1, math.Copysign(0, -1), 2.5e-300, 1.7976931348623157e308, 5e-324, 1e21, 1e-7, -5}},
		{"list[list[int]]", []any{[]any{1, 2}, []any{}}},
		{"Optional[list[dict]]", []any{map[string]any{"x": []any{1.5, nil, true}}}},
		{"tuple[int, str]", []any{1, "x"}},
		{"list[bool] | None", []any{true, false}},
		{"int", json.Number("1e3")},
		{"int", json.Number("-0")},
		{"float", 5e-324},
		{"float", json.Number("0.5")},
		{"str", "-0"},
		{"str", "5e-324"},
		{"str", "1.7976931348623157e+308"},
		{"str", `{"a":{"b":[1,{"c":null}]}}`},
		{"str", `["\u2028"]`},
		{"str", "{}"},
	}
	for _, tt := range tests {
		schema, err := coerce.SchemaFromTypes(map[string]string{"p": tt.declared, "q": "int"})
		if err != nil {
			t.Fatal(err)
		}
		valid := map[string]any{"p": tt.valid, "q": 3}
		if len(coercetest.Variants(schema, valid)) < 2 {
			t.Errorf("%q %#v: no variant of p", tt.declared, tt.valid)
		}
		coercetest.AssertRepairs(t, schema, valid)
		coercetest.AssertRepairsJSON(t, schema, mustJSON(t, valid))
	}
}
