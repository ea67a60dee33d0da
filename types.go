package coerce

import (
	"math/bits"
	"regexp"
	"slices"
	"strings"
)

// A Type is a parsed declared type: a JSON type, possibly with element,
// property or member types. Types come from ParseType and from schemas; they
// are immutable and safe for concurrent use.
type Type struct {
	kind     typeKind
	members  []*Type          // typeUnion: two or more alternatives, none a union, none any
	prefix   []*Type          // typeArray: types of the leading elements (tuple, prefixItems)
	elem     *Type            // typeArray: type of the other elements; nil is any
	props    map[string]*Type // typeObject: types of named properties
	patterns *patterns        // typeObject: patternProperties; nil if none
	rest     *Type            // typeObject: type of the other properties' values; nil is any
	name     string           // canonical form, for String and error messages
	exact    bool             // name describes the type entirely (false for objects with properties)

	// The discriminating keywords of a JSON Schema: they never make a
	// value fail, they only choose among the members of a union (see
	// walker.choose).
	required []string // typeObject: keys a value must have
	closed   bool     // typeObject: no keys but props and patterns' (additionalProperties: false)
	enum     []any    // any kind: the values allowed (const, enum), as the schema decodes them
	titles   []string // typeString with enum: the title of each value ("": none), for the rule of enums
	keyed    bool     // typeObject: required, closed or a property with enum is set
	plainInt bool     // typeInteger: in JSON text, only digits fit (a Go integer's decoder wants them)

	// Derived when the type is built or its schema compiled, to fit
	// conforming values quickly; the zero values mean "work it out".
	scalars kindSet           // typeUnion: the kinds its plain scalar members take, if all are such
	index   *propIndex        // typeObject: props, by a hash cheaper than the map's (see seal)
	names   *nameIndex        // typeObject with props: the other spellings of their names (see names.go)
	aliases map[string]string // typeObject: x-aliases of its properties, alias → property
	// nullsBelow: the rule of nulls may remove a null in a value of this
	// type: it, or a type it holds outside unions, declares a property
	// that is neither required nor nullable (see seal, nulls.go).
	nullsBelow bool
	// memberNulls: typeUnion: a member has nullsBelow, so that the fitters
	// must note that they are inside a union, where the rule does not act
	// (nullRule.off); elsewhere no null below could go by it anyway.
	memberNulls bool
	// goStruct: a Go struct's type. encoding/json matches a key to its
	// fields whatever the key's case, so the rule of names renames only
	// keys that differ by more than case; and it takes null for every
	// field (leaving it, or setting a slice, map or pointer to nil), so
	// the rule of nulls removes none: a null changes nothing of what
	// json.Unmarshal makes of conforming text.
	goStruct bool
}

// Predeclared types: shared so that the common declarations allocate nothing.
var (
	anyType     = &Type{kind: typeAny, name: "any", exact: true}
	nullType    = &Type{kind: typeNull, name: "null", exact: true}
	booleanType = &Type{kind: typeBoolean, name: "boolean", exact: true}
	integerType = &Type{kind: typeInteger, name: "integer", exact: true}
	// goIntType is a Go integer field's type, for Unmarshal: encoding/json
	// takes only integer text (5, not 5.0 or 5e0) into it, so a whole
	// number written otherwise is written again as plain digits.
	goIntType  = &Type{kind: typeInteger, name: "integer", plainInt: true}
	numberType = &Type{kind: typeNumber, name: "number", exact: true}
	stringType = &Type{kind: typeString, name: "string", exact: true}
	arrayType  = &Type{kind: typeArray, name: "array", exact: true}
	objectType = &Type{kind: typeObject, name: "object", exact: true}
)

// String returns the type's canonical form, such as "list[integer]",
// "dict[string, list[integer]]" or "integer | null". For the types of ParseType it
// parses back to an equal type.
func (t *Type) String() string {
	if t == nil {
		return "any"
	}
	return t.name
}

