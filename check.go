package coerce

import (
	"bytes"
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/coerce-go/coerce/internal/jsonwire"
)

// Check reports what coercion leaves to a validator and a model needs to
// hear of: a required argument that is absent (ErrMissing), and an
// argument an object does not declare when it allows no others
// (additionalProperties: false, ErrUnknownName, with the declared names,
// nearest first, in Detail), and a value that its enum or const does not
// allow (ErrEnum, with the allowed values in Detail). It looks into nested
// objects and arrays as the schema declares them, and into a union only
// where the value's kind leaves one member; an enum beside a union is
// checked first, null passing where the union has a null member. Call it on
// coerced arguments: coercion never fails for these reasons, and never adds
// or removes a name.
//
// It returns nil or one *Error per finding, joined, in the order of their
// paths: the first 100, as coercion reports its failures. It reads the
// values with the rules coercion reads them with (enum values compared
// exactly, numbers by their decimal value), within the Schema's MaxDepth
// (deeper values are a finding wrapping ErrLimit) and MaxWork (a call
// beyond it fails as a whole with ErrLimit, as coercion does).
func (s *Schema) Check(args map[string]any) error {
	if s == nil {
		return nil
	}
	return findings(&s.opts, s.root, args, 0, 0)
}

// CheckJSON is Check for arguments as JSON text, read as CoerceJSON reads
// them (jsonwire, within MaxDepth and MaxSize, near-JSON repaired where it
// has one reading). JSON null is no arguments,
// as for CoerceJSON: the required ones are missing. Text that is not valid
// JSON, or not an object, is returned as the error CoerceJSON gives it.
func (s *Schema) CheckJSON(args []byte) error {
	if s == nil {
		return nil
	}
	if s.opts.MaxSize > 0 && len(args) > s.opts.MaxSize {
		return wholeText(tooLong(s.opts.MaxSize), args, s.root)
	}
	return s.checkText(args)
}

// checkText is CheckJSON within MaxSize. Text that passes is read once,
// as it stands, by the fitter in check mode; what may hold a finding is
// decoded, and found in path order.
func (s *Schema) checkText(args []byte) error {
	if start, isObject := argsObject(args); isObject && s.checksParams {
		f := newFitter(&s.opts)
		f.check, f.nulls.on = true, false
		end, fits, err := f.fitArgs(args, start, s.params)
		if err == nil && fits && jsonwire.End(args, end) == nil {
			return nil
		}
	}
	v, err := decodeJSON(args, true, s.opts.maxDepth())
	if err != nil && errors.Is(err, ErrSyntax) {
		// Near-JSON, read as CoerceJSON reads it (repairNearJSON).
		switch fixed, _, ok, cut := s.opts.repairNearJSON(args); {
		case cut:
			err = truncated()
		case ok:
			v, err = decodeJSON(fixed, true, s.opts.maxDepth())
		}
	}
	if err != nil {
		e := *err.(*Error)
		return wholeText(&e, args, s.root)
	}
	m, isObject := v.(map[string]any)
	if !isObject && v != nil {
		return wholeText(&Error{Declared: "object", Err: ErrKind}, args, s.root)
	}
	// The text read costs its bytes, as in every entry point that reads
	// text (Options.MaxWork).
	return findings(&s.opts, s.root, m, 0, workPerByte*len(args))
}

// findings is Check of the value v, at depth, against t: nil, or what
// Check finds, in path order. The fitter in check mode (fitter.check)
// passes the common value in one visit that allocates nothing; a value it
// does not pass is walked again, with a path (find), which has the last
// word, since the fitter is conservative. textBudget is the work the text
// v was read from adds to the budget (Options.MaxWork).
func findings(o *Options, t *Type, v any, depth, textBudget int) error {
	f := newFitter(o)
	f.check, f.nulls.on = true, false
	f.budget += textBudget
	if f.fit(v, t, depth) {
		countWork(f.work)
		return nil
	}
	c := newChecker(o, textBudget)
	if f.work > f.budget {
		// The fitter ran out of budget: find would too, at as much cost
		// again (and more, with paths and sorted keys), to the same end.
		c.work = f.work
		c.stop(workDetail(c.maxWork), true)
	}
	return c.report(t, v, depth)
}

// A checker walks a value against a type for Check, in path order (find),
// once the fitter has not passed it. It counts its work against the
// call's budget, so that Go values sharing their maps cost no more here
// than in coercion.
type checker struct {
	meter          // the walker's, counting one a value met against a type
	errs  []*Error // the findings, in path order
	path  []byte
}

