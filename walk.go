package coerce

import (
	"encoding/json"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"sync"
)

// The walker converts values that do not fit their types.
//
// Its cost is linear in the input times the schema, whatever the input.
// The difficulty is unions: trying the members one after another would
// visit a value once per member, and its elements once per member of every
// union above them, which multiplies out on nested unions. So eval
// evaluates a value against a set of types at once: each element is
// visited once, against the set of types that the container's types give
// it, and every type gets its own result. A union then chooses among the
// results of its members (choose). No memo keyed by values is needed, and
// nothing depends on memory addresses.
//
// JSON text inside a string is parsed once in the same way, however many
// members want it parsed.
type walker struct {
	o         Options
	textCodec     // the call's limits (meter), and the JSON text inside values
	lazies    int // lazyTexts made: settleResult looks for them below a result
	// nulls is where the walk stands toward the rule of nulls (nulls.go):
	// the walk leaves out the nulls it removes, as it converts.
	nulls nullRule

	// The scratch stacks of the evaluations in progress, taken from a pool
	// when the call first needs them (see ensure): converting one scalar
	// needs none.
	*scratch
}

// A meter is what a call may do and has done: the depth it may reach, the
// work it may do and has done, and the limit that stopped it, if one did.
type meter struct {
	maxDepth int
	maxWork  int    // Options.MaxWork as set (or its default), for the error
	work     int    // values visited times the types they met
	scanned  int    // bytes of JSON text parsed
	budget   int    // work allowed before the call fails with ErrLimit
	limit    *Error // set when the call must stop: too deep, or too much work
	stopAll  bool   // the limit is the work budget: every parameter stops
}

// A textCodec reads and writes the JSON text a walk finds inside values,
// and that it makes of them (text in a string, a container declared
// string), within the call's limits (its meter: the text read adds to
// the budget what it costs; MaxSize bounds what is read and written).
type textCodec struct {
	meter
	maxSize   int  // Options.MaxSize
	useNumber bool // Options.UseNumber
}

