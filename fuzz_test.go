package coerce

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"testing"
	"unicode/utf8"

	"github.com/coerce-go/coerce/internal/jsonwire"
)

// The fuzz targets of this file check the contract of the README on
// whatever the fuzzer makes up: no panic, nothing lost, nothing mutated,
// every error with a sentinel. They are seeded from the conformance vectors
// and from testdata/fuzz/<Target>.

// fuzzTypes are the declarations FuzzToDeclared picks from: every name and
// generic form of the README "Type names", the declarations of the
// conformance vectors, nested ones and unions as workflow nodes and MCP
// tools write them, and some that are not types at all.
var fuzzTypes = []string{
	"string", "str", "object", "dict", "map", "mapping", "array", "list", "tuple", "set",
	"integer", "int", "number", "float", "double", "boolean", "bool", "null", "none", "nil",
	"any", "",
	"list[int]", "List[str]", "[]int", "dict[str, int]", "map[string]int", "Optional[int]",
	"Union[int, str]", "int | str",
	"STR", " List [ Int ] ", "Dict[str, str]", "List[float]", "Optional[List[int]]", "list[dict]",
	"list[str]", "str | None", "dict|str", "list[list[int]]", "dict[str, list[float]]",
	"[]map[string]bool", "Union[int, list[str]]", "tuple[int, str]", "tuple[str, ...]",
	"int | bool | null", "Optional[dict[str, Optional[list[number]]]]", "set[str]",
	"list[str] | str", "dict[str, int] | list[int] | null", "float | bool",
	"strng", "list[", "T?", "dict[int, str]",
}

func fuzzTypeIndex(declared string) uint8 {
	if i := slices.Index(fuzzTypes, declared); i >= 0 {
		return uint8(i)
	}
	return 0
}

// addTextSeeds adds the inputs of the value vectors, and the JSON text that
// string inputs hold, to a target that takes one string.
func addTextSeeds(f *testing.F) {
	for _, c := range loadCases[valueCase](f, "testdata/conformance/*values.json") {
		f.Add(string(c.Input))
		var s string
		if json.Unmarshal(c.Input, &s) == nil {
			f.Add(s)
		}
	}
}

func FuzzToDeclared(f *testing.F) {
	for _, c := range loadCases[valueCase](f, "testdata/conformance/*values.json") {
		f.Add(string(c.Input), fuzzTypeIndex(c.Declared))
	}
	f.Fuzz(func(t *testing.T, text string, typeIndex uint8) {
		declared := fuzzTypes[int(typeIndex)%len(fuzzTypes)]
		// The value as a decoded request would hold it (numbers as float64,
		// and as json.Number), and the text itself as a string value.
		inputs := []any{text}
		var v any
		if json.Unmarshal([]byte(text), &v) == nil {
			n, _ := decodeUseNumber([]byte(text))
			inputs = append(inputs, v, n)
		}
		for _, in := range inputs {
			def := checkToDeclared(t, Options{}, in, declared)
			num := checkToDeclared(t, Options{UseNumber: true}, in, declared)
			checkToDeclared(t, Options{StructuredOnly: true}, in, declared)
			// UseNumber changes how numbers are held, not what they are
			// nor whether coercion succeeds. Numbers the default made
			// float64 may have been rounded (a fraction in JSON text).
			if (def.err == nil) != (num.err == nil) {
				t.Fatalf("ToDeclared(%#v, %q): error %v, with UseNumber %v", in, declared, def.err, num.err)
			}
			if def.err == nil {
				if d := valueMismatch(num.out, def.out, nearestFloat64); d != "" {
					t.Fatalf("ToDeclared(%#v, %q): with UseNumber %#v, without %#v: %s", in, declared, num.out, def.out, d)
				}
			}
		}
	})
}

type coerced struct {
	out any
	err error
}

