package coerce

import (
	"encoding"
	"encoding/json"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/coerce-go/coerce/internal/jsonwire"
)

// kind is the JSON kind of a Go value, as encoding/json would write it.
type kind uint8

const (
	kindInvalid kind = iota // channels, funcs, complex numbers: no JSON form
	kindNull
	kindBool
	kindNumber
	kindString
	kindArray
	kindObject
	kindRaw // json.RawMessage: JSON text whose kind is whatever it holds
)

// kindOf is allocation-free for the types encoding/json decodes into and for
// Go's scalar types; other values are classified by reflection.
func kindOf(v any) kind {
	switch v.(type) {
	case nil:
		return kindNull
	case string:
		return kindString
	case bool:
		return kindBool
	case float64, json.Number, int, int64, float32, int32, int16, int8, uint, uint64, uint32, uint16, uint8, uintptr:
		return kindNumber
	case map[string]any:
		return kindObject
	case []any:
		return kindArray
	case json.RawMessage:
		return kindRaw
	}
	return reflectKind(reflect.ValueOf(v))
}

// heldKind is the kind of the JSON value v stands for, as a union
// chooses its member by it: kindOf, but for a json.RawMessage, which
// counts as the value its text holds, the kind of that value.
func heldKind(v any) kind {
	if raw, ok := v.(json.RawMessage); ok {
		if i := jsonwire.Space(raw, 0); i < len(raw) {
			return tokenKind(raw[i])
		}
	}
	return kindOf(v)
}

var (
	rawMessageType    = reflect.TypeFor[json.RawMessage]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
)

// objectKey reports whether encoding/json writes a map with keys of type k
// as an object: string kinds, TextMarshalers and integer kinds.
func objectKey(k reflect.Type) bool {
	switch k.Kind() {
	case reflect.String,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return true
	}
	return k.Implements(textMarshalerType)
}

// keyString is the object key encoding/json writes for the map key k, of
// a type objectKey accepts; false if its MarshalText fails.
func keyString(k reflect.Value) (string, bool) {
	switch k.Kind() {
	case reflect.String:
		return k.String(), true
	}
	if tm, ok := k.Interface().(encoding.TextMarshaler); ok {
		if k.Kind() == reflect.Pointer && k.IsNil() {
			return "", true
		}
		b, err := tm.MarshalText()
		return string(b), err == nil
	}
	switch k.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(k.Int(), 10), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return strconv.FormatUint(k.Uint(), 10), true
	}
	return "", false
}

func reflectKind(rv reflect.Value) kind {
	for rv.Kind() == reflect.Pointer || rv.Kind() == reflect.Interface {
		if rv.IsNil() {
			return kindNull
		}
		rv = rv.Elem()
	}
	switch rv.Kind() {
	case reflect.String:
		return kindString
	case reflect.Bool:
		return kindBool
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64:
		return kindNumber
	case reflect.Map:
		if objectKey(rv.Type().Key()) {
			return kindObject
		}
	case reflect.Struct:
		return kindObject
	case reflect.Slice:
		if rv.Type() == rawMessageType {
			return kindRaw
		}
		return kindArray
	case reflect.Array:
		return kindArray
	}
	return kindInvalid
}

// typeKind is what a Type declares.
type typeKind uint8

const (
	typeAny typeKind = iota
	typeNull
	typeBoolean
	typeInteger
	typeNumber
	typeString
	typeArray
	typeObject
	typeUnion
)

