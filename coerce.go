package coerce

// Options configures coercion. The zero value gives the defaults described
// in the package documentation; its methods mirror the package functions.
type Options struct {
	// UseNumber makes every number that coercion produces a json.Number
	// holding its decimal text, as json.Decoder.UseNumber does. By default
	// numbers are float64, except integers that float64 cannot hold exactly,
	// which are json.Number either way.
	UseNumber bool

	// StructuredOnly limits coercion to the two structured directions:
	// JSON text to object or array, and object or array to JSON text for a
	// string. Scalars ("5" for an integer, 5 for a string, "true" for a
	// boolean) are then left for the validator to reject.
	StructuredOnly bool

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
}

const defaultMaxDepth = 10000

// ToDeclared converts value to the declared type with the default Options.
func ToDeclared(value any, declared string) (any, error) {
	return Options{}.ToDeclared(value, declared)
}

// ToDeclared converts value to the declared type (see ParseType for the type
// names). TEMPORARY: returns value unchanged.
func (o Options) ToDeclared(value any, declared string) (any, error) {
	return value, nil
}
