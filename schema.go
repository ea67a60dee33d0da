package coerce

import (
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"strings"

	"github.com/coerce-go/coerce/internal/jsonwire"
)

// A Schema gives the declared type of each parameter of an argument set:
// the input schema of an MCP tool, the declared inputs of a workflow node,
// the fields of a Go struct. It is compiled once; it is immutable and safe
// for concurrent use.
type Schema struct {
	root   *Type // the whole argument set
	params *Type // the object type whose properties are the parameters; nil if none
	opts   Options
	// checksParams: Check of an argument object judges it by params
	// alone (root is params, or a union whose one object member params
	// is, with no enum beside it), so that the fitter in check mode can
	// pass it (Options.Check).
	checksParams bool
}

func newSchema(root *Type, o Options) *Schema {
	params := paramsType(root)
	seal(root)
	seal(params)
	return &Schema{root: root, params: params, opts: o,
		checksParams: params != nil && (root == params || root.kind == typeUnion && root.enum == nil && memberOfKind(root, kindObject) == params)}
}

// paramsType is the object type that gives each parameter its type: the
// root itself, or the object members of a root union combined, so that
// {"type": ["null", "object"], ...}, which the Go SDK infers for a pointer
// to a struct, still converts parameter by parameter. A parameter declared
// by several object members gets the union of their types; one declared by
// only some of them, those members' type.
func paramsType(root *Type) *Type {
	if root.kind == typeObject {
		return root
	}
	var objects []*Type
	for _, m := range root.Members() {
		if m.kind == typeObject {
			objects = append(objects, m)
		}
	}
	switch len(objects) {
	case 0:
		return nil
	case 1:
		return objects[0]
	}
	props := map[string]*Type{}
	var rests []*Type
	for _, o := range objects {
		for _, k := range slices.Sorted(maps.Keys(o.props)) {
			if p, ok := props[k]; ok {
				props[k] = newUnion([]*Type{p, o.props[k]})
			} else {
				props[k] = o.props[k]
			}
		}
		if o.rest != nil {
			rests = append(rests, o.rest)
		}
	}
	var rest *Type
	if len(rests) > 0 {
		rest = newUnion(rests)
	}
	return &Type{kind: typeObject, props: props, rest: rest, name: "object"}
}

// ParseSchema compiles a JSON Schema with the default Options. See
// Options.ParseSchema.
func ParseSchema(jsonSchema []byte) (*Schema, error) { return Options{}.ParseSchema(jsonSchema) }

// ParseSchema compiles a JSON Schema (draft 2020-12 or draft-07, with
// OpenAPI 3.0's nullable) into a Schema whose coercion uses o.
//
// It reads type (a name or a list of names; a name JSON Schema lacks but
// ParseType knows, such as dict, float, tuple or any, reads as that type),
// properties, patternProperties, additionalProperties, items, prefixItems
// (and draft-07's array items with additionalItems), $ref to anywhere in the
// same document ($defs and definitions, or a subschema by its own $id;
// recursive schemas work), anyOf and oneOf as unions, allOf merged, enum and
// const (their type inferred from the values), nullable, and OpenAPI's
// discriminator. A subschema with no type information is any. The object
// keywords of a subschema without type apply to objects and its array
// keywords to arrays, without restricting the kind: {"properties": ...}
// accepts 12 and "[1]" as they are. required, additionalProperties: false,
// const, enum and discriminator only choose among the members of a union;
// validation keywords (minimum, pattern, ...) are not coercion's business
// and are ignored.
//
// Compiling is finished when ParseSchema returns: coercion with the Schema
// only reads it, takes no lock and fills no cache.
//
// The error of a malformed schema, an unknown type name or a $ref outside
// the document is an *Error whose Path points into the schema.
func (o Options) ParseSchema(jsonSchema []byte) (*Schema, error) {
	doc, err := decodeJSON(jsonSchema, true, 0)
	if err != nil {
		e := err.(*Error)
		if e.Err == ErrTruncated {
			// A schema that ends early is the tool's malformed schema, not
			// a call cut off by a model's output limit.
			e.Err = ErrSyntax
		}
		e.Detail = "schema is not JSON: " + e.Detail
		return nil, e
	}
	c := newCompiler(doc)
	if root, ok := doc.(map[string]any); ok {
		// Before draft 2019-09, keywords beside $ref are ignored; a
		// document says which draft it follows at its root.
		dialect, _ := root["$schema"].(string)
		for _, old := range []string{"draft-07", "draft-06", "draft-05", "draft-04", "draft-03"} {
			c.refAlone = c.refAlone || strings.Contains(dialect, old)
		}
	}
	c.prepare(doc, 0)
	root := c.compile(doc, "", 0)
	if c.err != nil {
		return nil, c.err
	}
	c.finish(root)
	return newSchema(root, o), nil
}

