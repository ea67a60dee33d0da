package coerce

import (
	"encoding/json"
	"reflect"
	"slices"
	"unicode/utf8"
)

// A fitter answers whether values already conform to types, allocating
// nothing. It is the whole cost of a call whose arguments need nothing,
// so it answers in one visit of each value whatever the types: where a
// union has several members of a value's kind, they are fitted together,
// each element of the value meeting the set of types its members give it
// (fitMany), never once per member. Its answer is conservative: false
// sends the value to the walker, which decides for good (and says why).
type fitter struct {
	maxDepth int
	work     int // values visited times the types they met
	budget   int // beyond it nothing fits: the walker then reports ErrLimit

	// keyRules, where the rules of names and nulls apply to the
	// parameters fitArgs reads, are the options that say how; keyEdits
	// says that they act on one.
	keyRules *Options
	keyEdits bool
	// envelope says that the argument object is one member, an envelope
	// the rule of envelopes may remove (envelopes.go).
	envelope bool
	// misfit is where fitArgs found the first member that does not fit:
	// the opening quote of its key (0: none). The members before it fit
	// as they are, so the walk over the text begins there (rawArgs).
	misfit int

	// nulls is where the fitter stands toward the rule of nulls below
	// the parameters (nulls.go): off counts the unions it is inside.
	nulls nullRule

	// check asks the fitter what Check asks besides (check.go): a value
	// fits only if its enum or const allows it, and an object only if it
	// has every required name and, closed, no other. It is conservative:
	// where it cannot tell at once (a union of objects, more than 64
	// required names) the value does not fit, and Check's own walk has the
	// last word; a value it passes, Check passes.
	check bool
}

func newFitter(o *Options) fitter {
	var f fitter
	f.limit(o)
	f.nulls.on, f.nulls.results = o.dropsNulls(), o.results
	return f
}

// limit sets the limits of o on a new fitter. It writes f in place, for
// CoerceJSON's call that needs nothing: building a fitter from a copy of
// the options, then copying it, costs that call several nanoseconds.
func (f *fitter) limit(o *Options) {
	f.maxDepth, f.budget = o.MaxDepth, o.MaxWork
	if f.maxDepth <= 0 {
		f.maxDepth = defaultMaxDepth
	}
	if f.budget <= 0 {
		f.budget = defaultMaxWork
	}
}

// maxSet bounds the types fitted together; a union with more members of
// one kind is left to the walker.
const maxSet = 64

// typeSet is a small set of types, in order of insertion, kept on the Go
// stack while it fits.
type typeSet struct {
	n    int
	list [8]*Type
	more []*Type
}

func (s *typeSet) at(i int) *Type {
	if i < len(s.list) {
		return s.list[i]
	}
	return s.more[i-len(s.list)]
}

// add puts t in the set and returns its index, or -1 when the set is full.
func (s *typeSet) add(t *Type) int {
	for i := range s.n {
		if s.at(i) == t {
			return i
		}
	}
	if s.n == maxSet {
		return -1
	}
	if s.n < len(s.list) {
		s.list[s.n] = t
	} else {
		s.more = append(s.more, t)
	}
	s.n++
	return s.n - 1
}

func (s *typeSet) reset() {
	s.n = 0
	s.more = s.more[:0]
}

