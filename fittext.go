package coerce

// The fit checks of JSON text, beside those of values (fit.go): CoerceJSON
// runs them as its one validating pass over the arguments, Unmarshal over
// the text it is given, and fitRawMessage over a json.RawMessage.

import (
	"encoding/binary"
	"encoding/json"
	"math/bits"
	"slices"

	"github.com/coerce-go/coerce/internal/jsonwire"
)

// fitRawMessage fits a json.RawMessage as the JSON value it holds, on
// every path: its text is read as CoerceJSON reads text, so that a
// RawMessage holding a value that conforms is returned as it is.
func (f *fitter) fitRawMessage(raw json.RawMessage, t *Type, depth int) bool {
	i := jsonwire.Space(raw, 0)
	if i == len(raw) {
		return false
	}
	end, ok, err := f.fitRaw(raw, i, t, depth)
	return ok && err == nil && jsonwire.End(raw, end) == nil
}

// fitArgs validates the argument object that starts at data[i] and fits
// each parameter to its type; once one does not fit, the rest is only
// validated.
func (f *fitter) fitArgs(data []byte, i int, params *Type) (end int, fits bool, err *jsonwire.Error) {
	fits = true
	start := i
	i, more, err := jsonwire.Open(data, i, 0, f.maxDepth)
	checksKeys := f.check && params != nil && params.judgesKeys()
	indexed := params != nil && params.index != nil && params.patterns == nil
	var kc keyCheck
	members := 0
	for more && err == nil {
		members++
		var at shortMember // the member fitShort read the key of
		if fits && indexed {
			var stop shortStop
			switch i, stop, kc.seen, at = f.fitShort(data, i, params, kc.seen); stop {
			case closed:
				more = false
				continue
			case afterValue:
				i, more, err = jsonwire.Next(data, i, true)
				continue
			}
		}
		keyStart, keyEnd := at.keyStart, at.keyEnd
		var escaped bool
		var w uint64
		short := false
		if at.t == nil {
			var n, next int
			w, n, next, short = jsonwire.ShortKey(data, i)
			if short {
				keyStart, keyEnd, i = i+1, i+1+n, next
			} else if keyStart, keyEnd, escaped, i, err = jsonwire.Key(data, i); err != nil {
				break
			}
		}
		if fits && checksKeys {
			kc.key(params, data[keyStart:keyEnd], escaped)
		}
		ft := at.t
		if (fits || f.keyRules != nil && !f.keyEdits) && params != nil {
			switch ix := params.index; {
			case ft != nil: // fitShort's
			case short && ix != nil && params.patterns == nil:
				var found bool // shortField, without its call
				if ft, found = ix.shortProp(w); !found {
					ft = params.rest
				}
			case short:
				ft = shortField(params, w, data[keyStart:keyEnd])
			default:
				ft = rawField(params, data[keyStart:keyEnd], escaped)
			}
			if f.keyRules != nil && !f.keyEdits {
				// Only a key no property claims, a null or a placeholder
				// can need an edit.
				if j := jsonwire.Space(data, i); j < len(data) && (ft == params.rest || data[j] == 'n' || mayBeEmpty(data, j)) &&
					f.keyRules.editsTextKey(params, ft, data[keyStart:keyEnd], escaped, absenceOfText(data, j)) {
					fits = false // a parameter to rename, or a null to remove
					f.keyEdits = true
				}
			}
		}
		if !fits {
			ft = nil // the rest is only validated: the walker fits it again
		}
		if end, ok := f.fitLeaf(data, i, ft); ok {
			i = end
		} else {
			if i, ok, err = f.fitRaw(data, i, ft, 1); err != nil {
				break
			}
			if !ok && fits {
				fits, f.misfit = false, keyStart-1 // the key's opening quote
			}
		}
		if i < len(data) && data[i] == ',' { // the usual comma, without a call
			i = jsonwire.Space(data, i+1)
		} else {
			i, more, err = jsonwire.Next(data, i, true)
		}
	}
	if err != nil {
		return 0, false, err
	}
	if members == 1 && f.keyRules != nil && f.envelopeAt(data, start, params) {
		f.envelope, fits = true, false // the rule of envelopes may read it
	}
	return i, fits && (!checksKeys || kc.ok(params)), nil
}

