package coerce

import (
	"bytes"
	"encoding/json"

	"github.com/coerce-go/coerce/internal/jsonwire"
	"github.com/coerce-go/coerce/internal/nearjson"
)

// CoerceJSON is Coerce on the JSON text of an argument object, for SDKs
// that hand arguments over as json.RawMessage. The bytes of every value
// that needs no change are copied verbatim (key order, number text and
// spacing inside them survive); only the values that need converting are
// rewritten, as compact JSON. When nothing needs converting, CoerceJSON
// returns args itself and allocates nothing. Failures are per parameter, as
// in Coerce. JSON null passes as no arguments; other text that is not a
// JSON object is returned unchanged with an error.
//
// Unlike Coerce, which is handed values already decoded, CoerceJSON reads
// the whole text, so all of it must be valid JSON within MaxDepth and
// MaxSize, values of undeclared parameters included: with a MaxDepth lower
// than the default, a deep value that Coerce would pass through untouched
// fails here with ErrLimit.
func (s *Schema) CoerceJSON(args []byte) ([]byte, error) {
	out, changes, err := s.coerceArgsText(args, s.opts.Check)
	if changes != nil {
		s.opts.deliver(changes)
	}
	return out, err
}

// coerceArgsText is CoerceJSON, checked (Check) where check says, with
// the changes returned for the caller to deliver (CoerceJSON, FromReply).
func (s *Schema) coerceArgsText(args []byte, check bool) ([]byte, []Change, error) {
	var passed bool
	var mode *bool // check mode, where the fitter can pass the call
	if check && s.checksParams {
		mode = &passed
	}
	out, changes, err := coerceText(&s.opts, args, s.params, true, mode)
	if err == nil && check && !passed {
		err = s.checkText(out)
	}
	return out, changes, err
}

// argsObject reports whether argument text is an object, and where it
// starts, after any whitespace: the one statement of it for every entry
// point that reads argument text (CoerceJSON, its near-JSON repair,
// Unmarshal, CheckJSON reads the decoded value).
func argsObject(text []byte) (start int, ok bool) {
	start = jsonwire.Space(text, 0)
	return start, start < len(text) && text[start] == '{'
}

// A textWalk is the walk over JSON text: the walker's decisions and its
// budget, with the text it reads and the text it writes. The value walk
// (walker) knows nothing of either.
type textWalk struct {
	walker

	// superseded holds the offsets of keys in CoerceJSON's arguments that
	// occur again later in their object (see supersededKeys), once
	// superKnown; restart asks rawArgs to walk again (see knowSuperseded).
	superseded          map[int]int
	superKnown, restart bool
	boxed               bool // boxes holds the text's containers (see end)
	// edits are the renames and removals of parameters the rules of names
	// and nulls make (textEdits), which rawMembers makes as it meets them.
	edits              *argEdits
	dataStart, dataEnd int // the arguments' object in data, for the pre-pass
	// from is where rawArgs begins, if not at the first member: the key of
	// the first member that the fitter found not to fit (fitter.misfit).
	from int

	// The output (see rawArgs and splice).
	data []byte
	out  []byte
	pos  int
}

// rawArgs is the walk of CoerceJSON's arguments that do not all fit: each
// parameter is evaluated against its type, and the text is copied with the
// converted values written in place (see splice). A parameter that fails
// keeps its bytes. The walk reads each byte once, as it goes.
//
// A key given twice is decided by its last occurrence, the one every
// decoder keeps; the others are copied as they are. The keys of nested
// objects that occur again are found by a pre-pass over the whole text
// (supersededKeys), run when the walk first enters such an object. The
// parameters' keys, the usual case, are compared with each other as the
// walk meets them: when one repeats an earlier one, or when the pre-pass
// marks one the walk has evaluated already, the walk starts again with the
// pre-pass done, from the state it began in, so the answer is the one a
// walk knowing every repeated key from the start gives.
//
// The walk begins at the first member that does not fit (from), where
// the fitter found one: the members before it fit as they are, and are
// copied as they are, which is also what a key given again later makes
// of them (the walk never evaluated them, so nothing must be undone).
func (w *textWalk) rawArgs(args []byte, start, end int, params *Type) ([]byte, error) {
	w.ensure()
	w.data, w.dataStart, w.dataEnd = args, start, end
	work := w.work
	out, again, err := w.rawMembers(args, start, params)
	if again {
		// The work of the walk given up still counts for the call's tally,
		// as bytes scanned; the budget starts where it did.
		w.scanned += w.work - work
		w.work, w.limit, w.stopAll, w.restart = work, nil, false, false
		w.types, w.res, w.cands, w.leaves = w.types[:0], w.res[:0], w.cands[:0], w.leaves[:0]
		w.knowSuperseded()
		w.restart = false
		out, _, err = w.rawMembers(args, start, params)
	}
	return out, err
}

