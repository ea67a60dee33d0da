package coerce

import (
	"encoding/json"
	"errors"
	"reflect"

	"github.com/coerce-go/coerce/internal/godecode"
)

// Unmarshal is json.Unmarshal that first converts the JSON text to the
// shape of v's type, with the default Options. See Options.Unmarshal.
func Unmarshal(data []byte, v any) error { return Options{}.Unmarshal(data, v) }

// Unmarshal parses the JSON-encoded data and stores the result in the value
// pointed to by v, as [json.Unmarshal] does, after converting the text to
// the shape of v's type: a list that arrives as JSON text
// ({"tasks": "[{\"id\":1}]"}), stringified twice or fenced becomes the
// array a []Task field wants, "5" becomes 5 for an int field and "true"
// true for a bool, 5 becomes "5" for a string. The conversions are those
// of ToDeclared, to the shape [Options.SchemaForType] declares: fields
// are named as encoding/json names them, a pointer is nullable, a field
// with the ",string" option is a string, and so are
// [encoding.TextUnmarshaler] types and [time.Time]; [json.Number] and
// [math/big.Int] are numbers; [json.RawMessage], interfaces and types with
// their own UnmarshalJSON stay as sent, except a struct whose exported
// fields carry json tags (the "type Alias T" idiom), which is converted
// field by field before its UnmarshalJSON runs. The shape is derived once
// per type and cached; Unmarshal is safe for concurrent use.
//
// Text that already fits is decoded as it is, so v's own UnmarshalJSON and
// UnmarshalText methods run on the bytes that were sent. It is decoded in
// one pass, by a decoder that stores exactly what json.Unmarshal stores
// and hands encoding/json whatever it cannot be sure of (an error, a
// ",string" field, a map keyed by a TextUnmarshaler, an interface holding
// a pointer): then v is zeroed and decoded by json.Unmarshal, so a method
// of v's types may run twice for one call. Conversion works
// on the raw text: integers beyond 2^53 keep every digit, into int64,
// uint64, json.Number and big.Int alike. Keys match fields exactly as the
// json tags spell them: a key that differs from a field's name only in
// case is not converted, although encoding/json still decodes it into that
// field, as it is.
//
// Unmarshal succeeds wherever json.Unmarshal does, with the same result:
// when the text cannot be converted but encoding/json accepts it as it is
// (a type whose UnmarshalJSON accepts more than its fields say; invalid
// UTF-8, which conversion refuses to alter), it is decoded as it is. The
// limits of o are the exception: text beyond MaxSize or MaxDepth is an
// error.
//
// On error, nothing is written to *v. Into a zero *v (var in Input, the
// usual case) the text is decoded in place, and *v is zeroed again on
// error. Into a *v that holds values, so that defaults set before the call
// survive as with json.Unmarshal (cfg := Config{Port: 8080}), the text is
// decoded twice: first into a zero value of v's type, which must succeed,
// then into a copy of *v, which is stored in *v. The copy is shallow, so
// that second decoding writes into what *v shares (a non-nil map's
// entries, what a non-nil pointer points to, a non-nil slice's backing
// array) as json.Unmarshal does; it fails after the first succeeded only
// if a type's UnmarshalJSON method answers differently for a value that
// is not zero.
//
// A v that is not a non-nil pointer gets a [*json.InvalidUnmarshalError].
// An error about the text or its conversion is an *Error, or several joined,
// each with the JSON Pointer of the value (as Schema.CoerceJSON reports
// them); an error from decoding the converted text into v is encoding/json's
// own (such as [*json.UnmarshalTypeError], or the error of an UnmarshalJSON
// method), returned as it is. Conversions are reported to o.OnChange only
// when the decoding succeeds. o.UseNumber has no effect: v's types decide.
func (o Options) Unmarshal(data []byte, v any) error {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return &json.InvalidUnmarshalError{Type: reflect.TypeOf(v)}
	}
	t := goType(rv.Type().Elem())
	if t.isAny() && o.MaxSize <= 0 && o.MaxDepth <= 0 {
		// Nothing to convert, and encoding/json's limits are the defaults:
		// JSON text is encoding/json's to decode. Text that is not JSON
		// goes on to the rule of near-JSON, as for every other type and
		// limit (the same text gets the same answer however v is typed).
		err := decodeInto(rv, data)
		var syntax *json.SyntaxError
		if err == nil || o.StrictJSON || !errors.As(err, &syntax) {
			return err
		}
	}
	if (o.MaxSize <= 0 || len(data) <= o.MaxSize) && rv.Elem().IsZero() {
		// Text encoding/json accepts as it is needs no conversion: the
		// shape derived from v's type accepts what encoding/json
		// accepts, except a key it would rename, where the decoder
		// stops. So it is decoded at once, in one pass, and the
		// conversion runs only on text that needs it; what it decodes
		// has nothing to report, listener or not.
		stops := godecode.Options{MaxDepth: o.maxDepth()}
		if t.kind == typeObject && !t.keyed {
			// (No null stops it: a Go struct takes null for every field,
			// as encoding/json does; see Type.goStruct.)
			stops.StopAtUnknownKey = o.renames(t)
		}
		if godecode.Into(data, rv, stops) == godecode.Decoded {
			return nil
		}
		rv.Elem().SetZero()
	}
	// Numbers are written back into the text as their digits, whatever
	// the type they are bound for: float64 would round big ones.
	o.UseNumber = true
	text, changes, err := coerceText(&o, data, t, false, nil)
	if err == nil {
		if err = decodeInto(rv, text); err == nil {
			if changes != nil {
				o.deliver(changes) // once the result is used
			}
			return nil
		}
		if sameBytes(text, data) {
			return err // encoding/json's error on the text as sent
		}
	} else if errors.Is(err, ErrLimit) {
		return err // a limit the caller set, not to be bypassed
	}
	// The conversion failed, or what it made does not decode where what
	// was sent may: json.Unmarshal's answer, then, if it has one.
	if decodeInto(rv, data) == nil {
		return nil
	}
	return err
}

// decodeInto decodes text into *rv with json.Unmarshal, writing nothing
// to *rv if that fails (see Unmarshal).
func decodeInto(rv reflect.Value, text []byte) error {
	if dst := rv.Elem(); dst.IsZero() {
		// The usual case, var in Input: the zero value shares nothing,
		// so text is decoded in place, and on error the zero value is
		// put back. This saves the copy's allocation.
		if godecode.Into(text, rv, godecode.Options{}) == godecode.Decoded {
			return nil
		}
		dst.SetZero()
		if err := json.Unmarshal(text, rv.Interface()); err != nil {
			dst.SetZero()
			return err
		}
		return nil
	}
	// A trial into a zero value first: decoding into a copy of *v would
	// write into what the copy shares with *v before any error.
	fresh := reflect.New(rv.Type().Elem())
	fast := godecode.Into(text, fresh, godecode.Options{}) == godecode.Decoded
	if !fast {
		fresh.Elem().SetZero()
		if err := json.Unmarshal(text, fresh.Interface()); err != nil {
			return err
		}
	}
	fresh.Elem().Set(rv.Elem())
	if fast && godecode.Into(text, fresh, godecode.Options{}) != godecode.Decoded {
		// Not expected (the trial decoded), but encoding/json decides;
		// decoding the same text again into what it wrote gives what
		// one decoding gives.
		fast = false
	}
	if !fast {
		if err := json.Unmarshal(text, fresh.Interface()); err != nil {
			return err
		}
	}
	rv.Elem().Set(fresh.Elem())
	return nil
}

// sameBytes reports whether a and b are the same slice of memory.
func sameBytes(a, b []byte) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}
