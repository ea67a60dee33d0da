package coerce

import (
	"encoding/json"
	"errors"
	"maps"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Options configures coercion. The zero value gives the defaults described
// in the package documentation; its methods mirror the package functions.
type Options struct {
	// UseNumber makes every number that coercion produces a json.Number
	// holding its decimal text, as json.Decoder.UseNumber does. By default
	// numbers are float64, except integers that float64 cannot hold exactly,
	// which are json.Number either way.
	UseNumber bool

	// StructuredOnly limits coercion to the two structured directions:
	// JSON text to object or array, and object or array to JSON text for a
	// string. Scalars ("5" for an integer, 5 for a string, "true" for a
	// boolean) are then left for the validator to reject.
	StructuredOnly bool

	// WrapScalars turns a single value declared array into a one-element
	// array ("a" declared list[string] becomes ["a"]), as AJV's
	// coerceTypes: "array" does.
	WrapScalars bool

	// MaxDepth bounds the nesting of values and of JSON text; deeper input is
	// an error wrapping ErrLimit. Zero means 10000, as in encoding/json.
	MaxDepth int

	// MaxSize bounds the length in bytes of JSON text that coercion parses
	// or produces; longer text is an error wrapping ErrLimit. Zero means no
	// limit.
	MaxSize int

	// OnChange, if set, is called once for each conversion in the result,
	// in the order of their paths, after the call has done its work and
	// before it returns: a server can count and log how its clients break
	// arguments (see LogChanges), or tell the model what was repaired.
	// Conversions of values that failed, and attempts a union discarded,
	// are not reported. Nil costs nothing.
	OnChange func(Change)
}

const defaultMaxDepth = 10000

func (o Options) maxDepth() int {
	if o.MaxDepth <= 0 {
		return defaultMaxDepth
	}
	return o.MaxDepth
}

// ToDeclared converts value to the declared type with the default Options.
// See Options.ToDeclared.
func ToDeclared(value any, declared string) (any, error) {
	return Options{}.ToDeclared(value, declared)
}

// ToDeclared converts value to the declared type, a type expression as
// ParseType reads it (parsed once, then cached).
//
// A value that already conforms is returned as it is: the same map, the same
// slice, the same string. Otherwise the result is a new value that conforms;
// the caller's maps and slices are never modified. Nil passes as nil for
// every type. If the value cannot be converted, ToDeclared returns it
// unchanged with an error that says where and why (see Error).
func (o Options) ToDeclared(value any, declared string) (any, error) {
	t, err := cachedType(declared)
	if err != nil {
		e := *err.(*Error)
		e.Value = value
		return value, &e
	}
	return o.ToType(value, t)
}

// ToType converts value to a parsed type with the default Options. See
// Options.ToDeclared.
func ToType(value any, t *Type) (any, error) {
	return Options{}.ToType(value, t)
}

// ToType is ToDeclared with a type that is already parsed, such as one from
// ParseType or Schema.Lookup.
func (o Options) ToType(value any, t *Type) (any, error) {
	w := newWalker(o)
	out, _ := w.coerce(value, t, 0, false)
	if w.errs.len() > 0 {
		return value, w.errs.err()
	}
	w.report()
	return out, nil
}

// Structured returns the object or array that s holds with the default
// Options. See Options.Structured.
func Structured(s string) (any, bool) { return Options{}.Structured(s) }

// Structured returns the object (map[string]any) or array ([]any) that s
// holds as JSON text — bare, in one markdown fence around the whole string,
// or encoded once more as a JSON string — and true; otherwise nil and false,
// and s is to be kept as it is. It is ToDeclared(s, "object | array") for
// values that have no declared type, such as an agent's reply or an LLM's
// positional argument, where "123", "true" and prose must stay text. A
// string that cannot be JSON text costs no allocation.
func (o Options) Structured(s string) (any, bool) {
	if sh, _ := sniff(s); sh == shapeNone {
		return nil, false
	}
	out, err := o.ToType(s, objectOrArray)
	if err != nil {
		return nil, false
	}
	return out, true
}

var objectOrArray = newUnion([]*Type{objectType, arrayType})

// Conforms reports whether v already fits t, deeply: coercing it would
// return it unchanged. Nil conforms to every type. It allocates nothing for
// the values encoding/json decodes into.
func (t *Type) Conforms(v any) bool {
	c := checker{maxDepth: defaultMaxDepth}
	return c.conforms(v, t, 0)
}

// walker carries one call's options and the errors it finds. Each step
// returns its value converted, and whether that is a new value; a step that
// fails records an *Error and returns its value as it was.
type walker struct {
	o       Options
	errs    errList
	chk     checker
	changes []Change // recorded only when o.OnChange is set
}

// changed records a conversion of v to t, when someone listens.
func (w *walker) changed(v any, t *Type, r Rule) {
	if w.o.OnChange != nil {
		w.changes = append(w.changes, newChange(v, t, r))
	}
}

// dropChanges forgets the changes recorded since mark: the conversion
// they belong to failed or was discarded.
func (w *walker) dropChanges(mark int) {
	if len(w.changes) > mark {
		w.changes = w.changes[:mark]
	}
}

// prefixChanges puts a path token before the changes recorded since mark.
func (w *walker) prefixChanges(mark int, token string) {
	for i := mark; i < len(w.changes); i++ {
		w.changes[i].Path = token + w.changes[i].Path
	}
}

// report hands the changes to OnChange in path order.
func (w *walker) report() {
	if w.o.OnChange == nil || len(w.changes) == 0 {
		return
	}
	sort.SliceStable(w.changes, func(i, j int) bool { return w.changes[i].Path < w.changes[j].Path })
	for _, c := range w.changes {
		w.o.OnChange(c)
	}
}

func newWalker(o Options) walker {
	return walker{o: o, chk: checker{maxDepth: o.maxDepth()}}
}

func (w *walker) fail(v any, t *Type, sentinel error, detail string) {
	w.errs.add(&Error{Declared: t.String(), Value: v, Err: sentinel, Detail: detail})
}

// failWith records err, an *Error from the decoder, encoder or type parser
// that lacks the context of where it happened.
func (w *walker) failWith(v any, t *Type, err error) {
	e := err.(*Error)
	e.Declared, e.Value = t.String(), v
	w.errs.add(e)
}

// coerce converts v to t. owned says that v was made by this call (decoded
// from JSON text), so that its maps and slices may be changed in place.
func (w *walker) coerce(v any, t *Type, depth int, owned bool) (any, bool) {
	if t.isAny() || v == nil {
		return v, false
	}
	if raw, ok := v.(json.RawMessage); ok {
		return parse(w, v, raw, t, depth)
	}
	switch t.kind {
	case typeUnion:
		return w.union(v, t, depth, owned)
	case typeObject, typeArray:
		return w.structured(v, t, depth, owned)
	case typeString:
		return w.toString(v, t, depth)
	case typeInteger, typeNumber:
		return w.toNumber(v, t)
	case typeBoolean:
		return w.toBoolean(v, t)
	case typeNull:
		return w.toNull(v, t)
	}
	return v, false
}

// union keeps a value that conforms to any member, deeply; otherwise it
// tries the members of the value's own kind first, then the others in
// declared order, and the first that converts wins. When none does, the
// errors of the first attempt are reported: the one most likely meant.
func (w *walker) union(v any, t *Type, depth int, owned bool) (any, bool) {
	if w.chk.conforms(v, t, depth) {
		return v, false
	}
	k := kindOf(v)
	mark, firstEnd, cmark := w.errs.len(), -1, len(w.changes)
	for _, ownKind := range [2]bool{true, false} {
		for _, m := range t.members {
			if (m.kind.valueKind() == k) != ownKind {
				continue
			}
			before := w.errs.len()
			w.chk.trials++
			if w.chk.failed != nil && w.chk.failedBefore(v, m, false) {
				w.fail(v, m, ErrKind, "") // as the first time
			} else {
				// Not owned: a failed attempt must leave v intact for the next.
				out, changed := w.coerce(v, m, depth, false)
				if w.errs.len() == before {
					w.errs.truncate(mark)
					return out, changed
				}
				w.chk.noteFailure(v, m, false)
				w.dropChanges(cmark)
			}
			if firstEnd < 0 {
				firstEnd = w.errs.len()
			} else {
				w.errs.truncate(before)
			}
		}
	}
	if firstEnd == mark+1 && w.errs.at(mark).Path == "" {
		w.errs.at(mark).Declared = t.String() // the value itself failed: name the whole union
	}
	return v, false
}

// structured converts to an object or array type.
func (w *walker) structured(v any, t *Type, depth int, owned bool) (any, bool) {
	switch x := v.(type) {
	// Unchanged, the value goes back as the interface it came in: boxing
	// the slice again would allocate.
	case map[string]any:
		if t.kind == typeObject {
			if out, changed := w.object(x, t, depth, owned); changed {
				return out, true
			}
			return v, false
		}
	case []any:
		if t.kind == typeArray {
			if out, changed := w.array(x, t, depth, owned); changed {
				return out, true
			}
			return v, false
		}
	case string:
		return w.fromText(v, x, t, depth)
	}
	k := kindOf(v)
	switch {
	case k == kindNull: // a typed nil pointer
		return v, false
	case k == kindObject && t.kind == typeObject, k == kindArray && t.kind == typeArray:
		// A Go map, struct or slice of another type: through JSON when it
		// does not fit as it is.
		if w.chk.conforms(v, t, depth) {
			return v, false
		}
		return w.viaJSON(v, t, depth)
	case k == kindString:
		return w.fromText(v, stringOf(v), t, depth)
	case t.kind == typeArray && w.o.WrapScalars && (k == kindBool || k == kindNumber):
		return w.wrap(v, t, depth)
	}
	w.fail(v, t, ErrKind, "")
	return v, false
}

func (w *walker) object(m map[string]any, t *Type, depth int, owned bool) (map[string]any, bool) {
	if t.props == nil && t.rest.isAny() {
		return m, false
	}
	if depth >= w.chk.maxDepth {
		w.fail(m, t, ErrLimit, "nesting deeper than "+strconv.Itoa(w.chk.maxDepth))
		return m, false
	}
	mark, cmark := w.errs.len(), len(w.changes)
	out, changed := w.members(m, t, depth, owned)
	if w.errs.len() > mark {
		w.dropChanges(cmark)
		return m, false
	}
	return out, changed
}

// members converts each property of m to its declared type, copying m on
// the first change unless it is owned. A property that fails is recorded
// and left as it was, so the result is whole even when some fail: objects
// inside a value fail as a unit (object), a schema's parameters one by one
// (Schema.Coerce).
func (w *walker) members(m map[string]any, t *Type, depth int, owned bool) (map[string]any, bool) {
	out, changed := m, false
	for k, val := range m {
		ft := t.field(k)
		if ft.isAny() {
			continue
		}
		before, cmark := w.errs.len(), len(w.changes)
		nv, ok := w.coerce(val, ft, depth+1, owned)
		if w.errs.len() > before {
			w.errs.prefix(before, pointerToken(k))
			w.dropChanges(cmark)
			continue
		}
		if len(w.changes) > cmark {
			w.prefixChanges(cmark, pointerToken(k))
		}
		if ok {
			if !owned && !changed {
				out = maps.Clone(m) // the caller's map stays as it was
			}
			out[k] = nv
			changed = true
		}
	}
	return out, changed
}

func (w *walker) array(s []any, t *Type, depth int, owned bool) ([]any, bool) {
	if len(t.prefix) == 0 && t.elem.isAny() {
		return s, false
	}
	if depth >= w.chk.maxDepth {
		w.fail(s, t, ErrLimit, "nesting deeper than "+strconv.Itoa(w.chk.maxDepth))
		return s, false
	}
	out, mark, cmark := s, w.errs.len(), len(w.changes)
	changed := false
	for i, val := range s {
		et := t.item(i)
		if et.isAny() {
			continue
		}
		before, imark := w.errs.len(), len(w.changes)
		nv, ok := w.coerce(val, et, depth+1, owned)
		if w.errs.len() > before {
			w.errs.prefix(before, "/"+strconv.Itoa(i))
			continue
		}
		if len(w.changes) > imark {
			w.prefixChanges(imark, "/"+strconv.Itoa(i))
		}
		if ok {
			if !owned && !changed {
				out = slices.Clone(s)
			}
			out[i] = nv
			changed = true
		}
	}
	if w.errs.len() > mark {
		w.dropChanges(cmark)
		return s, false
	}
	return out, changed
}

// wrap makes a one-element array of a single value (Options.WrapScalars).
func (w *walker) wrap(v any, t *Type, depth int) (any, bool) {
	before, cmark := w.errs.len(), len(w.changes)
	nv, _ := w.coerce(v, t.item(0), depth+1, false)
	if w.errs.len() > before {
		w.errs.prefix(before, "/0")
		w.dropChanges(cmark)
		return v, false
	}
	w.prefixChanges(cmark, "/0")
	w.changed(v, t, Wrapped)
	return []any{nv}, true
}

// fromText parses JSON text found where an object or array is declared: v is
// the value as given, s its text. The sniff decides, without allocating,
// whether parsing can succeed; it unwraps one level of double encoding or
// one markdown fence.
func (w *walker) fromText(v any, s string, t *Type, depth int) (any, bool) {
	sh, text := sniff(s)
	rule := JSONText
	switch sh {
	case shapeNone:
		// Broken JSON text ("[1") is reported, not wrapped as ["[1"].
		if w.o.WrapScalars && t.kind == typeArray && (text == "" || text[0] != '[' && text[0] != '{') {
			return w.wrap(v, t, depth)
		}
		w.fail(v, t, ErrKind, "not JSON text")
		return v, false
	case shapeQuoted:
		inner, err := decodeJSON(text, false, 1)
		if err != nil {
			w.failWith(v, t, err)
			return v, false
		}
		if sh, text = sniffPlain(inner.(string)); sh == shapeNone {
			w.fail(v, t, ErrKind, "a JSON string that holds no JSON object or array text")
			return v, false
		}
		rule = DoubleEncoded
	case shapeFenced:
		if sh, text = sniffPlain(text); sh == shapeNone {
			w.fail(v, t, ErrKind, "a markdown fence around no JSON object or array text")
			return v, false
		}
		rule = Fenced
	}
	switch {
	case sh == shapeObject && t.kind == typeArray:
		w.fail(v, t, ErrKind, "JSON text of an object")
		return v, false
	case sh == shapeArray && t.kind == typeObject:
		w.fail(v, t, ErrKind, "JSON text of an array")
		return v, false
	}
	out, ok := parse(w, v, text, t, depth)
	if ok {
		w.changed(v, t, rule)
	}
	return out, ok
}

// parse decodes JSON text (a string, or the bytes of a json.RawMessage) and
// converts what it holds to t; v is the value as given, kept on failure.
func parse[T ~string | ~[]byte](w *walker, v any, text T, t *Type, depth int) (any, bool) {
	if w.o.MaxSize > 0 && len(text) > w.o.MaxSize {
		w.fail(v, t, ErrLimit, "JSON text longer than "+strconv.Itoa(w.o.MaxSize)+" bytes")
		return v, false
	}
	val, err := decode(w, text, t, depth)
	if err != nil {
		w.failWith(v, t, err)
		return v, false
	}
	before, cmark := w.errs.len(), len(w.changes)
	out, _ := w.coerce(val, t, depth, true)
	if w.errs.len() > before {
		w.dropChanges(cmark)
		return v, false
	}
	return w.settleNumbers(out, t), true
}

// decode reads JSON text to be converted to t. Where t declares integers,
// numbers are read as text (json.Number), so that whether one is whole is
// judged on the digits written, not on float64's rounding of them:
// 1.00000000000000000001 is no integer. settleNumbers then gives the
// numbers the form the options ask for.
func decode[T ~string | ~[]byte](w *walker, text T, t *Type, depth int) (any, error) {
	return decodeJSON(text, w.o.UseNumber || t.ints, w.chk.maxDepth-depth)
}

func (w *walker) settleNumbers(v any, t *Type) any {
	if w.o.UseNumber || !t.ints {
		return v
	}
	return floatNumbers(v)
}

// floatNumbers gives the json.Numbers of a freshly decoded value their
// default form (numberValue), changing its maps and slices in place: they
// belong to this call.
func floatNumbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		text := string(x)
		n, _ := numberValue(text, !strings.ContainsAny(text, ".eE"))
		return n
	case []any:
		for i, e := range x {
			x[i] = floatNumbers(e)
		}
	case map[string]any:
		for k, e := range x {
			x[k] = floatNumbers(e)
		}
	}
	return v
}

