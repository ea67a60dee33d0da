package coerce

import (
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"slices"
	"strings"

	"github.com/coerce-go/coerce/internal/jsonwire"
	"github.com/coerce-go/coerce/internal/nearjson"
)

// The conversions of single values: scalars to scalars, JSON text to
// objects and arrays, and a single value wrapped into an array.

// A conversion is what converting a scalar to a scalar type gives: the
// value it became and the rule that made it, or, where it does not
// convert, why (an error that is a template: its Err and Detail). The zero conversion is a value
// that fits as it is. Conversions are plain values, so that converting one
// scalar, the commonest repair, costs no more than the conversion itself.
type conversion struct {
	out  any
	why  *Error // where it does not convert: a template with Err and Detail set
	rule Rule
}

func convertedTo(out any, r Rule) conversion { return conversion{out: out, rule: r} }

func refused(why *Error) conversion { return conversion{why: why} }

// The reasons a value does not convert, shared: a conversion is a plain
// value, and its reason a pointer to one of these (or, for JSON text
// that does not decode, to the decoder's error).
var (
	notKind       = &Error{Err: ErrKind}
	notFinite     = &Error{Err: ErrKind, Detail: "not a finite number"}
	notWhole      = &Error{Err: ErrPrecision, Detail: "not a whole number"}
	notNumber     = &Error{Err: ErrSyntax, Detail: "not a number"}
	notBoolean    = &Error{Err: ErrSyntax, Detail: "not a boolean"}
	notZeroOrOne  = &Error{Err: ErrKind, Detail: "only 0 and 1 are booleans"}
	notJSONText   = &Error{Err: ErrKind, Detail: "not JSON text"}
	notQuotedText = &Error{Err: ErrKind, Detail: "a JSON string that holds no JSON object or array text"}
	notFencedText = &Error{Err: ErrKind, Detail: "a markdown fence around no JSON object or array text"}
	objectText    = &Error{Err: ErrKind, Detail: "JSON text of an object"}
	arrayText     = &Error{Err: ErrKind, Detail: "JSON text of an array"}
	outOfRange    = &Error{Err: ErrPrecision, Detail: "out of float64 range"}
	tooSmall      = &Error{Err: ErrPrecision, Detail: "too small for float64"}
)

var wrongKind = refused(notKind)

// scalarType reports whether t declares a scalar: what convertScalar
// converts to.
func (t *Type) scalarType() bool {
	switch t.kind {
	case typeString, typeInteger, typeNumber, typeBoolean, typeNull, typeAny:
		return true
	}
	return false
}

// convertScalar converts v, a value of scalar kind k (string, number,
// boolean, null, or a value with no JSON form), to scalar type t.
func convertScalar(o *Options, v any, k kind, t *Type) conversion {
	if k == kindNull || t.kind == typeAny {
		return conversion{}
	}
	switch t.kind {
	case typeString:
		switch {
		case k == kindString:
			if t.enum != nil && !o.ExactEnums && !o.StructuredOnly {
				if e := enumRespelling(t, stringOf(v)); e != "" {
					return convertedTo(e, EnumCase)
				}
			}
			return conversion{}
		case o.StructuredOnly:
		case k == kindNumber:
			if s, ok := numberText(v); ok {
				return convertedTo(s, NumberToText)
			}
			return refused(notFinite)
		case k == kindBool:
			return convertedTo(boolText(v), BooleanToText)
		}
	case typeInteger, typeNumber:
		if num, why := numberMisfit(v, t); num {
			switch why {
			case infinite:
				return refused(notFinite)
			case fractional:
				return refused(notWhole)
			case notDigits:
				// 5.0 for a Go integer: its digits, which encoding/json takes.
				return fromNumeral(o, string(v.(json.Number)), t)
			}
			return conversion{}
		}
		switch {
		case k == kindNumber:
			// A json.Number whose text is no JSON number ("+5", "007"):
			// read as a numeric string, so that the result can be
			// written as JSON.
			return fromNumeral(o, string(v.(json.Number)), t)
		case o.StructuredOnly:
		case k == kindString:
			return fromNumeral(o, stringOf(v), t)
		case k == kindBool:
			one := boolText(v) == "true"
			var n any = float64(0)
			switch {
			case o.UseNumber && one:
				n = json.Number("1")
			case o.UseNumber:
				n = json.Number("0")
			case one:
				n = float64(1)
			}
			return convertedTo(n, NumberFromBoolean)
		}
	case typeBoolean:
		switch {
		case k == kindBool:
			return conversion{}
		case o.StructuredOnly:
		case k == kindString:
			return fromWord(stringOf(v))
		case k == kindNumber:
			if one, ok := zeroOrOne(v); ok {
				return convertedTo(one, BooleanFromNumber)
			}
			return refused(notZeroOrOne)
		}
	case typeNull:
		if s, ok := v.(string); ok && !o.StructuredOnly && spellsNull(s) {
			return convertedTo(nil, NullFromText)
		}
	}
	return wrongKind
}

