package coerce

import (
	"encoding/json"
	"maps"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/coerce-go/coerce/internal/jsonwire"
)

// compiler turns a decoded JSON Schema into Types. It records the first
// error and then stops descending.
type compiler struct {
	doc      any
	refAlone bool               // draft-07 and older: $ref ignores the keywords beside it
	refs     map[string]*Type   // $ref targets by reference
	open     map[*Type]bool     // placeholders whose definition is not compiled in yet
	aliases  [][2]*Type         // placeholders whose definition is another open one
	merged   map[[2]*Type]*Type // merge results by operands, placeholders while merging
	ids      map[string]any     // subschemas by their $id, without a fragment
	err      *Error
}

// compilerStarted, when set (by tests), is called each time a compiler is
// made: the tests show that none is once a schema is compiled.
var compilerStarted func()

func newCompiler(doc any) *compiler {
	if compilerStarted != nil {
		compilerStarted()
	}
	return &compiler{doc: doc, refs: map[string]*Type{}, open: map[*Type]bool{}, merged: map[[2]*Type]*Type{}}
}

// maxSchemaDepth bounds the nesting of subschemas, which the compiler
// follows recursively.
const maxSchemaDepth = 1000

func (c *compiler) fail(at string, sentinel error, detail string) *Type {
	if c.err == nil {
		c.err = &Error{Path: at, Err: sentinel, Detail: "schema: " + detail}
	}
	return anyType
}

func (c *compiler) compile(node any, at string, depth int) *Type {
	if c.err != nil {
		return anyType
	}
	if depth > maxSchemaDepth {
		return c.fail(at, ErrLimit, "nested deeper than "+strconv.Itoa(maxSchemaDepth))
	}
	n, ok := node.(map[string]any)
	if !ok {
		if _, ok := node.(bool); ok {
			return anyType // true: anything; false: nothing fits, and coercion cannot help
		}
		return c.fail(at, ErrSyntax, "a schema is an object or a boolean")
	}

	if ref, ok := n["$ref"]; ok && c.refAlone {
		s, _ := ref.(string)
		return c.ref(s, at+"/$ref", depth)
	}
	t := c.ownType(n, at, depth)
	if all, ok := n["allOf"]; ok {
		for i, sub := range c.list(all, at+"/allOf") {
			t = c.merge(t, c.compile(sub, at+"/allOf/"+strconv.Itoa(i), depth+1), 0)
		}
	}
	if ref, ok := n["$ref"]; ok {
		s, _ := ref.(string)
		t = c.merge(t, c.ref(s, at+"/$ref", depth), 0)
	}
	for _, key := range []string{"anyOf", "oneOf"} {
		alts, ok := n[key]
		if !ok {
			continue
		}
		var members []*Type
		subs := c.list(alts, at+"/"+key)
		if values, titles, ok := titledEnum(subs); ok && (t == anyType || t.kind == typeString && t.enum == nil) {
			t = withTitles(withEnum(stringType, values), titles)
			continue
		}
		for i, sub := range subs {
			// The keywords beside anyOf narrow each alternative.
			members = append(members, c.merge(t, c.compile(sub, at+"/"+key+"/"+strconv.Itoa(i), depth+1), 0))
		}
		if len(members) > 0 {
			t = newUnion(members)
		}
	}
	if nullable, _ := n["nullable"].(bool); nullable && !anyish(t) {
		t = newUnion([]*Type{t, nullType})
	}
	if values, ok := enumOf(n); ok {
		t = withEnum(t, values)
		if names, ok := n["enumNames"].([]any); ok && len(names) == len(values) && t.kind == typeString {
			titles := make([]string, len(names))
			for i, name := range names {
				titles[i], _ = name.(string)
			}
			t = withTitles(t, titles)
		}
	}
	return t
}

func (c *compiler) list(v any, at string) []any {
	l, ok := v.([]any)
	if !ok {
		c.fail(at, ErrSyntax, "want an array of schemas")
	}
	return l
}

