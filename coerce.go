package coerce

import (
	"cmp"
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/coerce-go/coerce/internal/jsonwire"
)

// ToDeclared converts value to the declared type with the default Options.
// See Options.ToDeclared.
func ToDeclared(value any, declared string) (any, error) {
	return Options{}.ToDeclared(value, declared)
}

// ToDeclared converts value to the declared type, a type expression as
// ParseType reads it (parsed once, then cached).
//
// A value that already conforms is returned as it is: the same map, the same
// slice, the same string. Otherwise the result is a new value that conforms;
// the caller's maps and slices are never modified. Nil passes as nil for
// every type. If the value cannot be converted, ToDeclared returns it
// unchanged with an error that says where and why (see Error).
func (o Options) ToDeclared(value any, declared string) (any, error) {
	t, err := cachedType(declared)
	if err != nil {
		e := *err.(*Error)
		e.Value = value
		return value, &e
	}
	return o.ToType(value, t)
}

// ToType converts value to a parsed type with the default Options. See
// Options.ToDeclared.
func ToType(value any, t *Type) (any, error) {
	return Options{}.ToType(value, t)
}

// ToType is ToDeclared with a type that is already parsed, such as one from
// ParseType or Schema.Lookup.
func (o Options) ToType(value any, t *Type) (any, error) {
	if out, err, ok := o.direct(value, t); ok {
		return out, err
	}
	f := newFitter(&o)
	if f.fit(value, t, 0) {
		countWork(f.work)
		return value, nil
	}
	var w walker
	w.start(&o, f.work)
	defer w.release()
	return w.finish(value, t, w.one(value, t, 0, false))
}

// direct answers ToType, where it can, without the fitter or the walker:
// the commonest repairs of single values are cheap, and their cost should
// be theirs alone. One scalar against a scalar type ("5" for an integer);
// a string that cannot be JSON text where an object or array is declared;
// JSON text declared a bare object or array ("dict", "list"); a map or
// slice declared string.
func (o Options) direct(value any, t *Type) (out any, err error, ok bool) {
	k := kindOf(value)
	switch {
	case k <= kindString && t.scalarType():
		countWork(1)
		c := convertScalar(&o, value, k, t)
		switch {
		case c.why != nil:
			e := stamp(c.why, t, value)
			return value, &e, true
		case c.rule == 0:
			return value, nil, true
		case o.OnChange != nil:
			o.OnChange(newChange(value, t, c.rule))
		}
		return c.out, nil, true
	case o.WrapScalars:
	case k == kindString && (t.kind == typeObject || t.kind == typeArray):
		s, isString := value.(string)
		if !isString {
			break
		}
		if o.noJSONText(s) {
			countWork(1)
			e := stamp(&Error{Err: ErrKind, Detail: "not JSON text"}, t, value)
			return value, &e, true
		}
		if !t.constrains() && !t.keyed {
			out, err := o.plainText(s, t)
			return out, err, true
		}
	case t.kind == typeString && (k == kindObject || k == kindArray):
		switch value.(type) {
		case map[string]any, []any:
			countWork(1)
			c := newCodec(&o, 0) // no walker: nothing but text is written
			text, err := c.encode(value, 0)
			if err != nil {
				e := stamp(err, t, value)
				return value, &e, true
			}
			if o.OnChange != nil {
				o.OnChange(newChange(value, t, ToJSONText))
			}
			return text, nil, true
		}
	}
	return nil, nil, false
}

// plainText is ToType for JSON text declared a bare object or array
// ("dict", "list"), the commonest structured repair: the text parsed, and
// nothing more to convert inside it.
func (o Options) plainText(s string, t *Type) (any, error) {
	countWork(1 + len(s))
	sh, text, rule, fixes, why := jsonText(&o, s)
	if why.why == nil {
		why = textKind(sh, t)
	}
	if why.why == nil && o.MaxSize > 0 && len(text) > o.MaxSize {
		why.why = tooLong(o.MaxSize)
	}
	if why.why != nil {
		e := stamp(why.why, t, s)
		return s, &e
	}
	val, more, err := readText(&o, text, sh, func(s string) (any, error) { return decodeJSON(s, o.UseNumber, o.maxDepth()) })
	fixes |= more
	if err != nil {
		e := stamp(err, t, s)
		return s, &e
	}
	if o.OnChange != nil { // as the walker reports it (fromParsed)
		for _, ch := range withFixes([]Change{newChange(s, t, rule)}, fixes) {
			o.OnChange(ch)
		}
	}
	return val, nil
}