// viaJSON converts a Go value of another type (a struct, a typed map or
// slice) by writing it as JSON and reading that back into maps and slices.
func (w *walker) viaJSON(v any, t *Type, depth int) (any, bool) {
	text, err := appendJSON(nil, v, w.chk.maxDepth-depth)
	if err != nil {
		w.failWith(v, t, err)
		return v, false
	}
	out, ok := parse(w, v, text, t, depth)
	if ok {
		w.changed(v, t, ViaJSON)
	}
	return out, ok
}

func (w *walker) toString(v any, t *Type, depth int) (any, bool) {
	switch x := v.(type) {
	case string:
		return v, false
	case map[string]any, []any:
		return w.encode(v, t, depth)
	case bool:
		if !w.o.StructuredOnly {
			w.changed(v, t, BooleanToText)
			return strconv.FormatBool(x), true
		}
	}
	switch kindOf(v) {
	case kindString, kindNull:
		return v, false
	case kindObject, kindArray:
		return w.encode(v, t, depth)
	case kindNumber:
		if w.o.StructuredOnly {
			break
		}
		if s, ok := numberText(v); ok {
			w.changed(v, t, NumberToText)
			return s, true
		}
		w.fail(v, t, ErrKind, "not a finite number")
		return v, false
	case kindBool:
		if !w.o.StructuredOnly {
			w.changed(v, t, BooleanToText)
			return strconv.FormatBool(reflect.Indirect(reflect.ValueOf(v)).Bool()), true
		}
	}
	w.fail(v, t, ErrKind, "")
	return v, false
}

