package jsonwire

import (
	"strconv"
	"unicode/utf8"
)

// An ErrorKind says what went wrong, so that a caller can map it to errors
// of its own without reading messages.
type ErrorKind uint8

const (
	// Syntax: the text is not JSON: a malformed value, invalid UTF-8, a
	// raw control character or an escaped lone surrogate in a string, or
	// data after the value. When writing: a json.Number, json.RawMessage
	// or MarshalJSON result that is not valid JSON.
	Syntax ErrorKind = iota + 1
	// Depth: arrays and objects nested deeper than the limit. When
	// writing, this is also how a cyclic value ends.
	Depth
	// Range: a number that float64 cannot hold: one that would round to
	// ±Inf, or one that is not zero but would round to zero.
	Range
	// Unsupported: when writing, a value that has no JSON text: NaN or
	// ±Inf, a channel, a function or a complex number, or the error of a
	// MarshalJSON or MarshalText method.
	Unsupported
	// Truncated: the text ended where more was due: inside a string, a
	// number, a literal, an array or an object, or before any value. A
	// caller that knows the text told a value began calls it cut off.
	Truncated
	// TooLong: when writing, a text longer than the bound the caller set
	// (StringWithin).
	TooLong
)

// Error is the error of every function of this package. Functions return
// it as *Error, never as error, so that a nil result needs no care.
type Error struct {
	Kind ErrorKind
	// Offset is, for an error in JSON text being read, the byte offset in
	// the text where reading stopped, as in json.SyntaxError; it is zero
	// for an error in writing a value.
	Offset int
	// Msg says what went wrong, without the offset: "invalid character
	// 'x' looking for beginning of value".
	Msg string
}

// Error returns Msg, with the offset where it is not zero.
func (e *Error) Error() string {
	if e.Offset > 0 {
		return e.Msg + " at offset " + strconv.Itoa(e.Offset)
	}
	return e.Msg
}

func errAt(kind ErrorKind, msg string, off int) *Error {
	return &Error{Kind: kind, Offset: off, Msg: msg}
}

func errEOF(n int) *Error {
	return errAt(Truncated, "unexpected end of JSON input", n)
}

func errChar[T Text](data T, i int, context string) *Error {
	return errAt(Syntax, "invalid character "+quoteChar(data, i)+" "+context, i)
}

func errDepth(maxDepth, i int) *Error {
	return errAt(Depth, "nesting deeper than "+strconv.Itoa(maxDepth), i)
}

func errTrailing(i int) *Error {
	return errAt(Syntax, "trailing data", i)
}

// quoteChar formats the character at data[i] for an error message.
func quoteChar[T Text](data T, i int) string {
	if c := data[i]; c < utf8.RuneSelf {
		return quoteByte(c)
	}
	if n := utf8SeqLen(data, i); n > 0 {
		return strconv.QuoteRune([]rune(string(data[i : i+n]))[0])
	}
	return "'" + strconv.Quote(string(data[i : i+1]))[1:5] + "'" // '\xff'
}

func quoteByte(c byte) string {
	switch c {
	case '\'':
		return `'\''`
	case '"':
		return `'"'`
	}
	return strconv.QuoteRune(rune(c))
}
