// Package godecode decodes JSON text into Go values as encoding/json's
// Unmarshal does, faster, or declines.
//
// It is the fast path of coerce.Unmarshal. Its one promise is this: when
// [Into] reports [Decoded], the value holds exactly what json.Unmarshal
// would have stored in a zero value of its type, and json.Unmarshal would
// have returned nil. In every other case (text json.Unmarshal rejects, a
// value of the wrong type, a Go type or a JSON construct this package does
// not decode itself, a stop the caller asked for) it reports something
// else, having written part of the value, and the caller zeroes the value
// and asks encoding/json, whose answer, error included, is then the
// answer. Errors are thus always encoding/json's own, and this package
// needs none of its error reporting: it only has to be right when it says
// yes.
//
// Where it is faster: the text is read once, by recursive descent, with no
// separate validation pass and no byte-at-a-time state machine; each Go
// type's decoder is compiled once (struct fields with their index paths,
// names matched against the next declared field first, element decoders)
// and cached; strings without escapes are copied from the text as they
// are.
//
// The types' own methods run as encoding/json runs them: UnmarshalJSON on
// the value's bytes, UnmarshalText on a string's contents, found by the
// same rules (a named type's pointer method set when the value is
// addressable, a pointer's own method set).
package godecode

import (
	"encoding"
	"encoding/base64"
	"encoding/json"
	"math"
	"reflect"
	"strconv"
	"sync"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/coerce-go/coerce/internal/jsonwire"
)

// Options are the stops a caller may ask for: the cases where a result
// encoding/json would accept is not the caller's answer.
type Options struct {
	// MaxDepth is the deepest nesting of arrays and objects decoded;
	// deeper text is declined. 0 means encoding/json's own limit.
	MaxDepth int
	// StopAtUnknownKey declines a member of the outermost object whose
	// key names no field of its struct.
	StopAtUnknownKey bool
}

// An Outcome is what Into did.
type Outcome uint8

const (
	// Decoded: the value holds what json.Unmarshal stores, and
	// json.Unmarshal succeeds.
	Decoded Outcome = iota
	// Declined: encoding/json must decide; the value may be partly
	// written.
	Declined
	// Stopped: one of Options' stops; the value may be partly written.
	Stopped
)

// maxNesting is encoding/json's limit on nesting.
const maxNesting = 10000

// Into decodes data into the value p points to, p a non-nil pointer, and
// reports the outcome. See the package doc.
func Into(data []byte, p reflect.Value, o Options) Outcome {
	// The decoder escapes (the decode functions are called through func
	// values), so it is pooled rather than allocated each call.
	d := pool.Get().(*decoder)
	*d = decoder{data: data, opts: o, maxDepth: maxNesting, scratch: d.scratch[:0]}
	if o.MaxDepth > 0 && o.MaxDepth < maxNesting {
		d.maxDepth = o.MaxDepth
	}
	out := d.into(p)
	if cap(d.scratch) > 64<<10 {
		d.scratch = nil // not kept: one long string should not stay pinned
	}
	d.data = nil
	pool.Put(d)
	return out
}

var pool = sync.Pool{New: func() any { return new(decoder) }}

func (d *decoder) into(p reflect.Value) Outcome {
	d.space()
	if d.i >= len(d.data) {
		return Declined
	}
	ok := topFor(p.Type()).fn(d, p)
	if ok {
		d.space()
		if d.i == len(d.data) {
			return Decoded
		}
	}
	if d.stopped {
		return Stopped
	}
	return Declined
}

// A decoder reads one JSON text. Each decode function is called with d.i
// at the first byte of a value (past any space) and leaves it just past
// that value; false means declined (d.stopped says whether by a stop).
type decoder struct {
	data     []byte
	i        int
	depth    int
	maxDepth int
	opts     Options
	stopped  bool
	scratch  []byte // unescaped string contents, reused
}

type decFunc func(d *decoder, v reflect.Value) bool

// A typeDec is the compiled decoder of one Go type; fn is set once the
// type is compiled, so that recursive types can refer to it before.
type typeDec struct{ fn decFunc }

type cacheKey struct {
	t    reflect.Type
	addr bool // whether the value is addressable and its type named: its pointer methods count
}

var (
	cache     sync.Map // cacheKey → *typeDec
	compiling sync.Mutex
	building  map[cacheKey]*typeDec // under compiling
)

