package coerce

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"
	"unsafe"
)

// The helpers that the tests of this package share, each written once, in
// this order: reading test data; decoding JSON as callers hand it over;
// copying a value to tell later whether it was mutated, and telling a value
// itself from an equal one; comparing results with what a test wants; the
// contracts every call and every error keep; writing values in failure
// messages. The tests of the helpers themselves come last.

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

// mustSchema compiles src with o, failing the test if it does not compile:
// src is JSON Schema text if it starts with '{' (after white space), else
// the name of a file in testdata/schemas.
func mustSchema(t testing.TB, o Options, src string) *Schema {
	t.Helper()
	text := []byte(src)
	if !strings.HasPrefix(strings.TrimSpace(src), "{") {
		var err error
		if text, err = os.ReadFile(filepath.Join("testdata", "schemas", src)); err != nil {
			t.Fatal(err)
		}
	}
	s, err := o.ParseSchema(text)
	if err != nil {
		t.Fatalf("ParseSchema(%s): %v", src, err)
	}
	return s
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

// nestedSlices returns inner inside n []any: [[[inner]]].
func nestedSlices(n int, inner any) any {
	v := inner
	for range n {
		v = []any{v}
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

// equalNaN is reflect.DeepEqual with NaN equal to NaN.
func equalNaN(a, b any) bool {
	return reflect.DeepEqual(a, b) || diff(a, b) == ""
}

// diff reports how got differs from want, a line per difference with its
// path (at most maxDiffs), or "" when they are equal: deeply, as
// reflect.DeepEqual compares, unexported fields too, nil and empty slices
// and maps apart, except that a type's own Equal method decides where it
// has one (time.Time), numbers of math/big compare by value, and NaN
// equals NaN. It visits each value once, however deep.
func diff(want, got any) string {
	d := differ{seen: map[[3]uintptr]bool{}}
	d.compare("", reflect.ValueOf(want), reflect.ValueOf(got))
	if d.more > 0 {
		d.lines = append(d.lines, fmt.Sprintf("(%d more differences)", d.more))
	}
	return strings.Join(d.lines, "\n")
}

const maxDiffs = 10

type differ struct {
	lines []string
	more  int
	seen  map[[3]uintptr]bool // pairs of pointers compared, by type: cycles end there
}

func (d *differ) add(path string, want, got reflect.Value) {
	if len(d.lines) == maxDiffs {
		d.more++
		return
	}
	if path == "" {
		path = "(top)"
	}
	d.lines = append(d.lines, fmt.Sprintf("%s: want %s, got %s", path, showValue(want), showValue(got)))
}

func showValue(v reflect.Value) string {
	if !v.IsValid() {
		return "nothing"
	}
	s := fmt.Sprintf("%#v", v)
	if len(s) > 200 {
		s = s[:197] + "..."
	}
	return s
}

var (
	bigIntType   = reflect.TypeFor[*big.Int]()
	bigFloatType = reflect.TypeFor[*big.Float]()
)

func (d *differ) compare(path string, w, g reflect.Value) {
	if !w.IsValid() || !g.IsValid() {
		if w.IsValid() != g.IsValid() {
			d.add(path, w, g)
		}
		return
	}
	if w.Type() != g.Type() {
		d.add(path, w, g)
		return
	}
	t := w.Type()
	switch {
	case (t == bigIntType || t == bigFloatType) && w.CanInterface():
		if w.IsNil() || g.IsNil() {
			if w.IsNil() != g.IsNil() {
				d.add(path, w, g)
			}
		} else if w.MethodByName("Cmp").Call([]reflect.Value{g})[0].Int() != 0 {
			d.add(path, w, g)
		}
		return
	case w.CanInterface():
		if m, ok := t.MethodByName("Equal"); ok && m.Type.NumIn() == 2 && m.Type.In(1) == t &&
			m.Type.NumOut() == 1 && m.Type.Out(0).Kind() == reflect.Bool && t.Kind() != reflect.Pointer && t.Kind() != reflect.Interface {
			if !w.Method(m.Index).Call([]reflect.Value{g})[0].Bool() {
				d.add(path, w, g)
			}
			return
		}
	}
	switch w.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice:
		if w.IsNil() || g.IsNil() {
			if w.IsNil() != g.IsNil() {
				d.add(path, w, g)
			}
			return
		}
	}
	switch w.Kind() {
	case reflect.Pointer:
		key := [3]uintptr{w.Pointer(), g.Pointer(), 0}
		if key[0] == key[1] || d.seen[key] {
			return
		}
		d.seen[key] = true
		d.compare(path, w.Elem(), g.Elem())
	case reflect.Interface:
		if w.IsNil() || g.IsNil() {
			if w.IsNil() != g.IsNil() {
				d.add(path, w, g)
			}
			return
		}
		d.compare(path, w.Elem(), g.Elem())
	case reflect.Struct:
		for i := range w.NumField() {
			d.compare(path+"."+t.Field(i).Name, w.Field(i), g.Field(i))
		}
	case reflect.Slice, reflect.Array:
		if w.Kind() == reflect.Slice {
			key := [3]uintptr{w.Pointer(), g.Pointer(), uintptr(w.Len())}
			if key[0] == key[1] && w.Len() == g.Len() || d.seen[key] {
				return
			}
			d.seen[key] = true
		}
		for i := range max(w.Len(), g.Len()) {
			at := path + "/" + strconv.Itoa(i)
			switch {
			case i >= g.Len():
				d.add(at, w.Index(i), reflect.Value{})
			case i >= w.Len():
				d.add(at, reflect.Value{}, g.Index(i))
			default:
				d.compare(at, w.Index(i), g.Index(i))
			}
		}
	case reflect.Map:
		key := [3]uintptr{w.Pointer(), g.Pointer(), 1}
		if key[0] == key[1] || d.seen[key] {
			return
		}
		d.seen[key] = true
		keys := w.MapKeys()
		for _, k := range g.MapKeys() {
			if !w.MapIndex(k).IsValid() {
				keys = append(keys, k)
			}
		}
		slices.SortFunc(keys, func(a, b reflect.Value) int { return strings.Compare(fmt.Sprint(a), fmt.Sprint(b)) })
		for _, k := range keys {
			d.compare(path+"/"+fmt.Sprint(k), w.MapIndex(k), g.MapIndex(k))
		}
	case reflect.Float32, reflect.Float64:
		if a, b := w.Float(), g.Float(); a != b && !(a != a && b != b) {
			d.add(path, w, g)
		}
	case reflect.Complex64, reflect.Complex128:
		if w.Complex() != g.Complex() {
			d.add(path, w, g)
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if w.Int() != g.Int() {
			d.add(path, w, g)
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if w.Uint() != g.Uint() {
			d.add(path, w, g)
		}
	case reflect.String:
		if w.String() != g.String() {
			d.add(path, w, g)
		}
	case reflect.Bool:
		if w.Bool() != g.Bool() {
			d.add(path, w, g)
		}
	default: // funcs, channels, unsafe pointers: by identity
		if w.Pointer() != g.Pointer() {
			d.add(path, w, g)
		}
	}
}

// A numberRule says which numbers valueMismatch takes for equal. The tests
// need three rules, for three ways a result may legitimately hold a number.
type numberRule int

const (
	// byValue: a number is the decimal it stands for, whatever Go type
	// holds it (float64, json.Number or int): float64 5, int 5,
	// json.Number("5.0") and json.Number("5e0") are all 5, while
	// 9007199254740992 (2^53) and 9007199254740993 differ. A float64
	// stands for the shortest decimal that reads back as it, the text
	// json.Marshal writes and encoding/json reads it from: float64(0.1) is
	// 0.1, and float64(2^64) is 18446744073709552000, not
	// 18446744073709551616. For results compared with what JSON text
	// says, where a number's Go type does not show.
	byValue numberRule = iota
	// byTypeAndValue: two numbers must also have the same Go type. Two
	// json.Numbers compare by decimal value ("1000" and "1e3" are equal),
	// other numbers by ==: float64 1000 and json.Number("1000") differ.
	// For tables whose rows say which type the README promises (float64
	// by default, json.Number with UseNumber or beyond 2^53).
	byTypeAndValue
	// nearestFloat64: byValue, and besides a float64 equals any number
	// that reads as it (strconv.ParseFloat), and two strings of JSON text
	// are equal when the values they hold, read as float64, are equal by
	// this rule. For comparing results of which one side went through
	// float64 and the other did not (a default call against a UseNumber
	// one, Coerce on decoded arguments against CoerceJSON on their text):
	// 1000000000.0000009 and 1000000000.000001 are the same float64, and
	// "[1.0]" and "[1]" the same JSON text.
	nearestFloat64
)

// jsonString is a want that valueMismatch matches with a string that holds
// JSON text whose value, read with numbers as json.Number, matches the
// jsonString's. It is what {"$json": X} in a conformance vector means.
type jsonString struct{ value any }

// valueMismatch compares got with want as values decoded from JSON compare:
// maps by their keys and values, slices element by element, nil maps and
// slices equal only to nil ones (JSON writes them as null), numbers by
// rule, and everything else (strings, booleans, nil, Go values of other
// types) by reflect.DeepEqual. It returns "" when they match, else the
// first difference (keys in sorted order) at its JSON Pointer.
func valueMismatch(got, want any, rule numberRule) string {
	return mismatchAt("", got, want, rule)
}

// mismatchAt is valueMismatch of the values at path.
func mismatchAt(path string, got, want any, rule numberRule) string {
	differ := func() string {
		return fmt.Sprintf("%q: got %T %#v, want %T %#v", path, got, got, want, want)
	}
	if rule != byTypeAndValue {
		switch got.(type) {
		case float64, json.Number, int:
			g, gok := numberOf(got)
			w, wok := numberOf(want)
			if !gok || !wok || (!g.equal(w) && !(rule == nearestFloat64 && sameFloat64(got, want))) {
				return differ()
			}
			return ""
		}
	} else if g, ok := got.(json.Number); ok {
		if w, ok := want.(json.Number); ok {
			gd, gok := parseDecimal(string(g))
			wd, wok := parseDecimal(string(w))
			if !gok || !wok || !gd.equal(wd) {
				return differ()
			}
			return ""
		}
	}
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok || (g == nil) != (w == nil) || len(g) != len(w) {
			return differ()
		}
		for _, k := range slices.Sorted(maps.Keys(w)) {
			gv, ok := g[k]
			if !ok {
				return fmt.Sprintf("%q: no key %q", path, k)
			}
			if d := mismatchAt(path+"/"+pointerEscaper.Replace(k), gv, w[k], rule); d != "" {
				return d
			}
		}
		return ""
	case []any:
		g, ok := got.([]any)
		if !ok || (g == nil) != (w == nil) || len(g) != len(w) {
			return differ()
		}
		for i := range w {
			if d := mismatchAt(path+"/"+strconv.Itoa(i), g[i], w[i], rule); d != "" {
				return d
			}
		}
		return ""
	case jsonString:
		s, ok := got.(string)
		if !ok {
			return fmt.Sprintf("%q: got %T %#v, want a string holding JSON", path, got, got)
		}
		v, err := decodeUseNumber([]byte(s))
		if err != nil {
			return fmt.Sprintf("%q: got %q, want a string holding JSON: %v", path, s, err)
		}
		return mismatchAt(path+"($json)", v, w.value, rule)
	case string:
		if g, ok := got.(string); ok && g != w && rule == nearestFloat64 {
			// Both read as float64, as the side that went through it.
			var gv, wv any
			gerr := json.Unmarshal([]byte(g), &gv)
			werr := json.Unmarshal([]byte(w), &wv)
			if gerr == nil && werr == nil && mismatchAt(path, gv, wv, rule) == "" {
				return ""
			}
		}
	}
	if !reflect.DeepEqual(got, want) {
		return differ()
	}
	return ""
}

// pointerEscaper escapes a key for a JSON Pointer (RFC 6901).
var pointerEscaper = strings.NewReplacer("~", "~0", "/", "~1")

// sameFloat64 reports whether got and want are numbers, at least one of
// them a float64, that read as the same float64.
func sameFloat64(got, want any) bool {
	_, gotFloat := got.(float64)
	_, wantFloat := want.(float64)
	g, gok := numberOf(got)
	w, wok := numberOf(want)
	if !gotFloat && !wantFloat || !gok || !wok {
		return false
	}
	gf, gerr := strconv.ParseFloat(g.text, 64)
	wf, werr := strconv.ParseFloat(w.text, 64)
	return gerr == nil && werr == nil && gf == wf
}

// A decimal is the exact value of a number: ±digits × 10^exp, with no
// leading or trailing zeros in digits ("" for zero, which has no sign), and
// the text it was read from.
type decimal struct {
	neg    bool
	digits string
	exp    *big.Int
	text   string
}

// jsonNumberText is the grammar of a JSON number (RFC 8259).
var jsonNumberText = regexp.MustCompile(`^(-?)(0|[1-9][0-9]*)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?$`)

// parseDecimal reads JSON number text exactly: without rounding, and
// without writing out its exponent, so that 1e999999999 and a
// million-digit integer cost no more than their text. It is written
// from the grammar, not from the package's own number code, which the
// tests check. Text that is not a JSON number (" 5", "+5", "NaN") is not
// read.
func parseDecimal(text string) (decimal, bool) {
	m := jsonNumberText.FindStringSubmatch(text)
	if m == nil {
		return decimal{}, false
	}
	exp := new(big.Int)
	if m[4] != "" {
		exp.SetString(m[4], 10)
	}
	exp.Sub(exp, big.NewInt(int64(len(m[3]))))
	digits := strings.TrimLeft(m[2]+m[3], "0")
	if digits == "" {
		return decimal{exp: new(big.Int), text: text}, true
	}
	trimmed := strings.TrimRight(digits, "0")
	exp.Add(exp, big.NewInt(int64(len(digits)-len(trimmed))))
	return decimal{neg: m[1] == "-", digits: trimmed, exp: exp, text: text}, true
}

// numberOf is the decimal a number stands for, by the rule of byValue:
// json.Number as written, int in base 10, float64 in the shortest text
// that reads back as it. NaN, ±Inf, json.Number text that is not a JSON
// number and values of other types are not numbers.
func numberOf(v any) (decimal, bool) {
	switch x := v.(type) {
	case float64:
		return parseDecimal(strconv.FormatFloat(x, 'g', -1, 64))
	case json.Number:
		return parseDecimal(string(x))
	case int:
		return parseDecimal(strconv.Itoa(x))
	}
	return decimal{}, false
}

// equal reports whether d and e are the same number.
func (d decimal) equal(e decimal) bool {
	return d.neg == e.neg && d.digits == e.digits && d.exp.Cmp(e.exp) == 0
}

// whole reports whether d is an integer.
func (d decimal) whole() bool { return d.exp.Sign() >= 0 }

// String writes d in a form that every spelling of the number shares:
// 5, 5.0 and 0.5e1 are all "5e0", and 0 and -0.0 are both "0".
func (d decimal) String() string {
	if d.digits == "" {
		return "0"
	}
	sign := ""
	if d.neg {
		sign = "-"
	}
	return sign + d.digits + "e" + d.exp.String()
}

// checkConformingArgs checks what the README promises for arguments that
// already conform, args decoded and raw their text: Coerce returns args
// itself and CoerceJSON raw itself, without an error and without
// allocating.
func checkConformingArgs(t testing.TB, s *Schema, args map[string]any, raw []byte) {
	t.Helper()
	if got, err := s.Coerce(args); err != nil || !identical(got, args) {
		t.Errorf("Coerce of conforming arguments = %v, %v; want the same map back", got, err)
	}
	if got, err := s.CoerceJSON(raw); err != nil || !identical(got, raw) {
		t.Errorf("CoerceJSON of conforming arguments = %s, %v; want the same bytes back", got, err)
	}
	if n := testing.AllocsPerRun(100, func() { s.Coerce(args) }); n != 0 {
		t.Errorf("Coerce of conforming arguments allocates %v times, want 0", n)
	}
	if n := testing.AllocsPerRun(100, func() { s.CoerceJSON(raw) }); n != 0 {
		t.Errorf("CoerceJSON of conforming arguments allocates %v times, want 0", n)
	}
}

// joinedErrors returns the errors that err joins (errors.Join, or an
// error of this package that failed in several places), or err alone; nil
// for nil.
func joinedErrors(err error) []error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}

// errorLeaves lists the *Errors in err, through errors.Join at any depth,
// where joinedErrors goes one level down and keeps errors of any type.
func errorLeaves(err error) []*Error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var all []*Error
		for _, e := range j.Unwrap() {
			all = append(all, errorLeaves(e)...)
		}
		return all
	}
	var e *Error
	if errors.As(err, &e) {
		return []*Error{e}
	}
	return nil
}

