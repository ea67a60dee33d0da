package coercetest

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/coerce-go/coerce"
	"github.com/coerce-go/coerce/internal/jsonwire"
)

// A Variant is one broken form of a valid argument set. Variants share
// the values they do not break, with the valid arguments and with each
// other: treat Args and Want as read-only.
type Variant struct {
	// Name says what is broken: the path of the broken value, as a JSON
	// Pointer without its leading "/", then "/" and the form, such as
	// "limit/integer-as-string" or "tasks/0/id/integer-as-string"; or
	// several such parts joined with "+".
	Name string

	// Args is the argument set as a client sends it: the valid arguments
	// with the broken parameters replaced. It shares the unbroken
	// parameters with the valid arguments. A parameter broken inside is
	// rebuilt from its JSON form: objects are map[string]any, arrays
	// []any, and numbers float64, or json.Number where float64 would
	// change their value.
	Args map[string]any

	// Want is what coercing Args must give: the valid arguments, except
	// that a string broken by json-text-as-object or json-text-as-array
	// holds the JSON text coercion writes for what was sent (compact, keys
	// sorted), equal in meaning to the valid text. A parameter broken
	// inside is rebuilt as in Args.
	Want map[string]any
}

// The bounds of Variants (see the package documentation).
const (
	// maxNested bounds the values broken inside one parameter.
	maxNested = 32
	// maxTries bounds how many values of one route Variants tries to
	// break in one form before it gives that form up.
	maxTries = 4
)

// Variants returns the broken forms of valid, the arguments of a call that
// is valid against schema, in a fixed order: the single forms by
// parameter, within a parameter in document order and by form, then the
// combinations (see the package documentation). None of them conforms to
// schema as sent; each is one that coercion, by the rules of package
// coerce, repairs into its Want. Parameters the schema does not declare,
// and values that encoding/json cannot encode, are not broken.
func Variants(schema *coerce.Schema, valid map[string]any) []Variant {
	var ps []*param
	for _, name := range slices.Sorted(maps.Keys(valid)) {
		t := declared(schema, name)
		if t.Kind() == coerce.Any {
			continue
		}
		v, err := normalize(valid[name])
		if err != nil {
			continue
		}
		p := &param{name: name, t: t, orig: valid[name], base: clientValue(v)}
		p.findSites()
		if len(p.sites) > 0 {
			ps = append(ps, p)
		}
	}

	var out []Variant
	seen := map[string]bool{}
	add := func(parts []part) {
		v := Variant{Args: maps.Clone(valid), Want: maps.Clone(wantOf(schema, valid))}
		var names []string
		for i := 0; i < len(parts); {
			p := parts[i].p
			j := i
			for j < len(parts) && parts[j].p == p {
				names = append(names, parts[j].name())
				j++
			}
			sent, want, ok := p.apply(parts[i:j])
			if !ok {
				return // never for the parts that assemble keeps
			}
			v.Args[p.name], v.Want[p.name] = sent, want
			i = j
		}
		v.Name = strings.Join(names, "+")
		if !seen[v.Name] {
			seen[v.Name] = true
			out = append(out, v)
		}
	}

	// Each form alone.
	for _, p := range ps {
		for _, s := range p.sites {
			for i := range s.forms {
				add([]part{{p, s, i}})
			}
		}
	}
	// Every pair of broken parameters, each in its first form.
	if len(ps) >= 2 {
		for i, p := range ps {
			for _, q := range ps[i+1:] {
				add([]part{{p, p.sites[0], 0}, {q, q.sites[0], 0}})
			}
		}
	}
	// Rounds: every broken value at once, each in its next form.
	var sites int
	rounds := 0
	for _, p := range ps {
		sites += len(p.sites)
		for _, s := range p.sites {
			rounds = max(rounds, len(s.forms))
		}
	}
	if sites >= 2 {
		for r := range rounds {
			var parts []part
			for _, p := range ps {
				parts = append(parts, p.assemble(r)...)
			}
			if len(parts) >= 2 {
				add(parts)
			}
		}
	}
	return out
}

