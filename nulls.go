package coerce

import (
	"github.com/coerce-go/coerce/internal/jsonwire"
)

// The rule of nulls at every level: null for a property of a declared
// object that is neither required nor nullable means "not given" (OpenAI's
// strict mode makes every optional property required and nullable, nested
// ones included, and models send null where the tool's own schema has
// none), so it is removed, and reported (NullRemoved). The parameters of an
// argument set are keyEdits' (names.go), with the rule of names; below
// them, the reads of a call remove them as they go: the fitters say that
// an object holding one does not fit as it is, and the walks, over Go
// values (walker.members, cand.drop) and over text (textWalk.nullGoes,
// leaveOut), leave the member out of what they write, in the same pass as
// every other conversion. A parameter that fails comes back as it came,
// nulls included, as for any conversion.
//
// The rule follows the declared types through objects and arrays, not
// into unions: which member declares an object's keys is the union's
// choice, and no null is removed on a guess. Nor does it look into a Go
// value of another type than encoding/json decodes into (a map of
// pointers: its nil is no JSON null until written). JSON text in a string
// is read against its one type as any value is (textOne), and a
// json.RawMessage counts as the value it holds.

// dropsNulls reports whether the rule of nulls may act in this call.
func (o *Options) dropsNulls() bool {
	return !o.KeepNulls && !o.StructuredOnly
}

// A nullRule is where a read of a call stands toward the rule of nulls:
// whether it acts in the call (on), and how many unions, or other values
// it does not look into, the read is inside (off). Each fitter and each
// walk keeps one; drops and dropsText are the one statement of the
// decision for all of them.
type nullRule struct {
	on  bool
	off int
	// results is the results direction's (results.go): null where an
	// array is declared is an empty array, never "not given".
	results bool
}

// drops reports whether null for property key of object type obj goes.
func (n *nullRule) drops(obj *Type, key string) bool {
	return n.on && n.off == 0 && nullGoes(obj, key, n.results)
}

// dropsText is drops for a key of JSON text, its bytes between the quotes.
func (n *nullRule) dropsText(obj *Type, key []byte, escaped bool) bool {
	return n.on && n.off == 0 && nullGoesText(obj, key, escaped, n.results)
}

// nullGoes reports whether null for property key of object type obj is
// "not given": declared, and nullGoesAs its declared type.
func nullGoes(obj *Type, key string, results bool) bool {
	pt, declared := obj.prop(key)
	return declared && nullGoesAs(obj, key, pt, results)
}

// nullGoesText is nullGoes for a key of JSON text, its bytes between the
// quotes: without allocating, but for a key with escapes.
func nullGoesText(obj *Type, key []byte, escaped, results bool) bool {
	if escaped {
		return nullGoes(obj, jsonwire.Unescape(key), results)
	}
	pt, declared := obj.propBytes(key)
	return declared && nullGoesAs(obj, key, pt, results)
}

// nullGoesAs is the rule of nulls's one statement of its decision, for
// the property key of object type obj, declared pt (a string, or the
// bytes of a key of JSON text): null goes where pt does not take it, the
// property is not required, and obj is not a Go struct's (which takes null
// for every field, as encoding/json does); in the results direction, pt
// is no array either (an empty one, results.go). The parameters' rule
// (Options.dropsNull) and the compiler's mark of the types it may act
// below (markNullsBelow, which asks it of arguments, where more goes)
// ask it too.
func nullGoesAs[S ~string | ~[]byte](obj *Type, key S, pt *Type, results bool) bool {
	if obj.goStruct || pt.takesNull() || results && pt.kind == typeArray {
		return false
	}
	for _, r := range obj.required {
		if r == string(key) {
			return false
		}
	}
	return true
}

// nullRemoved is the change of a null removed from object obj at key,
// which the walks put at the key's path (changes.at).
func nullRemoved(obj *Type, key string) *changes {
	return &changes{own: []Change{removal(obj, "", key, isNull)}}
}
