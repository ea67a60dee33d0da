package coerce

// The set walk over JSON text: a value of argument text that meets a union
// (or several types at once) is evaluated against all of them in one read,
// as walk.go's eval does for Go values, and its result is an edit of the
// text (rawEdit) written when the union has chosen. Unmarshal reads values
// of other kinds than objects through it too (coerceRaw). It is the second
// walk over text that the issue "One engine" asks to fold into rawArgs's.

import (
	"encoding/json"
	"slices"

	"github.com/coerce-go/coerce/internal/jsonwire"
)

// A rawEdit is a change to JSON text: the bytes data[lo:hi] replaced by
// val written as JSON (whole), or copied with the edits kids applied.
type rawEdit struct {
	lo, hi int
	whole  bool
	val    any
	kids   []*rawEdit // in order of position
}

// write appends the edited text to dst.
func (e *rawEdit) write(dst, data []byte, w *walker) ([]byte, error) {
	if e.whole {
		v, err := w.settle(e.val)
		if err != nil {
			return dst, err
		}
		return appendJSON(dst, v, 0)
	}
	pos := e.lo
	for _, k := range e.kids {
		dst = append(dst, data[pos:k.lo]...)
		var err error
		if dst, err = k.write(dst, data, w); err != nil {
			return dst, err
		}
		pos = k.hi
	}
	return append(dst, data[pos:e.hi]...), nil
}

// rawOne evaluates the valid JSON value at data[i] against t, and returns
// where it ends.
func (w *textWalk) rawOne(data []byte, i int, t *Type, depth int) (int, result) {
	w.ensure()
	tb := len(w.types)
	w.pushType(t)
	end, rb := w.rawEval(data, i, w.types[tb:], depth)
	r := w.res[rb]
	w.res, w.types = w.res[:rb], w.types[:tb]
	return end, r
}

// rawEval is eval on the valid JSON value at data[i]: it returns where the
// value ends, and the index of its results, whose converted values hold a
// *rawEdit.
func (w *textWalk) rawEval(data []byte, i int, ts []*Type, depth int) (int, int) {
	w.ensure()
	base := w.push(len(ts))
	if len(ts) == 1 && ts[0].kind != typeUnion {
		return w.rawKinds(data, i, ts, base, depth), base
	}
	es := w.flatten(ts)
	eb := w.push(len(es))
	end := w.rawKinds(data, i, es, eb, depth)
	w.gather(tokenKind(data[i]), ts, es, base, eb)
	return end, base
}

// rawKinds fills w.res[rb:] with the results of the value at data[i]
// against es, and returns where it ends. Objects and arrays are walked
// here, keeping the bytes of what fits; scalars are decoded and converted
// as values.
func (w *textWalk) rawKinds(data []byte, i int, es []*Type, rb, depth int) int {
	k := tokenKind(data[i])
	if k == kindObject || k == kindArray {
		return w.rawContainer(data, i, k, es, rb, depth)
	}
	end, _ := jsonwire.Skip(data, i, 0, 1)
	if w.limit != nil || !w.spend(walkCost*len(es)) || k == kindNull {
		return end
	}
	// The types the token fits keep it; for the others it is decoded once
	// and converted as a value.
	tb := len(w.types)
	for _, t := range es {
		if !t.isAny() && !fitRawScalar(data[i:end], k, t) {
			w.pushType(t)
		}
	}
	if conv := w.types[tb:]; len(conv) > 0 {
		val := jsonwire.DecodeScalar(data[i:end], w.o.UseNumber)
		vb := w.eval(val, conv, depth, false)
		for n, t := range conv {
			r := w.res[vb+n]
			switch {
			case r.state == converted:
				r.out = &rawEdit{lo: i, hi: end, whole: true, val: r.out}
			case r.state == fits && k == kindString:
				// A string is the value it spells: it fits as it is. It
				// was decoded only because the rule of enums might have
				// respelled it, and did not (ExactEnums, StructuredOnly);
				// as converted, a union would take the first member that
				// converts it, where Coerce keeps it as it is.
			case r.state == fits: // the decoded value fits: write it as decoded
				r = result{state: converted, out: &rawEdit{lo: i, hi: end, whole: true, val: val}, keys: r.keys}
			}
			w.res[rb+slices.Index(es, t)] = r
		}
		w.res = w.res[:vb]
	}
	w.types = w.types[:tb]
	return end
}

