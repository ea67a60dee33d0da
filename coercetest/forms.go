package coercetest

import (
	"encoding/json"
	"strings"

	"github.com/coerce-go/coerce"
)

// broken is one form of one value: the value sent, and the value coercion
// must make of it.
type broken struct {
	form       string
	sent, want any
	text       textStyle // for the JSON text forms of a container: how it is written
}

// A textStyle is one way clients write a container as JSON text.
type textStyle uint8

const (
	notText      textStyle = iota
	compactText            // JavaScript's JSON.stringify, Go's encoding/json
	spacedText             // Python's json.dumps: spaces, non-ASCII as \u escapes
	indentedText           // pretty-printed with a final newline, as models write it
	doubleText             // compact text encoded once more as a JSON string
	fencedText             // a ```json markdown fence around indented text
)

var textStyles = [...]struct {
	style textStyle
	name  string
}{
	{compactText, "json-text"},
	{spacedText, "spaced-json-text"},
	{indentedText, "indented-json-text"},
	{doubleText, "double-encoded-json-text"},
	{fencedText, "fenced-json-text"},
}

// write writes v, an object or array as decode, floatNumbers or build
// make them, as JSON text in style s.
func (s textStyle) write(v any) string {
	switch s {
	case spacedText:
		return encode(v, pythonStyle)
	case indentedText:
		return indent(encode(v, compactStyle)) + "\n"
	case doubleText:
		return encode(encode(v, compactStyle), compactStyle)
	case fencedText:
		return "```json\n" + indent(encode(v, compactStyle)) + "\n```"
	}
	return encode(v, compactStyle)
}

// breakValue returns the broken forms of v, a valid value of declared type
// t as a client sends it (see clientValue), none of which conforms to t;
// orig is the value coercion must give back. Only the value itself is
// broken here; Variants breaks the values inside it separately.
func breakValue(t *coerce.Type, v, orig any) []broken {
	var out []broken
	for _, b := range formsOf(t, v, orig) {
		if !t.Conforms(b.sent) { // a form that fits already tests nothing
			out = append(out, b)
		}
	}
	return out
}

func formsOf(t *coerce.Type, v, orig any) []broken {
	if t.Kind() == coerce.Any {
		return nil
	}
	if f, ok := v.(float64); ok {
		v = json.Number(numberString(f))
	}
	switch x := v.(type) {
	case []any:
		return asJSONText(t, coerce.Array, x, orig)
	case map[string]any:
		return asJSONText(t, coerce.Object, x, orig)
	case json.Number:
		s := string(x)
		if k := taker(t, s); (k == coerce.Integer || k == coerce.Number) && exactNumbers(x) {
			return []broken{{form: k.String() + "-as-string", sent: s, want: orig}}
		}
	case bool:
		text, number := "false", 0.0
		if x {
			text, number = "true", 1
		}
		return takenBy(t, coerce.Boolean,
			broken{form: "boolean-as-string", sent: text, want: orig},
			broken{form: "boolean-as-python-string", sent: strings.ToUpper(text[:1]) + text[1:], want: orig},
			broken{form: "boolean-as-number", sent: number, want: orig})
	case nil:
		return takenBy(t, coerce.Null,
			broken{form: "null-as-empty-string", sent: "", want: nil},
			broken{form: "null-as-string", sent: "null", want: nil})
	case string:
		return fromString(t, x, orig)
	}
	return nil
}

// asJSONText returns the JSON text forms of v, an array or an object
// (kind), valid for t. Coercion parses such text unless a string member of
// t keeps it as it is, and keeps the parsed value where it conforms to a
// member (a union measures JSON text by the value it holds), which v does.
// The numbers in the text must read back as the same values.
func asJSONText(t *coerce.Type, kind coerce.Kind, v, orig any) []broken {
	if keepsText(t) || !exactNumbers(v) {
		return nil
	}
	out := make([]broken, len(textStyles))
	for i, s := range textStyles {
		out[i] = broken{form: kind.String() + "-as-" + s.name, sent: s.style.write(v), want: orig, text: s.style}
	}
	return out
}

// keepsText reports whether t keeps a string as it is: it is a string, or
// a union with a string member.
func keepsText(t *coerce.Type) bool {
	for _, m := range members(t) {
		if m.Kind() == coerce.String {
			return true
		}
	}
	return false
}

// fromString returns the forms of s, the valid value of a value declared t
// whose member string keeps it: the value a client sends when it reads the
// text as JSON. Coercion writes that value back as text, as JavaScript
// prints it, so s must be that text; for objects and arrays the text it
// writes is the wanted one.
func fromString(t *coerce.Type, s string, orig any) []broken {
	var b broken
	switch {
	case s == "true" || s == "false":
		b = broken{form: "string-as-boolean", sent: s == "true", want: orig}
	case isJSONNumber(s):
		n, ok := numberValue(s)
		if !ok {
			return nil
		}
		b = broken{form: "string-as-number", sent: n, want: orig}
	case isStructuredText(s):
		decoded, err := decode([]byte(s))
		if err != nil {
			return nil
		}
		parsed, ok := floatNumbers(decoded)
		if !ok {
			return nil
		}
		kind := coerce.Object
		if _, ok := parsed.([]any); ok {
			kind = coerce.Array
		}
		for _, m := range members(t) {
			if m.Kind() == kind {
				return nil // tried first, and it might convert the value rather than fail
			}
		}
		b = broken{form: "json-text-as-" + kind.String(), sent: parsed, want: encode(parsed, compactStyle)}
	default:
		return nil
	}
	return takenBy(t, coerce.String, b)
}