// rawMembers is one walk of rawArgs; again reports that it must start
// over, knowing the repeated keys.
func (w *textWalk) rawMembers(args []byte, start int, params *Type) (out []byte, again bool, err error) {
	w.out, w.pos, w.top = nil, 0, w.topKeys[:0]
	var fail *failure
	var chg *changes
	var seen uint64 // the parameters' keys met, by a hash of their length and ends
	prev := -1      // where the member before ends, once the walk has kept one
	i, more, _ := jsonwire.Open(args, start, 0, w.maxDepth)
	if w.from > i {
		i = w.from // with no edits to make: j and prev are theirs alone
	}
	for j := 0; more; j++ {
		keyQuote := i
		keyStart, keyEnd, escaped, lo, _ := jsonwire.Key(args, i)
		var edit keyEdit
		if w.edits != nil {
			var goes bool
			if edit, goes = w.edits.of(j, args[keyStart:keyEnd], escaped); goes {
				end, _ := jsonwire.Skip(args, lo, 0, 1<<30)
				i, more, prev = w.leaveOut(keyQuote, end, prev)
				continue
			}
		}
		if !w.superKnown {
			if escaped || len(w.top) == cap(w.top) {
				// Keys with escapes, or many of them: the pre-pass.
				if w.knowSuperseded(); w.restart {
					return nil, true, nil
				}
			} else {
				// Keys are compared only when one with the same length
				// and ends has been met (a bit of seen says so).
				key := keySpan{int32(keyQuote), int32(keyEnd + 1), false}
				bit := uint64(1) << ((uint(keyEnd-keyStart)*7 + uint(args[keyStart]) + uint(args[keyEnd-1])*3) & 63)
				if seen&bit != 0 {
					for _, k := range w.top {
						if sameKey(args, k, key) {
							return nil, true, nil // an earlier occurrence was evaluated
						}
					}
				}
				seen |= bit
				w.top = append(w.top, key)
			}
		}
		var ft *Type
		at := rawChild{key: args[keyStart:keyEnd], escaped: escaped, index: -1}
		switch {
		case edit.to != "":
			// Renamed: the key is written as the property's name, and the
			// value read against its type.
			w.splice(keyQuote, keyEnd+1)
			n := len(w.out)
			w.out, _ = appendJSON(w.out, edit.to, 0)
			name := w.out[n+1 : len(w.out)-1]
			at = rawChild{key: name, escaped: bytes.IndexByte(name, '\\') >= 0, index: -1}
			ft = params.field(edit.to)
		case !w.superKnown || !w.isSuperseded(keyQuote):
			ft = rawField(params, args[keyStart:keyEnd], escaped)
		}
		hi := 0
		if ft.isAny() {
			hi, _ = jsonwire.Skip(args, lo, 0, 1<<30)
		} else {
			m := w.mark()
			var r result
			hi, r = w.rawInto(lo, ft, 1)
			if w.restart {
				return nil, true, nil
			}
			if w.limit != nil {
				if w.stopAll && !w.superKnown {
					// A later key might repeat one evaluated already, and
					// change how much work the walk takes.
					return nil, true, nil
				}
				hi, _ = jsonwire.Skip(args, lo, 0, 1<<30)
				e := w.limitError(ft, json.RawMessage(args[lo:hi]), json.RawMessage(args))
				if w.stopAll {
					return args, false, &e
				}
				r = result{state: failed, fail: leafFailure(e)}
			}
			switch r.state {
			case failed:
				w.rollback(m)
				fail = w.failAt(fail, at.child(), &r)
			case converted:
				if r.chg != nil { // the key is made a string only then
					chg = chg.at(at.child(), r.chg)
				}
			}
		}
		prev = hi
		i, more, _ = jsonwire.Next(args, hi, true)
	}
	out = args
	if w.out != nil {
		out = append(w.out, args[w.pos:]...)
	}
	chg.report(w.o.OnChange, "")
	if fail != nil {
		return out, false, render(fail, "")
	}
	return out, false, nil
}

