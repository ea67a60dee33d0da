// Package results hands package toolcall the results direction of package
// coerce's engine (coerce/results.go): a tool's structured result coerced
// to its output schema by the engine that coerces arguments, which has no
// public API of its own. Package coerce sets both functions when it is
// initialized; toolcall imports it, so they are set before toolcall runs.
package results

var (
	// Options sets the results direction on the *coerce.Options o.
	Options func(o any)

	// Coerce coerces text, the JSON text of a result, to the root of the
	// *coerce.Schema s, parsed with Options set, and checks it: the text
	// itself when it conforms, or the coerced text; on an error, text as
	// it came. The Schema's OnChange hears each change.
	Coerce func(s any, text []byte) ([]byte, error)
)