// Where fitShort stopped.
type shortStop uint8

const (
	atKey      shortStop = iota // at a member it did not read: the caller reads it
	afterValue                  // just past a value not followed at once by a comma: Next reads on
	closed                      // just past the object's closing brace
	atValue                     // at a declared member's value it does not take at once (shortMember)
)

// A shortMember is the member fitShort stopped at with atValue: where its
// key is (between the quotes; plain, not escaped) and the type declared
// for it.
type shortMember struct {
	keyStart, keyEnd int
	t                *Type
}

// fitShort fits the members of the object of type t (indexed, without
// patterns) from the key at data[i], for as long as each is the usual one:
// a key of at most sixteen plain bytes that t declares (see ShortKey), a
// colon, at most one space, and a value that fitLeaf takes at once; then a
// comma or the closing brace. Every member it reads fits, and it reads
// them as fitArgs and fitRawContainer would, with no call per member but
// for strings longer than seven bytes (one call, SkipStringRest) and numbers
// (one call, PlainInt, for an integer). It returns where it stopped and why,
// and adds the required names it read to kc (check mode; every key it
// reads is declared, so none is unknown).
func (f *fitter) fitShort(data []byte, i int, t *Type, seen uint64) (next int, stop shortStop, seenNow uint64, at shortMember) {
	ix := t.index
	var mt *Type // the member's type
	var q, v int // the key's closing quote, the value's start
	// The short table and the work count in registers: the loop stores
	// nothing but f.work and kc.seen, on the way out.
	short, mul, shift := ix.short, ix.shortMul, ix.shortShift&63
	work, budget := f.work, f.budget
	for work < budget && i >= 0 && i+9 <= len(data) && data[i] == '"' {
		// The key: ShortKey's, or a medium one of up to sixteen bytes,
		// then a colon and at most one space.
		x := binary.LittleEndian.Uint64(data[i+1:])
		var x2 uint64 // a medium key's second word
		m := jsonwire.Specials(x)
		n := 0 // the key's length
		if m != 0 {
			n = bits.TrailingZeros64(m) >> 3
			x &= (m&-m)>>7 - 1 // the bytes below the first special
		} else if i+9 < len(data) && data[i+9] == '"' {
			n = 8
		} else {
			if ix.medium == nil || i+17 > len(data) {
				break
			}
			x2 = binary.LittleEndian.Uint64(data[i+9:])
			m2 := jsonwire.Specials(x2)
			if m2 == 0 {
				break
			}
			n2 := bits.TrailingZeros64(m2) >> 3
			x2 &= 1<<(8*n2) - 1
			n = 8 + n2
		}
		q = i + 1 + n // the closing quote, if it is one
		if q+2 >= len(data) || data[q] != '"' || data[q+1] != ':' {
			break
		}
		v = q + 2
		if data[v] == ' ' {
			if v++; v >= len(data) {
				break
			}
		}
		var found bool
		var req uint64
		if n <= 8 { // shortProp, on the table in registers
			for h := (x * mul) >> shift; ; h = (h + 1) & uint64(len(short)-1) {
				if s := &short[h]; s.t == nil || s.w == x {
					mt, found, req = s.t, s.t != nil, s.req
					break
				}
			}
		} else {
			mt, req, found = ix.mediumProp(x, x2)
		}
		if !found || mt == t.rest { // the rules of names and nulls may read it
			break
		}
		// The value: fitLeaf's rules.
		end := 0
		if f.check && mt.enum != nil {
			goto value // fitRaw compares it with the enum
		}
		switch c := data[v]; mt.kind {
		case typeString:
			if c != '"' || mt.enum != nil {
				goto value
			}
			var err *jsonwire.Error
			if v+9 <= len(data) {
				// Up to seven bytes at once; a longer string, or one with
				// an escape, is read on from where this word stopped.
				j := v + 9
				if m := jsonwire.Specials(binary.LittleEndian.Uint64(data[v+1:])); m != 0 {
					j = v + 1 + bits.TrailingZeros64(m)>>3
				}
				if j < len(data) && data[j] == '"' {
					end = j + 1
				} else {
					end, err = jsonwire.SkipStringRest(data, j)
				}
			} else {
				end, err = jsonwire.SkipString(data, v)
			}
			if err != nil {
				goto value
			}
		case typeInteger, typeNumber:
			var ok bool
			if end, ok = jsonwire.PlainInt(data, v); !ok {
				if c != '-' && c-'0' > 9 {
					goto value
				}
				e, isInt, err := jsonwire.SkipNumber(data, v)
				if err != nil || !isInt && !numberTextFits(data[v:e], mt) {
					goto value
				}
				end = e
			}
		case typeBoolean:
			switch {
			case c == 't' && len(data)-v >= 4 && string(data[v:v+4]) == "true":
				end = v + 4
			case c == 'f' && len(data)-v >= 5 && string(data[v:v+5]) == "false":
				end = v + 5
			default:
				goto value
			}
		default:
			goto value
		}
		work++ // as fitLeaf counts it
		seen |= req
		if end < len(data) && data[end] == ',' {
			i = jsonwire.Space(data, end+1)
			continue
		}
		f.work = work
		if end < len(data) && data[end] == '}' {
			return end + 1, closed, seen, at
		}
		return end, afterValue, seen, at
	}
	f.work = work
	return i, atKey, seen, at
value:
	// A member whose key it read, but not the value: the caller fits the
	// value with its type, rather than read the key again.
	f.work = work
	return jsonwire.Space(data, v), atValue, seen, shortMember{i + 1, q, mt}
}

