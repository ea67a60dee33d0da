package toolcall

import (
	"context"

	"github.com/coerce-go/coerce"
	"github.com/coerce-go/coerce/internal/results"
)

// An Output is a tool's output schema compiled to coerce the tool's
// structured results (MCP's structuredContent) to it. Any JSON Schema
// works, as MCP 2026-07-28 allows (SEP-2106), not only an object: an
// array, a string, a union. It is immutable and safe for concurrent use.
//
// It coerces with coerce's engine, the one that coerces arguments, in the
// direction of results (internal/results): the same fitters and walks,
// the same rules, and the one rule a result needs besides, about null.
type Output struct {
	opts   coerce.Options
	schema *coerce.Schema // nil: the schema declares nothing
}

// CompileOutput compiles the JSON text of a tool's output schema with o
// (o.OnChange is not used: Output.Coerce takes the call's). A schema that
// declares nothing (true, {}) compiles to an Output that passes every
// result as it is.
func CompileOutput(o coerce.Options, schema []byte) (*Output, error) {
	o.OnChange = nil
	o.Check = true // what a client's validator refuses, in the same pass
	results.Options(&o)
	s, err := o.ParseSchema(schema)
	if err != nil {
		return nil, err
	}
	out := &Output{opts: o}
	if s.Type().Kind() != coerce.Any {
		out.schema = s
	}
	return out, nil
}

// Coerce returns text, the JSON text of a structured result, coerced to
// the output schema: text itself when it conforms (costing no
// allocation), otherwise the repaired text, in which only the values that
// needed converting are rewritten.
//
// It repairs what coerce repairs in arguments (schema.CoerceJSON, with
// the Options the Output was compiled with: "5" for an integer, an object
// where JSON text is declared, nulls for properties neither required nor
// nullable removed), and one thing more, which Go's encoding/json causes:
// null where an array that does not admit null is declared, as a nil slice
// is written, becomes [] (reported as a coerce.NullRemoved change). A
// result that still does not conform once repaired (a value that does not
// convert, a required property missing, a value outside an enum, a name a
// closed object does not declare, null where null is not admitted) is
// returned as it came, with an error joining one *coerce.Error per
// finding, paths from the result's root.
//
// onChange, if not nil, receives each repair, in the order of their paths.
func (out *Output) Coerce(text []byte, onChange func(coerce.Change)) ([]byte, error) {
	if out.schema == nil {
		return text, nil
	}
	s := out.schema
	if onChange != nil {
		o := out.opts
		o.OnChange = onChange
		s = s.WithOptions(o)
	}
	return results.Coerce(s, text)
}

// CoerceResult is Coerce of a tool's structured result for the server
// integrations, reported to l as the result's (PartResult): its repairs,
// or its rejection. ok is false when the result cannot be fixed; text then
// comes back as it was.
func (out *Output) CoerceResult(ctx context.Context, l Listeners, tool string, text []byte) (coerced []byte, ok bool) {
	var changes *[]coerce.Change
	var onChange func(coerce.Change)
	if l.Hears(ctx) {
		changes = new([]coerce.Change)
		onChange = func(c coerce.Change) { *changes = append(*changes, c) }
	}
	coerced, err := out.Coerce(text, onChange)
	if err != nil {
		l.Rejected(WithPart(ctx, PartResult), tool, err)
		return text, false
	}
	if changes != nil && len(*changes) > 0 {
		l.Repaired(WithPart(ctx, PartResult), tool, *changes)
	}
	return coerced, true
}
