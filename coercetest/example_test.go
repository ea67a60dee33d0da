package coercetest_test

import (
	"encoding/json"
	"fmt"
	"log"
	"strings"
	"testing"

	"github.com/coerce-go/coerce"
	"github.com/coerce-go/coerce/coercetest"
)

// searchSchema is the input schema of an MCP tool under test.
var searchSchema = []byte(`{
	"type": "object",
	"properties": {
		"query": {"type": "string"},
		"limit": {"type": "integer"},
		"tags":  {"type": ["array", "null"], "items": {"type": "string"}}
	}
}`)

// The broken forms of one valid call, as clients send them.
func ExampleVariants() {
	schema, err := coerce.ParseSchema(searchSchema)
	if err != nil {
		log.Fatal(err)
	}
	valid := map[string]any{"query": "go", "limit": 10, "tags": []any{"go"}}
	variants := coercetest.Variants(schema, valid)
	for _, v := range variants {
		fmt.Println(v.Name)
	}
	fmt.Printf("\n%s sends %q\n", variants[5].Name, variants[5].Args["tags"])
	// Output:
	// limit/integer-as-string
	// tags/array-as-json-text
	// tags/array-as-spaced-json-text
	// tags/array-as-indented-json-text
	// tags/array-as-double-encoded-json-text
	// tags/array-as-fenced-json-text
	// limit/integer-as-string+tags/array-as-json-text
	// limit/integer-as-string+tags/array-as-spaced-json-text
	// limit/integer-as-string+tags/array-as-indented-json-text
	// limit/integer-as-string+tags/array-as-double-encoded-json-text
	// limit/integer-as-string+tags/array-as-fenced-json-text
	//
	// tags/array-as-fenced-json-text sends "```json\n[\n  \"go\"\n]\n```"
}

// Values inside parameters are broken too, named by their JSON Pointer.
// The first task stands for the others, which the declared types treat
// alike.
func ExampleVariants_nested() {
	schema, err := coerce.ParseSchema([]byte(`{
		"type": "object",
		"properties": {
			"tasks": {"type": "array", "items": {
				"type": "object",
				"properties": {"id": {"type": "integer"}, "done": {"type": "boolean"}}
			}}
		}
	}`))
	if err != nil {
		log.Fatal(err)
	}
	valid := map[string]any{"tasks": []any{
		map[string]any{"id": 1, "done": true},
		map[string]any{"id": 2, "done": false},
	}}
	for _, v := range coercetest.Variants(schema, valid) {
		if strings.Contains(v.Name, "+") || strings.Contains(v.Name, "json-text") && !strings.HasSuffix(v.Name, "-as-json-text") {
			continue // combinations, and the other styles of JSON text
		}
		sent, _ := json.Marshal(v.Args["tasks"])
		fmt.Printf("%-38s %s\n", v.Name, sent)
	}
	// Output:
	// tasks/array-as-json-text               "[{\"done\":true,\"id\":1},{\"done\":false,\"id\":2}]"
	// tasks/0/object-as-json-text            ["{\"done\":true,\"id\":1}",{"done":false,"id":2}]
	// tasks/0/done/boolean-as-string         [{"done":"true","id":1},{"done":false,"id":2}]
	// tasks/0/done/boolean-as-python-string  [{"done":"True","id":1},{"done":false,"id":2}]
	// tasks/0/done/boolean-as-number         [{"done":1,"id":1},{"done":false,"id":2}]
	// tasks/0/id/integer-as-string           [{"done":true,"id":"1"},{"done":false,"id":2}]
}

// Check returns the failures as one error, nil when coercion repairs
// every variant.
func ExampleCheck() {
	valid := map[string]any{"tasks": []any{map[string]any{"id": 1}}}

	schema, err := coerce.ParseSchema([]byte(`{"properties": {"tasks": {"type": "array",
		"items": {"properties": {"id": {"type": "integer"}}}}}}`))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(coercetest.Check(schema, valid))

	// A schema that declares id a string, where the tool takes an integer:
	// coercion makes it "1", in the valid arguments and in every variant.
	wrong, err := coerce.ParseSchema([]byte(`{"properties": {"tasks": {"type": "array",
		"items": {"properties": {"id": {"type": "string"}}}}}}`))
	if err != nil {
		log.Fatal(err)
	}
	err = coercetest.Check(wrong, valid)
	for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
		first, _, _ := strings.Cut(e.Error(), "\n") // then the arguments sent, and a diff
		fmt.Println(first)
	}
	// Output:
	// <nil>
	// coercetest: valid arguments (Coerce):
	// coercetest: variant "tasks/array-as-json-text" (Coerce):
	// coercetest: variant "tasks/array-as-spaced-json-text" (Coerce):
	// coercetest: variant "tasks/array-as-indented-json-text" (Coerce):
	// coercetest: variant "tasks/array-as-double-encoded-json-text" (Coerce):
	// coercetest: variant "tasks/array-as-fenced-json-text" (Coerce):
}

// A tool's test: one line per valid argument set. Here t stands in for the
// *testing.T of func TestSearchArguments(t *testing.T), so that the
// example runs; a failure would be printed.
func ExampleAssertRepairs() {
	var t testing.TB = printingT{}

	schema, err := coerce.ParseSchema(searchSchema)
	if err != nil {
		t.Fatal(err)
	}
	coercetest.AssertRepairs(t, schema, map[string]any{
		"query": "go generics",
		"limit": 10,
		"tags":  []string{"go", "generics"},
	})
	coercetest.AssertRepairs(t, schema, map[string]any{
		"query": "go",
		"tags":  nil,
	})
	// Output:
}

// For SDKs that pass arguments on as raw JSON, such as the official Go MCP
// SDK's json.RawMessage.
func ExampleAssertRepairsJSON() {
	var t testing.TB = printingT{}

	schema, err := coerce.ParseSchema(searchSchema)
	if err != nil {
		t.Fatal(err)
	}
	coercetest.AssertRepairsJSON(t, schema, []byte(`{"query": "go", "limit": 10, "tags": ["go"]}`))
	// Output:
}

// printingT prints what a test would report.
type printingT struct{ testing.TB }

func (printingT) Helper() {}

func (printingT) Errorf(format string, args ...any) { fmt.Printf(format+"\n", args...) }

func (printingT) Fatal(args ...any) { log.Fatal(args...) }