// takenBy returns the forms that coercion converts with a member of kind,
// the one that gives back the valid value.
func takenBy(t *coerce.Type, kind coerce.Kind, forms ...broken) []broken {
	var out []broken
	for _, b := range forms {
		if taker(t, b.sent) == kind {
			out = append(out, b)
		}
	}
	return out
}

// taker returns the kind of the member of t that coercion converts sent
// with, a scalar of a broken form or an object or array for a string, or
// Invalid if none does. It follows the union rule of package coerce:
// members of the value's own kind first, then the others in declared
// order; the first that converts wins.
func taker(t *coerce.Type, sent any) coerce.Kind {
	own := kindOf(sent)
	for _, ownFirst := range []bool{true, false} {
		for _, m := range members(t) {
			if k := m.Kind(); sameKind(k, own) == ownFirst && takes(k, sent) {
				return k
			}
		}
	}
	return coerce.Invalid
}

// takes reports whether a member of kind takes sent under the default
// Options: keeps it, as it conforms, or converts it. The strings asked
// about are never object or array text, which object and array members
// would take.
func takes(kind coerce.Kind, sent any) bool {
	switch x := sent.(type) {
	case string:
		switch kind {
		case coerce.Null:
			return x == "" || x == "null"
		case coerce.Boolean:
			return isBoolWord(x)
		case coerce.Integer:
			return isJSONNumber(x) && isWhole(x)
		case coerce.Number:
			return isJSONNumber(x)
		case coerce.String:
			return true
		}
	case float64, json.Number:
		s := numberString(x)
		switch kind {
		case coerce.Boolean:
			return s == "0" || s == "1"
		case coerce.Integer:
			return isWhole(s)
		case coerce.Number, coerce.String:
			return true
		}
	case bool:
		return kind == coerce.Boolean || kind == coerce.Integer || kind == coerce.Number || kind == coerce.String
	case map[string]any, []any:
		return kind == coerce.String // objects and arrays of the own kind are never asked about
	}
	return false
}

// members returns the members of a union, and t alone for other types.
func members(t *coerce.Type) []*coerce.Type {
	if ms := t.Members(); ms != nil {
		return ms
	}
	return []*coerce.Type{t}
}

// kindOf returns the JSON kind of a value as decode, floatNumbers and
// build make them.
func kindOf(v any) coerce.Kind {
	switch v.(type) {
	case nil:
		return coerce.Null
	case string:
		return coerce.String
	case bool:
		return coerce.Boolean
	case float64, json.Number:
		return coerce.Number
	case []any:
		return coerce.Array
	case map[string]any:
		return coerce.Object
	}
	return coerce.Invalid
}

// sameKind reports whether a member of kind declared holds values of kind
// found as they are: an integer member holds numbers.
func sameKind(declared, found coerce.Kind) bool {
	if declared == coerce.Integer {
		declared = coerce.Number
	}
	return declared == found
}

// isBoolWord reports the strings package coerce reads as a boolean.
func isBoolWord(s string) bool {
	switch strings.ToLower(s) {
	case "true", "false", "1", "0", "yes", "no", "on", "off", "t", "f", "y", "n":
		return true
	}
	return false
}

// failsForSure reports whether coercing sent to t certainly fails, under
// the default Options: somewhere in it is a value that no conversion of
// package coerce turns into its declared type (an array for an object, a
// word for a number). False means only that it might not fail.
func failsForSure(t *coerce.Type, sent any) bool {
	if sent == nil || t.Kind() == coerce.Any || t.Conforms(sent) {
		return false
	}
	if t.Kind() == coerce.Union {
		for _, m := range t.Members() {
			if !failsForSure(m, sent) {
				return false
			}
		}
		return true
	}
	if s, ok := sent.(string); ok {
		return stringFails(t.Kind(), s)
	}
	switch t.Kind() {
	case coerce.Object:
		if m, ok := sent.(map[string]any); ok {
			for k, e := range m {
				if failsForSure(t.Property(k), e) {
					return true
				}
			}
			return false
		}
		return true // a number, a boolean or an array is never made an object
	case coerce.Array:
		if a, ok := sent.([]any); ok {
			for i, e := range a {
				if failsForSure(t.Item(i), e) {
					return true
				}
			}
			return false
		}
		return true // nor made an array, without Options.WrapScalars
	case coerce.Integer, coerce.Number:
		// true is 1; a number that does not conform has a fraction, and
		// an object or array never becomes a number.
		_, isBool := sent.(bool)
		return !isBool
	case coerce.Boolean:
		switch x := sent.(type) {
		case float64, json.Number:
			s := numberString(x)
			return s != "0" && s != "1"
		}
		return true
	case coerce.Null:
		return true // only "" and "null" become null
	}
	return false // a string takes the text of anything
}

// stringFails reports whether a string certainly does not convert to a
// type of kind k: JSON text needs a bracket, a number a digit, a boolean
// one of its words, null an empty string or "null".
func stringFails(k coerce.Kind, s string) bool {
	switch k {
	case coerce.Object, coerce.Array:
		return !strings.ContainsAny(s, "{[")
	case coerce.Integer, coerce.Number:
		return !strings.ContainsAny(s, "0123456789")
	case coerce.Boolean:
		return !isBoolWord(s) && !strings.ContainsAny(s, "0123456789")
	case coerce.Null:
		trimmed := strings.TrimSpace(s)
		return trimmed != "" && !strings.EqualFold(trimmed, "null")
	}
	return false
}
