package coerce

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"unsafe"
)

// The helpers that the tests of this package share, each written once:
// reading test data, decoding JSON as a caller would, copying values to
// check later that they were not mutated, telling the same value from an
// equal one, and comparing results with what a test wants.

// loadCases reads every file that matches pattern (a filepath.Glob pattern
// in slash form, such as "testdata/conformance/*values.json"), each a JSON
// array of cases, and returns their cases in the order of the files. A
// pattern that matches no file fails the test: a folder that moved must not
// pass as a folder without cases.
func loadCases[T any](t testing.TB, pattern string) []T {
	t.Helper()
	files, err := filepath.Glob(filepath.FromSlash(pattern))
	if err != nil || len(files) == 0 {
		t.Fatalf("no %s: %v", pattern, err)
	}
	var all []T
	for _, f := range files {
		all = append(all, readJSON[[]T](t, f)...)
	}
	return all
}

// readJSON reads the file named by path and decodes it into a T with
// encoding/json, failing the test if either cannot be done.
func readJSON[T any](t testing.TB, path string) T {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var v T
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return v
}

// deepCopy copies every map, slice, array, pointer and interface in v, at
// any depth and of any type (map[string]int, exported struct fields), to
// check later that v was not mutated. A cycle in v is a cycle in the copy,
// and a nil map or slice stays nil, so that reflect.DeepEqual(v, copy) holds
// until v changes (equalNaN where v may hold a NaN). Strings and other
// scalars are shared: they cannot be mutated.
func deepCopy(v any) any {
	if v == nil {
		return nil
	}
	type ref struct {
		t reflect.Type
		p uintptr
		n int
	}
	seen := map[ref]reflect.Value{}
	var cp func(v reflect.Value) reflect.Value
	cp = func(v reflect.Value) reflect.Value {
		switch v.Kind() {
		case reflect.Map:
			if v.IsNil() {
				return v
			}
			k := ref{v.Type(), uintptr(v.UnsafePointer()), 0}
			if c, ok := seen[k]; ok {
				return c
			}
			c := reflect.MakeMapWithSize(v.Type(), v.Len())
			seen[k] = c
			for it := v.MapRange(); it.Next(); {
				c.SetMapIndex(it.Key(), cp(it.Value()))
			}
			return c
		case reflect.Slice:
			if v.IsNil() {
				return v
			}
			k := ref{v.Type(), uintptr(v.UnsafePointer()), v.Len()}
			if c, ok := seen[k]; ok {
				return c
			}
			c := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
			seen[k] = c
			for i := range v.Len() {
				c.Index(i).Set(cp(v.Index(i)))
			}
			return c
		case reflect.Array:
			c := reflect.New(v.Type()).Elem()
			for i := range v.Len() {
				c.Index(i).Set(cp(v.Index(i)))
			}
			return c
		case reflect.Pointer:
			if v.IsNil() {
				return v
			}
			c := reflect.New(v.Type().Elem())
			c.Elem().Set(cp(v.Elem()))
			return c
		case reflect.Interface:
			if v.IsNil() {
				return v
			}
			c := reflect.New(v.Type()).Elem()
			c.Set(cp(v.Elem()))
			return c
		case reflect.Struct:
			c := reflect.New(v.Type()).Elem()
			c.Set(v)
			for i := range v.NumField() {
				if c.Field(i).CanSet() {
					c.Field(i).Set(cp(v.Field(i)))
				}
			}
			return c
		}
		return v
	}
	return cp(reflect.ValueOf(v)).Interface()
}

