package coerce

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/coerce-go/coerce/internal/jsonwire"
)

// The rule of nulls at every level: null for a property of a declared
// object that is neither required nor nullable means "not given" (OpenAI's
// strict mode makes every optional property required and nullable, nested
// ones included, and models send null where the tool's own schema has
// none), so it is removed, and reported (NullRemoved). The parameters of an
// argument set are keyEdits' (names.go), with the rule of names; the
// levels below are the fitters' to notice (fitter.nullEdits) and the two
// editors' below to remove: one for Go values, one for JSON text, which
// descend alike.
//
// The editors follow the declared types through objects and arrays, not
// into unions: which member declares an object's keys is the union's
// choice, made later, and no null is removed on a guess (the fitters stop
// there too: fitter.unions). JSON text inside a string is not looked into.

// nullsDropped: the nulls below the parameters have been removed.
const nullsDropped stage = 1 << 1

// dropsNulls reports whether the rule of nulls may act in this call.
func (o *Options) dropsNulls() bool {
	return !o.KeepNulls && !o.StructuredOnly && o.stage&nullsDropped == 0
}

// nullGoes reports whether null for property key of object type obj is
// "not given": declared, neither required nor nullable, in a type that is
// not a Go struct's (which takes null for every field, as encoding/json
// does).
func nullGoes(obj *Type, key string) bool {
	if obj.goStruct {
		return false
	}
	pt, declared := obj.prop(key)
	return declared && !pt.takesNull() && !slices.Contains(obj.required, key)
}

// nullGoesText is nullGoes for a key of JSON text, its bytes between the
// quotes: without allocating, but for a key with escapes.
func nullGoesText(obj *Type, key []byte, escaped bool) bool {
	if escaped {
		return nullGoes(obj, jsonwire.Unescape(key))
	}
	if obj.goStruct {
		return false
	}
	pt, declared := obj.propBytes(key)
	if !declared || pt.takesNull() {
		return false
	}
	for _, r := range obj.required {
		if r == string(key) {
			return false
		}
	}
	return true
}

// nullTarget is the type the editors measure a value of kind k by at t:
// t, or nil for a union, which they do not look into.
func nullTarget(t *Type, k kind) *Type {
	if t.kind == typeUnion {
		return nil
	}
	return t
}

// A nullEditor removes the nulls the rule removes, below a value, for
// dropNulls and dropNullsText: within the call's work budget (the values
// it visits, as the fitter counts them; a value that holds its maps many
// times over is given up, and left to the walker's limit), building a
// path only for a change.
type nullEditor struct {
	o       Options // a copy: the caller's stays where it is
	work    int
	budget  int
	path    []byte
	changes []Change
}

func (o *Options) nullEditor() *nullEditor {
	return &nullEditor{o: *o, budget: o.maxWork()}
}

// removed records the change of a null removed from obj at key.
func (ed *nullEditor) removed(obj *Type, key string) {
	if ed.o.OnChange != nil {
		ed.changes = append(ed.changes, removal(obj, string(appendPointerToken(ed.path, key)), key, isNull))
	}
}

// dropNulls is the editor of Go values: v with the nulls the rule removes
// taken out at every level below it (v's own keys included, for an
// object), copied where it changes; false when nothing is removed, or the
// budget ran out.
func (o *Options) dropNulls(v any, t *Type, changes *[]Change) (any, bool) {
	ed := o.nullEditor()
	out, changed := ed.value(v, t, 0)
	if ed.work > ed.budget || !changed {
		return v, false
	}
	slices.SortStableFunc(ed.changes, func(a, b Change) int { return strings.Compare(a.Path, b.Path) })
	*changes = ed.changes
	return out, true
}

func (ed *nullEditor) value(v any, t *Type, depth int) (any, bool) {
	if ed.work++; ed.work > ed.budget || depth > ed.o.maxDepth() || t == nil || !t.nullsBelow {
		return v, false
	}
	switch x := v.(type) {
	case map[string]any:
		obj := nullTarget(t, kindObject)
		if obj == nil || obj.kind != typeObject {
			return v, false
		}
		var out map[string]any
		n := len(ed.path)
		for k, e := range x { // the changes are put in path order at the end
			if e == nil && nullGoes(obj, k) {
				if out == nil {
					out = maps.Clone(x)
				}
				delete(out, k)
				ed.removed(obj, k)
				continue
			}
			if ed.o.OnChange != nil {
				ed.path = appendPointerToken(ed.path, k)
			}
			ne, ok := ed.value(e, obj.field(k), depth+1)
			ed.path = ed.path[:n]
			if ok {
				if out == nil {
					out = maps.Clone(x)
				}
				out[k] = ne
			}
		}
		return out, out != nil
	case []any:
		arr := nullTarget(t, kindArray)
		if arr == nil || arr.kind != typeArray {
			return v, false
		}
		var out []any
		n := len(ed.path)
		for i, e := range x {
			if ed.o.OnChange != nil {
				ed.path = strconv.AppendInt(append(ed.path, '/'), int64(i), 10)
			}
			ne, ok := ed.value(e, arr.item(i), depth+1)
			ed.path = ed.path[:n]
			if ok {
				if out == nil {
					out = slices.Clone(x)
				}
				out[i] = ne
			}
		}
		return out, out != nil
	}
	return v, false
}

// dropNullsText is the editor of JSON text, dropNulls for the valid value
// at data[i]: its text with the nulls removed, or nil when none is, and
// where the value ends. An object or array that loses a member or holds
// one that does is written anew, compact, its other members' bytes as
// they were; every other value keeps its bytes.
func (o *Options) dropNullsText(data []byte, i int, t *Type, changes *[]Change) (edited []byte, end int) {
	ed := o.nullEditor()
	edited, end = ed.text(data, i, t, 0)
	if edited != nil {
		slices.SortStableFunc(ed.changes, func(a, b Change) int { return strings.Compare(a.Path, b.Path) })
		*changes = ed.changes
	}
	return edited, end
}

