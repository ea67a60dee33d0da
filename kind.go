package coerce

// Kinds, the four ways this package names what a value is:
//
//   - Kind, public: the JSON kind of a value or type, as Change and
//     Type.Kind report it.
//   - kind: the JSON kind of a Go value as encoding/json would write it
//     (kindOf), of a token of JSON text (tokenKind), or of the value a
//     json.RawMessage holds (heldKind).
//   - typeKind: what a Type declares.
//   - kindSet: the scalar kinds a type takes as they are, for the quick
//     fit of scalars (quickKind, Type.quickAccepts).

import (
	"encoding"
	"encoding/json"
	"reflect"
	"strconv"

	"github.com/coerce-go/coerce/internal/jsonwire"
)

// kind is the JSON kind of a Go value, as encoding/json would write it.
type kind uint8

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

// valueKind is the kind of value a member of this type kind holds, used to
// try a union's members of the value's own kind first.
func (k typeKind) valueKind() kind {
	if int(k) < len(valueKinds) {
		return valueKinds[k]
	}
	return kindInvalid
}

// valueKinds is valueKind's table: a union's members are looked up by it
// for every value fitted to the union, where a switch costs several
// branches.
var valueKinds = [...]kind{
	typeAny: kindInvalid, typeNull: kindNull, typeBoolean: kindBool, typeInteger: kindNumber,
	typeNumber: kindNumber, typeString: kindString, typeArray: kindArray, typeObject: kindObject,
	typeUnion: kindInvalid,
}

// A kindSet is a set of the kinds of scalar values, as fitting tells
// them apart: a whole finite number is an integer, any finite one a number.
type kindSet uint8

// scalarKinds is the set of kinds the members take, if every member is a
// scalar type that any value of its kind fits; otherwise 0.
func scalarKinds(members []*Type) kindSet {
	var set kindSet
	for _, m := range members {
		switch {
		case m.enum != nil:
			// A string enum's spelling takes more than the kind to tell
			// (a string is fitted to it, and respelled where it differs
			// only in case, as where the member stands alone), and in
			// check mode any enum its membership.
			return 0
		case m.kind == typeNull:
			set |= setNull
		case m.kind == typeBoolean:
			set |= setBool
		case m.kind == typeInteger && !m.plainInt:
			set |= setInteger
		case m.kind == typeNumber:
			set |= setInteger | setNumber
		case m.kind == typeString:
			set |= setString
		default:
			return 0
		}
	}
	return set
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

// A Kind is what a Type declares, or the JSON kind of a value found.
type Kind uint8

// String returns the kind's name as JSON Schema spells it: "null",
// "boolean", "integer", "number", "string", "array", "object", and "any",
// "union" or "invalid".
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// publicKind is the Kind of a value's JSON kind.
func (k kind) public() Kind {
	switch k {
	case kindNull:
		return Null
	case kindBool:
		return Boolean
	case kindNumber:
		return Number
	case kindString:
		return String
	case kindArray:
		return Array
	case kindObject:
		return Object
	case kindRaw:
		return Any
	}
	return Invalid
}

// matchesKind reports whether a member of type kind tk can hold a value of
// kind k as it is.
func matchesKind(tk typeKind, k kind) bool {
	return tk.valueKind() == k || tk == typeAny
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

const (
	setNull kindSet = 1 << iota
	setBool
	setInteger
	setNumber
	setString
)

const (
	Invalid Kind = iota // no JSON form: channels, funcs, complex numbers
	Any                 // declares nothing: every value conforms
	Null
	Boolean
	Integer // declared only; a value found is a Number
	Number
	String
	Array
	Object
	Union // declared only: see Type.Members
)
