package coerce

import (
	"bytes"
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// decodeJSON parses data as exactly one JSON value, surrounded by nothing but
// JSON whitespace, into nil, bool, string, float64, json.Number, []any and
// map[string]any. Numbers are float64 unless float64 cannot hold an integer
// exactly (then json.Number with the integer's text); useNumber makes every
// number a json.Number with its text as written. Nesting deeper than
// maxDepth, invalid UTF-8, raw control characters, escaped lone surrogates,
// trailing data and numbers beyond float64's range are errors. The error is
// always an *Error with Err set (ErrSyntax, ErrLimit or ErrPrecision) and
// Detail saying what and where; Path, Declared and Value are left empty.
//
// STUB: encoding/json based; replaced by the purpose-built decoder.
func decodeJSON[T ~string | ~[]byte](data T, useNumber bool, maxDepth int) (any, error) {
	b := []byte(data)
	if !utf8.Valid(b) {
		return nil, &Error{Err: ErrSyntax, Detail: "invalid UTF-8"}
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, &Error{Err: ErrSyntax, Detail: err.Error()}
	}
	if d.More() {
		return nil, &Error{Err: ErrSyntax, Detail: "trailing data"}
	}
	if useNumber {
		return v, nil
	}
	return fixNumbers(v), nil
}

func fixNumbers(v any) any {
	switch v := v.(type) {
	case json.Number:
		if f, err := strconv.ParseFloat(string(v), 64); err == nil {
			if i, err := strconv.ParseInt(string(v), 10, 64); err == nil && float64(i) != f {
				return v
			}
			return f
		}
		return v
	case []any:
		for i := range v {
			v[i] = fixNumbers(v[i])
		}
	case map[string]any:
		for k := range v {
			v[k] = fixNumbers(v[k])
		}
	}
	return v
}

// skipValue validates the one JSON value that starts at data[i] (after
// optional JSON whitespace) and returns the index just past it, with the same
// rules and errors as decodeJSON but allocating nothing.
//
// STUB.
func skipValue[T ~string | ~[]byte](data T, i int, maxDepth int) (int, error) {
	d := json.NewDecoder(bytes.NewReader([]byte(data[i:])))
	var raw json.RawMessage
	if err := d.Decode(&raw); err != nil {
		return 0, &Error{Err: ErrSyntax, Detail: err.Error()}
	}
	return i + int(d.InputOffset()), nil
}