// declared returns the type coercion gives parameter name of schema: that
// of its property, of the patternProperties it matches, or of the other
// properties.
func declared(schema *coerce.Schema, name string) *coerce.Type {
	if root := schema.Type(); root.Kind() == coerce.Object {
		return root.Property(name) // patternProperties included
	}
	if t, ok := schema.Lookup(name); ok {
		return t
	}
	return nil // any
}

// A param is one parameter of the valid arguments, with the values inside
// it that Variants breaks.
type param struct {
	name  string
	t     *coerce.Type
	orig  any // as the caller gave it: what coercion of the whole must give back
	base  any // as a client sends it (clientValue)
	sites []*site
}

// A site is a value that Variants breaks: the parameter itself or a value
// inside it, with its forms, each of them checked to be repaired.
type site struct {
	path  []step // from the parameter down
	forms []broken
}

// A step is one level of a path: an object's key, or an array's index.
type step struct {
	key   string
	index int // -1 for a key
}

func (s step) token() string {
	if s.index >= 0 {
		return strconv.Itoa(s.index)
	}
	return escape(s.key)
}

// A part is one form of one site of a parameter.
type part struct {
	p    *param
	s    *site
	form int
}

func (pt part) name() string {
	var b strings.Builder
	b.WriteString(escape(pt.p.name))
	for _, st := range pt.s.path {
		b.WriteByte('/')
		b.WriteString(st.token())
	}
	b.WriteByte('/')
	b.WriteString(pt.s.forms[pt.form].form)
	return b.String()
}

// escape writes a parameter name or key as a JSON Pointer token does, so
// that a "/" in it cannot be mistaken for a separator.
func escape(p string) string { return jsonwire.PointerToken(p)[1:] }

// findSites walks the parameter's value in document order (object keys
// sorted, array indices ascending, a container before what it holds) and
// keeps the forms of each value whose repair is certain (see expect),
// within the bounds of the package documentation.
func (p *param) findSites() {
	f := finder{p: p, done: map[string]bool{}, tries: map[string]int{}, at: map[string]*site{}}
	f.walk(p.t, p.base, p.orig, nil, escape(p.name))
}

type finder struct {
	p      *param
	done   map[string]bool  // route and form: broken once already
	tries  map[string]int   // route and form: tried and not certain
	at     map[string]*site // by path
	nested int              // sites inside the parameter
}

// walk finds the forms of v, declared t, at path; route names the way the
// declared types took to reach it, array indices left out, so that the
// elements of a list, which all take the same route, are broken once.
func (f *finder) walk(t *coerce.Type, v, orig any, path []step, route string) {
	if f.nested >= maxNested {
		return
	}
	// A container's forms are its JSON text, written five times: once
	// they are made for a route, the containers after it are not written.
	container := kindOf(v) == coerce.Object || kindOf(v) == coerce.Array
	if !container || !f.done[route] {
		forms := breakValue(t, v, orig)
		all := len(forms) > 0
		for _, b := range forms {
			key := route + "\x00" + b.form
			if f.done[key] || f.tries[key] >= maxTries {
				continue
			}
			if f.try(path, b) {
				f.done[key] = true
			} else {
				f.tries[key]++
				all = false
			}
		}
		f.done[route] = container && all
	}
	// The types the value's members are measured against: coercion sends
	// a container to a member of its kind of a union (expect says which
	// ones may take it); all those that it conforms to are followed.
	var via []*coerce.Type
	for _, m := range members(t) {
		if m.Kind() == kindOf(v) && m.Conforms(v) {
			via = append(via, m)
		}
	}
	switch x := v.(type) {
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(x)) {
			for _, m := range via {
				ct := m.Property(k)
				token := "/" + escape(k)
				if e := m.Elem(); e.Kind() != coerce.Any && ct == e {
					token = "/{}" // a key the object does not name: each alike
				}
				f.walk(ct, x[k], x[k], append(path[:len(path):len(path)], step{key: k, index: -1}),
					route+fmt.Sprintf("|%p", m)+token)
			}
		}
	case []any:
		for i, e := range x {
			for _, m := range via {
				ct := m.Item(i)
				f.walk(ct, e, e, append(path[:len(path):len(path)], step{index: i}),
					route+fmt.Sprintf("|%p/[%p]", m, ct))
			}
		}
	}
}

