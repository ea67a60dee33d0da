package coerce

import (
	"github.com/coerce-go/coerce/internal/jsonwire"
)

// The JSON codec is package jsonwire, which knows nothing of types or
// coercion. Its errors become *Error here, in wireError, and nowhere else.

// wireError is the *Error of an error of the codec: its kind names the
// sentinel, its message is the Detail and its offset the Offset. Path,
// Declared and Value are left to the caller.
func wireError(e *jsonwire.Error) *Error {
	var sentinel error
	switch e.Kind {
	case jsonwire.Syntax, jsonwire.Truncated:
		sentinel = ErrSyntax
	case jsonwire.Depth:
		sentinel = ErrLimit
	case jsonwire.Range:
		sentinel = ErrPrecision
	default: // jsonwire.Unsupported: a value with no JSON text
		sentinel = ErrKind
	}
	return &Error{Err: sentinel, Detail: e.Msg, Offset: e.Offset}
}

// textError is wireError for an error in reading text, which knows the
// text: text that ends inside a value it began is cut off (ErrTruncated),
// not malformed; text with no value at all is malformed.
func textError[T jsonwire.Text](e *jsonwire.Error, text T) *Error {
	err := wireError(e)
	if e.Kind == jsonwire.Truncated && len(trimSpace(text)) > 0 {
		err.Err, err.Detail = ErrTruncated, truncatedDetail
	}
	return err
}

// truncatedDetail is the Detail of every ErrTruncated.
const truncatedDetail = "the text ends inside a value"

// decodeJSON is jsonwire.Decode with its error as an *Error.
func decodeJSON[T jsonwire.Text](data T, useNumber bool, maxDepth int) (any, error) {
	v, err := jsonwire.Decode(data, useNumber, maxDepth)
	if err != nil {
		return nil, textError(err, data)
	}
	return v, nil
}

// appendJSON is jsonwire.Append with its error as an *Error.
func appendJSON(dst []byte, v any, maxDepth int) ([]byte, error) {
	dst, err := jsonwire.Append(dst, v, maxDepth)
	if err != nil {
		return dst, wireError(err)
	}
	return dst, nil
}

// encodeJSON is jsonwire.StringWithin with its error as an *Error; too
// long reports whether the text is longer than maxLen (the caller says
// what that means).
func encodeJSON(v any, maxDepth, maxLen int) (text string, tooLong bool, err error) {
	text, werr := jsonwire.StringWithin(v, maxDepth, maxLen)
	if werr != nil {
		return "", werr.Kind == jsonwire.TooLong, wireError(werr)
	}
	return text, false, nil
}
