// Package coercetest checks, from a tool's own unit tests, that the
// arguments real clients send reach the tool as it declared them once
// coerce has repaired them.
//
// MCP clients and workflow engines break arguments in a few known ways: an
// array arrives as JSON text, an integer as "5", a boolean as "true", a
// nullable parameter as "", and a string parameter that holds JSON text
// arrives already parsed. Package coerce repairs each of these before
// dispatch. This package replays them: from one set of valid arguments it
// makes every broken form the declared types admit, coerces each, and
// reports the ones that do not come back as the valid arguments.
//
// A downstream test is one line per valid argument set:
//
//	func TestSearchArguments(t *testing.T) {
//		schema, err := coerce.ParseSchema(searchInputSchema)
//		if err != nil {
//			t.Fatal(err)
//		}
//		coercetest.AssertRepairs(t, schema, map[string]any{
//			"query":   "go generics",
//			"limit":   10,
//			"tags":    []string{"go", "generics"},
//			"verbose": true,
//		})
//	}
//
// AssertRepairs first checks that the valid arguments come back from
// Schema.Coerce as they are, then that each broken form comes back as the
// valid arguments. It reports every failure with t.Errorf, naming the
// broken form and showing what was sent and what coercion made of it. Had
// the schema declared tags a string by mistake, the test would say, among
// others:
//
//	coercetest: variant "limit/integer-as-string" (Coerce):
//		args: {"limit":"10","query":"go generics","tags":["go","generics"],"verbose":true}
//		coerced arguments differ (-want +got):
//		  map[string]any{
//		  	"limit":   float64(10),
//		  	"query":   string("go generics"),
//		- 	"tags":    []any{string("go"), string("generics")},
//		+ 	"tags":    string(`["go","generics"]`),
//		  	"verbose": bool(true),
//		  }
//
// SDKs that hand arguments over as raw bytes, such as the official Go MCP
// SDK, use AssertRepairsJSON, which sends each form as JSON text through
// Schema.CoerceJSON instead.
//
// # Variants
//
// Variants makes the broken forms. Each is named "param/form", for a
// parameter of the valid arguments and one of these forms:
//
//	array-as-json-text                  ["a","b"] sent as the text `["a","b"]` (JavaScript's JSON.stringify)
//	array-as-spaced-json-text           ... as `["a", "b"]` (Python's json.dumps: spaces, non-ASCII as \u escapes)
//	array-as-indented-json-text         ... as indented text with a final newline (pretty-printed model output)
//	array-as-double-encoded-json-text   ... as `"[\"a\",\"b\"]"` (JSON text encoded once more)
//	array-as-fenced-json-text           ... as a ```json markdown fence around indented text (model output)
//	object-as-...                       the same five forms for an object
//	integer-as-string                   5 sent as "5" (a parameter declared integer)
//	number-as-string                    2.5 sent as "2.5" (declared number)
//	boolean-as-string                   true sent as "true"
//	boolean-as-python-string            true sent as "True" (Python's str)
//	boolean-as-number                   true sent as 1
//	null-as-empty-string                null sent as "" (form fields, template engines)
//	null-as-string                      null sent as "null" (JavaScript's String)
//	json-text-as-object                 a string parameter holding `{"id":"1"}` sent as the object
//	json-text-as-array                  a string parameter holding `["a"]` sent as the array
//	string-as-number                    a string parameter holding "5" sent as 5
//	string-as-boolean                   a string parameter holding "true" sent as true
//
// Then combinations, named by joining their parts with "+": every pair of
// broken parameters (when there are three or more), each with its first
// form, and rounds in which every broken parameter takes its next form at
// once, until each form has been in one.
//
// A form is made only where package coerce documents that it repairs it,
// and only where the declared type (Schema.Lookup, read with Type.Kind and
// Type.Members) says the repair gives back the valid value. So a parameter
// declared "string | list[string]" gets no array-as-json-text, because
// that text is already a valid string; "boolean | integer" gets no
// integer-as-string for 1, because coercion tries the boolean first and
// makes "1" true; and a parameter declared any gets nothing. No variant
// conforms to the schema as sent (Type.Conforms): one that did would test
// nothing, so Variants leaves it out.
//
// Only whole parameters are broken: the public Type does not expose the
// types of elements and properties, so values inside arrays and objects
// keep their valid form (they are re-encoded, though, inside JSON text).
// Variants assumes the default Options: a schema built with StructuredOnly
// leaves the scalar forms unrepaired, and one with WrapScalars may wrap
// them into arrays.
//
// # Comparison
//
// The result of coercion and the wanted arguments are compared as JSON:
// both are encoded and decoded again, and then compared with go-cmp,
// numbers by exact decimal value. So int 5, float64 5 and json.Number "5.0"
// are equal, while 9007199254740992 and 9007199254740993 are not. Strings
// compare exactly, except that for json-text-as-object and
// json-text-as-array the wanted text is the one coercion writes (compact,
// keys sorted; see Variant.Want), which may differ in spacing and key order
// from the valid text.
package coercetest

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"

	"github.com/coerce-go/coerce"
)

