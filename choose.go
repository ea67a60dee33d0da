package coerce

// Unions of Go values: a value that meets several types at once (a union's
// members, or a container's candidates) is evaluated against all of them
// together (eval), and the union chooses among their results (choose).

import (
	"encoding/json"
	"maps"
	"slices"
)

// gather gives each type of ts its result, into w.res from base: a
// union's is chosen among its members', the others' copied, from the
// results of es (flattened from ts) at eb. It then drops es and their
// results. k is the value's kind.
func (w *walker) gather(k kind, ts, es []*Type, base, eb int) {
	for i, t := range ts {
		if t.kind == typeUnion {
			w.res[base+i] = w.chooseKind(k, t, es, w.res[eb:eb+len(es)])
		} else {
			w.res[base+i] = w.res[eb+slices.Index(es, t)]
		}
	}
	w.res, w.types = w.res[:eb], w.types[:len(w.types)-len(es)]
}

// flatten lists, on w.types, the members of the unions in ts and the
// other types of ts, once each.
func (w *walker) flatten(ts []*Type) []*Type {
	tb := len(w.types)
	for _, t := range ts {
		if t.kind == typeUnion {
			for _, m := range t.members {
				w.addType(tb, m)
			}
		} else {
			w.addType(tb, t)
		}
	}
	return w.types[tb:]
}

// eval evaluates v against each type of ts at once and returns the index
// in w.res of their results, in the order of ts. The caller truncates
// w.res back to that index when it has read them. owned says that v was
// made by this call (decoded from JSON text), so that its maps and slices
// may be changed in place where no other result can see them.
func (w *walker) eval(v any, ts []*Type, depth int, owned bool) int {
	w.ensure()
	base := w.push(len(ts))
	if len(ts) == 1 && ts[0].kind != typeUnion {
		w.evalKinds(v, ts, base, depth, owned)
		return base
	}
	es := w.flatten(ts)
	eb := w.push(len(es))
	w.nulls.off++ // the rule of nulls does not look into unions (nulls.go)
	w.evalKinds(v, es, eb, depth, owned && len(es) == 1)
	w.nulls.off--
	w.gather(heldKind(v), ts, es, base, eb)
	return base
}

// evalKinds fills w.res[rb:] with the results of v against es, none of
// them a union.
func (w *walker) evalKinds(v any, es []*Type, rb int, depth int, owned bool) {
	if w.limit != nil || !w.spend(walkCost*len(es)) {
		return
	}
	if v == nil {
		for i, t := range es { // no union among them
			c, _ := nullConversion(w.o.results, t)
			w.res[rb+i] = w.result(nil, t, c)
		}
		return
	}
	switch x := v.(type) {
	case string:
		w.evalString(v, x, es, rb, depth)
		return
	case map[string]any:
		w.evalObject(x, es, rb, depth, owned)
		return
	case []any:
		w.evalArray(v, x, es, rb, depth, owned)
		return
	case json.RawMessage:
		w.evalRawMessage(x, es, rb, depth)
		return
	}
	switch k := kindOf(v); k {
	case kindObject, kindArray:
		w.evalGo(v, k, es, rb, depth)
	case kindString:
		w.evalString(v, stringOf(v), es, rb, depth)
	case kindNull: // a typed nil: fits every type
	default:
		for j, t := range es {
			w.res[rb+j] = w.scalar(v, k, t, depth)
		}
	}
}

// chooseKind is the result of a value of kind k against union u, from the
// results of its members (rs[i] for es[i]):
//
//  1. A value that conforms to a member, keywords included, is kept.
//  2. An object that can satisfy the discriminating keywords of some
//     object members (its candidates) becomes the first of them that it
//     converts to; if it converts to none, the first candidate's failure
//     is the union's.
//  3. Otherwise the plain rule: a value that conforms to any member is
//     kept; else the members of its own kind are tried first, then the
//     others in declared order, and the first that converts wins.
//
// A string that no member keeps as it is, but that holds JSON text, is
// measured by the value the text holds: parsed, the value is kept where
// the rules above would keep it. The keywords thus only choose a member;
// they never fail a value.
func (w *walker) chooseKind(k kind, u *Type, es []*Type, rs []result) result {
	i := choose(k, u, es, rs)
	if i < 0 {
		return result{}
	}
	return w.named(rs[i], u)
}

