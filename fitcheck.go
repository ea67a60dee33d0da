package coerce

import "github.com/coerce-go/coerce/internal/jsonwire"

// The fitter's check mode (fitter.check, Options.Check): what Check asks
// of a call besides its types, judged in the fit pass, conservatively.

// A keyCheck tracks what Check asks of an object's keys while the fitter
// reads them in check mode: every required name given (the first 64), and
// none that a closed object does not declare.
type keyCheck struct {
	seen    uint64 // the required names met, by their index in t.required
	unknown bool   // a name a closed object does not declare
}

func (kc *keyCheck) key(t *Type, key []byte, escaped bool) {
	k := rawChild{key: key, escaped: escaped, index: -1}
	if t.closed && !k.known(t) {
		kc.unknown = true
	}
	for r, name := range t.required[:min(len(t.required), 64)] {
		if k.is(name) {
			kc.seen |= 1 << r
		}
	}
}

// judgesKeys reports whether Check judges the keys of an object of type t.
func (t *Type) judgesKeys() bool { return t.closed || len(t.required) > 0 }

func (kc *keyCheck) ok(t *Type) bool {
	return !kc.unknown && len(t.required) <= 64 && kc.seen == 1<<len(t.required)-1
}

// keysPass is keyCheck for an object as a Go map: every required name
// given, and no name a closed object does not declare. props is how many
// of m's keys the fitter met as properties of t and fitted: where that is
// not all of them (fitProps looks up t's properties), the others pass only
// if t is open and takes any value of its rest's without an enum.
func (f *fitter) keysPass(m map[string]any, t *Type, props int) bool {
	for _, name := range t.required {
		if _, ok := m[name]; !ok {
			return false
		}
	}
	return props == len(m) || !t.closed && t.rest.Enum() == nil
}

// judgesEnums reports whether Check asks anything of a value at t
// (not nil) of enums before it looks inside (enumJudge).
func (t *Type) judgesEnums() bool { return t.enum != nil || t.kind == typeUnion }

// opaque reports whether a container of type t fits whatever it holds, so
// that the fitter need not read inside: t constrains nothing below it, and
// in check mode has no required or closed keys (keyed) and no enum on
// what it holds.
func (f *fitter) opaque(t *Type) bool {
	switch {
	case t.constrains():
		return false
	case !f.check:
		return true
	case t.kind == typeObject:
		return !t.judgesKeys() && (t.rest == nil || t.rest.enum == nil)
	case t.kind == typeArray:
		return t.elem == nil || t.elem.enum == nil
	}
	return true
}

// inEnum reports whether the JSON value at data[i] (after space) is one of
// the values of t's enum. Text that is not a value is left to the caller,
// which reports it.
func (f *fitter) inEnum(data []byte, i int, t *Type, depth int) bool {
	i = jsonwire.Space(data, i)
	end, err := jsonwire.Skip(data, i, depth, f.maxDepth)
	return err != nil || tokenInEnum(t.enum, data[i:end], f.maxDepth)
}
