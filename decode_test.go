package coerce

import (
	"errors"
	"math"
	"testing"

	"github.com/coerce-go/coerce/internal/jsonwire"
)

// The codec (internal/jsonwire) has its own tests; these check its
// boundary: each kind of its errors becomes the *Error with its sentinel,
// its message and its offset.

func TestWireError(t *testing.T) {
	for kind, want := range map[jsonwire.ErrorKind]error{
		jsonwire.Syntax:      ErrSyntax,
		jsonwire.Depth:       ErrLimit,
		jsonwire.Range:       ErrPrecision,
		jsonwire.Unsupported: ErrKind,
	} {
		e := wireError(&jsonwire.Error{Kind: kind, Offset: 7, Msg: "what"})
		if !errors.Is(e, want) || e.Detail != "what" || e.Offset != 7 || e.Path != "" || e.Declared != "" || e.Value != nil {
			t.Errorf("kind %d: %#v, want %v", kind, e, want)
		}
	}
	cyclic := map[string]any{}
	cyclic["self"] = cyclic
	for _, c := range []struct {
		name string
		err  error
		want error
	}{
		{"syntax", toDeclaredErr(`[1,,]`, "list"), ErrSyntax}, // [1,] is near-JSON, repaired
		{"depth", Options{MaxDepth: 1}.toDeclaredErr(`[[1]]`, "list"), ErrLimit},
		{"range", toDeclaredErr(`1e400`, "number"), ErrPrecision}, // a number beyond float64 in JSON text passes; made from a string, it must fit
		{"NaN", toDeclaredErr(map[string]any{"a": math.NaN()}, "str"), ErrKind},
		{"cycle", toDeclaredErr(cyclic, "str"), ErrLimit},
		{"arguments", coerceJSONErr(`{"a": tru}`), ErrSyntax},
	} {
		if !errors.Is(c.err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, c.err, c.want)
		}
	}
}

func toDeclaredErr(v any, declared string) error { return Options{}.toDeclaredErr(v, declared) }

func (o Options) toDeclaredErr(v any, declared string) error {
	_, err := o.ToDeclared(v, declared)
	return err
}

func coerceJSONErr(args string) error {
	s, err := ParseSchema([]byte(`{"type": "object"}`))
	if err != nil {
		return err
	}
	_, err = s.CoerceJSON([]byte(args))
	return err
}

// TestErrorOffset checks that an error in JSON text says where reading
// stopped, in the text read, and that other errors have no offset.
func TestErrorOffset(t *testing.T) {
	s, err := ParseSchema([]byte(`{"type": "object", "properties": {"ids": {"type": "array"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	coerceJSON := func(args string) error {
		_, err := s.CoerceJSON([]byte(args))
		return err
	}
	toDeclared := func(v any, declared string) error {
		_, err := ToDeclared(v, declared)
		return err
	}
	for _, c := range []struct {
		name   string
		err    error
		offset int
		msg    string
	}{
		{"text", toDeclared(`[1,,]`, "list"), 3,
			`coerce: want array, found string "[1,,]": invalid syntax: invalid character ',' looking for beginning of value at offset 3`},
		{"text with space around", toDeclared(" \n[1,,]", "list"), 3, ""},
		{"fenced", toDeclared("```json\n[1 2]\n```", "list[int]"), 3, ""},
		{"double-encoded", toDeclared(`"[1,\"a\" 2]"`, "list"), 7, ""},
		{"in a list", toDeclared([]any{map[string]any{}, `{"a":}`}, "list[dict]"), 5,
			`coerce: /1: want object, found string "{\"a\":}": invalid syntax: invalid character '}' looking for beginning of value at offset 5`},
		{"too deep", Options{MaxDepth: 2}.toDeclaredErr(`[[[1]]]`, "list"), 2, ""},
		{"arguments", coerceJSON(`{"ids": [1, 2}`), 13,
			`coerce: invalid syntax: invalid character '}' after array element at offset 13`},
		{"at the start", toDeclared(`{x}`, "dict"), 1, ""},
		{"no text", toDeclared("x", "int"), 0, `coerce: want integer, found string "x": invalid syntax: not a number`},
		{"not JSON text", toDeclared("x", "list"), 0, ""},
		{"NaN to text", toDeclared([]any{math.NaN()}, "str"), 0, ""},
	} {
		var e *Error
		if !errors.As(c.err, &e) {
			t.Errorf("%s: %v is not an *Error", c.name, c.err)
			continue
		}
		if e.Offset != c.offset || c.msg != "" && e.Error() != c.msg {
			t.Errorf("%s: offset %d, %q; want %d, %q", c.name, e.Offset, e.Error(), c.offset, c.msg)
		}
	}
}

// TestTruncatedArguments checks that JSON text ending where a value should
// start is a syntax error at its end, wherever the fitter meets it: in an
// object member that several union members constrain, and in an array.
func TestTruncatedArguments(t *testing.T) {
	for _, c := range []struct{ schema, args string }{
		{`{"type": "object", "properties": {"items": {"type": "array", "items": {"oneOf": [
			{"type": "object", "properties": {"kind": {"const": "a"}}, "required": ["kind"]},
			{"type": "object", "properties": {"kind": {"const": "b"}}, "required": ["kind"]}]}}}}`, `{"items":[{"kind":`},
		{`{"type": "object", "properties": {"v": {"anyOf": [
			{"type": "array", "items": {"type": "integer"}},
			{"type": "array", "items": {"type": "string"}}]}}}`, `{"v":[1,`},
		{`{"type": "object", "properties": {"v": {"anyOf": [
			{"type": "object", "properties": {"a": {"type": "integer"}}},
			{"type": "object", "properties": {"a": {"type": "string"}}}]}}}`, `{"v":{"a": `},
	} {
		s, err := ParseSchema([]byte(c.schema))
		if err != nil {
			t.Fatal(err)
		}
		_, err = s.CoerceJSON([]byte(c.args))
		var e *Error
		if !errors.As(err, &e) || !errors.Is(err, ErrTruncated) || e.Offset != len(c.args) {
			t.Errorf("CoerceJSON(%s): %v, want ErrTruncated at offset %d", c.args, err, len(c.args))
		}
	}
}