// checkToDeclared runs o.ToDeclared(in, declared) and checks the contract:
// the input is not mutated; on error the input comes back unchanged and the
// error has a sentinel; on success the result conforms and is a fixed point,
// and a value that already conforms comes back as it is.
func checkToDeclared(t *testing.T, o Options, in any, declared string) coerced {
	t.Helper()
	before := deepCopy(in)
	out, err := o.ToDeclared(in, declared)
	if !reflect.DeepEqual(in, before) {
		t.Fatalf("%+v.ToDeclared(%q) mutated its input: before %#v, after %#v", o, declared, before, in)
	}
	again, err2 := o.ToDeclared(in, declared)
	if !reflect.DeepEqual(again, out) || fmt.Sprint(err) != fmt.Sprint(err2) {
		t.Fatalf("%+v.ToDeclared(%#v, %q) is not deterministic: %#v, %v, then %#v, %v", o, in, declared, out, err, again, err2)
	}
	typ, perr := ParseType(declared)
	if err != nil {
		checkErrorContract(t, err)
		if !reflect.DeepEqual(out, in) {
			t.Fatalf("%+v.ToDeclared(%#v, %q) = %#v, %v: on error want the input unchanged", o, in, declared, out, err)
		}
		if perr == nil && typ.Conforms(in) {
			t.Fatalf("%+v.ToDeclared(%#v, %q): %v, but the input conforms", o, in, declared, err)
		}
		return coerced{out, err}
	}
	if perr != nil {
		t.Fatalf("%+v.ToDeclared(%#v, %q) = %#v without error, but ParseType fails: %v", o, in, declared, out, perr)
	}
	if !typ.Conforms(out) {
		t.Fatalf("%+v.ToDeclared(%#v, %q) = %#v, which does not conform", o, in, declared, out)
	}
	if typ.Conforms(in) && !identical(in, out) {
		t.Fatalf("%+v.ToDeclared(%#v, %q) = %#v: the input conforms, want it as it is", o, in, declared, out)
	}
	fixed, err := o.ToDeclared(out, declared)
	if err != nil || !identical(out, fixed) {
		t.Fatalf("not a fixed point: %+v.ToDeclared(%#v, %q) = %#v, then %#v, %v", o, in, declared, out, fixed, err)
	}
	return coerced{out, nil}
}

func FuzzRoundTrip(f *testing.F) {
	addTextSeeds(f)
	f.Fuzz(func(t *testing.T, text string) {
		var v any
		if json.Unmarshal([]byte(text), &v) != nil {
			return
		}
		if _, err := decodeJSON(text, true, 0); err != nil {
			return // refused by rule: a number rounded to zero, a lone surrogate
		}
		n, err := decodeUseNumber([]byte(text))
		if err != nil {
			t.Fatalf("encoding/json decodes %q into any but not with UseNumber: %v", text, err)
		}
		checkRoundTrip(t, Options{}, v)
		checkRoundTrip(t, Options{UseNumber: true}, n)
	})
}

// checkRoundTrip writes an object or array as JSON text for a string and
// reads it back for the kind it was: nothing may be lost on the way.
func checkRoundTrip(t *testing.T, o Options, v any) {
	t.Helper()
	var declared string
	switch v.(type) {
	case map[string]any:
		declared = "object"
	case []any:
		declared = "array"
	default:
		return
	}
	s, err := o.ToDeclared(v, "string")
	if err != nil {
		t.Fatalf("%+v.ToDeclared(%#v, \"string\"): %v", o, v, err)
	}
	text, ok := s.(string)
	if !ok {
		t.Fatalf("%+v.ToDeclared(%#v, \"string\") = %T %#v, want a string", o, v, s, s)
	}
	if !json.Valid([]byte(text)) {
		t.Fatalf("%+v.ToDeclared(%#v, \"string\") = %q, which is not JSON", o, v, text)
	}
	back, err := o.ToDeclared(text, declared)
	if err != nil {
		t.Fatalf("%+v.ToDeclared(%q, %q): %v", o, text, declared, err)
	}
	if d := valueMismatch(back, v, byValue); d != "" {
		t.Fatalf("%#v -> %q -> %#v: %s", v, text, back, d)
	}
}

func FuzzSniff(f *testing.F) {
	addTextSeeds(f)
	f.Fuzz(func(t *testing.T, text string) {
		sh, _ := sniff(text)
		var v any
		if json.Unmarshal([]byte(text), &v) != nil {
			return
		}
		var declared string
		switch v.(type) {
		case map[string]any:
			declared = "object"
			if sh != shapeObject {
				t.Fatalf("sniff(%q) = %v, but encoding/json reads an object", text, sh)
			}
		case []any:
			declared = "array"
			if sh != shapeArray {
				t.Fatalf("sniff(%q) = %v, but encoding/json reads an array", text, sh)
			}
		default:
			return
		}

		want, wantErr := ToDeclared(text, declared)
		if wantErr != nil && utf8.ValidString(text) && !hasLoneSurrogate(text) {
			t.Fatalf("ToDeclared(%q, %q): %v, but encoding/json reads it", text, declared, wantErr)
		}
		if wantErr == nil {
			// What encoding/json reads, exactly where the result holds
			// json.Number, as float64 would where it holds float64.
			ref, err := decodeUseNumber([]byte(text))
			if err != nil {
				t.Fatal(err)
			}
			if d := valueMismatch(want, ref, nearestFloat64); d != "" {
				t.Fatalf("ToDeclared(%q, %q) = %#v, encoding/json reads %#v: %s", text, declared, want, ref, d)
			}
		}
		if !utf8.ValidString(text) {
			return // json.Marshal would replace what makes it an error
		}
		quoted, err := json.Marshal(text)
		if err != nil {
			t.Fatal(err)
		}
		for _, wrapped := range []string{string(quoted), "```json\n" + text + "\n```"} {
			got, err := ToDeclared(wrapped, declared)
			if (err == nil) != (wantErr == nil) {
				t.Fatalf("ToDeclared(%q, %q): error %v, unwrapped %v", wrapped, declared, err, wantErr)
			}
			if err != nil {
				checkErrorContract(t, err)
				continue
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("ToDeclared(%q, %q) = %#v, unwrapped %#v", wrapped, declared, got, want)
			}
		}
	})
}

