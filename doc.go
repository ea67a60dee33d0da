// Package coerce converts a value to the type its receiver declared, in both
// directions, before dispatch.
//
// Structured values cross loosely typed boundaries and arrive in the wrong
// shape. An MCP client sends {"tags": "[\"a\",\"b\"]"} for a tool whose
// schema declares tags an array, and a strict validator rejects the call. A
// workflow engine parses {"channel_id": "123"} into a map, and the next node,
// which declared path_params a string holding JSON, receives a map. Text
// passes through templates and key-value stores and comes out stringified,
// double-encoded or wrapped in a markdown fence; "5" stands for 5 and
// "true" for true. coerce repairs each of these, and only these:
//
//	args, err := coerce.ToDeclared(`["a","b"]`, "list[str]") // []any{"a", "b"}
//	text, err := coerce.ToDeclared(map[string]any{"channel_id": "123"}, "str")
//	// `{"channel_id":"123"}`
//
// # The contract
//
// If the error is nil, the result conforms to the declared type (or is nil:
// absence is a validator's business, not ours). A value that already
// conforms comes back as it is — the same map, the same slice, no
// allocation — and so does a string declared string, even one that holds
// JSON. A value that must change is copied, never modified in place. If the
// value cannot be converted, it comes back unchanged together with an error
// saying where and why: nothing is truncated (5.5 is not an integer),
// rounded (integers beyond 2^53 stay exact as json.Number) or dropped (prose
// around a fence is not thrown away). The same input always gives the same
// output: map keys are written sorted.
//
// # What is converted
//
// Declared object or array, given a string: the string is JSON text, after
// trimming JSON whitespace, only if its first and last bytes are { and } or
// [ and ], which a sniff checks in constant time without allocating; only
// then is it parsed, and it must hold the declared kind. One level of
// double encoding ("\"[1,2]\"") and one markdown fence around the whole
// string are unwrapped. Declared string, given a map, slice or
// json.RawMessage: compact JSON text. Scalars, unless Options.StructuredOnly:
// numeric strings for integer and number ("5", "-1.5e3"; not "0x10", "1_000"
// or "NaN"), whole numbers only for integer; "true"/"false"/"yes"/"no"/"on"/
// "off"/"1"/"0"/"t"/"f"/"y"/"n" in any case for boolean, and the numbers 0
// and 1; numbers and booleans for string, written as JavaScript writes them
// (5, 1.5, 1e+21); "" and "null" for null when the type is nullable and not
// a string. Element, property and member types convert recursively.
//
// A union keeps a value that conforms to any member; otherwise its members
// of the value's own kind are tried first, then the others in the declared
// order, and the first that converts wins. This is why `["a"]` declared
// "str | list[str]" stays a string: it already conforms.
//
// # Declared types
//
// ToDeclared reads the type names of JSON Schema, Python and Go, case
// blind: str, dict, list, int, float, bool, None, any, their generic forms
// list[T], List[T], []T, dict[str, T], map[string]T, Optional[T],
// Union[A, B], A | B (see ParseType). A Schema gives the types of a whole
// argument set from a JSON Schema (ParseSchema, for an MCP tool's input
// schema), from a map of declarations (SchemaFromTypes, for a workflow
// node) or from a Go struct (SchemaFor). Schema.Coerce converts
// decoded arguments parameter by parameter; Schema.CoerceJSON does the same
// on raw JSON and copies the bytes of everything it does not change.
//
// # Errors
//
// Every error is an *Error, or several joined with errors.Join, each with
// the JSON Pointer of the failing value (Path), the declared type, the value
// found, and one of the sentinels ErrSyntax, ErrKind, ErrPrecision,
// ErrUnknownType and ErrLimit for errors.Is. Hostile input (nesting 200 000
// deep, 1e999999999, invalid UTF-8, NaN, cyclic maps, unknown type names)
// gets an error, never a panic or a hang.
//
// # Options
//
// Options is a plain struct whose zero value gives the defaults above; its
// methods mirror the package functions:
//
//	opts := coerce.Options{UseNumber: true, StructuredOnly: true}
//	v, err := opts.ToDeclared(value, "list[int]")
//	schema, err := opts.ParseSchema(inputSchema)
//
// Schemas and parsed types are immutable and safe for concurrent use.
package coerce