// rawField is Type.field for a key as it stands in JSON text, between its
// quotes: decoded only if it has escapes.
func rawField(t *Type, key []byte, escaped bool) *Type {
	if escaped {
		return t.field(jsonwire.Unescape(key))
	}
	if t.patterns != nil {
		return t.patterns.fieldBytes(t, key)
	}
	if f, ok := t.propBytes(key); ok {
		return f
	}
	return t.rest
}

// shortField is rawField for a short plain key, as jsonwire.ShortKey
// reads it: w is the word it reads, key the key's bytes.
func shortField(t *Type, w uint64, key []byte) *Type {
	if ix := t.index; ix != nil && t.patterns == nil {
		if f, ok := ix.shortProp(w); ok {
			return f
		}
		return t.rest
	}
	return rawField(t, key, false)
}

// A rawChild names a member of a container in JSON text: the bytes of an
// object's key (between the quotes), or an array's index (index >= 0).
// The key is decoded into a string only where a path needs it.
type rawChild struct {
	key     []byte
	escaped bool
	index   int
}

// of is the type that container type t declares for the member.
func (c rawChild) of(t *Type) *Type {
	if c.index >= 0 {
		return t.item(c.index)
	}
	return rawField(t, c.key, c.escaped)
}

// child is the member's name in a path.
func (c rawChild) child() child {
	if c.index >= 0 {
		return child{index: c.index}
	}
	return child{key: jsonwire.Unescape(c.key), index: -1}
}

// known is Type.known for a key in JSON text.
func (c rawChild) known(t *Type) bool {
	if c.escaped {
		return t.known(jsonwire.Unescape(c.key))
	}
	if _, ok := t.propBytes(c.key); ok {
		return true
	}
	return t.patterns != nil && t.patterns.match(c.key) != 0
}

// same reports whether two keys of one object are the same key.
func (c rawChild) same(d rawChild) bool {
	if !c.escaped && !d.escaped {
		return string(c.key) == string(d.key)
	}
	return jsonwire.Unescape(c.key) == jsonwire.Unescape(d.key)
}