// hasLoneSurrogate reports whether valid JSON text escapes half of a UTF-16
// surrogate pair without the other half, which the README makes an error
// (encoding/json replaces it with U+FFFD).
func hasLoneSurrogate[T ~string | ~[]byte](text T) bool {
	inString, pending := false, false // pending: a high surrogate waits for its low half
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case !inString:
			inString = c == '"'
			continue
		case c == '"':
			inString = false
		case c == '\\' && i+1 < len(text) && text[i+1] == 'u' && i+6 <= len(text):
			r, err := strconv.ParseUint(string(text[i+2:i+6]), 16, 16)
			i += 5
			if err == nil && r >= 0xd800 && r < 0xe000 {
				low := r >= 0xdc00
				if low != pending {
					return true
				}
				pending = !low
				continue
			}
		case c == '\\':
			i++
		}
		if pending {
			return true
		}
	}
	return pending
}

// fuzzSchemas are the schemas FuzzSchemaCoerce picks from after those of
// the conformance vectors: unions, recursion through $defs, typed
// additionalProperties, tuples, and a root that is not a plain object.
var fuzzSchemas = []string{
	`{"type": "object", "$defs": {"Node": {"type": "object", "properties": {
		"name": {"type": "string"},
		"weight": {"type": ["number", "null"]},
		"children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}}}},
	  "properties": {
		"root": {"$ref": "#/$defs/Node"},
		"mode": {"anyOf": [{"type": "integer"}, {"type": "array", "items": {"type": "string"}}, {"type": "null"}]},
		"flag": {"type": "boolean"}}}`,
	`{"type": "object", "properties": {
		"headers": {"type": "object", "additionalProperties": {"type": "string"}},
		"counts": {"type": "object", "additionalProperties": {"type": "integer"}}},
	  "additionalProperties": {"type": "number"}}`,
	`{"type": "object", "properties": {
		"point": {"type": "array", "prefixItems": [{"type": "number"}, {"type": "number"}, {"type": "string"}], "items": {"type": "boolean"}},
		"pair": {"type": "array", "items": [{"type": "integer"}, {"type": "string"}]}}}`,
	`{"type": "object", "definitions": {"Config": {"type": "object",
		"properties": {"depth": {"type": "integer"}, "paths": {"type": "array", "items": {"type": "string"}}},
		"allOf": [{"properties": {"verbose": {"type": "boolean"}}}]}},
	  "properties": {
		"config": {"anyOf": [{"$ref": "#/definitions/Config"}, {"type": "null"}]},
		"tags": {"anyOf": [{"type": "array", "items": {"type": "string"}}, {"type": "string"}]},
		"limit": {"type": "integer", "nullable": true},
		"ratio": {"oneOf": [{"type": "number"}, {"type": "string", "enum": ["auto"]}]},
		"level": {"enum": [1, 2, 3]},
		"scale": {"enum": [1, 2.5]},
		"payload": {"type": "string"}}}`,
	`{"type": "object", "additionalProperties": false, "properties": {
		"ids": {"type": ["null", "array"], "items": {"type": "integer"}},
		"meta": {"type": ["null", "object"], "additionalProperties": {"type": "string"}},
		"when": {"type": ["string", "null"]}}}`,
	`{"anyOf": [{"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "array", "items": {"type": "number"}}}}, {"type": "null"}]}`,
}