// named is r, the result of a member of union u: where the value itself
// failed, not something inside it, the failure names the whole union,
// which is what the value was measured against.
func (w *walker) named(r result, u *Type) result {
	switch {
	case r.leaf > 0:
		e := w.leaves[r.leaf-1]
		r = w.leafResult(stamp(&e, u, e.Value))
	case r.fail != nil && r.fail.leaf && len(r.fail.kids) == 0:
		e := r.fail.err
		r.fail = leafFailure(stamp(&e, u, e.Value))
	}
	return r
}

// soleMember is choose's answer, known before any member is evaluated,
// for an object or array (kind k) met by union u: its one member of that
// kind, where no other member can take such a value (a string member
// takes it as JSON text, and WrapScalars lets an array member wrap it),
// so that whatever that member makes of it is the union's result (named
// by named). nil where the members must be evaluated together.
func (o *Options) soleMember(u *Type, k kind) *Type {
	if u.enum != nil || o.WrapScalars {
		return nil
	}
	var one *Type
	for _, m := range u.members {
		switch {
		case m.isAny() || m.kind == typeString || m.kind == typeUnion:
			return nil
		case m.kind.valueKind() == k:
			if one != nil {
				return nil
			}
			one = m
		}
	}
	return one
}

// keyedChoice is choose's answer, known before any member is evaluated,
// for an object that the discriminating keywords of union u's object
// members tell apart: ms are those members, and ks[j] how the object
// meets ms[j]'s keywords as rawKeys reads them from its keys and scalar
// values (keysSat|keysAsIs: it satisfies them, and its coercion changes
// nothing they read; 0: no coercion makes it satisfy them; keysUnsure:
// only its coercion tells). Where exactly one member is satisfied and
// every other is not, that member is choose's only candidate (its rule
// 2), and no other member can keep the object as it is (rule 1 asks a
// keyed member for keysAsIs; any and union members are not decided
// here), so whatever that member makes of the object, converted or
// failed, is the union's result (named by named). nil where the members
// must be evaluated together.
func keyedChoice(u *Type, ms []*Type, ks []keys) *Type {
	if u.enum != nil {
		return nil
	}
	for _, m := range u.members {
		if m.isAny() || m.kind == typeUnion {
			return nil
		}
	}
	var one *Type
	for j, m := range ms {
		switch {
		case ks[j] == keysSat|keysAsIs && one == nil:
			one = m
		case ks[j] != 0:
			return nil
		}
	}
	return one
}

// choose is the rule of chooseKind: the index in rs (the results of es)
// of the member whose result is the union's, or -1 when the value is kept
// as it is.
func choose(k kind, u *Type, es []*Type, rs []result) int {
	at := func(m *Type) int { return slices.Index(es, m) }
	text := false
	if k == kindString {
		for _, m := range u.members {
			if r := &rs[at(m)]; r.state == fits {
				return -1
			} else if tk := r.keys.textKind(); tk != 0 {
				k, text = tk, true
			}
		}
	}
	// fits is the value conforming to a member: as it is (-1), or parsed
	// (the member's index).
	fits := func(i int) (int, bool) {
		switch r := &rs[i]; {
		case r.state == fits:
			return -1, true
		case text && r.keys&keysTextFit != 0:
			return i, true
		}
		return 0, false
	}
	for _, m := range u.members {
		i := at(m)
		if f, ok := fits(i); ok && (m.kind != typeObject || !m.keyed || rs[i].keys&keysAsIs != 0) {
			return f
		}
	}
	first := -1
	for _, m := range u.members {
		if i := at(m); m.kind == typeObject && rs[i].keys&keysSat != 0 {
			if rs[i].state != failed {
				return i
			}
			if first < 0 {
				first = i
			}
		}
	}
	if first >= 0 {
		return first
	}
	for _, m := range u.members {
		if f, ok := fits(at(m)); ok {
			return f
		}
	}
	// The failure, when nothing converts: that of the first member tried,
	// passing over null, which takes only null and says least (so that
	// Optional[T] fails as T does, the quick path of optional included).
	null := -1
	for _, own := range [2]bool{true, false} {
		for _, m := range u.members {
			if matchesKind(m.kind, k) != own {
				continue
			}
			i := at(m)
			if rs[i].state == converted {
				return i
			}
			switch {
			case m.kind == typeNull:
				null = i
			case first < 0:
				first = i
			}
		}
	}
	if first < 0 {
		return null
	}
	return first
}

