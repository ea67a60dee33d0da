package coerce

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/coerce-go/coerce/internal/jsonwire"
)

// Feedback for a model: the text that tells whoever sent a call what to
// send instead. A model that called a tool with arguments that cannot be
// repaired learns nothing from "want integer, found string": it needs the
// parameter, the declared type in the words JSON Schema uses, a glimpse of
// what it sent, and one value that would have been accepted. MCP's
// SEP-1303 makes such a text the answer to the call (a tool result with
// isError: true), so that the model corrects itself on its next turn.
//
// The text is deterministic (the same error gives the same bytes), bounded
// (at most feedbackItems failures are described, the rest counted), and
// quotes of the arguments never exceed PreviewLen bytes each, so that a
// hostile or enormous argument is never echoed back into a model's context.

// feedbackItems bounds how many failures a feedback text describes.
const feedbackItems = 8

// feedbackNames bounds how many declared names a feedback text lists.
const feedbackNames = 12

// Feedback returns a short text, for a model, saying how to correct the
// arguments that err rejected: for each failing argument its JSON Pointer,
// the type declared in JSON Schema words, a preview of what was found and
// one valid example; for a name the schema does not know (see
// Schema.Check), the declared names, nearest first. err is an error of
// this package (an *Error, or several joined); an error of another kind is
// quoted, cut to a few hundred bytes. Feedback returns "" for a nil error.
//
// An *Error of this package keeps the whole type it declares, so that
// objects are described with their properties, enums with their values,
// and the examples built from the schema, with no schema at hand: an
// integration that returns only the error still gives the model all of it.
// An *Error made elsewhere has only its Declared name, which Feedback reads
// as a type expression.
func Feedback(err error) string { return (*Schema)(nil).Feedback(err) }

