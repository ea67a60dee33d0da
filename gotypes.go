package coerce

import (
	"encoding"
	"encoding/json"
	"reflect"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coerce-go/coerce/internal/godecode"
)

// SchemaFor builds the schema of the Go struct type T (or a pointer to
// it) with the default Options: the parameters are T's fields. See
// Options.SchemaForType.
//
//	schema, err := coerce.SchemaFor[SendInput]()
func SchemaFor[T any]() (*Schema, error) { return Options{}.SchemaForType(reflect.TypeFor[T]()) }

// SchemaForType is SchemaFor for a reflect.Type, with the default Options.
func SchemaForType(t reflect.Type) (*Schema, error) { return Options{}.SchemaForType(t) }

// SchemaForType builds the schema of a Go struct type (or a pointer to
// one), for engines whose nodes take typed inputs. Each parameter is a
// field, declared with the shape encoding/json
// decodes into the field, the shape Unmarshal converts to (see Unmarshal for
// the rules): fields are named and skipped as encoding/json does (json tags,
// "-", embedded structs promoting their fields), a pointer is nullable, a
// field with the ",string" option is a string, and so are types that decode
// from text (encoding.TextUnmarshaler, time.Time); json.RawMessage,
// interfaces and types with their own UnmarshalJSON are any, except a struct
// whose exported fields carry json tags, which is declared by its fields.
func (o Options) SchemaForType(t reflect.Type) (*Schema, error) {
	rt := t
	for rt != nil && rt.Kind() == reflect.Pointer {
		rt = rt.Elem()
	}
	if rt == nil || rt.Kind() != reflect.Struct {
		return nil, &Error{Value: t, Err: ErrKind, Detail: "SchemaForType wants a struct type"}
	}
	return newSchema(goType(rt), o), nil
}

// Why derive from the decoding side: SchemaForType and Unmarshal both
// serve code that decodes arguments into a Go type with encoding/json, so
// the shape that matters is the one the decoder accepts. A type with its
// own MarshalJSON but no UnmarshalJSON decodes by its kind and fields, and
// is declared so; a type with UnmarshalJSON decides alone what it accepts.

var (
	jsonUnmarshalerType = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
	jsonNumberType      = reflect.TypeFor[json.Number]()
	timeType            = reflect.TypeFor[time.Time]()

	// numberOrString is json.Number: encoding/json decodes a JSON number
	// into it, and a string too when the string holds a valid number.
	numberOrString = newUnion([]*Type{numberType, stringType})
	// bytesType is []byte: base64 text, or an array of numbers, which
	// encoding/json also decodes into a byte slice.
	bytesType = newUnion([]*Type{stringType, newList(goIntType)})
)

// The cache of the Types of Go types, for Unmarshal and SchemaForType:
// derived once per reflect.Type, then read without a lock. Programs have a
// fixed set of types, but reflect.StructOf can make new ones without end,
// so at most maxCachedGoTypes are kept; the others are derived each time.
const maxCachedGoTypes = 4096

var goTypeCache struct {
	m sync.Map // reflect.Type -> *Type
	n atomic.Int32
}

// goType returns the Type of values that encoding/json decodes into rt.
// The Type is shared: it must not change.
func goType(rt reflect.Type) *Type {
	if t, ok := goTypeCache.m.Load(rt); ok {
		return t.(*Type)
	}
	b := goTypes{seen: map[reflect.Type]*Type{}}
	t := b.typeOf(rt)
	seal(t)
	if goTypeCache.n.Load() < maxCachedGoTypes {
		if prev, loaded := goTypeCache.m.LoadOrStore(rt, t); loaded {
			return prev.(*Type)
		}
		goTypeCache.n.Add(1)
	}
	return t
}

// goTypes derives Types from Go types. Struct, slice, array and map types
// are derived once each: a placeholder stands for one while its parts are
// derived, so that recursive types (type Node struct{ Next *Node },
// type T []T, type M map[string]M) end at the placeholder, which the
// finished type is then copied into, as for recursive $refs.
type goTypes struct {
	seen map[reflect.Type]*Type
}

