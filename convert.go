package coerce

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
)

// The conversions of single values: scalars to scalars, JSON text to
// objects and arrays, and a single value wrapped into an array.

// scalar converts v, a boolean, a number or a value with no JSON form
// (kind k), to t.
func (w *walker) scalar(v any, k kind, t *Type, depth int) result {
	switch t.kind {
	case typeAny:
		return result{}
	case typeString:
		return w.toString(v, k, t)
	case typeInteger, typeNumber:
		return w.toNumber(v, k, t)
	case typeBoolean:
		return w.toBoolean(v, k, t)
	case typeArray:
		if w.o.WrapScalars && (k == kindBool || k == kindNumber) {
			return w.wrap(v, t, depth)
		}
	}
	return w.fail(v, t, ErrKind, "")
}

func (w *walker) toString(v any, k kind, t *Type) result {
	switch {
	case w.o.StructuredOnly:
	case k == kindNumber:
		if s, ok := numberText(v); ok {
			return w.convert(v, t, s, NumberToText)
		}
		return w.fail(v, t, ErrKind, "not a finite number")
	case k == kindBool:
		return w.convert(v, t, boolText(v), BooleanToText)
	}
	return w.fail(v, t, ErrKind, "")
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

func (w *walker) toNumber(v any, k kind, t *Type) result {
	if num, finite, whole := numberTraits(v); num {
		switch {
		case !finite:
			return w.fail(v, t, ErrKind, "not a finite number")
		case t.kind == typeInteger && !whole:
			return w.fail(v, t, ErrPrecision, "not a whole number")
		}
		return result{}
	}
	if k == kindNumber {
		// A json.Number whose text is no JSON number ("+5", "007"): read
		// as a numeric string, so that the result can be written as JSON.
		return w.fromNumeral(v, string(v.(json.Number)), t, NumberFromText)
	}
	if k == kindBool && !w.o.StructuredOnly {
		one := boolText(v) == "true"
		var n any = float64(0)
		switch {
		case w.o.UseNumber && one:
			n = json.Number("1")
		case w.o.UseNumber:
			n = json.Number("0")
		case one:
			n = float64(1)
		}
		return w.convert(v, t, n, NumberFromBoolean)
	}
	return w.fail(v, t, ErrKind, "")
}

// fromNumeral converts a numeric string to integer or number type t.
func (w *walker) fromNumeral(v any, s string, t *Type, r Rule) result {
	n, ok := scanNumeral(s)
	if !ok {
		return w.fail(v, t, ErrSyntax, "not a number")
	}
	nr := n.value(t.kind == typeInteger, w.o.UseNumber)
	if nr.sentinel != nil {
		return w.fail(v, t, nr.sentinel, nr.detail)
	}
	return w.convert(v, t, nr.value, r)
}

func (w *walker) toBoolean(v any, k kind, t *Type) result {
	switch {
	case k == kindBool:
		return result{}
	case w.o.StructuredOnly:
	case k == kindNumber:
		if one, ok := zeroOrOne(v); ok {
			return w.convert(v, t, one, BooleanFromNumber)
		}
		return w.fail(v, t, ErrKind, "only 0 and 1 are booleans")
	}
	return w.fail(v, t, ErrKind, "")
}

// The strings a boolean accepts, matched without regard to case.
var (
	trueWords  = []string{"true", "1", "yes", "on", "t", "y"}
	falseWords = []string{"false", "0", "no", "off", "f", "n"}
)

// evalString evaluates a string (v holds it, perhaps as a named string
// type) against es. Its JSON text, if the object and array types want it,
// is parsed once for all of them.
func (w *walker) evalString(v any, s string, es []*Type, rb, depth int) {
	var textBuf [4]int
	text := textBuf[:0] // indices of the object and array types
	for j, t := range es {
		switch t.kind {
		case typeAny, typeString:
		case typeObject, typeArray:
			text = append(text, j)
		default:
			w.res[rb+j] = w.fromScalarText(v, s, t)
		}
	}
	if len(text) > 0 {
		w.fromText(v, s, es, text, rb, depth)
	}
}

// fromScalarText converts a string to a scalar type: a number, a boolean
// word, or null from "" and "null".
func (w *walker) fromScalarText(v any, s string, t *Type) result {
	if w.o.StructuredOnly {
		return w.fail(v, t, ErrKind, "")
	}
	switch t.kind {
	case typeInteger, typeNumber:
		return w.fromNumeral(v, s, t, NumberFromText)
	case typeBoolean:
		return w.fromWord(v, s, t)
	case typeNull:
		if s == "" || s == "null" {
			return w.convert(v, t, nil, NullFromText)
		}
	}
	return w.fail(v, t, ErrKind, "")
}

func (w *walker) fromWord(v any, s string, t *Type) result {
	for i := range trueWords {
		if strings.EqualFold(s, trueWords[i]) {
			return w.convert(v, t, true, BooleanFromText)
		}
		if strings.EqualFold(s, falseWords[i]) {
			return w.convert(v, t, false, BooleanFromText)
		}
	}
	return w.fail(v, t, ErrSyntax, "not a boolean")
}

// fromText parses the JSON text that string s may hold for the object and
// array types es[j] (j in idx). The sniff decides, without allocating,
// whether parsing can succeed; it unwraps one level of double encoding or
// one markdown fence. The text is parsed once, and what it holds is
// evaluated against all those types at once.
func (w *walker) fromText(v any, s string, es []*Type, idx []int, rb, depth int) {
	failAll := func(sentinel error, detail string) {
		for _, j := range idx {
			w.res[rb+j] = w.fail(v, es[j], sentinel, detail)
		}
	}
	sh, text := sniff(s)
	rule := JSONText
	switch sh {
	case shapeNone:
		for _, j := range idx {
			// Broken JSON text ("[1") is reported, not wrapped as ["[1"].
			if t := es[j]; w.o.WrapScalars && t.kind == typeArray && (text == "" || text[0] != '[' && text[0] != '{') {
				w.res[rb+j] = w.wrap(v, t, depth)
			} else {
				w.res[rb+j] = w.fail(v, t, ErrKind, "not JSON text")
			}
		}
		return
	case shapeQuoted:
		inner, err := decodeJSON(text, false, 1)
		if err != nil {
			for _, j := range idx {
				w.res[rb+j] = w.failWith(v, es[j], err)
			}
			return
		}
		if sh, text = sniffPlain(inner.(string)); sh == shapeNone {
			failAll(ErrKind, "a JSON string that holds no JSON object or array text")
			return
		}
		rule = DoubleEncoded
	case shapeFenced:
		if sh, text = sniffPlain(text); sh == shapeNone {
			failAll(ErrKind, "a markdown fence around no JSON object or array text")
			return
		}
		rule = Fenced
	}
	tb := len(w.types)
	for _, j := range idx {
		switch t := es[j]; {
		case sh == shapeObject && t.kind == typeArray:
			w.res[rb+j] = w.fail(v, t, ErrKind, "JSON text of an object")
		case sh == shapeArray && t.kind == typeObject:
			w.res[rb+j] = w.fail(v, t, ErrKind, "JSON text of an array")
		default:
			w.pushType(t)
		}
	}
	ts := w.types[tb:]
	if len(ts) == 0 {
		return
	}
	defer func() { w.types = w.types[:tb] }()
	val, err := w.parseString(text, depth)
	if err != nil {
		for _, t := range ts {
			w.res[rb+slices.Index(es, t)] = w.failWith(v, t, err)
		}
		return
	}
	pb := w.eval(val, ts, depth, true)
	for i, t := range ts {
		r := w.res[pb+i]
		if r.state != failed {
			out := val
			if r.state == converted {
				out = r.out
			}
			c := w.convert(v, t, out, rule)
			c.chg = c.chg.with(r.chg)
			c.keys, c.textFit = r.keys, r.state == fits
			r = c
		}
		r.text = kindObject
		if sh == shapeArray {
			r.text = kindArray
		}
		w.res[rb+slices.Index(es, t)] = r
	}
	w.res = w.res[:pb]
}

// wrap makes a one-element array of a single value (Options.WrapScalars).
func (w *walker) wrap(v any, t *Type, depth int) result {
	if depth >= w.maxDepth {
		w.tooDeep()
		return result{}
	}
	r := w.one(v, t.item(0), depth+1, false)
	w.settleResult(&r, v, t.item(0))
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
