package coerce

import (
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/coerce-go/coerce/internal/jsonwire"
)

// planSchema is the schema a fuzz seed stands for: two parameters of
// generated types (unions, nullable, lists, dicts, scalars, objects with
// keywords, const and enum in each place the plan treats apart), as
// TestPropertiesOfSchemas makes them, and sometimes a pattern for the
// other keys; one seed in five turns the rule of enums off (ExactEnums).
// It returns the parameters' types, for the seeds' values.
func planSchema(seed uint64) (s *Schema, text []byte, g gen, p, q *gtype) {
	g = gen{r: rand.New(rand.NewPCG(seed, seed>>32|1)), enums: true, names: new(int)}
	p, q = g.typ(3), g.typ(2)
	defs := map[string]any{}
	ps, qs := p.schemaIn(defs), q.schemaIn(defs)
	doc := map[string]any{"type": "object", "properties": map[string]any{"p": ps, "q": qs}}
	if seed%3 == 0 {
		xs := g.typ(2).schemaIn(defs)
		doc["patternProperties"] = map[string]any{"^x": xs, "^[a-z]$": g.typ(1).schemaIn(defs)}
	}
	if len(defs) > 0 {
		doc["$defs"] = defs
	}
	text, _ = json.Marshal(doc)
	var o Options
	if seed%5 == 4 {
		o.ExactEnums = true
	}
	s, err := o.ParseSchema(text)
	if err != nil {
		panic(fmt.Sprintf("%s: %v", text, err))
	}
	return s, text, g, p, q
}

// FuzzPlanDifferential holds the entry points together on random schemas
// and random argument text: Coerce on the decoded text and CoerceJSON on
// the text agree on results, error paths and sentinels; ToType on each
// parameter agrees with both; and Unmarshal equals json.Unmarshal on text
// that conforms.
func FuzzPlanDifferential(f *testing.F) {
	for seed := range uint64(40) {
		_, _, g, p, q := planSchema(seed)
		args := map[string]any{"p": g.value(p, 3), "q": g.value(q, 3), "xy": g.any(2), "z": "5"}
		text, err := json.Marshal(args)
		if err != nil {
			continue
		}
		f.Add(seed, text)
		// The same values as JSON text in strings: a model's favourite.
		for k, v := range args {
			if b, err := json.Marshal(v); err == nil {
				args[k] = string(b)
			}
		}
		if text, err := json.Marshal(args); err == nil {
			f.Add(seed, text)
		}
	}
	f.Add(uint64(7), []byte(`{"p":"[1,\"2\",{\"a\":\"5\"}]","q":{"\u0070":1,"p":"x"},"p":null}`))
	f.Add(uint64(9), []byte(`{"p":1e400,"q":"9223372036854775808.0","x1":[true,"false"],"a":"1"}`))
	// Objects told apart by "kind" (enums of their own at seed 88; OpenAPI's
	// discriminator at 137): respelled, given twice (the last one decides),
	// in JSON text in a string.
	f.Add(uint64(88), []byte(`{"p":{"kind":"Square","a":"1","kind":"TRIANGLE"},"q":"2"}`))
	f.Add(uint64(88), []byte(`{"p":"{\"kind\":\"SQUARE\",\"a\":\"1\"}","q":"2"}`))
	f.Add(uint64(137), []byte(`{"p":{"kind":"shape2","b":["true",{"x":"low"}],"kind":"Shape1"}}`))
	f.Add(uint64(137), []byte(`{"p":{"kind":"SHAPE2","b":["true",{"x":"low"}]}}`))
	// JSON text in a fence, with spaces around it, encoded once more, in
	// chat-template tokens, near-JSON; words for booleans: each way of
	// rawText and rawScalarInto.
	for _, args := range []map[string]any{
		{"p": "```json\n[1, {\"a\": true}]\n```", "q": " {\"b\": \"2\"} ", "z": "true"},
		{"p": `"[1,2]"`, "q": `<tool>{"a": 1}</tool>`, "xy": "false", "z": "TRUE"},
		{"p": "```\r\n{}\n```", "q": "[1,]", "z": "false"},
		{"p": "```json\n```", "q": "```js\n\"x\"\n```", "z": " true"},
	} {
		text, _ := json.Marshal(args)
		for seed := range uint64(12) {
			f.Add(seed, text)
		}
	}

	f.Fuzz(func(t *testing.T, seed uint64, args []byte) {
		s, schemaText, _, _, _ := planSchema(seed % 1000)
		if d := planMismatch(s, schemaText, args); d != "" {
			t.Fatal(d)
		}
	})
}

