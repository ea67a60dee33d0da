package coerce

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"reflect"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// Property tests: random types (written both as a type expression and as
// a JSON Schema) and random values near them, checked against an oracle
// of their own (gtype.holds), never against Type.Conforms.

// A gtype is a generated type: the oracle's view of it.
type gtype struct {
	kind    string // any, str, int, num, bool, null, list, tuple, dict, object, union
	elem    *gtype // list, dict
	items   []*gtype
	props   map[string]*gtype
	members []*gtype

	// Schemas only, made by a gen with enums (see plan_fuzz_test.go); the
	// oracle, holds, knows nothing of them.
	enum     []any    // const or enum beside the type
	isConst  bool     // written as const (one value)
	hideEnum bool     // enum not written: a discriminator's mapping implies it
	form     string   // a union written as "types" (a type array), "nullable", "oneOf", "infer" (enum alone), "disc" (OpenAPI discriminator); anyOf otherwise
	wrap     string   // written inside allOf or behind $ref (see wrapSchema)
	required []string // object
	closed   bool     // object: additionalProperties false
	name     string   // the $defs name of a discriminated member
}

func (g *gtype) expr() string {
	switch g.kind {
	case "list":
		return "list[" + g.elem.expr() + "]"
	case "dict":
		return "dict[str, " + g.elem.expr() + "]"
	case "tuple":
		var parts []string
		for _, it := range g.items {
			parts = append(parts, it.expr())
		}
		return "tuple[" + strings.Join(parts, ", ") + "]"
	case "union":
		var parts []string
		for _, m := range g.members {
			parts = append(parts, m.expr())
		}
		return strings.Join(parts, " | ")
	case "object":
		return "dict" // no expression for properties: schemas only
	case "num":
		return "float"
	case "null":
		return "None"
	}
	return g.kind
}

func (g *gtype) schema() any { return g.schemaIn(nil) }

// schemaIn writes g as a JSON Schema; the definitions its $refs name go
// into defs (none when defs is nil: a $ref is then written as allOf).
func (g *gtype) schemaIn(defs map[string]any) any {
	var s map[string]any
	switch g.kind {
	case "any":
		s = map[string]any{}
	case "str":
		s = map[string]any{"type": "string"}
	case "int":
		s = map[string]any{"type": "integer"}
	case "num":
		s = map[string]any{"type": "number"}
	case "bool":
		s = map[string]any{"type": "boolean"}
	case "null":
		s = map[string]any{"type": "null"}
	case "list":
		s = map[string]any{"type": "array", "items": g.elem.schemaIn(defs)}
	case "tuple":
		var items []any
		for _, it := range g.items {
			items = append(items, it.schemaIn(defs))
		}
		s = map[string]any{"type": "array", "prefixItems": items}
	case "dict":
		s = map[string]any{"type": "object", "additionalProperties": g.elem.schemaIn(defs)}
	case "object":
		props := map[string]any{}
		// In order: the names of $defs are numbered as they are written.
		for _, k := range slices.Sorted(maps.Keys(g.props)) {
			props[k] = g.props[k].schemaIn(defs)
		}
		s = map[string]any{"type": "object", "properties": props}
		if g.required != nil {
			s["required"] = g.required
		}
		if g.closed {
			s["additionalProperties"] = false
		}
	default:
		s = g.unionSchema(defs)
	}
	if g.enum != nil && !g.hideEnum {
		if g.form == "infer" {
			s = map[string]any{} // the type is inferred from the values
		}
		if g.isConst {
			s["const"] = g.enum[0]
		} else {
			s["enum"] = g.enum
		}
	}
	return g.wrapSchema(s, defs)
}

// holds is the oracle: whether v conforms to g, written from the rules,
// not from the package's code.
func (g *gtype) holds(v any) bool { return g.holdsIn(v, false) }

