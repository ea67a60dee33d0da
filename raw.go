package coerce

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
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
	if s.opts.MaxSize > 0 && len(args) > s.opts.MaxSize {
		return args, &Error{Declared: "object", Value: json.RawMessage(args), Err: ErrLimit,
			Detail: "arguments longer than " + strconv.Itoa(s.opts.MaxSize) + " bytes"}
	}
	start := skipJSONSpace(args, 0)
	if string(trimSpace(args)) == "null" {
		return args, nil // no arguments: absence is a validator's business
	}
	f := newFitter(s.opts)
	if start == len(args) || args[start] != '{' {
		end, err := skipValue(args, start, f.maxDepth)
		if err == nil {
			err = trailing(args, end)
		}
		if err != nil {
			return args, rawFail(args, err)
		}
		return args, &Error{Declared: "object", Value: json.RawMessage(args), Err: ErrKind}
	}
	// One pass validates the text and fits each parameter to its type.
	end, fits, err := f.fitArgs(args, start, s.params)
	if err == nil {
		err = trailing(args, end)
	}
	if err != nil {
		return args, rawFail(args, err)
	}
	if fits {
		countWork(f.work + len(args))
		return args, nil
	}
	w := newWalker(s.opts, f.work)
	defer w.release()
	w.budget += workPerByte * len(args)
	w.scanned += len(args)
	return w.rawArgs(args, start, end, s.params)
}

// rawFail completes an error about the argument text as a whole.
func rawFail(args []byte, err error) error {
	e := *err.(*Error)
	e.Value = json.RawMessage(args)
	return &e
}

// trailing reports anything but whitespace after the value that ends at
// data[end].
func trailing(data []byte, end int) error {
	if skipJSONSpace(data, end) != len(data) {
		return errJSONAt(ErrSyntax, "trailing data", end)
	}
	return nil
}

// fitArgs validates the argument object that starts at data[i] and fits
// each parameter to its type; once one does not fit, the rest is only
// validated.
func (f *fitter) fitArgs(data []byte, i int, params *Type) (end int, fits bool, err error) {
	fits = true
	i = skipJSONSpace(data, i+1)
	if i < len(data) && data[i] == '}' {
		return i + 1, true, nil
	}
	for {
		if i >= len(data) {
			return 0, false, errJSONEOF(len(data))
		}
		if data[i] != '"' {
			return 0, false, errJSONChar(data, i, "looking for beginning of object key string")
		}
		keyEnd, escaped, e := scanJSONString(data, i+1)
		if e != nil {
			return 0, false, e
		}
		var ft *Type
		if fits && params != nil {
			ft = rawField(params, data[i+1:keyEnd-1], escaped)
		}
		if i, e = scanJSONColon(data, keyEnd); e != nil {
			return 0, false, e
		}
		var ok bool
		if i, ok, e = f.fitRaw(data, i, ft, 1); e != nil {
			return 0, false, e
		}
		fits = fits && ok
		i = skipJSONSpace(data, i)
		switch {
		case i >= len(data):
			return 0, false, errJSONEOF(len(data))
		case data[i] == ',':
			i = skipJSONSpace(data, i+1)
		case data[i] == '}':
			return i + 1, fits, nil
		default:
			return 0, false, errJSONChar(data, i, "after object key:value pair")
		}
	}
}

// rawField is Type.field for a key as it stands in JSON text, between its
// quotes: decoded only if it has escapes.
func rawField(t *Type, key []byte, escaped bool) *Type {
	if escaped {
		return t.field(keyString(key))
	}
	if t.patterns != nil {
		return t.patterns.fieldBytes(t, key)
	}
	if f, ok := t.props[string(key)]; ok { // no allocation: the conversion is in the map index
		return f
	}
	return t.rest
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
	return child{key: keyString(c.key), index: -1}
}

// known is Type.known for a key in JSON text.
func (c rawChild) known(t *Type) bool {
	if c.escaped {
		return t.known(keyString(c.key))
	}
	if _, ok := t.props[string(c.key)]; ok {
		return true
	}
	return t.patterns != nil && t.patterns.match(c.key) != 0
}

// is reports whether the member's key is k.
func (c rawChild) is(k string) bool {
	if c.escaped {
		return keyString(c.key) == k
	}
	return string(c.key) == k
}

