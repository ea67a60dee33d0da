package toolcall

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/coerce-go/coerce"
)

// An Output is a tool's output schema compiled to coerce the tool's
// structured results (MCP's structuredContent) to it. Any JSON Schema
// works, as MCP 2026-07-28 allows (SEP-2106), not only an object: an
// array, a string, a union. It is immutable and safe for concurrent use.
type Output struct {
	opts coerce.Options
	root *coerce.Type

	// direct is the schema itself, when its root is an object type: an
	// object result is coerced by it as CoerceJSON coerces arguments.
	direct *coerce.Schema

	// wrapped is an object whose one required property, "result", is the
	// schema: any other result is coerced and checked as that property.
	wrapped *coerce.Schema

	// names holds the sorted property names of the object types met
	// (*coerce.Type → []string), so that finding a property by a key in the
	// text allocates nothing once the type has been met.
	names sync.Map
}

// wrapKey is the property of the wrapped schema that holds a result.
const wrapKey = "result"

// CompileOutput compiles the JSON text of a tool's output schema with o
// (o.OnChange is not used: Output.Coerce takes the call's). A schema that
// declares nothing (true, {}) compiles to an Output that passes every
// result as it is.
func CompileOutput(o coerce.Options, schema []byte) (*Output, error) {
	o.OnChange = nil
	o.Check = true // what a client's validator refuses, in the same pass
	s, err := o.ParseSchema(schema)
	if err != nil {
		return nil, err
	}
	out := &Output{opts: o, root: s.Type()}
	if out.root.Kind() == coerce.Object {
		out.direct = s
	}
	if out.root.Kind() == coerce.Any {
		return out, nil
	}
	w, err := wrapSchema(schema)
	if err != nil {
		return nil, err
	}
	if out.wrapped, err = o.ParseSchema(w); err != nil {
		return nil, err
	}
	return out, nil
}

// Coerce returns text, the JSON text of a structured result, coerced to
// the output schema: text itself when it conforms (an object result then
// costs no allocation, once a first result has met its types, unless it
// holds null below a property the schema does not declare); otherwise
// the repaired text, in which only the values that needed converting are
// rewritten.
//
// It repairs what coerce repairs in arguments (schema.CoerceJSON, with
// the Options the Output was compiled with: "5" for an integer, an object
// where JSON text is declared, nulls for properties neither required nor
// nullable removed), and one thing more, which Go's encoding/json causes:
// null where an array that does not admit null is declared, as a nil slice
// is written, becomes [] (reported as a coerce.NullRemoved change). A
// result that still does not conform once repaired (a value that does not
// convert, a required property missing, a value outside an enum, a name a
// closed object does not declare, null where null is not admitted) is
// returned as it came, with an error joining one *coerce.Error per
// finding, paths from the result's root.
//
// onChange, if not nil, receives each repair, in the order made.
func (out *Output) Coerce(text []byte, onChange func(coerce.Change)) ([]byte, error) {
	if out.root.Kind() == coerce.Any {
		return text, nil
	}
	arrays, others := out.scanNulls(text)
	fixed := emptyArrays(text, arrays, onChange)
	if string(bytes.TrimSpace(fixed)) == "null" && !admitsNull(out.root) {
		// Coercion would read null as no arguments, and Check as an
		// object without its required properties: it is no object.
		return text, &coerce.Error{Declared: out.root.String(), Err: coerce.ErrKind, Detail: nullDetail}
	}
	var (
		res []byte
		err error
	)
	if out.direct != nil && isObjectText(fixed) {
		res, err = out.coerceDirect(fixed, onChange)
	} else {
		res, err = out.coerceWrapped(fixed, onChange)
	}
	if err != nil {
		return text, err
	}
	if len(others) > 0 || !sameBytes(res, fixed) {
		// A null coercion left (it removes those of properties neither
		// required nor nullable) or wrote (from JSON text it parsed).
		if _, others := out.scanNulls(res); len(others) > 0 {
			return text, nullErrors(others)
		}
	}
	if sameBytes(res, fixed) {
		return fixed, nil
	}
	return res, nil
}

