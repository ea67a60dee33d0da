package coerce

import (
	"bytes"
	"slices"

	"github.com/coerce-go/coerce/internal/jsonwire"
)

// The rule of enums: what a schema allows by enum and const, with the
// titles MCP's titled enums give the values (compiled here: enumOf,
// withEnum, titledEnum, withTitles), and the one allowed value a string
// that is not allowed names, by its case or by its title (enumRespelling),
// which every reader asks: the fitters, as a value that may not fit as it
// is, and the conversion of a string (convertScalar), as the value it
// becomes unless Options.ExactEnums.

// titledEnum reads alternatives that are each one string value with its
// title, and nothing else but its type, string (MCP's titled enums: oneOf
// or anyOf of {"const": "#F00", "title": "Red"}), as the enum of their
// values and the titles of each. A union of such values allows what that
// enum allows, and the rule of enums then reads a title as it reads a
// value spelt but for case (enumRespelling). ok is false for other
// alternatives, or for a value given twice.
func titledEnum(subs []any) (values []any, titles []string, ok bool) {
	seen := make(map[string]bool, len(subs)) // linear in the alternatives, however many
	for _, sub := range subs {
		n, _ := sub.(map[string]any)
		v, isString := n["const"].(string)
		if !isString || seen[v] {
			return nil, nil, false
		}
		seen[v] = true
		for k, kv := range n {
			switch k {
			case "const", "title", "description":
			case "type":
				if kv != "string" {
					return nil, nil, false
				}
			default:
				return nil, nil, false
			}
		}
		title, _ := n["title"].(string)
		values, titles = append(values, v), append(titles, title)
	}
	return values, titles, len(values) > 0
}

// withTitles is the string type t, whose enum withEnum set, with the
// titles of its values: a copy, t itself where none has one.
func withTitles(t *Type, titles []string) *Type {
	if t.kind != typeString || len(titles) != len(t.enum) || !slices.ContainsFunc(titles, func(s string) bool { return s != "" }) {
		return t
	}
	c := *t
	c.titles = titles
	return &c
}

// enumOf returns the values a schema allows by const or enum.
func enumOf(n map[string]any) ([]any, bool) {
	if v, ok := n["const"]; ok {
		return []any{v}, true
	}
	values, ok := n["enum"].([]any)
	return values, ok
}

// withEnum is t allowing only values, for choosing among union members:
// a copy, since t may be shared. A union keeps values for what reads its
// own enum (choosing among objects, Feedback), and its string members get
// the strings among them, so that the rule of enums, which reads a string
// type's enum, respells a string whichever way the union was written
// (type: ["string", "null"], nullable, enum beside anyOf) as it does where
// the enum is the member's own.
func withEnum(t *Type, values []any) *Type {
	if t.kind == typeAny || len(values) == 0 {
		return t // any is shared, and placeholders are filled later
	}
	c := *t
	c.enum, c.exact = values, false
	if t.kind == typeUnion {
		c.members = make([]*Type, len(t.members))
		for i, m := range t.members {
			c.members[i] = m
			if m.kind == typeString {
				c.members[i] = withStrings(m, values)
			}
		}
		c.scalars = scalarKinds(c.members)
	}
	return &c
}

// withStrings is the string type m allowing only the strings of values
// (and of its own enum, if it has one); m itself when that leaves none, as
// then there is nothing to respell to.
func withStrings(m *Type, values []any) *Type {
	var strs []any
	for _, v := range values {
		if _, ok := v.(string); ok && (m.enum == nil || enumHas(m.enum, v)) {
			strs = append(strs, v)
		}
	}
	if len(strs) == 0 {
		return m
	}
	c := *m
	c.enum, c.exact = strs, false
	return &c
}

// enumRespelling is the rule of enums: the one allowed value of t, a
// string type with an enum or const, that s names, where s itself is not
// allowed: the value s spells but for the case of ASCII letters, or the
// value whose title s is (MCP's titled enums), exactly or else but for
// case. "" otherwise: s allowed, no such value, or two readings ("Asc"
// for ["ASC", "asc"]; "small" for the value "Small" and the value titled
// "Small"). s is a string, or the bytes of one in JSON text without
// escapes: no allocation.
func enumRespelling[S ~string | ~[]byte](t *Type, s S) string {
	if t.enum == nil || t.kind != typeString {
		return ""
	}
	for _, e := range t.enum { // not enumHas: s as an any would allocate
		if e, ok := e.(string); ok && e == string(s) {
			return ""
		}
	}
	byCase, ok := oneValue(t, func(i int, e string) bool { return asciiEqualFold(e, s) })
	if !ok || t.titles == nil {
		return byCase
	}
	byTitle, ok := oneValue(t, func(i int, _ string) bool { return t.titles[i] != "" && t.titles[i] == string(s) })
	if ok && byTitle == "" {
		byTitle, ok = oneValue(t, func(i int, _ string) bool { return t.titles[i] != "" && asciiEqualFold(t.titles[i], s) })
	}
	switch {
	case !ok || byCase != "" && byTitle != "" && byCase != byTitle:
		return ""
	case byCase != "":
		return byCase
	}
	return byTitle
}

// oneValue returns the one string value of t's enum that match says s
// names (i its index), "" for none; ok is false for two or more.
func oneValue(t *Type, match func(i int, e string) bool) (v string, ok bool) {
	for i, e := range t.enum {
		if e, isString := e.(string); isString && match(i, e) {
			if v != "" && v != e {
				return "", false
			}
			v = e
		}
	}
	return v, true
}

// enumRespellingRaw is enumRespelling for a string token of JSON text.
func enumRespellingRaw(t *Type, tok []byte) string {
	content := tok[1 : len(tok)-1]
	if bytes.IndexByte(content, '\\') >= 0 {
		return enumRespelling(t, jsonwire.Unescape(content))
	}
	return enumRespelling(t, content)
}

// asciiEqualFold is strings.EqualFold for ASCII letters only: no Unicode
// folding ("ſ" is not "s").
func asciiEqualFold[S ~string | ~[]byte](a string, b S) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}