// planMismatch is FuzzPlanDifferential's check of one schema and argument
// text: how the entry points disagree, or "".
func planMismatch(s *Schema, schemaText, args []byte) string {
	if !json.Valid(args) {
		return "" // refusal is FuzzSchemaCoerce's
	}
	v, err := decodeJSON(args, s.opts.UseNumber, 0) // as a caller with these options decodes it
	m, ok := v.(map[string]any)
	if err != nil || !ok {
		return ""
	}
	name := fmt.Sprintf("%s <- %s", schemaText, args)

	got, cerr := s.Coerce(m)
	text, jerr := s.CoerceJSON(args)
	if errPaths(cerr) != errPaths(jerr) {
		return fmt.Sprintf("%s:\nCoerce fails at %s\nCoerceJSON at %s\n(%v\n%v)", name, errPaths(cerr), errPaths(jerr), cerr, jerr)
	}
	back, derr := decodeJSON(text, s.opts.UseNumber, 0)
	if derr != nil {
		return fmt.Sprintf("%s: CoerceJSON wrote %s: %v", name, text, derr)
	}
	if d := valueMismatch(back, any(got), byValue); d != "" {
		return fmt.Sprintf("%s:\nCoerceJSON = %s\nCoerce     = %s\n%s", name, text, asJSON(got), d)
	}

	// Each parameter alone, against its declared type, once the rules
	// of names and nulls have renamed and removed what they do (their
	// own agreement is checked above, by the two entry points).
	edited := maps.Clone(m)
	byKey, _ := s.opts.mapEdits(s.params, m)
	for k, e := range byKey {
		v := edited[k]
		delete(edited, k)
		if e.to != "" {
			edited[e.to] = v
		}
	}
	var leaves []string
	for k, e := range edited {
		pt, ok := s.Lookup(k)
		if !ok {
			continue
		}
		out, err := s.opts.ToType(e, pt)
		if d := valueMismatch(out, got[k], byValue); d != "" {
			return fmt.Sprintf("%s: ToType of %q = %s, Coerce gave %s: %s", name, k, asJSON(out), asJSON(got[k]), d)
		}
		for _, e := range errorLeaves(err) {
			leaves = append(leaves, jsonwire.PointerToken(k)+e.Path+" "+sentinelName(e.Err))
		}
	}
	var want []string
	for _, e := range errorLeaves(cerr) {
		want = append(want, e.Path+" "+sentinelName(e.Err))
	}
	if !sameSet(leaves, want) {
		return fmt.Sprintf("%s: ToType per parameter fails at %q, Coerce at %q", name, leaves, want)
	}

	// Text that conforms decodes as encoding/json decodes it.
	if cerr == nil && string(text) == string(args) {
		var a, b map[string]any
		aerr, berr := Unmarshal(args, &a), json.Unmarshal(args, &b)
		// On error json.Unmarshal may have written part of its value;
		// Unmarshal writes nothing (its contract): only success compares.
		if (aerr == nil) != (berr == nil) || aerr == nil && !reflect.DeepEqual(a, b) || aerr != nil && a != nil {
			return fmt.Sprintf("%s: Unmarshal = %v, %v; json.Unmarshal = %v, %v", name, a, aerr, b, berr)
		}
	}
	return ""
}

func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	count := map[string]int{}
	for _, s := range a {
		count[s]++
	}
	for _, s := range b {
		if count[s]--; count[s] < 0 {
			return false
		}
	}
	return true
}