// SchemaFromTypes builds a schema from declared parameter types with the
// default Options. See Options.SchemaFromTypes.
func SchemaFromTypes(params map[string]string) (*Schema, error) {
	return Options{}.SchemaFromTypes(params)
}

// SchemaFromTypes builds a schema from the declared types of a workflow
// node's parameters, such as {"path_params": "str", "items": "list[dict]"},
// in ParseType's syntax. Every declaration that does not parse is reported,
// each as an *Error whose Path names the parameter.
func (o Options) SchemaFromTypes(params map[string]string) (*Schema, error) {
	props := make(map[string]*Type, len(params))
	var errs []error
	for _, name := range slices.Sorted(maps.Keys(params)) {
		t, err := ParseType(params[name])
		if err != nil {
			e := err.(*Error)
			e.Path = jsonwire.PointerToken(name)
			errs = append(errs, e)
			continue
		}
		props[name] = t
	}
	switch len(errs) {
	case 0:
	case 1:
		return nil, errs[0]
	default:
		return nil, errors.Join(errs...)
	}
	return newSchema(&Type{kind: typeObject, props: props, name: "object"}, o), nil
}

// WithOptions returns a schema with the same types as s whose coercion
// uses o: compiling is the costly part, and options are not part of it. It
// costs one small allocation, so a server can, say, set Options.OnChange per
// call to report changes with the request's context.
func (s *Schema) WithOptions(o Options) *Schema {
	c := *s
	c.opts = o
	return &c
}

// Type returns the type of a whole argument set, usually an object type
// with one property a parameter. Its Conforms method tells whether
// arguments already fit without coercion.
func (s *Schema) Type() *Type { return s.root }

// Lookup returns the declared type of a parameter, the one Coerce converts
// it to: a property's, the patternProperties' its name matches, or the type
// additionalProperties gives the others. It reports false for a parameter
// that none of them declares.
func (s *Schema) Lookup(param string) (*Type, bool) {
	if s.params == nil {
		return nil, false
	}
	if t, ok := s.params.prop(param); ok && s.params.patterns == nil {
		return t, true
	}
	if t := s.params.field(param); t != nil {
		return t, true
	}
	return nil, false
}

// Coerce converts each parameter of args that the schema declares, deeply
// (nested properties, array items, additionalProperties), as ToDeclared
// does a single value. Parameters the schema does not know pass through,
// even under additionalProperties: false: coercion is not validation.
//
// args is never modified: when nothing needs converting Coerce returns args
// itself and allocates nothing; otherwise it returns a copy. The parameter
// is the unit of failure: the ones that convert are converted, the ones
// that cannot stay exactly as they were, and the error joins one *Error per
// failure, each with its JSON Pointer (e.g. "/tasks/0/id").
//
// With Options.Check, arguments that coerce are then checked (Check).
func (s *Schema) Coerce(args map[string]any) (map[string]any, error) {
	out, checked, err := s.coerce(args, s.opts.Check && s.checksParams)
	if err == nil && s.opts.Check && !checked {
		err = s.Check(out)
	}
	return out, err
}

// coerce is Coerce without its check, for Coerce and for the rounds it
// goes again (unwrapValue), which leave
// the check to the first. With check, the fit is in check mode
// (fitter.check), and checked says that it passed the call as sent: the
// call conforms, and Check has nothing to find.
func (s *Schema) coerce(args map[string]any, check bool) (_ map[string]any, checked bool, _ error) {
	if s.params == nil || !s.params.constrains() {
		return args, false, nil
	}
	f := newFitter(&s.opts)
	f.check = check
	var from paramsFit
	if s.params.propsFirst(len(args)) {
		if from = s.fitParams(&f, args); from.all {
			countWork(f.work) // without iterating args, which costs as much again
			return args, check, nil
		}
	}
	return s.coerceMore(&f, args, from)
}

