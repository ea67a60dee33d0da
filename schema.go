package coerce

import "errors"

// A Schema maps parameter names to declared types. Compile it once; it is
// immutable and safe for concurrent use.
type Schema struct {
	root *Type
	opts Options
}

// ParseSchema compiles a JSON Schema (the input schema of a tool) with the
// default Options. TEMPORARY stub.
func ParseSchema(jsonSchema []byte) (*Schema, error) { return Options{}.ParseSchema(jsonSchema) }

// ParseSchema compiles a JSON Schema. TEMPORARY stub.
func (o Options) ParseSchema(jsonSchema []byte) (*Schema, error) {
	return nil, errors.New("coerce: ParseSchema not implemented yet")
}

// SchemaFromTypes builds a schema from declared parameter types, such as a
// workflow node's {"path_params": "str", "items": "list[dict]"}.
func SchemaFromTypes(params map[string]string) (*Schema, error) {
	return Options{}.SchemaFromTypes(params)
}

// SchemaFromTypes: TEMPORARY stub.
func (o Options) SchemaFromTypes(params map[string]string) (*Schema, error) {
	return nil, errors.New("coerce: SchemaFromTypes not implemented yet")
}

// SchemaFromStruct builds a schema from a Go struct type (v is a struct, a
// pointer to one, or a reflect.Type). TEMPORARY stub.
func SchemaFromStruct(v any) (*Schema, error) { return Options{}.SchemaFromStruct(v) }

// SchemaFromStruct: TEMPORARY stub.
func (o Options) SchemaFromStruct(v any) (*Schema, error) {
	return nil, errors.New("coerce: SchemaFromStruct not implemented yet")
}

// Lookup returns the declared type of a parameter.
func (s *Schema) Lookup(param string) (*Type, bool) { return nil, false }

// Type returns the type of the whole argument set: an object type.
func (s *Schema) Type() *Type { return s.root }

// Coerce converts each known parameter of args to its declared type.
// TEMPORARY: returns args unchanged.
func (s *Schema) Coerce(args map[string]any) (map[string]any, error) { return args, nil }

// CoerceJSON is Coerce on the JSON text of an argument object.
// TEMPORARY: returns args unchanged.
func (s *Schema) CoerceJSON(args []byte) ([]byte, error) { return args, nil }
