package coerce

import "slices"

// The rule of placeholders, beside the rule of nulls (names.go): "", {} or
// [] given for a parameter that is not required, and that its type
// rejects, is removed as null is. Models send them where they mean "not
// given" (GPT-5.x and DeepSeek fill every optional parameter): a limit of
// "" for an integer, filters of {} for an object that requires its keys.
// A placeholder the type takes stays ("" for a plain string, {} for an
// object that requires nothing, [] for any array), and so does a required
// one, to fail as it did, and "" where an object or array is declared
// (empty JSON text, an error). Like the rule of nulls, it acts on the
// parameters only (KeepNulls turns both off), and not on a Go struct's
// fields.

// An absence is what a parameter's value says of its being given: given,
// or one of the ways models write "not given".
type absence uint8

const (
	given    absence = iota
	isNull           // null
	isEmptyS         // ""
	isEmptyO         // {}
	isEmptyA         // []
)

// absenceOf is the absence of a Go value.
func absenceOf(v any) absence {
	switch x := v.(type) {
	case nil:
		return isNull
	case string:
		if x == "" {
			return isEmptyS
		}
	case map[string]any:
		if len(x) == 0 {
			return isEmptyO
		}
	case []any:
		if len(x) == 0 {
			return isEmptyA
		}
	}
	return given
}

// absenceOfText is the absence of the JSON value that starts at data[i],
// read from its first bytes: null, "", or an object or array with nothing
// but space inside.
func absenceOfText(data []byte, i int) absence {
	if i >= len(data) {
		return given
	}
	var a absence
	var end byte
	switch data[i] {
	case 'n':
		return isNull
	case '"':
		if i+1 < len(data) && data[i+1] == '"' {
			return isEmptyS
		}
		return given
	case '{':
		a, end = isEmptyO, '}'
	case '[':
		a, end = isEmptyA, ']'
	default:
		return given
	}
	for j := i + 1; j < len(data); j++ {
		switch data[j] {
		case ' ', '\t', '\n', '\r':
		case end:
			return a
		default:
			return given
		}
	}
	return given
}

// absences is a set of absences.
type absences uint8

// in reports whether a is in the set.
func (a absence) in(s absences) bool { return s&(1<<a) != 0 }

// sealPlaceholders sets, in the index of object type t, each property's
// placeholders: those that fit its type as they are but go by the rule of
// placeholders all the same (see propIndex). Whether a placeholder fits,
// and whether Check refuses it, depends on no option, so the set is the
// type's, shared by every Schema and Options that use it; the options
// that turn the rule off are asked where a value is one of them.
func sealPlaceholders(t *Type) {
	if t.goStruct {
		return // the rule acts on no Go struct's fields
	}
	ix := t.index
	for i := range ix.list {
		p := &ix.list[i]
		if slices.Contains(t.required, p.name) {
			continue
		}
		for _, a := range []absence{isEmptyS, isEmptyO, isEmptyA} {
			ph := a.placeholder()
			if a.standsFor(p.t) && p.t.Conforms(ph) && findings(&Options{}, p.t, ph, 1, 0) != nil {
				p.ph |= 1 << a
			}
		}
	}
}

// placeholder is the value an absence stands for.
func (a absence) placeholder() any {
	switch a {
	case isEmptyS:
		return ""
	case isEmptyO:
		return map[string]any{}
	case isEmptyA:
		return []any{}
	}
	return nil
}

// kind is the Kind of the value an absence stands for, for its Change.
func (a absence) kind() Kind {
	return [...]Kind{given: Null, isNull: Null, isEmptyS: String, isEmptyO: Object, isEmptyA: Array}[a]
}

// dropsAbsent reports whether the parameter key of params, of type pt,
// goes by the rule of nulls or of placeholders, given what its value is.
func (o *Options) dropsAbsent(params *Type, key string, pt *Type, a absence) bool {
	switch a {
	case given:
		return false
	case isNull:
		return o.dropsNull(params, key, pt)
	}
	return !o.KeepNulls && !o.StructuredOnly && !params.goStruct && pt != nil &&
		!slices.Contains(params.required, key) && a.standsFor(pt) && !o.takesPlaceholder(pt, a)
}

// standsFor reports whether the placeholder a can stand for a value of
// type t, a union's members all or some: "" for a scalar (a string or
// number left empty), {} for an object, [] for an array. "" where an
// object or array is declared is empty JSON text, an error as before.
func (a absence) standsFor(t *Type) bool {
	ms := []*Type{t}
	if t.kind == typeUnion {
		ms = t.members
	}
	for _, m := range ms {
		switch {
		case a == isEmptyS && (m.kind == typeObject || m.kind == typeArray):
			return false
		case a == isEmptyO && m.kind == typeObject, a == isEmptyA && m.kind == typeArray:
			return true
		}
	}
	return a == isEmptyS
}

// takesPlaceholder reports whether pt takes the placeholder a: it
// converts to pt, and Check finds nothing in what it converts to (a
// required property of an object, an enum without "").
func (o *Options) takesPlaceholder(pt *Type, a absence) bool {
	p := *o
	p.OnChange = nil
	v, err := p.ToType(a.placeholder(), pt)
	return err == nil && findings(&p, pt, v, 1, 0) == nil
}

// mayBeEmpty reports, from two bytes, whether the value at data[j] may be
// a placeholder: "", or an object or array that may be empty.
func mayBeEmpty(data []byte, j int) bool {
	if j+1 >= len(data) {
		return false
	}
	switch c, d := data[j], data[j+1]; c {
	case '"':
		return d == '"'
	case '{', '[':
		return d == c+2 || d == ' ' || d == '\n' || d == '\t' || d == '\r'
	}
	return false
}