// fit reports whether v conforms to t as it is.
func (f *fitter) fit(v any, t *Type, depth int) bool {
	if f.check && t != nil && t.judgesEnums() {
		if _, refused := enumJudge(t, v); refused != nil {
			return false
		}
	}
	if t.isAny() || v == nil {
		return f.nullFits(t)
	}
	if f.work++; f.work > f.budget {
		return false
	}
	// A json.RawMessage counts as the JSON value it holds (fitRawMessage).
	switch t.kind {
	case typeUnion:
		if raw, ok := v.(json.RawMessage); ok {
			return f.fitRawMessage(raw, t, depth)
		}
		return f.fitUnion(v, t, depth)
	case typeString, typeInteger, typeNumber, typeBoolean, typeNull:
		switch x := v.(type) {
		case string:
			if t.enum != nil && enumRespelling(t, x) != "" {
				return false // "ASC" for "asc": the rule of enums may act
			}
		case json.RawMessage:
			return f.fitRawMessage(x, t, depth)
		}
		return fitScalar(v, t)
	}
	switch x := v.(type) {
	case map[string]any:
		if t.kind != typeObject {
			return false
		}
		if f.opaque(t) {
			return true
		}
		if depth >= f.maxDepth {
			return false
		}
		return f.fitObject(x, t, depth+1)
	case []any:
		if t.kind != typeArray {
			return false
		}
		if f.opaque(t) {
			return true
		}
		if depth >= f.maxDepth {
			return false
		}
		for i, e := range x {
			if !f.fitQuick(e, t.item(i), depth+1) {
				return false
			}
		}
		return true
	case json.RawMessage:
		return f.fitRawMessage(x, t, depth)
	case string, bool, float64, json.Number:
		return false
	}
	switch kindOf(v) {
	case kindNull:
		return f.nullFits(t)
	case kindObject, kindArray:
		return f.fitReflect(reflect.ValueOf(v), []*Type{t}, depth)&1 != 0
	}
	return false
}

// fitObject fits the members of m, at depth, to object type t. Where t
// indexes its properties and takes anything under other keys, it looks
// each property up in m rather than each key of m in t: a lookup in m
// costs about what one in the index does, and iterating a Go map costs
// as much again. That loop runs over the schema's properties, so it is
// taken only when they are not many more than m's keys: a call that sends
// few of many optional parameters has its keys looked up instead.
func (f *fitter) fitObject(m map[string]any, t *Type, depth int) bool {
	if t.propsFirst(len(m)) {
		return f.fitProps(m, t, depth)
	}
	for k, v := range m {
		if !f.fitQuick(v, t.field(k), depth) || v == nil && f.nulls.drops(t, k) || f.check && t.closed && !t.known(k) {
			return false
		}
	}
	return !f.check || f.keysPass(m, t, len(m))
}

// propsFirst reports whether fitObject fits an object of n keys to t by
// t's properties.
func (t *Type) propsFirst(n int) bool {
	return t.index != nil && t.patterns == nil && t.rest.isAny() && len(t.index.list) <= n+n/4
}

// fitProps is fitObject by t's properties.
func (f *fitter) fitProps(m map[string]any, t *Type, depth int) bool {
	found := 0
	for i := range t.index.list {
		p := &t.index.list[i]
		if v, ok := m[p.name]; ok {
			if !f.fitQuick(v, p.t, depth) || v == nil && f.nulls.drops(t, p.name) {
				return false
			}
			found++
		}
	}
	return !f.check || f.keysPass(m, t, found)
}

// fitQuick is fit, without the call for the common member: a scalar of
// a kind its type takes as it is.
func (f *fitter) fitQuick(v any, t *Type, depth int) bool {
	if quickKind(v)&t.quickAccepts() != 0 || v == nil && !f.check && f.nullFits(t) {
		f.work++
		return true
	}
	return f.fit(v, t, depth)
}

// fitUnion fits v to a union. With one member of v's kind, and nothing to
// tell objects apart, that member decides alone; otherwise the members of
// v's kind are fitted together (fitUnionSet).
func (f *fitter) fitUnion(v any, u *Type, depth int) bool {
	if u.scalars&quickKind(v) != 0 {
		return true // a scalar of a member's kind, the common case of Optional[str]
	}
	k := kindOf(v)
	if k == kindNull {
		return f.nullFits(u)
	}
	if m := u.orNull(); m != nil && !u.memberNulls && matchesKind(m.kind, k) && (!m.keyed || f.check) {
		return f.fit(v, m, depth) // Optional[T], the common union: T alone decides, as below
	}
	var only *Type
	n := 0
	for _, m := range u.members {
		if matchesKind(m.kind, k) {
			only = m
			n++
		}
	}
	if n == 0 || n > maxSet {
		return false
	}
	if u.memberNulls {
		f.nulls.off++ // the rule of nulls does not look into unions (nulls.go)
	}
	var ok bool
	if n == 1 && (!only.keyed || f.check) {
		// One member: in check mode, its keys are judged as Check judges
		// them (memberOfKind); of several, Check judges none.
		ok = f.fit(v, only, depth)
	} else {
		ok = f.fitUnionSet(v, u, k, depth)
	}
	if u.memberNulls {
		f.nulls.off--
	}
	return ok
}

