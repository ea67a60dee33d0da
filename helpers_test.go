package coerce

import (
	"encoding/json"
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