// valueKind is the kind of value a member of this type kind holds, used to
// try a union's members of the value's own kind first.
func (k typeKind) valueKind() kind {
	switch k {
	case typeNull:
		return kindNull
	case typeBoolean:
		return kindBool
	case typeInteger, typeNumber:
		return kindNumber
	case typeString:
		return kindString
	case typeArray:
		return kindArray
	case typeObject:
		return kindObject
	}
	return kindInvalid
}

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
	keyed    bool     // typeObject: required, closed or a property with enum is set
	plainInt bool     // typeInteger: in JSON text, only digits fit (a Go integer's decoder wants them)

	// Derived when the type is built or its schema compiled, to fit
	// conforming values quickly; the zero values mean "work it out".
	scalars kindSet           // typeUnion: the kinds its plain scalar members take, if all are such
	index   *propIndex        // typeObject: props, by a hash cheaper than the map's (see seal)
	names   *nameIndex        // typeObject with props: the other spellings of their names (see names.go)
	aliases map[string]string // typeObject: x-aliases of its properties, alias → property
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
	list  []propSlot // the properties, by name

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
	w uint64
	t *Type // nil: an empty slot
}

type mediumSlot struct {
	w, w2 uint64
	t     *Type // nil: an empty slot
}

// mediumProp is the property whose name is the medium key of words w and
// w2 (the second zero above the key's end), if there is one.
func (ix *propIndex) mediumProp(w, w2 uint64) (*Type, bool) {
	mask := uint64(len(ix.medium) - 1)
	for i := ((w ^ w2*0xbf58476d1ce4e5b9) * ix.mediumMul) >> ix.mediumShift; ; i = (i + 1) & mask {
		switch s := &ix.medium[i]; {
		case s.t == nil:
			return nil, false
		case s.w == w && s.w2 == w2:
			return s.t, true
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
func (ix *propIndex) buildShort(props map[string]*Type) {
	var slots []shortSlot
	for name, t := range props {
		if w, ok := shortWord(name); ok {
			slots = append(slots, shortSlot{w, t})
		}
	}
	ix.short, ix.shortMul, ix.shortShift = placeAll(slots, func(s shortSlot) uint64 { return s.w })
}

// buildMedium fills the medium table of ix from props as buildShort does
// the short one; it stays nil when no name is of medium length.
func (ix *propIndex) buildMedium(props map[string]*Type) {
	var slots []mediumSlot
	for name, t := range props {
		if w, w2, ok := mediumWords(name); ok {
			slots = append(slots, mediumSlot{w, w2, t})
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
	var visit func(t *Type)
	visit = func(t *Type) {
		if t == nil || seen[t] {
			return
		}
		seen[t] = true
		if len(t.props) > 0 && t.index == nil {
			t.index = newPropIndex(t.props)
			t.names = newNameIndex(t)
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
}

// newPropIndex indexes props, or returns nil for an empty map.
func newPropIndex(props map[string]*Type) *propIndex {
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
		ix.slots[i] = propSlot{h, name, t}
		ix.list = append(ix.list, propSlot{h, name, t})
	}
	slices.SortFunc(ix.list, func(a, b propSlot) int { return strings.Compare(a.name, b.name) })
	ix.buildShort(props)
	ix.buildMedium(props)
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

// knownBytes is known for a key as it stands in JSON text, unescaped.
func (t *Type) knownBytes(key []byte) bool {
	if _, ok := t.propBytes(key); ok {
		return true
	}
	return t.patterns != nil && t.patterns.match(key) != 0
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
	return &Type{kind: typeArray, elem: elem, name: "list[" + elem.name + "]", exact: elem.exact}
}

func newDict(value *Type) *Type {
	if anyish(value) {
		return objectType
	}
	return &Type{kind: typeObject, rest: value, name: "dict[string, " + value.name + "]", exact: value.exact}
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
	return &Type{kind: typeArray, prefix: items, elem: rest, name: "tuple[" + strings.Join(names, ", ") + "]", exact: exact}
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
	return &Type{kind: typeUnion, members: members, name: strings.Join(names, " | "), exact: exact, scalars: scalarKinds(members)}
}

// A kindSet is a set of the kinds of scalar values, as fitting tells
// them apart: a whole finite number is an integer, any finite one a number.
type kindSet uint8

const (
	setNull kindSet = 1 << iota
	setBool
	setInteger
	setNumber
	setString
)

// scalarKinds is the set of kinds the members take, if every member is a
// scalar type that any value of its kind fits; otherwise 0.
func scalarKinds(members []*Type) kindSet {
	var set kindSet
	for _, m := range members {
		switch {
		case m.kind == typeNull:
			set |= setNull
		case m.kind == typeBoolean:
			set |= setBool
		case m.kind == typeInteger && !m.plainInt:
			set |= setInteger
		case m.kind == typeNumber:
			set |= setInteger | setNumber
		case m.kind == typeString && m.enum == nil:
			// (A string enum's spelling takes more than the kind to tell:
			// a string is fitted to it, and respelled where it differs
			// only in case, as where the member stands alone.)
			set |= setString
		default:
			return 0
		}
	}
	return set
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
	if t.kind == typeUnion {
		return t.scalars
	}
	if t.plainInt || t.enum != nil && t.kind == typeString {
		return 0 // an integer's text, an enum's spelling: fit tells
	}
	return scalarSets[t.kind]
}

const allScalars = setNull | setBool | setInteger | setNumber | setString

var scalarSets = [...]kindSet{
	typeAny: allScalars, typeNull: setNull, typeBoolean: setBool, typeInteger: setInteger,
	typeNumber: setInteger | setNumber, typeString: setString, typeArray: 0, typeObject: 0, typeUnion: 0,
}

// quickKind is the kind of a decoded scalar, as a kindSet of one kind (an
// integer is also a number); 0 for any other value.
func quickKind(v any) kindSet {
	switch x := v.(type) {
	case string:
		return setString
	case bool:
		return setBool
	case float64:
		switch {
		case x != x || x-x != 0: // NaN or infinite: no JSON form
			return 0
		case x == float64(int64(x)):
			return setInteger | setNumber
		}
		return setNumber
	}
	return 0
}

// ParseType parses a declared type. Names are case-insensitive and spaces
// are ignored:
//
//	string, str                      integer, int (and Go's int8 ... uint64)
//	object, dict, map, mapping       number, float, double (and float32, float64)
//	array, list, tuple, set          boolean, bool
//	null, none, nil                  any, interface{} (and the empty string)
//
// Generic forms: list[T] (also set[T], tuple[T, ...], array[T]),
// tuple[A, B], []T, dict[str, T] (also mapping[str, T], map[str, T]),
// map[string]T, Optional[T], Union[A, B], A | B. Object keys are strings:
// another key type is an error, as are unknown names and malformed syntax.
// The error is an *Error wrapping ErrUnknownType or ErrSyntax.
func ParseType(expr string) (*Type, error) {
	if strings.TrimSpace(expr) == "" {
		return anyType, nil // no declaration: pass through
	}
	p := typeParser{src: expr}
	t := p.unionAt(0)
	if p.err == nil && p.peek() != 0 {
		p.fail(ErrSyntax, "unexpected "+p.rest())
	}
	if p.err != nil {
		return nil, p.err
	}
	return t, nil
}

// MustParseType is like ParseType but panics on error; it is meant for
// package-level variables initialised from constant expressions.
func MustParseType(expr string) *Type {
	t, err := ParseType(expr)
	if err != nil {
		panic(err)
	}
	return t
}

type typeParser struct {
	src string
	pos int
	err *Error
}

func (p *typeParser) fail(sentinel error, detail string) {
	if p.err == nil {
		if src := excerpt(p.src); detail != quote(src) {
			detail += " in " + quote(src)
		}
		p.err = &Error{Err: sentinel, Detail: detail}
	}
}

func quote(s string) string { return "\"" + s + "\"" }

// excerpt keeps error messages short however long the declaration.
func excerpt(s string) string {
	const max = 80
	if len(s) <= max {
		return s
	}
	return s[:max] + "..."
}

func (p *typeParser) skipSpace() {
	for p.pos < len(p.src) && (p.src[p.pos] == ' ' || p.src[p.pos] == '\t' || p.src[p.pos] == '\n' || p.src[p.pos] == '\r') {
		p.pos++
	}
}

// peek returns the next non-space byte, or 0 at the end.
func (p *typeParser) peek() byte {
	p.skipSpace()
	if p.pos < len(p.src) {
		return p.src[p.pos]
	}
	return 0
}

func (p *typeParser) rest() string {
	if p.pos >= len(p.src) {
		return "end"
	}
	return quote(excerpt(p.src[p.pos:]))
}

func (p *typeParser) accept(c byte) bool {
	if p.peek() == c {
		p.pos++
		return true
	}
	return false
}

func (p *typeParser) expect(c byte) {
	if !p.accept(c) {
		p.fail(ErrSyntax, "want "+quote(string(c))+", found "+p.rest())
	}
}

// ident reads a name, lowercased; "interface{}" counts as one name.
func (p *typeParser) ident() string {
	p.skipSpace()
	start := p.pos
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '.' || p.pos > start && c >= '0' && c <= '9' {
			p.pos++
			continue
		}
		break
	}
	name := strings.ToLower(p.src[start:p.pos])
	if name == "interface" && strings.HasPrefix(p.src[p.pos:], "{}") {
		p.pos += 2
		name = "any"
	}
	return strings.TrimPrefix(name, "typing.")
}

const maxTypeDepth = 100

func (p *typeParser) unionAt(depth int) *Type {
	alts := []*Type{p.term(depth)}
	for p.err == nil && p.accept('|') {
		alts = append(alts, p.term(depth))
	}
	if p.err != nil {
		return nil
	}
	return newUnion(alts)
}

// args parses "[A, B, ...]" after a generic name.
func (p *typeParser) args(depth int) []*Type {
	var list []*Type
	for p.err == nil {
		if p.peek() == '.' && strings.HasPrefix(p.src[p.pos:], "...") {
			p.pos += 3
			list = append(list, nil) // tuple[T, ...]
		} else {
			list = append(list, p.unionAt(depth+1))
		}
		if !p.accept(',') {
			break
		}
	}
	p.expect(']')
	return list
}

var simpleTypes = map[string]*Type{
	"string": stringType, "str": stringType,
	"object": objectType, "dict": objectType, "map": objectType, "mapping": objectType,
	"array": arrayType, "list": arrayType, "tuple": arrayType, "set": arrayType,
	"integer": integerType, "int": integerType,
	"int8": integerType, "int16": integerType, "int32": integerType, "int64": integerType,
	"uint": integerType, "uint8": integerType, "uint16": integerType, "uint32": integerType, "uint64": integerType,
	"number": numberType, "float": numberType, "double": numberType, "float32": numberType, "float64": numberType,
	"boolean": booleanType, "bool": booleanType,
	"null": nullType, "none": nullType, "nil": nullType,
	"any": anyType,
}

func (p *typeParser) term(depth int) *Type {
	if depth > maxTypeDepth {
		p.fail(ErrLimit, "nested too deeply")
		return nil
	}
	if p.accept('[') { // []T
		p.expect(']')
		if p.err != nil {
			return nil
		}
		elem := p.term(depth + 1)
		if p.err != nil {
			return nil
		}
		return newList(elem)
	}
	name := p.ident()
	if name == "" {
		p.fail(ErrSyntax, "want a type name, found "+p.rest())
		return nil
	}
	simple, known := simpleTypes[name]
	if !p.accept('[') {
		if !known {
			if _, generic := genericArity[name]; generic {
				p.fail(ErrSyntax, name+" needs type arguments")
			} else {
				p.fail(ErrUnknownType, quote(excerpt(name)))
			}
			return nil
		}
		return simple
	}
	if name == "map" && p.peek() != ']' && p.goMapAhead() { // map[string]T
		key := p.unionAt(depth + 1)
		p.expect(']')
		val := p.term(depth + 1)
		if p.err != nil {
			return nil
		}
		if key.kind != typeString {
			p.fail(ErrUnknownType, "object keys must be strings, not "+key.name)
			return nil
		}
		return newDict(val)
	}
	args := p.args(depth)
	if p.err != nil {
		return nil
	}
	want, generic := genericArity[name]
	if !generic {
		if known {
			p.fail(ErrSyntax, name+" takes no type arguments")
		} else {
			p.fail(ErrUnknownType, quote(excerpt(name)))
		}
		return nil
	}
	for i, a := range args {
		if a == nil && !(name == "tuple" && i == 1 && len(args) == 2) {
			p.fail(ErrSyntax, "\"...\" only as tuple[T, ...]")
			return nil
		}
	}
	if want > 0 && len(args) != want {
		p.fail(ErrSyntax, name+" takes "+[]string{"", "one type argument", "two type arguments"}[want])
		return nil
	}
	if base, ok := genericBase[name]; ok {
		simple = base
	}
	switch simple {
	case arrayType:
		if name == "tuple" {
			if len(args) == 2 && args[1] == nil {
				return newList(args[0])
			}
			return newTuple(args, nil)
		}
		return newList(args[0])
	case objectType:
		if args[0].kind != typeString {
			p.fail(ErrUnknownType, "object keys must be strings, not "+args[0].name)
			return nil
		}
		return newDict(args[1])
	}
	if name == "optional" {
		return newUnion([]*Type{args[0], nullType})
	}
	return newUnion(args) // union
}

// genericBase gives the kind of the generic names that are not type names
// on their own: the collection types of Python's typing module.
var genericBase = map[string]*Type{
	"frozenset": arrayType, "sequence": arrayType, "iterable": arrayType, "collection": arrayType,
	"mutablesequence": arrayType, "abstractset": arrayType, "mutableset": arrayType,
	"mutablemapping": objectType,
}

// genericArity: the names that take type arguments, and how many (0: any
// number, at least one).
var genericArity = map[string]int{
	"list": 1, "set": 1, "array": 1, "frozenset": 1, "sequence": 1, "tuple": 0,
	"iterable": 1, "collection": 1, "mutablesequence": 1, "abstractset": 1, "mutableset": 1,
	"dict": 2, "mapping": 2, "map": 2, "object": 2, "mutablemapping": 2,
	"optional": 1, "union": 0,
}

// goMapAhead tells map[K]V (Go) from map[K, V] (Python-like): a Go map's
// key is followed by ']' and then a value type.
func (p *typeParser) goMapAhead() bool {
	depth := 0
	for i := p.pos; i < len(p.src); i++ {
		switch p.src[i] {
		case '[':
			depth++
		case ']':
			if depth == 0 {
				rest := strings.TrimSpace(p.src[i+1:])
				return rest != "" && rest[0] != '|' && rest[0] != ',' && rest[0] != ']'
			}
			depth--
		case ',':
			if depth == 0 {
				return false
			}
		}
	}
	return false
}

// The cache of declared types for ToDeclared. Declarations come from code
// and configuration, so a program has few of them; but they may also come
// from input, so the cache is bounded by what it keeps alive: at most
// maxCachedTypes declarations of at most maxCachedTypeBytes bytes in all.
// A parsed Type is about as large as its declaration, so bounding the text
// bounds the memory. Beyond the bounds, declarations are parsed on every
// call. It only grows, which is what sync.Map is for.
const (
	maxCachedTypes     = 4096
	maxCachedTypeBytes = 1 << 20
)

var typeCache struct {
	m            sync.Map // string → *Type
	count, bytes atomic.Int64
}

func cachedType(expr string) (*Type, error) {
	if t, ok := typeCache.m.Load(expr); ok {
		return t.(*Type), nil
	}
	t, err := ParseType(expr)
	if err != nil {
		return nil, err
	}
	// Reserve room first, so that concurrent misses cannot overshoot.
	n, size := typeCache.count.Add(1), typeCache.bytes.Add(int64(len(expr)))
	if n > maxCachedTypes || size > maxCachedTypeBytes {
		typeCache.count.Add(-1)
		typeCache.bytes.Add(-int64(len(expr)))
		return t, nil
	}
	if _, loaded := typeCache.m.LoadOrStore(strings.Clone(expr), t); loaded {
		typeCache.count.Add(-1)
		typeCache.bytes.Add(-int64(len(expr)))
	}
	return t, nil
}