// fromNumeral converts a numeric string to integer or number type t.
func fromNumeral(o *Options, s string, t *Type) conversion {
	n, ok := scanNumeral(s)
	if !ok {
		return refused(notNumber)
	}
	v, why := n.value(t.kind == typeInteger, o.UseNumber)
	if why != nil {
		return refused(why)
	}
	return convertedTo(v, NumberFromText)
}

// spellsNull reports whether s is a string that null type takes as null
// (NullFromText): empty, or "null". Optional[T] leaves such a string to
// its null member (Options.optionalMember).
func spellsNull(s string) bool { return s == "" || s == "null" }

// stringRepair is convertScalar's fast path for JSON text, where a string
// token is converted without being decoded: content is the token's bytes
// between its quotes. It reports the rule by which convertScalar converts
// that string to t, for the two usual repairs whose result
// appendStringRepair writes from the bytes as appendJSON would write the
// converted value: a numeric string that float64 holds as written, well
// inside 2^53 (fromNumeral), and "true" or "false" for a boolean (fromWord).
// Anything else is left to convertScalar (false).
func stringRepair(o *Options, content []byte, t *Type) (Rule, bool) {
	switch {
	case o.StructuredOnly:
		return 0, false
	case t.kind == typeBoolean:
		return BooleanFromText, t.enum == nil && (string(content) == "true" || string(content) == "false") // no copy
	case o.UseNumber || t.kind != typeNumber && (t.kind != typeInteger || t.plainInt):
		return 0, false
	case len(content) > 24 || !jsonwire.IsNumber(content):
		return 0, false
	}
	f, ok := jsonwire.Value(content)
	return NumberFromText, ok && math.Abs(f) < exactFloat && numberTextFits(content, t)
}

// appendStringRepair appends to dst what the repair r of stringRepair
// makes of content.
func appendStringRepair(dst, content []byte, r Rule) []byte {
	if r == NumberFromText && !jsonwire.IsFloatText(content) {
		f, _ := jsonwire.Value(content)
		return jsonwire.AppendFloat(dst, f, 64)
	}
	return append(dst, content...) // as AppendFloat would write it; "true", "false"
}

// The strings a boolean accepts, matched without regard to case.
var (
	trueWords  = []string{"true", "1", "yes", "on", "t", "y"}
	falseWords = []string{"false", "0", "no", "off", "f", "n"}
)

func fromWord(s string) conversion {
	for i := range trueWords {
		if strings.EqualFold(s, trueWords[i]) {
			return convertedTo(true, BooleanFromText)
		}
		if strings.EqualFold(s, falseWords[i]) {
			return convertedTo(false, BooleanFromText)
		}
	}
	return refused(notBoolean)
}

func boolText(v any) string {
	if b, ok := v.(bool); ok {
		if b {
			return "true"
		}
		return "false"
	}
	if reflect.Indirect(reflect.ValueOf(v)).Bool() {
		return "true"
	}
	return "false"
}

// result turns a conversion of v to t into the walker's result.
func (w *walker) result(v any, t *Type, c conversion) result {
	switch {
	case c.why != nil:
		return w.failWith(v, t, c.why)
	case c.rule != 0:
		return w.convert(v, t, c.out, c.rule)
	}
	return result{}
}

// scalar converts v, a scalar of kind k, to t: a scalar type, or an array
// wrapping it (Options.WrapScalars).
func (w *walker) scalar(v any, k kind, t *Type, depth int) result {
	switch {
	case t.scalarType():
		return w.result(v, t, convertScalar(&w.o, v, k, t))
	case t.kind == typeArray && w.o.WrapScalars && (k == kindBool || k == kindNumber):
		return w.wrap(v, t, depth)
	}
	return w.fail(v, t, ErrKind, "")
}

