package coerce

import (
	"context"
	"log/slog"
	"reflect"
	"strconv"

	"github.com/coerce-go/coerce/internal/jsonwire"
	"github.com/coerce-go/coerce/internal/nearjson"
)

var kindNames = [...]string{
	Invalid: "invalid", Any: "any", Null: "null", Boolean: "boolean", Integer: "integer",
	Number: "number", String: "string", Array: "array", Object: "object", Union: "union",
}

// A Rule names one conversion coercion makes. Its String form is short
// and stable, for logs and metric labels.
type Rule uint8

const (
	// JSONText: JSON text parsed into the object or array declared,
	// `"[1, 2]"` → [1, 2].
	JSONText Rule = iota + 1
	// DoubleEncoded: JSON text encoded once more as a JSON string,
	// `"\"[1, 2]\""` → [1, 2].
	DoubleEncoded
	// Fenced: JSON text inside a markdown fence, "```json\n[1]\n```" → [1].
	Fenced
	// NumberFromText: a numeric string for an integer or number, "5" → 5.
	NumberFromText
	// NumberFromBoolean: true → 1, false → 0.
	NumberFromBoolean
	// BooleanFromText: "true", "yes", "on", "1"... → true.
	BooleanFromText
	// BooleanFromNumber: 1 → true, 0 → false.
	BooleanFromNumber
	// NullFromText: "" or "null" → null, for a nullable type that is not a string.
	NullFromText
	// ToJSONText: an object or array written as compact JSON text for a
	// string, {"a": 1} → `{"a":1}`.
	ToJSONText
	// NumberToText: a number for a string, 5 → "5".
	NumberToText
	// BooleanToText: a boolean for a string, true → "true".
	BooleanToText
	// Wrapped: a single value made a one-element array (Options.WrapScalars).
	Wrapped
	// ViaJSON: a Go value of another type (a struct, a typed map or slice)
	// converted through its JSON form into maps and slices.
	ViaJSON

	// The repairs of near-JSON text, one per kind, reported beside the rule
	// that unwrapped the text (JSONText, DoubleEncoded or Fenced); see
	// Options.StrictJSON.

	// TemplateTokens: chat-template tokens around the text removed,
	// "<tool_call>{...}</tool_call>".
	TemplateTokens
	// Comments: //, # and /* */ comments removed.
	Comments
	// PythonLiterals: True, False and None written as true, false and null.
	PythonLiterals
	// SingleQuotes: 'strings' written with double quotes.
	SingleQuotes
	// UnquotedKeys: {key: 1} written {"key": 1}.
	UnquotedKeys
	// TrailingCommas: [1, 2,] written [1, 2].
	TrailingCommas
	// InvalidEscapes: a backslash JSON has no escape for kept as itself,
	// "C:\path".
	InvalidEscapes

	// Renamed: a parameter named as a declared one but for case and word
	// separators, maxResults → max_results (Options.ExactNames).
	Renamed
	// NullRemoved: null for a parameter neither required nor nullable,
	// removed (Options.KeepNulls).
	NullRemoved
	// EnumCase: a string equal to one allowed value but for case, or to its
	// title, respelled as that value, "ASC" → "asc" (Options.ExactEnums).
	EnumCase
	// Resent: argument text that holds one object twice in a row, or an
	// empty object and then one, as some providers stream a call, read as
	// that one object: {"a":1}{"a":1} → {"a":1}.
	Resent
	// PlaceholderRemoved: "", {} or [] for a parameter that is not required
	// and whose type does not take it, removed as null is ("" for an
	// integer; Options.KeepNulls).
	PlaceholderRemoved
	// Unwrapped: arguments sent inside an envelope of their own, one key
	// such as "kwargs" or "input" that the schema does not declare, read as
	// the object inside it, where that conforms and the envelope does not
	// (Options.ExactNames).
	Unwrapped
	// FromReply: the one value a model's reply holds that conforms to the
	// schema, taken from the prose, fences and other values around it
	// (Schema.FromReply); Change.Offset says where it begins.
	FromReply
)

// nearJSONRules are the rules of the near-JSON fixes, bit i of
// nearjson.Fixes for TemplateTokens+i.
func nearJSONRules(fixes nearjson.Fixes, each func(Rule)) {
	for i := range InvalidEscapes - TemplateTokens + 1 {
		if fixes&(1<<i) != 0 {
			each(TemplateTokens + i)
		}
	}
}