func newChecker(o *Options, textBudget int) *checker {
	return &checker{meter: meter{maxDepth: o.maxDepth(), maxWork: o.maxWork(), budget: o.maxWork() + textBudget}}
}

// report runs find and returns its findings as Check's error.
func (c *checker) report(t *Type, args any, depth int) error {
	if c.limit == nil {
		c.find(t, args, depth)
	}
	countWork(c.work)
	if c.limit != nil {
		e := c.limitError(nil, args, args)
		return &e
	}
	switch len(c.errs) {
	case 0:
		return nil
	case 1:
		return c.errs[0]
	}
	errs := make([]error, len(c.errs))
	for i, e := range c.errs {
		errs[i] = e
	}
	return errors.Join(errs...)
}

// checked is what Check reads of a value against a type: the type it is
// measured by (a union's member of the value's kind), or a finding.
type checked struct {
	t      *Type
	err    error  // ErrEnum or ErrLimit: a finding about the value itself
	detail string // of err
	enum   *Type  // the type whose enum refused it
}

// judge is what Check asks of a value at t before it looks inside: the
// depth, then the enums (enumJudge).
func (c *checker) judge(t *Type, v any, depth int) checked {
	if depth > c.maxDepth {
		return checked{err: ErrLimit, detail: "nesting deeper than " + strconv.Itoa(c.maxDepth)}
	}
	next, refused := enumJudge(t, v)
	if refused != nil {
		return checked{err: ErrEnum, enum: refused}
	}
	return checked{t: next}
}

// enumJudge is the one statement of what Check asks of a value v at t
// (not nil) of its enums: the enum beside a union, then the union's member
// of the value's kind, and that member's enum. It returns the type Check
// measures v by below (nil: none, a union with no one member of v's kind),
// or the type whose enum refuses v. The fitter's check mode asks it too.
func enumJudge(t *Type, v any) (next, refused *Type) {
	if t.kind == typeUnion {
		k := kindOf(v)
		if t.enum != nil && !enumHas(t.enum, v) && !unionPasses(t, k) {
			return nil, t
		}
		if t = memberOfKind(t, k); t == nil {
			return nil, nil
		}
	}
	if t.enum != nil && !enumHas(t.enum, v) {
		return nil, t
	}
	return t, nil
}

// find appends the findings of v at t to c.errs, in path order, keys
// sorted, stopping at maxErrors or when the budget runs out.
func (c *checker) find(t *Type, v any, depth int) {
	if t.isAny() && t.Enum() == nil || c.limit != nil || len(c.errs) >= maxErrors || !c.spend(1) {
		return
	}
	j := c.judge(t, v, depth)
	if j.err != nil {
		e := &Error{Path: string(c.path), Declared: t.String(), Value: v, Err: j.err, Detail: j.detail, declared: t}
		if j.enum != nil {
			e.Detail = valueList(j.enum.enum, feedbackNames)
		}
		c.errs = append(c.errs, e)
		return
	}
	if t = j.t; t == nil {
		return
	}
	switch x := v.(type) {
	case map[string]any:
		if t.kind != typeObject {
			return
		}
		keys := make([]string, 0, len(x)+len(t.required))
		for k := range x {
			keys = append(keys, k)
		}
		for _, name := range t.required {
			if _, ok := x[name]; !ok {
				keys = append(keys, name)
			}
		}
		slices.Sort(keys)
		// The keys listed and sorted cost what visiting as many values
		// does: charged as such, so that Go maps sharing their children
		// stop here as soon, in time, as in the fitter.
		if !c.spend(len(keys)) {
			return
		}
		n := len(c.path)
		for _, k := range keys {
			if len(c.errs) >= maxErrors {
				break
			}
			c.path = append(c.path, jsonwire.PointerToken(k)...)
			e, given := x[k]
			switch {
			case !given:
				p := t.field(k)
				c.errs = append(c.errs, &Error{Path: string(c.path), Declared: p.String(), Err: ErrMissing, declared: p})
			case t.closed && !t.known(k):
				c.errs = append(c.errs, &Error{Path: string(c.path), Declared: t.String(), Value: e, Err: ErrUnknownName,
					Detail: nearestNames(t.Properties(), k, feedbackNames), declared: t})
			default:
				c.find(t.field(k), e, depth+1)
			}
			c.path = c.path[:n]
		}
	case []any:
		if t.kind != typeArray {
			return
		}
		n := len(c.path)
		for i, e := range x {
			if len(c.errs) >= maxErrors || c.limit != nil {
				break
			}
			c.path = strconv.AppendInt(append(c.path, '/'), int64(i), 10)
			c.find(t.item(i), e, depth+1)
			c.path = c.path[:n]
		}
	}
}

