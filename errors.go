package coerce

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The sentinel errors. Every [*Error] wraps exactly one of them, so callers
// can branch with errors.Is without parsing messages. A call that finds
// several failures returns them joined (errors.Join): errors.Is then
// matches the sentinel of any of them, and errors.As finds the first.
var (
	// ErrSyntax: text that had to be parsed (JSON text, a numeric or boolean
	// string, a type expression) is malformed.
	ErrSyntax = errors.New("invalid syntax")
	// ErrKind: the value is of a kind that cannot become the declared type,
	// such as a plain word declared object, or NaN declared string.
	ErrKind = errors.New("wrong kind")
	// ErrPrecision: converting would lose information, such as 5.5 declared
	// integer or 1e400, which no float64 holds.
	ErrPrecision = errors.New("would lose precision")
	// ErrUnknownType: the declared type is not a type this package knows.
	ErrUnknownType = errors.New("unknown type")
	// ErrLimit: the value is nested deeper or is larger than the configured
	// limits allow (cyclic maps and slices end here too).
	ErrLimit = errors.New("limit exceeded")
	// ErrUnknownName: an argument the schema does not declare, in an object
	// that allows no others (additionalProperties: false). Only
	// Schema.Check reports it: coercion passes such arguments through.
	ErrUnknownName = errors.New("unknown name")
	// ErrMissing: a required argument is absent. Only Schema.Check reports
	// it: absence is not coercion's business.
	ErrMissing = errors.New("missing required")
	// ErrEnum: a value that is not one of those an enum or const allows.
	// Only Schema.Check reports it: coercion leaves values to a validator.
	ErrEnum = errors.New("not an allowed value")
	// ErrTruncated: JSON text, or near-JSON text, that ends inside a value
	// it began (a string, array or object left open, a literal or number
	// cut): the call was cut off, by a model's output limit or a broken
	// stream. It is never repaired or closed, whatever it would parse to,
	// and every entry point says it alike, never ErrSyntax.
	ErrTruncated = errors.New("cut off")
	// ErrAmbiguous: text that holds two different values either of which
	// could be the one wanted, such as a model's reply holding two that
	// conform to the schema (Schema.FromReply). Neither is taken.
	ErrAmbiguous = errors.New("ambiguous")
)