var ruleNames = [...]string{
	JSONText: "json-text", DoubleEncoded: "double-encoded", Fenced: "fenced",
	NumberFromText: "number-from-text", NumberFromBoolean: "number-from-boolean",
	BooleanFromText: "boolean-from-text", BooleanFromNumber: "boolean-from-number",
	NullFromText: "null-from-text", ToJSONText: "to-json-text", NumberToText: "number-to-text",
	BooleanToText: "boolean-to-text", Wrapped: "wrapped", ViaJSON: "via-json",
	TemplateTokens: "template-token", Comments: "comment", PythonLiterals: "python-literal",
	SingleQuotes: "single-quote", UnquotedKeys: "unquoted-key", TrailingCommas: "trailing-comma",
	InvalidEscapes: "invalid-escape",
	Renamed:        "renamed", NullRemoved: "null-removed", EnumCase: "enum-case", Resent: "resent",
	PlaceholderRemoved: "placeholder-removed", Unwrapped: "unwrapped",
	FromReply: "from-reply",
}

func (r Rule) String() string {
	if int(r) < len(ruleNames) && ruleNames[r] != "" {
		return ruleNames[r]
	}
	return "Rule(" + strconv.Itoa(int(r)) + ")"
}

// A Change is one conversion that coercion made, as Options.OnChange
// receives it.
type Change struct {
	// Path is the JSON Pointer of the converted value inside the argument,
	// e.g. "/tasks/0/id"; it is empty for the value itself.
	Path string
	// Declared is the type wanted there, in canonical form.
	Declared string
	// Found is the JSON kind of the value as it was.
	Found Kind
	// Preview is the beginning of the value as it was: at most
	// PreviewLen bytes of a string (cut at a character boundary), the
	// text of a number or boolean, and for an object or array written as
	// JSON text (ToJSONText) the beginning of that text, from every entry
	// point alike; empty for other objects and arrays.
	Preview string
	// Rule is the conversion applied.
	Rule Rule
	// Offset is, for FromReply, the byte offset in the reply where the
	// value taken begins; zero for every other rule.
	Offset int
}

// LogValue makes a Change print as a group of its fields with log/slog.
func (c Change) LogValue() slog.Value {
	attrs := []slog.Attr{
		slog.String("path", c.Path),
		slog.String("declared", c.Declared),
		slog.String("found", c.Found.String()),
		slog.String("preview", c.Preview),
		slog.String("rule", c.Rule.String()),
	}
	if c.Rule == FromReply {
		attrs = append(attrs, slog.Int("offset", c.Offset))
	}
	return slog.GroupValue(attrs...)
}

// LogChanges returns a function for Options.OnChange that logs each change
// on l at debug level, with the tool (or node, or step) name, so that a
// server can see how often and how its clients send broken arguments:
//
//	opts := coerce.Options{OnChange: coerce.LogChanges(slog.Default(), "search")}
func LogChanges(l *slog.Logger, tool string) func(Change) {
	return func(c Change) { logChange(context.Background(), l, tool, c) }
}

func logChange(ctx context.Context, l *slog.Logger, tool string, c Change) {
	l.DebugContext(ctx, "coerce: argument repaired", slog.String("tool", tool), slog.Any("change", c))
}

// newChange describes the conversion of v to t by rule r, at the value
// itself; the walker puts the path in front as the change bubbles up.
func newChange(v any, t *Type, r Rule) Change {
	c := Change{Declared: t.String(), Found: kindOf(v).public(), Preview: preview(v), Rule: r}
	if r == ToJSONText && c.Preview == "" && !reflect.ValueOf(v).IsNil() {
		// The text it became: a log of this repair should show what the
		// object held. Changes are made only when someone listens. (From
		// JSON text, v is only the kind, a nil map or slice: the text walk
		// previews the text it wrote, rawToText.)
		// Its beginning only: the text of a value that holds a map twice
		// at each level is exponentially longer than its memory.
		if b, err := jsonwire.Prefix(v, 0, PreviewLen); err == nil {
			c.Preview = cut(b, PreviewLen)
		}
	}
	return c
}