// evalString evaluates a string (v holds it, perhaps as a named string
// type) against es. Its JSON text, if the object and array types want it,
// is parsed once for all of them.
func (w *walker) evalString(v any, s string, es []*Type, rb, depth int) {
	var textBuf [4]int
	text := textBuf[:0] // indices of the object and array types
	for j, t := range es {
		switch {
		case t.kind == typeAny, t.kind == typeString && t.enum == nil:
		case t.kind == typeObject, t.kind == typeArray:
			text = append(text, j)
		default:
			w.res[rb+j] = w.result(v, t, convertScalar(&w.o, v, kindString, t))
		}
	}
	switch len(text) {
	case 0:
	case 1:
		// The usual case, one object or array type: the fitter can tell
		// that the text fits it for less than a walk.
		w.res[rb+text[0]] = w.textOne(v, s, es[text[0]], depth)
	default:
		w.fromText(v, s, es, text, rb, depth)
	}
}

// jsonText finds the JSON text that string s holds for an object or
// array type, by the sniff, which decides without allocating whether
// parsing can succeed: bare, encoded once more as a JSON string, or in one
// markdown fence. It returns the text's shape and the rule that unwraps
// it, or why there is none (sh is shapeNone; text is s trimmed, for the
// caller that would rather wrap a string that is no JSON text).
func jsonText(o *Options, s string) (sh shape, text string, rule Rule, fixes nearjson.Fixes, why conversion) {
	sh, text = sniff(s)
	rule = JSONText
	switch sh {
	case shapeNone:
		if o.noJSONText(s) {
			return sh, text, 0, 0, refused(notJSONText)
		}
		// Tokens of a chat template around it, say: near-JSON, if anything,
		// read only within MaxSize, as JSON text is (a limit applies
		// before any repair).
		if o.MaxSize > 0 && len(text) > o.MaxSize {
			return shapeNone, trimSpace(s), 0, 0, refused(tooLong(o.MaxSize))
		}
		var cut bool
		if sh, text, fixes, cut = nearJSON(o, text); sh == shapeNone {
			if cut {
				return sh, trimSpace(s), 0, 0, refused(truncated())
			}
			return sh, trimSpace(s), 0, 0, refused(notJSONText)
		}
		return sh, text, JSONText, fixes, conversion{}
	case shapeQuoted:
		inner, err := decodeJSON(text, false, 1)
		if err != nil {
			e := err.(*Error)
			return shapeNone, "", 0, 0, refused(e)
		}
		if sh, text = sniffPlain(inner.(string)); sh == shapeNone {
			return sh, "", 0, 0, refused(notQuotedText)
		}
		rule = DoubleEncoded
	case shapeFenced:
		if sh, text = sniffPlain(text); sh == shapeNone {
			return sh, "", 0, 0, refused(notFencedText)
		}
		rule = Fenced
	}
	// Near-JSON inside brackets is repaired where parsing fails (see
	// walker.parseText), so that JSON text is read once.
	return sh, text, rule, fixes, conversion{}
}

// noJSONText is jsonText's quick answer, in constant time for most
// strings: s holds no JSON text, nor near-JSON text, of an object or array.
func (o *Options) noJSONText(s string) bool {
	sh, text := sniff(s)
	return noText(o, sh, text)
}

// noText is noJSONText once the sniff has read s (as sh, and text
// trimmed), for a string or its bytes: small enough to be inlined where
// the sniff is. Prose is answered by its two ends before the options are
// read.
func noText[T ~string | ~[]byte](o *Options, sh shape, text T) bool {
	return sh == shapeNone && (!nearJSONAround(text) || o.StrictJSON)
}

// nearJSONAround reports whether text, which is no JSON text of an object
// or array, may be near-JSON around one: a chat-template token or a
// comment before it, a bracket that opens it but a comment or token after
// it, and a bracket somewhere. Prose is told apart by its ends, in
// constant time.
func nearJSONAround[T ~string | ~[]byte](text T) bool {
	return len(text) > 0 && (nearJSONFirst[text[0]] || text[len(text)-1] == '>') && holdsBracket(text)
}

// nearJSONFirst marks the bytes near-JSON text may start with: a
// chat-template token, a comment, or a bracket.
var nearJSONFirst = [256]bool{'<': true, '/': true, '#': true, '{': true, '[': true}

// holdsBracket reports whether text holds a '{' or '['.
func holdsBracket[T ~string | ~[]byte](text T) bool {
	for i := range len(text) {
		if text[i] == '{' || text[i] == '[' {
			return true
		}
	}
	return false
}

// parseText parses the JSON text of shape sh that a string holds, by the
// one reading of such text (readText), within the walker's limits.
func (w *walker) parseText(text string, sh shape, depth int) (any, nearjson.Fixes, error) {
	return readText(&w.o, text, sh, func(s string) (any, error) { return w.parseString(s, depth) })
}