// encode writes an object or array as compact JSON text for a string.
func (w *walker) encode(v any, t *Type, depth int) (any, bool) {
	text, err := appendJSON(nil, v, w.chk.maxDepth-depth)
	if err != nil {
		w.failWith(v, t, err)
		return v, false
	}
	if w.o.MaxSize > 0 && len(text) > w.o.MaxSize {
		w.fail(v, t, ErrLimit, "JSON text longer than "+strconv.Itoa(w.o.MaxSize)+" bytes")
		return v, false
	}
	w.changed(v, t, ToJSONText)
	return string(text), true
}

func (w *walker) toNumber(v any, t *Type) (any, bool) {
	num, finite, whole := numberTraits(v)
	switch {
	case num && !finite:
		w.fail(v, t, ErrKind, "not a finite number")
		return v, false
	case num && t.kind == typeInteger && !whole:
		w.fail(v, t, ErrPrecision, "not a whole number")
		return v, false
	case num:
		return v, false
	case w.o.StructuredOnly:
	case kindOf(v) == kindString:
		n, ok := scanNumeral(stringOf(v))
		if !ok {
			w.fail(v, t, ErrSyntax, "not a number")
			return v, false
		}
		r := n.value(t.kind == typeInteger, w.o.UseNumber)
		if r.sentinel != nil {
			w.fail(v, t, r.sentinel, r.detail)
			return v, false
		}
		w.changed(v, t, NumberFromText)
		return r.value, true
	case kindOf(v) == kindBool:
		w.changed(v, t, NumberFromBoolean)
		b := reflect.Indirect(reflect.ValueOf(v)).Bool()
		switch {
		case w.o.UseNumber && b:
			return json.Number("1"), true
		case w.o.UseNumber:
			return json.Number("0"), true
		case b:
			return float64(1), true
		}
		return float64(0), true
	case kindOf(v) == kindNull:
		return v, false
	}
	w.fail(v, t, ErrKind, "")
	return v, false
}