// A Variant is one broken form of a valid argument set.
type Variant struct {
	// Name says what is broken: "param/form", or several such joined
	// with "+", e.g. "limit/integer-as-string+tags/array-as-json-text".
	Name string

	// Args is the argument set as a client sends it: the valid arguments
	// with the broken parameters replaced. It shares the unbroken values
	// with the valid arguments.
	Args map[string]any

	// Want is what coercing Args must give: the valid arguments, except
	// that a string parameter broken by json-text-as-object or
	// json-text-as-array holds the JSON text coercion writes for what was
	// sent (compact, keys sorted), equal in meaning to the valid text.
	Want map[string]any
}

// broken is one form of one parameter: the value sent, and the value
// coercion must make of it.
type broken struct {
	form       string
	sent, want any
}

// Variants returns the broken forms of valid, the arguments of a call that
// conforms to schema, in a fixed order: the single forms by parameter name
// and form, then the combinations (see the package documentation). None of
// them conforms to schema as sent; each is one that coercion, by the rules
// of package coerce, repairs into its Want. Parameters the schema does not
// declare, and values that encoding/json cannot encode, are not broken.
func Variants(schema *coerce.Schema, valid map[string]any) []Variant {
	var params []string
	forms := map[string][]broken{}
	for _, p := range slices.Sorted(maps.Keys(valid)) {
		t, ok := schema.Lookup(p)
		if !ok || t.Kind() == coerce.Any {
			continue
		}
		v, err := normalize(valid[p])
		if err != nil {
			continue
		}
		var fs []broken
		for _, b := range breakValue(t, v, valid[p]) {
			if !t.Conforms(b.sent) { // a form that fits already tests nothing
				fs = append(fs, b)
			}
		}
		if len(fs) > 0 {
			params = append(params, p)
			forms[p] = fs
		}
	}

	var out []Variant
	seen := map[string]bool{}
	add := func(parts map[string]broken) {
		v := Variant{Args: maps.Clone(valid), Want: maps.Clone(valid)}
		var names []string
		for _, p := range slices.Sorted(maps.Keys(parts)) {
			b := parts[p]
			names = append(names, escape(p)+"/"+b.form)
			v.Args[p], v.Want[p] = b.sent, b.want
		}
		v.Name = strings.Join(names, "+")
		if !seen[v.Name] {
			seen[v.Name] = true
			out = append(out, v)
		}
	}
	for _, p := range params {
		for _, b := range forms[p] {
			add(map[string]broken{p: b})
		}
	}
	if len(params) >= 3 { // with two, the pair is the first round below
		for i, p := range params {
			for _, q := range params[i+1:] {
				add(map[string]broken{p: forms[p][0], q: forms[q][0]})
			}
		}
	}
	if len(params) >= 2 {
		rounds := 0
		for _, p := range params {
			rounds = max(rounds, len(forms[p]))
		}
		for r := range rounds {
			parts := map[string]broken{}
			for _, p := range params {
				parts[p] = forms[p][r%len(forms[p])]
			}
			add(parts)
		}
	}
	return out
}

// escape writes a parameter name as a JSON Pointer token does, so that a
// "/" in it cannot be mistaken for the one before the form.
func escape(p string) string { return pointerEscaper.Replace(p) }

var pointerEscaper = strings.NewReplacer("~", "~0", "/", "~1")

// breakValue returns the broken forms of v, a valid value normalized to
// what encoding/json decodes (json.Number for numbers), of a parameter
// declared t; orig is the value as the caller gave it, which coercion must
// give back.
func breakValue(t *coerce.Type, v, orig any) []broken {
	switch x := v.(type) {
	case []any:
		return asJSONText(t, "array", x, orig)
	case map[string]any:
		return asJSONText(t, "object", x, orig)
	case json.Number:
		s := string(x)
		if k := taker(t, s); (k == "integer" || k == "number") && exactNumbers(x) {
			return []broken{{k + "-as-string", s, orig}}
		}
	case bool:
		text, number := "false", 0.0
		if x {
			text, number = "true", 1
		}
		return takenBy(t, "boolean",
			broken{"boolean-as-string", text, orig},
			broken{"boolean-as-python-string", strings.ToUpper(text[:1]) + text[1:], orig},
			broken{"boolean-as-number", number, orig})
	case nil:
		return takenBy(t, "null",
			broken{"null-as-empty-string", "", nil},
			broken{"null-as-string", "null", nil})
	case string:
		return fromString(t, x, orig)
	}
	return nil
}