// A cand is an object or array type that a container is evaluated against,
// with what it has made of the container so far.
type cand struct {
	t    *Type
	j    int32 // the type's index in the evaluation's types
	k    int32 // the current member's type in the member evaluation's types; -1: any
	arr  []any
	obj  map[string]any
	fail *failure
	chg  *changes

	// Keywords (object types that have them).
	open     bool // a key outside props and patterns, where additionalProperties is false
	enumLost bool // a property's value, coerced, matches none of its const or enum
	enumMiss bool // ... as it is
}

// take records in c the result r of the container's member at.
func (c *cand) take(w *walker, at child, e any, r *result, x any, inPlace bool) {
	if pt, _ := c.t.prop(at.key); at.index < 0 && pt != nil && pt.enum != nil {
		val, err := e, error(nil)
		if r.state == converted {
			// JSON text not yet written is written to be compared (see
			// settleResult), where the enum could hold it.
			if l, lazy := r.out.(*lazyText); !lazy || slices.ContainsFunc(pt.enum, func(v any) bool { _, s := v.(string); return s }) {
				val, err = w.settle(r.out)
			} else {
				val = l // no string of the enum is it
			}
		}
		c.enumLost = c.enumLost || r.state == failed || err != nil || !enumHas(pt.enum, val)
		c.enumMiss = c.enumMiss || !enumHas(pt.enum, e)
	}
	switch r.state {
	case failed:
		c.fail = w.failAt(c.fail, at, r)
	case converted:
		c.chg = c.chg.at(at, r.chg)
		if c.fail != nil {
			return
		}
		switch x := x.(type) {
		case []any:
			if c.arr == nil {
				c.arr = x
				if !inPlace {
					c.arr = slices.Clone(x)
				}
			}
			c.arr[at.index] = r.out
		case map[string]any:
			if c.obj == nil {
				c.obj = x
				if !inPlace {
					c.obj = maps.Clone(x)
				}
			}
			c.obj[at.key] = r.out
		}
	}
}

// dropsNull leaves the member at (a key), whose value is null, out of
// what c makes of the object x where the rule of nulls removes it
// (nulls.go), and reports whether it did. It is out of line so that
// member, a frame of every level of a deep value, stays small.
//
//go:noinline
func (c *cand) dropsNull(w *walker, at child, x any, inPlace bool) bool {
	if !w.nulls.drops(c.t, at.key) {
		return false
	}
	if w.o.OnChange != nil {
		c.chg = c.chg.at(at, nullRemoved(c.t, at.key))
	}
	if c.fail != nil {
		return true
	}
	if c.obj == nil {
		c.obj = x.(map[string]any)
		if !inPlace {
			c.obj = maps.Clone(c.obj)
		}
	}
	delete(c.obj, at.key)
	return true
}

// result is what c made of the container x.
func (c *cand) result(x any) result {
	var r result
	switch {
	case c.fail != nil:
		r = result{state: failed, fail: c.fail}
	case c.arr != nil:
		r = result{state: converted, out: c.arr, chg: c.chg}
	case c.obj != nil:
		r = result{state: converted, out: c.obj, chg: c.chg}
	}
	if c.t.kind == typeObject {
		r.keys = c.keys(x)
	}
	return r
}

// keys tells how the object x meets c's discriminating keywords.
func (c *cand) keys(x any) keys {
	if !c.t.keyed {
		return keysSat | keysAsIs
	}
	m, _ := x.(map[string]any)
	for _, k := range c.t.required {
		if _, ok := m[k]; !ok {
			return 0
		}
	}
	return c.keywords()
}

// keywords is keys once the required keys are known to be there: what
// the closed object and the enums say.
func (c *cand) keywords() keys {
	var ks keys
	if !c.open && !c.enumLost {
		ks |= keysSat
	}
	if !c.open && !c.enumMiss {
		ks |= keysAsIs
	}
	return ks
}

// containerCands pushes a cand for each type of es that constrains the
// members of a container of kind tk (object or array), and reports the
// rest: a type that does not constrain fits; for a string, writeText is
// set; other kinds fail.
func (w *walker) containerCands(v any, tk typeKind, es []*Type, rb int) (cb int, text bool) {
	cb = len(w.cands)
	for j, t := range es {
		switch {
		case t.isAny():
		case t.kind == tk && (t.constrains() || t.keyed):
			w.pushCand(cand{t: t, j: int32(j)})
		case t.kind == tk:
		case t.kind == typeString:
			text = true
		default:
			w.res[rb+j] = w.fail(v, t, ErrKind, "")
		}
	}
	return cb, text
}

