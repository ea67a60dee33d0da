package coerce

import "sort"

// These accessors read what a JSON Schema declared beyond the kinds: the
// keywords coercion uses only to choose a union's member, and that a
// validator (or a model reading the feedback of Schema.Feedback) needs.

// Enum returns the values a type allows (a JSON Schema's enum or const),
// as the schema decodes them, or nil if it allows any value of its kind.
// The slice is shared: do not modify it.
func (t *Type) Enum() []any {
	if t == nil {
		return nil
	}
	return t.enum
}

// Required returns the names of the properties an object type requires,
// in the order the schema lists them; nil for other types. The slice is
// shared: do not modify it.
func (t *Type) Required() []string {
	if t == nil || t.kind != typeObject {
		return nil
	}
	return t.required
}

// Closed reports whether an object type allows no properties beyond those
// it names or matches by pattern (additionalProperties: false).
func (t *Type) Closed() bool {
	return t != nil && t.kind == typeObject && t.closed
}

// Properties returns the names of the properties an object type declares,
// sorted; nil for other types.
func (t *Type) Properties() []string {
	if t == nil || t.kind != typeObject || len(t.props) == 0 {
		return nil
	}
	names := make([]string, 0, len(t.props))
	for name := range t.props {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}