func (out *Output) coerceDirect(text []byte, onChange func(coerce.Change)) ([]byte, error) {
	s := out.direct
	if onChange != nil {
		o := out.opts
		o.OnChange = onChange
		s = s.WithOptions(o)
	}
	res, err := s.CoerceJSON(text)
	if err != nil {
		return text, err
	}
	return res, nil
}

// coerceWrapped coerces a result as the property of an object, so that
// coercion's rules apply to the result's root as to an argument.
func (out *Output) coerceWrapped(text []byte, onChange func(coerce.Change)) ([]byte, error) {
	s := out.wrapped
	if onChange != nil {
		o := out.opts
		o.OnChange = func(c coerce.Change) {
			c.Path = unwrapPath(c.Path)
			onChange(c)
		}
		s = s.WithOptions(o)
	}
	prefix := `{"` + wrapKey + `":`
	in := make([]byte, 0, len(prefix)+len(text)+1)
	in = append(append(append(in, prefix...), text...), '}')
	res, err := s.CoerceJSON(in)
	if err != nil {
		return text, unwrapErrors(err)
	}
	if sameBytes(res, in) {
		return text, nil
	}
	if bytes.HasPrefix(res, []byte(prefix)) && bytes.HasSuffix(res, []byte("}")) {
		return res[len(prefix) : len(res)-1], nil
	}
	var v map[string]json.RawMessage
	if err := json.Unmarshal(res, &v); err != nil || v[wrapKey] == nil {
		return text, fmt.Errorf("toolcall: reading the coerced result: %v", err)
	}
	return v[wrapKey], nil
}

// unwrapPath is a path of the wrapped schema as a path of the result.
func unwrapPath(p string) string {
	return strings.TrimPrefix(p, "/"+wrapKey)
}

// unwrapErrors returns err with the paths of its *coerce.Error made paths
// of the result: copies, never the errors coercion returned.
func unwrapErrors(err error) error {
	var errs []error
	for _, e := range Errors(err) {
		var ce *coerce.Error
		if errors.As(e, &ce) {
			c := *ce
			c.Path = unwrapPath(c.Path)
			e = &c
		}
		errs = append(errs, e)
	}
	return errors.Join(errs...)
}

// isObjectText reports whether text is a JSON object.
func isObjectText(text []byte) bool {
	t := bytes.TrimLeft(text, " \t\r\n")
	return len(t) > 0 && t[0] == '{'
}

// sameBytes reports whether a and b are the same slice.
func sameBytes(a, b []byte) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// wrapSchema is {"type":"object","properties":{"result": schema},
// "required":["result"]}, with the references of schema to itself (#,
// #/..., and by its root $id) pointing to where it now is, and its $schema
// at the root, where the dialect is read.
func wrapSchema(schema []byte) ([]byte, error) {
	d := json.NewDecoder(bytes.NewReader(schema))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, fmt.Errorf("toolcall: output schema: %w", err)
	}
	w := map[string]any{"type": "object", "required": []any{wrapKey}}
	if m, ok := v.(map[string]any); ok {
		m = cloneMap(m)
		id, _ := m["$id"].(string)
		delete(m, "$id")
		if dialect, ok := m["$schema"]; ok {
			w["$schema"] = dialect
			delete(m, "$schema")
		}
		v = rebase(m, id)
	}
	w["properties"] = map[string]any{wrapKey: v}
	return json.Marshal(w)
}