// memberOfKind is the one member of union t of kind k, or nil when
// there is none or several (Check then says nothing more of the value): a
// string's enum is its string member's, however the schema wrote the
// union. An integer member counts as a number's.
func memberOfKind(t *Type, k kind) *Type {
	if k == kindRaw || k == kindInvalid {
		return nil
	}
	var pick *Type
	for _, m := range t.members {
		if matchesKind(m.kind, k) || k == kindNumber && m.kind == typeInteger {
			if pick != nil {
				return nil
			}
			pick = m
		}
	}
	return pick
}

// unionPasses reports whether a value of kind k that the enum beside union
// t does not list passes all the same. A null passes where t takes null:
// nullable: true beside an enum that does not list null means, to most
// who write it, that null is allowed too. An object or array is left to
// the member of its kind: where there is none, coercion has said so.
func unionPasses(t *Type, k kind) bool {
	switch k {
	case kindObject, kindArray:
		return true
	case kindNull:
		return t.takesNull()
	}
	return false
}

// tokenInEnum reports whether the JSON value tok is one of the values of
// enum, as enumHas does for the value decoded: a string without escapes
// is compared as it stands, and only an enum that holds an object or
// array decodes one.
func tokenInEnum(enum []any, tok []byte, maxDepth int) bool {
	if tok[0] == '"' && bytes.IndexByte(tok, '\\') < 0 {
		inner := tok[1 : len(tok)-1]
		for _, e := range enum {
			if s, ok := e.(string); ok && s == string(inner) {
				return true
			}
		}
		return false
	}
	if tokenKind(tok[0]) == kindNumber {
		if in, sure := numberInEnum(enum, tok); sure {
			return in
		}
	}
	v, scalar := rawScalar(tok)
	if !scalar {
		if !holdsContainer(enum) {
			return false
		}
		var err error
		if v, err = decodeJSON(tok, true, maxDepth); err != nil {
			return false
		}
	}
	return enumHas(enum, v)
}

// workDetail is the detail of the error of a call its work budget stopped,
// in the words of every entry point (walker.spend).
func workDetail(maxWork int) string {
	return "the call needs more work than Options.MaxWork (" + strconv.Itoa(maxWork) + ") allows"
}

// nearestNames lists names by their edit distance to s, nearest first,
// ties in name order, at most max of them and a count of the rest. Only
// the first nameRunes runes of each side are compared, so that a long
// key costs no more than a short one.
func nearestNames(names []string, s string, max int) string {
	type scored struct {
		name string
		d    int
	}
	ls := strings.ToLower(firstRunes(s, nameRunes))
	out := make([]scored, len(names))
	for i, n := range names {
		out[i] = scored{n, distance(strings.ToLower(firstRunes(n, nameRunes)), ls)}
	}
	slices.SortStableFunc(out, func(a, b scored) int {
		if a.d != b.d {
			return a.d - b.d
		}
		return strings.Compare(a.name, b.name)
	})
	var b strings.Builder
	for i, n := range out {
		if i == max {
			b.WriteString(", and " + strconv.Itoa(len(out)-i) + " more")
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(quoteIfNeeded(n.name))
	}
	return b.String()
}

// nameRunes bounds the runes of a name that nearestNames compares.
const nameRunes = 64

func firstRunes(s string, n int) string {
	for i := range s {
		if n == 0 {
			return s[:i]
		}
		n--
	}
	return s
}

// quoteIfNeeded is a name as the feedback writes it: as it is, or quoted
// as a JSON string when it holds a byte that could start a line of its
// own or does not print (see showPath).
func quoteIfNeeded(name string) string {
	if showPath(name) == name {
		return name
	}
	b, _ := appendJSON(nil, name, 0)
	return string(b)
}

// holdsContainer reports whether an object or an array is among values.
func holdsContainer(values []any) bool {
	return slices.ContainsFunc(values, func(e any) bool { k := kindOf(e); return k == kindObject || k == kindArray })
}