// allSentinels are the errors that every *Error wraps one of.
var allSentinels = []error{ErrSyntax, ErrKind, ErrPrecision, ErrUnknownType, ErrLimit, ErrTruncated}

// checkErrorContract checks what the README promises of every error, and
// returns the *Errors it holds, in order:
//   - it is one *Error, or at least two joined, each an *Error itself, and
//     errors.As finds the first;
//   - each has one of the sentinels as its Err, wraps no other, and
//     errors.Is finds it through the whole error;
//   - each Path is a JSON Pointer, and the paths come in path order
//     (inPathOrder);
//   - each message is "coerce: ", the Path (quoted where it holds a rune
//     that does not print, see showPath) and ": " when there is one, and
//     lowercase text that starts "want <Declared>, found " when Declared
//     is set, without a final period or newline; the whole error's
//     message is these messages, one a line.
func checkErrorContract(t testing.TB, err error) []*Error {
	t.Helper()
	var list []*Error
	switch e := err.(type) {
	case *Error:
		list = []*Error{e}
	case interface{ Unwrap() []error }:
		for _, inner := range e.Unwrap() {
			ce, ok := inner.(*Error)
			if !ok {
				t.Fatalf("joined error holds %T %v, want *Error", inner, inner)
			}
			list = append(list, ce)
		}
		if len(list) < 2 {
			t.Fatalf("joined error of %d errors: %v", len(list), err)
		}
	default:
		t.Fatalf("error is %T %v, want *Error or joined *Error", err, err)
	}
	var first *Error
	if !errors.As(err, &first) || first != list[0] {
		t.Errorf("errors.As found %v, want the first joined error %v", first, list[0])
	}
	var paths []string
	for _, e := range list {
		paths = append(paths, e.Path)
		if !slices.Contains(allSentinels, e.Err) {
			t.Errorf("error %q wraps %v, want one of the sentinels", e, e.Err)
		}
		n := 0
		for _, s := range allSentinels {
			if errors.Is(e, s) {
				n++
			}
		}
		if n != 1 {
			t.Errorf("error %q wraps %d sentinels, want 1", e, n)
		}
		if !errors.Is(err, e.Err) {
			t.Errorf("errors.Is(%q, %v) = false", err, e.Err)
		}
		if e.Path != "" && !strings.HasPrefix(e.Path, "/") {
			t.Errorf("error %q: Path %q is not a JSON Pointer", e, e.Path)
		}
		msg := e.Error()
		rest, ok := strings.CutPrefix(msg, "coerce: ")
		if !ok {
			t.Errorf("error %q does not start with \"coerce: \"", msg)
			continue
		}
		if e.Path != "" {
			rest, ok = strings.CutPrefix(rest, showPath(e.Path)+": ")
			if !ok {
				t.Errorf("error %q does not name its path %q after \"coerce: \"", msg, e.Path)
			}
		}
		if r, _ := utf8.DecodeRuneInString(rest); !unicode.IsLower(r) {
			t.Errorf("error %q is not lowercase", msg)
		}
		if e.Declared != "" && !strings.HasPrefix(rest, "want "+e.Declared+", found ") {
			t.Errorf("error %q does not say \"want %s, found ...\"", msg, e.Declared)
		}
		if strings.HasSuffix(msg, ".") || strings.HasSuffix(msg, "\n") {
			t.Errorf("error %q ends in punctuation", msg)
		}
	}
	for i := 1; i < len(paths); i++ {
		if !inPathOrder(paths[i-1], paths[i]) {
			t.Errorf("error paths %q are not in path order: %q before %q", paths, paths[i-1], paths[i])
		}
	}
	for _, line := range strings.Split(err.Error(), "\n") {
		if !strings.HasPrefix(line, "coerce: ") {
			t.Errorf("error line %q does not start with \"coerce: \"", line)
		}
	}
	return list
}