// Error reports a value that could not be converted to its declared type.
// When one call finds several, it returns them joined with errors.Join, in
// the order of their paths; errors.As finds the first.
type Error struct {
	// Path is the JSON Pointer (RFC 6901) of the failing value inside the
	// argument, e.g. "/tasks/0/id"; it is empty for the value itself.
	Path string
	// Declared is the type that was wanted there, in canonical form
	// (e.g. "list[integer]").
	Declared string
	// Value is the value found there, as it was.
	Value any
	// Err is one of ErrSyntax, ErrKind, ErrPrecision, ErrUnknownType,
	// ErrLimit, ErrTruncated, or, from Schema.Check, ErrUnknownName,
	// ErrMissing or ErrEnum, or, from Schema.FromReply, ErrAmbiguous.
	Err error
	// Detail says more, e.g. how JSON text went wrong; it may be empty.
	Detail string
	// Offset is, for an error in JSON text (a syntax error, or nesting or
	// a number beyond the limits met while reading it), the byte offset in
	// that text where reading stopped, as in json.SyntaxError; zero
	// otherwise. The text is the one read: the arguments of CoerceJSON or
	// Unmarshal, or the JSON text a string holds, without the whitespace,
	// fence or quotes around it; for the errors of Schema.FromReply about
	// the reply itself, the reply (see there).
	Offset int

	// declared is the Type declared where the error is, set wherever the
	// engine makes an error (stamp, wholeText, Check's findings, FromReply):
	// Feedback renders it, so that the text needs no schema beside the
	// error and re-parses no type name. Declared is its name, or, for an
	// error about a whole call's text, what the message says was wanted.
	declared *Type
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("coerce: ")
	if e.Path != "" {
		b.WriteString(showPath(e.Path))
		b.WriteString(": ")
	}
	if e.Declared != "" {
		b.WriteString("want ")
		b.WriteString(e.Declared)
		b.WriteString(", found ")
		if errors.Is(e.Err, ErrMissing) {
			b.WriteString("nothing") // not the null of a Value never set
		} else {
			b.WriteString(describe(e.Value))
		}
		b.WriteString(": ")
	}
	if e.Err != nil {
		b.WriteString(e.Err.Error())
	}
	if e.Detail != "" {
		b.WriteString(": ")
		b.WriteString(e.Detail)
	}
	if e.Offset > 0 {
		b.WriteString(" at offset ")
		b.WriteString(strconv.Itoa(e.Offset))
	}
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// showPath is a JSON Pointer as messages show it: as it is, or quoted as
// a Go string when it holds a rune that does not print (a control
// character, a line separator) or invalid UTF-8. Keys come from the
// arguments, and a key holding a line break must not start a line of its
// own in an error, a log or the feedback a model reads.
func showPath(path string) string {
	for i := 0; i < len(path); {
		if c := path[i]; c >= 0x20 && c < 0x7f {
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(path[i:])
		if r == utf8.RuneError && n == 1 || !strconv.IsPrint(r) {
			return strconv.Quote(path)
		}
		i += n
	}
	return path
}

// describe names a value's kind for an error message, with a short excerpt of
// scalars so that the message alone identifies the culprit.
func describe(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case string:
		if len(v) > PreviewLen {
			return "string " + strconv.Quote(cut(v, PreviewLen)) + "..."
		}
		return "string " + strconv.Quote(v)
	case bool:
		return "boolean " + strconv.FormatBool(v)
	case map[string]any:
		return "object"
	case []any:
		return "array"
	case json.RawMessage:
		return "JSON text of " + rawKind(v)
	}
	switch kindOf(v) {
	case kindNumber:
		return "number " + cutMarked(fmt.Sprint(v), PreviewLen)
	case kindObject:
		return fmt.Sprintf("object (%T)", v)
	case kindArray:
		return fmt.Sprintf("array (%T)", v)
	case kindString:
		return fmt.Sprintf("string (%T)", v)
	case kindBool:
		return fmt.Sprintf("boolean (%T)", v)
	}
	return fmt.Sprintf("%T", v)
}

// rawKind names the kind of JSON value that text holds, by its first byte.
func rawKind(text []byte) string {
	text = trimSpace(text)
	if len(text) == 0 {
		return "nothing"
	}
	switch c := text[0]; {
	case c == '{':
		return "an object"
	case c == '[':
		return "an array"
	case c == '"':
		return "a string"
	case c == 't' || c == 'f':
		return "a boolean"
	case c == 'n':
		return "null"
	case c == '-' || isDigit(c):
		return "a number"
	}
	return "no JSON value"
}

// tooLong is the error of JSON text longer than Options.MaxSize allows,
// read or written, in the same words from every entry point; the caller
// sets where it was and what.
func tooLong(maxSize int) *Error {
	return &Error{Err: ErrLimit, Detail: "JSON text longer than " + strconv.Itoa(maxSize) + " bytes"}
}

// wholeText stamps e, an error about the whole of a call's text (too
// long, not JSON, cut off, not an object), with the text as its value and
// t, the type the text was read against, for Feedback; Declared, which
// its message shows, is left as e has it.
func wholeText(e *Error, data []byte, t *Type) *Error {
	e.Value, e.declared = json.RawMessage(data), t
	return e
}

// stamp is err, an *Error about a value, as a call reports it: a copy that
// names the type declared (t; nil for the call's own limits, which are no
// type's: see walker.limitError) and the value found (v). Every entry point
// stamps its errors here, as encoding/json's decoder adds the context of
// its errors in one place (decodeState.addErrorContext); the path is
// render's, which alone knows where a failure sits.
func stamp(err error, t *Type, v any) Error {
	e := *err.(*Error)
	e.Declared, e.Value, e.declared = "", v, t
	if t != nil {
		e.Declared = t.String()
	}
	return e
}