// readText is the one reading of the JSON text of shape sh that a string
// holds: parsed, and where it is not JSON, the JSON that near-JSON repair
// makes of it (the rule of Options.repairNearJSON), with the fixes made.
// Text cut off inside a value, JSON or near-JSON, is ErrTruncated.
func readText(o *Options, text string, sh shape, parse func(string) (any, error)) (any, nearjson.Fixes, error) {
	val, err := parse(text)
	if err == nil || o.StrictJSON || !errors.Is(err, ErrSyntax) {
		return val, 0, err
	}
	rsh, repaired, fixes, cut := nearJSON(o, text)
	switch {
	case cut:
		return nil, 0, truncated()
	case rsh != sh:
		return nil, 0, err
	}
	if val, rerr := parse(repaired); rerr == nil {
		return val, fixes, nil
	}
	return nil, 0, err
}

// truncated is the error of text cut off inside a value.
func truncated() *Error { return &Error{Err: ErrTruncated, Detail: truncatedDetail} }

// nearJSON repairs text that is almost JSON (see package nearjson): the
// shape and text of the JSON it stands for, and the fixes made; shapeNone
// where its reading is not certain, which leaves the text as it was, to
// fail as JSON text does, and cut where it ends inside a value.
func nearJSON(o *Options, text string) (sh shape, repaired string, fixes nearjson.Fixes, cut bool) {
	out, fixes, ok, cut := o.repairNearJSON([]byte(text))
	if !ok {
		return shapeNone, text, 0, cut
	}
	sh, repaired = sniffPlain(string(out))
	return sh, repaired, fixes, false
}

// repairNearJSON is the one rule of near-JSON repair, for JSON text in a
// string and for whole argument text: the JSON text, and true, where the
// reading of text is certain and the options allow it.
//
// cut reports text that ends inside a value it began (nearjson's
// Truncated): it is never repaired, and is ErrTruncated to the caller.
func (o *Options) repairNearJSON(text []byte) (out []byte, fixes nearjson.Fixes, ok, cut bool) {
	if o.StrictJSON {
		return nil, 0, false, false
	}
	out, fixes, err := nearjson.Repair(text, nearjson.Limits{MaxDepth: o.maxDepth()})
	if err != nil {
		var ne *nearjson.Error
		return nil, 0, false, errors.As(err, &ne) && ne.Truncated
	}
	if fixes == 0 || fixes&nearjson.ControlCharacter != 0 {
		// A raw control character in a string stays an error, as in JSON
		// text (README, Hostile input): near-JSON is what models write for
		// Python, and none writes a raw NUL or tab on purpose.
		return nil, 0, false, false
	}
	return out, fixes, true, false
}

// nearJSONChanges are the changes of a near-JSON repair of argument text
// (at the root of the arguments, declared as given): one per fix.
func nearJSONChanges(text []byte, declared string, fixes nearjson.Fixes) []Change {
	var changes []Change
	nearJSONRules(fixes, func(r Rule) {
		changes = append(changes, Change{Declared: declared, Found: String, Preview: preview(string(text)), Rule: r})
	})
	return changes
}

// textKind is the failure of JSON text of shape sh for object or array
// type t, or the zero conversion when the kinds agree.
func textKind(sh shape, t *Type) conversion {
	switch {
	case sh == shapeObject && t.kind == typeArray:
		return refused(objectText)
	case sh == shapeArray && t.kind == typeObject:
		return refused(arrayText)
	}
	return conversion{}
}

// wrapsText reports whether a string that is no JSON text (text, trimmed)
// is wrapped into an array for t: broken JSON text ("[1") is reported,
// not wrapped as ["[1"]. It is the options', not the walker's: it reads
// nothing else.
func (o *Options) wrapsText(t *Type, text string) bool {
	return o.WrapScalars && t.kind == typeArray && (text == "" || text[0] != '[' && text[0] != '{')
}

// reparsed is the result for type t of v, whose other form (its JSON
// text parsed, or its JSON form) by rule is val, which gave result r: v
// converted to val or to what r made of it, with r's changes and keys.
func (w *walker) reparsed(v any, t *Type, rule Rule, val any, r result) result {
	if r.state == failed {
		return r
	}
	out := val
	if r.state == converted {
		out = r.out
	}
	c := w.convert(v, t, out, rule)
	c.chg = c.chg.with(r.chg)
	c.keys = r.keys
	return c
}

// fromParsed is the result for type t of a string v whose JSON text,
// unwrapped by rule, was parsed into val, which gave result r.
func (w *walker) fromParsed(v any, t *Type, rule Rule, fixes nearjson.Fixes, sh shape, val any, r result) result {
	fitted := r.state == fits
	if r = w.reparsed(v, t, rule, val, r); fitted {
		r.keys |= keysTextFit
	}
	if fixes != 0 && r.chg != nil && r.state == converted {
		r.chg.own = withFixes(r.chg.own, fixes)
	}
	r.keys |= keysTextObject
	if sh == shapeArray {
		r.keys ^= keysTextObject | keysTextArray
	}
	return r
}