// inPathOrder reports whether an error at the JSON Pointer a may come
// before one at b in the README's path order: segment by segment, object
// keys as strings and array indices as numbers, a value before what it
// holds. A pointer does not say which a segment is, so two segments of
// digits of different lengths may come either way: "4" before "15" as
// indices, after it as keys. (Comparing whole paths as strings would put
// /15 before /4, and /a!/x before /a/x, whose key "a" sorts before "a!".)
func inPathOrder(a, b string) bool {
	as, bs := pointerSegments(a), pointerSegments(b)
	for i := 0; i < len(as) && i < len(bs); i++ {
		x, y := as[i], bs[i]
		switch {
		case x == y:
			continue
		case len(x) != len(y) && allDigits(x) && allDigits(y):
			return true
		}
		return x < y
	}
	return len(as) <= len(bs)
}

// pointerSegments splits a JSON Pointer into its unescaped segments.
func pointerSegments(p string) []string {
	if p == "" {
		return nil
	}
	segs := strings.Split(strings.TrimPrefix(p, "/"), "/")
	for i, s := range segs {
		segs[i] = strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
	}
	return segs
}

// allDigits reports whether s is a nonempty run of decimal digits.
func allDigits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// wantErr checks that err keeps checkErrorContract and wraps one of
// sentinels; what names the call in a failure.
func wantErr(t testing.TB, what string, err error, sentinels ...error) {
	t.Helper()
	if err == nil {
		t.Errorf("%s: no error, want %v", what, sentinels)
		return
	}
	checkErrorContract(t, err)
	if !slices.ContainsFunc(sentinels, func(s error) bool { return errors.Is(err, s) }) {
		t.Errorf("%s: %.300v, want %v", what, err, sentinels)
	}
}

