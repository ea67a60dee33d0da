package coerce

import (
	"github.com/coerce-go/coerce/internal/jsonwire"
)

// Options configures coercion. The zero value gives the defaults described
// in the package documentation; its methods mirror the package functions.
type Options struct {
	// UseNumber makes every number that coercion produces a json.Number
	// holding its decimal text, as json.Decoder.UseNumber does. By default
	// numbers are float64, except integers that float64 cannot hold exactly,
	// which are json.Number either way.
	UseNumber bool

	// StructuredOnly limits coercion to the two structured directions:
	// JSON text (near-JSON text included) to object or array, and object or
	// array to JSON text for a string. Scalars ("5" for an integer, 5 for a
	// string, "true" for a boolean), names, nulls and enum spelling are then
	// left for the validator to reject.
	StructuredOnly bool

	// StrictJSON turns off the repair of near-JSON text: Python literals,
	// single quotes, trailing commas, unquoted keys, comments, invalid
	// escapes and chat-template tokens around the text, where an object or
	// array is declared (see the README's rules). Text that is JSON is
	// never repaired, and truncated text is never completed, either way.
	StrictJSON bool

	// ExactNames turns off the renaming of a parameter whose name differs
	// from a declared one only by case and word separators (maxResults,
	// max-results or MaxResults for max_results).
	ExactNames bool

	// KeepNulls turns off the removal of a null given for a parameter that
	// is neither required nor nullable, which models send for "not given"
	// (OpenAI's strict mode makes every optional parameter nullable), and
	// of a placeholder ("", {}, []) given for a parameter that is not
	// required and whose type does not take it.
	KeepNulls bool

	// ExactEnums turns off the respelling of a string that equals exactly
	// one allowed value of an enum or const but for case ("ASC" for "asc"),
	// or its title (MCP's titled enums: "Ascending" for the const "asc"
	// titled so).
	ExactEnums bool

	// WrapScalars turns a single value declared array into a one-element
	// array ("a" declared list[string] becomes ["a"]), as AJV's
	// coerceTypes: "array" does.
	WrapScalars bool

	// MaxDepth bounds the nesting of values and of JSON text; deeper input is
	// an error wrapping ErrLimit. Zero means 10000, as in encoding/json.
	MaxDepth int

	// MaxSize bounds the length in bytes of JSON text that coercion parses
	// or produces; longer text is an error wrapping ErrLimit. Zero means no
	// limit.
	MaxSize int

	// MaxWork bounds the work of one call, counted in values visited
	// times the types each is measured against, and in bytes of the JSON
	// text written for a string parameter; beyond it the call fails
	// with ErrLimit. The work of a call is linear in the size of its input
	// times the size of the schema, whatever the input, so this only stops
	// what no JSON text can ask for: Go values that share their maps and
	// slices many times over. Zero means 1<<23 (a few hundred
	// milliseconds at worst), plus 32 for every byte of JSON text the call
	// parses. Values that fail count as the work of visiting them; only
	// the first 100 failures (in path order) are reported.
	MaxWork int

	// Check makes Coerce and CoerceJSON report, as the error of the call,
	// what Schema.Check reports of the arguments once coerced: a required
	// name missing (ErrMissing), a name a closed object does not declare
	// (ErrUnknownName), a value its enum or const does not allow
	// (ErrEnum). A server that sets it answers every call that will fail
	// before its tool runs. Arguments that conform as sent are read once,
	// coerced and checked in one pass; the others are checked once
	// coerced, and come back coerced with the check's error. A call that
	// does not coerce returns coercion's error, unchecked. Unmarshal and
	// ToDeclared ignore it: a Go type's decoder has no such rules.
	Check bool

	// OnChange, if set, is called once for each conversion in the result,
	// in the order of their paths, after the call has done its work and
	// before it returns: a server can count and log how its clients break
	// arguments (see LogChanges), or tell the model what was repaired.
	// Conversions of values that failed, and attempts a union discarded,
	// are not reported. Nil costs nothing.
	OnChange func(Change)

	// stage is what the pipeline of a call has done (pipeline.go): an
	// internal flag beside the caller's options, never one of them
	// rewritten.
	stage stage
	// results is the results direction (results.go): a tool's structured
	// result against its output schema, where null conforms only where
	// it is declared. Package toolcall sets it (internal/results).
	results bool
}

const (
	defaultMaxDepth = jsonwire.DefaultMaxDepth
	defaultMaxWork  = 1 << 23
	workPerByte     = 32
)

func (o Options) maxDepth() int {
	if o.MaxDepth <= 0 {
		return defaultMaxDepth
	}
	return o.MaxDepth
}

func (o Options) maxWork() int {
	if o.MaxWork <= 0 {
		return defaultMaxWork
	}
	return o.MaxWork
}

// dropsNull reports whether null for the parameter key, of type pt in
// params, is removed (Options.KeepNulls).
func (o *Options) dropsNull(params *Type, key string, pt *Type) bool {
	return !o.KeepNulls && !o.StructuredOnly && pt != nil && nullGoesAs(params, key, pt, o.results)
}

// renames reports whether names are matched (Options.ExactNames).
func (o *Options) renames(params *Type) bool {
	return !o.ExactNames && !o.StructuredOnly && params != nil && params.names != nil
}

// editsKeys reports whether the rules of names and nulls may act on the
// parameters of params.
func (o *Options) editsKeys(params *Type) bool {
	return params != nil && params.kind == typeObject && len(params.props) > 0 &&
		!o.StructuredOnly && (!o.ExactNames || !o.KeepNulls)
}