// holdsIn is holds for a value under a union (underUnion) or not: outside
// unions, null for an object's property whose type takes no null does not
// hold, since the rule of nulls removes it (nulls.go).
func (g *gtype) holdsIn(v any, underUnion bool) bool {
	if v == nil || g.kind == "any" {
		return true
	}
	switch g.kind {
	case "str":
		_, ok := v.(string)
		return ok
	case "bool":
		_, ok := v.(bool)
		return ok
	case "null":
		return false
	case "int", "num":
		// Only the numbers decoding JSON makes: a Go int in a result
		// would be a value the oracle has no rule for.
		switch v.(type) {
		case float64, json.Number:
			d, ok := numberOf(v)
			return ok && (g.kind == "num" || d.whole())
		}
		return false
	case "list", "tuple":
		a, ok := v.([]any)
		if !ok {
			return false
		}
		for i, e := range a {
			t := g.elem
			if g.kind == "tuple" {
				if i >= len(g.items) {
					continue
				}
				t = g.items[i]
			}
			if !t.holdsIn(e, underUnion) {
				return false
			}
		}
		return true
	case "dict", "object":
		m, ok := v.(map[string]any)
		if !ok {
			return false
		}
		for k, e := range m {
			t := g.elem
			if g.kind == "object" {
				if t = g.props[k]; t == nil {
					continue
				}
				if e == nil && !underUnion && !t.takesNull() {
					return false
				}
			}
			if !t.holdsIn(e, underUnion) {
				return false
			}
		}
		return true
	}
	for _, m := range g.members {
		if m.holdsIn(v, true) {
			return true
		}
	}
	return false
}

// takesNull reports whether null is one of g's values as the schema
// writes it.
func (g *gtype) takesNull() bool {
	switch g.kind {
	case "any", "null":
		return true
	}
	for _, m := range g.members {
		if m.takesNull() {
			return true
		}
	}
	return false
}

type gen struct {
	r     *rand.Rand
	exprs bool // types written as expressions: no object properties
	enums bool // schemas with const and enum too (see enumType), and values near them
	names *int // enums: the $defs names handed out
}

func (g gen) typ(depth int) *gtype {
	if g.enums && g.r.IntN(4) == 0 {
		return g.enumType(depth)
	}
	scalars := []string{"any", "str", "int", "num", "bool", "null"}
	if depth <= 0 || g.r.IntN(3) == 0 {
		return &gtype{kind: scalars[g.r.IntN(len(scalars))]}
	}
	switch g.r.IntN(6) {
	case 0:
		return &gtype{kind: "list", elem: g.typ(depth - 1)}
	case 1:
		return &gtype{kind: "dict", elem: g.typ(depth - 1)}
	case 2:
		n := 1 + g.r.IntN(3)
		t := &gtype{kind: "tuple"}
		for range n {
			t.items = append(t.items, g.typ(depth-1))
		}
		return t
	case 3:
		if g.exprs {
			return &gtype{kind: "dict", elem: g.typ(depth - 1)}
		}
		t := &gtype{kind: "object", props: map[string]*gtype{}}
		for _, k := range []string{"a", "b", "c"}[:1+g.r.IntN(3)] {
			t.props[k] = g.typ(depth - 1)
		}
		return t
	}
	n := 2 + g.r.IntN(3)
	t := &gtype{kind: "union"}
	for range n {
		m := g.typ(depth - 1)
		if m.kind == "union" || m.kind == "any" {
			m = &gtype{kind: "str"}
		}
		t.members = append(t.members, m)
	}
	return t
}