// The output of the raw walk: w.out holds the text written so far, which
// is w.data up to w.pos with the converted values in place. Values that fit
// cost nothing: their bytes are copied when the next converted value, or
// the end, is written.
type outMark struct{ n, pos int }

func (w *textWalk) mark() outMark { return outMark{len(w.out), w.pos} }

// rollback forgets what was written since m: the value it began failed,
// and keeps its bytes.
func (w *textWalk) rollback(m outMark) { w.out, w.pos = w.out[:m.n], m.pos }

// splice copies w.data up to lo and resumes the input at hi: the caller
// writes the value that replaces w.data[lo:hi].
func (w *textWalk) splice(lo, hi int) {
	if w.out == nil {
		w.out = make([]byte, 0, len(w.data)+len(w.data)/4+16)
	}
	w.out = append(w.out, w.data[w.pos:lo]...)
	w.pos = hi
}

// rawInto is the walk of the valid JSON value at w.data[i] against t: it
// writes what converts (splice) and returns where the value ends. A value
// that meets a union is rawUnion's.
func (w *textWalk) rawInto(i int, t *Type, depth int) (int, result) {
	k := tokenKind(w.data[i])
	switch {
	case w.limit != nil || !w.spend(walkCost):
		return w.rawSkip(i)
	case t.kind == typeUnion && k != kindObject && k != kindArray:
		return w.rawScalarOfUnion(i, k, t, depth)
	case t.kind == typeUnion:
		return w.rawUnion(i, k, t, depth)
	case k == kindObject || k == kindArray:
		return w.rawContainerInto(i, k, t, depth)
	case k == kindNull:
		return w.rawNull(i, t)
	}
	return w.rawScalarInto(i, k, t, depth)
}

// The cases of rawInto are functions of their own, kept out of line, so
// that rawInto and rawContainerInto, the frames of every level of a deep
// value, stay small: a value 10000 deep needs that many of each.

// rawSkip passes over the value at w.data[i], once the call has stopped.
//
//go:noinline
func (w *textWalk) rawSkip(i int) (int, result) {
	end, _ := jsonwire.Skip(w.data, i, 0, 1<<30)
	return end, result{}
}

// rawUnion is rawInto for an object or array (kind k) met by union u. One
// that one member alone can take (Optional[T], the usual union), or whose
// keys choose the member, is that member's walk, in place; another is the
// value walk's (rawUnionInto).
//
//go:noinline
func (w *textWalk) rawUnion(i int, k kind, u *Type, depth int) (int, result) {
	m := w.o.soleMember(u, k)
	if m == nil && k == kindObject {
		m = w.keyedMember(i, u)
	}
	if m == nil {
		return w.rawUnionInto(i, u, depth)
	}
	w.nulls.off++ // the rule of nulls does not look into unions (nulls.go)
	end, r := w.rawInto(i, m, depth)
	w.nulls.off--
	return end, w.named(r, u)
}