// ownType is what a schema's own keywords declare: type, or what
// properties, items, enum or const imply.
func (c *compiler) ownType(n map[string]any, at string, depth int) *Type {
	var names []string
	switch tv := n["type"].(type) {
	case nil:
		switch {
		case has(n, "const"):
			return inferType([]any{n["const"]})
		case has(n, "enum"):
			values, ok := n["enum"].([]any)
			if !ok {
				return c.fail(at+"/enum", ErrSyntax, "enum must be an array")
			}
			return inferType(values)
		}
		return c.looseType(n, at, depth)
	case string:
		names = []string{tv}
	case []any:
		for i, name := range tv {
			s, ok := name.(string)
			if !ok {
				return c.fail(at+"/type/"+strconv.Itoa(i), ErrSyntax, "a type name is a string")
			}
			names = append(names, s)
		}
	default:
		return c.fail(at+"/type", ErrSyntax, "type is a name or an array of names")
	}
	alts := make([]*Type, 0, len(names))
	for _, name := range names {
		switch name {
		case "object":
			alts = append(alts, c.objectType(n, at, depth))
		case "array":
			alts = append(alts, c.arrayType(n, at, depth))
		case "string", "integer", "number", "boolean", "null":
			alts = append(alts, simpleTypes[name])
		default:
			// A name JSON Schema lacks but a type expression knows (dict,
			// float, tuple, any...), as the function schemas written for
			// Python tools use them: read as that type, with the object
			// and array keywords beside it.
			t, err := cachedType(name)
			if err != nil || t.kind == typeUnion {
				return c.fail(at+"/type", ErrUnknownType, strconv.Quote(name)+" is not a JSON Schema type")
			}
			switch t.kind {
			case typeObject:
				alts = append(alts, c.objectType(n, at, depth))
			case typeArray:
				alts = append(alts, c.arrayType(n, at, depth))
			case typeAny:
				return anyType
			default:
				alts = append(alts, t)
			}
		}
	}
	if len(alts) == 0 {
		return anyType
	}
	return newUnion(alts)
}

// looseType is what a schema without type declares: its object keywords
// apply to objects and its array keywords to arrays, but they do not make
// other kinds wrong ({"properties": ...} accepts 12 and "[1]" as they are),
// so the type is a union of the kinds the keywords constrain with every
// other kind, unconstrained.
func (c *compiler) looseType(n map[string]any, at string, depth int) *Type {
	obj := has(n, "properties", "additionalProperties", "patternProperties", "required")
	arr := has(n, "items", "prefixItems", "additionalItems")
	if !obj && !arr {
		return anyType
	}
	alts := []*Type{nullType, booleanType, numberType, stringType, arrayType, objectType}
	if arr {
		alts[4] = c.arrayType(n, at, depth)
	}
	if obj {
		alts[5] = c.objectType(n, at, depth)
	}
	if !alts[4].constrains() && !alts[5].constrains() && !alts[5].keyed {
		return anyType
	}
	u := newUnion(alts)
	u.name = "any"
	if obj {
		u.name = alts[5].name
	} else if arr {
		u.name = alts[4].name
	}
	return u
}

func has(n map[string]any, keys ...string) bool {
	for _, k := range keys {
		if _, ok := n[k]; ok {
			return true
		}
	}
	return false
}

func (c *compiler) objectType(n map[string]any, at string, depth int) *Type {
	t := &Type{kind: typeObject, name: "object"}
	if p, ok := n["properties"]; ok {
		pm, ok := p.(map[string]any)
		if !ok {
			return c.fail(at+"/properties", ErrSyntax, "properties must be an object")
		}
		t.props = make(map[string]*Type, len(pm))
		for _, name := range slices.Sorted(maps.Keys(pm)) { // sorted: the same schema, the same first error
			pt := c.compile(pm[name], at+"/properties"+jsonwire.PointerToken(name), depth+1)
			t.props[name] = pt
			t.keyed = t.keyed || pt.enum != nil
			// x-aliases: other names the author accepts for the property.
			sub, _ := pm[name].(map[string]any)
			aliases, _ := sub["x-aliases"].([]any)
			for _, a := range aliases {
				if a, ok := a.(string); ok && a != name {
					if t.aliases == nil {
						t.aliases = map[string]string{}
					}
					if prev, dup := t.aliases[a]; dup && prev != name {
						t.aliases[a] = "" // declared by two properties: never applied (newNameIndex)
						continue
					}
					t.aliases[a] = name
				}
			}
		}
	}
	if p, ok := n["patternProperties"]; ok {
		pm, ok := p.(map[string]any)
		if !ok {
			return c.fail(at+"/patternProperties", ErrSyntax, "patternProperties must be an object")
		}
		t.patterns = &patterns{}
		for _, expr := range slices.Sorted(maps.Keys(pm)) {
			pt := c.compile(pm[expr], at+"/patternProperties"+jsonwire.PointerToken(expr), depth+1)
			t.patterns.add(expr, pt)
		}
	}
	switch ap := n["additionalProperties"].(type) {
	case nil:
	case bool: // true allows anything; false forbids, which only tells union members apart
		t.closed = !ap
	default:
		if rest := c.compile(ap, at+"/additionalProperties", depth+1); !anyish(rest) {
			t.rest = rest
		}
	}
	if req, ok := n["required"].([]any); ok {
		for _, k := range req {
			if s, ok := k.(string); ok {
				t.required = append(t.required, s)
			}
		}
	}
	t.keyed = t.keyed || t.closed || len(t.required) > 0
	switch {
	case t.props == nil && t.patterns == nil && !t.keyed:
		return newDict(t.rest)
	case t.keyed || t.patterns != nil:
		t.exact = false
	}
	return t
}