// fuzzSchemaSeeds are arguments for fuzzSchemas, by index.
var fuzzSchemaSeeds = []struct {
	schema int
	args   string
}{
	{0, `{"root": "{\"name\": 5, \"weight\": \"1.5\", \"children\": \"[{\\\"name\\\": \\\"leaf\\\", \\\"weight\\\": null}]\"}", "mode": "3", "flag": "yes"}`},
	{0, `{"root": {"children": [{"children": [{"weight": "x"}]}]}, "mode": "[\"a\",1]"}`},
	{1, `{"headers": "{\"Accept\": 1}", "counts": {"a": "2", "b": 3.0}, "extra": "4.5", "other": true}`},
	{2, `{"point": "[\"1\", 2, 3, \"true\", 0]", "pair": ["7", 8]}`},
	{3, `{"config": "{\"depth\": \"2\", \"paths\": \"[\\\"a\\\"]\", \"verbose\": \"on\"}", "tags": "[\"x\"]", "limit": "", "ratio": "auto", "level": "2", "scale": "2.5", "payload": {"k": [1, 2.50, 1e2]}}`},
	{4, `{"ids": "[1, \"2\"]", "meta": "{\"k\": 1}", "when": 20240101, "unknown": "5"}`},
	{5, `{"a": "12345678901234567890", "b": "[1, \"2.5\"]"}`},
}

// fuzzSchemaSet compiles the schemas of the conformance vectors and
// fuzzSchemas with o.
func fuzzSchemaSet(f testing.TB, o Options) []*Schema {
	var sources [][]byte
	for _, c := range loadCases[schemaCase](f, "testdata/conformance/*schemas.json") {
		sources = append(sources, c.Schema)
	}
	for _, s := range fuzzSchemas {
		sources = append(sources, []byte(s))
	}
	schemas := make([]*Schema, len(sources))
	for i, src := range sources {
		s, err := o.ParseSchema(src)
		if err != nil {
			f.Fatalf("ParseSchema(%s): %v", src, err)
		}
		schemas[i] = s
	}
	return schemas
}

func FuzzSchemaCoerce(f *testing.F) {
	vectors := loadCases[schemaCase](f, "testdata/conformance/*schemas.json")
	for i, c := range vectors {
		f.Add(uint16(i), []byte(c.Args))
	}
	for _, s := range fuzzSchemaSeeds {
		f.Add(uint16(len(vectors)+s.schema), []byte(s.args))
	}
	exact := fuzzSchemaSet(f, Options{UseNumber: true})
	plain := fuzzSchemaSet(f, Options{})

	f.Fuzz(func(t *testing.T, schemaIndex uint16, args []byte) {
		i := int(schemaIndex) % len(exact)
		orig := bytes.Clone(args)

		// Text that is not a valid JSON object is refused as a whole.
		var v any
		float64Err := json.Unmarshal(args, &v)
		_, isObject := v.(map[string]any)
		switch {
		case !json.Valid(args):
			// Near-JSON whose reading is certain is repaired, and then
			// coerced as that JSON text is, strings holding near-JSON
			// inside it included; a call that then fails returns the text
			// as sent.
			o := Options{}
			// An object sent twice in a row, or after {} (a provider that
			// re-sends the object with each chunk), is the second, coerced.
			if start, ok := argsObject(args); ok {
				if end, err := jsonwire.Skip(args, start, 0, 1<<20); err == nil {
					if again, ok := resent(args, start, end, 1<<20); ok {
						want, werr := plain[i].CoerceJSON(bytes.Clone(again))
						if werr != nil {
							want = args
						}
						if got, err := plain[i].CoerceJSON(args); !bytes.Equal(got, want) || errPaths(err) != errPaths(werr) {
							t.Fatalf("CoerceJSON(%q) = %q, %v; the object it re-sends %q gives %q, %v", args, got, err, again, want, werr)
						}
						return
					}
				}
			}
			if fixed, _, ok, _ := o.repairNearJSON(args); ok && isArgsObject(fixed) {
				want, werr := plain[i].CoerceJSON(bytes.Clone(fixed))
				if werr != nil {
					want = args
				}
				got, err := plain[i].CoerceJSON(args)
				if !bytes.Equal(got, want) || errPaths(err) != errPaths(werr) {
					t.Fatalf("CoerceJSON(%q) = %q, %v; its repair %q gives %q, %v", args, got, err, fixed, want, werr)
				}
				if !bytes.Equal(args, orig) {
					t.Fatalf("CoerceJSON mutated its input %q to %q", orig, args)
				}
				return
			}
			// Too deep for encoding/json is too deep for us too; a number
			// out of range may come before the syntax error.
			checkRefused(t, plain[i], args, orig, ErrSyntax, ErrTruncated, ErrLimit, ErrPrecision)
			return
		case !utf8.Valid(args), hasLoneSurrogate(args):
			checkRefused(t, plain[i], args, orig, ErrSyntax)
			return
		case float64Err != nil:
			// A number beyond float64's range: the README allows an error or
			// the exact json.Number. Only the general contract applies.
			checkCoerceJSON(t, plain[i], args, orig)
			return
		case v == nil:
			// No arguments, as the MCP SDKs read "arguments": null.
			if out, err := plain[i].CoerceJSON(args); err != nil || !bytes.Equal(out, orig) {
				t.Fatalf("CoerceJSON(%q) = %q, %v, want it unchanged", args, out, err)
			}
			return
		case !isObject:
			checkRefused(t, plain[i], args, orig, ErrKind)
			return
		}
		// Duplicate keys need no exception: the last one wins in the text
		// that CoerceJSON writes as in the map that Coerce gets.

		// With UseNumber, numbers are json.Number in both and compare
		// exactly. encoding/json decodes the arguments for Coerce, as an
		// SDK would.
		decoded, err := decodeUseNumber(args)
		if err != nil {
			t.Fatal(err)
		}
		compareCoerce(t, exact[i], decoded.(map[string]any), args, orig, byValue)

		// By default, numbers in text that is parsed become float64. The
		// arguments for Coerce are decoded as the package decodes JSON
		// text, and numbers compare as float64, since CoerceJSON keeps the
		// text of numbers that need no change.
		decoded, err = decodeJSON(args, false, defaultMaxDepth)
		if err != nil {
			t.Fatalf("decodeJSON(%q): %v, but encoding/json reads it", args, err)
		}
		compareCoerce(t, plain[i], decoded.(map[string]any), args, orig, nearestFloat64)
	})
}