// try keeps form b of the value at path if its repair is certain.
func (f *finder) try(path []step, b broken) bool {
	key := pathKey(path)
	s := f.at[key]
	if s != nil && slices.ContainsFunc(s.forms, func(c broken) bool { return c.form == b.form }) {
		return true // by another route
	}
	probe := &site{path: path, forms: []broken{b}}
	if _, _, ok := f.p.apply([]part{{f.p, probe, 0}}); !ok {
		return false
	}
	if s == nil {
		s = &site{path: path}
		f.at[key] = s
		f.p.sites = append(f.p.sites, s)
		if len(path) > 0 {
			f.nested++
		}
	}
	s.forms = append(s.forms, b)
	return true
}

func pathKey(path []step) string {
	var b strings.Builder
	for _, s := range path {
		b.WriteByte('/')
		b.WriteString(s.token())
	}
	return b.String()
}

// assemble returns the parts of round r for p: each of its sites in its
// form r (modulo its forms), those whose repair stays certain with the
// others in place, in site order.
func (p *param) assemble(r int) []part {
	var parts []part
	for _, s := range p.sites {
		next := append(parts[:len(parts):len(parts)], part{p, s, r % len(s.forms)})
		if _, _, ok := p.apply(next); ok {
			parts = next
		}
	}
	return parts
}

// apply returns the parameter as sent with parts applied, and what
// coercion must make of it; ok is false unless that is certain.
func (p *param) apply(parts []part) (sent, want any, ok bool) {
	root := &plan{}
	for _, pt := range parts {
		root.at(pt.s.path).form = &pt.s.forms[pt.form]
	}
	sent = build(p.base, root)
	want, ok = expect(p.t, p.base, p.orig, root, sent)
	return sent, want, ok && !p.t.Conforms(sent)
}

// A plan says how to break a value: by a form of its own, by breaking
// values inside it, or both; then the form, JSON text, writes the
// container as the values inside broke it.
type plan struct {
	form *broken
	kids []kid // in document order
}

type kid struct {
	at step
	p  *plan
}

// at returns the plan of the value at path below p, made if need be.
func (p *plan) at(path []step) *plan {
	for _, st := range path {
		i := slices.IndexFunc(p.kids, func(k kid) bool { return k.at == st })
		if i < 0 {
			i = len(p.kids)
			p.kids = append(p.kids, kid{at: st, p: &plan{}})
		}
		p = p.kids[i].p
	}
	return p
}

// build returns v broken as p says. It copies what it changes.
func build(v any, p *plan) any {
	if p == nil {
		return v
	}
	inner := v
	if len(p.kids) > 0 {
		switch x := v.(type) {
		case map[string]any:
			m := maps.Clone(x)
			for _, k := range p.kids {
				m[k.at.key] = build(x[k.at.key], k.p)
			}
			inner = m
		case []any:
			a := slices.Clone(x)
			for _, k := range p.kids {
				a[k.at.index] = build(x[k.at.index], k.p)
			}
			inner = a
		}
	}
	switch {
	case p.form == nil:
		return inner
	case len(p.kids) == 0:
		return p.form.sent
	}
	return p.form.text.write(inner)
}

