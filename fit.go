package coerce

import (
	"encoding/binary"
	"encoding/json"
	"math/bits"
	"reflect"
	"slices"
	"unicode/utf8"

	"github.com/coerce-go/coerce/internal/jsonwire"
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
}

func newFitter(o Options) fitter {
	var f fitter
	f.limit(&o)
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

// matchesKind reports whether a member of type kind tk can hold a value of
// kind k as it is.
func matchesKind(tk typeKind, k kind) bool {
	return tk.valueKind() == k || tk == typeAny
}

// fit reports whether v conforms to t as it is.
func (f *fitter) fit(v any, t *Type, depth int) bool {
	if t.isAny() || v == nil {
		return true
	}
	if f.work++; f.work > f.budget {
		return false
	}
	if raw, ok := v.(json.RawMessage); ok {
		return f.fitRawMessage(raw, t, depth)
	}
	switch t.kind {
	case typeUnion:
		return f.fitUnion(v, t, depth)
	case typeString, typeInteger, typeNumber, typeBoolean, typeNull:
		if str, ok := v.(string); ok && t.enum != nil && enumRespelling(t, str) != "" {
			return false // "ASC" for "asc": the rule of enums may act
		}
		return fitScalar(v, t)
	}
	switch x := v.(type) {
	case map[string]any:
		if t.kind != typeObject {
			return false
		}
		if !t.constrains() {
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
		if !t.constrains() {
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
	case string, bool, float64, json.Number, json.RawMessage:
		return false
	}
	switch kindOf(v) {
	case kindNull:
		return true
	case kindObject, kindArray:
		return f.fitReflect(reflect.ValueOf(v), []*Type{t}, depth)&1 != 0
	}
	return false
}

// fitRawMessage fits a json.RawMessage as the JSON value it holds, on
// every path: its text is read as CoerceJSON reads text, so that a
// RawMessage holding a value that conforms is returned as it is.
func (f *fitter) fitRawMessage(raw json.RawMessage, t *Type, depth int) bool {
	i := jsonwire.Space(raw, 0)
	if i == len(raw) {
		return false
	}
	end, ok, err := f.fitRaw(raw, i, t, depth)
	return ok && err == nil && jsonwire.End(raw, end) == nil
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
		if !f.fitQuick(v, t.field(k), depth) {
			return false
		}
	}
	return true
}

// propsFirst reports whether fitObject fits an object of n keys to t by
// t's properties.
func (t *Type) propsFirst(n int) bool {
	return t.index != nil && t.patterns == nil && t.rest.isAny() && len(t.index.list) <= n+n/4
}

// fitProps is fitObject by t's properties.
func (f *fitter) fitProps(m map[string]any, t *Type, depth int) bool {
	for i := range t.index.list {
		p := &t.index.list[i]
		if v, ok := m[p.name]; ok && !f.fitQuick(v, p.t, depth) {
			return false
		}
	}
	return true
}

// fitQuick is fit, without the call for the common member: a scalar of
// a kind its type takes as it is.
func (f *fitter) fitQuick(v any, t *Type, depth int) bool {
	if v == nil || quickKind(v)&t.quickAccepts() != 0 {
		f.work++
		return true
	}
	return f.fit(v, t, depth)
}

// fitUnion fits v to a union. With one member of v's kind, and nothing to
// tell objects apart, that member decides alone; otherwise the members of
// v's kind are fitted together.
func (f *fitter) fitUnion(v any, u *Type, depth int) bool {
	if u.scalars&quickKind(v) != 0 {
		return true // a scalar of a member's kind, the common case of Optional[str]
	}
	k := kindOf(v)
	if k == kindNull {
		return true
	}
	var only *Type
	n := 0
	for _, m := range u.members {
		if matchesKind(m.kind, k) {
			only = m
			n++
		}
	}
	switch {
	case n == 0:
		return false
	case n == 1 && !only.keyed:
		return f.fit(v, only, depth)
	case n > maxSet:
		return false
	}
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
		return 1<<len(ts) - 1
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
	return unionsFit(ts, &es, got, k, func(m *Type) keys { return keysOf(v, m) })
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
func unionsFit(ts []*Type, es *typeSet, got uint64, k kind, keysOf func(*Type) keys) uint64 {
	var mask uint64
	for i, t := range ts {
		if t.kind != typeUnion {
			if got&(1<<es.add(t)) != 0 {
				mask |= 1 << i
			}
			continue
		}
		if k == kindNull {
			mask |= 1 << i
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

// keys says whether an object satisfies an object type's discriminating
// keywords (required, additionalProperties: false, const and enum on its
// properties), which choose among the members of a union.
type keys uint8

const (
	keysSat    keys = 1 << iota // after each property's own coercion
	keysAsIs                    // as the object is
	keysUnsure                  // telling needs coercion, which the fitter leaves to the walker

	// The same bits carry, in the walker's results, what a string's JSON
	// text holds (the union rule measures such a string by it): text of
	// an object or of an array, and whether that fits the type as it is.
	keysTextObject
	keysTextArray
	keysTextFit
)

// textKind is the kind the JSON text of a string holds, if it was parsed.
func (k keys) textKind() kind {
	switch {
	case k&keysTextObject != 0:
		return kindObject
	case k&keysTextArray != 0:
		return kindArray
	}
	return 0
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

// The fit checks of JSON text, beside those of values above: CoerceJSON
// runs them as its one validating pass over the arguments.

// fitArgs validates the argument object that starts at data[i] and fits
// each parameter to its type; once one does not fit, the rest is only
// validated.
func (f *fitter) fitArgs(data []byte, i int, params *Type) (end int, fits bool, err *jsonwire.Error) {
	fits = true
	i, more, err := jsonwire.Open(data, i, 0, f.maxDepth)
	indexed := params != nil && params.index != nil && params.patterns == nil
	for more && err == nil {
		if fits && indexed {
			var stop shortStop
			switch i, stop = f.fitShort(data, i, params); stop {
			case closed:
				more = false
				continue
			case afterValue:
				i, more, err = jsonwire.Next(data, i, true)
				continue
			}
		}
		var keyStart, keyEnd int
		var escaped bool
		w, n, next, short := jsonwire.ShortKey(data, i)
		if short {
			keyStart, keyEnd, i = i+1, i+1+n, next
		} else if keyStart, keyEnd, escaped, i, err = jsonwire.Key(data, i); err != nil {
			break
		}
		var ft *Type
		if (fits || f.keyRules != nil && !f.keyEdits) && params != nil {
			if ix := params.index; short && ix != nil && params.patterns == nil {
				var found bool // shortField, without its call
				if ft, found = ix.shortProp(w); !found {
					ft = params.rest
				}
			} else if short {
				ft = shortField(params, w, data[keyStart:keyEnd])
			} else {
				ft = rawField(params, data[keyStart:keyEnd], escaped)
			}
			if f.keyRules != nil && !f.keyEdits {
				// Only a key no property claims, or a null, can need an edit.
				if j := jsonwire.Space(data, i); j < len(data) && (ft == params.rest || data[j] == 'n') &&
					f.keyRules.editsTextKey(params, ft, data[keyStart:keyEnd], escaped, data[j] == 'n') {
					fits = false // a parameter to rename, or a null to remove
					f.keyEdits = true
				}
			}
		}
		if !fits {
			ft = nil // the rest is only validated: the walker fits it again
		}
		if end, ok := f.fitLeaf(data, i, ft); ok {
			i = end
		} else {
			if i, ok, err = f.fitRaw(data, i, ft, 1); err != nil {
				break
			}
			fits = fits && ok
		}
		if i < len(data) && data[i] == ',' { // the usual comma, without a call
			i = jsonwire.Space(data, i+1)
		} else {
			i, more, err = jsonwire.Next(data, i, true)
		}
	}
	if err != nil {
		return 0, false, err
	}
	return i, fits, nil
}

// Where fitShort stopped.
type shortStop uint8

const (
	atKey      shortStop = iota // at a member it did not read: the caller reads it
	afterValue                  // just past a value not followed at once by a comma: Next reads on
	closed                      // just past the object's closing brace
)

// fitShort fits the members of the object of type t (indexed, without
// patterns) from the key at data[i], for as long as each is the usual one:
// a key of at most sixteen plain bytes that t declares (see ShortKey), a
// colon, at most one space, and a value that fitLeaf takes at once; then a
// comma or the closing brace. Every member it reads fits, and it reads
// them as fitArgs and fitRawContainer would, with no call per member but
// for strings longer than seven bytes (one call, SkipStringRest) and numbers
// (one call, PlainInt, for an integer). It returns where it stopped and why.
func (f *fitter) fitShort(data []byte, i int, t *Type) (int, shortStop) {
	ix := t.index
	// The short table and the work count in registers: the loop stores
	// nothing but f.work, on the way out.
	short, mul, shift := ix.short, ix.shortMul, ix.shortShift&63
	work, budget := f.work, f.budget
members:
	for work < budget && i >= 0 && i+9 <= len(data) && data[i] == '"' {
		// The key: ShortKey's, or a medium one of up to sixteen bytes,
		// then a colon and at most one space.
		x := binary.LittleEndian.Uint64(data[i+1:])
		var x2 uint64 // a medium key's second word
		m := jsonwire.Specials(x)
		n := 0 // the key's length
		if m != 0 {
			n = bits.TrailingZeros64(m) >> 3
			x &= (m&-m)>>7 - 1 // the bytes below the first special
		} else if i+9 < len(data) && data[i+9] == '"' {
			n = 8
		} else {
			if ix.medium == nil || i+17 > len(data) {
				break
			}
			x2 = binary.LittleEndian.Uint64(data[i+9:])
			m2 := jsonwire.Specials(x2)
			if m2 == 0 {
				break
			}
			n2 := bits.TrailingZeros64(m2) >> 3
			x2 &= 1<<(8*n2) - 1
			n = 8 + n2
		}
		q := i + 1 + n // the closing quote, if it is one
		if q+2 >= len(data) || data[q] != '"' || data[q+1] != ':' {
			break
		}
		v := q + 2
		if data[v] == ' ' {
			if v++; v >= len(data) {
				break
			}
		}
		var mt *Type
		var found bool
		if n <= 8 { // shortProp, on the table in registers
			for h := (x * mul) >> shift; ; h = (h + 1) & uint64(len(short)-1) {
				if s := &short[h]; s.t == nil || s.w == x {
					mt, found = s.t, s.t != nil
					break
				}
			}
		} else {
			mt, found = ix.mediumProp(x, x2)
		}
		if !found || mt == t.rest { // the rules of names and nulls may read it
			break
		}
		// The value: fitLeaf's rules.
		end := 0
		switch c := data[v]; mt.kind {
		case typeString:
			if c != '"' || mt.enum != nil {
				break members
			}
			var err *jsonwire.Error
			if v+9 <= len(data) {
				// Up to seven bytes at once; a longer string, or one with
				// an escape, is read on from where this word stopped.
				j := v + 9
				if m := jsonwire.Specials(binary.LittleEndian.Uint64(data[v+1:])); m != 0 {
					j = v + 1 + bits.TrailingZeros64(m)>>3
				}
				if j < len(data) && data[j] == '"' {
					end = j + 1
				} else {
					end, err = jsonwire.SkipStringRest(data, j)
				}
			} else {
				end, err = jsonwire.SkipString(data, v)
			}
			if err != nil {
				break members
			}
		case typeInteger, typeNumber:
			var ok bool
			if end, ok = jsonwire.PlainInt(data, v); !ok {
				if c != '-' && c-'0' > 9 {
					break members
				}
				e, isInt, err := jsonwire.SkipNumber(data, v)
				if err != nil || !isInt && !numberTextFits(data[v:e], mt) {
					break members
				}
				end = e
			}
		case typeBoolean:
			switch {
			case c == 't' && len(data)-v >= 4 && string(data[v:v+4]) == "true":
				end = v + 4
			case c == 'f' && len(data)-v >= 5 && string(data[v:v+5]) == "false":
				end = v + 5
			default:
				break members
			}
		default:
			break members
		}
		work++ // as fitLeaf counts it
		if end < len(data) && data[end] == ',' {
			i = jsonwire.Space(data, end+1)
			continue
		}
		f.work = work
		if end < len(data) && data[end] == '}' {
			return end + 1, closed
		}
		return end, afterValue
	}
	f.work = work
	return i, atKey
}

// rawField is Type.field for a key as it stands in JSON text, between its
// quotes: decoded only if it has escapes.
func rawField(t *Type, key []byte, escaped bool) *Type {
	if escaped {
		return t.field(jsonwire.Unescape(key))
	}
	if t.patterns != nil {
		return t.patterns.fieldBytes(t, key)
	}
	if f, ok := t.propBytes(key); ok {
		return f
	}
	return t.rest
}

// shortField is rawField for a short plain key, as jsonwire.ShortKey
// reads it: w is the word it reads, key the key's bytes.
func shortField(t *Type, w uint64, key []byte) *Type {
	if ix := t.index; ix != nil && t.patterns == nil {
		if f, ok := ix.shortProp(w); ok {
			return f
		}
		return t.rest
	}
	return rawField(t, key, false)
}

// A rawChild names a member of a container in JSON text: the bytes of an
// object's key (between the quotes), or an array's index (index >= 0).
// The key is decoded into a string only where a path needs it.
type rawChild struct {
	key     []byte
	escaped bool
	index   int
}

// of is the type that container type t declares for the member.
func (c rawChild) of(t *Type) *Type {
	if c.index >= 0 {
		return t.item(c.index)
	}
	return rawField(t, c.key, c.escaped)
}

// child is the member's name in a path.
func (c rawChild) child() child {
	if c.index >= 0 {
		return child{index: c.index}
	}
	return child{key: jsonwire.Unescape(c.key), index: -1}
}

// known is Type.known for a key in JSON text.
func (c rawChild) known(t *Type) bool {
	if c.escaped {
		return t.known(jsonwire.Unescape(c.key))
	}
	if _, ok := t.propBytes(c.key); ok {
		return true
	}
	return t.patterns != nil && t.patterns.match(c.key) != 0
}

// is reports whether the member's key is k.
// same reports whether two keys of one object are the same key.
func (c rawChild) same(d rawChild) bool {
	if !c.escaped && !d.escaped {
		return string(c.key) == string(d.key)
	}
	return jsonwire.Unescape(c.key) == jsonwire.Unescape(d.key)
}

// prop is the type of the property the key names, escapes decoded, or
// nil if t declares none by that name (the key is decoded once, the same
// way for every rule that reads it).
func (c rawChild) prop(t *Type) *Type {
	var pt *Type
	if c.escaped {
		pt, _ = t.prop(jsonwire.Unescape(c.key))
	} else {
		pt, _ = t.propBytes(c.key)
	}
	return pt
}

func (c rawChild) is(k string) bool {
	if c.escaped {
		return jsonwire.Unescape(c.key) == k
	}
	return string(c.key) == k
}

// tokenKind is the kind of the JSON value that starts with byte c.
func tokenKind(c byte) kind {
	switch c {
	case '{':
		return kindObject
	case '[':
		return kindArray
	case '"':
		return kindString
	case 't', 'f':
		return kindBool
	case 'n':
		return kindNull
	}
	return kindNumber
}

// fitLeaf is fitRaw for the usual member, at data[i] (no whitespace
// before it): a string where a string is declared, a number where a
// number or an integer is (a small integer at once), true or false where a
// boolean is. ok says that it was one,
// valid, and that it fits; otherwise fitRaw reads the member again, and
// reports its error if it has one.
func (f *fitter) fitLeaf(data []byte, i int, t *Type) (end int, ok bool) {
	if t == nil || f.work >= f.budget || i >= len(data) {
		return 0, false
	}
	switch c := data[i]; t.kind {
	case typeString:
		if c == '"' && t.enum == nil {
			if end, ok = jsonwire.ShortString(data, i); !ok {
				var err *jsonwire.Error
				end, err = jsonwire.SkipString(data, i)
				ok = err == nil // an error is fitRaw's to report
			}
		}
	case typeInteger, typeNumber:
		if end, ok = jsonwire.ShortInt(data, i); !ok && (c == '-' || c-'0' <= 9) {
			var isInt bool
			var err *jsonwire.Error
			end, isInt, err = jsonwire.SkipNumber(data, i)
			ok = err == nil && (isInt || numberTextFits(data[i:end], t))
		}
	case typeBoolean:
		if c == 't' && len(data)-i >= 4 && string(data[i:i+4]) == "true" {
			end, ok = i+4, true
		} else if c == 'f' && len(data)-i >= 5 && string(data[i:i+5]) == "false" {
			end, ok = i+5, true
		}
	}
	if ok {
		f.work++ // as fitRaw counts it
	}
	return end, ok
}

// fitRaw validates the JSON value that starts at data[i] (after optional
// whitespace), nested in depth containers, and reports where it ends and
// whether it fits t as it is. It allocates nothing (keys with escapes
// aside), and reads each byte once.
func (f *fitter) fitRaw(data []byte, i int, t *Type, depth int) (end int, ok bool, err *jsonwire.Error) {
	i = jsonwire.Space(data, i)
	if i >= len(data) || t.isAny() {
		end, err = jsonwire.Skip(data, i, depth, f.maxDepth)
		return end, err == nil, err
	}
	if f.work++; f.work > f.budget {
		end, err = jsonwire.Skip(data, i, depth, f.maxDepth)
		return end, false, err
	}
	// The usual parameter first: a string or a number where one is
	// declared, read and fitted at once (fitRawScalar's rules).
	c := data[i]
	switch t.kind {
	case typeString:
		if c == '"' {
			if end, err = jsonwire.SkipString(data, i); err != nil {
				return 0, false, err
			}
			return end, t.enum == nil || enumRespellingRaw(t, data[i:end]) == "", nil
		}
	case typeInteger, typeNumber:
		if c == '-' || c-'0' <= 9 {
			end, isInt, err := jsonwire.SkipNumber(data, i)
			if err != nil {
				return 0, false, err
			}
			return end, isInt || numberTextFits(data[i:end], t), nil
		}
	}
	k := tokenKind(c)
	switch t.kind {
	case typeUnion:
		return f.fitRawUnion(data, i, t, k, depth)
	case typeObject, typeArray:
		if k == kindNull {
			end, err = jsonwire.Skip(data, i, depth, f.maxDepth)
			return end, err == nil, err
		}
		if t.kind.valueKind() != k || !t.constrains() {
			end, err = jsonwire.Skip(data, i, depth, f.maxDepth)
			return end, t.kind.valueKind() == k, err
		}
		return f.fitRawContainer(data, i, t, k, depth)
	}
	end, err = jsonwire.Skip(data, i, depth, f.maxDepth)
	if err != nil {
		return 0, false, err
	}
	return end, fitRawScalar(data[i:end], k, t), nil
}

// fitRawContainer fits the object or array (k) at data[i] to t, the one
// type it meets: each member against the type t gives it, directly (the
// set machinery of fitRawMany is for unions); once a member does not fit,
// the rest is only validated.
func (f *fitter) fitRawContainer(data []byte, i int, t *Type, k kind, depth int) (int, bool, *jsonwire.Error) {
	i, more, err := jsonwire.Open(data, i, depth, f.maxDepth)
	if err != nil {
		return 0, false, err
	}
	fits := true
	indexed := k == kindObject && t.index != nil && t.patterns == nil
	for n := 0; more; n++ {
		if fits && indexed {
			var stop shortStop
			switch i, stop = f.fitShort(data, i, t); stop {
			case closed:
				return i, true, nil
			case afterValue:
				if i, more, err = jsonwire.Next(data, i, true); err != nil {
					return 0, false, err
				}
				continue
			}
		}
		var mt *Type // nil: only validate
		if k == kindObject {
			if w, n, next, ok := jsonwire.ShortKey(data, i); ok {
				if ix := t.index; fits && ix != nil && t.patterns == nil {
					var found bool // shortField, without its call
					if mt, found = ix.shortProp(w); !found {
						mt = t.rest
					}
				} else if fits {
					mt = shortField(t, w, data[i+1:i+1+n])
				}
				i = next
			} else {
				keyStart, keyEnd, escaped, next, err := jsonwire.Key(data, i)
				if err != nil {
					return 0, false, err
				}
				if fits {
					mt = rawField(t, data[keyStart:keyEnd], escaped)
				}
				i = next
			}
		} else if fits {
			mt = t.item(n)
		}
		if k == kindArray && mt != nil && mt.kind == typeObject && i < len(data) && data[i] == '{' &&
			mt.constrains() && f.work < f.budget {
			// An array of objects: fitRaw's path to the element, without
			// its calls (fitLeaf, fitRaw).
			f.work++
			var ok bool
			if i, ok, err = f.fitRawContainer(data, i, mt, kindObject, depth+1); err != nil {
				return 0, false, err
			}
			fits = fits && ok
		} else if end, ok := f.fitLeaf(data, i, mt); ok {
			i = end
		} else {
			if i, ok, err = f.fitRaw(data, i, mt, depth+1); err != nil {
				return 0, false, err
			}
			fits = fits && ok
		}
		if i < len(data) && data[i] == ',' { // the usual comma, without a call
			i = jsonwire.Space(data, i+1)
		} else if i, more, err = jsonwire.Next(data, i, k == kindObject); err != nil {
			return 0, false, err
		}
	}
	return i, fits, nil
}

// fitRawUnion is fitUnion on JSON text.
func (f *fitter) fitRawUnion(data []byte, i int, u *Type, k kind, depth int) (int, bool, *jsonwire.Error) {
	if k != kindNull { // the usual union, a type or null: its one member of kind k, without the set below
		var one *Type
		n := 0
		for _, m := range u.members {
			if matchesKind(m.kind, k) || k == kindNumber && m.kind == typeInteger {
				one = m
				n++
			}
		}
		switch {
		case n == 0:
			end, err := jsonwire.Skip(data, i, depth, f.maxDepth)
			return end, false, err
		case n == 1 && !one.keyed:
			return f.fitRaw(data, i, one, depth)
		}
	}
	var ms typeSet
	keyed := false
	for _, m := range u.members {
		if matchesKind(m.kind, k) || k == kindNumber && m.kind == typeInteger {
			if ms.add(m) < 0 {
				end, err := jsonwire.Skip(data, i, depth, f.maxDepth)
				return end, false, err
			}
			keyed = keyed || m.keyed
		}
	}
	switch {
	case k == kindNull:
		end, err := jsonwire.Skip(data, i, depth, f.maxDepth)
		return end, err == nil, err
	case ms.n == 0:
		end, err := jsonwire.Skip(data, i, depth, f.maxDepth)
		return end, false, err
	case ms.n == 1 && !keyed:
		return f.fitRaw(data, i, ms.list[0], depth)
	}
	var ks [maxSet]keys
	end, mask, err := f.fitRawMany(data, i, ms.slice(), depth, &ks)
	if err != nil {
		return 0, false, err
	}
	return end, unionFitsKeys(&ms, mask, &ks), nil
}

// fitRawSet is fitSet on JSON text.
func (f *fitter) fitRawSet(data []byte, i int, ts []*Type, depth int) (int, uint64, *jsonwire.Error) {
	var es typeSet
	if !flattenSet(ts, &es) {
		return f.fitRawMany(data, i, ts, depth, nil)
	}
	if es.n < 0 {
		end, err := jsonwire.Skip(data, i, depth, f.maxDepth)
		return end, 0, err
	}
	var ks [maxSet]keys
	ets := es.slice()
	end, got, err := f.fitRawMany(data, i, ets, depth, &ks)
	if err != nil {
		return end, 0, err
	}
	return end, unionsFit(ts, &es, got, tokenKind(data[i]), func(m *Type) keys { return ks[slices.Index(ets, m)] }), nil
}

// fitRawMany is fitMany on JSON text: it validates the value at data[i]
// and returns the set of types of ts it fits; with ks, it also tells how
// an object meets the keywords of each object type.
func (f *fitter) fitRawMany(data []byte, i int, ts []*Type, depth int, ks *[maxSet]keys) (int, uint64, *jsonwire.Error) {
	if i >= len(data) { // the text ends where a value should start
		_, err := jsonwire.Skip(data, i, depth, f.maxDepth)
		return 0, 0, err
	}
	if f.work += len(ts); f.work > f.budget {
		end, err := jsonwire.Skip(data, i, depth, f.maxDepth)
		return end, 0, err
	}
	k := tokenKind(data[i])
	if k != kindObject && k != kindArray {
		end, err := jsonwire.Skip(data, i, depth, f.maxDepth)
		if err != nil {
			return 0, 0, err
		}
		var mask uint64
		for j, t := range ts {
			if t.isAny() || fitRawScalar(data[i:end], k, t) {
				mask |= 1 << j
			}
		}
		return end, mask, nil
	}
	i, more, err := jsonwire.Open(data, i, depth, f.maxDepth)
	if err != nil {
		return 0, 0, err
	}
	tk := typeArray
	if k == kindObject {
		tk = typeObject
	}
	mask := f.kindMask(ts, tk, depth)
	var kt rawKeys
	if ks != nil && k == kindObject {
		kt.start(ts, mask)
	}
	var cs typeSet
	for n := 0; more; n++ {
		at := rawChild{index: n}
		if k == kindObject {
			keyStart, keyEnd, escaped, next, err := jsonwire.Key(data, i)
			if err != nil {
				return 0, 0, err
			}
			at = rawChild{key: data[keyStart:keyEnd], escaped: escaped, index: -1}
			i = next
			kt.key(ts, at)
		}
		valStart := i
		if mask == 0 {
			i, err = jsonwire.Skip(data, i, depth+1, f.maxDepth)
		} else {
			i, mask, err = f.fitRawChild(data, i, ts, mask, &cs, at, depth)
		}
		if err != nil {
			return 0, 0, err
		}
		if k == kindObject && kt.on {
			kt.value(ts, at, data[valStart:i])
		}
		if i, more, err = jsonwire.Next(data, i, k == kindObject); err != nil {
			return 0, 0, err
		}
	}
	kt.finish(ts, ks)
	return i, mask, nil
}

// fitRawChild is fitChild on JSON text.
func (f *fitter) fitRawChild(data []byte, i int, ts []*Type, mask uint64, cs *typeSet, at rawChild, depth int) (int, uint64, *jsonwire.Error) {
	cs.reset()
	var idx [maxSet]int8
	for j, t := range ts {
		idx[j] = -1
		if mask&(1<<j) == 0 || t.isAny() || !t.constrains() {
			continue
		}
		ct := at.of(t)
		if ct.isAny() {
			continue
		}
		if idx[j] = int8(cs.add(ct)); idx[j] < 0 {
			end, err := jsonwire.Skip(data, i, depth+1, f.maxDepth)
			return end, 0, err
		}
	}
	var end int
	var got uint64
	var err *jsonwire.Error
	switch cs.n {
	case 0:
		end, err = jsonwire.Skip(data, i, depth+1, f.maxDepth)
		return end, mask, err
	case 1:
		var ok bool
		end, ok, err = f.fitRaw(data, i, cs.list[0], depth+1)
		if ok {
			got = 1
		}
	default:
		end, got, err = f.fitRawSet(data, i, cs.slice(), depth+1)
	}
	for j := range ts {
		if idx[j] >= 0 && got&(1<<idx[j]) == 0 {
			mask &^= 1 << j
		}
	}
	return end, mask, err
}

// rawKeys tracks, while an object's members go by, how the object meets
// the discriminating keywords of the keyed object types of a set.
type rawKeys struct {
	on bool
	// enumKeys are the keys seen whose property has a const or enum: a
	// second occurrence makes every keyed type unsure, so that the walker,
	// which lets the last occurrence decide as a decoder does, chooses.
	enumKeys [4]rawChild // the first ones: no allocation for the usual one or two
	nEnum    int
	more     []rawChild // the others
	dup      bool
	seen     [maxSet]uint64 // per type: which of its required keys were seen (the first 64)
	lost     uint64         // types whose keywords the object cannot satisfy
	unsure   uint64         // types whose keywords it may satisfy after coercion
}

func (kt *rawKeys) start(ts []*Type, mask uint64) {
	for _, t := range ts {
		kt.on = kt.on || t.keyed
	}
}

func (kt *rawKeys) key(ts []*Type, key rawChild) {
	if !kt.on {
		return
	}
	for j, t := range ts {
		if !t.keyed {
			continue
		}
		if t.closed && !key.known(t) {
			kt.lost |= 1 << j
		}
		for r, req := range t.required[:min(len(t.required), 64)] {
			if key.is(req) {
				kt.seen[j] |= 1 << r
			}
		}
	}
}

// value compares the value of key with the const or enum of its property.
func (kt *rawKeys) value(ts []*Type, key rawChild, tok []byte) {
	noted := false
	for j, t := range ts {
		pt := key.prop(t)
		if !t.keyed || pt == nil || pt.enum == nil {
			continue
		}
		if !noted {
			if noted = true; !kt.noteEnumKey(key) {
				return
			}
		}
		v, ok := rawScalar(tok)
		switch {
		case !ok || !fitScalarOrNull(v, pt) || respellable(v, pt):
			kt.unsure |= 1 << j
		case !enumHas(pt.enum, v):
			kt.lost |= 1 << j
		}
	}
}

// noteEnumKey records key, whose property has a const or enum in some
// type, once per object; it reports false if it was seen before.
func (kt *rawKeys) noteEnumKey(key rawChild) bool {
	for _, k := range kt.enumKeys[:kt.nEnum] {
		if k.same(key) {
			kt.dup = true
			return false
		}
	}
	for _, k := range kt.more {
		if k.same(key) {
			kt.dup = true
			return false
		}
	}
	if kt.nEnum < len(kt.enumKeys) {
		kt.enumKeys[kt.nEnum] = key
		kt.nEnum++
	} else {
		kt.more = append(kt.more, key)
	}
	return true
}

func (kt *rawKeys) finish(ts []*Type, ks *[maxSet]keys) {
	if ks == nil {
		return
	}
	for j, t := range ts {
		switch {
		case t.kind != typeObject:
			ks[j] = 0
		case !t.keyed:
			ks[j] = keysSat | keysAsIs
		case kt.dup:
			ks[j] = keysUnsure
		case kt.lost&(1<<j) != 0 || len(t.required) > 64 || kt.seen[j] != 1<<len(t.required)-1:
			ks[j] = 0
		case kt.unsure&(1<<j) != 0:
			ks[j] = keysUnsure
		default:
			ks[j] = keysSat | keysAsIs
		}
	}
}

// rawScalar decodes a scalar JSON value for comparison with an enum;
// ok is false for objects and arrays.
func rawScalar(tok []byte) (any, bool) {
	switch tokenKind(tok[0]) {
	case kindObject, kindArray:
		return nil, false
	case kindNull:
		return nil, true
	case kindBool:
		return tok[0] == 't', true
	case kindNumber:
		return json.Number(tok), true
	}
	return jsonwire.DecodeScalar(tok, false), true
}