// Kind is what t declares: Any, Null, Boolean, Integer, Number, String,
// Array, Object, or Union (see Members).
func (t *Type) Kind() Kind {
	if t == nil {
		return Any
	}
	return [...]Kind{
		typeAny: Any, typeNull: Null, typeBoolean: Boolean, typeInteger: Integer,
		typeNumber: Number, typeString: String, typeArray: Array, typeObject: Object, typeUnion: Union,
	}[t.kind]
}

// Members returns the alternatives of a union type, and nil for any other
// type. The slice is shared: do not modify it.
func (t *Type) Members() []*Type {
	if t == nil || t.kind != typeUnion {
		return nil
	}
	return t.members
}

// Item returns the type an array type declares for element i (of a tuple,
// or of a JSON Schema's prefixItems, its own; of a list, the elements').
// It is the Any type for any element of a type that is not an array.
func (t *Type) Item(i int) *Type {
	if t == nil || t.kind != typeArray || i < 0 {
		return anyType
	}
	return orAny(t.item(i))
}

// Elem returns the type of the elements of an array type beyond its
// tuple items (list[T]: T), or of the values of an object type's
// properties that it does not name (dict[str, T]: T); Any for other types.
func (t *Type) Elem() *Type {
	switch {
	case t == nil:
	case t.kind == typeArray:
		return orAny(t.elem)
	case t.kind == typeObject:
		return orAny(t.rest)
	}
	return anyType
}

// Property returns the type an object type declares for the property
// name: its own, or that of the patternProperties it matches, or else the
// type of the other properties; Any for other types.
func (t *Type) Property(name string) *Type {
	if t == nil || t.kind != typeObject {
		return anyType
	}
	return orAny(t.field(name))
}

// A propIndex holds an object type's properties in an open-addressed
// table under a fixed hash, built once the schema is compiled. Fitting a
// conforming parameter is a kind check; finding its type in a Go map
// costs several times that (the map hashes with a per-map seed through a
// generic path), and the index finds it in one multiply per 8 bytes of the
// key and, at a load of at most one half, a probe or two. The longest probe
// is fixed by the schema's names, not by the keys looked up: a lookup costs
// at most that, so hostile keys cost no more than the schema's size.
type propIndex struct {
	mask  uint64
	slots []propSlot
	list  []propSlot // the properties, by name, with their placeholders

	// The properties whose names are at most eight plain bytes (printable
	// ASCII but '"' and '\\'), by their bytes read as one word, as
	// jsonwire.ShortKey reads a key: such a key is found in one multiply
	// and, the multiplier chosen when the index is built, most often one
	// probe, with no hashing of bytes and no string compared. A key that
	// is not there is no property at all: no other name spells it.
	short      []shortSlot // a power of two, at most half full
	shortMul   uint64
	shortShift uint8

	// The properties whose names are nine to sixteen plain bytes, by
	// their two words (the second zero above the name's end), in the same
	// way; nil where there are none. A medium key not there is no
	// property.
	medium      []mediumSlot
	mediumMul   uint64
	mediumShift uint8
}

type shortSlot struct {
	w   uint64
	t   *Type  // nil: an empty slot
	req uint64 // the property's bit among the first 64 required names, or 0 (keyCheck)
}

type mediumSlot struct {
	w, w2 uint64
	t     *Type // nil: an empty slot
	req   uint64
}

// mediumProp is the property whose name is the medium key of words w and
// w2 (the second zero above the key's end), if there is one.
func (ix *propIndex) mediumProp(w, w2 uint64) (*Type, uint64, bool) {
	mask := uint64(len(ix.medium) - 1)
	for i := ((w ^ w2*0xbf58476d1ce4e5b9) * ix.mediumMul) >> ix.mediumShift; ; i = (i + 1) & mask {
		switch s := &ix.medium[i]; {
		case s.t == nil:
			return nil, 0, false
		case s.w == w && s.w2 == w2:
			return s.t, s.req, true
		}
	}
}