var (
	unmarshalerType     = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
	numberType          = reflect.TypeFor[json.Number]()
)

// A topDec is Into's decoder for one pointer type: the pointer's own
// methods, as json.Unmarshal finds them, or its element's decoder.
type topDec struct {
	pt reflect.Type
	fn func(d *decoder, p reflect.Value) bool
}

var tops sync.Map // reflect.Type → *topDec

// topFor returns Into's decoder for pointer type pt, compiled once per
// type. After that it is a read: no call writes shared state, so calls on
// many goroutines do not contend.
func topFor(pt reflect.Type) *topDec {
	v, ok := tops.Load(pt)
	if !ok {
		td := &topDec{pt: pt}
		if m := methodsOf(pt); m != nil {
			td.fn = func(d *decoder, p reflect.Value) bool { return m(d, p, true) }
		} else {
			elem := decoderFor(pt.Elem(), false)
			td.fn = func(d *decoder, p reflect.Value) bool { return elem.fn(d, p.Elem()) }
		}
		v, _ = tops.LoadOrStore(pt, td)
	}
	return v.(*topDec)
}

// decoderFor returns the decoder of values of type t; addr says the value
// is addressable, as struct fields, elements and map values are, so that
// a named type's pointer methods apply (encoding/json's indirect).
func decoderFor(t reflect.Type, addr bool) *typeDec {
	key := keyOf(t, addr)
	if td, ok := cache.Load(key); ok {
		return td.(*typeDec)
	}
	compiling.Lock()
	defer compiling.Unlock()
	if td, ok := cache.Load(key); ok {
		return td.(*typeDec) // compiled while this call waited
	}
	building = map[cacheKey]*typeDec{}
	td := compile(key)
	for k, v := range building {
		cache.Store(k, v)
	}
	building = nil
	return td
}

func keyOf(t reflect.Type, addr bool) cacheKey {
	return cacheKey{t, addr && t.Name() != "" && t.Kind() != reflect.Pointer}
}

// elemDecoder is decoderFor while compiling, under compiling.
func elemDecoder(t reflect.Type, addr bool) *typeDec {
	key := keyOf(t, addr)
	if td, ok := cache.Load(key); ok {
		return td.(*typeDec)
	}
	return compile(key)
}

// compile builds the decoder of key's type, under compiling.
func compile(key cacheKey) *typeDec {
	if td, ok := building[key]; ok {
		return td
	}
	td := &typeDec{}
	building[key] = td
	t := key.t
	if key.addr {
		if m := methodsOf(reflect.PointerTo(t)); m != nil {
			td.fn = func(d *decoder, v reflect.Value) bool { return m(d, v.Addr(), false) }
			return td
		}
	}
	switch t.Kind() {
	case reflect.Bool:
		td.fn = decBool
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		td.fn = decInt
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		td.fn = decUint
	case reflect.Float32, reflect.Float64:
		td.fn = decFloat
	case reflect.String:
		if t == numberType {
			td.fn = decNumber
		} else {
			td.fn = decString
		}
	case reflect.Interface:
		if t.NumMethod() == 0 {
			td.fn = decAny
		} else {
			td.fn = decNullOnly
		}
	case reflect.Pointer:
		td.fn = pointerDec(t)
	case reflect.Slice:
		td.fn = sliceDec(t)
	case reflect.Array:
		td.fn = arrayDec(t)
	case reflect.Map:
		td.fn = mapDec(t)
	case reflect.Struct:
		td.fn = structDec(t)
	default:
		td.fn = decNullOnly
	}
	return td
}

// A methodDec decodes into what p points to with p's methods; top says p
// is the pointer given to Into, which json.Unmarshal hands null to
// UnmarshalJSON too.
type methodDec func(d *decoder, p reflect.Value, top bool) bool