// keyString decodes a key as it stands in valid JSON text, between its
// quotes.
func keyString(key []byte) string {
	if bytes.IndexByte(key, '\\') < 0 {
		return string(key)
	}
	quoted := make([]byte, 0, len(key)+2)
	quoted = append(append(append(quoted, '"'), key...), '"')
	s, err := decodeJSON(quoted, false, 1)
	if err != nil {
		return string(key)
	}
	return s.(string)
}

// tokenKind is the kind of the JSON value that starts with byte c.
func tokenKind(c byte) kind {
	switch c {
	case '{':
		return kindObject
	case '[':
		return kindArray
	case '"':
		return kindString
	case 't', 'f':
		return kindBool
	case 'n':
		return kindNull
	}
	return kindNumber
}

// fitRaw validates the JSON value that starts at data[i] (after optional
// whitespace), nested in depth containers, and reports where it ends and
// whether it fits t as it is. It allocates nothing (keys with escapes
// aside), and reads each byte once.
func (f *fitter) fitRaw(data []byte, i int, t *Type, depth int) (end int, ok bool, err *Error) {
	i = skipJSONSpace(data, i)
	if i >= len(data) {
		return 0, false, errJSONEOF(len(data))
	}
	if t.isAny() {
		end, err = skipNested(data, i, depth, f.maxDepth)
		return end, err == nil, err
	}
	if f.work++; f.work > f.budget {
		end, err = skipNested(data, i, depth, f.maxDepth)
		return end, false, err
	}
	k := tokenKind(data[i])
	switch t.kind {
	case typeUnion:
		return f.fitRawUnion(data, i, t, k, depth)
	case typeObject, typeArray:
		if k == kindNull {
			end, err = scanJSONLiteral(data, i, "null")
			return end, err == nil, err
		}
		if t.kind.valueKind() != k || !t.constrains() {
			end, err = skipNested(data, i, depth, f.maxDepth)
			return end, t.kind.valueKind() == k, err
		}
		var mask uint64
		end, mask, err = f.fitRawMany(data, i, []*Type{t}, depth, nil)
		return end, mask != 0, err
	}
	end, err = skipNested(data, i, depth, f.maxDepth)
	if err != nil {
		return 0, false, err
	}
	return end, fitRawScalar(data[i:end], k, t), nil
}

// fitRawScalar fits the scalar JSON value tok, of kind k, to scalar type t.
func fitRawScalar(tok []byte, k kind, t *Type) bool {
	switch {
	case k == kindNull:
		return true
	case t.kind == typeInteger:
		return k == kindNumber && numberTextWhole(tok)
	}
	return t.kind.valueKind() == k
}

// fitRawUnion is fitUnion on JSON text.
func (f *fitter) fitRawUnion(data []byte, i int, u *Type, k kind, depth int) (int, bool, *Error) {
	var ms typeSet
	keyed := false
	for _, m := range u.members {
		if matchesKind(m.kind, k) || k == kindNumber && m.kind == typeInteger {
			if ms.add(m) < 0 {
				end, err := skipNested(data, i, depth, f.maxDepth)
				return end, false, err
			}
			keyed = keyed || m.keyed
		}
	}
	switch {
	case k == kindNull:
		end, err := scanJSONLiteral(data, i, "null")
		return end, true, err
	case ms.n == 0:
		end, err := skipNested(data, i, depth, f.maxDepth)
		return end, false, err
	case ms.n == 1 && !keyed:
		return f.fitRaw(data, i, ms.list[0], depth)
	}
	var ks [maxSet]keys
	end, mask, err := f.fitRawMany(data, i, ms.slice(), depth, &ks)
	if err != nil {
		return 0, false, err
	}
	return end, unionFitsKeys(&ms, mask, &ks), nil
}

