package toolcall

import (
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/coerce-go/coerce"
	"github.com/coerce-go/coerce/internal/jsonwire"
)

// Elicited returns content, what a user gave in answer to a server's
// elicitation (the content of an elicitation/create result whose action is
// accept), coerced to requestedSchema, the JSON text of the schema the
// server requested: content itself when it conforms, otherwise a copy (the
// caller's map is never modified).
//
// It repairs what coerce repairs in arguments ("42" for an integer, "yes"
// for a boolean), with o.WrapScalars on: a form's one choice, "red", for a
// multiple choice becomes ["red"]. And a choice given by its title, where
// the schema titles its values (MCP's titled enums: oneOf or anyOf of
// const and title, for one choice or in items for several; the legacy
// enumNames beside enum), becomes the value whose title it is, when that
// title is the only one equal to it (or, unless o.ExactEnums, the only one
// equal to it but for case), reported as a coerce.EnumCase change. A value
// that is one of the values is never respelled.
//
// The error joins one *coerce.Error per value that could not be repaired,
// and per value coerce.Schema.Check refuses once repaired (a required one
// missing, one outside an enum); such values are returned as they came.
// o.OnChange, if set, receives each repair.
func Elicited(o coerce.Options, requestedSchema []byte, content map[string]any) (map[string]any, error) {
	o.WrapScalars = true
	onChange := o.OnChange
	o.OnChange = nil
	schema, err := o.ParseSchema(requestedSchema)
	if err != nil {
		return content, err
	}
	titles := titledChoices(requestedSchema)
	out, copied := content, false
	for _, name := range slices.Sorted(maps.Keys(content)) {
		choices := titles[name]
		if len(choices) == 0 {
			continue
		}
		v, changed := byTitle(content[name], choices, o.ExactEnums, func(i int, title string) {
			if onChange == nil {
				return
			}
			path := jsonwire.PointerToken(name)
			declared := schema.Type().Property(name)
			if i >= 0 {
				path += "/" + strconv.Itoa(i)
				declared = declared.Item(i)
			}
			onChange(coerce.Change{Path: path, Declared: declared.String(), Found: coerce.String, Preview: coerce.Preview(title), Rule: coerce.EnumCase})
		})
		if !changed {
			continue
		}
		if !copied {
			out, copied = maps.Clone(content), true
		}
		out[name] = v
	}
	if onChange != nil {
		o.OnChange = onChange
		schema = schema.WithOptions(o)
	}
	coerced, err := schema.Coerce(out)
	if cerr := schema.Check(coerced); cerr != nil {
		err = errors.Join(err, cerr)
	}
	return coerced, err
}

// A choice is one value of a titled enum and its title.
type choice struct {
	value, title string
}

// titledChoices returns, per property of the schema, the titled values it
// declares, for one choice or for the items of several. What cannot be
// read so is left out.
func titledChoices(schema []byte) map[string][]choice {
	var doc struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if json.Unmarshal(schema, &doc) != nil {
		return nil
	}
	type titled struct {
		Const any    `json:"const"`
		Title string `json:"title"`
	}
	type enum struct {
		Enum      []any           `json:"enum"`
		EnumNames []string        `json:"enumNames"`
		OneOf     []titled        `json:"oneOf"`
		AnyOf     []titled        `json:"anyOf"`
		Items     json.RawMessage `json:"items"`
	}
	var read func(text []byte, out []choice, items bool) []choice
	read = func(text []byte, out []choice, items bool) []choice {
		var e enum
		if json.Unmarshal(text, &e) != nil {
			return out
		}
		for _, t := range append(e.OneOf, e.AnyOf...) {
			if v, ok := t.Const.(string); ok && t.Title != "" {
				out = append(out, choice{v, t.Title})
			}
		}
		if len(e.EnumNames) == len(e.Enum) {
			for i, v := range e.Enum {
				if s, ok := v.(string); ok && e.EnumNames[i] != "" {
					out = append(out, choice{s, e.EnumNames[i]})
				}
			}
		}
		if items && len(e.Items) > 0 {
			out = read(e.Items, out, false)
		}
		return out
	}
	titles := map[string][]choice{}
	for name, prop := range doc.Properties {
		if choices := read(prop, nil, true); len(choices) > 0 {
			titles[name] = choices
		}
	}
	return titles
}

// byTitle returns v with a title, or each title in an array, replaced by
// its value, and whether it replaced any; report hears of each (i the
// index in an array, -1 for v itself).
func byTitle(v any, choices []choice, exact bool, report func(i int, title string)) (any, bool) {
	switch v := v.(type) {
	case string:
		if c, ok := valueOf(v, choices, exact); ok {
			report(-1, v)
			return c, true
		}
	case []any:
		var out []any
		for i, e := range v {
			s, ok := e.(string)
			if !ok {
				continue
			}
			if c, ok := valueOf(s, choices, exact); ok {
				if out == nil {
					out = slices.Clone(v)
				}
				out[i] = c
				report(i, s)
			}
		}
		if out != nil {
			return out, true
		}
	case []string:
		var out []string
		for i, s := range v {
			if c, ok := valueOf(s, choices, exact); ok {
				if out == nil {
					out = slices.Clone(v)
				}
				out[i] = c
				report(i, s)
			}
		}
		if out != nil {
			return out, true
		}
	}
	return v, false
}

// valueOf returns the value whose title s is: that of the titles equal to
// s, if they are all of one value, else (unless exact) that of the titles
// equal to s but for case, if they are all of one value. s that is one of
// the values is never respelled.
func valueOf(s string, choices []choice, exact bool) (string, bool) {
	for _, c := range choices {
		if c.value == s {
			return "", false
		}
	}
	match := func(eq func(a, b string) bool) (string, bool) {
		found, ok := "", false
		for _, c := range choices {
			if !eq(c.title, s) {
				continue
			}
			if ok && c.value != found {
				return "", false // two values have that title
			}
			found, ok = c.value, true
		}
		return found, ok
	}
	if v, ok := match(func(a, b string) bool { return a == b }); ok {
		return v, true
	}
	if exact {
		return "", false
	}
	return match(strings.EqualFold)
}