// prop is the type of the property the key names, escapes decoded, or
// nil if t declares none by that name (the key is decoded once, the same
// way for every rule that reads it).
func (c rawChild) prop(t *Type) *Type {
	var pt *Type
	if c.escaped {
		pt, _ = t.prop(jsonwire.Unescape(c.key))
	} else {
		pt, _ = t.propBytes(c.key)
	}
	return pt
}

// is reports whether the member's key is k.
func (c rawChild) is(k string) bool {
	if c.escaped {
		return jsonwire.Unescape(c.key) == k
	}
	return string(c.key) == k
}

// fitLeaf is fitRaw for the usual member, at data[i] (no whitespace
// before it): a string where a string is declared, a number where a
// number or an integer is (a small integer at once), true or false where a
// boolean is. ok says that it was one,
// valid, and that it fits; otherwise fitRaw reads the member again, and
// reports its error if it has one.
func (f *fitter) fitLeaf(data []byte, i int, t *Type) (end int, ok bool) {
	if t == nil || f.work >= f.budget || i >= len(data) || f.check && t.enum != nil {
		return 0, false
	}
	switch c := data[i]; t.kind {
	case typeString:
		if c == '"' && t.enum == nil {
			if end, ok = jsonwire.ShortString(data, i); !ok {
				var err *jsonwire.Error
				end, err = jsonwire.SkipString(data, i)
				ok = err == nil // an error is fitRaw's to report
			}
		}
	case typeInteger, typeNumber:
		if end, ok = jsonwire.ShortInt(data, i); !ok && (c == '-' || c-'0' <= 9) {
			var isInt bool
			var err *jsonwire.Error
			end, isInt, err = jsonwire.SkipNumber(data, i)
			ok = err == nil && (isInt || numberTextFits(data[i:end], t))
		}
	case typeBoolean:
		if c == 't' && len(data)-i >= 4 && string(data[i:i+4]) == "true" {
			end, ok = i+4, true
		} else if c == 'f' && len(data)-i >= 5 && string(data[i:i+5]) == "false" {
			end, ok = i+5, true
		}
	}
	if ok {
		f.work++ // as fitRaw counts it
	}
	return end, ok
}

// fitRaw validates the JSON value that starts at data[i] (after optional
// whitespace), nested in depth containers, and reports where it ends and
// whether it fits t as it is. It allocates nothing (keys with escapes
// aside), and reads each byte once. In check mode a value fits only if
// t's enum or const allows it too (its text then read twice: an enum's
// values are short).
func (f *fitter) fitRaw(data []byte, i int, t *Type, depth int) (end int, ok bool, err *jsonwire.Error) {
	if f.check && t != nil && t.enum != nil && !f.inEnum(data, i, t, depth) {
		end, err = jsonwire.Skip(data, jsonwire.Space(data, i), depth, f.maxDepth)
		return end, false, err
	}
	i = jsonwire.Space(data, i)
	if i >= len(data) || t.isAny() {
		end, err = jsonwire.Skip(data, i, depth, f.maxDepth)
		return end, err == nil, err
	}
	if f.work++; f.work > f.budget {
		end, err = jsonwire.Skip(data, i, depth, f.maxDepth)
		return end, false, err
	}
	// The usual parameter first: a string or a number where one is
	// declared, read and fitted at once (fitRawScalar's rules).
	c := data[i]
	switch t.kind {
	case typeString:
		if c == '"' {
			if end, err = jsonwire.SkipString(data, i); err != nil {
				return 0, false, err
			}
			return end, t.enum == nil || enumRespellingRaw(t, data[i:end]) == "", nil
		}
	case typeInteger, typeNumber:
		if c == '-' || c-'0' <= 9 {
			end, isInt, err := jsonwire.SkipNumber(data, i)
			if err != nil {
				return 0, false, err
			}
			return end, isInt || numberTextFits(data[i:end], t), nil
		}
	}
	k := tokenKind(c)
	switch t.kind {
	case typeUnion:
		return f.fitRawUnion(data, i, t, k, depth)
	case typeObject, typeArray:
		if k == kindNull {
			end, err = jsonwire.Skip(data, i, depth, f.maxDepth)
			return end, err == nil && f.nullFits(t), err
		}
		if t.kind.valueKind() != k || f.opaque(t) {
			end, err = jsonwire.Skip(data, i, depth, f.maxDepth)
			return end, t.kind.valueKind() == k, err
		}
		return f.fitRawContainer(data, i, t, k, depth)
	}
	end, err = jsonwire.Skip(data, i, depth, f.maxDepth)
	if err != nil {
		return 0, false, err
	}
	return end, fitRawScalar(data[i:end], k, t) && (k != kindNull || f.nullFits(t)), nil
}