// methodsOf returns the decoder by the methods of pointer type pt, or nil
// when it has neither UnmarshalJSON nor UnmarshalText.
func methodsOf(pt reflect.Type) methodDec {
	switch {
	case pt.NumMethod() == 0:
		return nil
	case pt.Implements(unmarshalerType):
		return func(d *decoder, p reflect.Value, _ bool) bool {
			start := d.i
			if !d.skip() {
				return false
			}
			return p.Interface().(json.Unmarshaler).UnmarshalJSON(d.data[start:d.i]) == nil
		}
	case pt.Implements(textUnmarshalerType):
		elem := pt.Elem()
		return func(d *decoder, p reflect.Value, _ bool) bool {
			switch d.peek() {
			case '"':
				s, ok := d.str()
				if !ok {
					return false
				}
				return p.Interface().(encoding.TextUnmarshaler).UnmarshalText(s) == nil
			case 'n':
				// null is not text: encoding/json stores it as into
				// the type without its methods.
				if !d.null() {
					return false
				}
				switch elem.Kind() {
				case reflect.Interface, reflect.Pointer, reflect.Map, reflect.Slice:
					p.Elem().SetZero()
				}
				return true
			}
			return false
		}
	}
	return nil
}

func (d *decoder) peek() byte {
	if d.i < len(d.data) {
		return d.data[d.i]
	}
	return 0
}

// space skips JSON whitespace: inlined where there is none, the usual
// case in text a program wrote.
func (d *decoder) space() {
	if d.i < len(d.data) && d.data[d.i] > ' ' {
		return
	}
	d.spaces()
}