// Feedback is the package's Feedback, the same text for the errors of
// this package. For an *Error made elsewhere, the declared type is taken
// from the schema at the error's path where the schema has one there.
func (s *Schema) Feedback(err error) string {
	if err == nil {
		return ""
	}
	errs := flatten(err)
	var b strings.Builder
	if len(errs) == 1 {
		b.WriteString("Invalid arguments: 1 problem. Correct it and send the call again.\n")
	} else {
		fmt.Fprintf(&b, "Invalid arguments: %d problems. Correct them and send the call again.\n", len(errs))
	}
	for i, e := range errs {
		if i == feedbackItems {
			fmt.Fprintf(&b, "- and %d more.\n", len(errs)-i)
			break
		}
		b.WriteString("- ")
		var ce *Error
		if !errors.As(e, &ce) {
			b.WriteString(oneLine(cutMarked(e.Error(), 4*PreviewLen)))
			b.WriteString("\n")
			continue
		}
		s.describe(&b, ce)
		b.WriteString("\n")
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// flatten lists the errors joined in err, *Errors by their paths (stable,
// so that failures at one path keep their order).
func flatten(err error) []error {
	var out []error
	var walk func(error)
	walk = func(err error) {
		if j, ok := err.(interface{ Unwrap() []error }); ok {
			for _, e := range j.Unwrap() {
				walk(e)
			}
			return
		}
		if err != nil {
			out = append(out, err)
		}
	}
	walk(err)
	slices.SortStableFunc(out, func(a, b error) int {
		var ea, eb *Error
		if errors.As(a, &ea) && errors.As(b, &eb) {
			return strings.Compare(ea.Path, eb.Path)
		}
		return 0
	})
	// One line per argument: a value coercion could not convert may break
	// an enum as well (Check runs on what coercion left), and the first
	// says enough.
	return slices.CompactFunc(out, func(a, b error) bool {
		var ea, eb *Error
		return errors.As(a, &ea) && errors.As(b, &eb) && ea.Path == eb.Path
	})
}

// describe writes the line of one failure: its path, what was declared,
// what was found, and an example. Every byte that comes from the
// arguments (keys, values, details) goes through oneLine or a JSON
// quote, so that no argument can start a line of its own in the text.
func (s *Schema) describe(b *strings.Builder, e *Error) {
	b.WriteString(pathWords(e.Path))
	b.WriteString(": ")
	t := s.declaredAt(e)
	switch {
	case errors.Is(e.Err, ErrUnknownName):
		b.WriteString("not a declared name")
		if e.Detail != "" {
			b.WriteString("; declared, nearest first: ")
			b.WriteString(oneLine(cut(e.Detail, 16*PreviewLen)))
		}
		b.WriteString(".")
		return
	case errors.Is(e.Err, ErrMissing):
		b.WriteString("missing, and required: ")
		b.WriteString(typeWords(t))
		b.WriteString(". Example: ")
		b.WriteString(exampleText(t, nil))
		return
	case errors.Is(e.Err, ErrEnum):
		b.WriteString("expected ")
		if t == nil || len(t.Enum()) == 0 {
			b.WriteString("one of: " + oneLine(cut(e.Detail, 16*PreviewLen)))
		} else {
			b.WriteString(typeWords(t))
		}
		b.WriteString("; found ")
		b.WriteString(foundWords(e.Value))
		b.WriteString(". Example: ")
		b.WriteString(exampleText(t, e.Value))
		return
	case errors.Is(e.Err, ErrTruncated):
		// Cut off by an output limit or a broken stream: no parameter is
		// to blame, and a call that retries the same size is cut off again.
		if e.Path == "" {
			b.WriteString("cut off before their end")
			if e.Offset > 0 {
				b.WriteString(" (at byte " + strconv.Itoa(e.Offset) + ")")
			}
			b.WriteString(", so the tool did not run. Send the call again, complete: make it smaller, or split the work into several calls.")
			return
		}
		// JSON text in a string, cut off: the call ran to its end, but
		// this value did not; say what it must be.
		b.WriteString("expected ")
		b.WriteString(typeWords(t))
		b.WriteString("; found ")
		b.WriteString(foundWords(e.Value))
		b.WriteString(", JSON text cut off before its end, so the tool did not run. Send it complete. Example: ")
		b.WriteString(exampleText(t, e.Value))
		return
	case errors.Is(e.Err, ErrAmbiguous):
		// Two values that conform (Schema.FromReply): either may be meant.
		b.WriteString("holds more than one value that fits")
		if e.Detail != "" {
			b.WriteString(" (" + oneLine(cutMarked(e.Detail, 2*PreviewLen)))
			if e.Offset > 0 {
				b.WriteString(" at offset " + strconv.Itoa(e.Offset))
			}
			b.WriteString(")")
		}
		b.WriteString(", so none was taken. Send exactly one: ")
		b.WriteString(typeWords(t))
		b.WriteString(".")
		return
	case errors.Is(e.Err, ErrLimit):
		b.WriteString("too large or too deeply nested")
		if e.Detail != "" {
			b.WriteString(" (" + oneLine(cutMarked(e.Detail, 2*PreviewLen)) + ")")
		}
		b.WriteString("; send a smaller value.")
		return
	case errors.Is(e.Err, ErrUnknownType):
		b.WriteString("the declared type cannot be read (")
		b.WriteString(oneLine(cutMarked(e.Declared, 2*PreviewLen)))
		b.WriteString("); this is the tool's fault, not the call's.")
		return
	}
	b.WriteString("expected ")
	b.WriteString(typeWords(t))
	b.WriteString("; found ")
	b.WriteString(foundWords(e.Value))
	switch {
	case errors.Is(e.Err, ErrSyntax):
		b.WriteString(", which is not valid")
		if e.Detail != "" {
			b.WriteString(" (" + oneLine(cutMarked(e.Detail, 2*PreviewLen)))
			if e.Offset > 0 {
				b.WriteString(" at offset " + strconv.Itoa(e.Offset))
			}
			b.WriteString(")")
		}
	case errors.Is(e.Err, ErrPrecision):
		b.WriteString(", which would lose precision")
	}
	b.WriteString(". Example: ")
	b.WriteString(exampleText(t, e.Value))
}

// pathWords names the argument at a JSON Pointer.
func pathWords(path string) string {
	if path == "" {
		return "the arguments"
	}
	return showPath(path)
}

// declaredAt is the type declared at e's path: the one the engine
// stamped on e; for an *Error made elsewhere, from the schema if there is
// one and it knows the path, else parsed from e.Declared.
func (s *Schema) declaredAt(e *Error) *Type {
	if e.declared != nil {
		return e.declared
	}
	if s != nil {
		if t := typeAt(s.Type(), e.Path); t != nil && t.Kind() != Any {
			return t
		}
	}
	if t, err := cachedType(e.Declared); err == nil {
		return t
	}
	return nil
}

// typeAt walks t along a JSON Pointer, through the members of unions that
// hold the kind each step needs; nil when a step finds no such member.
func typeAt(t *Type, path string) *Type {
	for rest := path; rest != ""; {
		if rest[0] != '/' {
			return nil
		}
		rest = rest[1:]
		tok := rest
		if i := strings.IndexByte(rest, '/'); i >= 0 {
			tok, rest = rest[:i], rest[i:]
		} else {
			rest = ""
		}
		tok = jsonwire.UnescapePointerToken(tok)
		i, err := strconv.Atoi(tok)
		index := err == nil && i >= 0
		if t.Kind() == Union {
			var pick *Type
			for _, m := range t.Members() {
				if m.Kind() == Object || (index && m.Kind() == Array) {
					pick = m
					if index == (m.Kind() == Array) {
						break
					}
				}
			}
			if pick == nil {
				return nil
			}
			t = pick
		}
		switch t.Kind() {
		case Object:
			t = t.Property(tok)
		case Array:
			if !index {
				return nil
			}
			t = t.Item(i)
		default:
			return nil
		}
	}
	return t
}

// wordsBudget bounds the bytes one description of a type writes: a
// recursive type, or a union that names the next type twice at each
// level, would otherwise double the text at each level.
const wordsBudget = 8 * PreviewLen

// A wording writes the words of one type, within wordsBudget bytes. A
// type met again inside itself is referred to, not described again.
type wording struct {
	b      strings.Builder
	active []*Type // the types being described, outermost first
}

func (w *wording) full() bool { return w.b.Len() >= wordsBudget }

// typeWords says what t declares, in JSON Schema's words: "an integer",
// "an array of strings", "one of: \"asc\", \"desc\"", "an object with
// properties a (integer), b (string)".
func typeWords(t *Type) string {
	if t == nil {
		return "a value of the declared type"
	}
	var w wording
	w.words(t)
	return cutMarked(w.b.String(), wordsBudget)
}

// enter reports whether t may be described here, and marks it described:
// a type inside itself is named by its kind alone.
func (w *wording) enter(t *Type) bool {
	if w.full() {
		w.b.WriteString("...")
		return false
	}
	if slices.Contains(w.active, t) {
		w.b.WriteString("a value of that same type")
		return false
	}
	w.active = append(w.active, t)
	return true
}

func (w *wording) leave() { w.active = w.active[:len(w.active)-1] }

func (w *wording) words(t *Type) {
	if enum := t.Enum(); len(enum) > 0 {
		w.b.WriteString("one of: " + valueList(enum, feedbackNames))
		return
	}
	switch t.Kind() {
	case Any:
		w.b.WriteString("any value")
	case Null:
		w.b.WriteString("null")
	case Boolean:
		w.b.WriteString("a boolean (true or false)")
	case Integer:
		w.b.WriteString("an integer")
	case Number:
		w.b.WriteString("a number")
	case String:
		w.b.WriteString("a string")
	case Array:
		if w.enter(t) {
			w.b.WriteString("an array of ")
			w.plural(t.Elem())
			w.leave()
		}
	case Object:
		if !w.enter(t) {
			return
		}
		defer w.leave()
		if props := t.Properties(); len(props) > 0 {
			w.b.WriteString("an object with properties ")
			required := t.Required()
			for i, p := range props {
				if i == feedbackNames || w.full() {
					w.b.WriteString(", and " + strconv.Itoa(len(props)-i) + " more")
					break
				}
				if i > 0 {
					w.b.WriteString(", ")
				}
				w.b.WriteString(quoteIfNeeded(p))
				w.b.WriteString(" (")
				w.short(t.Property(p))
				if slices.Contains(required, p) {
					w.b.WriteString(", required")
				}
				w.b.WriteString(")")
			}
			return
		}
		if e := t.Elem(); e.Kind() != Any {
			w.b.WriteString("an object whose values are ")
			w.plural(e)
			return
		}
		w.b.WriteString("an object")
	case Union:
		if !w.enter(t) {
			return
		}
		defer w.leave()
		ms := t.Members()
		null := slices.ContainsFunc(ms, func(m *Type) bool { return m.Kind() == Null })
		n := len(ms)
		if null {
			n--
		}
		i := 0
		for _, m := range ms {
			if m.Kind() == Null {
				continue
			}
			w.or(i, n+btoi(null))
			i++
			w.words(m)
		}
		if null {
			w.or(i, n+1)
			w.b.WriteString("null")
		}
		if n == 0 && !null {
			w.b.WriteString("any value")
		}
	default:
		w.b.WriteString(t.String())
	}
}

// or writes the separator before the i-th of n alternatives.
func (w *wording) or(i, n int) {
	switch {
	case i == 0:
	case i == n-1:
		w.b.WriteString(" or ")
	default:
		w.b.WriteString(", ")
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// short is words without articles, for the properties of an object:
// "integer", "array of strings", "one of \"a\", \"b\"".
func (w *wording) short(t *Type) {
	if enum := t.Enum(); len(enum) > 0 {
		w.b.WriteString("one of " + valueList(enum, 4))
		return
	}
	switch t.Kind() {
	case Array:
		if e := t.Elem(); e.Kind() != Any && e.Kind() != Union && len(e.Enum()) == 0 {
			w.b.WriteString("array of " + e.Kind().String() + "s")
			return
		}
		w.b.WriteString("array")
	case Union:
		if !w.enter(t) {
			return
		}
		for i, m := range t.Members() {
			w.or(i, len(t.Members()))
			w.short(m)
			if w.full() {
				break
			}
		}
		w.leave()
	default:
		w.b.WriteString(t.Kind().String())
	}
}

// plural names the values of an array or dictionary of t.
func (w *wording) plural(t *Type) {
	if len(t.Enum()) > 0 {
		w.b.WriteString("values ")
		w.words(t)
		return
	}
	switch k := t.Kind(); k {
	case Any:
		w.b.WriteString("any values")
	case Null:
		w.b.WriteString("nulls")
	case Array:
		if w.enter(t) {
			w.b.WriteString("arrays of ")
			w.plural(t.Elem())
			w.leave()
		}
	case Object:
		if len(t.Properties()) > 0 {
			w.b.WriteString("objects, each ")
			w.words(t)
			return
		}
		w.b.WriteString("objects")
	case Union:
		w.b.WriteString("values, each ")
		w.words(t)
	default:
		w.b.WriteString(k.String() + "s")
	}
}

// valueList writes values as JSON, comma separated, at most max of them.
func valueList(values []any, max int) string {
	var b strings.Builder
	for i, v := range values {
		if i == max {
			b.WriteString(", and " + strconv.Itoa(len(values)-i) + " more")
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(previewJSON(v, PreviewLen))
	}
	return b.String()
}

// foundWords describes a value found, quoting at most PreviewLen bytes of
// it, read from its beginning: a value is never encoded whole to show
// its first bytes.
func foundWords(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case string:
		return "the string " + previewJSON(v, PreviewLen)
	case bool:
		return "the boolean " + strconv.FormatBool(v)
	case json.RawMessage:
		return "the JSON text " + oneLine(cutMarked(string(bytes.TrimSpace(v)), PreviewLen))
	case map[string]any:
		return "an object " + previewJSON(v, PreviewLen)
	case []any:
		return "an array " + previewJSON(v, PreviewLen)
	}
	if kindOf(v) == kindNumber {
		s, _ := numberText(v)
		return "the number " + oneLine(cutMarked(s, PreviewLen))
	}
	return "a value of Go type " + fmt.Sprintf("%T", v)
}

// exampleText is one valid value of t, as JSON text. For an enum and a
// string found, it is the allowed value nearest to that string.
func exampleText(t *Type, found any) string {
	if t == nil {
		return "a value of the declared type"
	}
	if s, ok := found.(string); ok && len(t.Enum()) > 0 {
		return previewJSON(nearestValue(t.Enum(), s), 4*PreviewLen)
	}
	ex := exampler{left: exampleNodes}
	return previewJSON(ex.example(t, 0), 4*PreviewLen)
}

// exampleDepth bounds the nesting of an example, so that a recursive
// schema gives a finite one; exampleNodes bounds its values, so that an
// object requiring many objects that each require many does not give
// r^depth of them.
const (
	exampleDepth = 4
	exampleNodes = 32
)

type exampler struct{ left int }

// example builds one value that conforms to t: the first value of an
// enum, the first member of a union that is not null, an array of one
// element, an object with its required properties (or, requiring none,
// its first), as far as the budget of values goes.
func (ex *exampler) example(t *Type, depth int) any {
	ex.left--
	if enum := t.Enum(); len(enum) > 0 {
		return enum[0]
	}
	switch t.Kind() {
	case Null:
		return nil
	case Boolean:
		return true
	case Integer:
		return 1
	case Number:
		return 1.5
	case String:
		return "text"
	case Array:
		if depth >= exampleDepth || ex.left <= 0 {
			return []any{}
		}
		return []any{ex.example(t.Item(0), depth+1)}
	case Object:
		m := map[string]any{}
		if depth >= exampleDepth || ex.left <= 0 {
			return m
		}
		names := t.Required()
		if props := t.Properties(); len(names) == 0 && len(props) > 0 {
			names = props[:1]
		}
		for _, n := range names {
			if ex.left <= 0 {
				break
			}
			m[n] = ex.example(t.Property(n), depth+1)
		}
		if len(m) == 0 {
			if e := t.Elem(); e.Kind() != Any {
				m["key"] = ex.example(e, depth+1)
			}
		}
		return m
	case Union:
		if depth >= exampleDepth {
			return nil
		}
		for _, m := range t.Members() {
			if m.Kind() != Null {
				return ex.example(m, depth+1)
			}
		}
		return nil
	}
	return "value"
}

// nearestValue is the value of values whose text is nearest to s.
func nearestValue(values []any, s string) any {
	best, bestD := values[0], -1
	ls := strings.ToLower(firstRunes(s, nameRunes))
	for _, v := range values {
		text, ok := v.(string)
		if !ok {
			text = previewJSON(v, nameRunes)
		}
		if d := distance(strings.ToLower(firstRunes(text, nameRunes)), ls); bestD < 0 || d < bestD {
			best, bestD = v, d
		}
	}
	return best
}

// distance is the Levenshtein distance between a and b, in characters.
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// Notice returns, for a model, a few lines saying how its arguments were
// repaired, so that it sends them right the next time: one line per rule
// (and declared kind), naming the arguments, such as
//
//   - `tags` arrived as JSON text; send a JSON array.
//
// It returns "" when no change would teach a model anything (no changes,
// or only Go values converted through JSON).
func Notice(changes []Change) string {
	type line struct{ what, names string }
	var lines []line
	index := map[string]int{}
	for _, c := range changes {
		what := c.notice()
		if what == "" {
			continue
		}
		name := "`" + strings.TrimPrefix(showPath(c.Path), "/") + "`"
		if c.Path == "" {
			name = "the arguments"
		}
		if i, ok := index[what]; ok {
			if strings.Count(lines[i].names, "`") < 2*4 {
				lines[i].names += ", " + name
			} else if !strings.HasSuffix(lines[i].names, "...") {
				lines[i].names += ", ..."
			}
			continue
		}
		index[what] = len(lines)
		lines = append(lines, line{what, name})
	}
	if len(lines) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("Note: the arguments were repaired before the tool ran. Send them as declared next time:")
	for _, l := range lines {
		b.WriteString("\n- ")
		b.WriteString(l.names)
		b.WriteString(" ")
		b.WriteString(l.what)
	}
	return b.String()
}

// notice is what a change's line says after the argument's name.
func (c Change) notice() string {
	declared := "a value of the declared type"
	if t, err := cachedType(c.Declared); err == nil {
		switch t.Kind() {
		case Array:
			declared = "a JSON array"
		case Object:
			declared = "a JSON object"
		case Union:
			declared = "a " + t.String()
		default:
			declared = typeWords(t)
		}
	}
	switch c.Rule {
	case JSONText:
		return "arrived as JSON text in a string; send " + declared + "."
	case DoubleEncoded:
		return "arrived as JSON text encoded twice; send " + declared + "."
	case Fenced:
		return "arrived inside a markdown fence; send " + declared + "."
	case NumberFromText:
		return "arrived as a string; send " + declared + ", without quotes."
	case NumberFromBoolean:
		return "arrived as a boolean; send " + declared + "."
	case BooleanFromText:
		return "arrived as a string; send true or false, without quotes."
	case BooleanFromNumber:
		return "arrived as a number; send true or false."
	case NullFromText:
		return "arrived as a string; send null."
	case ToJSONText:
		return "arrived as " + kindArticle(c.Found) + "; send a string (of JSON text)."
	case NumberToText:
		return "arrived as a number; send a string, in quotes."
	case BooleanToText:
		return "arrived as a boolean; send a string, in quotes."
	case Wrapped:
		return "arrived as a single value; send " + declared + "."
	case TemplateTokens:
		return "arrived with template tokens in its JSON text; send plain JSON."
	case Comments:
		return "arrived with comments in its JSON text; send JSON without comments."
	case PythonLiterals:
		return "arrived with Python literals (True, False, None); send JSON's true, false, null."
	case SingleQuotes:
		return "arrived with single-quoted strings; send JSON strings, in double quotes."
	case UnquotedKeys:
		return "arrived with unquoted keys; put every key in double quotes."
	case TrailingCommas:
		return "arrived with trailing commas; send JSON without them."
	case Renamed:
		return "arrived under another spelling of its name; use the name as declared."
	case NullRemoved:
		return "arrived as null, which it does not take; leave it out instead."
	case Unwrapped:
		return "arrived wrapped in an object of its own; send the arguments themselves, at the top level."
	case PlaceholderRemoved:
		return "arrived empty, which it does not take; leave it out instead."
	case EnumCase:
		return "arrived in another case than the value allowed; send the value exactly as declared."
	case Resent:
		return "arrived as one object sent twice in a row; send it once."
	case FromReply:
		return "arrived among other text (prose, a fence, other values); send " + declared + " alone."
	case InvalidEscapes:
		return "arrived with invalid escapes in its strings; escape a backslash as \\\\."
	}
	return ""
}

func kindArticle(k Kind) string {
	switch k {
	case Object:
		return "an object"
	case Array:
		return "an array"
	case Integer:
		return "an integer"
	}
	return "a " + k.String()
}