// fitRawContainer fits the object or array (k) at data[i] to t, the one
// type it meets: each member against the type t gives it, directly (the
// set machinery of fitRawMany is for unions); once a member does not fit,
// the rest is only validated.
func (f *fitter) fitRawContainer(data []byte, i int, t *Type, k kind, depth int) (int, bool, *jsonwire.Error) {
	i, more, err := jsonwire.Open(data, i, depth, f.maxDepth)
	if err != nil {
		return 0, false, err
	}
	fits := true
	var kc keyCheck // in check mode, an object's keys
	for n := 0; more; n++ {
		var mt *Type // nil: only validate
		if k == kindObject {
			var stop shortStop
			if i, mt, fits, stop, err = f.objectMember(data, i, t, fits, &kc); err != nil {
				return 0, false, err
			}
			switch stop {
			case closed:
				return i, fits && (!f.check || kc.ok(t)), nil
			case afterValue:
				if i, more, err = jsonwire.Next(data, i, true); err != nil {
					return 0, false, err
				}
				continue
			}
		} else if fits {
			mt = t.item(n)
		}
		if k == kindArray && mt != nil && mt.kind == typeObject && i < len(data) && data[i] == '{' &&
			!f.opaque(mt) && (mt.enum == nil || !f.check) && f.work < f.budget {
			// An array of objects: fitRaw's path to the element, without
			// its calls (fitLeaf, fitRaw).
			f.work++
			var ok bool
			if i, ok, err = f.fitRawContainer(data, i, mt, kindObject, depth+1); err != nil {
				return 0, false, err
			}
			fits = fits && ok
		} else if end, ok := f.fitLeaf(data, i, mt); ok {
			i = end
		} else {
			if i, ok, err = f.fitRaw(data, i, mt, depth+1); err != nil {
				return 0, false, err
			}
			fits = fits && ok
		}
		if i < len(data) && data[i] == ',' { // the usual comma, without a call
			i = jsonwire.Space(data, i+1)
		} else if i, more, err = jsonwire.Next(data, i, k == kindObject); err != nil {
			return 0, false, err
		}
	}
	return i, fits && (!f.check || kc.ok(t)), nil
}

// objectMember reads the members of an object of type t from the key at
// data[i]: those fitShort fits at once, then the key of the next, and
// returns where its value starts, the type it meets (nil: only validate
// it, once the object does not fit) and whether the object still fits:
// not where the rule of nulls removes the member. stop says whether
// fitShort read the object to its end (closed) or past a value
// (afterValue). In check mode it notes the keys in kc. Out of line: its
// state would otherwise sit in the frame of fitRawContainer, which a deep
// value has at every level.
//
//go:noinline
func (f *fitter) objectMember(data []byte, i int, t *Type, fits bool, kc *keyCheck) (int, *Type, bool, shortStop, *jsonwire.Error) {
	var at shortMember // the member fitShort read the key of
	if fits && t.index != nil && t.patterns == nil {
		var stop shortStop
		if i, stop, kc.seen, at = f.fitShort(data, i, t, kc.seen); stop == closed || stop == afterValue {
			return i, nil, fits, stop, nil
		}
	}
	var mt *Type
	var key []byte
	escaped := false
	if at.t != nil {
		key, mt = data[at.keyStart:at.keyEnd], at.t
	} else if w, n, next, ok := jsonwire.ShortKey(data, i); ok {
		key = data[i+1 : i+1+n]
		if ix := t.index; fits && ix != nil && t.patterns == nil {
			var found bool // shortField, without its call
			if mt, found = ix.shortProp(w); !found {
				mt = t.rest
			}
		} else if fits {
			mt = shortField(t, w, key)
		}
		i = next
	} else {
		keyStart, keyEnd, esc, next, err := jsonwire.Key(data, i)
		if err != nil {
			return 0, nil, false, atKey, err
		}
		key, escaped = data[keyStart:keyEnd], esc
		if fits {
			mt = rawField(t, key, escaped)
		}
		i = next
	}
	if fits && f.check && t.judgesKeys() {
		kc.key(t, key, escaped)
	}
	if fits && i < len(data) && data[i] == 'n' && f.nulls.dropsText(t, key, escaped) {
		fits, mt = false, nil // the rule of nulls removes it: not as it is
	}
	return i, mt, fits, atKey, nil
}