// The strings a boolean accepts, matched without regard to case.
var (
	trueWords  = []string{"true", "1", "yes", "on", "t", "y"}
	falseWords = []string{"false", "0", "no", "off", "f", "n"}
)

func (w *walker) toBoolean(v any, t *Type) (any, bool) {
	k := kindOf(v)
	switch {
	case k == kindBool, k == kindNull:
		return v, false
	case w.o.StructuredOnly:
	case k == kindString:
		s := stringOf(v)
		for i := range trueWords {
			if strings.EqualFold(s, trueWords[i]) {
				w.changed(v, t, BooleanFromText)
				return true, true
			}
			if strings.EqualFold(s, falseWords[i]) {
				w.changed(v, t, BooleanFromText)
				return false, true
			}
		}
		w.fail(v, t, ErrSyntax, "not a boolean")
		return v, false
	case k == kindNumber:
		if one, ok := zeroOrOne(v); ok {
			w.changed(v, t, BooleanFromNumber)
			return one, true
		}
		w.fail(v, t, ErrKind, "only 0 and 1 are booleans")
		return v, false
	}
	w.fail(v, t, ErrKind, "")
	return v, false
}

// stringOf returns the text of a value of kind string: a string, or a Go
// type whose underlying type is string.
func stringOf(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return reflect.Indirect(reflect.ValueOf(v)).String()
}

