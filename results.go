package coerce

import (
	"github.com/coerce-go/coerce/internal/jsonwire"
	"github.com/coerce-go/coerce/internal/results"
)

// The results direction: a tool's structured result (MCP's
// structuredContent) read against the tool's output schema, by the client
// that receives it or the server that sends it (package toolcall's Output,
// through internal/results). It is the engine of arguments, read by the
// same fitters and walks, with one rule of its own, about null.
//
// For arguments, null conforms to every type: a decoder leaves the field
// as it was, and the rule of nulls removes it where it means "not given".
// A result is data that must conform as it stands: null conforms only
// where the type takes it (nullConforms). Where an array is declared, it
// is what Go's encoding/json writes for a nil slice, and becomes []
// (reported as NullRemoved); elsewhere it fails, with ErrKind. The rule of
// nulls removes null for a property neither required nor nullable as it
// does in arguments, but for an array property, which gets its [].
//
// The root of a result may be any type (MCP 2026-07-28, SEP-2106), so the
// text is read as Unmarshal reads a value, and an object's members as the
// parameters of CoerceJSON (coerceText with args false). It is checked as
// Options.Check checks arguments: in the same pass where it conforms as
// it came, otherwise once coerced.

// notNull is why a null a result may not hold does not convert.
var notNull = &Error{Err: ErrKind, Detail: "null where the output schema does not admit it"}

// nullConforms reports whether null conforms to t as it stands: always,
// but in the results direction. The one statement of it, for the fitters
// (fitter.nullFits, unionsFit) and the walks (nullConversion).
func nullConforms(results bool, t *Type) bool {
	return !results || declaresNull(t) // inlined: arguments pay no call
}

// declaresNull reports whether t takes null as it is: any, null, or a
// union with a null member.
func declaresNull(t *Type) bool {
	return t.isAny() || t.takesNull()
}

// nullFits is nullConforms for the fitter's call.
func (f *fitter) nullFits(t *Type) bool {
	return nullConforms(f.nulls.results, t)
}

// noItems is the [] null becomes, made once: it has no room to write
// into, so the results that share it cannot change it.
var noItems any = []any{}

// nullConversion is what null becomes against t, as convertScalar says
// it of a scalar, for the walks to apply (walker.result): itself where it
// conforms, [] for an array, and otherwise nothing. ok is false for a
// union, whose members the walk measures it by, as any value (choose).
func nullConversion(results bool, t *Type) (c conversion, ok bool) {
	switch {
	case nullConforms(results, t):
		return conversion{}, true
	case t.kind == typeUnion:
		return conversion{}, false
	case t.kind == typeArray:
		return convertedTo(noItems, NullRemoved), true
	}
	return refused(notNull), true
}

func init() {
	results.Options = func(o any) { o.(*Options).results = true }
	results.Coerce = func(s any, text []byte) ([]byte, error) { return s.(*Schema).coerceResult(text) }
}

// coerceResult is the results direction's CoerceJSON: text, the JSON text
// of a result of any kind, coerced to the Schema's root and checked.
func (s *Schema) coerceResult(text []byte) ([]byte, error) {
	var passed bool
	out, changes, err := coerceText(&s.opts, text, s.root, false, &passed)
	if err == nil && !passed {
		err = s.checkResult(out)
	}
	if err != nil {
		return text, err
	}
	if changes != nil {
		s.opts.deliver(changes)
	}
	return out, nil
}

// checkResult is Check of a coerced result, text read as it stands: as
// checkText reads arguments, once by the fitter in check mode, which
// passes the usual result, and decoded for Check's walk (findings) where
// it does not.
func (s *Schema) checkResult(text []byte) error {
	f := newFitter(&s.opts)
	f.check, f.nulls.on = true, false
	if end, fits, err := f.fitRaw(text, 0, s.root, 0); err == nil && fits && jsonwire.End(text, end) == nil {
		return nil
	}
	v, err := decodeJSON(text, true, s.opts.maxDepth())
	if err != nil {
		e := *err.(*Error)
		return wholeText(&e, text, s.root)
	}
	return findings(&s.opts, s.root, v, 0, workPerByte*len(text))
}