// fitRawUnion is fitUnion on JSON text.
func (f *fitter) fitRawUnion(data []byte, i int, u *Type, k kind, depth int) (int, bool, *jsonwire.Error) {
	if k != kindNull { // the usual union, a type or null: its one member of kind k, without the set below
		var one *Type
		n := 0
		for _, m := range u.members {
			if matchesKind(m.kind, k) || k == kindNumber && m.kind == typeInteger {
				one = m
				n++
			}
		}
		switch {
		case n == 0:
			end, err := jsonwire.Skip(data, i, depth, f.maxDepth)
			return end, false, err
		case n == 1 && !one.keyed && !u.memberNulls:
			return f.fitRaw(data, i, one, depth) // fitRawMember's usual case, without its frame
		case n == 1 && !one.keyed:
			return f.fitRawMember(data, i, u, one, depth)
		}
	}
	var ms typeSet
	keyed := false
	for _, m := range u.members {
		if matchesKind(m.kind, k) || k == kindNumber && m.kind == typeInteger {
			if ms.add(m) < 0 {
				end, err := jsonwire.Skip(data, i, depth, f.maxDepth)
				return end, false, err
			}
			keyed = keyed || m.keyed
		}
	}
	switch {
	case k == kindNull:
		end, err := jsonwire.Skip(data, i, depth, f.maxDepth)
		return end, err == nil && f.nullFits(u), err
	case ms.n == 0:
		end, err := jsonwire.Skip(data, i, depth, f.maxDepth)
		return end, false, err
	case ms.n == 1 && (!keyed || f.check):
		// One member: in check mode, its keys are judged as Check judges
		// them; of several, Check judges none.
		return f.fitRawMember(data, i, u, ms.list[0], depth)
	}
	var ks [maxSet]keys
	if u.memberNulls {
		f.nulls.off++ // as fitRawMember
	}
	end, mask, err := f.fitRawMany(data, i, ms.slice(), depth, &ks)
	if u.memberNulls {
		f.nulls.off--
	}
	if err != nil {
		return 0, false, err
	}
	return end, unionFitsKeys(&ms, mask, &ks), nil
}

// fitRawMember fits the value at data[i] to m, a member of union u.
func (f *fitter) fitRawMember(data []byte, i int, u, m *Type, depth int) (int, bool, *jsonwire.Error) {
	if !u.memberNulls {
		return f.fitRaw(data, i, m, depth)
	}
	f.nulls.off++ // the rule of nulls does not look into unions (nulls.go)
	end, ok, err := f.fitRaw(data, i, m, depth)
	f.nulls.off--
	return end, ok, err
}

// fitRawSet is fitSet on JSON text.
func (f *fitter) fitRawSet(data []byte, i int, ts []*Type, depth int) (int, uint64, *jsonwire.Error) {
	var es typeSet
	if !flattenSet(ts, &es) {
		return f.fitRawMany(data, i, ts, depth, nil)
	}
	if es.n < 0 {
		end, err := jsonwire.Skip(data, i, depth, f.maxDepth)
		return end, 0, err
	}
	var ks [maxSet]keys
	ets := es.slice()
	end, got, err := f.fitRawMany(data, i, ets, depth, &ks)
	if err != nil {
		return end, 0, err
	}
	return end, unionsFit(ts, &es, got, tokenKind(data[i]), f.nulls.results, func(m *Type) keys { return ks[slices.Index(ets, m)] }), nil
}