// checkRefused checks that CoerceJSON refuses args as a whole: the same
// bytes back and an error with one of the sentinels.
func checkRefused(t *testing.T, s *Schema, args, orig []byte, sentinels ...error) {
	t.Helper()
	out, err := s.CoerceJSON(args)
	if !bytes.Equal(args, orig) {
		t.Fatalf("CoerceJSON mutated its input %q to %q", orig, args)
	}
	if err == nil {
		t.Fatalf("CoerceJSON(%q) = %q without error, want %v", args, out, sentinels)
	}
	wantErr(t, fmt.Sprintf("CoerceJSON(%q)", args), err, sentinels...)
	if !bytes.Equal(out, orig) {
		t.Fatalf("CoerceJSON(%q) = %q, %v: want the input unchanged", args, out, err)
	}
}

// checkCoerceJSON checks what holds for any input: no mutation, an error
// with a sentinel, output that is JSON.
func checkCoerceJSON(t *testing.T, s *Schema, args, orig []byte) []byte {
	t.Helper()
	out, err := s.CoerceJSON(args)
	if !bytes.Equal(args, orig) {
		t.Fatalf("CoerceJSON mutated its input %q to %q", orig, args)
	}
	if err != nil {
		checkErrorContract(t, err)
	}
	if !json.Valid(out) {
		t.Fatalf("CoerceJSON(%q) = %q, %v: not JSON", args, out, err)
	}
	return out
}

// compareCoerce checks that Coerce on decoded and CoerceJSON on args, its
// text, give the same result and fail on the same paths.
func compareCoerce(t *testing.T, s *Schema, decoded map[string]any, args, orig []byte, numbers numberRule) {
	t.Helper()
	before := deepCopy(decoded)
	got, err := s.Coerce(decoded)
	if !reflect.DeepEqual(decoded, before) {
		t.Fatalf("Coerce mutated its input: before %#v, after %#v", before, decoded)
	}
	var paths []string
	if err != nil {
		for _, e := range checkErrorContract(t, err) {
			paths = append(paths, e.Path)
		}
	}

	text, jerr := s.CoerceJSON(args)
	if !bytes.Equal(args, orig) {
		t.Fatalf("CoerceJSON mutated its input %q to %q", orig, args)
	}
	var jpaths []string
	if jerr != nil {
		for _, e := range checkErrorContract(t, jerr) {
			jpaths = append(jpaths, e.Path)
		}
	}
	fromText, derr := decodeUseNumber(text)
	if derr != nil {
		t.Fatalf("CoerceJSON(%q) = %q, %v: not JSON: %v", args, text, jerr, derr)
	}
	if !slices.Equal(paths, jpaths) {
		t.Fatalf("on %q: Coerce fails at %q (%v), CoerceJSON at %q (%v)", args, paths, err, jpaths, jerr)
	}
	if d := valueMismatch(fromText, any(got), numbers); d != "" {
		t.Fatalf("on %q: CoerceJSON = %s, Coerce = %#v: %s", args, text, got, d)
	}
}

func isArgsObject(text []byte) bool {
	_, ok := argsObject(text)
	return ok
}