func (w *walker) toNull(v any, t *Type) (any, bool) {
	if kindOf(v) == kindNull {
		return v, false
	}
	if s, ok := v.(string); ok && !w.o.StructuredOnly && (s == "" || s == "null") {
		w.changed(v, t, NullFromText)
		return nil, true
	}
	w.fail(v, t, ErrKind, "")
	return v, false
}

// checker answers whether values fit types. Beyond maxDepth nothing fits,
// which keeps cyclic values from looping: coercing them then fails with
// ErrLimit.
//
// Unions can make that exponential: with N = list[N] | tuple[N] | integer,
// each level of [[[...]]] is fitted to both array members, and each of
// those fits the level below to both again. So once a call has tried
// memoAfter union members, the checker remembers which container failed to
// fit or convert to which type, and the second time answers at once; before
// that it allocates nothing.
type checker struct {
	maxDepth int
	trials   int
	failed   map[trial]struct{}
}

// A trial is a container (by address and length) meeting a type, to fit
// it as it is (fit) or to convert it.
type trial struct {
	addr uintptr
	n    int
	t    *Type
	fit  bool
}

const memoAfter = 1 << 10

func trialOf(v any, t *Type, fit bool) (trial, bool) {
	var n int
	switch x := v.(type) {
	case map[string]any:
		n = len(x)
	case []any:
		n = len(x)
	case []byte:
		n = len(x)
	default:
		return trial{}, false
	}
	return trial{reflect.ValueOf(v).Pointer(), n, t, fit}, true
}