func (c *compiler) arrayType(n map[string]any, at string, depth int) *Type {
	var prefix []*Type
	var rest *Type
	if p, ok := n["prefixItems"]; ok {
		for i, sub := range c.list(p, at+"/prefixItems") {
			prefix = append(prefix, c.compile(sub, at+"/prefixItems/"+strconv.Itoa(i), depth+1))
		}
	}
	switch items := n["items"].(type) {
	case nil:
	case []any: // draft-07 tuple
		for i, sub := range items {
			prefix = append(prefix, c.compile(sub, at+"/items/"+strconv.Itoa(i), depth+1))
		}
		if ai, ok := n["additionalItems"]; ok {
			rest = c.compile(ai, at+"/additionalItems", depth+1)
		}
	default:
		rest = c.compile(items, at+"/items", depth+1)
	}
	if prefix != nil {
		return newTuple(prefix, rest)
	}
	return newList(rest)
}

// ref compiles the target of a $ref once. A placeholder stands for it while
// it compiles, so that recursive references end at the placeholder, which
// the finished type is then copied into.
func (c *compiler) ref(ref string, at string, depth int) *Type {
	if t, ok := c.refs[ref]; ok {
		return t
	}
	if ref == "" {
		return c.fail(at, ErrUnknownType, "$ref is not a URI reference")
	}
	base, frag, _ := strings.Cut(ref, "#")
	doc := c.doc
	if base != "" {
		if doc = c.ids[base]; doc == nil {
			return c.fail(at, ErrUnknownType, "$ref "+strconv.Quote(ref)+" is outside this schema")
		}
	}
	target, ok := resolvePointer(doc, frag)
	if !ok {
		return c.fail(at, ErrUnknownType, "$ref "+strconv.Quote(ref)+" points to nothing")
	}
	name := ref[strings.LastIndexByte(ref, '/')+1:]
	if name == "" {
		name = "object"
	}
	placeholder := &Type{name: name}
	c.refs[ref] = placeholder
	c.open[placeholder] = true
	t := c.compile(target, "/"+strings.TrimLeft(frag, "/"), depth+1)
	if c.open[t] { // the definition is another reference still being compiled
		c.aliases = append(c.aliases, [2]*Type{placeholder, t})
		return placeholder
	}
	c.fill(placeholder, t)
	return placeholder
}

func (c *compiler) fill(placeholder, t *Type) {
	name := placeholder.name
	*placeholder = *t
	if t.kind == typeObject && t.props != nil {
		placeholder.name = name // more telling than "object" in messages
	}
	placeholder.exact = false
	delete(c.open, placeholder)
}

// prepare reads the document once before it is compiled: it indexes the
// subschemas that declare an $id, so that a $ref naming one resolves, and
// lowers each OpenAPI discriminator into the keywords that choose a union
// member anyway. The value of the discriminator's property names the member
// (through its mapping to $refs, or by the name the $ref ends in), so each
// such member becomes allOf that member and an object whose property must
// hold one of those values and is required. Written into the document, the
// choice is part of each member wherever the union goes: behind $ref, in
// anyOf with null, nullable, type arrays, or merged by allOf.
func (c *compiler) prepare(node any, depth int) {
	if depth > maxSchemaDepth {
		return // compile reports it
	}
	switch n := node.(type) {
	case []any:
		for _, e := range n {
			c.prepare(e, depth+1)
		}
	case map[string]any:
		if id, ok := n["$id"].(string); ok {
			if id, _, _ = strings.Cut(id, "#"); id != "" {
				if c.ids == nil {
					c.ids = map[string]any{}
				}
				c.ids[id] = n
			}
		}
		for _, k := range slices.Sorted(maps.Keys(n)) {
			c.prepare(n[k], depth+1)
		}
		lowerDiscriminator(n)
	}
}