func cloneMap(m map[string]any) map[string]any {
	c := make(map[string]any, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

// rebase returns the schema s with each reference to the document's root
// (id being the root's $id, if any) made a reference below
// /properties/result. Values of keywords that hold data (enum, const,
// default, examples) are not schemas, and are left alone.
func rebase(s any, id string) any {
	switch s := s.(type) {
	case map[string]any:
		out := make(map[string]any, len(s))
		for k, v := range s {
			switch k {
			case "$ref", "$dynamicRef":
				if ref, ok := v.(string); ok {
					v = rebaseRef(ref, id)
				}
			case "enum", "const", "default", "examples":
			case "properties", "patternProperties", "$defs", "definitions", "dependentSchemas":
				if m, ok := v.(map[string]any); ok {
					c := make(map[string]any, len(m))
					for name, sub := range m {
						c[name] = rebase(sub, id)
					}
					v = c
				}
			default:
				v = rebase(v, id)
			}
			out[k] = v
		}
		return out
	case []any:
		out := make([]any, len(s))
		for i, v := range s {
			out[i] = rebase(v, id)
		}
		return out
	}
	return s
}

func rebaseRef(ref, id string) string {
	if id != "" && strings.HasPrefix(ref, id) {
		ref = ref[len(id):]
		if ref == "" {
			ref = "#"
		}
	}
	if ref == "#" || strings.HasPrefix(ref, "#/") {
		return "#/properties/" + wrapKey + ref[1:]
	}
	return ref
}

// A nullSite is a null in a result's text and the type declared for it.
type nullSite struct {
	offset int // of the null's first byte
	path   string
	t      *coerce.Type
}

// scanNulls returns the nulls of text that are declared an array that does
// not admit null (arrays), and those declared a type that does not admit
// null otherwise (others), with the type the schema declares for each where
// it can be told without choosing among the members of a union: below a
// union, only the member of the value's kind, if it is the only one. Text
// with no null costs one search; other text one read, which allocates only
// for the nulls it returns, for a key the schema does not declare or that
// has escapes (on the way to a null or a container), and for nesting deeper
// than 16.
// Text that is not valid JSON is read as far as it goes: coercion says what
// is wrong with it.
func (out *Output) scanNulls(text []byte) (arrays, others []nullSite) {
	root := out.root
	if !bytes.Contains(text, []byte("null")) {
		return nil, nil
	}
	type frame struct {
		t          *coerce.Type // nil: nothing known below
		object     bool
		keyStart   int // the key of the current member, without its quotes
		keyEnd     int
		keyEscaped bool
		index      int // of the current element
	}
	var buf [16]frame
	stack := buf[:0]
	key := func(f *frame) string {
		k := text[f.keyStart:f.keyEnd]
		if !f.keyEscaped {
			return string(k)
		}
		var s string
		if json.Unmarshal(text[f.keyStart-1:f.keyEnd+1], &s) != nil {
			return string(k)
		}
		return s
	}
	declared := func() *coerce.Type {
		n := len(stack)
		if n == 0 {
			return root
		}
		f := &stack[n-1]
		switch {
		case f.t == nil:
			return nil
		case f.object:
			if !f.keyEscaped {
				if name, ok := out.declares(f.t, text[f.keyStart:f.keyEnd]); ok {
					return f.t.Property(name)
				}
			}
			return f.t.Property(key(f))
		}
		return f.t.Item(f.index)
	}
	path := func() string {
		var b strings.Builder
		for i := range stack {
			f := &stack[i]
			b.WriteByte('/')
			if f.object {
				b.WriteString(pointerToken(key(f)))
			} else {
				b.WriteString(strconv.Itoa(f.index))
			}
		}
		return b.String()
	}
	expectKey := false
	for i := 0; i < len(text); {
		switch c := text[i]; c {
		case '{', '[':
			kind := coerce.Array
			if c == '{' {
				kind = coerce.Object
			}
			stack = append(stack, frame{t: ofKind(declared(), kind), object: c == '{'})
			expectKey = c == '{'
			i++
		case '}', ']':
			if len(stack) == 0 {
				return arrays, others
			}
			stack = stack[:len(stack)-1]
			expectKey = false
			i++
		case ',':
			if n := len(stack); n > 0 {
				if stack[n-1].object {
					expectKey = true
				} else {
					stack[n-1].index++
				}
			}
			i++
		case '"':
			end, escaped := i+1, false
			for end < len(text) && text[end] != '"' {
				if text[end] == '\\' {
					escaped = true
					end++
				}
				end++
			}
			if end >= len(text) {
				return arrays, others
			}
			if n := len(stack); expectKey && n > 0 {
				stack[n-1].keyStart, stack[n-1].keyEnd, stack[n-1].keyEscaped = i+1, end, escaped
				expectKey = false
			}
			i = end + 1
		case 'n':
			if !bytes.HasPrefix(text[i:], []byte("null")) {
				return arrays, others
			}
			if t := declared(); t != nil && t.Kind() == coerce.Array {
				arrays = append(arrays, nullSite{offset: i, path: path(), t: t})
			} else if !admitsNull(t) {
				others = append(others, nullSite{offset: i, path: path(), t: t})
			}
			i += len("null")
		default: // whitespace, colons, numbers, true and false
			i++
		}
	}
	return arrays, others
}

// pointerEscaper writes a name as a token of a JSON Pointer (RFC 6901).
var pointerEscaper = strings.NewReplacer("~", "~0", "/", "~1")

// pointerToken is name as a token of a JSON Pointer.
func pointerToken(name string) string {
	if !strings.ContainsAny(name, "~/") {
		return name
	}
	return pointerEscaper.Replace(name)
}

// declares returns the name of the property of the object type t that key
// spells, if t declares one, without allocating once t has been met.
func (out *Output) declares(t *coerce.Type, key []byte) (string, bool) {
	v, ok := out.names.Load(t)
	if !ok {
		v, _ = out.names.LoadOrStore(t, t.Properties())
	}
	names := v.([]string)
	lo, hi := 0, len(names)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if names[m] < string(key) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(names) && names[lo] == string(key) {
		return names[lo], true
	}
	return "", false
}

// ofKind is t where a value of kind is found: t itself if it declares
// that kind, the one member of a union that does, or nil, when nothing is
// known of what is below the value.
func ofKind(t *coerce.Type, kind coerce.Kind) *coerce.Type {
	if t == nil {
		return nil
	}
	switch t.Kind() {
	case kind:
		return t
	case coerce.Union:
		var found *coerce.Type
		for _, m := range t.Members() {
			switch m.Kind() {
			case kind:
				if found != nil {
					return nil
				}
				found = m
			case coerce.Any:
				return nil
			}
		}
		return found
	}
	return nil
}

// admitsNull reports whether null conforms to t: nil (nothing known), any,
// null, or a union with such a member.
func admitsNull(t *coerce.Type) bool {
	if t == nil {
		return true
	}
	switch t.Kind() {
	case coerce.Any, coerce.Null:
		return true
	case coerce.Union:
		for _, m := range t.Members() {
			if admitsNull(m) {
				return true
			}
		}
	}
	return false
}

// emptyArrays returns text with the nulls of sites written [], as
// encoding/json writes a nil slice: text itself when there are none.
func emptyArrays(text []byte, sites []nullSite, onChange func(coerce.Change)) []byte {
	if len(sites) == 0 {
		return text
	}
	out := make([]byte, 0, len(text)+len(sites)*2)
	last := 0
	for _, s := range sites {
		out = append(append(out, text[last:s.offset]...), "[]"...)
		last = s.offset + len("null")
		if onChange != nil {
			onChange(coerce.Change{Path: s.path, Declared: s.t.String(), Found: coerce.Null, Preview: "null", Rule: coerce.NullRemoved})
		}
	}
	return append(out, text[last:]...)
}

const nullDetail = "null where the output schema does not admit it"

// nullErrors returns one *coerce.Error per site: coercion leaves a null
// where it is (nil conforms to every type, for arguments), but a result
// must conform.
func nullErrors(sites []nullSite) error {
	var errs []error
	for _, s := range sites {
		declared := "any"
		if s.t != nil {
			declared = s.t.String()
		}
		errs = append(errs, &coerce.Error{Path: s.path, Declared: declared, Err: coerce.ErrKind, Detail: nullDetail})
	}
	return errors.Join(errs...)
}

// CoerceResult is Coerce of a tool's structured result for the server
// integrations, reported to l as the result's (PartResult): its repairs,
// or its rejection. ok is false when the result cannot be fixed; text then
// comes back as it was.
func (out *Output) CoerceResult(ctx context.Context, l Listeners, tool string, text []byte) (coerced []byte, ok bool) {
	var changes *[]coerce.Change
	var onChange func(coerce.Change)
	if l.Hears(ctx) {
		changes = new([]coerce.Change)
		onChange = func(c coerce.Change) { *changes = append(*changes, c) }
	}
	coerced, err := out.Coerce(text, onChange)
	if err != nil {
		l.Rejected(WithPart(ctx, PartResult), tool, err)
		return text, false
	}
	if changes != nil && len(*changes) > 0 {
		TextPreviews(*changes, coerced)
		l.Repaired(WithPart(ctx, PartResult), tool, *changes)
	}
	return coerced, true
}