// fitRawMany is fitMany on JSON text: it validates the value at data[i]
// and returns the set of types of ts it fits; with ks, it also tells how
// an object meets the keywords of each object type.
func (f *fitter) fitRawMany(data []byte, i int, ts []*Type, depth int, ks *[maxSet]keys) (int, uint64, *Error) {
	if f.work += len(ts); f.work > f.budget {
		end, err := skipNested(data, i, depth, f.maxDepth)
		return end, 0, err
	}
	k := tokenKind(data[i])
	if k != kindObject && k != kindArray {
		end, err := skipNested(data, i, depth, f.maxDepth)
		if err != nil {
			return 0, 0, err
		}
		var mask uint64
		for j, t := range ts {
			if t.isAny() || fitRawScalar(data[i:end], k, t) {
				mask |= 1 << j
			}
		}
		return end, mask, nil
	}
	if depth >= f.maxDepth {
		return 0, 0, errJSONDepth(f.maxDepth, i)
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
	n := 0
	i = skipJSONSpace(data, i+1)
	closer := byte(']')
	if k == kindObject {
		closer = '}'
	}
	if i < len(data) && data[i] == closer {
		kt.finish(ts, ks)
		return i + 1, mask, nil
	}
	for {
		at := rawChild{index: n}
		if k == kindObject {
			if i >= len(data) {
				return 0, 0, errJSONEOF(len(data))
			}
			if data[i] != '"' {
				return 0, 0, errJSONChar(data, i, "looking for beginning of object key string")
			}
			keyEnd, escaped, err := scanJSONString(data, i+1)
			if err != nil {
				return 0, 0, err
			}
			at = rawChild{key: data[i+1 : keyEnd-1], escaped: escaped, index: -1}
			if i, err = scanJSONColon(data, keyEnd); err != nil {
				return 0, 0, err
			}
			i = skipJSONSpace(data, i)
			if i >= len(data) {
				return 0, 0, errJSONEOF(len(data))
			}
			kt.key(ts, at)
		}
		var err *Error
		valStart := i
		if mask == 0 {
			i, err = skipNested(data, i, depth+1, f.maxDepth)
		} else {
			i, mask, err = f.fitRawChild(data, i, ts, mask, &cs, at, depth)
		}
		if err != nil {
			return 0, 0, err
		}
		if k == kindObject && kt.on {
			kt.value(ts, at, data[valStart:i])
		}
		n++
		i = skipJSONSpace(data, i)
		switch {
		case i >= len(data):
			return 0, 0, errJSONEOF(len(data))
		case data[i] == ',':
			i = skipJSONSpace(data, i+1)
		case data[i] == closer:
			kt.finish(ts, ks)
			return i + 1, mask, nil
		case k == kindObject:
			return 0, 0, errJSONChar(data, i, "after object key:value pair")
		default:
			return 0, 0, errJSONChar(data, i, "after array element")
		}
	}
}

// fitRawChild is fitChild on JSON text.
func (f *fitter) fitRawChild(data []byte, i int, ts []*Type, mask uint64, cs *typeSet, at rawChild, depth int) (int, uint64, *Error) {
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
			end, err := skipNested(data, i, depth+1, f.maxDepth)
			return end, 0, err
		}
	}
	var end int
	var got uint64
	var err *Error
	switch cs.n {
	case 0:
		end, err = skipNested(data, i, depth+1, f.maxDepth)
		return end, mask, err
	case 1:
		var ok bool
		end, ok, err = f.fitRaw(data, i, cs.list[0], depth+1)
		if ok {
			got = 1
		}
	default:
		end, got, err = f.fitRawMany(data, i, cs.slice(), depth+1, nil)
		// A union member among the child types needs its own keywords:
		// fitRawMany fits the members of unions through fitRaw.
	}
	for j := range ts {
		if idx[j] >= 0 && got&(1<<idx[j]) == 0 {
			mask &^= 1 << j
		}
	}
	return end, mask, err
}

// rawKeys tracks, while an object's members go by, how the object meets
// the discriminating keywords of the keyed object types of a set.
type rawKeys struct {
	on     bool
	seen   [maxSet]uint64 // per type: which of its required keys were seen (the first 64)
	lost   uint64         // types whose keywords the object cannot satisfy
	unsure uint64         // types whose keywords it may satisfy after coercion
}

func (kt *rawKeys) start(ts []*Type, mask uint64) {
	for _, t := range ts {
		kt.on = kt.on || t.keyed
	}
}

func (kt *rawKeys) key(ts []*Type, key rawChild) {
	if !kt.on {
		return
	}
	for j, t := range ts {
		if !t.keyed {
			continue
		}
		if t.closed && !key.known(t) {
			kt.lost |= 1 << j
		}
		for r, req := range t.required[:min(len(t.required), 64)] {
			if key.is(req) {
				kt.seen[j] |= 1 << r
			}
		}
	}
}