// Values for const and enum: strings that differ by case alone (one
// spelling matching two values ignoring case is never respelled), strings
// a model might mean as another kind, letters Unicode folds but ASCII does
// not (ſ is not s, K is not k).
var enumStrings = [][]any{
	{"celsius", "fahrenheit"},
	{"ASC", "asc"},
	{"asc", "desc", "Desc"},
	{"low", "High", "MEDIUM"},
	{"square", "circle", "Circle"},
	{"5", "true", "null", "[1]", "{}"},
	{"", "x", "X"},
	{"s", "k", "straße"},
	{"hello", "Hello"},
}

// some is a random nonempty selection of values, in order.
func (g gen) some(values []any) []any {
	var out []any
	for _, v := range values {
		if g.r.IntN(3) != 0 {
			out = append(out, v)
		}
	}
	if len(out) == 0 {
		out = append(out, values[g.r.IntN(len(values))])
	}
	return out
}

func (g gen) strEnum() []any { return g.some(enumStrings[g.r.IntN(len(enumStrings))]) }

// kindEnum is values for a scalar type of kind k.
func (g gen) kindEnum(k string) []any {
	switch k {
	case "str":
		return g.strEnum()
	case "int":
		return g.some([]any{1.0, 2.0, 5.0, json.Number("18446744073709551616")})
	case "num":
		return g.some([]any{1.5, 2.0, 0.25})
	case "bool":
		return g.some([]any{true, false})
	}
	return []any{nil}
}

// enumType is a type with const or enum, in one of the places the plan
// treats apart: a plain string; an integer, number or boolean; beside a
// type array, nullable, anyOf or oneOf; alone, its type inferred from
// values of mixed kinds; on the property that tells the objects of a union
// apart (OpenAPI's discriminator too); in an array's items. Some of them
// are written inside allOf or behind $ref (see wrapSchema).
func (g gen) enumType(depth int) *gtype {
	var t *gtype
	scalars := []string{"int", "num", "bool", "null"}
	switch n := g.r.IntN(10); {
	case n < 2 || n >= 7 && depth <= 0:
		t = &gtype{kind: "str", enum: g.strEnum()}
	case n == 2:
		k := scalars[g.r.IntN(3)]
		t = &gtype{kind: k, enum: g.kindEnum(k)}
	case n == 3: // "type": ["string", "null"], as OpenAI strict mode writes an optional enum
		t = &gtype{kind: "union", form: "types", members: []*gtype{{kind: "str"}}}
		for _, k := range scalars {
			if g.r.IntN(3) == 0 || k == "null" && g.r.IntN(2) == 0 {
				t.members = append(t.members, &gtype{kind: k})
			}
		}
		if len(t.members) == 1 {
			t.members = append(t.members, &gtype{kind: "null"})
		}
		for _, m := range t.members {
			if m.kind == "str" || g.r.IntN(2) == 0 {
				t.enum = append(t.enum, g.kindEnum(m.kind)...)
			}
		}
	case n == 4: // nullable: true
		inner := []string{"str", "str", "int"}[g.r.IntN(3)]
		t = &gtype{kind: "union", form: "nullable", members: []*gtype{{kind: inner}, {kind: "null"}}, enum: g.kindEnum(inner)}
		if g.r.IntN(2) == 0 {
			t.enum = append(t.enum, nil)
		}
	case n == 5: // beside anyOf or oneOf
		t = &gtype{kind: "union", form: []string{"", "oneOf"}[g.r.IntN(2)], members: []*gtype{{kind: "str"}}}
		for range 1 + g.r.IntN(2) {
			m := g.typ(depth - 1)
			if m.kind == "union" || m.kind == "any" || m.enum != nil && g.r.IntN(2) == 0 {
				m = &gtype{kind: scalars[g.r.IntN(len(scalars))]}
			}
			t.members = append(t.members, m)
		}
		t.enum = g.strEnum()
		if g.r.IntN(2) == 0 {
			t.enum = append(t.enum, g.kindEnum(scalars[g.r.IntN(len(scalars))])...)
		}
	case n == 6: // enum alone: ["low", 1, null]
		t = &gtype{kind: "union", form: "infer"}
		for _, k := range []string{"str", "int", "num", "bool", "null"} {
			if g.r.IntN(3) == 0 {
				t.members = append(t.members, &gtype{kind: k})
				t.enum = append(t.enum, g.kindEnum(k)...)
			}
		}
		if g.r.IntN(4) == 0 {
			t.members = append(t.members, &gtype{kind: "list", elem: &gtype{kind: "any"}}, &gtype{kind: "dict", elem: &gtype{kind: "any"}})
			t.enum = append(t.enum, []any{"x", 1.0}, map[string]any{"a": "b"})
		}
		switch len(t.members) {
		case 0:
			t = &gtype{kind: "str", form: "infer", enum: g.strEnum()}
		case 1:
			t.kind, t.members = t.members[0].kind, nil
		}
	case n == 7:
		t = g.discUnion(depth)
	default: // in array items
		t = &gtype{kind: "list", elem: g.enumType(depth - 1)}
	}
	if len(t.enum) == 1 && g.r.IntN(2) == 0 {
		t.isConst = true
	}
	if g.r.IntN(5) == 0 {
		t.wrap = []string{"allOf", "allOf+", "split", "ref", "ref+", "refType", "titled"}[g.r.IntN(7)]
	}
	return t
}