// fitUnionSet is fitUnion of v, of kind k, to the members of its kind
// together.
func (f *fitter) fitUnionSet(v any, u *Type, k kind, depth int) bool {
	var ms typeSet
	for _, m := range u.members {
		if matchesKind(m.kind, k) {
			ms.add(m)
		}
	}
	mask := f.fitMany(v, ms.slice(), depth)
	var ks [maxSet]keys
	for i := range ms.n {
		if m := ms.at(i); m.kind == typeObject {
			ks[i] = keysOf(v, m)
		}
	}
	return unionFitsKeys(&ms, mask, &ks)
}

// unionFitsKeys applies the union rule (walker.chooseKind) to the
// members of a union of a value's kind, given which of them the value fits
// and how it meets the keywords of the object members: it conforms to the
// union if it conforms to a member, keywords included; an object that fits
// no such member but can satisfy some object member's keywords is to be
// converted to it; only when it satisfies none does fitting any member do.
func unionFitsKeys(ms *typeSet, mask uint64, ks *[maxSet]keys) bool {
	anyFit, candidate := false, false
	for i := range ms.n {
		m := ms.at(i)
		fits := mask&(1<<i) != 0
		switch {
		case m.kind != typeObject:
			if fits {
				return true
			}
		case ks[i]&keysAsIs != 0:
			if fits {
				return true
			}
			candidate = true
		case ks[i] != 0:
			candidate = true
		}
		anyFit = anyFit || fits
	}
	return anyFit && !candidate
}

// fitMany fits v to several types at once and returns the set of those it
// fits, bit i for ts[i]. The values inside v are visited once, each
// against the set of types the still fitting ones give it.
func (f *fitter) fitMany(v any, ts []*Type, depth int) uint64 {
	if f.work += len(ts); f.work > f.budget {
		return 0
	}
	var mask uint64
	switch x := v.(type) {
	case nil:
		for i, t := range ts {
			if f.nullFits(t) {
				mask |= 1 << i
			}
		}
		return mask
	case map[string]any:
		mask = f.kindMask(ts, typeObject, depth)
		if mask == 0 {
			break
		}
		var cs typeSet
		for k, e := range x {
			mask = f.fitChild(e, ts, mask, &cs, child{key: k, index: -1}, depth)
			if mask == 0 {
				break
			}
		}
	case []any:
		mask = f.kindMask(ts, typeArray, depth)
		if mask == 0 {
			break
		}
		var cs typeSet
		for i, e := range x {
			mask = f.fitChild(e, ts, mask, &cs, child{index: i}, depth)
			if mask == 0 {
				break
			}
		}
	default:
		k := kindOf(v)
		if k != kindObject && k != kindArray {
			for i, t := range ts {
				if f.fitOne(v, t, depth) {
					mask |= 1 << i
				}
			}
			return mask
		}
		return f.fitReflect(reflect.ValueOf(v), ts, depth)
	}
	return mask
}