// value compares the value of key with the const or enum of its property.
func (kt *rawKeys) value(ts []*Type, key rawChild, tok []byte) {
	for j, t := range ts {
		pt := key.of(t)
		if _, ok := t.props[string(key.key)]; !ok || key.escaped {
			pt = nil
		}
		if !t.keyed || pt == nil || pt.enum == nil {
			continue
		}
		v, ok := rawScalar(tok)
		switch {
		case !ok || !fitScalarOrNull(v, pt):
			kt.unsure |= 1 << j
		case !enumHas(pt.enum, v):
			kt.lost |= 1 << j
		}
	}
}

func (kt *rawKeys) finish(ts []*Type, ks *[maxSet]keys) {
	if ks == nil {
		return
	}
	for j, t := range ts {
		switch {
		case t.kind != typeObject:
			ks[j] = 0
		case !t.keyed:
			ks[j] = keysSat | keysAsIs
		case kt.lost&(1<<j) != 0 || len(t.required) > 64 || kt.seen[j] != 1<<len(t.required)-1:
			ks[j] = 0
		case kt.unsure&(1<<j) != 0:
			ks[j] = keysUnsure
		default:
			ks[j] = keysSat | keysAsIs
		}
	}
}

// rawScalar decodes a scalar JSON value for comparison with an enum;
// ok is false for objects and arrays.
func rawScalar(tok []byte) (any, bool) {
	switch tokenKind(tok[0]) {
	case kindObject, kindArray:
		return nil, false
	case kindNull:
		return nil, true
	case kindBool:
		return tok[0] == 't', true
	case kindNumber:
		return json.Number(tok), true
	}
	v, err := decodeJSON(tok, false, 1)
	return v, err == nil
}

// rawArgs is the walk of CoerceJSON's arguments that do not all fit: each
// parameter is evaluated against its type, and the text is copied with the
// converted ones rewritten. A parameter that fails keeps its bytes. The
// walk reads each byte once, as it goes; a pre-pass finds the keys given
// twice (the last occurrence is the one every decoder keeps; the others
// are copied as they are).
func (w *walker) rawArgs(args []byte, start, end int, params *Type) ([]byte, error) {
	w.superseded = supersededKeys(args[:end], start)
	var edits []*rawEdit
	var fail *failure
	var chg *changes
	i := skipJSONSpace(args, start+1)
	for i < end && args[i] == '"' {
		keyStart := i
		keyEnd, escaped, _ := scanJSONString(args, i+1)
		i, _ = scanJSONColon(args, keyEnd)
		lo := skipJSONSpace(args, i)
		var ft *Type
		if !w.superseded[keyStart] {
			ft = rawField(params, args[keyStart+1:keyEnd-1], escaped)
		}
		hi := 0
		if ft.isAny() {
			hi, _ = skipNested(args, lo, 0, 1<<30)
		} else {
			at := rawChild{key: args[keyStart+1 : keyEnd-1], escaped: escaped, index: -1}
			var r result
			hi, r = w.rawOne(args, lo, ft, 1)
			if w.limit != nil {
				e := *w.limit
				if w.stopAll {
					e.Declared, e.Value = "object", json.RawMessage(args)
					return args, &e
				}
				hi, _ = skipNested(args, lo, 0, 1<<30)
				e.Declared, e.Value = ft.String(), json.RawMessage(args[lo:hi])
				w.limit = nil
				r = result{state: failed, fail: leafFailure(e)}
			}
			switch r.state {
			case failed:
				if fail == nil {
					fail = w.newFailure()
				}
				fail.kids = append(fail.kids, failKid{at.child(), w.failureOf(&r)})
			case converted:
				edits = append(edits, r.out.(*rawEdit))
				if r.chg != nil {
					if chg == nil {
						chg = &changes{}
					}
					chg.kids = append(chg.kids, changeKid{at.child(), r.chg})
				}
			}
		}
		i = skipJSONSpace(args, hi)
		if i < end && args[i] == ',' {
			i = skipJSONSpace(args, i+1)
		}
	}
	out := args
	if len(edits) > 0 {
		out = make([]byte, 0, len(args)+len(args)/4+16)
		root := &rawEdit{lo: 0, hi: len(args), kids: edits}
		var err error
		if out, err = root.write(out, args, w); err != nil {
			return args, err
		}
	}
	w.report(chg, "")
	if fail != nil {
		return out, render(fail, "")
	}
	return out, nil
}