// outcome is a call's result as text, to compare one run with another:
// asJSON of the value, and the error message.
func outcome(v any, err error) string {
	if err != nil {
		return asJSON(v) + " / " + err.Error()
	}
	return asJSON(v)
}

// asJSON is v as json.Marshal writes it, for a test's name or a failure
// message. A value that cannot be written as JSON (a NaN, a cycle, which
// a call returns as it came with an error) is written as "unwritable" and
// short's view of it.
func asJSON(v any) string {
	text, err := json.Marshal(v)
	if err != nil {
		return "unwritable " + short(v)
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

// TestValueMismatch pins the rules the helpers above promise, since every
// other test relies on them.
func TestValueMismatch(t *testing.T) {
	const pow64 = 18446744073709551616.0 // 2^64, written 18446744073709552000
	for _, c := range []struct {
		got, want any
		rule      numberRule
		match     bool
	}{
		{5.0, json.Number("5"), byValue, true},
		{5, json.Number("5.0"), byValue, true},
		{json.Number("5"), json.Number("0.5e1"), byValue, true},
		{json.Number("-0"), 0.0, byValue, true},
		{json.Number("9007199254740993"), json.Number("9007199254740992"), byValue, false},
		{9007199254740992.0, json.Number("9007199254740993"), byValue, false},
		{0.1, json.Number("0.1"), byValue, true},
		{1e21, json.Number("1e21"), byValue, true}, // written 1e+21
		{pow64, json.Number("18446744073709552000"), byValue, true},
		{pow64, json.Number("18446744073709551616"), byValue, false},
		{json.Number("1e999999999"), json.Number("10e999999998"), byValue, true},
		{json.Number("1e999999999"), json.Number("1e999999998"), byValue, false},
		{json.Number(" 5"), json.Number(" 5"), byValue, false},
		{math.NaN(), math.NaN(), byValue, false},
		{"5", json.Number("5"), byValue, false},
		{[]any{}, []any(nil), byValue, false},
		{map[string]any{"a": nil}, map[string]any{"b": nil}, byValue, false},
		{map[string]any{"a": []any{1.0}}, map[string]any{"a": []any{json.Number("1")}}, byValue, true},

		{5.0, json.Number("5"), byTypeAndValue, false},
		{json.Number("1000"), json.Number("1e3"), byTypeAndValue, true},
		{5.0, 5, byTypeAndValue, false},
		{[]any{5.0}, []any{5.0}, byTypeAndValue, true},

		{json.Number("9007199254740993"), 9007199254740992.0, nearestFloat64, true},
		{json.Number("9007199254740993"), json.Number("9007199254740992"), nearestFloat64, false},
		{"[1000000000.0000009]", "[1000000000.000001]", nearestFloat64, true},
		{"[1000000000.0000009]", "[1000000000.000001]", byValue, false},

		{`{"a": [1.0]}`, jsonString{map[string]any{"a": []any{json.Number("1")}}}, byValue, true},
		{`{"a": [2]}`, jsonString{map[string]any{"a": []any{json.Number("1")}}}, byValue, false},
		{map[string]any{"a": 1.0}, jsonString{map[string]any{"a": json.Number("1")}}, byValue, false},
	} {
		d := valueMismatch(c.got, c.want, c.rule)
		if (d == "") != c.match {
			t.Errorf("valueMismatch(%#v, %#v, %d) = %q, want a match: %t", c.got, c.want, c.rule, d, c.match)
		}
	}
}

func TestInPathOrder(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"/a", "/b", true},
		{"/b", "/a", false},
		{"/4", "/15", true},
		{"/15", "/4", true}, // keys, or indices: the pointer does not say
		{"/5", "/4", false},
		{"/a/x", "/a!/x", true},
		{"/a!/x", "/a/x", false},
		{"/a~1b", "/a~0", true}, // keys "a/b" and "a~"
		{"", "/a", true},
		{"/a/b", "/a", false},
	} {
		if got := inPathOrder(c.a, c.b); got != c.want {
			t.Errorf("inPathOrder(%q, %q) = %t, want %t", c.a, c.b, got, c.want)
		}
	}
}