func lowerDiscriminator(n map[string]any) {
	d, _ := n["discriminator"].(map[string]any)
	prop, _ := d["propertyName"].(string)
	if prop == "" {
		return
	}
	mapping, _ := d["mapping"].(map[string]any)
	for _, key := range []string{"oneOf", "anyOf"} {
		subs, _ := n[key].([]any)
		for i, sub := range subs {
			sm, _ := sub.(map[string]any)
			ref, _ := sm["$ref"].(string)
			if ref == "" {
				continue
			}
			var values []any
			for _, v := range slices.Sorted(maps.Keys(mapping)) {
				if mapping[v] == ref {
					values = append(values, v)
				}
			}
			if len(values) == 0 { // implicit: the schema's name
				values = []any{ref[strings.LastIndexByte(ref, '/')+1:]}
			}
			subs[i] = map[string]any{"allOf": []any{sub, map[string]any{
				"type":       "object",
				"properties": map[string]any{prop: map[string]any{"type": "string", "enum": values}},
				"required":   []any{prop},
			}}}
		}
	}
}

// finish completes the types once every definition is compiled: aliases
// take their definitions (a cycle of bare references is any), and unions
// are flattened through the references among their members, so that no
// union is its own member and coercion never loops on one.
func (c *compiler) finish(root *Type) {
	for progress := true; progress; {
		progress = false
		for _, a := range c.aliases {
			if c.open[a[0]] && !c.open[a[1]] {
				c.fill(a[0], a[1])
				progress = true
			}
		}
	}
	for _, a := range c.aliases {
		if c.open[a[0]] {
			c.fill(a[0], anyType)
		}
	}
	for _, t := range reachable(root) {
		if t.kind == typeUnion {
			flattenUnion(t)
		}
	}
	c.settlePatterns(root)
}

// flattenUnion replaces the members of union t that are unions themselves,
// through any number of references, by their own members, once each.
func flattenUnion(t *Type) {
	var members []*Type
	visited := map[*Type]bool{t: true}
	var add func(list []*Type) bool
	add = func(list []*Type) bool {
		for _, m := range list {
			switch {
			case m.kind == typeAny:
				return false
			case m.kind == typeUnion:
				if !visited[m] {
					visited[m] = true
					if !add(m.members) {
						return false
					}
				}
			case !slices.Contains(members, m):
				members = append(members, m)
			}
		}
		return true
	}
	switch {
	case !add(t.members) || len(members) == 0:
		*t = *anyType
	case len(members) == 1:
		name := t.name
		*t = *members[0]
		t.name, t.exact = name, false
	default:
		names := make([]string, len(members))
		for i, m := range members {
			names[i] = m.name
		}
		name, whole := composeName(joinNames(names, " | "))
		t.members, t.name = members, name
		t.exact = t.exact && whole
	}
}

// resolvePointer follows a JSON Pointer (RFC 6901, as a URI fragment) into
// a decoded document.
func resolvePointer(doc any, ptr string) (any, bool) {
	if p, err := url.PathUnescape(ptr); err == nil {
		ptr = p
	}
	if ptr == "" {
		return doc, true
	}
	if ptr[0] != '/' {
		return nil, false
	}
	cur := doc
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = jsonwire.UnescapePointerToken(tok)
		switch node := cur.(type) {
		case map[string]any:
			next, ok := node[tok]
			if !ok {
				return nil, false
			}
			cur = next
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(node) {
				return nil, false
			}
			cur = node[i]
		default:
			return nil, false
		}
	}
	return cur, true
}

// inferType is the type of enum or const values: the union of their kinds,
// with integers folded into number when fractions are among them.
func inferType(values []any) *Type {
	var alts []*Type
	hasFraction := false
	for _, v := range values {
		var t *Type
		switch x := v.(type) {
		case nil:
			t = nullType
		case bool:
			t = booleanType
		case string:
			t = stringType
		case json.Number:
			if _, _, whole := numberTraits(x); whole {
				t = integerType
			} else {
				t, hasFraction = numberType, true
			}
		case []any:
			t = arrayType
		case map[string]any:
			t = objectType
		}
		alts = append(alts, t)
	}
	if hasFraction {
		for i, t := range alts {
			if t == integerType {
				alts[i] = numberType
			}
		}
	}
	if len(alts) == 0 {
		return anyType
	}
	return newUnion(alts)
}