// value makes a value near t: often conforming, often broken in the ways
// clients break values, sometimes anything.
func (g gen) value(t *gtype, depth int) any {
	if g.enums && t.enum != nil && g.r.IntN(2) == 0 {
		return g.enumValue(t.enum)
	}
	if depth <= 0 {
		return g.scalar()
	}
	switch g.r.IntN(8) {
	case 0:
		return g.scalar()
	case 1: // JSON text of a value near t
		b, _ := json.Marshal(g.value(t, depth-1))
		return string(b)
	case 2: // anything
		return g.any(depth)
	}
	switch t.kind {
	case "str":
		return []any{"hello", "5", "[1]", `{"a":1}`, "true", ""}[g.r.IntN(6)]
	case "int":
		return []any{5.0, "7", 2.5, json.Number("18446744073709551616"), "1e3", true, "x"}[g.r.IntN(7)]
	case "num":
		return []any{1.5, "2.25", json.Number("1.50"), 3.0, "nan"}[g.r.IntN(5)]
	case "bool":
		return []any{true, "yes", 0.0, "maybe"}[g.r.IntN(4)]
	case "null":
		return []any{nil, "", "null", 0.0}[g.r.IntN(4)]
	case "list", "tuple":
		n := g.r.IntN(4)
		a := make([]any, n)
		for i := range a {
			et := t.elem
			if t.kind == "tuple" {
				et = t.items[min(i, len(t.items)-1)]
			}
			a[i] = g.value(et, depth-1)
		}
		return a
	case "dict", "object":
		m := map[string]any{}
		for _, k := range []string{"a", "b", "c"}[:g.r.IntN(4)] {
			et := t.elem
			if t.kind == "object" {
				if et = t.props[k]; et == nil {
					et = &gtype{kind: "any"}
				}
			}
			m[k] = g.value(et, depth-1)
		}
		if g.enums && t.kind == "object" {
			// The discriminating property (see enumType), usually.
			for _, k := range slices.Sorted(maps.Keys(t.props)) {
				if _, ok := m[k]; !ok && g.r.IntN(4) != 0 {
					m[k] = g.value(t.props[k], depth-1)
				}
			}
		}
		return m
	case "union":
		return g.value(t.members[g.r.IntN(len(t.members))], depth)
	}
	return g.any(depth)
}

func (g gen) scalar() any {
	return []any{nil, true, false, 0.0, 1.0, -3.5, 1e21, json.Number("9007199254740993"), "", "x", "12", "[]", "{}",
		"```json\n[1]\n```", `"[1, 2]"`, "1.50"}[g.r.IntN(16)]
}

func (g gen) any(depth int) any {
	if depth <= 0 || g.r.IntN(2) == 0 {
		return g.scalar()
	}
	if g.r.IntN(2) == 0 {
		return []any{g.any(depth - 1), g.any(depth - 1)}
	}
	return map[string]any{"a": g.any(depth - 1), "b": g.any(depth - 1)}
}

func TestPropertiesOfToDeclared(t *testing.T) {
	g := gen{r: rand.New(rand.NewPCG(1, 2)), exprs: true}
	n := 4000
	if testing.Short() {
		n = 500
	}
	for i := range n {
		typ := g.typ(3)
		expr := typ.expr()
		v := g.value(typ, 4)
		name := fmt.Sprintf("#%d %s <- %s", i, expr, asJSON(v))
		checkToDeclaredProperties(t, name, v, typ, expr)
	}
}

