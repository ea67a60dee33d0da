package coerce

import "github.com/coerce-go/coerce/internal/jsonwire"

// The scalar judgement: whether a scalar conforms to a scalar type as it
// is, for a Go value and for a token of JSON text, by one rule each kind.
// The conversions of what does not conform are convert.go's
// (convertScalar); the rule of enums is enums.go's (enumRespelling).

// The rule of numbers: a number conforms to number type if it is finite,
// to integer type if it is also whole (5.0 and 5e0 are integers: JSON
// Schema counts them so), and to a Go integer's type (plainInt) only as
// plain digits, the only text encoding/json decodes into one. numberMisfit
// states it for a Go value, for the fitter and for convertScalar, which
// refuses or converts what does not conform by why; numberTextFits states
// it for JSON number text (always finite); fitLeaf and fitShort, which
// know from their scan that a number is plain digits, take those as
// fitting at once, as this rule would.

// A misfit is why a number does not conform to a number type as it is.
type misfit uint8

const (
	fitsAsIs   misfit = iota
	infinite          // NaN or infinite: no JSON number
	fractional        // for integer type
	notDigits         // whole, but not plain digits, for a Go integer's type
)

// numberMisfit reports whether v is a number, and, if it is, why it does
// not conform to number or integer type t (fitsAsIs where it does).
func numberMisfit(v any, t *Type) (num bool, why misfit) {
	num, finite, whole := numberTraits(v)
	switch {
	case !num:
		return false, fitsAsIs
	case !finite:
		return true, infinite
	case !whole && t.kind == typeInteger:
		return true, fractional
	case t.plainInt && !plainIntText(v):
		return true, notDigits
	}
	return true, fitsAsIs
}

// numberTextFits reports whether the valid JSON number text num conforms
// to number or integer type t.
func numberTextFits(num []byte, t *Type) bool {
	switch {
	case t.kind == typeNumber:
		return true
	case t.plainInt:
		return plainDigits(num)
	}
	return jsonwire.IsWhole(num)
}

// plainDigits reports whether JSON number text has no fraction and no
// exponent.
func plainDigits(num []byte) bool {
	for _, c := range num {
		if c == '.' || c|0x20 == 'e' {
			return false
		}
	}
	return true
}

// fitScalar fits v to a scalar type.
func fitScalar(v any, t *Type) bool {
	switch t.kind {
	case typeString:
		switch v.(type) {
		case string:
			return true
		case float64, bool, map[string]any, []any:
			return false
		}
		k := kindOf(v)
		return k == kindString || k == kindNull
	case typeInteger, typeNumber:
		if num, why := numberMisfit(v, t); num {
			return why == fitsAsIs
		}
		return kindOf(v) == kindNull
	case typeBoolean:
		if _, ok := v.(bool); ok {
			return true
		}
		k := kindOf(v)
		return k == kindBool || k == kindNull
	case typeNull:
		return kindOf(v) == kindNull
	}
	return false
}

// fitRawScalar fits the scalar JSON value tok, of kind k, to scalar type t.
func fitRawScalar(tok []byte, k kind, t *Type) bool {
	switch {
	case k == kindNull:
		return true
	case k == kindString && t.enum != nil && t.kind == typeString:
		return enumRespellingRaw(t, tok) == ""
	case t.kind == typeInteger:
		return k == kindNumber && numberTextFits(tok, t)
	}
	return t.kind.valueKind() == k
}