// rawScalarOfUnion is rawInto for a scalar met by a union: one decode, and
// the members convert it as they would the value (single, scalarUnion).
// Optional[T] and a scalar only T takes (optionalMember) is T's walk, as
// the value walk's is (optional), read from the bytes as for T alone.
//
//go:noinline
func (w *textWalk) rawScalarOfUnion(i int, k kind, t *Type, depth int) (int, result) {
	data := w.data
	end, _ := jsonwire.Skip(data, i, 0, 1)
	for _, m := range t.members {
		if k == kindNull && nullConforms(w.o.results, m) || k != kindNull && (m.isAny() || m.scalarType() && fitRawScalar(data[i:end], k, m)) {
			return end, result{}
		}
	}
	if m := t.orNull(); m != nil && k != kindNull && !w.o.WrapScalars && (k != kindString || plainNotNull(data[i+1:end-1])) {
		w.nulls.off++ // as optional
		_, r := w.rawScalarInto(i, k, m, depth)
		w.nulls.off--
		return end, w.named(r, t)
	}
	return end, w.rawDecoded(i, end, t, depth)
}

// plainNotNull reports whether the content of a string token, without
// escapes, is no spelling of null (spellsNull): a string only the other
// member of Optional[T] takes (Options.optionalMember).
func plainNotNull(content []byte) bool {
	return bytes.IndexByte(content, '\\') < 0 && !spellsNull(string(content))
}

// rawUnionInto is rawInto for an object or array met by a union whose
// members must be evaluated together (see soleMember). One that fits
// keeps its bytes (the fitter reads it, allocating nothing); any other is
// decoded and converted as a value, by the walk that chooses among a
// union's members (choose.go), and written over its text where it
// converts (rawDecoded): the text walk states no union rule of its own.
//
//go:noinline
func (w *textWalk) rawUnionInto(i int, t *Type, depth int) (int, result) {
	f := newFitter(&w.o)
	f.budget, f.nulls = w.budget-w.work, w.nulls
	end, fits, _ := f.fitRaw(w.data, i, t, depth)
	if !w.spend(f.work) || fits {
		return end, result{}
	}
	return end, w.rawDecoded(i, end, t, depth)
}

// keyedMember is keyedChoice for the object at w.data[i], met by union
// u: the object's keys and scalar values are read as the fitter reads
// them (rawKeys), and each value is passed over by its end (end), not
// read, so that a walk of nested keyed unions reads each byte once.
//
//go:noinline
func (w *textWalk) keyedMember(i int, u *Type) *Type {
	var ms typeSet
	keyed := false
	for _, m := range u.members {
		if m.kind == typeObject {
			if ms.add(m) < 0 {
				return nil
			}
			keyed = keyed || m.keyed
		}
	}
	ts := ms.slice()
	var ks [maxSet]keys
	if keyed && len(ts) > 0 {
		data := w.data
		var kt rawKeys
		kt.start(ts, 0)
		i, more, _ := jsonwire.Open(data, i, 0, 1<<30)
		for more {
			if !w.spend(len(ts)) {
				return nil
			}
			keyStart, keyEnd, escaped, next, _ := jsonwire.Key(data, i)
			at := rawChild{key: data[keyStart:keyEnd], escaped: escaped, index: -1}
			kt.key(ts, at)
			i = w.end(next)
			kt.value(ts, at, data[next:i])
			i, more, _ = jsonwire.Next(data, i, true)
		}
		kt.finish(ts, &ks)
	} else {
		for j := range ts {
			ks[j] = keysSat | keysAsIs
		}
	}
	return keyedChoice(u, ts, ks[:len(ts)])
}

// rawNull is rawInto for null against a type that is not a union: as it
// is where it conforms, and otherwise what nullConversion makes of it
// (results.go), written from the bytes.
func (w *textWalk) rawNull(i int, t *Type) (int, result) {
	if nullConforms(w.o.results, t) {
		return i + 4, result{}
	}
	c, _ := nullConversion(w.o.results, t)
	r := w.result(nil, t, c)
	if r.state == converted {
		w.splice(i, i+4)
		var err error
		if w.out, err = appendJSON(w.out, r.out, 0); err != nil {
			return i + 4, w.failWith(nil, t, err)
		}
	}
	return i + 4, r
}

