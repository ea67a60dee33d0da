package coercetest_test

import (
	"fmt"
	"log"
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