// fitSet is fitMany for a set that may hold unions, as the types a set
// gives a container's member do: the unions' members are fitted with the
// other types, in one visit of v, and each union then applies its rule
// (unionFitsKeys) to its members' outcomes. Fitting each union by itself
// would visit v once per union, and again per union below, without bound.
func (f *fitter) fitSet(v any, ts []*Type, depth int) uint64 {
	var es typeSet
	if !flattenSet(ts, &es) {
		return f.fitMany(v, ts, depth)
	}
	if es.n < 0 {
		return 0 // more types than a set holds: v is not known to fit
	}
	got := f.fitMany(v, es.slice(), depth)
	k := kindOf(v)
	return unionsFit(ts, &es, got, k, f.nulls.results, func(m *Type) keys { return keysOf(v, m) })
}

// flattenSet reports whether ts holds a union, and if so puts in es the
// members of its unions and its other types, once each; es.n is -1 if
// they are more than a set holds.
func flattenSet(ts []*Type, es *typeSet) bool {
	if !slices.ContainsFunc(ts, func(t *Type) bool { return t.kind == typeUnion }) {
		return false
	}
	for _, t := range ts {
		ms := []*Type{t}
		if t.kind == typeUnion {
			ms = t.members
		}
		for _, m := range ms {
			if es.add(m) < 0 {
				es.n = -1
				return true
			}
		}
	}
	return true
}

// unionsFit turns got, the set of the types of es that a value of kind k
// fits, into the set of those of ts it fits, es being ts flattened: a
// union fits by the rule of fitUnion over its members of kind k, whose
// keywords keysOf tells.
func unionsFit(ts []*Type, es *typeSet, got uint64, k kind, results bool, keysOf func(*Type) keys) uint64 {
	var mask uint64
	for i, t := range ts {
		if t.kind != typeUnion {
			if got&(1<<es.add(t)) != 0 {
				mask |= 1 << i
			}
			continue
		}
		if k == kindNull {
			if nullConforms(results, t) {
				mask |= 1 << i
			}
			continue
		}
		var ms typeSet
		var mm uint64
		var ks [maxSet]keys
		for _, m := range t.members {
			if !matchesKind(m.kind, k) {
				continue
			}
			j := ms.add(m)
			if got&(1<<es.add(m)) != 0 {
				mm |= 1 << j
			}
			if m.kind == typeObject {
				ks[j] = keysOf(m)
			}
		}
		if ms.n > 0 && unionFitsKeys(&ms, mm, &ks) {
			mask |= 1 << i
		}
	}
	return mask
}

// fitOne is fit for a member of a set: unions do not nest.
func (f *fitter) fitOne(v any, t *Type, depth int) bool {
	if t.kind == typeUnion {
		return f.fitUnion(v, t, depth)
	}
	return f.fit(v, t, depth)
}

// kindMask returns the set of types of kind tk in ts; of those that do not
// constrain their members, v fits as it is. Deeper than maxDepth, none of
// the others fits.
func (f *fitter) kindMask(ts []*Type, tk typeKind, depth int) uint64 {
	var mask uint64
	for i, t := range ts {
		if t.isAny() || t.kind == tk && (!t.constrains() || depth < f.maxDepth) {
			mask |= 1 << i
		}
	}
	return mask
}

// fitChild fits one member e of a container to the types that the types
// in mask (still fitting) give it, and returns mask less those it fails.
func (f *fitter) fitChild(e any, ts []*Type, mask uint64, cs *typeSet, at child, depth int) uint64 {
	cs.reset()
	var idx [maxSet]int8
	for i, t := range ts {
		idx[i] = -1
		if mask&(1<<i) == 0 || t.isAny() || !t.constrains() {
			continue
		}
		ct := at.of(t)
		if ct.isAny() {
			continue
		}
		j := cs.add(ct)
		if j < 0 {
			return 0
		}
		idx[i] = int8(j)
	}
	if cs.n == 0 {
		return mask
	}
	var got uint64
	if cs.n == 1 {
		if f.fitOne(e, cs.list[0], depth+1) {
			got = 1
		}
	} else {
		got = f.fitSet(e, cs.slice(), depth+1)
	}
	for i := range ts {
		if idx[i] >= 0 && got&(1<<idx[i]) == 0 {
			mask &^= 1 << i
		}
	}
	return mask
}