// rawContainer walks the object or array at data[i] against es and
// returns where it ends.
func (w *textWalk) rawContainer(data []byte, i int, k kind, es []*Type, rb, depth int) int {
	lo := i
	tk := typeArray
	if k == kindObject {
		tk = typeObject
	}
	cb := len(w.cands)
	for j, t := range es {
		switch {
		case t.isAny():
		case t.kind == tk && (t.constrains() || t.keyed):
			w.pushCand(cand{t: t, j: j})
		case t.kind == typeObject && k == kindObject:
			w.res[rb+j].keys = keysSat | keysAsIs
		}
	}
	if len(w.cands) == cb || w.limit != nil || !w.spend(walkCost*len(es)) {
		end, _ := jsonwire.Skip(data, i, 0, 1<<30)
		w.cands = w.cands[:cb]
		w.containerRest(data, lo, end, tk, es, rb, depth)
		return end
	}
	if depth >= w.maxDepth {
		w.tooDeep()
		end, _ := jsonwire.Skip(data, i, 0, 1<<30)
		w.cands = w.cands[:cb]
		return end
	}
	i, more, _ := jsonwire.Open(data, i, depth, w.maxDepth)
	for n := 0; more; n++ {
		at := rawChild{index: n}
		keyQuote := i
		if k == kindObject {
			keyStart, keyEnd, escaped, next, _ := jsonwire.Key(data, i)
			at = rawChild{key: data[keyStart:keyEnd], escaped: escaped, index: -1}
			i = next
		}
		if k == kindObject && w.supersededAt(keyQuote) {
			i, _ = jsonwire.Skip(data, i, 0, 1<<30) // a later occurrence decides
		} else {
			i = w.rawMember(data, i, at, cb, depth)
		}
		if w.limit != nil {
			end, _ := jsonwire.Skip(data, lo, 0, 1<<30)
			w.cands = w.cands[:cb]
			return end
		}
		i, more, _ = jsonwire.Next(data, i, k == kindObject)
	}
	end := i
	for ci := cb; ci < len(w.cands); ci++ {
		c := &w.cands[ci]
		r := result{}
		switch {
		case c.fail != nil:
			r = result{state: failed, fail: c.fail}
		case c.edits != nil:
			r = result{state: converted, out: &rawEdit{lo: lo, hi: end, kids: c.edits}, chg: c.chg}
		}
		if tk == typeObject {
			r.keys = c.seenKeys()
		}
		w.res[rb+c.j] = r
	}
	clear(w.cands[cb:])
	w.cands = w.cands[:cb]
	w.containerRest(data, lo, end, tk, es, rb, depth)
	return end
}

// containerRest gives the results of the object or array data[lo:hi]
// against the types of es of other kinds: JSON text for a string (written
// only if the result is used), a failure for the rest.
func (w *textWalk) containerRest(data []byte, lo, hi int, tk typeKind, es []*Type, rb, depth int) {
	for j, t := range es {
		switch {
		case t.isAny() || t.kind == tk:
		case t.kind == typeString:
			r := w.convert(kindValue(tk), t, nil, ToJSONText)
			r.out = &rawEdit{lo: lo, hi: hi, whole: true, val: &lazyText{raw: data[lo:hi], depth: depth}}
			w.res[rb+j] = r
		default:
			w.res[rb+j] = w.fail(json.RawMessage(data[lo:hi]), t, ErrKind, "")
		}
	}
}

// rawMember evaluates the member at data[i] of a container in JSON text
// against the types the cands from cb on give it, and returns where it
// ends.
func (w *textWalk) rawMember(data []byte, i int, at rawChild, cb, depth int) int {
	tb := len(w.types)
	for ci := cb; ci < len(w.cands); ci++ {
		c := &w.cands[ci]
		c.k = -1
		if c.t.constrains() {
			if ct := at.of(c.t); !ct.isAny() {
				c.k = w.addType(tb, ct)
			}
		}
		if at.index < 0 && c.t.keyed {
			c.sawKey(at)
		}
	}
	if len(w.types) == tb {
		end, _ := jsonwire.Skip(data, i, 0, 1<<30)
		return end
	}
	n := len(w.cands)
	end, r0 := w.rawEval(data, i, w.types[tb:], depth+1)
	if w.limit == nil {
		for ci := cb; ci < n; ci++ {
			c := &w.cands[ci]
			if c.k < 0 {
				continue
			}
			r := &w.res[r0+c.k]
			if pt := at.prop(c.t); at.index < 0 && pt != nil && pt.enum != nil {
				asIs := w.rawEnumHas(pt.enum, data[i:end], depth)
				has := asIs
				switch e, _ := r.out.(*rawEdit); {
				case r.state != converted:
				case e.whole:
					val, _ := w.settle(e.val)
					has = enumHas(pt.enum, val)
				case !holdsContainer(pt.enum):
					has = false // no object or array is one of its values
				default: // an object or array, converted inside
					text, err := e.write(nil, data, &w.walker)
					has = err == nil && w.rawEnumHas(pt.enum, text, depth)
				}
				c.enumLost = c.enumLost || r.state == failed || !has
				c.enumMiss = c.enumMiss || !asIs
			}
			switch r.state {
			case failed:
				c.fail = w.failAt(c.fail, at.child(), r)
			case converted:
				c.edits = append(c.edits, r.out.(*rawEdit))
				if r.chg != nil { // the key is made a string only then
					c.chg = c.chg.at(at.child(), r.chg)
				}
			}
		}
	}
	w.res, w.types = w.res[:r0], w.types[:tb]
	return end
}

// rawEnumHas reports whether the JSON value tok is one of the values of
// enum, as enumHas does for the value decoded. An object or array is
// decoded only for an enum that holds one, since no other can equal it.
func (w *textWalk) rawEnumHas(enum []any, tok []byte, depth int) bool {
	v, ok := rawScalar(tok)
	if !ok {
		if !holdsContainer(enum) {
			return false
		}
		var err error
		if v, err = decodeJSON(tok, false, w.maxDepth-depth); err != nil {
			return false
		}
	}
	return enumHas(enum, v)
}

// holdsContainer reports whether an object or an array is among values.
func holdsContainer(values []any) bool {
	return slices.ContainsFunc(values, func(e any) bool { k := kindOf(e); return k == kindObject || k == kindArray })
}

// kindValue is an empty value of an object or array type's kind, to name
// the kind of a value found in JSON text.
func kindValue(tk typeKind) any {
	if tk == typeObject {
		return map[string]any(nil)
	}
	return []any(nil)
}