// merge is the type that satisfies both a and b, for allOf, $ref with
// sibling keywords, and keywords beside anyOf. Where they contradict each
// other, a wins: coercion then does what a alone would.
//
// Each pair is merged once: a placeholder stands for a merge in progress,
// so that recursive types meet it instead of merging themselves again and
// again, and a union of more than maxMergeMembers members is not formed
// (a wins), so that allOf over many anyOf cannot multiply out.
func (c *compiler) merge(a, b *Type, depth int) *Type {
	if t, ok := settled(a, b); ok {
		return t
	}
	key := [2]*Type{a, b}
	if m, ok := c.merged[key]; ok {
		return m
	}
	result := &Type{name: a.name}
	c.merged[key] = result
	m := c.mergeNew(a, b, depth)
	*result = *m
	result.exact = false
	return result
}

const maxMergeMembers = 64

func (c *compiler) mergeNew(a, b *Type, depth int) *Type {
	if depth > 32 { // nested schemas deeper than any real one
		return a
	}
	if a.kind == typeUnion || b.kind == typeUnion {
		as, bs := membersOf(a), membersOf(b)
		if len(as)*len(bs) > maxMergeMembers {
			return a
		}
		var out []*Type
		for _, x := range as {
			for _, y := range bs {
				if m := c.mergeKinds(x, y, depth); m != nil {
					out = append(out, m)
				}
			}
		}
		if len(out) == 0 {
			return a
		}
		// An enum beside a union (type: ["string", "null"], nullable,
		// anyOf) is the union's own: the members' merges keep only what
		// withEnum gave the string members, so the union takes the values
		// both sides allow again, for choosing among objects and for
		// Feedback, as mergeKinds keeps a member's.
		values, ok := enumBoth(a.enum, b.enum)
		if !ok {
			return a
		}
		return withEnum(newUnion(out), values)
	}
	if m := c.mergeKinds(a, b, depth); m != nil {
		return m
	}
	return a
}

// settled returns the merge of a and b when one of them decides it alone:
// any gives way to the other, and a reference whose definition is still
// compiling wins.
func settled(a, b *Type) (*Type, bool) {
	switch {
	case anyish(a):
		return b, true
	case anyish(b) || a == b:
		return a, true
	case isPlaceholder(b):
		return b, true
	case isPlaceholder(a):
		return a, true
	}
	return nil, false
}

// isPlaceholder reports a $ref or recursive struct whose definition is not
// compiled in yet: any in appearance, but not the shared any.
func isPlaceholder(t *Type) bool { return t.kind == typeAny && t != anyType }

func membersOf(t *Type) []*Type {
	if t.kind == typeUnion {
		return t.members
	}
	return []*Type{t}
}