// mediumWords are the words of a property name of nine to sixteen plain
// bytes, as fitShort reads them, and false for any other name.
func mediumWords(name string) (w, w2 uint64, ok bool) {
	if len(name) <= 8 || len(name) > 16 {
		return 0, 0, false
	}
	w, ok = shortWord(name[:8])
	if !ok {
		return 0, 0, false
	}
	w2, ok = shortWord(name[8:])
	return w, w2, ok
}

// shortProp is the property whose name is the short key w (see
// jsonwire.ShortKey), if there is one.
func (ix *propIndex) shortProp(w uint64) (*Type, bool) {
	mask := uint64(len(ix.short) - 1)
	for i := (w * ix.shortMul) >> ix.shortShift; ; i = (i + 1) & mask {
		switch s := &ix.short[i]; {
		case s.t == nil:
			return nil, false
		case s.w == w:
			return s.t, true
		}
	}
}

// shortWord is the word of a property name that jsonwire.ShortKey would
// read for it, and false for a name it never reads (too long, or with a
// byte that is not plain).
func shortWord(name string) (uint64, bool) {
	if len(name) > 8 {
		return 0, false
	}
	var w uint64
	for i := len(name) - 1; i >= 0; i-- {
		c := name[i]
		if c < 0x20 || c >= 0x80 || c == '"' || c == '\\' {
			return 0, false
		}
		w = w<<8 | uint64(c)
	}
	return w, true
}

// buildShort fills the short table of ix from props (see placeAll).
func (ix *propIndex) buildShort(props map[string]*Type, required []string) {
	var slots []shortSlot
	for name, t := range props {
		if w, ok := shortWord(name); ok {
			slots = append(slots, shortSlot{w, t, requiredBit(required, name)})
		}
	}
	ix.short, ix.shortMul, ix.shortShift = placeAll(slots, func(s shortSlot) uint64 { return s.w })
}

// buildMedium fills the medium table of ix from props as buildShort does
// the short one; it stays nil when no name is of medium length.
func (ix *propIndex) buildMedium(props map[string]*Type, required []string) {
	var slots []mediumSlot
	for name, t := range props {
		if w, w2, ok := mediumWords(name); ok {
			slots = append(slots, mediumSlot{w, w2, t, requiredBit(required, name)})
		}
	}
	if len(slots) == 0 {
		return
	}
	ix.medium, ix.mediumMul, ix.mediumShift = placeAll(slots, func(s mediumSlot) uint64 { return s.w ^ s.w2*0xbf58476d1ce4e5b9 })
}

// A tableSlot is a slot of the short or medium table.
type tableSlot interface {
	used() bool // whether it holds a property
}

func (s shortSlot) used() bool  { return s.t != nil }
func (s mediumSlot) used() bool { return s.t != nil }

// placeAll lays slots out in a table of a power of two at least twice as
// many slots (at least two), each at the slot that the top bits of its
// hash times a multiplier pick, or the next free one after it. It tries a
// few multipliers for one that sends no two slots to one place; the last
// one tried stays if none does (a lookup then probes a slot or two more).
func placeAll[S tableSlot](slots []S, hash func(S) uint64) (table []S, mul uint64, shift uint8) {
	size, lg := 2, 1
	for size < 2*len(slots) {
		size, lg = size*2, lg+1
	}
	table = make([]S, size)
	shift = uint8(64 - lg)
	next := uint64(0x9e3779b97f4a7c15)
	for try := 0; ; try++ {
		mul = next | 1
		clear(table)
		collided := false
		for _, sl := range slots {
			i := (hash(sl) * mul) >> shift
			for table[i].used() {
				i = (i + 1) & uint64(size-1)
				collided = true
			}
			table[i] = sl
		}
		if !collided || try == 16 {
			return table, mul, shift
		}
		next = (next ^ next>>31) * 0xbf58476d1ce4e5b9 // the next candidate (splitmix64's mix)
	}
}