// withFixes appends to own, whose first change is the rule that unwrapped
// JSON text in a string, one change for each near-JSON fix of that text,
// alike but for the rule: the one report of repaired text, from the walker
// and from CoerceJSON's copy of the text (walker.rawText).
func withFixes(own []Change, fixes nearjson.Fixes) []Change {
	first := own[0]
	nearJSONRules(fixes, func(rule Rule) {
		c := first
		c.Rule = rule
		own = append(own, c)
	})
	return own
}

// fromText gives the results of string s for the object and array types
// es[j] (j in idx): its JSON text is parsed once, and what it holds is
// evaluated against all those types at once.
func (w *walker) fromText(v any, s string, es []*Type, idx []int, rb, depth int) {
	sh, text, rule, fixes, why := jsonText(&w.o, s)
	tb := len(w.types)
	for _, j := range idx {
		switch t := es[j]; {
		case sh == shapeNone && w.o.wrapsText(t, text):
			w.res[rb+j] = w.wrap(v, t, depth)
		case sh == shapeNone:
			w.res[rb+j] = w.result(v, t, why)
		case textKind(sh, t).why != nil:
			w.res[rb+j] = w.result(v, t, textKind(sh, t))
		default:
			w.pushType(t)
		}
	}
	ts := w.types[tb:]
	if len(ts) == 0 {
		return
	}
	val, more, err := w.parseText(text, sh, depth)
	fixes |= more
	if err != nil {
		for _, t := range ts {
			w.res[rb+slices.Index(es, t)] = w.failWith(v, t, err)
		}
		w.types = w.types[:tb]
		return
	}
	pb := w.eval(val, ts, depth, true)
	for i, t := range ts {
		w.res[rb+slices.Index(es, t)] = w.fromParsed(v, t, rule, fixes, sh, val, w.res[pb+i])
	}
	w.res, w.types = w.res[:pb], w.types[:tb]
}

// textOne is fromText for one object or array type.
func (w *walker) textOne(v any, s string, t *Type, depth int) result {
	sh, text, rule, fixes, why := jsonText(&w.o, s)
	switch {
	case sh == shapeNone && w.o.wrapsText(t, text):
		return w.wrap(v, t, depth)
	case sh == shapeNone:
		return w.result(v, t, why)
	case textKind(sh, t).why != nil:
		return w.result(v, t, textKind(sh, t))
	}
	val, more, err := w.parseText(text, sh, depth)
	fixes |= more
	if err != nil {
		return w.failWith(v, t, err)
	}
	// What the text holds meets t alone, as any value does: the rule of
	// nulls acts in it, whatever union the string met (nulls.go).
	off := w.nulls.off
	w.nulls.off = 0
	defer func() { w.nulls.off = off }()
	if !t.keyed {
		// The usual case: the text holds what t takes as it is, which the
		// fitter tells for less than the walker; the result is the walk's
		// (container's, for a type without keywords).
		f := fitter{maxDepth: w.maxDepth, budget: w.budget - w.work, nulls: w.nulls}
		fits := f.fit(val, t, depth)
		if w.spend(f.work) && fits {
			var r result
			if t.kind == typeObject {
				r.keys = keysSat | keysAsIs
			}
			return w.fromParsed(v, t, rule, fixes, sh, val, r)
		}
	}
	return w.fromParsed(v, t, rule, fixes, sh, val, w.one(val, t, depth, true))
}

// wrap makes a one-element array of a single value (Options.WrapScalars).
func (w *walker) wrap(v any, t *Type, depth int) result {
	if depth >= w.maxDepth {
		w.tooDeep()
		return result{}
	}
	r := w.one(v, t.item(0), depth+1, false)
	switch r.state {
	case failed:
		return result{state: failed, fail: &failure{kids: []failKid{{child{index: 0}, w.failureOf(&r)}}}}
	case converted:
		v2 := w.convert(v, t, []any{r.out}, Wrapped)
		if r.chg != nil {
			v2.chg.kids = append(v2.chg.kids, changeKid{child{index: 0}, r.chg})
		}
		return v2
	}
	return w.convert(v, t, []any{v}, Wrapped)
}

// stringOf returns the text of a value of kind string: a string, or a Go
// type whose underlying type is string.
func stringOf(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return reflect.Indirect(reflect.ValueOf(v)).String()
}