// discUnion is a union of objects told apart by a property, "kind", with
// const or enum: string values (two members' values may differ by case
// alone) or integers, the property written as a plain type, a type array
// with null or nullable; or by OpenAPI's discriminator, which names each
// member by its $defs name (written into the member as an enum, or not).
func (g gen) discUnion(depth int) *gtype {
	t := &gtype{kind: "union", form: []string{"", "oneOf", "disc"}[g.r.IntN(3)]}
	values := []any{"square", "circle", "Square", "triangle"}
	if g.r.IntN(4) == 0 {
		values = []any{1.0, 2.0, 3.0}
	}
	for range 2 + g.r.IntN(2) {
		o := &gtype{kind: "object", props: map[string]*gtype{}}
		for _, k := range []string{"a", "b"}[:g.r.IntN(3)] {
			o.props[k] = g.typ(depth - 1)
		}
		var kp *gtype
		switch {
		case t.form == "disc":
			*g.names++
			o.name = fmt.Sprintf("Shape%d", *g.names)
			kp = &gtype{kind: "str", enum: []any{o.name}, hideEnum: g.r.IntN(2) == 0}
		default:
			kind := "str"
			if _, ok := values[0].(float64); ok {
				kind = "int"
			}
			kp = &gtype{kind: kind, enum: g.some(values)}
			switch g.r.IntN(4) {
			case 0:
				kp = &gtype{kind: "union", form: "types", members: []*gtype{{kind: kind}, {kind: "null"}}, enum: kp.enum}
			case 1:
				kp = &gtype{kind: "union", form: "nullable", members: []*gtype{{kind: kind}, {kind: "null"}}, enum: kp.enum}
			}
			kp.isConst = len(kp.enum) == 1 && g.r.IntN(2) == 0
		}
		o.props["kind"] = kp
		if g.r.IntN(2) == 0 {
			o.required = []string{"kind"}
		}
		o.closed = g.r.IntN(3) == 0
		t.members = append(t.members, o)
	}
	return t
}