type propSlot struct {
	hash uint64
	name string
	t    *Type // nil: an empty slot

	// ph, in list, are the placeholders ("", {}, []) that the rule of
	// placeholders may remove from the property although they fit its
	// type as they are (an enum without "", an object with required
	// names): those that can stand for a value of the type and that Check
	// refuses, for a property that is not required (sealPlaceholders). A
	// value that fits and is none of them is never removed, so the fast
	// paths look no further. It sits beside the name and type that
	// fitParams reads, so that it costs a conforming call no other load.
	ph absences
}

// seal derives, once a type is complete, what fitting uses and cannot be
// worked out while the type is built (a schema's types are filled in
// after they are referenced): the property index of every object type
// reachable from t. It runs before the type is published (returned in a
// Schema or stored in the Go type cache), and a type sealed once is never
// written again, so sealing a graph that shares sealed types is a read.
// Types with properties come only from schemas and Go types; those
// ParseType builds, which its cache shares, have none.
func seal(t *Type) {
	seen := map[*Type]bool{}
	var indexed []*Type
	var visit func(t *Type)
	visit = func(t *Type) {
		if t == nil || seen[t] {
			return
		}
		seen[t] = true
		if len(t.props) > 0 && t.index == nil {
			t.index = newPropIndex(t.props, t.required)
			t.names = newNameIndex(t)
			indexed = append(indexed, t)
		}
		for _, p := range t.props {
			visit(p)
		}
		for _, m := range t.members {
			visit(m)
		}
		for _, p := range t.prefix {
			visit(p)
		}
		visit(t.elem)
		visit(t.rest)
		if t.patterns != nil {
			for _, p := range t.patterns.list {
				visit(p.t)
			}
		}
	}
	visit(t)
	markNullsBelow(t)
	for _, x := range indexed { // once every type they reach has its index
		sealPlaceholders(x)
	}
}

// markNullsBelow sets nullsBelow on every type reachable from t that holds,
// outside unions, a property the rule of nulls may remove: until nothing
// changes, as a type may hold itself.
func markNullsBelow(t *Type) {
	if t == nil {
		return
	}
	all := reachable(t)
	for changed := true; changed; {
		changed = false
		for _, x := range all {
			if x.nullsBelow || x.kind == typeUnion || x.goStruct {
				continue
			}
			below := false
			for name, pt := range x.props {
				below = below || nullGoesAs(x, name, pt, false)
			}
			x.each(func(c *Type) {
				below = below || c.nullsBelow && c.kind != typeUnion
			})
			if below {
				x.nullsBelow, changed = true, true
			}
		}
	}
	for _, x := range all {
		// Written only where it changes: a sealed type shared by another
		// graph (ParseType's cache) is only read.
		if x.kind == typeUnion && !x.memberNulls && slices.ContainsFunc(x.members, func(m *Type) bool { return m.nullsBelow }) {
			x.memberNulls = true
		}
	}
}

// newPropIndex indexes props, or returns nil for an empty map.
// requiredBit is name's bit among the first 64 of required (keyCheck's
// seen), or 0.
func requiredBit(required []string, name string) uint64 {
	if r := slices.Index(required, name); r >= 0 && r < 64 {
		return 1 << r
	}
	return 0
}

func newPropIndex(props map[string]*Type, required []string) *propIndex {
	if len(props) == 0 {
		return nil
	}
	size := 4
	for size < 2*len(props) {
		size *= 2
	}
	ix := &propIndex{mask: uint64(size - 1), slots: make([]propSlot, size), list: make([]propSlot, 0, len(props))}
	for name, t := range props {
		h := propHash(name)
		i := h & ix.mask
		for ix.slots[i].t != nil {
			i = (i + 1) & ix.mask
		}
		ix.slots[i] = propSlot{hash: h, name: name, t: t}
		ix.list = append(ix.list, propSlot{hash: h, name: name, t: t})
	}
	slices.SortFunc(ix.list, func(a, b propSlot) int { return strings.Compare(a.name, b.name) })
	ix.buildShort(props, required)
	ix.buildMedium(props, required)
	return ix
}