// mergeKinds merges two non-union types, or returns nil if no value can be
// both.
func (c *compiler) mergeKinds(a, b *Type, depth int) *Type {
	if t, ok := settled(a, b); ok {
		return t
	}
	if a.enum != nil || b.enum != nil {
		// Both constrain the values: only those both allow remain. The
		// enum is what tells union members apart (a lowered discriminator
		// is one), so a merge must not drop it.
		values, ok := enumBoth(a.enum, b.enum)
		if !ok {
			return nil
		}
		ae, be := *a, *b
		ae.enum, be.enum = nil, nil
		m := c.mergeKinds(&ae, &be, depth)
		if m == nil {
			return nil
		}
		return withEnum(m, values)
	}
	switch {
	case a.kind == typeInteger && b.kind == typeNumber:
		return a
	case a.kind == typeNumber && b.kind == typeInteger:
		return b
	case a.kind != b.kind:
		return nil
	case a.kind == typeObject:
		props := maps.Clone(a.props)
		for _, k := range slices.Sorted(maps.Keys(b.props)) {
			bt := b.props[k]
			if props == nil {
				props = map[string]*Type{}
			}
			if at, ok := props[k]; ok {
				props[k] = c.merge(at, bt, depth+1)
			} else {
				props[k] = bt
			}
		}
		name := a.name // a definition's name says more than "object" in messages
		if a.props == nil {
			name = b.name
		}
		t := &Type{kind: typeObject, props: props, name: name,
			patterns: a.patterns.join(b.patterns),
			required: slices.Compact(slices.Sorted(slices.Values(append(slices.Clone(a.required), b.required...)))),
			// Each side's additionalProperties: false only speaks of its own
			// properties; the merge closes only where both did, which errs
			// on the side of more candidates.
			closed: a.closed && b.closed,
		}
		if rest := c.merge(orAny(a.rest), orAny(b.rest), depth+1); !anyish(rest) {
			t.rest = rest
		}
		for _, p := range t.props {
			t.keyed = t.keyed || p.enum != nil
		}
		t.keyed = t.keyed || t.closed || len(t.required) > 0
		if t.props == nil && t.patterns == nil && !t.keyed {
			return newDict(t.rest)
		}
		return t
	case a.kind == typeArray:
		elem := c.merge(orAny(a.elem), orAny(b.elem), depth+1)
		if len(a.prefix) == 0 && len(b.prefix) == 0 {
			return newList(elem)
		}
		prefix := make([]*Type, max(len(a.prefix), len(b.prefix)))
		for i := range prefix {
			prefix[i] = c.merge(orAny(a.item(i)), orAny(b.item(i)), depth+1)
		}
		return newTuple(prefix, elem)
	}
	return a
}

// enumBoth is what two enums allow together: the values both hold, or
// either's where the other is nil (no enum); false if none remain.
func enumBoth(a, b []any) ([]any, bool) {
	switch {
	case a == nil:
		return b, true
	case b == nil:
		return a, true
	}
	values := slices.DeleteFunc(slices.Clone(a), func(v any) bool {
		return !slices.ContainsFunc(b, func(w any) bool { return reflect.DeepEqual(v, w) })
	})
	return values, len(values) > 0
}

func orAny(t *Type) *Type {
	if t == nil {
		return anyType
	}
	return t
}

// settlePatterns makes every merge patternProperties call for, once the
// types they name are complete: each object type's properties take the
// types of the patterns their names match (in a copy of the properties,
// made once per map and patterns), and each patterns' combinations of two
// or more are merged (see maxComboPatterns).
func (c *compiler) settlePatterns(root *Type) {
	settled := map[sharedProps]map[string]*Type{}
	combined := map[*patterns]bool{}
	done := map[*Type]bool{}
	// Merging makes object types of its own, whose patterns are joined:
	// they are settled in the next round, until a round makes none.
	for progress := true; progress; {
		progress = false
		for _, t := range reachable(root) {
			if !done[t] {
				done[t] = true
				progress = true
				c.settle(t, settled, combined)
			}
		}
		for _, f := range c.merged {
			for _, t := range reachable(f) {
				if !done[t] {
					done[t] = true
					progress = true
					c.settle(t, settled, combined)
				}
			}
		}
	}
}

type sharedProps struct {
	props uintptr
	pats  *patterns
}

func (c *compiler) settle(t *Type, settled map[sharedProps]map[string]*Type, combined map[*patterns]bool) {
	{
		p := t.patterns
		if t.kind != typeObject || p == nil {
			return
		}
		if !combined[p] {
			combined[p] = true
			if n := len(p.list); n <= maxComboPatterns {
				for m := uint64(1); m < 1<<n; m++ {
					if m&(m-1) == 0 {
						continue
					}
					if p.combos == nil {
						p.combos = map[uint64]*Type{}
					}
					p.combos[m] = c.mergePatterns(anyType, p, m)
				}
			}
		}
		if len(t.props) == 0 {
			return
		}
		k := sharedProps{reflect.ValueOf(t.props).Pointer(), p}
		if props, ok := settled[k]; ok {
			t.props = props
			return
		}
		props := maps.Clone(t.props)
		for _, name := range slices.Sorted(maps.Keys(props)) {
			if m := p.matchString(name); m != 0 {
				props[name] = c.mergePatterns(props[name], p, m)
			}
		}
		settled[k] = props
		t.props = props
	}
}

// mergePatterns is t merged with the types of the patterns in m.
func (c *compiler) mergePatterns(t *Type, p *patterns, m uint64) *Type {
	for i := range p.list {
		if m&(1<<i) != 0 {
			t = c.merge(t, p.list[i].t, 0)
		}
	}
	return t
}