func checkToDeclaredProperties(t *testing.T, name string, v any, typ *gtype, expr string) {
	t.Helper()
	before := deepCopy(v)
	out, err := ToDeclared(v, expr)
	if !reflect.DeepEqual(v, before) {
		t.Fatalf("%s: the input was modified", name)
	}
	// A result is JSON, for outcome below to compare runs by.
	if _, jerr := json.Marshal(out); jerr != nil {
		t.Fatalf("%s: the result cannot be written as JSON: %v", name, jerr)
	}
	switch {
	case err == nil && !typ.holds(out):
		t.Fatalf("%s: no error, but %s does not conform", name, asJSON(out))
	case err != nil && !identical(out, v):
		t.Fatalf("%s: error %v, and the input did not come back", name, err)
	case err != nil:
		checkErrorContract(t, err)
	}
	if typ.holds(v) && (err != nil || !identical(out, v)) {
		t.Fatalf("%s: the input conforms, but got %s, %v", name, asJSON(out), err)
	}
	// Idempotent.
	if err == nil {
		again, err2 := ToDeclared(out, expr)
		if err2 != nil || !identical(again, out) {
			t.Fatalf("%s: coercing the result again gives %s, %v", name, asJSON(again), err2)
		}
	}
	// Deterministic, whatever the garbage collector does in between. A
	// full collection is slow: one case in ten.
	if len(name)%10 != 0 {
		return
	}
	want := outcome(out, err)
	runtime.GC()
	if o, e := ToDeclared(v, expr); outcome(o, e) != want {
		t.Fatalf("%s: second run %s, first %s", name, outcome(o, e), want)
	}
	old := debug.SetGCPercent(1)
	o, e := ToDeclared(v, expr)
	debug.SetGCPercent(old)
	if got := outcome(o, e); got != want {
		t.Fatalf("%s: with GC at 1%% %s, before %s", name, got, want)
	}
}

func TestPropertiesOfSchemas(t *testing.T) {
	g := gen{r: rand.New(rand.NewPCG(3, 4))}
	n := 3000
	if testing.Short() {
		n = 400
	}
	for i := range n {
		typ := g.typ(3)
		schemaText, _ := json.Marshal(map[string]any{"type": "object", "properties": map[string]any{"p": typ.schema(), "q": typ.schema()}})
		s, err := ParseSchema(schemaText)
		if err != nil {
			t.Fatalf("%s: %v", schemaText, err)
		}
		args := map[string]any{"p": g.value(typ, 4), "q": g.value(typ, 4), "other": g.any(2)}
		name := fmt.Sprintf("#%d %s <- %s", i, schemaText, asJSON(args))
		checkSchemaProperties(t, name, s, typ, args)
	}
}

func checkSchemaProperties(t *testing.T, name string, s *Schema, typ *gtype, args map[string]any) {
	t.Helper()
	before := deepCopy(args)
	out, err := s.Coerce(args)
	if !reflect.DeepEqual(args, before) {
		t.Fatalf("%s: the arguments were modified", name)
	}
	failed := map[string]bool{}
	for _, e := range errorLeaves(err) {
		failed[strings.SplitN(e.Path, "/", 3)[1]] = true
	}
	// null for a parameter whose type has no null, and that is not
	// required (none is, here), means "not given": it is removed.
	dropped := func(p string) bool {
		v, given := args[p]
		pt, _ := s.Lookup(p)
		return given && v == nil && !pt.takesNull()
	}
	for _, p := range []string{"p", "q"} {
		_, present := out[p]
		switch {
		case dropped(p) && present:
			t.Fatalf("%s: /%s is null for a type without null, but was not removed", name, p)
		case dropped(p):
		case failed[p] && !identical(out[p], args[p]):
			t.Fatalf("%s: /%s failed but did not stay as it was", name, p)
		case !failed[p] && !typ.holds(out[p]):
			t.Fatalf("%s: /%s = %s does not conform", name, p, asJSON(out[p]))
		}
	}
	if typ.holds(args["p"]) && typ.holds(args["q"]) && !dropped("p") && !dropped("q") && !identical(out, args) {
		t.Fatalf("%s: the arguments conform, but a copy came back", name)
	}
	// CoerceJSON on the text decodes to Coerce on the decoded text.
	text, _ := json.Marshal(args)
	decoded, derr := decodeJSON(text, false, 0)
	if derr != nil {
		t.Fatal(derr)
	}
	want, werr := s.Coerce(decoded.(map[string]any))
	raw, rerr := s.CoerceJSON(text)
	got, gerr := decodeJSON(raw, false, 0)
	if gerr != nil {
		t.Fatalf("%s: CoerceJSON wrote invalid JSON %s: %v", name, raw, gerr)
	}
	if !reflect.DeepEqual(got, any(want)) {
		t.Fatalf("%s: CoerceJSON gives %s, Coerce %s", name, raw, asJSON(want))
	}
	if errPaths(werr) != errPaths(rerr) {
		t.Fatalf("%s: CoerceJSON fails at %s, Coerce at %s", name, errPaths(rerr), errPaths(werr))
	}
}