// A paramsFit is how far fitParams got: every parameter fits as sent
// (all), or those before the index's next do, found of them given, with
// nothing for the rules of names and nulls to do. byProps says that it
// ran: the schema's properties are not many more than the keys sent.
type paramsFit struct {
	byProps     bool
	all         bool
	next, found int
}

// coerceMore is Coerce of arguments that fitParams did not pass (f is
// the fitter it ran, its work counted, and from how far it got), without
// Options.Check. checked says that f, in check mode, passed every
// parameter as sent: the call conforms, and Check has nothing to find.
func (s *Schema) coerceMore(pf *fitter, args map[string]any, from paramsFit) (map[string]any, bool, error) {
	if len(args) == 1 {
		for k, v := range args {
			if mayUnwrap(&s.opts, s.params, k) {
				if out, ok := s.unwrapValue(k, v); ok {
					return out, false, nil
				}
			}
		}
	}
	c := argsCall{s: s, f: *pf, args: args, out: args, checked: pf.check}
	defer c.done()
	if !from.byProps {
		for k, v := range args {
			if !c.param(k, v, s.params.field(k)) {
				return args, false, c.stop
			}
		}
		return c.end()
	}
	// Where fitParams ran, the parameters it passed are left as they are,
	// and the others looked up by the index's list, as it looks them up:
	// a lookup in args costs less than iterating args and finding each
	// key in the index. Keys that no property names (to rename, or the
	// rest's) are met by iterating args, only where there are such keys.
	list, found := s.params.index.list, from.found
	for i := from.next; i < len(list); i++ {
		p := &list[i]
		if v, ok := args[p.name]; ok {
			found++
			if !c.param(p.name, v, p.t) {
				return args, false, c.stop
			}
		}
	}
	if found < len(args) {
		for k, v := range args {
			if _, declared := s.params.prop(k); !declared && !c.param(k, v, s.params.rest) {
				return args, false, c.stop
			}
		}
	}
	return c.end()
}

// An argsCall is Coerce of a map of arguments past fitParams, one
// parameter at a time (param), in any order: each is fitted, and walked
// if it does not fit, the walker made for the first that does not.
// Nothing it finds depends on the order: changes and failures are
// reported in path order, the edits of names and nulls decided for all
// the keys at once.
type argsCall struct {
	s         *Schema
	f         fitter
	args, out map[string]any // out is args until a parameter changes; then a copy
	copied    bool
	w         walker
	walking   bool
	spent     int // the fitter's work when w was made
	fail      *failure
	chg       *changes
	edits     map[string]keyEdit // the rules of names and nulls, once a key may need them
	editList  []keyEdit
	checked   bool   // f, in check mode, passed every parameter as sent
	stop      *Error // the work budget's error, which is the call's
}

// done counts the work of the fitter and the walker, once.
func (c *argsCall) done() {
	if c.walking {
		c.w.work += c.f.work - c.spent
		c.w.release()
	} else {
		countWork(c.f.work)
	}
}

// copy makes out a copy of args, once: the caller's map stays as it was.
func (c *argsCall) copy() {
	if !c.copied {
		c.out, c.copied = maps.Clone(c.args), true
	}
}

// param coerces parameter k, of value v and declared type ft, into out.
// It reports false where the work budget stopped the call (c.stop).
func (c *argsCall) param(k string, v any, ft *Type) bool {
	s := c.s
	if c.edits == nil && editsKey(&s.opts, s.params, ft, k, absenceOf(v)) {
		// A parameter to rename or a null to remove: the edits of all the
		// keys are decided at once (keyEdits), and each made as its key
		// is met (the keys met before need none: editsKey said so).
		c.edits, c.editList = s.opts.mapEdits(s.params, c.args)
	}
	if c.edits != nil { // most calls have none, and a nil map's lookup is a call
		if e, ok := c.edits[k]; ok {
			c.checked = false
			c.copy()
			delete(c.out, k)
			if e.to == "" {
				return true
			}
			k, ft = e.to, s.params.field(e.to)
			c.out[k] = v
		}
	}
	if ft.isAny() && ft.Enum() == nil || c.f.fitQuick(v, ft, 1) {
		c.checked = c.checked && (!s.params.closed || s.params.known(k))
		return true
	}
	c.checked = false
	if q, ok := quickScalar(&s.opts, v, ft); ok {
		c.f.work += walkCost
		c.copy()
		c.out[k] = q.out
		if s.opts.OnChange != nil {
			c.chg = c.chg.at(child{key: k, index: -1}, &changes{own: []Change{newChange(v, q.t, q.rule)}})
		}
		return true
	}
	if !c.walking {
		c.w.start(&s.opts, c.f.work)
		c.walking, c.spent = true, c.f.work
	}
	w := &c.w
	r := w.one(v, ft, 1, false)
	w.settleResult(&r, v, ft)
	if w.limit != nil {
		// Where the budget runs out depends on the order the parameters
		// are met in: its error is the call's, not a parameter's.
		e := w.limitError(ft, v, c.args)
		if w.stopAll {
			c.stop = &e
			return false
		}
		r = result{state: failed, fail: leafFailure(e)}
	}
	at := child{key: k, index: -1}
	switch r.state {
	case failed:
		c.fail = w.failAt(c.fail, at, &r)
	case converted:
		c.copy()
		c.out[k] = r.out
		c.chg = c.chg.at(at, r.chg)
	}
	return true
}