// supersededKeys returns the offsets of the keys, in the valid JSON text
// from data[start], that occur again later in the same object: nil when
// no key does, the usual case. It reads each byte once.
func supersededKeys(data []byte, start int) map[int]bool {
	var out map[int]bool
	type frame struct {
		obj  bool
		keys int // where the object's keys start in keys
	}
	var stack []frame
	var keys [][2]int // the key spans of the open objects
	expectKey := false
	for i := start; i < len(data); i++ {
		switch data[i] {
		case '{':
			stack = append(stack, frame{true, len(keys)})
			expectKey = true
		case '[':
			stack = append(stack, frame{false, len(keys)})
			expectKey = false
		case '}', ']':
			f := stack[len(stack)-1]
			if f.obj {
				out = markSuperseded(data, keys[f.keys:], out)
				keys = keys[:f.keys]
			}
			stack = stack[:len(stack)-1]
			expectKey = false
		case ',':
			expectKey = len(stack) > 0 && stack[len(stack)-1].obj
		case '"':
			end := skipStringValid(data, i)
			if expectKey {
				keys = append(keys, [2]int{i, end})
				expectKey = false
			}
			i = end - 1
		}
	}
	return out
}

// markSuperseded adds to out the keys of one object (spans, quotes
// included) that occur again later in it.
func markSuperseded(data []byte, spans [][2]int, out map[int]bool) map[int]bool {
	key := func(s [2]int) string { return keyString(data[s[0]+1 : s[1]-1]) }
	same := func(a, b [2]int) bool {
		ka, kb := data[a[0]+1:a[1]-1], data[b[0]+1:b[1]-1]
		if bytes.IndexByte(ka, '\\') < 0 && bytes.IndexByte(kb, '\\') < 0 {
			return bytes.Equal(ka, kb)
		}
		return keyString(ka) == keyString(kb)
	}
	mark := func(s [2]int) {
		if out == nil {
			out = map[int]bool{}
		}
		out[s[0]] = true
	}
	if len(spans) <= 16 {
		for a := range spans {
			for b := a + 1; b < len(spans); b++ {
				if same(spans[a], spans[b]) {
					mark(spans[a])
					break
				}
			}
		}
		return out
	}
	last := make(map[string]int, len(spans))
	for n, s := range spans {
		last[key(s)] = n
	}
	for n, s := range spans {
		if last[key(s)] != n {
			mark(s)
		}
	}
	return out
}