// rawScalarInto is rawInto for a string, number or boolean against a type
// that is not a union.
//
//go:noinline
func (w *textWalk) rawScalarInto(i int, k kind, t *Type, depth int) (int, result) {
	data := w.data
	end, _ := jsonwire.Skip(data, i, 0, 1)
	if t.isAny() || fitRawScalar(data[i:end], k, t) {
		return end, result{}
	}
	if k == kindString {
		// The usual repairs, written from the bytes (stringRepair).
		content := data[i+1 : end-1]
		if r, ok := stringRepair(&w.o, content, t); ok {
			w.splice(i, end)
			w.out = appendStringRepair(w.out, content, r)
			return end, w.scalarChange(content, t, r)
		}
	}
	return end, w.rawDecoded(i, end, t, depth)
}

// scalarChange is the result of a string, whose content (with no escapes)
// is text, converted to scalar type t by rule r where it is written from
// the bytes: the change the walker reports for it, made only when someone
// listens.
func (w *textWalk) scalarChange(text []byte, t *Type, r Rule) result {
	if w.o.OnChange == nil {
		return result{state: converted}
	}
	return w.convert(string(text), t, nil, r)
}

// rawDecoded converts the JSON value w.data[i:end], which does not fit t
// as it is, as the value walk converts its decoded value, and writes what
// it becomes: the scalars the text walk does not convert from the bytes,
// and the objects and arrays a union meets.
func (w *textWalk) rawDecoded(i, end int, t *Type, depth int) result {
	if w.data[i] == '"' && t.takesText() {
		if r, ok := w.rawText(i, end, t, depth); ok {
			return r
		}
	}
	var val any
	switch w.data[i] {
	case '{', '[':
		// As the value walk reads JSON text in a string (parse), but for
		// the budget: these bytes are counted once, as the call's.
		var err error
		if val, err = decodeJSON(w.data[i:end], w.o.UseNumber, w.maxDepth-depth); err != nil {
			return w.failWith(json.RawMessage(w.data[i:end]), t, err)
		}
	default:
		val = jsonwire.DecodeScalar(w.data[i:end], w.o.UseNumber)
	}
	r := w.one(val, t, depth, false)
	w.settleResult(&r, val, t)
	out := r.out
	switch r.state {
	case failed:
		return r
	case converted:
		if c := w.data[i]; c == '{' || c == '[' {
			if _, err := w.writeOver(i, val, out); err != nil {
				return w.failWith(val, t, err) // the caller puts the text back
			}
			return r
		}
	case fits: // the decoded value fits where the text did not (5.0 for a Go integer): write it as decoded
		if c := w.data[i]; c == '{' || c == '[' {
			return r // it keeps its bytes, as the fitter would have kept them
		}
		if w.data[i] == '"' {
			// A string is the value it spells: nothing to write. It was
			// decoded only because the rule of enums might have respelled
			// it, and did not (ExactEnums, StructuredOnly).
			return r
		}
		out = val
		r.state = converted
	}
	w.splice(i, end)
	var err error
	if w.out, err = appendJSON(w.out, out, 0); err != nil {
		return w.failWith(val, t, err)
	}
	return r
}