// scratch holds the stacks of a walker's evaluations in progress.
type scratch struct {
	types   []*Type
	res     []result
	cands   []cand
	leaves  []Error   // the errors of failed results, until they are needed
	frames  []int32   // supersededKeys' and containerEnds' stack of open containers
	spans   []keySpan // ... and of the keys of the open objects
	boxes   []box     // where each container of the text ends (textWalk.end)
	top     []keySpan // the parameters' keys rawArgs has met, in topKeys
	topKeys [16]keySpan
	text    []byte // rawText's copy of the JSON text a string holds

	typesHigh, resHigh, candsHigh, leavesHigh int // how much of each was used
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// start readies the zero walker w for a call with options o whose fitter
// has already done spent units of work: both share one budget. It writes
// w in place: a walker is large, and returning one by value costs a
// call that needs it a copy.
func (w *walker) start(o *Options, spent int) {
	w.o = *o
	w.textCodec = newCodec(o, spent)
	w.nulls = nullRule{on: o.dropsNulls(), results: o.results}
}

// newCodec is the textCodec of a call with options o, which has spent
// work already: a walker's, or alone where a call only writes text.
func newCodec(o *Options, spent int) textCodec {
	m := meter{maxDepth: o.maxDepth(), maxWork: o.maxWork(), budget: o.maxWork(), work: spent}
	return textCodec{meter: m, maxSize: o.MaxSize, useNumber: o.UseNumber}
}

// ensure gives w its scratch.
func (w *walker) ensure() {
	if w.scratch == nil {
		w.scratch = scratchPool.Get().(*scratch)
	}
}

// release counts the call's work (with that of the fitter that came
// first) and returns the scratch to the pool.
func (w *walker) release() {
	countWork(w.work + w.scanned)
	s := w.scratch
	if s == nil {
		return
	}
	w.scratch = nil
	// The scratch holds pointers into the call's values up to the
	// high-water marks; clear that much, not the whole capacity.
	clear(s.types[:s.typesHigh])
	clear(s.res[:s.resHigh])
	clear(s.cands[:s.candsHigh])
	clear(s.leaves[:s.leavesHigh])
	boxes := s.boxes[:0]
	if cap(boxes) > 1<<14 {
		boxes = nil // a text of many containers: its record goes, the rest of the scratch stays
	}
	*s = scratch{types: s.types[:0], res: s.res[:0], cands: s.cands[:0], leaves: s.leaves[:0],
		frames: s.frames[:0], spans: s.spans[:0], boxes: boxes, top: s.top[:0], text: s.text[:0]}
	if cap(s.res) > 1<<12 || cap(s.cands) > 1<<12 || cap(s.types) > 1<<12 || cap(s.leaves) > 1<<12 || cap(s.text) > 1<<16 {
		return // let an unusually large call's scratch go
	}
	scratchPool.Put(s)
}

// state is how a value meets a type.
type state uint8

const (
	fits      state = iota // conforms as it is
	converted              // converts: out holds the new value
	failed                 // cannot convert: fail says why and where
	unhandled              // single's: not a case it answers, eval's
)

// A result is what evaluating one value against one type gives.
type result struct {
	out   any      // converted: the new value (the walk over text writes it, and may leave this nil)
	fail  *failure // failed, once made (see failureOf)
	chg   *changes // converted, when Options.OnChange listens
	leaf  int32    // failed: 1 + the index in w.leaves of the value's own error, until fail is made
	state state
	keys  keys // an object against an object type: its discriminating keywords; JSON text (keysText...)
}

// A failure is why a value did not convert: its own error, or the
// failures of values inside it, by path token. Failures are shared between
// the results that contain them and rendered into *Errors once, at the end
// of the call, so that no path is built twice.
type failure struct {
	err  Error // the value's own error, if leaf
	leaf bool
	kids []failKid
}

// failAt adds the failure of r, at child at, to f, which it allocates on
// first use.
func (w *scratch) failAt(f *failure, at child, r *result) *failure {
	if f == nil {
		f = newFailure()
	}
	f.kids = append(f.kids, failKid{at, w.failureOf(r)})
	return f
}

// leafFailure is the failure of a value itself, err: one allocation.
func leafFailure(err Error) *failure { return &failure{err: err, leaf: true} }

// walkCost weighs a walker's visit against a fitter's, for the budget: it
// does several times the work.
const walkCost = 4

// failWork is what a failure adds to the work of the value that failed
// (see leafResult): measured, a failing value took some 20 times the time
// of one that passes, per unit of work, before failures were charged.
const failWork = 64

// newFailure is a failure of a container, to hold its members' failures.
// Failures are not counted against a budget of their own: most are of
// union members that lose, and a value that fails is one the walk visited,
// so the work budget bounds them; the call's error reports the first
// maxErrors of those that remain, in path order.
func newFailure() *failure { return &failure{} }

type failKid struct {
	at child
	f  *failure
}

// changes are the conversions made in a value: its own, and those inside
// it by path token. Like failures, they are rendered once at the end.
type changes struct {
	own  []Change
	kids []changeKid
}

type changeKid struct {
	at child
	c  *changes
}

// fail is a failed result with an error about v itself.
func (w *walker) fail(v any, t *Type, sentinel error, detail string) result {
	return w.leafResult(stamp(&Error{Err: sentinel, Detail: detail}, t, v))
}

// failWith is fail with an error that knows what went wrong but not where
// or against which type: from the codec, or a conversion's template.
func (w *walker) failWith(v any, t *Type, err error) result {
	return w.leafResult(stamp(err, t, v))
}

// leafResult is a failed result with error e about the value itself. The
// error waits in the walker's scratch: most are of union members that lose
// (the null of every nullable parameter), and only those that reach the
// call's error are allocated (failureOf).
func (w *walker) leafResult(e Error) result {
	// A failure costs what visiting some dozen values does (its error kept
	// until the call's errors are sorted, its place in the failure tree), so
	// it counts as such against the budget: a call that fails everywhere
	// stops as soon, in time, as one that passes everywhere.
	w.work += failWork
	if w.scratch == nil { // one value, converted alone: the error is the call's
		return result{state: failed, fail: leafFailure(e)}
	}
	w.leaves = append(w.leaves, e)
	w.leavesHigh = max(w.leavesHigh, len(w.leaves))
	return result{state: failed, leaf: int32(len(w.leaves))}
}

// failureOf returns the failure of a failed result, made now if need be.
func (w *scratch) failureOf(r *result) *failure {
	if r.fail == nil && r.leaf > 0 {
		r.fail, r.leaf = leafFailure(w.leaves[r.leaf-1]), 0
	}
	return r.fail
}

// convert is a converted result made by rule r.
func (w *walker) convert(v any, t *Type, out any, r Rule) result {
	res := result{state: converted, out: out}
	if w.o.OnChange != nil {
		res.chg = &changes{own: []Change{newChange(v, t, r)}}
	}
	return res
}

// stop records a limit that ends the call's work: a value nested deeper
// than MaxDepth (the parameter fails), or the work budget spent (the call
// fails). Where the limit is met depends on the order Go iterates maps in,
// so the error names only the parameter, which keeps errors deterministic.
func (w *meter) stop(detail string, all bool) {
	if w.limit == nil {
		w.limit = &Error{Err: ErrLimit, Detail: detail}
		w.stopAll = all
	}
}

func (w *meter) tooDeep() {
	w.stop("nesting deeper than "+strconv.Itoa(w.maxDepth), false)
}

// spend counts n units of work and reports whether the budget allows them.
// The error names Options.MaxWork as set (or its default), the number a
// reader can find in the code that set it, not the budget of the call,
// which the JSON text it reads adds to.
func (w *meter) spend(n int) bool {
	w.work += n
	if w.work > w.budget {
		w.stop(workDetail(w.maxWork), true)
		return false
	}
	return true
}

// limitError is the error of the value v, declared t, that a limit
// stopped (w.limit), for a call given args. The work budget's is the
// call's (w.stopAll): no declared type and found value set side by side
// as if their kinds disagreed (the arguments are an object, as declared),
// and no path, since where the budget runs out depends on the order of
// the work (README, "Rules we chose"). A value too deep is the value's;
// the walk then goes on past it (w.limit is cleared). Every entry point
// reports them alike.
func (w *meter) limitError(t *Type, v, args any) Error {
	if w.stopAll {
		return stamp(w.limit, nil, args)
	}
	e := stamp(w.limit, t, v)
	w.limit = nil
	return e
}

// push appends n fitting results and returns the index of the first.
func (w *scratch) push(n int) int {
	base := len(w.res)
	w.res = slices.Grow(w.res, n)[:base+n]
	clear(w.res[base:])
	w.resHigh = max(w.resHigh, base+n)
	return base
}

func (w *scratch) pushType(t *Type) {
	w.types = append(w.types, t)
	w.typesHigh = max(w.typesHigh, len(w.types))
}

func (w *scratch) pushCand(c cand) {
	w.cands = append(w.cands, c)
	w.candsHigh = max(w.candsHigh, len(w.cands))
}

// addType adds t to the type set that starts at w.types[from] and returns
// its index there.
func (w *scratch) addType(from int, t *Type) int {
	for i, u := range w.types[from:] {
		if u == t {
			return i
		}
	}
	w.pushType(t)
	return len(w.types) - from - 1
}

// one evaluates v against the single type t.
func (w *walker) one(v any, t *Type, depth int, owned bool) result {
	if t.isAny() {
		return result{}
	}
	if r := w.single(v, t, depth, owned); r.state != unhandled {
		w.work += walkCost
		return r
	}
	w.ensure()
	tb := len(w.types)
	w.pushType(t)
	rb := w.eval(v, w.types[tb:], depth, owned)
	r := w.res[rb]
	w.res, w.types = w.res[:rb], w.types[:tb]
	return r
}

// single is the result of a scalar v against a type that is no union,
// and ok, where that needs neither the walker's scratch nor a parse: the
// common single conversion ("5" for an integer), and a string that cannot
// be the JSON text an object or array type wants.
func (w *walker) single(v any, t *Type, depth int, owned bool) result {
	if w.work+walkCost > w.budget {
		return result{state: unhandled} // eval stops the call
	}
	switch x := v.(type) {
	case nil:
		if c, ok := nullConversion(w.o.results, t); ok {
			return w.result(nil, t, c)
		}
		return result{state: unhandled} // a union's members (eval)
	case string:
		if t.kind == typeUnion {
			if m := w.o.optionalMember(v, t); m != nil {
				return w.optional(v, m, t, depth, owned)
			}
			return w.scalarUnion(v, kindString, t, depth)
		}
		switch {
		case t.kind == typeAny, t.kind == typeString && t.enum == nil:
			return result{}
		case t.kind == typeObject, t.kind == typeArray:
			return w.textOne(v, x, t, depth)
		}
		return w.scalar(v, kindString, t, depth)
	case bool, float64, json.Number:
		if t.kind == typeUnion {
			if m := w.o.optionalMember(v, t); m != nil {
				return w.optional(v, m, t, depth, owned)
			}
			return w.scalarUnion(v, kindOf(v), t, depth)
		}
		return w.scalar(v, kindOf(v), t, depth)
	case map[string]any:
		return w.container(v, typeObject, t, depth, owned)
	case []any:
		return w.container(v, typeArray, t, depth, owned)
	}
	return result{state: unhandled}
}

// optionalMember is the member m of the union t of m and null
// (Optional[T]) that alone can take the scalar v: any value but "" and
// "null", which the null member takes too, unless WrapScalars lets an
// array member take them. It is nil where the union must choose.
func (o *Options) optionalMember(v any, t *Type) *Type {
	if o.WrapScalars {
		return nil
	}
	if s, ok := v.(string); ok && spellsNull(s) {
		return nil
	}
	return t.orNull()
}

// optional is single for a union of m and null (Optional[T], the most
// common union) and a value that only m can take: m's result, with a
// failure of the value itself named for the union.
func (w *walker) optional(v any, m, u *Type, depth int, owned bool) result {
	w.nulls.off++ // the rule of nulls does not look into unions (nulls.go)
	r := w.single(v, m, depth, owned)
	w.nulls.off--
	if r.state == unhandled {
		return r
	}
	return w.named(r, u)
}

// container is single for an object or array x (of type kind tk): it
// fits a type of its kind that says nothing of its members, and becomes
// JSON text for a string; the rest is eval's.
func (w *walker) container(x any, tk typeKind, t *Type, depth int, owned bool) result {
	switch {
	case t.kind == tk && !t.constrains() && !t.keyed:
		return result{keys: keysSat | keysAsIs}
	case t.kind == tk && !t.keyed:
		if depth >= w.maxDepth {
			w.tooDeep()
			return result{}
		}
		return w.members(x, t, depth, owned)
	case t.kind == typeString:
		text, err := w.encode(x, depth)
		if err != nil {
			return w.failWith(x, t, err)
		}
		return w.convert(x, t, text, ToJSONText)
	}
	return result{state: unhandled}
}

// members converts the members of the object or array x, which meets the
// one type t, each to the type t gives it: a direct recursion, the cost of
// which is the members' own, as the common case deserves. (A container
// that meets several types at once is eval's.) Failures and changes are
// gathered by path; x is copied on the first change, unless owned.
func (w *walker) members(x any, t *Type, depth int, owned bool) result {
	var fail *failure
	var chg *changes
	var arr []any
	var obj map[string]any
	take := func(at child, e any, et *Type) {
		if et.isAny() || w.limit != nil {
			return
		}
		r := w.one(e, et, depth+1, owned)
		switch r.state {
		case failed:
			fail = w.failAt(fail, at, &r)
		case converted:
			chg = chg.at(at, r.chg)
			if fail != nil {
				return
			}
			switch x := x.(type) {
			case []any:
				if arr == nil {
					arr = x
					if !owned {
						arr = slices.Clone(x)
					}
				}
				arr[at.index] = r.out
			case map[string]any:
				if obj == nil {
					obj = x
					if !owned {
						obj = maps.Clone(x)
					}
				}
				obj[at.key] = r.out
			}
		}
	}
	switch x := x.(type) {
	case []any:
		for i, e := range x {
			take(child{index: i}, e, t.item(i))
		}
	case map[string]any:
		for k, e := range x {
			if e == nil && w.nulls.drops(t, k) {
				obj, chg = leaveOutNull(x, obj, owned, t, k, chg, w.o.OnChange != nil)
				continue
			}
			take(child{key: k, index: -1}, e, t.field(k))
		}
	}
	var r result
	switch {
	case fail != nil:
		r = result{state: failed, fail: fail}
	case arr != nil:
		r = result{state: converted, out: arr, chg: chg}
	case obj != nil:
		r = result{state: converted, out: obj, chg: chg}
	}
	if t.kind == typeObject {
		r.keys = keysSat | keysAsIs // t has no keywords
	}
	return r
}

// leaveOutNull leaves the member k of the object x, of type t, out of obj,
// what members makes of x (a copy on the first change, unless owned), and
// adds its change to chg where report says: the rule of nulls removes it
// (nulls.go). It is out of line so that members, a frame of every level of
// a deep value, stays small.
//
//go:noinline
func leaveOutNull(x, obj map[string]any, owned bool, t *Type, k string, chg *changes, report bool) (map[string]any, *changes) {
	if obj == nil {
		obj = x
		if !owned {
			obj = maps.Clone(x)
		}
	}
	delete(obj, k)
	if report {
		chg = chg.at(child{key: k, index: -1}, nullRemoved(t, k))
	}
	return obj, chg
}

// scalarUnion is single for a union: each member converts the scalar v
// (of kind k) alone, as a plain conversion, and the union chooses; only
// the member it reports makes a result. A string meets one member of
// object or array kind as JSON text (Optional[list[str]], the shape of
// most nullable parameters); several would parse it several times, and
// are left to eval, as are wide unions.
func (w *walker) scalarUnion(v any, k kind, u *Type, depth int) result {
	var cs [4]conversion
	n := len(u.members)
	if n > len(cs) {
		return result{state: unhandled}
	}
	text := -1 // the member that parses v as JSON text
	for i, m := range u.members {
		switch {
		case m.scalarType():
			cs[i] = convertScalar(&w.o, v, k, m)
		case k == kindString && text < 0 && !w.o.WrapScalars:
			text = i
		case k == kindString || w.o.WrapScalars:
			return result{state: unhandled}
		default:
			cs[i] = wrongKind
		}
	}
	// The union's rule (choose), on the members' results; the text
	// member's, if any, decides as any member's would.
	var tr result
	var rs [4]result
	for j := range n {
		switch {
		case j == text:
			tr = w.textOne(v, v.(string), u.members[j], depth)
			rs[j] = tr
		case cs[j].why != nil:
			rs[j].state = failed
		case cs[j].rule != 0:
			rs[j].state = converted
		}
	}
	i := choose(k, u, u.members, rs[:n])
	switch {
	case i < 0:
		return result{}
	case i == text:
		return w.named(tr, u)
	case cs[i].why != nil: // the value itself failed: name the union
		return w.failWith(v, u, cs[i].why)
	}
	return w.convert(v, u.members[i], cs[i].out, cs[i].rule)
}

// A lazyText is the JSON text of a container, written when first used:
// of a value (v), or of JSON text (raw) compacted with keys sorted.
type lazyText struct {
	v     any
	t     *Type // the string type it is of, for its error
	raw   []byte
	depth int
	text  string
	err   error
	done  bool
}

// settle returns v, or the text a lazyText stands for, written now.
func (w *textCodec) settle(v any) (any, error) {
	l, ok := v.(*lazyText)
	if !ok {
		return v, nil
	}
	if !l.done {
		l.done = true
		val := l.v
		if l.raw != nil {
			val, l.err = w.parse(l.raw, l.depth)
		}
		if l.err == nil {
			l.text, l.err = w.encode(val, l.depth)
		}
	}
	return l.text, l.err
}

// settleResult settles the value of a converted result, as it leaves the
// walk: the JSON text of each lazyText in it is written. It is done once,
// at the end, for what the result keeps: written as each union chose it,
// a deep value whose every level is a union of a string and containers
// would be written once a level, the work quadratic in its depth, when the
// result keeps one level's text at most. A text that cannot be written (a
// NaN inside, more than MaxSize) fails the result, at its path.
func (w *walker) settleResult(r *result, v any, t *Type) {
	if r.state != converted || w.lazies == 0 {
		return
	}
	if l, ok := r.out.(*lazyText); ok {
		out, err := w.settle(l)
		if err != nil {
			*r = w.failWith(v, t, err)
			return
		}
		r.out = out
		return
	}
	if fail := w.settleIn(v, r.out); fail != nil {
		*r = result{state: failed, fail: fail}
	}
}

// settleIn writes the lazyTexts in conv, what the walk converted orig to,
// in place, and returns the failures of those it cannot write, at their
// paths. It looks only into the containers the walk made (copies of the
// caller's, or values it decoded), which alone can hold one, and which it
// may write in: a container conv shares with orig is the caller's, as it
// was, and may be large, or hold itself.
func (w *walker) settleIn(orig, conv any) *failure {
	var fail *failure
	at := func(c child, o, e any, set func(any)) {
		if l, ok := e.(*lazyText); ok {
			text, err := w.settle(l)
			if err != nil {
				r := w.failWith(l.v, l.t, err)
				fail = w.failAt(fail, c, &r)
				return
			}
			set(text)
		} else if f := w.settleIn(o, e); f != nil {
			if fail == nil {
				fail = newFailure()
			}
			fail.kids = append(fail.kids, failKid{c, f})
		}
	}
	switch x := conv.(type) {
	case map[string]any:
		o, _ := orig.(map[string]any)
		if o != nil && reflect.ValueOf(o).UnsafePointer() == reflect.ValueOf(x).UnsafePointer() {
			return nil
		}
		for k, e := range x {
			at(child{key: k, index: -1}, o[k], e, func(text any) { x[k] = text })
		}
	case []any:
		o, _ := orig.([]any)
		if len(o) == len(x) && (len(x) == 0 || &o[0] == &x[0]) {
			return nil
		}
		for i, e := range x {
			var oe any
			if i < len(o) {
				oe = o[i]
			}
			at(child{index: i}, oe, e, func(text any) { x[i] = text })
		}
	}
	return fail
}

// encode writes an object or array as compact JSON text for a string.
// The text costs a unit of work a byte, and the budget left bounds it
// before it is written: the text of Go values that hold a map or slice
// more than once is exponentially longer than their memory, and writing
// it whole would take as long (MaxSize bounds it too, where lower).
func (w *textCodec) encode(v any, depth int) (string, error) {
	if err := w.checkGo(v, depth); err != nil {
		return "", err
	}
	bound := max(w.budget-w.work, 1)
	bySize := w.maxSize > 0 && w.maxSize < bound
	if bySize {
		bound = w.maxSize
	}
	text, over, err := encodeJSON(v, w.maxDepth-depth, bound)
	switch {
	case over && bySize:
		return "", tooLong(w.maxSize)
	case over:
		w.spend(bound + 1) // the call stops, as when any work runs past the budget
		return "", w.limit
	case err != nil:
		return "", err
	}
	w.spend(len(text))
	return text, nil
}

// evalRawMessage decodes a json.RawMessage and evaluates what it holds:
// it counts as that value, so a value that fits leaves the RawMessage as
// it is (fitter.fitRawMessage), and one that converts becomes what the
// value converts to.
func (w *walker) evalRawMessage(x json.RawMessage, es []*Type, rb, depth int) {
	val, err := w.parse(x, depth)
	if err != nil {
		for j, t := range es {
			if !t.isAny() {
				w.res[rb+j] = w.failWith(x, t, err)
			}
		}
		return
	}
	pb := w.eval(val, es, depth, true)
	copy(w.res[rb:rb+len(es)], w.res[pb:pb+len(es)])
	w.res = w.res[:pb]
}

// parse decodes JSON text found at depth, within MaxSize; the work
// budget grows with the text, so that the text's own size never counts
// against the caller.
func (w *textCodec) parse(text []byte, depth int) (any, error) {
	if w.maxSize > 0 && len(text) > w.maxSize {
		return nil, tooLong(w.maxSize)
	}
	w.budget += workPerByte * len(text)
	w.scanned += len(text)
	return decodeJSON(text, w.useNumber, w.maxDepth-depth)
}

func (w *textCodec) parseString(text string, depth int) (any, error) {
	if w.maxSize > 0 && len(text) > w.maxSize {
		return nil, tooLong(w.maxSize)
	}
	w.budget += workPerByte * len(text)
	w.scanned += len(text)
	return decodeJSON(text, w.useNumber, w.maxDepth-depth)
}

// evalGo evaluates a Go map, slice, array or struct of another type than
// encoding/json decodes into. Where it does not fit, it is converted
// through its JSON form, written once for all the types that need it.
func (w *walker) evalGo(v any, k kind, es []*Type, rb, depth int) {
	f := fitter{maxDepth: w.maxDepth, budget: w.budget - w.work}
	mask := f.fitMany(v, es, depth)
	w.spend(f.work)
	tb := len(w.types)
	for j, t := range es {
		switch {
		case mask&(1<<j) != 0:
			if t.kind == typeObject {
				w.res[rb+j].keys = keysSat | keysAsIs
			}
		case t.kind == typeString:
		case t.kind == typeObject && k == kindObject, t.kind == typeArray && k == kindArray:
			w.pushType(t)
		default:
			w.res[rb+j] = w.fail(v, t, ErrKind, "")
		}
	}
	if via := w.types[tb:]; len(via) > 0 {
		w.viaJSON(v, via, es, rb, depth)
	}
	w.types = w.types[:tb]
	w.toText(v, es, rb, depth)
}

// viaJSON converts v, a Go value, to the types via (a subset of es)
// through its JSON form.
func (w *walker) viaJSON(v any, via, es []*Type, rb, depth int) {
	text, err := w.encode(v, depth)
	var val any
	if err == nil {
		val, err = w.parseString(text, depth)
	}
	if err != nil {
		for _, t := range via {
			w.res[rb+slices.Index(es, t)] = w.failWith(v, t, err)
		}
		return
	}
	w.nulls.off++ // nor into a Go value of another type (nulls.go)
	pb := w.eval(val, via, depth, true)
	w.nulls.off--
	for i, t := range via {
		w.res[rb+slices.Index(es, t)] = w.reparsed(v, t, ViaJSON, val, w.res[pb+i])
	}
	w.res = w.res[:pb]
}

// with puts the changes inside a converted value under its own change.
// at adds the changes made inside child at, kid, to c, which it allocates
// on first use.
func (c *changes) at(at child, kid *changes) *changes {
	if kid == nil {
		return c
	}
	if c == nil {
		c = &changes{}
	}
	c.kids = append(c.kids, changeKid{at, kid})
	return c
}

func (c *changes) with(inner *changes) *changes {
	switch {
	case inner == nil:
		return c
	case c == nil:
		return inner
	}
	c.own = append(c.own, inner.own...)
	c.kids = append(c.kids, inner.kids...)
	return c
}

// checkGo bounds the depth of a Go value of another type before it is
// handed to encoding/json, which recurses without a limit: a value nested
// deeper than MaxDepth, or cyclic, is an error instead of a stack overflow.
func (w *textCodec) checkGo(v any, depth int) error {
	switch v.(type) {
	case map[string]any, []any:
		return nil // the encoder counts the depth of these itself
	}
	d := goDepth{left: w.maxDepth - depth, budget: w.budget - w.work}
	ok := d.walk(v, 0)
	w.spend(d.visits)
	if d.badUTF8 {
		return &Error{Err: ErrSyntax, Detail: "invalid UTF-8 in a string"}
	}
	if !ok {
		return &Error{Err: ErrLimit, Detail: "nesting deeper than " + strconv.Itoa(w.maxDepth) + " (a cycle?)"}
	}
	return nil
}