// fitRawMany is fitMany on JSON text: it validates the value at data[i]
// and returns the set of types of ts it fits; with ks, it also tells how
// an object meets the keywords of each object type.
func (f *fitter) fitRawMany(data []byte, i int, ts []*Type, depth int, ks *[maxSet]keys) (int, uint64, *jsonwire.Error) {
	if i >= len(data) { // the text ends where a value should start
		_, err := jsonwire.Skip(data, i, depth, f.maxDepth)
		return 0, 0, err
	}
	if f.work += len(ts); f.work > f.budget {
		end, err := jsonwire.Skip(data, i, depth, f.maxDepth)
		return end, 0, err
	}
	k := tokenKind(data[i])
	if k != kindObject && k != kindArray {
		end, err := jsonwire.Skip(data, i, depth, f.maxDepth)
		if err != nil {
			return 0, 0, err
		}
		var mask uint64
		for j, t := range ts {
			if t.isAny() || fitRawScalar(data[i:end], k, t) && (k != kindNull || f.nullFits(t)) {
				mask |= 1 << j
			}
		}
		return end, mask, nil
	}
	i, more, err := jsonwire.Open(data, i, depth, f.maxDepth)
	if err != nil {
		return 0, 0, err
	}
	tk := typeArray
	if k == kindObject {
		tk = typeObject
	}
	mask := f.kindMask(ts, tk, depth)
	var kt rawKeys
	if ks != nil && k == kindObject {
		kt.start(ts, mask)
	}
	var cs typeSet
	for n := 0; more; n++ {
		at := rawChild{index: n}
		if k == kindObject {
			keyStart, keyEnd, escaped, next, err := jsonwire.Key(data, i)
			if err != nil {
				return 0, 0, err
			}
			at = rawChild{key: data[keyStart:keyEnd], escaped: escaped, index: -1}
			i = next
			kt.key(ts, at)
		}
		valStart := i
		if mask == 0 {
			i, err = jsonwire.Skip(data, i, depth+1, f.maxDepth)
		} else {
			i, mask, err = f.fitRawChild(data, i, ts, mask, &cs, at, depth)
		}
		if err != nil {
			return 0, 0, err
		}
		if k == kindObject && kt.on {
			kt.value(ts, at, data[valStart:i])
		}
		if i, more, err = jsonwire.Next(data, i, k == kindObject); err != nil {
			return 0, 0, err
		}
	}
	kt.finish(ts, ks)
	return i, mask, nil
}

// fitRawChild is fitChild on JSON text.
func (f *fitter) fitRawChild(data []byte, i int, ts []*Type, mask uint64, cs *typeSet, at rawChild, depth int) (int, uint64, *jsonwire.Error) {
	cs.reset()
	var idx [maxSet]int8
	for j, t := range ts {
		idx[j] = -1
		if mask&(1<<j) == 0 || t.isAny() || !t.constrains() {
			continue
		}
		ct := at.of(t)
		if ct.isAny() {
			continue
		}
		if idx[j] = int8(cs.add(ct)); idx[j] < 0 {
			end, err := jsonwire.Skip(data, i, depth+1, f.maxDepth)
			return end, 0, err
		}
	}
	var end int
	var got uint64
	var err *jsonwire.Error
	switch cs.n {
	case 0:
		end, err = jsonwire.Skip(data, i, depth+1, f.maxDepth)
		return end, mask, err
	case 1:
		var ok bool
		end, ok, err = f.fitRaw(data, i, cs.list[0], depth+1)
		if ok {
			got = 1
		}
	default:
		end, got, err = f.fitRawSet(data, i, cs.slice(), depth+1)
	}
	for j := range ts {
		if idx[j] >= 0 && got&(1<<idx[j]) == 0 {
			mask &^= 1 << j
		}
	}
	return end, mask, err
}