func (ed *nullEditor) text(data []byte, i int, t *Type, depth int) (edited []byte, end int) {
	ed.work++
	k := tokenKind(data[i])
	if depth > ed.o.maxDepth() || t == nil || !t.nullsBelow || k != kindObject && k != kindArray {
		end, _ = jsonwire.Skip(data, i, depth, 1<<30)
		return nil, end
	}
	target := nullTarget(t, k)
	if target == nil || k == kindObject && target.kind != typeObject || k == kindArray && target.kind != typeArray {
		end, _ = jsonwire.Skip(data, i, depth, 1<<30)
		return nil, end
	}
	type part struct {
		key  []byte // the key with its quotes, for an object
		text []byte
	}
	var parts []part
	changed := false
	n0 := len(ed.path)
	j, more, _ := jsonwire.Open(data, i, depth, 1<<30)
	for n := 0; more; n++ {
		var keyText []byte
		mt := target.item(n)
		if k == kindObject {
			keyStart, keyEnd, escaped, next, _ := jsonwire.Key(data, j)
			keyText = data[keyStart-1 : keyEnd+1]
			j = jsonwire.Space(data, next)
			var key string
			if escaped {
				key = jsonwire.Unescape(data[keyStart:keyEnd])
			} else if data[j] == 'n' || ed.o.OnChange != nil {
				key = string(data[keyStart:keyEnd])
			}
			if data[j] == 'n' && nullGoesText(target, data[keyStart:keyEnd], escaped) {
				ed.removed(target, key)
				changed = true
				j, more, _ = jsonwire.Next(data, j+4, true)
				continue
			}
			mt = rawField(target, data[keyStart:keyEnd], escaped)
			if ed.o.OnChange != nil {
				ed.path = appendPointerToken(ed.path, key)
			}
		} else if ed.o.OnChange != nil {
			ed.path = strconv.AppendInt(append(ed.path, '/'), int64(n), 10)
		}
		sub, e := ed.text(data, j, mt, depth+1)
		ed.path = ed.path[:n0]
		if sub == nil {
			sub = data[j:e]
		} else {
			changed = true
		}
		parts = append(parts, part{keyText, sub})
		j, more, _ = jsonwire.Next(data, e, k == kindObject)
	}
	if !changed {
		return nil, j
	}
	open, close := byte('['), byte(']')
	if k == kindObject {
		open, close = '{', '}'
	}
	out := []byte{open}
	for n, p := range parts {
		if n > 0 {
			out = append(out, ',')
		}
		if p.key != nil {
			out = append(append(out, p.key...), ':')
		}
		out = append(out, p.text...)
	}
	return append(out, close), j
}

// The parameter is the unit of a call's failure: one that fails comes back
// as it came, nulls included, and nothing is reported of it. After the
// nulls below the parameters were removed and the call coerced, these put
// back what failed.

// failedParams lists the parameters err names by its paths' first tokens;
// all is set for an error of the whole call (an empty path).
func failedParams(err error) (failed map[string]bool, all bool) {
	var errs []error
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		errs = j.Unwrap()
	} else {
		errs = []error{err}
	}
	failed = map[string]bool{}
	for _, e := range errs {
		ce, ok := e.(*Error)
		if !ok || ce.Path == "" {
			return nil, true
		}
		tok, _, _ := strings.Cut(ce.Path[1:], "/")
		failed[unescapeToken(tok)] = true
	}
	return failed, false
}

// keptChanges drops the changes of the failed parameters.
func keptChanges(changes []Change, failed map[string]bool) []Change {
	return slices.DeleteFunc(changes, func(c Change) bool {
		tok, _, _ := strings.Cut(strings.TrimPrefix(c.Path, "/"), "/")
		return failed[unescapeToken(tok)]
	})
}

// restoreParams writes into out, the text of an argument object, the
// value each failed parameter has in data, the text it came from.
func restoreParams(out, data []byte, failed map[string]bool) []byte {
	from, to := memberSpans(data), memberSpans(out)
	type edit struct{ lo, hi, slo, shi int }
	var edits []edit
	for k := range failed {
		s, ok1 := from[k]
		d, ok2 := to[k]
		if ok1 && ok2 {
			edits = append(edits, edit{d[0], d[1], s[0], s[1]})
		}
	}
	if len(edits) == 0 {
		return out
	}
	slices.SortFunc(edits, func(a, b edit) int { return a.lo - b.lo })
	var b []byte
	pos := 0
	for _, e := range edits {
		b = append(append(b, out[pos:e.lo]...), data[e.slo:e.shi]...)
		pos = e.hi
	}
	return append(b, out[pos:]...)
}

// memberSpans maps each key of the valid argument object text to the
// span of its value, the last occurrence's.
func memberSpans(text []byte) map[string][2]int {
	spans := map[string][2]int{}
	start, ok := argsObject(text)
	if !ok {
		return spans
	}
	i, more, _ := jsonwire.Open(text, start, 0, 1<<30)
	for more {
		keyStart, keyEnd, escaped, next, _ := jsonwire.Key(text, i)
		key := string(text[keyStart:keyEnd])
		if escaped {
			key = jsonwire.Unescape(text[keyStart:keyEnd])
		}
		lo := jsonwire.Space(text, next)
		hi, _ := jsonwire.Skip(text, lo, 0, 1<<30)
		spans[key] = [2]int{lo, hi}
		i, more, _ = jsonwire.Next(text, hi, true)
	}
	return spans
}
