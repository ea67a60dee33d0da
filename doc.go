// Package coerce converts a value to the type its receiver declared, in both
// directions, before dispatch.
//
// Structured values cross loosely typed boundaries and arrive in the wrong
// shape. LLM and MCP clients send arrays and objects as JSON text
// ({"tags": "[\"a\"]"} for an array), numbers and booleans as strings ("5",
// "true"), "" for null; a workflow engine parses {"channel_id": "123"} into
// a map where the next node declared a string holding JSON; text that passed
// through templates and key-value stores arrives double-encoded or in a
// markdown fence. coerce repairs each of these, and only these:
//
//	v, err := coerce.ToDeclared(`["a","b"]`, "list[str]")          // []any{"a", "b"}
//	v, err = coerce.ToDeclared(map[string]any{"id": "1"}, "str")    // `{"id":"1"}`
//	err = coerce.Unmarshal([]byte(`{"tags":"[\"go\"]"}`), &input)  // input.Tags == []string{"go"}
//
// # The contract
//
//   - Conforms or says why: with a nil error, the result conforms to the
//     declared type (or is nil: absence is a validator's business).
//   - A value that already conforms comes back as it is: the same map, the
//     same slice, the same bytes, no allocation. A string declared string
//     stays a string, even one that holds JSON.
//   - Nothing is lost: nothing is truncated (5.5 is not an integer), no
//     integer is rounded (an integer read from JSON text keeps its digits,
//     as a [encoding/json.Number] where float64 would change them), no prose
//     around a fence is dropped, and the caller's maps and slices are never
//     modified: a value that must change is copied.
//   - A value that cannot be converted comes back unchanged, with an
//     [*Error] that says where (a JSON Pointer) and why.
//   - The same input gives the same output bytes.
//
// # Declared types
//
// A [Type] comes from a type expression ([ParseType], with the names of
// JSON Schema, Python and Go: "str", "list[int]", "dict[str, bool]",
// "Optional[List[int]]", "[]string", "A | B"), or, for a whole argument
// set, from a [Schema]: a JSON Schema ([ParseSchema], an MCP tool's input
// schema), a map of declarations ([SchemaFromTypes], a workflow node's
// inputs) or a Go struct type ([SchemaFor]). [Schema.Coerce] converts
// decoded arguments parameter by parameter; [Schema.CoerceJSON] does the same
// on raw JSON and copies the bytes of everything it does not change.
// [Unmarshal] is [encoding/json.Unmarshal] that repairs first, by the shape
// of the Go value it decodes into.
//
// # What is converted
//
//   - Declared object or array, given a string: the JSON text it holds, bare,
//     encoded once more, or in one markdown fence around the whole string. A
//     sniff of the first and last bytes decides, in constant time and without
//     allocating, whether the string can be such text; only then is it parsed.
//   - Declared string, given a map, slice, struct or [encoding/json.RawMessage]:
//     compact JSON text with sorted keys.
//   - Scalars, unless [Options.StructuredOnly]: numeric strings for integers
//     and numbers ("5", "-1.5e3"; not "0x10", "1_000" or "NaN"), whole values
//     only for integers; "true", "yes", "on", "1" and the like for booleans,
//     and the numbers 0 and 1; numbers and booleans for strings, written as
//     JavaScript writes them; "" and "null" for null where the type is
//     nullable and not a string.
//   - Element, property and member types convert recursively.
//
// A union keeps a value that conforms to any member; otherwise it converts
// to the first member, those of the value's own kind first. This is why
// `["a"]` declared "str | list[str]" stays a string. Unions of objects are
// told apart the way a JSON Schema tells them apart: by required keys,
// additionalProperties: false, const and enum on a property, and OpenAPI's
// discriminator (see the README for the rules).
//
// # Near-JSON, names, nulls and enums
//
// Four repairs of what models almost get right. Each acts only where the
// value could not conform otherwise, is reported as a Change with a rule of
// its own, and has a switch in [Options]:
//
//   - Near-JSON ([Options.StrictJSON] turns it off): where an object or array
//     is declared, and as the whole argument text of [Schema.CoerceJSON] and
//     [Unmarshal], Python literals, single quotes, trailing commas, unquoted
//     keys, comments, invalid escapes and chat-template tokens around the text
//     are repaired where the text has one reading; where it has two, or is
//     truncated, it is refused. A call that fails returns the text as sent.
//   - Names ([Options.ExactNames]): a parameter spelled as a declared one but
//     for case and word separators, or named in the property's x-aliases,
//     becomes it, when exactly one property matches. A key a property or a
//     pattern claims is never renamed; an alias two properties declare, or
//     that is another property's spelling, renames nothing.
//     Arguments sent in an envelope, one undeclared key such as "kwargs",
//     "arguments" or "input" holding the object, are that object when it
//     conforms (coerced, and checked) and the envelope does not.
//   - Nulls ([Options.KeepNulls]): null for a property that is neither
//     required nor nullable is removed ("not given"), at every level of a
//     declared object outside unions. A Go struct takes null for every
//     field, as encoding/json does, and keeps it. Placeholders go the same
//     way, for parameters only: "" where a scalar is declared, {} where an
//     object is, [] where an array is, when the parameter is not required
//     and its type does not take the placeholder ("" for an integer or
//     outside an enum, {} for an object that requires a key).
//   - Enums ([Options.ExactEnums]): a string equal to exactly one allowed value
//     but for ASCII case, or to the title of exactly one (MCP's titled enums,
//     enumNames), becomes that value. Membership is exact: numbers are
//     compared by their decimals, never as float64.
//
// [Options.StructuredOnly] keeps near-JSON and turns the other three off.
// Names apply to the parameters, the top-level keys of an argument set.
//
// # Errors and reports
//
// Every error is an [*Error], or several joined with [errors.Join] in the
// order of their paths (the first 100), each with the JSON Pointer of the
// failing value, the declared type, the value found, and one of ten
// sentinels for [errors.Is]: [ErrSyntax] (text that does not parse),
// [ErrTruncated] (text cut off inside a value: by a model's output limit
// or a broken stream; never repaired or closed, from every entry point),
// [ErrKind] (a value of a kind that cannot become the type), [ErrPrecision]
// (5.5 for an integer, 1e400 for a number), [ErrUnknownType] (a declaration
// this package cannot read), [ErrLimit] (MaxDepth, MaxSize or MaxWork),
// from [Schema.Check] only, [ErrUnknownName], [ErrMissing] and [ErrEnum],
// and from [Schema.FromReply] only, [ErrAmbiguous] (two values that conform).
// [Options.OnChange] receives each conversion that made it into a result
// ([Change]), in path order, for metrics and logs ([LogChanges]).
//
// # Check and Feedback
//
// Coercion converts; it does not validate. [Schema.Check] and
// [Schema.CheckJSON] report what a validator would refuse and a model needs
// to hear of: a required argument missing, a name a closed object does not
// declare, a value outside its enum. They read values with coercion's rules,
// within MaxDepth and MaxWork, and a call that passes costs one read and no
// allocation. With [Options.Check], Coerce and CoerceJSON return those
// findings too, and a call that conforms as sent is coerced and checked in
// that one read. [Schema.Feedback] renders the errors of a call as text for the
// model (MCP's SEP-1303 isError result): per failure its path, the declared
// type in JSON Schema's words, a preview of what was found and a valid
// example. Each error keeps the type it declares, so [Feedback] gives the same
// text with no schema at hand. It is bounded (recursive types are described
// once, examples are built within a budget, previews are read from a value's
// beginning) and no byte of the arguments can start a line of its own in it.
//
// # Streams
//
// [Schema.Stream] reads a tool call's arguments as a model streams them: a
// [Stream] is an io.Writer for the deltas, [Stream.Close] returns exactly
// what CoerceJSON returns for all of them (ErrTruncated for text left
// open), and [Stream.Preview] returns a [Partial] for a UI, never a call:
// the arguments so far, the JSON Pointers of the values still open, and
// whether the text can still be JSON. Each byte is read once, each value
// decoded once, so previews after every delta keep a stream linear.
//
// # Model replies
//
// [Schema.FromReply] reads a model's whole reply, asked for structured
// output, for the one JSON value in it that conforms to the schema: between
// prose, in a markdown fence with or without a language tag, beside an
// example. Each object or array of a kind the schema takes is repaired and
// coerced as CoerceJSON does with Check; the one that conforms is returned
// and reported (rule FromReply, with its offset). Two different values that
// conform are [ErrAmbiguous], naming both offsets; a reply cut off inside a
// value is [ErrTruncated]; a value that cannot be read is [ErrSyntax], even
// beside one that conforms. The reply is read in one pass, each byte a
// bounded number of times.
//
// # Options
//
// [Options] is a plain struct whose zero value gives the defaults above; its
// methods mirror the package functions:
//
//	opts := coerce.Options{UseNumber: true, StructuredOnly: true}
//	v, err := opts.ToDeclared(value, "list[int]")
//	schema, err := opts.ParseSchema(inputSchema)
//
// Schemas and types are immutable and safe for concurrent use.
//
// # Security considerations
//
// Tool arguments come from language models, which a prompt injection can
// steer, so every call treats its input as hostile:
//
//   - Work is linear in the size of the input times the size of the schema,
//     whatever the input. A value is visited once however many union members
//     want it (they are evaluated together, not one after another), JSON text
//     inside a string is parsed once however many members want it parsed, and
//     nothing is remembered by memory address, so no result depends on the
//     garbage collector.
//   - A work budget ([Options.MaxWork]) stops what no JSON text can ask for,
//     Go values that share their slices so that their tree is exponentially
//     larger than their memory, with a fast [ErrLimit]. Values that fail, and
//     the union members a value tried and lost, count as the work of visiting
//     them, never as a budget of their own; the JSON text written of a map
//     or slice for a string parameter costs a unit a byte, and stops before
//     it passes the budget left, so that such values stop there too.
//   - Nesting deeper than [Options.MaxDepth] (10000 by default, as
//     encoding/json) is an [ErrLimit], never a stack overflow: for JSON text,
//     and for Go values of any type, named slices and pointer chains
//     included. A cyclic value fails once its unrolling reaches the limit:
//     the cost of MaxDepth levels, whatever the value's size.
//   - [Options.MaxSize] bounds the JSON text a call parses or writes.
//   - JSON text with invalid UTF-8, raw control characters or escaped lone
//     surrogates is an error: encoding/json would silently replace them with
//     U+FFFD, which would change the data. Numbers like 1e999999999 and
//     5000-digit integers are answered at once, as an error or an exact
//     [encoding/json.Number].
//   - The cache of declarations that [ToDeclared] parses is bounded by count
//     and by bytes, so declarations taken from input cannot grow it without
//     end.
//
// A value deeper or larger than the limits fails; a value within them is
// answered, never a panic, a hang or a crash.
package coerce