func (c *checker) failedBefore(v any, t *Type, fit bool) bool {
	key, ok := trialOf(v, t, fit)
	if !ok {
		return false
	}
	_, failed := c.failed[key]
	return failed
}

func (c *checker) noteFailure(v any, t *Type, fit bool) {
	if c.trials < memoAfter {
		return
	}
	if key, ok := trialOf(v, t, fit); ok {
		if c.failed == nil {
			c.failed = map[trial]struct{}{}
		}
		c.failed[key] = struct{}{}
	}
}

// conforms reports whether v fits t deeply, allocating nothing for the
// values encoding/json decodes into.
func (c *checker) conforms(v any, t *Type, depth int) bool {
	if t.isAny() || v == nil {
		return true
	}
	switch t.kind {
	case typeUnion:
		for _, m := range t.members {
			c.trials++
			if c.conforms(v, m, depth) {
				return true
			}
		}
		return false
	case typeString:
		k := kindOf(v)
		return k == kindString || k == kindNull
	case typeInteger, typeNumber:
		if num, finite, whole := numberTraits(v); num {
			return finite && (whole || t.kind == typeNumber)
		}
		return kindOf(v) == kindNull
	case typeBoolean:
		k := kindOf(v)
		return k == kindBool || k == kindNull
	case typeNull:
		return kindOf(v) == kindNull
	}
	if depth >= c.maxDepth {
		return false
	}
	switch x := v.(type) {
	case map[string]any:
		if t.kind != typeObject {
			return false
		}
		if t.props == nil && t.rest.isAny() {
			return true
		}
		if c.failed != nil && c.failedBefore(v, t, true) {
			return false
		}
		for k, val := range x {
			if !c.conforms(val, t.field(k), depth+1) {
				c.noteFailure(v, t, true)
				return false
			}
		}
		return true
	case []any:
		if t.kind != typeArray {
			return false
		}
		if len(t.prefix) == 0 && t.elem.isAny() {
			return true
		}
		if c.failed != nil && c.failedBefore(v, t, true) {
			return false
		}
		for i, val := range x {
			if !c.conforms(val, t.item(i), depth+1) {
				c.noteFailure(v, t, true)
				return false
			}
		}
		return true
	}
	return c.reflectConforms(reflect.ValueOf(v), t, depth)
}