// rawText is rawScalar for the usual repair, a string holding JSON text
// (bare, encoded once more, or fenced) that one object or array type of t
// takes as it is: the text is written in place of the string, compacted,
// rather than decoded and encoded again. It reports false for any other
// string, which rawScalar converts as a value. The text written decodes to
// what the value would be written as (keys may stay in their order, and
// numbers as written), so CoerceJSON(b) still decodes to Coerce(decode(b)).
// Its report is the walker's: the rule that unwrapped the text and each
// near-JSON fix (textChanges).
func (w *textWalk) rawText(i, end int, t *Type, depth int) (result, bool) {
	content := w.data[i+1 : end-1]
	if len(content) < 2 || w.o.MaxSize > 0 && len(content) > w.o.MaxSize {
		return result{}, false
	}
	// The string is unescaped into the scratch buffer and read there as
	// jsonText reads it, without a string of its own; what takes more
	// than a look at its ends (text encoded once more, near-JSON) goes to
	// jsonText.
	w.ensure()
	w.text = jsonwire.AppendUnescaped(w.text[:0], content)
	var found string // what the change shows of the string, made only for a listener
	if w.o.OnChange != nil {
		found = preview(string(w.text))
	}
	rule := JSONText
	var fixes nearjson.Fixes
	sh, text := sniff(w.text)
	switch sh {
	case shapeFenced:
		if sh, text = sniffPlain(text); sh == shapeNone {
			return result{}, false
		}
		rule = Fenced
	case shapeNone, shapeQuoted:
		if noText(&w.o, sh, text) {
			return result{}, false
		}
		var st string
		var why conversion
		if sh, st, rule, fixes, why = jsonText(&w.o, string(w.text)); sh == shapeNone || why.why != nil {
			return result{}, false
		}
		w.text = append(w.text[:0], st...)
		text = w.text
	}
	m := textMember(t, sh)
	if m == nil {
		return result{}, false
	}
	f := newFitter(&w.o)
	f.budget = w.budget - w.work
	tend, fits, err := f.fitRaw(text, 0, m, depth)
	if err != nil || !fits || jsonwire.End(text, tend) != nil || !w.spend(f.work) {
		return result{}, false
	}
	w.splice(i, end)
	w.out = jsonwire.AppendCompact(w.out, text)
	r := result{state: converted}
	if w.o.OnChange != nil {
		r.chg = &changes{own: withFixes([]Change{{Declared: m.String(), Found: String, Preview: found, Rule: rule}}, fixes)}
	}
	return r, true
}

// takesText reports whether JSON text in a string can become t: whether t
// is, or has as a member, an object or array type.
func (t *Type) takesText() bool {
	return textMember(t, shapeObject) != nil || textMember(t, shapeArray) != nil
}

// textMember is the one type of t that JSON text of shape sh can become:
// t itself, an object or array type of that kind, or a union's only
// member of that kind; nil if there is none or more than one.
func textMember(t *Type, sh shape) *Type {
	want := typeObject
	if sh == shapeArray {
		want = typeArray
	}
	if t.kind == want {
		return t
	}
	if t.kind != typeUnion {
		return nil
	}
	var m *Type
	for _, c := range t.members {
		switch {
		case c.kind == want && m == nil:
			m = c
		case c.kind == want, c.kind == typeObject, c.kind == typeArray, c.kind == typeString, c.isAny():
			return nil // another member might take the string: the union chooses
		}
	}
	return m
}

// rawContainerInto is rawInto for an object or array.
func (w *textWalk) rawContainerInto(i int, k kind, t *Type, depth int) (int, result) {
	data := w.data
	tk := typeArray
	if k == kindObject {
		tk = typeObject
	}
	switch {
	case t.isAny() || t.kind == tk && !t.constrains():
		end, _ := jsonwire.Skip(data, i, 0, 1<<30)
		return end, result{}
	case t.kind == typeString:
		return w.rawToText(i, tk, t, depth)
	case t.kind != tk:
		return w.rawWrongKind(i, t)
	case depth >= w.maxDepth:
		w.tooDeep()
		end, _ := jsonwire.Skip(data, i, 0, 1<<30)
		return end, result{}
	}
	var fail *failure
	var chg *changes
	changed := false
	lo := i
	prev := -1 // where the member before ends, once the walk has kept one
	i, more, _ := jsonwire.Open(data, i, 0, 1<<30)
	for n := 0; more; n++ {
		at := rawChild{index: n}
		skip := false
		if k == kindObject {
			var next int
			var gone bool
			if at, next, skip, gone = w.memberKey(i, t); gone {
				i, more, prev, chg = w.dropMember(i, next, t, at, skip, prev, chg)
				changed = true
				continue
			}
			i = next
		}
		mt := anyType
		if !skip {
			mt = at.of(t)
		}
		var r result
		if mt.isAny() {
			i, _ = jsonwire.Skip(data, i, 0, 1<<30)
		} else {
			i, r = w.rawInto(i, mt, depth+1)
		}
		if w.limit != nil {
			end, _ := jsonwire.Skip(data, lo, 0, 1<<30)
			return end, result{}
		}
		switch r.state {
		case failed:
			fail = w.failAt(fail, at.child(), &r)
		case converted:
			changed = true
			if r.chg != nil { // the key is made a string only then
				chg = chg.at(at.child(), r.chg)
			}
		}
		prev = i
		i, more, _ = jsonwire.Next(data, i, k == kindObject)
	}
	switch {
	case fail != nil:
		return i, result{state: failed, fail: fail}
	case changed:
		return i, result{state: converted, chg: chg}
	}
	return i, result{}
}