func findProp[S ~string | ~[]byte](ix *propIndex, key S) (*Type, bool) {
	h := propHash(key)
	for i := h & ix.mask; ; i = (i + 1) & ix.mask {
		switch s := &ix.slots[i]; {
		case s.t == nil:
			return nil, false
		case s.hash == h && s.name == string(key):
			return s.t, true
		}
	}
}

// propHash mixes the key 8 bytes at a time (a multiply and a shift
// each), so that names differing anywhere spread apart; the last 8 bytes,
// or a short key's first and last 4, are read as overlapping words.
func propHash[S ~string | ~[]byte](s S) uint64 {
	const m = 0x9e3779b97f4a7c15
	n := len(s)
	h := uint64(n) * m
	var w uint64
	switch {
	case n > 8:
		for i := 0; i < n-8; i += 8 {
			h = (h ^ le64(s[i:])) * m
			h ^= h >> 29
		}
		w = le64(s[n-8:])
	case n == 8:
		w = le64(s)
	case n >= 4:
		w = uint64(le32(s)) | uint64(le32(s[n-4:]))<<32
	case n > 0:
		w = uint64(s[0]) | uint64(s[n/2])<<8 | uint64(s[n-1])<<16
	}
	h = (h ^ w) * m
	return h ^ h>>32
}

func le64[S ~string | ~[]byte](s S) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

func le32[S ~string | ~[]byte](s S) uint32 {
	_ = s[3]
	return uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
}

// isAny reports whether every value conforms to t; a nil *Type is any.
func (t *Type) isAny() bool { return t == nil || t.kind == typeAny }

// field is the declared type of property key of an object type: its
// property's, the patterns' it matches, or else the rest's.
func (t *Type) field(key string) *Type {
	if t.patterns != nil {
		return t.patterns.field(t, key)
	}
	if f, ok := t.prop(key); ok {
		return f
	}
	return t.rest
}

// prop is the type of property key, if t declares one.
func (t *Type) prop(key string) (*Type, bool) {
	if ix := t.index; ix != nil {
		return findProp(ix, key)
	}
	f, ok := t.props[key]
	return f, ok
}

// propBytes is prop for a key in JSON text, without escapes.
func (t *Type) propBytes(key []byte) (*Type, bool) {
	if ix := t.index; ix != nil {
		return findProp(ix, key)
	}
	f, ok := t.props[string(key)] // no allocation: the conversion is in the map index
	return f, ok
}

// known reports whether key is a property or matches a pattern, as
// additionalProperties: false asks.
func (t *Type) known(key string) bool {
	if _, ok := t.prop(key); ok {
		return true
	}
	return t.patterns != nil && t.patterns.matchString(key) != 0
}

// constrains reports whether an object or array type says anything about
// its members; one that does not is fitted by kind alone.
func (t *Type) constrains() bool {
	switch t.kind {
	case typeObject:
		return t.props != nil || t.patterns != nil || !t.rest.isAny()
	case typeArray:
		return len(t.prefix) > 0 || !t.elem.isAny()
	}
	return false
}

// item is the declared type of element i of an array type.
func (t *Type) item(i int) *Type {
	if i < len(t.prefix) {
		return t.prefix[i]
	}
	return t.elem
}

// each calls f for each type directly below t: members, element and
// property types.
func (t *Type) each(f func(*Type)) {
	for _, m := range t.members {
		f(m)
	}
	for _, p := range t.prefix {
		f(p)
	}
	if t.elem != nil {
		f(t.elem)
	}
	if t.rest != nil {
		f(t.rest)
	}
	for _, p := range t.props {
		f(p)
	}
	if t.patterns != nil {
		for _, p := range t.patterns.list {
			f(p.t)
		}
	}
}