// skipStringValid returns the index past the valid JSON string literal
// whose opening quote is at data[i].
func skipStringValid(data []byte, i int) int {
	for i++; i < len(data); i++ {
		switch data[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return i
}

// A rawEdit is a change to JSON text: the bytes data[lo:hi] replaced by
// val written as JSON (whole), or copied with the edits kids applied.
type rawEdit struct {
	lo, hi int
	whole  bool
	val    any
	kids   []*rawEdit // in order of position
}

// write appends the edited text to dst.
func (e *rawEdit) write(dst, data []byte, w *walker) ([]byte, error) {
	if e.whole {
		v, err := w.settle(e.val)
		if err != nil {
			return dst, err
		}
		return appendJSON(dst, v, 0)
	}
	pos := e.lo
	for _, k := range e.kids {
		dst = append(dst, data[pos:k.lo]...)
		var err error
		if dst, err = k.write(dst, data, w); err != nil {
			return dst, err
		}
		pos = k.hi
	}
	return append(dst, data[pos:e.hi]...), nil
}

// rawOne evaluates the valid JSON value at data[i] against t, and returns
// where it ends.
func (w *walker) rawOne(data []byte, i int, t *Type, depth int) (int, result) {
	w.ensure()
	tb := len(w.types)
	w.pushType(t)
	end, rb := w.rawEval(data, i, w.types[tb:], depth)
	r := w.res[rb]
	w.res, w.types = w.res[:rb], w.types[:tb]
	return end, r
}

// rawEval is eval on the valid JSON value at data[i]: it returns where the
// value ends, and the index of its results, whose converted values hold a
// *rawEdit.
func (w *walker) rawEval(data []byte, i int, ts []*Type, depth int) (int, int) {
	w.ensure()
	base := w.push(len(ts))
	if len(ts) == 1 && ts[0].kind != typeUnion {
		return w.rawKinds(data, i, ts, base, depth), base
	}
	tb := len(w.types)
	for _, t := range ts {
		if t.kind == typeUnion {
			for _, m := range t.members {
				w.addType(tb, m)
			}
		} else {
			w.addType(tb, t)
		}
	}
	es := w.types[tb:]
	eb := w.push(len(es))
	end := w.rawKinds(data, i, es, eb, depth)
	k := tokenKind(data[i])
	for n, t := range ts {
		if t.kind == typeUnion {
			w.res[base+n] = w.chooseKind(k, t, es, w.res[eb:eb+len(es)])
		} else {
			w.res[base+n] = w.res[eb+slices.Index(es, t)]
		}
	}
	w.res, w.types = w.res[:eb], w.types[:tb]
	return end, base
}

// rawKinds fills w.res[rb:] with the results of the value at data[i]
// against es, and returns where it ends. Objects and arrays are walked
// here, keeping the bytes of what fits; scalars are decoded and converted
// as values.
func (w *walker) rawKinds(data []byte, i int, es []*Type, rb, depth int) int {
	k := tokenKind(data[i])
	if k == kindObject || k == kindArray {
		return w.rawContainer(data, i, k, es, rb, depth)
	}
	end, _ := skipNested(data, i, 0, 1)
	if w.limit != nil || !w.spend(walkCost*len(es)) || k == kindNull {
		return end
	}
	// The types the token fits keep it; for the others it is decoded once
	// and converted as a value.
	tb := len(w.types)
	for _, t := range es {
		if !t.isAny() && !fitRawScalar(data[i:end], k, t) {
			w.pushType(t)
		}
	}
	if conv := w.types[tb:]; len(conv) > 0 {
		val := decodeScalar(data[i:end], w.o.UseNumber)
		vb := w.eval(val, conv, depth, false)
		for n, t := range conv {
			r := w.res[vb+n]
			if r.state == converted {
				r.out = &rawEdit{lo: i, hi: end, whole: true, val: r.out}
			} else if r.state == fits { // the decoded value fits: write it as decoded
				r = result{state: converted, out: &rawEdit{lo: i, hi: end, whole: true, val: val}, keys: r.keys}
			}
			w.res[rb+slices.Index(es, t)] = r
		}
		w.res = w.res[:vb]
	}
	w.types = w.types[:tb]
	return end
}

// rawContainer walks the object or array at data[i] against es and
// returns where it ends.
func (w *walker) rawContainer(data []byte, i int, k kind, es []*Type, rb, depth int) int {
	lo := i
	tk := typeArray
	closer := byte(']')
	if k == kindObject {
		tk, closer = typeObject, '}'
	}
	cb := len(w.cands)
	for j, t := range es {
		switch {
		case t.isAny():
		case t.kind == tk && (t.constrains() || t.keyed):
			w.pushCand(cand{t: t, j: j})
		case t.kind == typeObject && k == kindObject:
			w.res[rb+j].keys = keysSat | keysAsIs
		}
	}
	if len(w.cands) == cb || w.limit != nil || !w.spend(walkCost*len(es)) {
		end, _ := skipNested(data, i, 0, 1<<30)
		w.cands = w.cands[:cb]
		w.containerRest(data, lo, end, tk, es, rb, depth)
		return end
	}
	if depth >= w.maxDepth {
		w.tooDeep()
		end, _ := skipNested(data, i, 0, 1<<30)
		w.cands = w.cands[:cb]
		return end
	}
	i = skipJSONSpace(data, i+1)
	for n := 0; data[i] != closer; n++ {
		at := rawChild{index: n}
		keyStart := i
		if k == kindObject {
			keyEnd, escaped, _ := scanJSONString(data, i+1)
			at = rawChild{key: data[i+1 : keyEnd-1], escaped: escaped, index: -1}
			i, _ = scanJSONColon(data, keyEnd)
			i = skipJSONSpace(data, i)
		}
		if k == kindObject && w.superseded[keyStart] {
			i, _ = skipNested(data, i, 0, 1<<30) // a later occurrence decides
		} else {
			i = w.rawMember(data, i, at, cb, depth)
		}
		if w.limit != nil {
			end, _ := skipNested(data, lo, 0, 1<<30)
			w.cands = w.cands[:cb]
			return end
		}
		i = skipJSONSpace(data, i)
		if data[i] == ',' {
			i = skipJSONSpace(data, i+1)
		}
	}
	end := i + 1
	for ci := cb; ci < len(w.cands); ci++ {
		c := &w.cands[ci]
		r := result{}
		switch {
		case c.fail != nil:
			r = result{state: failed, fail: c.fail}
		case c.edits != nil:
			r = result{state: converted, out: &rawEdit{lo: lo, hi: end, kids: c.edits}, chg: c.chg}
		}
		if tk == typeObject {
			r.keys = c.seenKeys()
		}
		w.res[rb+c.j] = r
	}
	clear(w.cands[cb:])
	w.cands = w.cands[:cb]
	w.containerRest(data, lo, end, tk, es, rb, depth)
	return end
}

// containerRest gives the results of the object or array data[lo:hi]
// against the types of es of other kinds: JSON text for a string (written
// only if the result is used), a failure for the rest.
func (w *walker) containerRest(data []byte, lo, hi int, tk typeKind, es []*Type, rb, depth int) {
	for j, t := range es {
		switch {
		case t.isAny() || t.kind == tk:
		case t.kind == typeString:
			r := w.convert(kindValue(tk), t, nil, ToJSONText)
			r.out = &rawEdit{lo: lo, hi: hi, whole: true, val: &lazyText{raw: data[lo:hi], depth: depth}}
			w.res[rb+j] = r
		default:
			w.res[rb+j] = w.fail(json.RawMessage(data[lo:hi]), t, ErrKind, "")
		}
	}
}

// rawMember evaluates the member at data[i] of a container in JSON text
// against the types the cands from cb on give it, and returns where it
// ends.
func (w *walker) rawMember(data []byte, i int, at rawChild, cb, depth int) int {
	tb := len(w.types)
	for ci := cb; ci < len(w.cands); ci++ {
		c := &w.cands[ci]
		c.k = -1
		if c.t.constrains() {
			if ct := at.of(c.t); !ct.isAny() {
				c.k = w.addType(tb, ct)
			}
		}
		if at.index < 0 && c.t.keyed {
			c.sawKey(at)
		}
	}
	if len(w.types) == tb {
		end, _ := skipNested(data, i, 0, 1<<30)
		return end
	}
	n := len(w.cands)
	end, r0 := w.rawEval(data, i, w.types[tb:], depth+1)
	if w.limit == nil {
		for ci := cb; ci < n; ci++ {
			c := &w.cands[ci]
			if c.k < 0 {
				continue
			}
			r := &w.res[r0+c.k]
			if pt := c.t.props[string(at.key)]; at.index < 0 && !at.escaped && pt != nil && pt.enum != nil {
				tok, _ := rawScalar(data[i:end])
				val := tok
				if r.state == converted {
					val, _ = w.settle(r.out.(*rawEdit).val)
				}
				c.enumLost = c.enumLost || r.state == failed || !enumHas(pt.enum, val)
				c.enumMiss = c.enumMiss || !enumHas(pt.enum, tok)
			}
			switch r.state {
			case failed:
				if c.fail == nil {
					c.fail = w.newFailure()
				}
				c.fail.kids = append(c.fail.kids, failKid{at.child(), w.failureOf(r)})
			case converted:
				c.edits = append(c.edits, r.out.(*rawEdit))
				if r.chg != nil {
					if c.chg == nil {
						c.chg = &changes{}
					}
					c.chg.kids = append(c.chg.kids, changeKid{at.child(), r.chg})
				}
			}
		}
	}
	w.res, w.types = w.res[:r0], w.types[:tb]
	return end
}

// kindValue is an empty value of an object or array type's kind, to name
// the kind of a value found in JSON text.
func kindValue(tk typeKind) any {
	if tk == typeObject {
		return map[string]any(nil)
	}
	return []any(nil)
}
