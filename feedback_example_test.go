package coerce_test

import (
	"errors"
	"fmt"

	"github.com/coerce-go/coerce"
)

// A model called a tool with an argument coercion cannot repair and a
// name the tool does not declare; the feedback tells it what to send.
func ExampleSchema_Feedback() {
	schema, err := coerce.ParseSchema([]byte(`{
		"type": "object",
		"properties": {
			"owner": {"type": "string"},
			"state": {"type": "string", "enum": ["OPEN", "CLOSED"]},
			"perPage": {"type": "integer"}
		},
		"required": ["owner"],
		"additionalProperties": false
	}`))
	if err != nil {
		panic(err)
	}
	args, err := schema.CoerceJSON([]byte(`{"owner": "octo", "perPage": "ten", "stat": "open"}`))
	err = errors.Join(err, schema.CheckJSON(args))
	fmt.Println(schema.Feedback(err))
	// Output:
	// Invalid arguments: 2 problems. Correct them and send the call again.
	// - /perPage: expected an integer; found the string "ten", which is not valid (not a number). Example: 1
	// - /stat: not a declared name; declared, nearest first: state, owner, perPage.
}

// After a repair, a notice tells the model how to send the arguments next
// time.
func ExampleNotice() {
	var changes []coerce.Change
	opts := coerce.Options{OnChange: func(c coerce.Change) { changes = append(changes, c) }}
	if _, err := opts.ToDeclared(map[string]any{"tags": `["a", "b"]`}, "dict[str, list[str]]"); err != nil {
		panic(err)
	}
	fmt.Println(coerce.Notice(changes))
	// Output:
	// Note: the arguments were repaired before the tool ran. Send them as declared next time:
	// - `tags` arrived as JSON text in a string; send a JSON array.
}