// unionSchema writes a union as its form says.
func (g *gtype) unionSchema(defs map[string]any) map[string]any {
	switch g.form {
	case "types":
		var names []any
		for _, m := range g.members {
			names = append(names, map[string]string{"str": "string", "int": "integer", "num": "number", "bool": "boolean", "null": "null"}[m.kind])
		}
		return map[string]any{"type": names}
	case "nullable":
		s := g.members[0].schemaIn(defs).(map[string]any)
		s["nullable"] = true
		return s
	case "disc":
		if defs == nil {
			break
		}
		var refs []any
		for _, m := range g.members {
			defs[m.name] = m.schemaIn(defs)
			refs = append(refs, map[string]any{"$ref": "#/$defs/" + m.name})
		}
		return map[string]any{"oneOf": refs, "discriminator": map[string]any{"propertyName": "kind"}}
	}
	var alts []any
	for _, m := range g.members {
		alts = append(alts, m.schemaIn(defs))
	}
	if g.form == "oneOf" {
		return map[string]any{"oneOf": alts}
	}
	return map[string]any{"anyOf": alts}
}

// wrapSchema writes s inside allOf (alone, beside a description, or with
// its const or enum in a member of its own) or behind $ref (alone, beside
// a description, or beside its type restated): each is merged.
func (g *gtype) wrapSchema(s map[string]any, defs map[string]any) any {
	switch g.wrap {
	case "allOf":
		return map[string]any{"allOf": []any{s}}
	case "allOf+":
		return map[string]any{"allOf": []any{s, map[string]any{"description": "d"}}}
	case "split":
		e := map[string]any{}
		for _, k := range []string{"enum", "const"} {
			if v, ok := s[k]; ok {
				e[k] = v
				delete(s, k)
			}
		}
		return map[string]any{"allOf": []any{s, e}}
	case "titled":
		// MCP's titled enum: oneOf of each value with a title, which the
		// compiler reads as the enum (titledEnum).
		values, isEnum := s["enum"].([]any)
		if s["type"] != "string" || !isEnum {
			return s
		}
		alts := make([]any, len(values))
		for i, v := range values {
			alts[i] = map[string]any{"const": v, "title": fmt.Sprint("Title ", i)}
		}
		return map[string]any{"type": "string", "oneOf": alts}
	case "ref", "ref+", "refType":
		if defs == nil {
			return map[string]any{"allOf": []any{s}}
		}
		name := fmt.Sprintf("t%d", len(defs))
		defs[name] = s
		r := map[string]any{"$ref": "#/$defs/" + name}
		switch {
		case g.wrap == "ref+":
			r["description"] = "d"
		case g.wrap == "refType" && s["type"] != nil:
			r["type"] = s["type"]
		}
		return r
	}
	return s
}

// enumValue is a value near the values of an enum: one of them; one of
// them respelled (by ASCII case, or with a letter Unicode folds to it), or
// a number as its string; a spelling two of them match ignoring case;
// or none of them.
func (g gen) enumValue(values []any) any {
	v := values[g.r.IntN(len(values))]
	switch g.r.IntN(6) {
	case 0, 1:
		return v
	case 2, 3:
		switch x := v.(type) {
		case string:
			return g.respelled(x, values)
		case float64:
			return strconv.FormatFloat(x, 'g', -1, 64)
		case json.Number:
			return string(x)
		}
	case 4:
		for i, a := range values {
			for _, b := range values[i+1:] {
				if a, ok := a.(string); ok && b != a && asciiEqualFold(a, fmt.Sprint(b)) {
					return g.respelled(a, values)
				}
			}
		}
	}
	return []any{"kelvin", "Kelvin", "ſ", "K", "", 7.0, true, nil}[g.r.IntN(8)]
}

// respelled is s with the case of its ASCII letters changed at random, a
// spelling none of values has where there is one; one time in six, its
// s or k is Unicode's long s or Kelvin sign instead, which ASCII case
// does not fold.
func (g gen) respelled(s string, values []any) string {
	if g.r.IntN(6) == 0 {
		if r := strings.NewReplacer("s", "ſ", "k", "K").Replace(s); r != s {
			return r
		}
	}
	var out string
	for range 8 {
		b := []byte(s)
		for i, c := range b {
			if ('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') && g.r.IntN(2) == 0 {
				b[i] ^= 0x20
			}
		}
		if out = string(b); !slices.Contains(values, any(out)) {
			break
		}
	}
	return out
}