func (s *typeSet) slice() []*Type {
	if s.n <= len(s.list) {
		return s.list[:s.n]
	}
	return append(s.list[:], s.more...)
}

// fitReflect fits Go maps, slices, arrays, structs and pointers of other
// types than those encoding/json decodes into. A struct fits an object
// type that says nothing of its members; against one that does, it is
// converted through its JSON form, which names its fields.
func (f *fitter) fitReflect(rv reflect.Value, ts []*Type, depth int) uint64 {
	for rv.Kind() == reflect.Pointer || rv.Kind() == reflect.Interface {
		if rv.IsNil() {
			return 1<<len(ts) - 1
		}
		rv = rv.Elem()
	}
	k := reflectKind(rv)
	var mask uint64
	switch k {
	case kindObject:
		mask = f.kindMask(ts, typeObject, depth)
		if rv.Kind() != reflect.Map {
			for i, t := range ts {
				if t.kind == typeObject && t.constrains() {
					mask &^= 1 << i
				}
			}
			return mask
		}
		var cs typeSet
		for it := rv.MapRange(); it.Next() && mask != 0; {
			key, ok := keyString(it.Key())
			if !ok {
				return 0 // its MarshalText fails: it has no JSON form
			}
			mask = f.fitChild(it.Value().Interface(), ts, mask, &cs, child{key: key, index: -1}, depth)
		}
	case kindArray:
		mask = f.kindMask(ts, typeArray, depth)
		var cs typeSet
		for i := 0; i < rv.Len() && mask != 0; i++ {
			mask = f.fitChild(rv.Index(i).Interface(), ts, mask, &cs, child{index: i}, depth)
		}
	default:
		for i, t := range ts {
			if t.isAny() {
				mask |= 1 << i
			}
		}
	}
	return mask
}

// keysOf tells how object v meets the keywords of object type t, without
// converting anything: a property whose value needs coercion before it can
// be compared with its const or enum makes the answer keysUnsure.
func keysOf(v any, t *Type) keys {
	if !t.keyed {
		return keysSat | keysAsIs // whatever Go type holds the object
	}
	m, ok := v.(map[string]any)
	if !ok {
		if kindOf(v) == kindObject {
			return keysUnsure
		}
		return 0
	}
	for _, r := range t.required {
		if _, ok := m[r]; !ok {
			return 0
		}
	}
	unsure := false
	for k, e := range m {
		if t.closed && !t.known(k) {
			return 0
		}
		pt, _ := t.prop(k)
		if pt == nil || pt.enum == nil {
			continue
		}
		if !fitScalarOrNull(e, pt) || respellable(e, pt) {
			unsure = true
		} else if !enumHas(pt.enum, e) {
			return 0
		}
	}
	if unsure {
		return keysUnsure
	}
	return keysSat | keysAsIs
}

// respellable reports whether the rule of enums may make v one of t's
// values: then v is to be compared with them only after coercion, which
// knows whether the rule is on (Options.ExactEnums).
func respellable(v any, t *Type) bool {
	s, ok := v.(string)
	return ok && enumRespelling(t, s) != ""
}

// fitScalarOrNull reports whether v fits t for the purpose of comparing it
// with t's enum: a scalar type it fits as it is.
func fitScalarOrNull(v any, t *Type) bool {
	switch t.kind {
	case typeString, typeInteger, typeNumber, typeBoolean, typeNull:
		return fitScalar(v, t)
	}
	return false
}

// A child names a member of a container: an object's key, or an array's
// index (index >= 0). It is also a JSON Pointer token.
type child struct {
	key   string
	index int
}

// of is the type that container type t declares for the child.
func (c child) of(t *Type) *Type {
	if c.index >= 0 {
		return t.item(c.index)
	}
	return t.field(c.key)
}