// member evaluates the member e (at) of a container against the types the
// cands from cb on give it, and hands each cand its result.
func (w *walker) member(x any, at child, e any, cb, depth int, owned, inPlace bool) {
	tb := len(w.types)
	for ci := cb; ci < len(w.cands); ci++ {
		c := &w.cands[ci]
		c.k = -1
		if e == nil && at.index < 0 && c.dropsNull(w, at, x, inPlace) {
			continue
		}
		if c.t.constrains() {
			if ct := at.of(c.t); !ct.isAny() {
				c.k = int32(w.addType(tb, ct))
			}
		}
		if c.t.closed && at.index < 0 && !c.t.known(at.key) {
			c.open = true
		}
	}
	switch len(w.types) - tb {
	case 0:
		return
	case 1: // the usual case: one type for the member, often one it fits
		r := w.one(e, w.types[tb], depth+1, owned)
		if w.limit == nil {
			for ci := cb; ci < len(w.cands); ci++ {
				if c := &w.cands[ci]; c.k >= 0 {
					c.take(w, at, e, &r, x, inPlace)
				}
			}
		}
		w.types = w.types[:tb]
		return
	}
	n := len(w.cands)
	r0 := w.eval(e, w.types[tb:], depth+1, owned)
	if w.limit == nil {
		for ci := cb; ci < n; ci++ {
			if c := &w.cands[ci]; c.k >= 0 {
				c.take(w, at, e, &w.res[r0+int(c.k)], x, inPlace)
			}
		}
	}
	w.res, w.types = w.res[:r0], w.types[:tb]
}

// evalArray evaluates the slice x, which v holds, against es. v goes to
// the members' evaluations as it is: boxing x again would allocate.
func (w *walker) evalArray(v any, x []any, es []*Type, rb, depth int, owned bool) {
	cb, text := w.containerCands(v, typeArray, es, rb)
	if n := len(w.cands) - cb; n > 0 {
		if depth >= w.maxDepth {
			w.tooDeep()
			w.cands = w.cands[:cb]
			return
		}
		inPlace := owned && len(es) == 1
		for i, e := range x {
			w.member(v, child{index: i}, e, cb, depth, owned, inPlace)
			if w.limit != nil {
				break
			}
		}
		w.results(v, cb, rb)
	}
	if text {
		w.toText(v, es, rb, depth)
	}
}

func (w *walker) evalObject(x map[string]any, es []*Type, rb, depth int, owned bool) {
	cb, text := w.containerCands(x, typeObject, es, rb)
	for j, t := range es {
		if t.kind == typeObject && !t.constrains() && !t.keyed || t.isAny() {
			w.res[rb+j].keys = keysSat | keysAsIs
		}
	}
	if n := len(w.cands) - cb; n > 0 {
		if depth >= w.maxDepth {
			w.tooDeep()
			w.cands = w.cands[:cb]
			return
		}
		inPlace := owned && len(es) == 1
		for k, e := range x {
			w.member(x, child{key: k, index: -1}, e, cb, depth, owned, inPlace)
			if w.limit != nil {
				break
			}
		}
		w.results(x, cb, rb)
	}
	if text {
		w.toText(x, es, rb, depth)
	}
}

// results gives the results of the container x for the candidates from
// cb on, into w.res from rb, and drops the candidates.
func (w *walker) results(x any, cb, rb int) {
	for ci := cb; ci < len(w.cands); ci++ {
		w.res[rb+int(w.cands[ci].j)] = w.cands[ci].result(x)
	}
	clear(w.cands[cb:])
	w.cands = w.cands[:cb]
}

// toText gives the results of the container x for the string types of
// es: its JSON text. The text is written only where the result is used
// (see settle), so that a union of string and containers does not write
// every level of a deep value, of which the result keeps one at most.
func (w *walker) toText(x any, es []*Type, rb, depth int) {
	for j, t := range es {
		if t.kind == typeString {
			w.res[rb+j] = w.convert(x, t, &lazyText{v: x, t: t, depth: depth}, ToJSONText)
			w.lazies++
		}
	}
}
