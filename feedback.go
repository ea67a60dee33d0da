package coerce

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
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
// (at most fbItems failures are described, the rest counted), and
// quotes of the arguments never exceed PreviewLen bytes each, so that a
// hostile or enormous argument is never echoed back into a model's context.

// fbItems bounds how many failures a feedback text describes.
const fbItems = 8

// fbNames bounds how many declared names a feedback text lists.
const fbNames = 12

// Feedback returns a short text, for a model, saying how to correct the
// arguments that err rejected: for each failing argument its JSON Pointer,
// the type declared in JSON Schema words, a preview of what was found and
// one valid example; for a name the schema does not know (see
// Schema.Check), the declared names, nearest first. err is an error of
// this package (an *Error, or several joined); an error of another kind is
// quoted, cut to a few hundred bytes. Feedback returns "" for a nil error.
//
// It knows the declared types only by their names (Error.Declared); a
// Schema's Feedback knows them entirely, and says more about objects and
// enums.
func Feedback(err error) string { return (*Schema)(nil).Feedback(err) }

// Feedback is the package's Feedback, with the declared type of each
// failing argument taken from the schema: objects are described with
// their properties, enums with their values, and the examples are built
// from the schema. Use it with the errors of s.Coerce, s.CoerceJSON and
// s.Check.
func (s *Schema) Feedback(err error) string {
	if err == nil {
		return ""
	}
	errs := fbFlatten(err)
	var b strings.Builder
	if len(errs) == 1 {
		b.WriteString("Invalid arguments: 1 problem. Correct it and send the call again.\n")
	} else {
		fmt.Fprintf(&b, "Invalid arguments: %d problems. Correct them and send the call again.\n", len(errs))
	}
	for i, e := range errs {
		if i == fbItems {
			fmt.Fprintf(&b, "- and %d more.\n", len(errs)-i)
			break
		}
		b.WriteString("- ")
		var ce *Error
		if !errors.As(e, &ce) {
			b.WriteString(fbCut(e.Error(), 4*PreviewLen))
			b.WriteString("\n")
			continue
		}
		s.fbDescribe(&b, ce)
		b.WriteString("\n")
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// flatten lists the errors joined in err, *Errors by their paths (stable,
// so that failures at one path keep their order).
func fbFlatten(err error) []error {
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

func (s *Schema) fbDescribe(b *strings.Builder, e *Error) {
	b.WriteString(fbPathWords(e.Path))
	b.WriteString(": ")
	t := s.fbDeclared(e)
	switch {
	case errors.Is(e.Err, ErrUnknownName):
		b.WriteString("not a declared name")
		if e.Detail != "" {
			b.WriteString("; declared, nearest first: ")
			b.WriteString(e.Detail)
		}
		b.WriteString(".")
		return
	case errors.Is(e.Err, ErrMissing):
		b.WriteString("missing, and required: ")
		b.WriteString(fbTypeWords(t))
		b.WriteString(". Example: ")
		b.WriteString(fbExampleText(t, nil))
		return
	case errors.Is(e.Err, ErrEnum):
		b.WriteString("expected ")
		if t == nil || len(t.Enum()) == 0 {
			b.WriteString("one of: " + e.Detail)
		} else {
			b.WriteString(fbTypeWords(t))
		}
		b.WriteString("; found ")
		b.WriteString(fbFoundWords(e.Value))
		b.WriteString(". Example: ")
		b.WriteString(fbExampleText(t, e.Value))
		return
	case errors.Is(e.Err, ErrLimit):
		b.WriteString("too large or too deeply nested")
		if e.Detail != "" {
			b.WriteString(" (" + fbCut(e.Detail, 2*PreviewLen) + ")")
		}
		b.WriteString("; send a smaller value.")
		return
	case errors.Is(e.Err, ErrUnknownType):
		b.WriteString("the declared type cannot be read (")
		b.WriteString(fbCut(e.Declared, 2*PreviewLen))
		b.WriteString("); this is the tool's fault, not the call's.")
		return
	}
	b.WriteString("expected ")
	b.WriteString(fbTypeWords(t))
	b.WriteString("; found ")
	b.WriteString(fbFoundWords(e.Value))
	switch {
	case errors.Is(e.Err, ErrSyntax):
		b.WriteString(", which is not valid")
		if e.Detail != "" {
			b.WriteString(" (" + fbCut(e.Detail, 2*PreviewLen))
			if e.Offset > 0 {
				b.WriteString(" at offset " + strconv.Itoa(e.Offset))
			}
			b.WriteString(")")
		}
	case errors.Is(e.Err, ErrPrecision):
		b.WriteString(", which would lose precision")
	}
	b.WriteString(". Example: ")
	b.WriteString(fbExampleText(t, e.Value))
}

// pathWords names the argument at a JSON Pointer.
func fbPathWords(path string) string {
	if path == "" {
		return "the arguments"
	}
	return showPath(path)
}

// declared is the type declared at e's path: from the schema if there is
// one and it knows the path, else parsed from e.Declared.
func (s *Schema) fbDeclared(e *Error) *Type {
	if s != nil {
		if t := fbTypeAt(s.Type(), e.Path); t != nil && t.Kind() != Any {
			return t
		}
	}
	if t, err := ParseType(e.Declared); err == nil {
		return t
	}
	return nil
}

// typeAt walks t along a JSON Pointer, through the members of unions that
// hold the kind each step needs; nil when a step finds no such member.
func fbTypeAt(t *Type, path string) *Type {
	if path == "" {
		return t
	}
	for _, tok := range strings.Split(path[1:], "/") {
		tok = strings.NewReplacer("~1", "/", "~0", "~").Replace(tok)
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

// typeWords says what t declares, in JSON Schema's words: "an integer",
// "an array of strings", "one of: \"asc\", \"desc\"", "an object with
// properties a (integer), b (string)".
func fbTypeWords(t *Type) string {
	if t == nil {
		return "a value of the declared type"
	}
	if enum := t.Enum(); len(enum) > 0 {
		return "one of: " + fbValueList(enum, fbNames)
	}
	switch t.Kind() {
	case Any:
		return "any value"
	case Null:
		return "null"
	case Boolean:
		return "a boolean (true or false)"
	case Integer:
		return "an integer"
	case Number:
		return "a number"
	case String:
		return "a string"
	case Array:
		return "an array of " + fbPluralWords(t.Elem())
	case Object:
		if props := t.Properties(); len(props) > 0 {
			var b strings.Builder
			b.WriteString("an object with properties ")
			required := t.Required()
			for i, p := range props {
				if i == fbNames {
					fmt.Fprintf(&b, ", and %d more", len(props)-i)
					break
				}
				if i > 0 {
					b.WriteString(", ")
				}
				b.WriteString(p)
				b.WriteString(" (")
				b.WriteString(fbShortWords(t.Property(p)))
				if slices.Contains(required, p) {
					b.WriteString(", required")
				}
				b.WriteString(")")
			}
			return b.String()
		}
		if e := t.Elem(); e.Kind() != Any {
			return "an object whose values are " + fbPluralWords(e)
		}
		return "an object"
	case Union:
		var words []string
		null := false
		for _, m := range t.Members() {
			if m.Kind() == Null {
				null = true
				continue
			}
			words = append(words, fbTypeWords(m))
		}
		if null {
			words = append(words, "null")
		}
		return fbOrList(words)
	}
	return t.String()
}

// shortWords is typeWords without articles, for the properties of an
// object: "integer", "array of strings", "one of \"a\", \"b\"".
func fbShortWords(t *Type) string {
	if enum := t.Enum(); len(enum) > 0 {
		return "one of " + fbValueList(enum, 4)
	}
	switch t.Kind() {
	case Array:
		if e := t.Elem(); e.Kind() != Any && e.Kind() != Union && len(e.Enum()) == 0 {
			return "array of " + e.Kind().String() + "s"
		}
		return "array"
	case Union:
		var words []string
		for _, m := range t.Members() {
			words = append(words, fbShortWords(m))
		}
		return fbOrList(words)
	}
	return t.Kind().String()
}

// pluralWords names the values of an array or dictionary of t.
func fbPluralWords(t *Type) string {
	if len(t.Enum()) > 0 {
		return "values " + fbTypeWords(t)
	}
	switch k := t.Kind(); k {
	case Any:
		return "any values"
	case Null:
		return "nulls"
	case Array:
		return "arrays of " + fbPluralWords(t.Elem())
	case Object:
		if len(t.Properties()) > 0 {
			return "objects, each " + fbTypeWords(t)
		}
		return "objects"
	case Union:
		return "values, each " + fbTypeWords(t)
	default:
		return k.String() + "s"
	}
}

func fbOrList(words []string) string {
	switch len(words) {
	case 0:
		return "any value"
	case 1:
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// valueList writes values as JSON, comma separated, at most max of them.
func fbValueList(values []any, max int) string {
	var b strings.Builder
	for i, v := range values {
		if i == max {
			fmt.Fprintf(&b, ", and %d more", len(values)-i)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(fbCut(fbJSON(v), PreviewLen))
	}
	return b.String()
}

// foundWords describes a value found, quoting at most PreviewLen bytes of
// it.
func fbFoundWords(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case string:
		return "the string " + fbQuotePreview(v)
	case bool:
		return "the boolean " + strconv.FormatBool(v)
	case json.Number:
		return "the number " + fbCut(string(v), PreviewLen)
	case float64, float32, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		return "the number " + fbCut(fmt.Sprint(v), PreviewLen)
	case json.RawMessage:
		return "the JSON text " + fbCut(string(bytes.TrimSpace(v)), PreviewLen)
	case map[string]any:
		return strings.TrimSpace("an object " + fbCut(fbJSON(v), PreviewLen))
	case []any:
		return strings.TrimSpace("an array " + fbCut(fbJSON(v), PreviewLen))
	}
	return "a value of Go type " + fmt.Sprintf("%T", v)
}

// quotePreview quotes the beginning of s, at most PreviewLen bytes of it.
func fbQuotePreview(s string) string {
	if c := fbCut(s, PreviewLen); len(c) < len(s) {
		return strconv.Quote(strings.TrimSuffix(c, "...")) + "..."
	}
	return strconv.Quote(s)
}

// cut shortens s to at most n bytes, at a character boundary, marking the
// cut with "...".
func fbCut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "..."
}

// jsonText is v as compact JSON text, keys sorted, HTML not escaped.
func fbJSON(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if enc.Encode(v) != nil {
		return "" // no JSON form (a cycle, NaN): never walk it again
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// exampleText is one valid value of t, as JSON text. For an enum and a
// string found, it is the allowed value nearest to that string.
func fbExampleText(t *Type, found any) string {
	if t == nil {
		return "a value of the declared type"
	}
	if s, ok := found.(string); ok && len(t.Enum()) > 0 {
		return fbCut(fbJSON(fbNearestValue(t.Enum(), s)), 4*PreviewLen)
	}
	return fbCut(fbJSON(fbExample(t, 0)), 4*PreviewLen)
}

// fbExampleDepth bounds the nesting of an example, so that a recursive
// schema gives a finite one.
const fbExampleDepth = 4

// example builds one value that conforms to t: the first value of an
// enum, the first member of a union that is not null, an array of one
// element, an object with its required properties (or, requiring none,
// its first).
func fbExample(t *Type, depth int) any {
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
		if depth >= fbExampleDepth {
			return []any{}
		}
		return []any{fbExample(t.Item(0), depth+1)}
	case Object:
		m := map[string]any{}
		if depth >= fbExampleDepth {
			return m
		}
		names := t.Required()
		if props := t.Properties(); len(names) == 0 && len(props) > 0 {
			names = props[:1]
		}
		for _, n := range names {
			m[n] = fbExample(t.Property(n), depth+1)
		}
		if len(m) == 0 {
			if e := t.Elem(); e.Kind() != Any {
				m["key"] = fbExample(e, depth+1)
			}
		}
		return m
	case Union:
		for _, m := range t.Members() {
			if m.Kind() != Null {
				return fbExample(m, depth)
			}
		}
		return nil
	}
	return "value"
}

// nearestValue is the value of values whose text is nearest to s.
func fbNearestValue(values []any, s string) any {
	best, bestD := values[0], -1
	for _, v := range values {
		text, ok := v.(string)
		if !ok {
			text = fbJSON(v)
		}
		if d := fbDistance(strings.ToLower(text), strings.ToLower(s)); bestD < 0 || d < bestD {
			best, bestD = v, d
		}
	}
	return best
}

// nearest returns names sorted by their edit distance to s, nearest
// first, ties in name order.
func fbNearest(names []string, s string) []string {
	out := slices.Clone(names)
	d := make(map[string]int, len(out))
	for _, n := range out {
		d[n] = fbDistance(strings.ToLower(n), strings.ToLower(s))
	}
	slices.SortStableFunc(out, func(a, b string) int {
		if d[a] != d[b] {
			return d[a] - d[b]
		}
		return strings.Compare(a, b)
	})
	return out
}

// distance is the Levenshtein distance between a and b, in characters.
func fbDistance(a, b string) int {
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

// Check reports what coercion leaves to a validator and a model needs to
// hear of: a required argument that is absent (ErrMissing), and an
// argument an object does not declare when it allows no others
// (additionalProperties: false, ErrUnknownName, with the declared names,
// nearest first, in Detail), and a value that its enum or const does not
// allow (ErrEnum, with the allowed values in Detail). It looks into nested
// objects and arrays as the schema declares them, and into a union only
// where the value's kind leaves one member; an enum beside a union is
// checked first, null passing where the union has a null member. It
// returns nil or one *Error per finding, joined, in
// the order of their paths. Call it on coerced arguments: coercion never
// fails for these reasons, and never adds or removes a name.
func (s *Schema) Check(args map[string]any) error {
	if s == nil {
		return nil
	}
	if fbOK(s.Type(), args, 0) {
		return nil // the common case, without building a path
	}
	errs := fbCheck(nil, nil, s.Type(), args, 0)
	if len(errs) == 0 {
		return nil
	}
	slices.SortStableFunc(errs, func(a, b error) int {
		return strings.Compare(a.(*Error).Path, b.(*Error).Path)
	})
	return errors.Join(errs...)
}

// CheckJSON is Check for arguments as JSON text. Text that is not a JSON
// object is not Check's business (CoerceJSON reports it); it returns nil.
func (s *Schema) CheckJSON(args []byte) error {
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.UseNumber()
	var m map[string]any
	if dec.Decode(&m) != nil {
		return nil
	}
	return s.Check(m)
}

// An fbPath is a JSON Pointer as Check descends, written out only for a
// finding, so that descending allocates nothing.
type fbPath struct {
	parent  *fbPath
	key     string
	index   int
	isIndex bool
}

func (p *fbPath) String() string {
	if p == nil {
		return ""
	}
	if p.isIndex {
		return p.parent.String() + "/" + strconv.Itoa(p.index)
	}
	return p.parent.String() + pointerToken(p.key)
}

// fbCheckDepth bounds the nesting Check looks into.
const fbCheckDepth = 64

// fbCheck appends to errs what Check reports of v against t. It allocates
// nothing for a value without findings.
func fbCheck(errs []error, at *fbPath, t *Type, v any, depth int) []error {
	if depth > fbCheckDepth || len(errs) > 4*fbItems {
		return errs
	}
	if t.Kind() == Union {
		if !fbUnionAllows(t, v) {
			return append(errs, &Error{Path: at.String(), Declared: t.String(), Value: v, Err: ErrEnum, Detail: fbValueList(t.Enum(), fbNames)})
		}
		if t = fbMemberOf(t, v); t == nil {
			return errs
		}
	}
	if enum := t.Enum(); len(enum) > 0 && !fbAllowed(enum, v) {
		return append(errs, &Error{Path: at.String(), Declared: t.String(), Value: v, Err: ErrEnum, Detail: fbValueList(enum, fbNames)})
	}
	switch v := v.(type) {
	case map[string]any:
		if t.Kind() != Object {
			return errs
		}
		for _, name := range t.Required() {
			if _, ok := v[name]; !ok {
				errs = append(errs, &Error{Path: at.String() + pointerToken(name), Declared: t.Property(name).String(), Err: ErrMissing})
			}
		}
		for k, x := range v {
			if !t.declares(k) && t.Closed() && !t.hasPatterns() {
				props := t.Properties()
				names := fbNearest(props, k)
				detail := strings.Join(names[:min(len(names), fbNames)], ", ")
				if len(names) > fbNames {
					detail += fmt.Sprintf(", and %d more", len(names)-fbNames)
				}
				errs = append(errs, &Error{Path: at.String() + pointerToken(k), Declared: t.String(), Value: x, Err: ErrUnknownName, Detail: detail})
				continue
			}
			if p := t.Property(k); p.Kind() != Any || len(p.Enum()) > 0 {
				errs = fbCheck(errs, &fbPath{parent: at, key: k}, p, x, depth+1)
			}
		}
	case []any:
		if t.Kind() != Array {
			return errs
		}
		for i, x := range v {
			if p := t.Item(i); p.Kind() != Any {
				errs = fbCheck(errs, &fbPath{parent: at, index: i, isIndex: true}, p, x, depth+1)
			}
		}
	}
	return errs
}

// fbMemberOf is the one member of union t of v's kind, or nil when there
// is none or several (Check then says nothing more of v): a string's
// enum is its string member's, however the schema wrote the union.
func fbMemberOf(t *Type, v any) *Type {
	var want Kind
	switch v := v.(type) {
	case map[string]any:
		want = Object
	case []any:
		want = Array
	case string:
		want = String
	case bool:
		want = Boolean
	case nil:
		want = Null
	default:
		if kindOf(v) != kindNumber {
			return nil
		}
		want = Number
	}
	var pick *Type
	n := 0
	for _, m := range t.Members() {
		k := m.Kind()
		if k == want || want == Number && k == Integer {
			pick, n = m, n+1
		}
	}
	if n != 1 {
		return nil
	}
	return pick
}

// fbUnionAllows reports whether v is one of the values the enum or const
// beside union t allows, or t has none. A null passes where t has a null
// member: nullable: true beside an enum that does not list null means,
// to most who write it, that null is allowed too, and a validator that
// reads it otherwise still says so.
//
// An object or array is left to the member of its kind, as before there
// were enums beside unions: where there is none, coercion has said so.
func fbUnionAllows(t *Type, v any) bool {
	enum := t.Enum()
	if len(enum) == 0 || fbAllowed(enum, v) {
		return true
	}
	switch v.(type) {
	case map[string]any, []any:
		return true
	}
	if v == nil {
		for _, m := range t.Members() {
			if m.Kind() == Null {
				return true
			}
		}
	}
	return false
}

// fbOK reports whether fbCheck would find nothing, allocating nothing.
func fbOK(t *Type, v any, depth int) bool {
	if depth > fbCheckDepth {
		return true
	}
	if t.Kind() == Union {
		if !fbUnionAllows(t, v) {
			return false
		}
		if t = fbMemberOf(t, v); t == nil {
			return true
		}
	}
	if enum := t.Enum(); len(enum) > 0 && !fbAllowed(enum, v) {
		return false
	}
	switch v := v.(type) {
	case map[string]any:
		if t.Kind() != Object {
			return true
		}
		for _, name := range t.Required() {
			if _, ok := v[name]; !ok {
				return false
			}
		}
		for k, x := range v {
			if !t.declares(k) && t.Closed() && !t.hasPatterns() {
				return false
			}
			if !fbOK(t.Property(k), x, depth+1) {
				return false
			}
		}
	case []any:
		if t.Kind() != Array {
			return true
		}
		for i, x := range v {
			if !fbOK(t.Item(i), x, depth+1) {
				return false
			}
		}
	}
	return true
}

// fbAllowed reports whether v is one of values, numbers compared by value
// whatever their Go type (the schema's float64, the arguments'
// json.Number), objects and arrays by their JSON text.
func fbAllowed(values []any, v any) bool {
	if sv, ok := v.(string); ok {
		for _, x := range values {
			if xs, ok := x.(string); ok && xs == sv {
				return true
			}
		}
	}
	vf, vnum := fbNumber(v)
	for _, x := range values {
		if xf, ok := fbNumber(x); ok || vnum {
			if ok && vnum && xf == vf {
				return true
			}
			continue
		}
		if fbJSON(x) == fbJSON(v) {
			return true
		}
	}
	return false
}

func fbNumber(v any) (float64, bool) {
	switch v := v.(type) {
	case json.Number:
		f, err := v.Float64()
		return f, err == nil
	case float64:
		return v, true
	case float32, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		f, err := strconv.ParseFloat(fmt.Sprint(v), 64)
		return f, err == nil
	}
	return 0, false
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
		what := c.fbNotice()
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
func (c Change) fbNotice() string {
	declared := "a value of the declared type"
	if t, err := ParseType(c.Declared); err == nil {
		switch t.Kind() {
		case Array:
			declared = "a JSON array"
		case Object:
			declared = "a JSON object"
		case Union:
			declared = "a " + t.String()
		default:
			declared = fbTypeWords(t)
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
		return "arrived as " + fbKindArticle(c.Found) + "; send a string (of JSON text)."
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
	case EnumCase:
		return "arrived in another case than the value allowed; send the value exactly as declared."
	case InvalidEscapes:
		return "arrived with invalid escapes in its strings; escape a backslash as \\\\."
	}
	return ""
}

func fbKindArticle(k Kind) string {
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