// asJSONText returns the JSON text forms of v, an array or an object
// (kind), for a parameter declared t. Coercion sends such text to the
// first member of that kind; only when v fits that member as it is does
// the repair give v back. Other members never take object or array text,
// except a string member, which keeps it as text.
func asJSONText(t *coerce.Type, kind string, v, orig any) []broken {
	var first *coerce.Type
	for _, m := range members(t) {
		if m.Kind() == coerce.String {
			return nil
		}
		if first == nil && m.Kind().String() == kind {
			first = m
		}
	}
	if first == nil || !first.Conforms(v) || !exactNumbers(v) {
		return nil
	}
	compact := encode(v, compactStyle)
	indented := indent(compact)
	return []broken{
		{kind + "-as-json-text", compact, orig},
		{kind + "-as-spaced-json-text", encode(v, pythonStyle), orig},
		{kind + "-as-indented-json-text", indented + "\n", orig},
		{kind + "-as-double-encoded-json-text", encode(compact, compactStyle), orig},
		{kind + "-as-fenced-json-text", "```json\n" + indented + "\n```", orig},
	}
}

// fromString returns the forms of s, the valid value of a parameter
// declared t whose member string keeps it: the value a client sends when it
// reads the text as JSON. Coercion writes that value back as text, as
// JavaScript prints it, so s must be that text; for objects and arrays the
// text it writes is the wanted one.
func fromString(t *coerce.Type, s string, orig any) []broken {
	var b broken
	switch {
	case s == "true" || s == "false":
		b = broken{"string-as-boolean", s == "true", orig}
	case isJSONNumber(s):
		n, ok := numberValue(s)
		if !ok {
			return nil
		}
		b = broken{"string-as-number", n, orig}
	case isStructuredText(s):
		decoded, err := decode([]byte(s))
		if err != nil {
			return nil
		}
		parsed, ok := floatNumbers(decoded)
		if !ok {
			return nil
		}
		kind := "object"
		if _, ok := parsed.([]any); ok {
			kind = "array"
		}
		for _, m := range members(t) {
			if m.Kind().String() == kind {
				return nil // tried first, and it might convert the value rather than fail
			}
		}
		b = broken{"json-text-as-" + kind, parsed, encode(parsed, compactStyle)}
	default:
		return nil
	}
	return takenBy(t, "string", b)
}

// takenBy returns the forms that coercion converts with a member of kind,
// the one that gives back the valid value.
func takenBy(t *coerce.Type, kind string, forms ...broken) []broken {
	var out []broken
	for _, b := range forms {
		if taker(t, b.sent) == kind {
			out = append(out, b)
		}
	}
	return out
}

// taker returns the kind of the member of t that coercion converts sent
// with, a value of a broken form, or "" if none does. It follows the union
// rule of package coerce: members of the value's own kind first, then the
// others in declared order; the first that converts wins.
func taker(t *coerce.Type, sent any) string {
	own := kindOf(sent)
	for _, ownFirst := range []bool{true, false} {
		for _, m := range members(t) {
			if k := m.Kind().String(); sameKind(k, own) == ownFirst && takes(k, sent) {
				return k
			}
		}
	}
	return ""
}

// takes reports whether a member of kind takes sent under the default
// Options: keeps it, as it conforms, or converts it. The strings asked
// about are never object or array text, which object and array members
// would take.
func takes(kind string, sent any) bool {
	switch x := sent.(type) {
	case string:
		switch kind {
		case "null":
			return x == "" || x == "null"
		case "boolean":
			return isBoolWord(x)
		case "integer":
			return isJSONNumber(x) && isWhole(x)
		case "number":
			return isJSONNumber(x)
		case "string":
			return true
		}
	case float64, json.Number:
		s := numberString(x)
		switch kind {
		case "boolean":
			return s == "0" || s == "1"
		case "integer":
			return isWhole(s)
		case "number", "string":
			return true
		}
	case bool:
		return kind == "boolean" || kind == "integer" || kind == "number" || kind == "string"
	case map[string]any, []any:
		return kind == "string" // objects and arrays of the own kind are never asked about
	}
	return false
}

func members(t *coerce.Type) []*coerce.Type {
	if ms := t.Members(); ms != nil {
		return ms
	}
	return []*coerce.Type{t}
}

// kindOf names the JSON kind of a sent value.
func kindOf(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "string"
	case bool:
		return "boolean"
	case float64, json.Number:
		return "number"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return ""
}

func sameKind(memberKind, valueKind string) bool {
	if memberKind == "integer" {
		memberKind = "number"
	}
	return memberKind == valueKind
}

// isBoolWord reports the strings package coerce reads as a boolean.
func isBoolWord(s string) bool {
	switch strings.ToLower(s) {
	case "true", "false", "1", "0", "yes", "no", "on", "off", "t", "f", "y", "n":
		return true
	}
	return false
}
