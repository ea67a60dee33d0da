// Package jsonwire reads and writes JSON text, and knows nothing of types
// or coercion: it is the wire format under package coerce, as
// encoding/json/jsontext is under encoding/json.
//
// Text is read in place, as a string or as bytes ([Text]), by index: each
// reader takes the text and the index where to start, and returns the
// index where it stopped. [Skip] validates one value and allocates
// nothing; [Decode] builds it as the values encoding/json decodes into
// (maps, slices, strings, bool, nil, and numbers as float64 unless that
// would change the digits written, then as json.Number). A caller that
// walks JSON text itself, to look at each member as it goes, uses the same
// pieces: [Open], [Key] and [Next] for the structure, [Skip] for a member
// it does not look into, [Unescape] for keys, [Space] and [End] for
// whitespace; so there is one scanner, one set of rules (strict UTF-8, no
// lone surrogates, numbers within float64's range, a nesting limit) and
// one set of messages. Numbers are judged on their digits, never through a
// rounded float64: [Float] gives the float64 and where the number lies
// against float64's range, [IsWhole] whether it is whole, [ExactInt]
// whether float64 holds an integer exactly, [Decimal] its exact value.
// [Append] writes a value as encoding/json does, keys sorted, and hands
// the Go types it does not write itself to encoding/json.
//
// Every error is an [*Error]: an [ErrorKind] (Syntax, Depth, Range or
// Unsupported), the offset in the text where reading stopped, and a
// message in encoding/json's words. Its callers map it to errors of their
// own in one place.
package jsonwire