// memberKey reads the key of a member of an object of type t, which opens
// at w.data[i]: the key, where its value starts, whether a later
// occurrence of it decides (superseded), and whether the member goes by
// the rule of nulls (nullGoes). It and dropMember are out of line so that
// rawContainerInto, a frame of every level of a deep value, stays small.
//
//go:noinline
func (w *textWalk) memberKey(i int, t *Type) (at rawChild, value int, superseded, goes bool) {
	keyStart, keyEnd, escaped, value, _ := jsonwire.Key(w.data, i)
	at = rawChild{key: w.data[keyStart:keyEnd], escaped: escaped, index: -1}
	decider, superseded := w.supersededAt(keyStart - 1)
	return at, value, superseded, w.nullGoes(t, at, value, decider, superseded)
}

// dropMember leaves out the member of object type t whose key opens at
// w.data[key] and whose value at w.data[value] (leaveOut), and adds its
// change to chg, but for an earlier occurrence of a key given again
// (superseded), whose last occurrence is reported.
//
//go:noinline
func (w *textWalk) dropMember(key, value int, t *Type, at rawChild, superseded bool, prev int, chg *changes) (int, bool, int, *changes) {
	end, _ := jsonwire.Skip(w.data, value, 0, 1<<30)
	next, more, prev := w.leaveOut(key, end, prev)
	if w.o.OnChange != nil && !superseded {
		chg = chg.at(at.child(), nullRemoved(t, at.child().key))
	}
	return next, more, prev, chg
}

// nullGoes reports whether the member of object type t whose key is at
// (its value at w.data[value]) goes by the rule of nulls: its value is a
// null the rule removes, or, for a key given again later (superseded),
// the value of the occurrence that decides (its key at w.data[decider])
// is, so that no earlier one is left for a decoder to take instead.
func (w *textWalk) nullGoes(t *Type, at rawChild, value, decider int, superseded bool) bool {
	if superseded {
		_, _, _, value, _ = jsonwire.Key(w.data, decider)
	}
	return w.data[value] == 'n' && w.nulls.dropsText(t, at.key, at.escaped)
}

// isSuperseded reports whether the key whose opening quote is at
// w.data[off] occurs again later in its object, once the pre-pass has run.
func (w *textWalk) isSuperseded(off int) bool {
	_, ok := w.superseded[off]
	return ok
}

// leaveOut leaves out of the text written the member of an object whose
// key opens at w.data[key] and whose value ends at end (a null the rule
// of nulls removes, a parameter the rules of names and nulls remove), with
// the comma that joins it to the others: the one before it, if the walk
// has kept a member of the object (prev is then where the member before
// ends), or else the one after it. It returns where the next member
// starts, whether there is one, and prev for it.
func (w *textWalk) leaveOut(key, end, prev int) (next int, more bool, _ int) {
	next, more, _ = jsonwire.Next(w.data, end, true)
	switch {
	case prev >= 0:
		w.splice(prev, end)
		return next, more, end
	case more:
		w.splice(key, next)
	default:
		w.splice(key, end)
	}
	return next, more, -1
}