// reachable lists t and every type below it, once each, through cycles.
func reachable(t *Type) []*Type {
	all := []*Type{t}
	seen := map[*Type]bool{t: true}
	for i := 0; i < len(all); i++ {
		all[i].each(func(c *Type) {
			if !seen[c] {
				seen[c] = true
				all = append(all, c)
			}
		})
	}
	return all
}

// anyish is isAny for types under construction: only the shared anyType
// (and nil) is any there, because a schema's $ref placeholder looks like any
// until the definition it stands for is compiled into it.
func anyish(t *Type) bool { return t == nil || t == anyType }

func newList(elem *Type) *Type {
	if anyish(elem) {
		return arrayType
	}
	name, whole := composeName("list[", elem.name, "]")
	return &Type{kind: typeArray, elem: elem, name: name, exact: elem.exact && whole}
}

func newDict(value *Type) *Type {
	if anyish(value) {
		return objectType
	}
	name, whole := composeName("dict[string, ", value.name, "]")
	return &Type{kind: typeObject, rest: value, name: name, exact: value.exact && whole}
}

func newTuple(items []*Type, rest *Type) *Type {
	names := make([]string, len(items))
	exact := anyish(rest)
	for i, it := range items {
		if it == nil {
			it = anyType
			items[i] = it
		}
		names[i] = it.name
		exact = exact && it.exact
	}
	name, whole := composeName("tuple[", joinNames(names, ", "), "]")
	return &Type{kind: typeArray, prefix: items, elem: rest, name: name, exact: exact && whole}
}

// newUnion flattens nested unions and drops repeated members; a union with
// an any member is any, and a union of one member is that member.
func newUnion(alts []*Type) *Type {
	var members []*Type
	seen := map[string]bool{}
	for _, a := range alts {
		list := []*Type{a}
		if a.kind == typeUnion {
			list = a.members
		}
		for _, m := range list {
			if anyish(m) {
				return anyType
			}
			if m.exact && seen[m.name] || slices.Contains(members, m) {
				continue
			}
			seen[m.name] = m.exact
			members = append(members, m)
		}
	}
	if len(members) == 1 {
		return members[0]
	}
	names := make([]string, len(members))
	exact := true
	for i, m := range members {
		names[i] = m.name
		exact = exact && m.exact
	}
	name, whole := composeName(joinNames(names, " | "))
	return &Type{kind: typeUnion, members: members, name: name, exact: exact && whole, scalars: scalarKinds(members)}
}

// orNull is the other member of a union of two whose one is null
// (Optional[T]), or nil.
func (t *Type) orNull() *Type {
	if len(t.members) != 2 {
		return nil
	}
	switch {
	case t.members[0].kind == typeNull:
		return t.members[1]
	case t.members[1].kind == typeNull:
		return t.members[0]
	}
	return nil
}

// quickAccepts is the set of scalar kinds that t takes as they are,
// whatever the value: for a scalar type its kind's, for a union its
// scalars; 0 where that takes more than the kind to tell.
func (t *Type) quickAccepts() kindSet {
	if t == nil {
		return allScalars
	}
	if t.enum != nil {
		return 0 // an enum's spelling, or membership in check mode: fit tells
	}
	if t.kind == typeUnion {
		return t.scalars
	}
	if t.plainInt {
		return 0 // an integer's text: fit tells
	}
	return scalarSets[t.kind]
}

// patterns are the patternProperties of an object type. A key's type is
// that of every pattern it matches and of its property, merged; a key no
// pattern and no property claims gets additionalProperties' type. Every
// merge is made when the schema is compiled (see compiler.settlePatterns):
// the type of a declared property already includes the patterns its name
// matches, and the type of any other key matching several patterns is
// looked up by its match set, so that coercion only reads.
type patterns struct {
	list   []pattern
	broken bool // a pattern RE2 cannot compile: any key might match it

	// combos are the merged types of keys that are no property and match
	// two or more patterns, by match set; a set not in it is any.
	combos map[uint64]*Type
}

type pattern struct {
	expr string
	re   *regexp.Regexp
	t    *Type
}

