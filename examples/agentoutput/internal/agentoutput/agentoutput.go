// Package agentoutput turns what LLM agents write into values a program can
// walk: a reply that is JSON becomes the object or array it holds, and a
// positional argument written as JSON text becomes the object or array
// that was meant.
//
// The rule is the one the core applies to a value declared "object |
// array": JSON text of an object or array is parsed, bare, inside one
// markdown fence that wraps the whole reply, or encoded once more as a JSON
// string. Everything else stays the string it was: prose around a fence,
// and JSON scalars such as "123", "true", "null" or "\"hello\"", which an
// agent means as text at least as often as not.
//
// A step that declares the shape of its reply (a schema) asks more: the one
// value in the reply that conforms to it, wherever it stands, between prose,
// in a fence, beside an example (ParseWith, with the core's Schema.FromReply).
package agentoutput

import (
	"slices"

	"github.com/coerce-go/coerce"
)

// Parse returns the object (map[string]any) or array ([]any) that reply
// holds as JSON text, or reply itself. A reply that cannot be JSON text
// costs no allocation.
func Parse(reply string) any {
	if v, ok := coerce.Structured(reply); ok {
		return v
	}
	return reply
}

// ParseWith returns the value that reply holds for schema: the one JSON object
// or array in it that conforms, wherever it stands (prose before and after,
// a fence with or without a language tag, an example beside it), repaired
// and coerced by the schema's rules, decoded as Parse decodes. A reply that
// holds no value that conforms, two different ones, or is cut off inside
// one, is an error (coerce.Schema.FromReply), which schema.Feedback turns
// into words for the agent.
func ParseWith(schema *coerce.Schema, reply string) (any, error) {
	out, err := schema.FromReply(reply)
	if err != nil {
		return nil, err
	}
	v, _ := coerce.Structured(string(out))
	return v, nil
}

// ParseArgs returns args with every string that is JSON object or array
// text replaced by its value, as Parse does; other arguments, and strings
// such as "123" or "hello", are kept. args itself is not modified: it is
// returned as it is when nothing changes, and copied otherwise.
func ParseArgs(args []any) []any {
	var out []any
	for i, a := range args {
		s, ok := a.(string)
		if !ok {
			continue
		}
		v := Parse(s)
		if _, unchanged := v.(string); unchanged {
			continue
		}
		if out == nil {
			out = slices.Clone(args)
		}
		out[i] = v
	}
	if out == nil {
		return args
	}
	return out
}