// diff is what most tests compare with: it must see every difference.
func TestDiff(t *testing.T) {
	type inner struct{ n int }
	type outer struct {
		A []any
		m map[string]int
		i *inner
		B *big.Int
		T time.Time
	}
	base := func() outer {
		return outer{A: []any{1.0, "x", nil}, m: map[string]int{"a": 1}, i: &inner{2}, B: big.NewInt(7), T: time.Unix(5, 0)}
	}
	if d := diff(base(), base()); d != "" {
		t.Errorf("equal values differ:\n%s", d)
	}
	same := base()
	same.B = new(big.Int).SetBytes([]byte{7}) // another representation of 7
	same.T = time.Unix(5, 0).In(time.FixedZone("x", 3600))
	if d := diff(base(), same); d != "" {
		t.Errorf("equal big.Int or time.Time differ:\n%s", d)
	}
	if d := diff([]any{math.NaN()}, []any{math.NaN()}); d != "" {
		t.Errorf("NaN differs from NaN:\n%s", d)
	}
	for name, change := range map[string]func(*outer){
		"element":        func(o *outer) { o.A[0] = 2.0 },
		"element type":   func(o *outer) { o.A[0] = 1 },
		"longer":         func(o *outer) { o.A = append(o.A, 1.0) },
		"nil slice":      func(o *outer) { o.A = nil },
		"empty slice":    func(o *outer) { o.A = []any{} },
		"unexported map": func(o *outer) { o.m["b"] = 2 },
		"nil map":        func(o *outer) { o.m = nil },
		"pointee":        func(o *outer) { o.i.n = 3 },
		"nil pointer":    func(o *outer) { o.i = nil },
		"big.Int":        func(o *outer) { o.B = big.NewInt(8) },
		"time":           func(o *outer) { o.T = o.T.Add(1) },
	} {
		got := base()
		change(&got)
		if diff(base(), got) == "" {
			t.Errorf("diff misses a changed %s", name)
		}
	}
	cycle := []any{nil}
	cycle[0] = cycle
	if d := diff(cycle, cycle); d != "" {
		t.Errorf("a cycle differs from itself:\n%s", d)
	}
}