// rawToText writes the object or array at w.data[i], declared the string
// type t, as JSON text in a string (out of line, as rawInto's cases are).
//
//go:noinline
func (w *textWalk) rawToText(i int, tk typeKind, t *Type, depth int) (int, result) {
	data := w.data
	end, _ := jsonwire.Skip(data, i, 0, 1<<30)
	if w.o.MaxSize <= 0 || end-i <= w.o.MaxSize {
		// Text already as the encoder would write it, but for whitespace,
		// is written as it is, read once.
		m := w.mark()
		w.splice(i, end)
		var ok bool
		if w.out, ok = jsonwire.AppendTextAsString(w.out, data[i:end], w.maxDepth-depth); ok {
			w.budget += workPerByte * (end - i)
			w.scanned += end - i
			r := w.convert(kindValue(tk), t, nil, ToJSONText)
			if r.chg != nil { // the text written, as newChange previews it
				r.chg.own[0].Preview = cut(string(jsonwire.AppendCompact(nil, data[i:end])), PreviewLen)
			}
			return end, r
		}
		w.rollback(m)
	}
	val, err := w.parse(data[i:end], depth)
	if err != nil {
		return end, w.failWith(json.RawMessage(data[i:end]), t, err)
	}
	text, err := w.encode(val, depth)
	if err != nil {
		return end, w.failWith(val, t, err)
	}
	w.splice(i, end)
	w.out, _ = appendJSON(w.out, text, 0)
	r := w.convert(kindValue(tk), t, nil, ToJSONText)
	if r.chg != nil {
		r.chg.own[0].Preview = cut(text, PreviewLen)
	}
	return end, r
}

// rawWrongKind fails the value at w.data[i], which t does not take
// (out of line, as rawInto's cases are).
//
//go:noinline
func (w *textWalk) rawWrongKind(i int, t *Type) (int, result) {
	end, _ := jsonwire.Skip(w.data, i, 0, 1<<30)
	return end, w.fail(json.RawMessage(w.data[i:end]), t, ErrKind, "")
}

// kindValue is an empty value of an object or array type's kind, to name
// the kind of a value found in JSON text.
func kindValue(tk typeKind) any {
	if tk == typeObject {
		return map[string]any(nil)
	}
	return []any(nil)
}

// writeOver writes conv, what the value walk converted orig to, over the
// valid JSON value at w.data[i] that orig was decoded from, in place
// (splice), as the text walk writes its own conversions: what conv keeps
// of orig keeps its bytes (keys in the order sent, numbers as written,
// space), and only the values that changed are written anew. An object or
// array whose keys or length changed is written whole. It returns where
// the value ends; the text is read once, whatever its depth.
func (w *textWalk) writeOver(i int, orig, conv any) (end int, err error) {
	data := w.data
	switch o := orig.(type) {
	case map[string]any:
		c, ok := conv.(map[string]any)
		if !ok || len(c) != len(o) || !sameKeys(o, c) {
			break
		}
		j, more, _ := jsonwire.Open(data, i, 0, 1<<30)
		for more {
			keyQuote := j
			keyStart, keyEnd, escaped, v, _ := jsonwire.Key(data, j)
			key := string(data[keyStart:keyEnd])
			if escaped {
				key = jsonwire.Unescape(data[keyStart:keyEnd])
			}
			if _, superseded := w.supersededAt(keyQuote); superseded { // a later occurrence decides
				j, _ = jsonwire.Skip(data, v, 0, 1<<30)
			} else if j, err = w.writeOver(v, o[key], c[key]); err != nil {
				return j, err
			}
			j, more, _ = jsonwire.Next(data, j, true)
		}
		return j, nil
	case []any:
		c, ok := conv.([]any)
		if !ok || len(c) != len(o) {
			break
		}
		j, more, _ := jsonwire.Open(data, i, 0, 1<<30)
		for n := 0; more; n++ {
			if j, err = w.writeOver(j, o[n], c[n]); err != nil {
				return j, err
			}
			j, more, _ = jsonwire.Next(data, j, false)
		}
		return j, nil
	}
	end, _ = jsonwire.Skip(data, i, 0, 1<<30)
	if !sameValue(orig, conv) {
		w.splice(i, end)
		w.out, err = appendJSON(w.out, conv, 0)
	}
	return end, err
}

// sameKeys reports whether two maps of the same length have the same keys.
func sameKeys(a, b map[string]any) bool {
	for k := range a {
		if _, ok := b[k]; !ok {
			return false
		}
	}
	return true
}

// sameValue reports whether the scalar conv is orig as it was decoded
// (the same kind and value: json.Number "5.0" is not "5").
func sameValue(orig, conv any) bool {
	switch conv.(type) {
	case nil, string, bool, float64, json.Number:
		return orig == conv
	}
	return false
}
