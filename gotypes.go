package coerce

import (
	"encoding"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
)

// SchemaFromStruct builds a schema from a Go struct type with the default
// Options. See Options.SchemaFromStruct.
func SchemaFromStruct(v any) (*Schema, error) { return Options{}.SchemaFromStruct(v) }

// SchemaFromStruct builds a schema from a Go struct type, for engines whose
// nodes take typed inputs: v is a struct, a pointer to one, or its
// reflect.Type. Fields are named and skipped as encoding/json does (json
// tags, "-", embedded structs promoting their fields); a pointer is
// nullable; a field with the ",string" option is a string; json.RawMessage,
// interfaces and types with their own MarshalJSON are any, and types that
// marshal as text (encoding.TextMarshaler) are strings.
func (o Options) SchemaFromStruct(v any) (*Schema, error) {
	rt, ok := v.(reflect.Type)
	if !ok {
		rt = reflect.TypeOf(v)
	}
	for rt != nil && rt.Kind() == reflect.Pointer {
		rt = rt.Elem()
	}
	if rt == nil || rt.Kind() != reflect.Struct {
		return nil, &Error{Value: v, Err: ErrKind, Detail: "SchemaFromStruct wants a struct type"}
	}
	b := structTypes{seen: map[reflect.Type]*Type{}}
	return newSchema(b.typeOf(rt), o), nil
}

var (
	jsonMarshalerType = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
)

// structTypes derives Types from Go types, once per struct type, with a
// placeholder for recursive structs as for recursive $refs.
type structTypes struct {
	seen map[reflect.Type]*Type
}

func (b *structTypes) typeOf(rt reflect.Type) *Type {
	switch {
	case rt == rawMessageType:
		return anyType
	case rt.Implements(jsonMarshalerType) || reflect.PointerTo(rt).Implements(jsonMarshalerType):
		return anyType // its JSON can be anything
	case rt.Implements(textMarshalerType) || reflect.PointerTo(rt).Implements(textMarshalerType):
		return stringType
	}
	switch rt.Kind() {
	case reflect.Pointer:
		return newUnion([]*Type{b.typeOf(rt.Elem()), nullType})
	case reflect.String:
		return stringType
	case reflect.Bool:
		return booleanType
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return integerType
	case reflect.Float32, reflect.Float64:
		return numberType
	case reflect.Slice:
		if rt.Elem().Kind() == reflect.Uint8 {
			return stringType // encoding/json writes []byte as base64 text
		}
		return newList(b.typeOf(rt.Elem()))
	case reflect.Array:
		return newList(b.typeOf(rt.Elem()))
	case reflect.Map:
		return newDict(b.typeOf(rt.Elem())) // encoding/json writes every key type it accepts as a string
	case reflect.Struct:
		return b.structType(rt)
	}
	return anyType // interfaces; channels and funcs cannot be JSON at all
}

func (b *structTypes) structType(rt reflect.Type) *Type {
	if t, ok := b.seen[rt]; ok {
		return t
	}
	placeholder := &Type{name: "object"}
	b.seen[rt] = placeholder
	props := b.fields(rt)
	name := rt.Name()
	if name == "" {
		name = "object"
	}
	*placeholder = Type{kind: typeObject, props: props, name: name}
	return placeholder
}

// fields returns the JSON fields of struct type rt by encoding/json's
// rules: embedded structs without a name promote their fields, breadth
// first; of the fields with one name the shallowest wins, and among equally
// shallow ones the only tagged one, else none.
func (b *structTypes) fields(rt reflect.Type) map[string]*Type {
	type field struct {
		depth  int
		tagged bool
		t      *Type
	}
	byName := map[string][]field{}
	var order []string
	level := []reflect.Type{rt}
	visited := map[reflect.Type]bool{}
	for depth := 0; len(level) > 0; depth++ {
		var next []reflect.Type
		for _, st := range level {
			if visited[st] {
				continue
			}
			visited[st] = true
			for i := range st.NumField() {
				f := st.Field(i)
				tag := f.Tag.Get("json")
				if tag == "-" {
					continue
				}
				name, opts, _ := strings.Cut(tag, ",")
				if f.Anonymous && name == "" {
					ft := f.Type
					if ft.Kind() == reflect.Pointer {
						ft = ft.Elem()
					}
					if ft.Kind() == reflect.Struct {
						next = append(next, ft)
						continue
					}
				}
				if !f.IsExported() {
					continue
				}
				tagged := name != ""
				if !tagged {
					name = f.Name
				}
				t := b.typeOf(f.Type)
				if quoted(f.Type, opts) {
					t = stringType
				}
				if byName[name] == nil {
					order = append(order, name)
				}
				byName[name] = append(byName[name], field{depth, tagged, t})
			}
		}
		level = next
	}
	props := make(map[string]*Type, len(order))
	for _, name := range order {
		fs := byName[name] // in breadth-first order: the shallowest come first
		var winners []field
		for _, f := range fs {
			if f.depth == fs[0].depth {
				winners = append(winners, f)
			}
		}
		if len(winners) > 1 {
			tagged := slices.DeleteFunc(winners, func(f field) bool { return !f.tagged })
			if len(tagged) != 1 {
				continue // ambiguous: encoding/json writes neither
			}
			winners = tagged
		}
		props[name] = winners[0].t
	}
	return props
}

// quoted reports whether the ",string" option applies: encoding/json honours
// it for strings, numbers and booleans (and pointers to them) only.
func quoted(t reflect.Type, opts string) bool {
	if !slices.Contains(strings.Split(opts, ","), "string") {
		return false
	}
	if t.Name() == "" && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Bool, reflect.String, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64:
		return true
	}
	return false
}