// identical reports whether b is a itself, as the README's "returned as it
// is" means it, not merely a value equal to a. Both must have the same
// dynamic type, and then
//   - maps, pointers, channels and funcs: the same one;
//   - slices: the same elements in the same memory (same pointer, same
//     length);
//   - strings (json.Number and named string types too): the same bytes in
//     the same memory, so that a copy, which costs an allocation, is told
//     apart from the string itself; an empty string has no bytes to copy;
//   - floats: the same bits, so that NaN is itself and -0 is not 0;
//   - other values: == where Go can compare them, else reflect.DeepEqual
//     (a struct that holds a slice, passed by value, has no identity).
//
// nil is identical to nil only.
func identical(a, b any) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	va, vb := reflect.ValueOf(a), reflect.ValueOf(b)
	if va.Type() != vb.Type() {
		return false
	}
	switch va.Kind() {
	case reflect.Map, reflect.Pointer, reflect.Chan, reflect.Func, reflect.UnsafePointer:
		return va.UnsafePointer() == vb.UnsafePointer()
	case reflect.Slice:
		return va.UnsafePointer() == vb.UnsafePointer() && va.Len() == vb.Len()
	case reflect.String:
		sa, sb := va.String(), vb.String()
		return len(sa) == len(sb) && (sa == "" || unsafe.StringData(sa) == unsafe.StringData(sb))
	case reflect.Float32, reflect.Float64:
		return math.Float64bits(va.Float()) == math.Float64bits(vb.Float())
	}
	if va.Comparable() {
		return a == b
	}
	return reflect.DeepEqual(a, b)
}

// decodeFloat64 decodes JSON text as encoding/json decodes it into an any,
// numbers as float64: the arguments an SDK hands a tool after decoding a
// request. Text that is not one JSON value fails the test.
func decodeFloat64(t testing.TB, text []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(text, &v); err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	return v
}

// decodeArgs is decodeFloat64 of a tool call's arguments, which must be an
// object.
func decodeArgs(t testing.TB, text string) map[string]any {
	t.Helper()
	m, ok := decodeFloat64(t, []byte(text)).(map[string]any)
	if !ok {
		t.Fatalf("arguments %s are not an object", text)
	}
	return m
}

// decodeUseNumber decodes JSON text as encoding/json does with UseNumber:
// numbers as json.Number, with the digits written. Text after the value is
// an error, as it is for json.Unmarshal.
func decodeUseNumber(text []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(text))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := d.Token(); err != io.EOF {
		return nil, errors.New("trailing data")
	}
	return v, nil
}

// mustUseNumber is decodeUseNumber, failing the test on an error.
func mustUseNumber(t testing.TB, text []byte) any {
	t.Helper()
	v, err := decodeUseNumber(text)
	if err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	return v
}

// jsonView is what v says as JSON: v written by json.Marshal and read back
// by mustUseNumber. Typed Go values (structs, map[string]int) become the
// maps and slices they write as, and a float64 becomes the json.Number of
// the shortest text that reads back as it, as json.Marshal writes it. A
// value that cannot be written (a NaN, a cycle) fails the test.
func jsonView(t testing.TB, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("%s cannot be written as JSON: %v", short(v), err)
	}
	return mustUseNumber(t, b)
}

// outcome is a call's result as text, to compare one run with another:
// its JSON and its error message. A result that cannot be written as JSON
// (a NaN, a cycle, returned as it came with an error) is written as
// "unwritable" and short's view of it.
func outcome(v any, err error) string {
	text, jerr := json.Marshal(v)
	if jerr != nil {
		text = []byte("unwritable " + short(v))
	}
	if err != nil {
		return string(text) + " / " + err.Error()
	}
	return string(text)
}

// short formats a value for a failure message, cut so that a 5000-digit
// string or a 100000-deep array does not flood the log.
func short(v any) string {
	var s string
	switch str, ok := v.(string); {
	case ok:
		s = fmt.Sprintf("%q", str)
	case isCyclic(v):
		s = fmt.Sprintf("%T(cyclic)", v)
	default:
		s = fmt.Sprintf("%T(%v)", v, v)
	}
	if len(s) > 120 {
		s = s[:120] + "..."
	}
	return s
}

// isCyclic reports whether a map or slice holds itself, which fmt cannot
// print.
func isCyclic(v any) bool {
	seen := map[uintptr]bool{}
	var walk func(v any) bool
	walk = func(v any) bool {
		rv := reflect.ValueOf(v)
		if rv.Kind() != reflect.Map && rv.Kind() != reflect.Slice || rv.IsNil() {
			return false
		}
		p := uintptr(rv.UnsafePointer())
		if seen[p] {
			return true
		}
		seen[p] = true
		defer delete(seen, p)
		if rv.Kind() == reflect.Map {
			for it := rv.MapRange(); it.Next(); {
				if walk(it.Value().Interface()) {
					return true
				}
			}
			return false
		}
		for i := range rv.Len() {
			if walk(rv.Index(i).Interface()) {
				return true
			}
		}
		return false
	}
	return walk(v)
}