// maxPatterns bounds the patterns whose matches are told apart; the
// others count as broken, which makes keys looser, never stricter.
const maxPatterns = 63

// maxComboPatterns bounds the patterns whose combinations are merged when
// the schema is compiled: 2^6 sets at most. Beyond it, a key that is no
// property and matches several patterns passes as it is (any), which makes
// keys looser, never stricter; real schemas have one or two patterns.
const maxComboPatterns = 6

// add compiles a pattern. JSON Schema patterns are ECMA-262 regular
// expressions; RE2 reads the common ones alike and refuses the rest
// (lookaround, backreferences), whose keys then count as any.
func (p *patterns) add(expr string, t *Type) {
	re, err := regexp.Compile(expr)
	if err != nil || len(p.list) == maxPatterns {
		p.broken = true
		return
	}
	p.list = append(p.list, pattern{expr, re, t})
}

// matchString returns the set of patterns key matches, one bit each.
func (p *patterns) matchString(key string) uint64 {
	var m uint64
	for i := range p.list {
		if p.list[i].re.MatchString(key) {
			m |= 1 << i
		}
	}
	return m
}

// match is matchString for a key in JSON text, without escapes.
func (p *patterns) match(key []byte) uint64 {
	var m uint64
	for i := range p.list {
		if p.list[i].re.Match(key) {
			m |= 1 << i
		}
	}
	return m
}

// join is the patterns of a merged object type: both sides' apply.
func (p *patterns) join(q *patterns) *patterns {
	switch {
	case p == nil:
		return q
	case q == nil:
		return p
	}
	j := &patterns{broken: p.broken || q.broken}
	for _, l := range [][]pattern{p.list, q.list} {
		for _, e := range l {
			j.add(e.expr, e.t)
		}
	}
	return j
}

// field is Type.field for a type with patterns.
func (p *patterns) field(t *Type, key string) *Type {
	if pt, ok := t.prop(key); ok {
		return pt // its patterns merged in when compiled
	}
	return p.other(t, p.matchString(key))
}

// fieldBytes is field for a key in JSON text, without escapes.
func (p *patterns) fieldBytes(t *Type, key []byte) *Type {
	if pt, ok := t.propBytes(key); ok {
		return pt
	}
	return p.other(t, p.match(key))
}

// other is the type of a key that is no property of t and matches the
// patterns m.
func (p *patterns) other(t *Type, m uint64) *Type {
	switch {
	case m == 0 && p.broken:
		return anyType // the broken pattern may claim it
	case m == 0:
		return t.rest
	case m&(m-1) == 0:
		return p.list[bits.TrailingZeros64(m)].t
	}
	if f, ok := p.combos[m]; ok {
		return f
	}
	return anyType
}

// maxNameLen bounds a type's canonical name. A type that names another
// twice at each level (a union of an array and a dictionary of the next
// type, say) would double its name at each: past the bound the name is
// cut, and the type no longer exact (its name no longer says all of it),
// so that compiling a schema stays linear in its size.
const maxNameLen = 512

// composeName is a name made of parts, cut at maxNameLen bytes; whole is
// false where it was cut.
func composeName(parts ...string) (name string, whole bool) {
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	if n <= maxNameLen {
		return strings.Join(parts, ""), true
	}
	var b strings.Builder
	for _, p := range parts {
		if b.Len()+len(p) > maxNameLen {
			b.WriteString(cut(p, maxNameLen-b.Len()))
			break
		}
		b.WriteString(p)
	}
	return b.String() + "...", false
}

// joinNames is strings.Join, stopping once past maxNameLen bytes: its
// result goes to composeName, which cuts it there.
func joinNames(names []string, sep string) string {
	var b strings.Builder
	for i, n := range names {
		if b.Len() > maxNameLen {
			break
		}
		if i > 0 {
			b.WriteString(sep)
		}
		b.WriteString(cut(n, maxNameLen+1))
	}
	return b.String()
}
