package coerce_test

import (
	"errors"
	"fmt"

	"github.com/coerce-go/coerce"
)

// A model asked for structured output answers with prose, an example and a
// fence: the one value that conforms to the schema is taken, repaired and
// coerced, and OnChange hears where it was found.
func ExampleSchema_FromReply() {
	schema, _ := coerce.Options{OnChange: func(c coerce.Change) {
		fmt.Printf("change: %s at %q, offset %d\n", c.Rule, c.Path, c.Offset)
	}}.ParseSchema([]byte(`{"type": "object",
		"properties": {"name": {"type": "string"}, "age": {"type": "integer"}},
		"required": ["name", "age"]}`))

	reply := "The format is `{\"foo\": 1}`.\n\nFinal answer:\n```json\n{'name': 'Alice', 'age': '30'}\n```\nAnything else?"
	out, err := schema.FromReply(reply)
	fmt.Println(string(out), err)

	// Two values that conform: neither is taken.
	_, err = schema.FromReply(`{"name": "Alice", "age": 30} or {"name": "Bob", "age": 4}`)
	fmt.Println(errors.Is(err, coerce.ErrAmbiguous), err)

	// A reply cut off inside a value: nothing is taken.
	_, err = schema.FromReply("Sure! ```json\n{\"name\": \"Al")
	fmt.Println(errors.Is(err, coerce.ErrTruncated))
	// Output:
	// change: from-reply at "", offset 51
	// change: single-quote at "", offset 0
	// change: number-from-text at "/age", offset 0
	// {"name": "Alice", "age": 30} <nil>
	// true coerce: want object, found string "{\"name\": \"Alice\", \"age\": 30} or {\"name\":"...: ambiguous: two values conform, the first at offset 0, the second at offset 32
	// true
}