// end is the call's answer once every parameter is met.
func (c *argsCall) end() (map[string]any, bool, error) {
	s := c.s
	s.reportEdits(c.editList, c.args)
	if !c.walking {
		if c.chg != nil { // quickScalar's, for a listener
			c.chg.report(s.opts.OnChange, "")
		}
		if c.checked {
			c.checked = c.f.keysPass(c.args, s.params, len(c.args))
		}
		return c.out, c.checked, nil // nothing failed
	}
	c.chg.report(c.w.o.OnChange, "")
	if c.fail != nil {
		return c.out, false, render(c.fail, "")
	}
	return c.out, false, nil
}

// fitParams is fitProps for the parameters, which also tells where the
// rules of names and nulls would act: a key that is no property (counted),
// or null for a parameter that does not take it. Where a parameter does
// not fit, it stops there, and says how far it got (paramsFit).
func (s *Schema) fitParams(f *fitter, args map[string]any) paramsFit {
	t := s.params
	found := 0
	for i := range t.index.list {
		p := &t.index.list[i]
		v, ok := args[p.name]
		if !ok {
			continue
		}
		if quickKind(v)&p.t.quickAccepts() != 0 {
			// fitQuick's common case, taken first: no placeholder is such
			// a scalar (a type that has one, with an enum, takes none
			// quickly), and a conforming call is mostly these.
			f.work++
			found++
			continue
		}
		// fitQuick past its common case, which fit answers as it does
		if v == nil && s.opts.dropsNull(t, p.name, p.t) || !f.fit(v, p.t, 1) {
			return paramsFit{byProps: true, next: i, found: found}
		}
		if p.ph != 0 {
			if a := absenceOf(v); a.in(p.ph) && s.opts.dropsAbsent(t, p.name, p.t, a) {
				// a placeholder that fits, but that Check would refuse
				return paramsFit{byProps: true, next: i, found: found}
			}
		}
		found++
	}
	all := (found == len(args) || !s.opts.renames(t)) && (!f.check || f.keysPass(args, t, found))
	return paramsFit{byProps: true, all: all, next: len(t.index.list), found: found}
}

// reportEdits delivers the changes of the edits the rules of names and
// nulls made to args, before the others of the call.
func (s *Schema) reportEdits(edits []keyEdit, args map[string]any) {
	if s.opts.OnChange == nil {
		return
	}
	for _, e := range edits {
		v := args[e.key]
		s.opts.OnChange(editChange(s.params, e, absenceOf(v), kindOf(v).public()))
	}
}

// quickScalar is what the walker (single) makes of the scalar v declared
// t, where that is a plain conversion to a scalar type: the usual repair
// ("5" for an integer, "false" for a boolean), for which Schema.Coerce
// then needs no walker, listener or not. It reports false for anything
// else, which is the walker's.
func quickScalar(o *Options, v any, t *Type) (quick, bool) {
	switch v.(type) {
	case string, bool, float64, json.Number:
	default:
		return quick{}, false
	}
	if t.kind == typeUnion {
		t = o.optionalMember(v, t)
	}
	if t == nil || !t.scalarType() {
		return quick{}, false
	}
	c := convertScalar(o, v, kindOf(v), t)
	return quick{c.out, t, c.rule}, c.why == nil && c.rule != 0
}

// quick is what quickScalar made: the value, the member of a union that
// made it, and the rule, for the change a listener hears of.
type quick struct {
	out  any
	t    *Type
	rule Rule
}