// expect returns what coercing sent, v broken as p says, to t gives: v
// where no form breaks it, or the wanted value of each form. ok is false
// unless the rules of package coerce make that certain; orig is v as
// coercion must give it back when p breaks nothing inside it.
//
// Inside a union, a container is measured against each member of its
// kind. A member the value conforms to as sent cannot take it: the union
// would then keep the value as it is (Type.Conforms says it does not),
// unless the member's discriminating keywords rule it out, in which case
// coercion does not choose it. A member the valid value conforms to must
// repair the broken one into the same value; any other member must
// certainly fail. Then whichever member coercion chooses gives the same
// result. That it chooses one, rather than failing with a member whose
// keywords the value satisfies, follows from the valid value being valid
// against one of the members, keywords included: that member is a
// candidate for the broken value too, and repairs it.
func expect(t *coerce.Type, v, orig any, p *plan, sent any) (any, bool) {
	switch {
	case p == nil:
		return orig, true
	case t.Kind() == coerce.Any:
		return nil, false
	case len(p.kids) == 0 && p.form.text != notText:
		// The text of v in a given style is what breakValue would write
		// again: ask only whether t admits it.
		ok := !keepsText(t) && exactNumbers(v) && !t.Conforms(sent) &&
			strings.HasPrefix(p.form.form, kindOf(v).String()+"-as-")
		return orig, ok
	case len(p.kids) == 0:
		for _, b := range breakValue(t, v, orig) {
			if b.form == p.form.form && sameJSON(b.sent, sent) {
				return b.want, true
			}
		}
		return nil, false
	}
	if p.form != nil {
		// JSON text of the container as the values inside broke it:
		// parsed, it meets t as the container would, unless a string keeps
		// it as text, or its numbers read back as other values.
		if keepsText(t) {
			return nil, false
		}
		sent = build(v, &plan{kids: p.kids})
		if !exactNumbers(sent) {
			return nil, false
		}
	}
	return expectInside(t, v, p.kids, sent)
}

// expectInside is expect for a container v whose members kids break.
func expectInside(t *coerce.Type, v any, kids []kid, sent any) (any, bool) {
	if t.Conforms(sent) {
		return nil, false
	}
	switch t.Kind() {
	case coerce.Union:
		if kindOf(v) == coerce.Array {
			// Arrays have no keywords: the first member of their kind that
			// converts the value wins.
			for _, m := range t.Members() {
				switch {
				case m.Kind() != coerce.Array:
				case m.Conforms(v):
					return expectInside(m, v, kids, sent)
				case !failsForSure(m, sent):
					return nil, false
				}
			}
			return nil, false
		}
		var want any
		found := false
		for _, m := range t.Members() {
			switch {
			case m.Kind() != kindOf(v) || m.Conforms(sent):
				continue
			case !m.Conforms(v):
				if !failsForSure(m, sent) {
					return nil, false
				}
				continue
			}
			w, ok := expectInside(m, v, kids, sent)
			if !ok || found && !sameJSON(w, want) {
				return nil, false
			}
			want, found = w, true
		}
		return want, found
	case coerce.Object:
		x, _ := v.(map[string]any)
		s, ok := sent.(map[string]any)
		if x == nil || !ok {
			return nil, false
		}
		want := maps.Clone(x)
		for _, k := range kids {
			w, ok := expect(t.Property(k.at.key), x[k.at.key], x[k.at.key], k.p, s[k.at.key])
			if !ok {
				return nil, false
			}
			want[k.at.key] = w
		}
		return want, true
	case coerce.Array:
		x, _ := v.([]any)
		s, ok := sent.([]any)
		if x == nil || !ok || len(s) != len(x) {
			return nil, false
		}
		want := slices.Clone(x)
		for _, k := range kids {
			w, ok := expect(t.Item(k.at.index), x[k.at.index], x[k.at.index], k.p, s[k.at.index])
			if !ok {
				return nil, false
			}
			want[k.at.index] = w
		}
		return want, true
	}
	return nil, false
}

// sameJSON reports whether a and b, values as decode and build make them,
// are the same JSON text.
func sameJSON(a, b any) bool { return encode(a, compactStyle) == encode(b, compactStyle) }