func (b *goTypes) typeOf(rt reflect.Type) *Type {
	if t, ok := b.seen[rt]; ok {
		return t
	}
	if rt.Kind() == reflect.Interface {
		return anyType // whatever the JSON is, or an error that coercion cannot help
	}
	// The types whose JSON form is known although they decode themselves.
	switch {
	case rt == timeType:
		return stringType // RFC 3339 text
	case rt == jsonNumberType:
		return numberOrString
	case rt.PkgPath() == "math/big" && rt.Name() == "Int":
		return goIntType // its UnmarshalJSON reads integer text, of any size
	}
	// As encoding/json decides (see its indirect): UnmarshalJSON first,
	// then UnmarshalText, on the pointer so that both receivers count.
	pt := reflect.PointerTo(rt)
	switch {
	case pt.Implements(jsonUnmarshalerType):
		if rt.Kind() == reflect.Struct && hasTaggedFields(rt) {
			// The "type Alias T" idiom: UnmarshalJSON adjusts what
			// encoding/json decodes into T's own fields.
			return b.structType(rt)
		}
		return anyType // its JSON can be anything (json.RawMessage is one)
	case pt.Implements(textUnmarshalerType):
		return stringType
	}
	switch rt.Kind() {
	case reflect.Pointer:
		// Follow a chain of pointers to what it points to; a chain that
		// comes back to itself (type P *P) points to nothing JSON can hold.
		elem := rt.Elem()
		for visited := map[reflect.Type]bool{rt: true}; elem.Kind() == reflect.Pointer; elem = elem.Elem() {
			if visited[elem] {
				return anyType
			}
			visited[elem] = true
		}
		return newUnion([]*Type{b.typeOf(elem), nullType})
	case reflect.String:
		return stringType
	case reflect.Bool:
		return booleanType
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return goIntType
	case reflect.Float32, reflect.Float64:
		return numberType
	case reflect.Slice:
		if rt.Elem().Kind() == reflect.Uint8 {
			return bytesType
		}
		return b.derive(rt, "array", func() *Type { return newList(b.typeOf(rt.Elem())) })
	case reflect.Array:
		return b.derive(rt, "array", func() *Type { return newList(b.typeOf(rt.Elem())) })
	case reflect.Map:
		if !mapKeyDecodes(rt.Key()) {
			return anyType // encoding/json decodes no object into it
		}
		// Keys are strings in JSON; whether one parses as the key type is
		// for the decoder to say.
		return b.derive(rt, "object", func() *Type { return newDict(b.typeOf(rt.Elem())) })
	case reflect.Struct:
		return b.structType(rt)
	}
	return anyType // channels, funcs and complex numbers cannot be JSON at all
}

// derive builds the Type of a slice, array or map type once, with a
// placeholder standing for it meanwhile.
func (b *goTypes) derive(rt reflect.Type, kind string, build func() *Type) *Type {
	name := rt.Name()
	if name == "" {
		name = kind
	}
	placeholder := &Type{name: name}
	b.seen[rt] = placeholder
	*placeholder = *build()
	return placeholder
}

func (b *goTypes) structType(rt reflect.Type) *Type {
	if t, ok := b.seen[rt]; ok {
		return t
	}
	name := rt.Name()
	if name == "" {
		name = "object"
	}
	placeholder := &Type{name: name}
	b.seen[rt] = placeholder
	props := b.fields(rt)
	*placeholder = Type{kind: typeObject, props: props, name: name, goStruct: true}
	return placeholder
}

// mapKeyDecodes reports whether encoding/json decodes an object into a
// map with key type kt: string and integer kinds, and text unmarshalers.
func mapKeyDecodes(kt reflect.Type) bool {
	switch kt.Kind() {
	case reflect.String, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return true
	}
	return reflect.PointerTo(kt).Implements(textUnmarshalerType)
}

// hasTaggedFields reports whether struct type rt has an exported field
// with a json tag, the mark of a struct that is meant to be read field by
// field even when it has its own UnmarshalJSON.
func hasTaggedFields(rt reflect.Type) bool {
	for i := range rt.NumField() {
		f := rt.Field(i)
		if tag, ok := f.Tag.Lookup("json"); ok && tag != "-" && f.IsExported() {
			return true
		}
	}
	return false
}

// fields returns the JSON fields of struct type rt as encoding/json finds
// them (its typeFields), by the one reading of them that Unmarshal's
// decoder uses too (godecode.Fields): embedded structs without a name in
// their tag promote their fields, breadth first; of the fields with one
// name the shallowest wins, and among equally shallow ones the only tagged
// one, else none. A field with the ",string" option is a string.
func (b *goTypes) fields(rt reflect.Type) map[string]*Type {
	props := map[string]*Type{}
	for _, f := range godecode.Fields(rt) {
		t := b.typeOf(f.Type)
		if f.Quoted {
			t = stringType
		}
		props[f.Name] = t
	}
	return props
}