func errPaths(err error) string {
	var paths []string
	for _, e := range errorLeaves(err) {
		paths = append(paths, e.Path+" "+sentinelName(e.Err))
	}
	return strings.Join(paths, ", ")
}

func sentinelName(err error) string {
	for _, s := range allSentinels {
		if errors.Is(err, s) {
			return s.Error()
		}
	}
	return strconv.Quote(fmt.Sprint(err))
}

// Go values of other types than encoding/json decodes into, for the fuzz
// target below.
type (
	fuzzNamed  []string
	fuzzRecord struct {
		ID   int      `json:"id"`
		Tags []string `json:"tags,omitempty"`
		Next *fuzzRecord
	}
)

// typed turns a value into a Go value of another type that has the same
// JSON form where it can: typed slices and maps, structs, pointers.
func (g gen) typed(v any) any {
	switch x := v.(type) {
	case []any:
		strs := make(fuzzNamed, 0, len(x))
		for _, e := range x {
			s, ok := e.(string)
			if !ok {
				return x
			}
			strs = append(strs, s)
		}
		if g.r.IntN(2) == 0 {
			return []string(strs)
		}
		return strs
	case map[string]any:
		ints := map[string]int{}
		for k, e := range x {
			f, ok := e.(float64)
			if !ok || f != math.Trunc(f) || math.Abs(f) > 1e9 {
				return x
			}
			ints[k] = int(f)
		}
		return ints
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1e9 {
			return &fuzzRecord{ID: int(x), Tags: []string{"a"}}
		}
	}
	return v
}

// FuzzUnions drives the union paths: long arrays of values near a union,
// some of them Go values of other types, against types full of unions.
func FuzzUnions(f *testing.F) {
	for _, s := range [][3]uint64{{1, 2, 50}, {3, 4, 300}, {5, 6, 7}, {7, 8, 1000}} {
		f.Add(s[0], s[1], uint16(s[2]))
	}
	f.Fuzz(func(t *testing.T, s1, s2 uint64, n uint16) {
		g := gen{r: rand.New(rand.NewPCG(s1, s2)), exprs: true}
		elem := g.typ(3)
		if elem.kind != "union" {
			elem = &gtype{kind: "union", members: []*gtype{elem, g.typ(2), {kind: "list", elem: g.typ(2)}}}
			for i, m := range elem.members {
				if m.kind == "union" || m.kind == "any" {
					elem.members[i] = &gtype{kind: "str"}
				}
			}
		}
		typ := &gtype{kind: "list", elem: elem}
		expr := typ.expr()
		items := make([]any, int(n)%2000)
		for i := range items {
			items[i] = g.value(elem, 3)
			if g.r.IntN(4) == 0 {
				items[i] = g.typed(items[i])
			}
		}
		var v any = items
		before := jsonView(t, v)
		out, err := ToDeclared(v, expr)
		if !reflect.DeepEqual(jsonView(t, v), before) {
			t.Fatalf("%s: the input was modified", expr)
		}
		if err != nil {
			checkErrorContract(t, err)
			if !identical(out, v) {
				t.Fatalf("%s: %v, and the input did not come back", expr, err)
			}
			return
		}
		if !typ.holds(jsonView(t, out)) {
			t.Fatalf("%s: no error, but the result does not conform: %.300s", expr, asJSON(out))
		}
		if again, err := ToDeclared(out, expr); err != nil || !reflect.DeepEqual(jsonView(t, again), jsonView(t, out)) {
			t.Fatalf("%s: not idempotent: %v", expr, err)
		}
	})
}