func (d *decoder) spaces() {
	for d.i < len(d.data) {
		switch d.data[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

func (d *decoder) literal(lit string) bool {
	if len(d.data)-d.i >= len(lit) && string(d.data[d.i:d.i+len(lit)]) == lit {
		d.i += len(lit)
		return true
	}
	return false
}

func (d *decoder) null() bool { return d.literal("null") }

// enter counts one level of nesting, declining beyond the limit.
func (d *decoder) enter() bool {
	d.depth++
	return d.depth <= d.maxDepth
}

// open reads the bracket at d.i and the space after it, counting a level
// of nesting (declined beyond the limit); empty says the container closed
// at once, with closing, read too.
func (d *decoder) open(closing byte) (empty, ok bool) {
	d.i++
	if !d.enter() {
		return false, false
	}
	d.space()
	if d.peek() == closing {
		d.i++
		d.depth--
		return true, true
	}
	return false, true
}

// skip reads past one value of any kind, validating it.
func (d *decoder) skip() bool {
	switch c := d.peek(); c {
	case '"':
		_, ok := d.scanString()
		return ok
	case '{':
		if empty, ok := d.open('}'); !ok {
			return false
		} else if empty {
			return true
		}
		for {
			if d.peek() != '"' {
				return false
			}
			if _, ok := d.scanString(); !ok || !d.colon() || !d.skip() {
				return false
			}
			if more, ok := d.next('}'); !ok {
				return false
			} else if !more {
				return true
			}
		}
	case '[':
		if empty, ok := d.open(']'); !ok {
			return false
		} else if empty {
			return true
		}
		for {
			if !d.skip() {
				return false
			}
			if more, ok := d.next(']'); !ok {
				return false
			} else if !more {
				return true
			}
		}
	case 't':
		return d.literal("true")
	case 'f':
		return d.literal("false")
	case 'n':
		return d.null()
	default:
		_, ok := d.number()
		return ok
	}
}

// colon reads the colon after a key, with the space around it.
func (d *decoder) colon() bool {
	d.space()
	if d.peek() != ':' {
		return false
	}
	d.i++
	d.space()
	return true
}

// next reads what follows a member or element: a comma (more) or the
// closing byte (leaving the level), with the space around them.
func (d *decoder) next(closing byte) (more, ok bool) {
	d.space()
	switch d.peek() {
	case ',':
		d.i++
		d.space()
		return true, true
	case closing:
		d.i++
		d.depth--
		return false, true
	}
	return false, false
}

// number reads a number, returning its text (jsonwire's grammar, which
// is encoding/json's).
func (d *decoder) number() ([]byte, bool) {
	if d.i >= len(d.data) {
		return nil, false
	}
	end, _, err := jsonwire.SkipNumber(d.data, d.i)
	if err != nil {
		return nil, false
	}
	num := d.data[d.i:end]
	d.i = end
	return num, true
}

// numberOrNull reads a number, returning its text, or null, returning
// nil: what a number kind takes, null leaving it as it is.
func (d *decoder) numberOrNull() ([]byte, bool) {
	if d.peek() == 'n' {
		return nil, d.null()
	}
	return d.number()
}

// scanString reads past a string, validating it, and reports whether its
// contents need unquoting (escapes or invalid UTF-8).
func (d *decoder) scanString() (complex, ok bool) {
	data := d.data
	i := d.i + 1
	for {
		i = jsonwire.PlainRun(data, i)
		if i >= len(data) {
			return false, false
		}
		switch c := data[i]; {
		case c == '"':
			d.i = i + 1
			return complex, true
		case c == '\\':
			complex = true
			if i+1 >= len(data) {
				return false, false
			}
			switch data[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if hex4(data, i+2) < 0 {
					return false, false
				}
				i += 6
			default:
				return false, false
			}
		case c < 0x20:
			return false, false
		default:
			r, n := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && n == 1 {
				complex = true
			}
			i += n
		}
	}
}

// str reads a string and returns its contents, unquoted as encoding/json
// unquotes them: a slice of the text when nothing needs doing, else of
// d.scratch, valid until the next call.
func (d *decoder) str() ([]byte, bool) {
	start := d.i + 1
	complex, ok := d.scanString()
	if !ok {
		return nil, false
	}
	s := d.data[start : d.i-1]
	if !complex {
		return s, true
	}
	d.scratch = unquote(d.scratch[:0], s)
	return d.scratch, true
}

// unquote appends the contents s of a valid string, unescaped, to b, as
// encoding/json's unquoteBytes does: invalid UTF-8 and unpaired
// surrogates become U+FFFD.
func unquote(b, s []byte) []byte {
	for r := 0; r < len(s); {
		c := s[r]
		switch {
		case c == '\\':
			switch s[r+1] {
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			case 'u':
				rr := hex4(s, r+2)
				r += 6
				if utf16.IsSurrogate(rr) {
					if dec := utf16.DecodeRune(rr, hex4u(s, r)); dec != unicode.ReplacementChar {
						r += 6
						b = utf8.AppendRune(b, dec)
						continue
					}
					rr = unicode.ReplacementChar
				}
				b = utf8.AppendRune(b, rr)
				continue
			default: // '"', '\\', '/'
				b = append(b, s[r+1])
			}
			r += 2
		case c < utf8.RuneSelf:
			b = append(b, c)
			r++
		default:
			rr, n := utf8.DecodeRune(s[r:])
			r += n
			b = utf8.AppendRune(b, rr)
		}
	}
	return b
}

// hex4 returns the value of the four hex digits at s[i:], or -1.
func hex4(s []byte, i int) rune {
	if i+4 > len(s) {
		return -1
	}
	var r rune
	for _, c := range s[i : i+4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return -1
		}
		r = r*16 + rune(c)
	}
	return r
}

// hex4u returns the value of the \uXXXX escape at s[i:], or -1.
func hex4u(s []byte, i int) rune {
	if i+6 > len(s) || s[i] != '\\' || s[i+1] != 'u' {
		return -1
	}
	return hex4(s, i+2)
}

func decNullOnly(d *decoder, v reflect.Value) bool {
	if !d.null() {
		return false
	}
	switch v.Kind() {
	case reflect.Interface, reflect.Pointer, reflect.Map, reflect.Slice:
		v.SetZero()
	}
	return true
}

func decBool(d *decoder, v reflect.Value) bool {
	switch d.peek() {
	case 't':
		if d.literal("true") {
			v.SetBool(true)
			return true
		}
	case 'f':
		if d.literal("false") {
			v.SetBool(false)
			return true
		}
	case 'n':
		return d.null()
	}
	return false
}

func decInt(d *decoder, v reflect.Value) bool {
	num, ok := d.numberOrNull()
	if !ok || num == nil {
		return ok
	}
	n, ok := parseInt(num)
	if !ok {
		var err error
		if n, err = strconv.ParseInt(string(num), 10, 64); err != nil {
			return false
		}
	}
	if v.OverflowInt(n) {
		return false
	}
	v.SetInt(n)
	return true
}

// parseInt parses an integer of at most 19 digits without strconv (they
// cannot overflow a uint64); false for anything else, which strconv
// decides.
func parseInt(num []byte) (int64, bool) {
	neg := num[0] == '-'
	if neg {
		num = num[1:]
	}
	if len(num) == 0 || len(num) > 19 {
		return 0, false
	}
	var n uint64
	for _, c := range num {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + uint64(c-'0')
	}
	switch {
	case !neg && n <= math.MaxInt64:
		return int64(n), true
	case neg && n <= -math.MinInt64:
		return -int64(n), true
	}
	return 0, false
}

func decUint(d *decoder, v reflect.Value) bool {
	num, ok := d.numberOrNull()
	if !ok || num == nil {
		return ok
	}
	n, err := strconv.ParseUint(string(num), 10, 64)
	if err != nil || v.OverflowUint(n) {
		return false
	}
	v.SetUint(n)
	return true
}

func decFloat(d *decoder, v reflect.Value) bool {
	num, ok := d.numberOrNull()
	if !ok || num == nil {
		return ok
	}
	f, err := strconv.ParseFloat(string(num), v.Type().Bits())
	if err != nil || v.OverflowFloat(f) {
		return false
	}
	v.SetFloat(f)
	return true
}

func decString(d *decoder, v reflect.Value) bool {
	switch d.peek() {
	case '"':
		s, ok := d.str()
		if !ok {
			return false
		}
		v.SetString(string(s))
		return true
	case 'n':
		return d.null()
	}
	return false
}

// decNumber decodes a json.Number: a number's text, or a string that is
// one.
func decNumber(d *decoder, v reflect.Value) bool {
	switch d.peek() {
	case '"':
		s, ok := d.str()
		if !ok {
			return false
		}
		if !jsonwire.IsNumber(s) {
			return false
		}
		v.SetString(string(s))
		return true
	case 'n':
		return d.null()
	}
	num, ok := d.number()
	if !ok {
		return false
	}
	v.SetString(string(num))
	return true
}

// decAny decodes into an interface with no methods, as encoding/json
// does when it holds nothing to decode into: map[string]any, []any,
// float64, string, bool or nil.
func decAny(d *decoder, v reflect.Value) bool {
	if d.peek() == 'n' {
		if !d.null() {
			return false
		}
		v.SetZero()
		return true
	}
	if !v.IsNil() {
		// encoding/json decodes into a pointer it holds.
		return false
	}
	x, ok := d.anyValue()
	if !ok {
		return false
	}
	v.Set(reflect.ValueOf(x)) // x is not nil: null was handled above
	return true
}

func (d *decoder) anyValue() (any, bool) {
	switch c := d.peek(); c {
	case '"':
		s, ok := d.str()
		return string(s), ok
	case '{':
		m := map[string]any{}
		if empty, ok := d.open('}'); !ok {
			return nil, false
		} else if empty {
			return m, true
		}
		for {
			if d.peek() != '"' {
				return nil, false
			}
			k, ok := d.str()
			if !ok {
				return nil, false
			}
			key := string(k)
			if !d.colon() {
				return nil, false
			}
			x, ok := d.anyValue()
			if !ok {
				return nil, false
			}
			m[key] = x
			if more, ok := d.next('}'); !ok {
				return nil, false
			} else if !more {
				return m, true
			}
		}
	case '[':
		a := make([]any, 0)
		if empty, ok := d.open(']'); !ok {
			return nil, false
		} else if empty {
			return a, true
		}
		for {
			x, ok := d.anyValue()
			if !ok {
				return nil, false
			}
			a = append(a, x)
			if more, ok := d.next(']'); !ok {
				return nil, false
			} else if !more {
				return a, true
			}
		}
	case 't':
		return true, d.literal("true")
	case 'f':
		return false, d.literal("false")
	case 'n':
		return nil, d.null()
	}
	num, ok := d.number()
	if !ok {
		return nil, false
	}
	f, err := strconv.ParseFloat(string(num), 64)
	return f, err == nil
}

// pointerDec decodes into a pointer: null makes it nil; anything else
// goes where it points, allocated if nil, by the pointer's methods if it
// has them.
func pointerDec(t reflect.Type) decFunc {
	methods := methodsOf(t)
	elem := elemDecoder(t.Elem(), false)
	return func(d *decoder, v reflect.Value) bool {
		if d.peek() == 'n' {
			if !d.null() {
				return false
			}
			v.SetZero()
			return true
		}
		if v.IsNil() {
			v.Set(reflect.New(t.Elem()))
		}
		if methods != nil {
			return methods(d, v, false)
		}
		return elem.fn(d, v.Elem())
	}
}

// sliceDec decodes an array into a slice as encoding/json does: into the
// slice's own elements up to its length, then appending; null makes it
// nil; a string is base64 for a slice of bytes.
func sliceDec(t reflect.Type) decFunc {
	elem := elemDecoder(t.Elem(), true)
	bytes := t.Elem().Kind() == reflect.Uint8
	return func(d *decoder, v reflect.Value) bool {
		switch d.peek() {
		case '[':
		case 'n':
			if !d.null() {
				return false
			}
			v.SetZero()
			return true
		case '"':
			if !bytes {
				return false
			}
			s, ok := d.str()
			if !ok {
				return false
			}
			b := make([]byte, base64.StdEncoding.DecodedLen(len(s)))
			n, err := base64.StdEncoding.Decode(b, s)
			if err != nil {
				return false
			}
			v.SetBytes(b[:n])
			return true
		default:
			return false
		}
		empty, ok := d.open(']')
		if !ok {
			return false
		}
		i := 0
		if !empty {
			for {
				if i >= v.Cap() {
					v.Grow(1)
				}
				if i >= v.Len() {
					v.SetLen(i + 1)
				}
				if !elem.fn(d, v.Index(i)) {
					return false
				}
				i++
				if more, ok := d.next(']'); !ok {
					return false
				} else if !more {
					break
				}
			}
		}
		if i < v.Len() {
			v.SetLen(i)
		}
		if i == 0 {
			v.Set(reflect.MakeSlice(t, 0, 0))
		}
		return true
	}
}

// arrayDec decodes an array into a Go array: elements beyond its length
// are read and dropped, and those the text lacks are zeroed.
func arrayDec(t reflect.Type) decFunc {
	elem := elemDecoder(t.Elem(), true)
	return func(d *decoder, v reflect.Value) bool {
		switch d.peek() {
		case '[':
		case 'n':
			return d.null()
		default:
			return false
		}
		empty, ok := d.open(']')
		if !ok {
			return false
		}
		i := 0
		if !empty {
			for {
				var ok bool
				if i < v.Len() {
					ok = elem.fn(d, v.Index(i))
				} else {
					ok = d.skip()
				}
				if !ok {
					return false
				}
				i++
				if more, ok := d.next(']'); !ok {
					return false
				} else if !more {
					break
				}
			}
		}
		for ; i < v.Len(); i++ {
			v.Index(i).SetZero()
		}
		return true
	}
}

// mapDec decodes an object into a map with string or integer keys (text
// unmarshaler keys are declined), each value decoded into a zero value.
func mapDec(t reflect.Type) decFunc {
	kt := t.Key()
	if reflect.PointerTo(kt).Implements(textUnmarshalerType) {
		return declineMost
	}
	switch kt.Kind() {
	case reflect.String, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
	default:
		return declineMost
	}
	elem := elemDecoder(t.Elem(), true)
	return func(d *decoder, v reflect.Value) bool {
		switch d.peek() {
		case '{':
		case 'n':
			if !d.null() {
				return false
			}
			v.SetZero()
			return true
		default:
			return false
		}
		if v.IsNil() {
			v.Set(reflect.MakeMap(t))
		}
		if empty, ok := d.open('}'); !ok {
			return false
		} else if empty {
			return true
		}
		val := reflect.New(t.Elem()).Elem()
		for {
			if d.peek() != '"' {
				return false
			}
			k, ok := d.str()
			if !ok {
				return false
			}
			key := reflect.New(kt).Elem()
			switch kt.Kind() {
			case reflect.String:
				key.SetString(string(k))
			case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
				n, err := strconv.ParseInt(string(k), 10, 64)
				if err != nil || key.OverflowInt(n) {
					return false
				}
				key.SetInt(n)
			default:
				n, err := strconv.ParseUint(string(k), 10, 64)
				if err != nil || key.OverflowUint(n) {
					return false
				}
				key.SetUint(n)
			}
			if !d.colon() {
				return false
			}
			val.SetZero()
			if !elem.fn(d, val) {
				return false
			}
			v.SetMapIndex(key, val)
			if more, ok := d.next('}'); !ok {
				return false
			} else if !more {
				return true
			}
		}
	}
}

// declineMost decodes null as encoding/json does into a value of kind
// map (or slice, pointer, interface) and declines the rest.
var declineMost = decNullOnly