// reflectConforms handles Go maps and slices of other types: each element
// must conform. Structs conform to a bare object; to a type with
// properties they are converted through JSON, which maps field names.
func (c *checker) reflectConforms(rv reflect.Value, t *Type, depth int) bool {
	k := reflectKind(rv)
	for rv.Kind() == reflect.Pointer && !rv.IsNil() {
		rv = rv.Elem()
	}
	switch {
	case k == kindNull:
		return true
	case k == kindObject && t.kind == typeObject:
		if t.props == nil && t.rest.isAny() {
			return true
		}
		if rv.Kind() != reflect.Map {
			return false
		}
		for it := rv.MapRange(); it.Next(); {
			if !c.conforms(it.Value().Interface(), t.field(it.Key().String()), depth+1) {
				return false
			}
		}
		return true
	case k == kindArray && t.kind == typeArray:
		if len(t.prefix) == 0 && t.elem.isAny() {
			return true
		}
		for i := range rv.Len() {
			if !c.conforms(rv.Index(i).Interface(), t.item(i), depth+1) {
				return false
			}
		}
		return true
	}
	return false
}

// errList collects a call's errors. The first is kept apart so that a call
// that fails once allocates only that error.
type errList struct {
	first *Error
	more  []*Error
}

func (l *errList) len() int {
	if l.first == nil {
		return 0
	}
	return 1 + len(l.more)
}

func (l *errList) at(i int) *Error {
	if i == 0 {
		return l.first
	}
	return l.more[i-1]
}

func (l *errList) add(e *Error) {
	if l.first == nil {
		l.first = e
		return
	}
	l.more = append(l.more, e)
}

func (l *errList) truncate(n int) {
	if n == 0 {
		l.first = nil
		l.more = l.more[:0]
		return
	}
	l.more = l.more[:n-1]
}

// prefix puts a path token before the paths of the errors from index from
// on: errors bubble up, and each level adds its key.
func (l *errList) prefix(from int, token string) {
	for i := from; i < l.len(); i++ {
		e := l.at(i)
		e.Path = token + e.Path
	}
}

// err returns the errors as one error, ordered by path so that the same
// input gives the same message whatever order Go's maps iterate in.
func (l *errList) err() error {
	switch {
	case l.first == nil:
		return nil // not a typed nil *Error in a non-nil error
	case len(l.more) == 0:
		return l.first // no allocation for the common single failure
	}
	all := make([]*Error, 0, l.len())
	for i := range l.len() {
		all = append(all, l.at(i))
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].Path < all[j].Path })
	list := make([]error, len(all))
	for i, e := range all {
		list[i] = e
	}
	return errors.Join(list...)
}