// finish turns the result of value against t into what ToType returns.
func (w *walker) finish(value any, t *Type, r result) (any, error) {
	w.settleResult(&r, value, t)
	if w.limit != nil {
		e := w.limitError(t, value, value)
		return value, &e
	}
	switch r.state {
	case failed:
		return value, render(w.failureOf(&r), "")
	case converted:
		r.chg.report(w.o.OnChange, "")
		return r.out, nil
	}
	return value, nil
}

// Structured returns the object or array that s holds with the default
// Options. See Options.Structured.
func Structured(s string) (any, bool) { return Options{}.Structured(s) }

// Structured returns the object (map[string]any) or array ([]any) that s
// holds as JSON text — bare, in one markdown fence around the whole string,
// encoded once more as a JSON string, or near-JSON as the rule of near-JSON
// repairs it — and true; otherwise nil and false,
// and s is to be kept as it is. It is ToDeclared(s, "object | array") for
// values that have no declared type, such as an agent's reply or an LLM's
// positional argument, where "123", "true" and prose must stay text. A
// string that cannot be JSON text costs no allocation.
func (o Options) Structured(s string) (any, bool) {
	if sh, text := sniff(s); noText(&o, sh, text) { // the gate of jsonText, which ToType reads s by
		return nil, false
	}
	out, err := o.ToType(s, objectOrArray)
	if err != nil {
		return nil, false
	}
	return out, true
}

var objectOrArray = newUnion([]*Type{objectType, arrayType})

// Conforms reports whether v already fits t, deeply: coercing it would
// return it unchanged. Nil conforms to every type. It allocates nothing for
// the values encoding/json decodes into.
func (t *Type) Conforms(v any) bool {
	f := newFitter(&Options{})
	return f.fit(v, t, 0)
}

// workCounted, when set (by tests), receives the work of each call: the
// values visited times the types they met, plus the bytes of JSON text
// parsed. Tests read it to show that cost grows linearly with the input,
// which counting shows where timing could not.
var workCounted func(int)

func countWork(n int) {
	if workCounted != nil {
		workCounted(n)
	}
}

// report hands the changes to onChange, if set, in path order, each
// path under path.
func (c *changes) report(onChange func(Change), path string) {
	if onChange == nil || c == nil {
		return
	}
	c.reportAt(onChange, []byte(path))
}

// reportAt is report with the path in a buffer that grows and shrinks as
// the tree is walked: a path is made a string only for a change, so that
// a deep tree does not build the path of every level it passes.
func (c *changes) reportAt(onChange func(Change), path []byte) []byte {
	for _, ch := range c.own {
		ch.Path = string(path) + ch.Path
		onChange(ch)
	}
	slices.SortFunc(c.kids, func(a, b changeKid) int { return a.at.compare(b.at) })
	for _, k := range c.kids {
		n := len(path)
		path = k.c.reportAt(onChange, k.at.appendToken(path))[:n]
	}
	return path
}

// maxErrors bounds the errors one call reports, the first in path order:
// a value can hold more failures than anyone reads.
const maxErrors = 100

// render turns a failure into the error the caller gets: one *Error, or
// several joined, in path order, each with its path.
func render(f *failure, path string) error {
	if f.leaf && len(f.kids) == 0 { // the common single failure: no list
		f.err.Path = path
		return &f.err
	}
	var list []*Error
	f.collect([]byte(path), &list)
	if len(list) == 1 {
		return list[0]
	}
	errs := make([]error, len(list))
	for i, e := range list {
		errs[i] = e
	}
	return errors.Join(errs...)
}

// collect appends the errors of f, in path order, to list. The path
// grows and shrinks in one buffer as the tree is walked, and is made a
// string only for an error: a failure at the bottom of a value nested n
// deep costs O(n), not the O(n^2) of a path string built at every level.
func (f *failure) collect(path []byte, list *[]*Error) []byte {
	if len(*list) >= maxErrors {
		return path
	}
	if f.leaf {
		f.err.Path = string(path)
		*list = append(*list, &f.err)
	}
	slices.SortFunc(f.kids, func(a, b failKid) int { return a.at.compare(b.at) })
	for _, k := range f.kids {
		n := len(path)
		path = k.f.collect(k.at.appendToken(path), list)[:n]
	}
	return path
}

// appendToken appends the child's JSON Pointer token, "/key" or "/index".
func (c child) appendToken(path []byte) []byte {
	if c.index >= 0 {
		return strconv.AppendInt(append(path, '/'), int64(c.index), 10)
	}
	return append(path, jsonwire.PointerToken(c.key)...)
}

// compare orders children: array elements by index, object members by key.
func (c child) compare(d child) int {
	if c.index >= 0 && d.index >= 0 {
		return cmp.Compare(c.index, d.index)
	}
	return strings.Compare(c.key, d.key)
}