// goDepth walks a Go value of any type by reflection to tell whether it
// nests deeper than left containers (a cycle does), visiting at most
// budget values: encoding/json, which such values are handed to, has no
// depth limit of its own.
type goDepth struct {
	left, budget, visits int
	badUTF8              bool // a string or string key holds invalid UTF-8 (the walk stops there)
}

func (d *goDepth) walk(v any, depth int) bool {
	return d.value(reflect.ValueOf(v), depth)
}

func (d *goDepth) value(rv reflect.Value, depth int) bool {
	if d.visits++; d.visits > d.budget {
		return false
	}
	// A pointer or interface is no level of the JSON it writes, but a
	// chain of them longer than MaxDepth is as suspect as a value that
	// deep (a pointer to itself never ends).
	for links := 0; rv.Kind() == reflect.Pointer || rv.Kind() == reflect.Interface; {
		if rv.IsNil() {
			return true
		}
		rv = rv.Elem()
		if links++; links > d.left {
			return false
		}
	}
	switch rv.Kind() {
	case reflect.String:
		// encoding/json would write U+FFFD in its place, which changes the
		// data: refused here as in JSON text that is read.
		if !utf8.ValidString(rv.String()) {
			d.badUTF8 = true
			return false
		}
		return true
	case reflect.Map, reflect.Slice, reflect.Array, reflect.Struct:
	default:
		return true
	}
	if depth++; depth > d.left {
		return false
	}
	switch rv.Kind() {
	case reflect.Map:
		stringKeys := rv.Type().Key().Kind() == reflect.String
		for it := rv.MapRange(); it.Next(); {
			if stringKeys && !d.value(it.Key(), depth) || !d.value(it.Value(), depth) {
				return false
			}
		}
	case reflect.Slice, reflect.Array:
		if rv.Type().Elem().Kind() == reflect.Uint8 {
			return true // bytes: base64 text
		}
		for i := range rv.Len() {
			if !d.value(rv.Index(i), depth) {
				return false
			}
		}
	case reflect.Struct:
		for i := range rv.NumField() {
			if rv.Type().Field(i).IsExported() && !d.value(rv.Field(i), depth) {
				return false
			}
		}
	}
	return true
}

// enumHas reports whether v equals one of the values of an enum, as JSON
// values: numbers by value (5, 5.0 and json.Number("5") are equal),
// strings, booleans and null exactly, arrays and objects member by member.
func enumHas(enum []any, v any) bool {
	for _, e := range enum {
		if jsonEqual(e, v, 0) {
			return true
		}
	}
	return false
}

func jsonEqual(a, b any, depth int) bool {
	if depth > 100 {
		return false
	}
	ka, kb := kindOf(a), kindOf(b)
	if ka != kb {
		return false
	}
	switch ka {
	case kindNull:
		return true
	case kindBool:
		return boolText(a) == boolText(b)
	case kindString:
		return stringOf(a) == stringOf(b)
	case kindNumber:
		return numbersEqual(a, b)
	}
	switch x := a.(type) {
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !jsonEqual(x[i], y[i], depth+1) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, e := range x {
			f, ok := y[k]
			if !ok || !jsonEqual(e, f, depth+1) {
				return false
			}
		}
		return true
	}
	return false
}

// numbersEqual compares two numbers by their exact decimal values.
func numbersEqual(a, b any) bool {
	if _, ok := a.(float64); ok {
		a, b = b, a
	}
	if n, ok := a.(json.Number); ok {
		if x, ok := b.(float64); ok {
			if eq, sure := wholeEqual(n, x); sure {
				return eq
			}
		}
	}
	ta, oka := numberText(a)
	tb, okb := numberText(b)
	if !oka || !okb {
		return false
	}
	na, oka := scanNumeral(ta)
	nb, okb := scanNumeral(tb)
	if !oka || !okb {
		return false
	}
	da, sa := na.significand()
	db, sb := nb.significand()
	return da == db && (da == "" || sa == sb && na.neg == nb.neg)
}
