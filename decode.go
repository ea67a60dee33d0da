package coerce

import (
	"bytes"
	"encoding/json"
	"math"
	"math/bits"
	"strconv"
	"strings"
	"sync"
	"unicode/utf16"
	"unicode/utf8"
)

// decodeJSON parses data as exactly one JSON value, surrounded by nothing but
// JSON whitespace, into nil, bool, string, float64, json.Number, []any and
// map[string]any. Numbers are float64 unless float64 cannot hold an integer
// exactly (then json.Number with the integer's text); useNumber makes every
// number a json.Number with its text as written. Nesting deeper than
// maxDepth, invalid UTF-8, raw control characters, escaped lone surrogates,
// trailing data and numbers beyond float64's range are errors. The error is
// always an *Error with Err set (ErrSyntax, ErrLimit or ErrPrecision),
// Detail saying what and Offset where; Path, Declared and Value are left
// empty.
//
// maxDepth <= 0 means the default, 10000. The top-level array or object is
// at depth 1, so, as with encoding/json, 10000 nested arrays are accepted
// and 10001 are not. Duplicate keys: the last one wins.
//
// Results equal encoding/json's Unmarshal into an any for every input both
// accept, except that integers float64 cannot hold exactly stay json.Number.
// A number with a fraction or an exponent beyond float64's finite range
// (1e400) is an error even with useNumber; 1e-400 is 0, as in strconv.
//
// Memory: strings without escapes are substrings of a string input; a
// []byte input is copied once into a string (so the caller may reuse its
// bytes) and they are substrings of that copy. Strings with escapes are
// decoded into a shared arena. Either way, a retained string keeps its
// whole backing block alive.
func decodeJSON[T ~string | ~[]byte](data T, useNumber bool, maxDepth int) (any, error) {
	if maxDepth <= 0 {
		maxDepth = defaultMaxDepth
	}
	d := jsonDecoderPool.Get().(*jsonDecoder)
	// For a string this is free; a []byte is copied once, and every string
	// without escapes then shares that one copy.
	d.s = string(data)
	d.useNumber = useNumber
	v, err := d.parse(maxDepth)
	d.release()
	if err != nil {
		return nil, err
	}
	return v, nil
}

// skipValue validates the one JSON value that starts at data[i] (after
// optional JSON whitespace) and returns the index just past it, with the same
// rules and errors as decodeJSON but allocating nothing. Whatever follows the
// value is not looked at. On error the index returned is 0.
func skipValue[T ~string | ~[]byte](data T, i int, maxDepth int) (int, error) {
	if maxDepth <= 0 {
		maxDepth = defaultMaxDepth
	}
	end, err := skipNested(data, i, 0, maxDepth)
	if err != nil {
		return 0, err
	}
	return end, nil
}

// skipStackDepth is how many levels one skipNested call tracks in its own
// fixed-size bit stack; a value nested deeper is handed to a nested call, so
// the Go stack grows by one frame per skipStackDepth levels only.
const skipStackDepth = 1024

// skipNested validates one value starting at data[i] (after whitespace),
// with outer containers already open around it.
func skipNested[T ~string | ~[]byte](data T, i, outer, maxDepth int) (int, *Error) {
	var isObj [skipStackDepth / 64]uint64 // bit n: level n is an object
	n := 0                                // levels open in this call
	var err *Error
	for {
		// A value starts at i.
		i = skipJSONSpace(data, i)
		if i >= len(data) {
			return 0, errJSONEOF(len(data))
		}
		switch c := data[i]; c {
		case '"':
			if i, _, err = scanJSONString(data, i+1); err != nil {
				return 0, err
			}
		case '{', '[':
			if outer+n >= maxDepth {
				return 0, errJSONDepth(maxDepth, i)
			}
			if n == skipStackDepth {
				if i, err = skipNested(data, i, outer+n, maxDepth); err != nil {
					return 0, err
				}
				break
			}
			i = skipJSONSpace(data, i+1)
			if c == '[' {
				if i < len(data) && data[i] == ']' {
					i++
					break
				}
				isObj[n>>6] &^= 1 << (n & 63)
				n++
				continue
			}
			if i < len(data) && data[i] == '}' {
				i++
				break
			}
			isObj[n>>6] |= 1 << (n & 63)
			n++
			if i, err = skipJSONKey(data, i); err != nil {
				return 0, err
			}
			continue
		case 't':
			if i, err = scanJSONLiteral(data, i, "true"); err != nil {
				return 0, err
			}
		case 'f':
			if i, err = scanJSONLiteral(data, i, "false"); err != nil {
				return 0, err
			}
		case 'n':
			if i, err = scanJSONLiteral(data, i, "null"); err != nil {
				return 0, err
			}
		default:
			if c != '-' && c-'0' > 9 {
				return 0, errJSONChar(data, i, "looking for beginning of value")
			}
			start := i
			var isInt bool
			if i, isInt, err = scanJSONNumber(data, i); err != nil {
				return 0, err
			}
			if !isInt && jsonMagnitude(data, start, i) > magFinite {
				return 0, errJSONRange(data, start, i)
			}
		}
		// A value ended just before i: close containers until one expects
		// another element.
		for {
			if n == 0 {
				return i, nil
			}
			i = skipJSONSpace(data, i)
			if i >= len(data) {
				return 0, errJSONEOF(len(data))
			}
			obj := isObj[(n-1)>>6]&(1<<((n-1)&63)) != 0
			c := data[i]
			if c == ',' {
				if obj {
					if i, err = skipJSONKey(data, i+1); err != nil {
						return 0, err
					}
				} else {
					i++
				}
				break
			}
			if obj && c == '}' || !obj && c == ']' {
				i++
				n--
				continue
			}
			if obj {
				return 0, errJSONChar(data, i, "after object key:value pair")
			}
			return 0, errJSONChar(data, i, "after array element")
		}
	}
}

// skipJSONKey validates an object key and its colon, starting at i (before
// optional whitespace), and returns the index just past the colon.
func skipJSONKey[T ~string | ~[]byte](data T, i int) (int, *Error) {
	i = skipJSONSpace(data, i)
	if i >= len(data) {
		return 0, errJSONEOF(len(data))
	}
	if data[i] != '"' {
		return 0, errJSONChar(data, i, "looking for beginning of object key string")
	}
	i, _, err := scanJSONString(data, i+1)
	if err != nil {
		return 0, err
	}
	return scanJSONColon(data, i)
}

// scanJSONColon expects optional whitespace and a colon at i and returns the
// index just past the colon.
func scanJSONColon[T ~string | ~[]byte](data T, i int) (int, *Error) {
	if i < len(data) && data[i] == ':' {
		return i + 1, nil
	}
	i = skipJSONSpace(data, i)
	if i >= len(data) {
		return 0, errJSONEOF(len(data))
	}
	if data[i] != ':' {
		return 0, errJSONChar(data, i, "after object key")
	}
	return i + 1, nil
}

// skipJSONSpace returns the index of the first byte at or after i that is
// not JSON whitespace.
func skipJSONSpace[T ~string | ~[]byte](data T, i int) int {
	for i < len(data) {
		c := data[i]
		if c > ' ' || c != ' ' && c != '\n' && c != '\t' && c != '\r' {
			break
		}
		i++
	}
	return i
}

// jsonPlain[c] reports whether byte c stands for itself inside a JSON string
// with nothing more to check: printable ASCII except '"' and '\\'.
var jsonPlain = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// jsonPlainRun returns the index of the first byte at or after i that is not
// plain string content (see jsonPlain), or len(data). It looks at eight
// bytes at a time: a byte < 0x20, '"', '\\' or >= 0x80 sets the high bit of
// its lane in m; a borrow can only set lanes above a lane that is truly set,
// so the lowest set lane is exact.
func jsonPlainRun[T ~string | ~[]byte](data T, i int) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	for ; i+8 <= len(data); i += 8 {
		_ = data[i+7]
		x := uint64(data[i]) | uint64(data[i+1])<<8 | uint64(data[i+2])<<16 | uint64(data[i+3])<<24 |
			uint64(data[i+4])<<32 | uint64(data[i+5])<<40 | uint64(data[i+6])<<48 | uint64(data[i+7])<<56
		m := ((x - 0x20*ones) | ((x ^ '"'*ones) - ones) | ((x ^ '\\'*ones) - ones) | x) & highs
		if m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
	}
	for i < len(data) && jsonPlain[data[i]] {
		i++
	}
	return i
}

// scanJSONString validates the string literal whose opening quote is at
// data[i-1] and returns the index just past its closing quote and whether it
// has escapes. It rejects raw control characters, invalid UTF-8, bad escapes
// and escaped lone surrogates.
func scanJSONString[T ~string | ~[]byte](data T, i int) (end int, escaped bool, err *Error) {
	for {
		i = jsonPlainRun(data, i)
		if i >= len(data) {
			return 0, false, errJSONEOF(len(data))
		}
		switch c := data[i]; {
		case c == '"':
			return i + 1, escaped, nil
		case c == '\\':
			escaped = true
			if i, err = scanJSONEscape(data, i); err != nil {
				return 0, false, err
			}
		case c < 0x20:
			return 0, false, errJSONChar(data, i, "in string literal")
		default:
			n := utf8SeqLen(data, i)
			if n == 0 {
				return 0, false, errJSONAt(ErrSyntax, "invalid UTF-8", i)
			}
			i += n
		}
	}
}

// scanJSONEscape validates the escape sequence at data[i] == '\\' and
// returns the index just past it. A high surrogate must be followed at once
// by an escaped low surrogate; the pair counts as one sequence.
func scanJSONEscape[T ~string | ~[]byte](data T, i int) (int, *Error) {
	if i+1 >= len(data) {
		return 0, errJSONEOF(len(data))
	}
	switch data[i+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return i + 2, nil
	case 'u':
		r, err := scanJSONHex4(data, i+2)
		if err != nil {
			return 0, err
		}
		if !utf16.IsSurrogate(r) {
			return i + 6, nil
		}
		if r < 0xdc00 && i+12 <= len(data) && data[i+6] == '\\' && data[i+7] == 'u' {
			if r2 := jsonHex4(data, i+8); r2 >= 0xdc00 && r2 <= 0xdfff {
				return i + 12, nil
			}
		}
		return 0, errJSONAt(ErrSyntax, `lone surrogate \u`+strconv.FormatInt(int64(r), 16), i)
	}
	return 0, errJSONChar(data, i+1, "in string escape code")
}

// scanJSONHex4 reads the four hex digits of a \u escape at data[i:].
func scanJSONHex4[T ~string | ~[]byte](data T, i int) (rune, *Error) {
	var r rune
	for k := i; k < i+4; k++ {
		if k >= len(data) {
			return 0, errJSONEOF(len(data))
		}
		h := jsonHexVal(data[k])
		if h < 0 {
			return 0, errJSONChar(data, k, `in \u hexadecimal character escape`)
		}
		r = r<<4 | h
	}
	return r, nil
}

// jsonHex4 reads four hex digits at data[i:], or returns -1.
func jsonHex4[T ~string | ~[]byte](data T, i int) rune {
	if i+4 > len(data) {
		return -1
	}
	a, b, c, d := jsonHexVal(data[i]), jsonHexVal(data[i+1]), jsonHexVal(data[i+2]), jsonHexVal(data[i+3])
	if a|b|c|d < 0 {
		return -1
	}
	return a<<12 | b<<8 | c<<4 | d
}

func jsonHexVal(c byte) rune {
	switch {
	case '0' <= c && c <= '9':
		return rune(c - '0')
	case 'a' <= c && c <= 'f':
		return rune(c - 'a' + 10)
	case 'A' <= c && c <= 'F':
		return rune(c - 'A' + 10)
	}
	return -1
}

// utf8SeqLen returns the length of the valid UTF-8 sequence at data[i]
// (a byte >= 0x80), or 0 if it is invalid or truncated.
func utf8SeqLen[T ~string | ~[]byte](data T, i int) int {
	c := data[i]
	n := len(data) - i
	switch {
	case c < 0xc2:
		return 0
	case c < 0xe0:
		if n < 2 || data[i+1]&0xc0 != 0x80 {
			return 0
		}
		return 2
	case c < 0xf0:
		if n < 3 {
			return 0
		}
		lo, hi := byte(0x80), byte(0xbf)
		if c == 0xe0 {
			lo = 0xa0
		} else if c == 0xed {
			hi = 0x9f // no surrogates
		}
		if c1 := data[i+1]; c1 < lo || c1 > hi || data[i+2]&0xc0 != 0x80 {
			return 0
		}
		return 3
	case c < 0xf5:
		if n < 4 {
			return 0
		}
		lo, hi := byte(0x80), byte(0xbf)
		if c == 0xf0 {
			lo = 0x90
		} else if c == 0xf4 {
			hi = 0x8f
		}
		if c1 := data[i+1]; c1 < lo || c1 > hi || data[i+2]&0xc0 != 0x80 || data[i+3]&0xc0 != 0x80 {
			return 0
		}
		return 4
	}
	return 0
}

// scanJSONLiteral validates the literal lit (true, false or null) at data[i].
func scanJSONLiteral[T ~string | ~[]byte](data T, i int, lit string) (int, *Error) {
	for k := 1; k < len(lit); k++ {
		if i+k >= len(data) {
			return 0, errJSONEOF(len(data))
		}
		if data[i+k] != lit[k] {
			return 0, errJSONChar(data, i+k, "in literal "+lit+" (expecting "+jsonQuoteByte(lit[k])+")")
		}
	}
	return i + len(lit), nil
}

// scanJSONNumber validates the number at data[i] ('-' or a digit) and returns
// the index just past it and whether it is a plain integer (no fraction, no
// exponent). Whatever follows the number is left to the caller.
func scanJSONNumber[T ~string | ~[]byte](data T, i int) (end int, isInt bool, err *Error) {
	if data[i] == '-' {
		i++
	}
	if i >= len(data) {
		return 0, false, errJSONEOF(len(data))
	}
	switch c := data[i]; {
	case c == '0':
		i++
		if i < len(data) && data[i]-'0' <= 9 {
			return 0, false, errJSONChar(data, i, "after leading zero in numeric literal")
		}
	case c-'1' <= 8:
		i++
		for i < len(data) && data[i]-'0' <= 9 {
			i++
		}
	default:
		return 0, false, errJSONChar(data, i, "in numeric literal")
	}
	isInt = true
	if i < len(data) && data[i] == '.' {
		isInt = false
		i++
		if i >= len(data) {
			return 0, false, errJSONEOF(len(data))
		}
		if data[i]-'0' > 9 {
			return 0, false, errJSONChar(data, i, "after decimal point in numeric literal")
		}
		for i < len(data) && data[i]-'0' <= 9 {
			i++
		}
	}
	if i < len(data) && data[i]|0x20 == 'e' {
		isInt = false
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		if i >= len(data) {
			return 0, false, errJSONEOF(len(data))
		}
		if data[i]-'0' > 9 {
			return 0, false, errJSONChar(data, i, "in exponent of numeric literal")
		}
		for i < len(data) && data[i]-'0' <= 9 {
			i++
		}
	}
	return i, isInt, nil
}

// jsonNumberParts are the parts of valid JSON number text: its sign, the
// spans of its integer and fraction digits, and its exponent.
type jsonNumberParts struct {
	neg                bool
	intStart, intEnd   int
	fracStart, fracEnd int   // empty without a fraction
	exp                int64 // clamped to about ±2^40, beyond which no digit count reaches
}

// maxJSONExp is where an exponent stops being read: no text is long
// enough for its digits to bring a number with a larger exponent back
// into float64's range, or to make it less than whole.
const maxJSONExp = 1 << 40

// splitJSONNumber splits the valid JSON number text data[start:end].
func splitJSONNumber[T ~string | ~[]byte](data T, start, end int) (p jsonNumberParts) {
	i := start
	if data[i] == '-' {
		p.neg = true
		i++
	}
	p.intStart = i
	for i < end && data[i]-'0' <= 9 {
		i++
	}
	p.intEnd = i
	p.fracStart, p.fracEnd = i, i
	if i < end && data[i] == '.' {
		i++
		p.fracStart = i
		for i < end && data[i]-'0' <= 9 {
			i++
		}
		p.fracEnd = i
	}
	if i < end { // exponent
		i++
		neg := false
		if data[i] == '+' || data[i] == '-' {
			neg = data[i] == '-'
			i++
		}
		for ; i < end; i++ {
			if p.exp < maxJSONExp {
				p.exp = p.exp*10 + int64(data[i]-'0')
			}
		}
		if neg {
			p.exp = -p.exp
		}
	}
	return p
}

// magnitude is where a number lies against float64's range.
type magnitude uint8

const (
	magZero      magnitude = iota // zero, however written (-0.0e5)
	magFinite                     // not zero, and a float64 holds it (perhaps rounded)
	magOverflow                   // float64 would round it to ±Inf
	magUnderflow                  // not zero, but float64 would round it to zero
)

// jsonMagnitude tells where the valid JSON number data[start:end] lies
// against float64's range: magOverflow and magUnderflow are what
// strconv.ParseFloat would turn into ±Inf or zero. It allocates nothing
// and takes time linear in the number's length whatever its exponent.
func jsonMagnitude[T ~string | ~[]byte](data T, start, end int) magnitude {
	p := splitJSONNumber(data, start, end)
	// The value is 0.d1d2d3... × 10^e10 with d1 the first nonzero digit.
	first := -1
	var e10 int64
	for k := p.intStart; k < p.intEnd; k++ {
		if data[k] != '0' {
			first = k
			e10 = int64(p.intEnd-k) + p.exp
			break
		}
	}
	if first < 0 {
		for k := p.fracStart; k < p.fracEnd; k++ {
			if data[k] != '0' {
				first = k
				e10 = p.exp - int64(k-p.fracStart)
				break
			}
		}
	}
	switch {
	case first < 0:
		return magZero
	case e10 > int64(len(jsonOverflowDigits)):
		return magOverflow
	case e10 == int64(len(jsonOverflowDigits)):
		// Ties round to even, and MaxFloat64 is odd: the threshold itself overflows.
		if compareDigits(data, first, p.fracEnd, jsonOverflowDigits) >= 0 {
			return magOverflow
		}
	case e10 < jsonUnderflowExp:
		return magUnderflow
	case e10 == jsonUnderflowExp:
		// Ties round to even, which is zero here: the threshold itself underflows.
		if compareDigits(data, first, p.fracEnd, jsonUnderflowDigits) <= 0 {
			return magUnderflow
		}
	}
	return magFinite
}

// jsonOverflowDigits are the digits of 2^1024 - 2^970, half an ulp above
// math.MaxFloat64: decimal values at or above it round to infinity.
const jsonOverflowDigits = "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497792"

// compareDigits compares the digits of data[first:end] (a point among them
// is skipped) with digits, as decimal fractions of the same magnitude: -1,
// 0 or 1 as the number is below, equal to or above them.
func compareDigits[T ~string | ~[]byte](data T, first, end int, digits string) int {
	t := 0
	for k := first; k < end; k++ {
		c := data[k]
		if c == '.' {
			continue
		}
		if t == len(digits) {
			if c != '0' {
				return 1
			}
			continue
		}
		if c != digits[t] {
			if c > digits[t] {
				return 1
			}
			return -1
		}
		t++
	}
	for ; t < len(digits); t++ {
		if digits[t] != '0' {
			return -1
		}
	}
	return 0
}

// jsonUnderflowDigits are the digits of 2^-1075, half the smallest
// subnormal float64: 0.2470328... × 10^jsonUnderflowExp. A nonzero number
// at or below it rounds to zero, which would lose it.
const (
	jsonUnderflowDigits = "24703282292062327208828439643411068618252990130716238221279284125033775363510437593264991818081799618989828234772285886546332835517796989819938739800539093906315035659515570226392290858392449105184435931802849936536152500319370457678249219365623669863658480757001585769269903706311928279558551332927834338409351978015531246597263579574622766465272827220056374006485499977096599470454020828166226237857393450736339007967761930577506740176324673600968951340535537458516661134223766678604162159680461914467291840300530057530849048765391711386591646239524912623653881879636239373280423891018672348497668235089863388587925628302755995657524455507255189313690836254779186948667994968324049705821028513185451396213837722826145437693412532098591327667236328125"
	jsonUnderflowExp    = -323
)

// Errors. Offsets are byte offsets into the whole input.

func errJSONAt(sentinel error, what string, off int) *Error {
	return &Error{Err: sentinel, Detail: what, Offset: off}
}

func errJSONEOF(n int) *Error {
	return errJSONAt(ErrSyntax, "unexpected end of JSON input", n)
}

func errJSONChar[T ~string | ~[]byte](data T, i int, context string) *Error {
	return errJSONAt(ErrSyntax, "invalid character "+jsonQuoteChar(data, i)+" "+context, i)
}

func errJSONDepth(maxDepth, i int) *Error {
	return errJSONAt(ErrLimit, "nesting deeper than "+strconv.Itoa(maxDepth), i)
}

func errJSONRange[T ~string | ~[]byte](data T, start, end int) *Error {
	const max = 40
	text := string(data[start:min(end, start+max)])
	if end-start > max {
		text += "..."
	}
	return errJSONAt(ErrPrecision, "number "+text+" out of float64 range", start)
}

// jsonQuoteChar formats the character at data[i] for an error message.
func jsonQuoteChar[T ~string | ~[]byte](data T, i int) string {
	if c := data[i]; c < utf8.RuneSelf {
		return jsonQuoteByte(c)
	}
	if n := utf8SeqLen(data, i); n > 0 {
		return strconv.QuoteRune([]rune(string(data[i : i+n]))[0])
	}
	return "'" + strconv.Quote(string(data[i : i+1]))[1:5] + "'" // '\xff'
}

func jsonQuoteByte(c byte) string {
	switch c {
	case '\'':
		return `'\''`
	case '"':
		return `'"'`
	}
	return strconv.QuoteRune(rune(c))
}

// jsonDecoder builds the values of one decodeJSON call. Containers are built
// bottom-up on the vals and keys stacks, so that each slice and map is
// allocated once with its final size.
type jsonDecoder struct {
	s         string
	useNumber bool
	vals      []any           // values of the open containers, innermost last
	keys      []string        // keys of the open objects, innermost last
	frames    []jsonFrame     // the open containers
	esc       strings.Builder // arena for strings with escapes

	valsHigh, keysHigh int // high-water marks of vals and keys
}

type jsonFrame struct {
	vals, keys int // where this container's entries start in vals and keys
	obj        bool
}

var jsonDecoderPool = sync.Pool{New: func() any { return new(jsonDecoder) }}

// release returns d to the pool without anything it still points to.
func (d *jsonDecoder) release() {
	clear(d.vals[:max(d.valsHigh, len(d.vals))])
	clear(d.keys[:max(d.keysHigh, len(d.keys))])
	d.vals, d.keys, d.frames = d.vals[:0], d.keys[:0], d.frames[:0]
	d.valsHigh, d.keysHigh = 0, 0
	d.s = ""
	d.esc = strings.Builder{}
	if cap(d.vals) > 1<<14 || cap(d.keys) > 1<<14 || cap(d.frames) > 1<<10 {
		return // let an unusually large document's scratch go
	}
	jsonDecoderPool.Put(d)
}

func (d *jsonDecoder) parse(maxDepth int) (any, *Error) {
	s := d.s
	i := 0
	var v any
	var err *Error
	for {
		// A value starts at i.
		i = skipJSONSpace(s, i)
		if i >= len(s) {
			return nil, errJSONEOF(len(s))
		}
		switch c := s[i]; c {
		case '"':
			var str string
			if str, i, err = d.str(i + 1); err != nil {
				return nil, err
			}
			v = str
		case '{':
			if len(d.frames) >= maxDepth {
				return nil, errJSONDepth(maxDepth, i)
			}
			i = skipJSONSpace(s, i+1)
			if i < len(s) && s[i] == '}' {
				v = map[string]any{}
				i++
				break
			}
			d.frames = append(d.frames, jsonFrame{vals: len(d.vals), keys: len(d.keys), obj: true})
			if i, err = d.key(i); err != nil {
				return nil, err
			}
			continue
		case '[':
			if len(d.frames) >= maxDepth {
				return nil, errJSONDepth(maxDepth, i)
			}
			i = skipJSONSpace(s, i+1)
			if i < len(s) && s[i] == ']' {
				v = []any{}
				i++
				break
			}
			d.frames = append(d.frames, jsonFrame{vals: len(d.vals), keys: len(d.keys)})
			continue
		case 't':
			if strings.HasPrefix(s[i:], "true") {
				v, i = true, i+4
			} else {
				_, err = scanJSONLiteral(s, i, "true")
				return nil, err
			}
		case 'f':
			if strings.HasPrefix(s[i:], "false") {
				v, i = false, i+5
			} else {
				_, err = scanJSONLiteral(s, i, "false")
				return nil, err
			}
		case 'n':
			if strings.HasPrefix(s[i:], "null") {
				v, i = nil, i+4
			} else {
				_, err = scanJSONLiteral(s, i, "null")
				return nil, err
			}
		default:
			if c != '-' && c-'0' > 9 {
				return nil, errJSONChar(s, i, "looking for beginning of value")
			}
			if v, i, err = d.number(i); err != nil {
				return nil, err
			}
		}
		// A value v ended just before i: add it to its container and close
		// containers until one expects another element.
		for {
			if len(d.frames) == 0 {
				if i = skipJSONSpace(s, i); i < len(s) {
					return nil, errJSONAt(ErrSyntax, "trailing data", i)
				}
				return v, nil
			}
			d.vals = append(d.vals, v)
			if i < len(s) && s[i] != ',' && s[i] != ']' && s[i] != '}' {
				i = skipJSONSpace(s, i)
			}
			if i >= len(s) {
				return nil, errJSONEOF(len(s))
			}
			f := d.frames[len(d.frames)-1]
			c := s[i]
			if c == ',' {
				if f.obj {
					if i, err = d.key(i + 1); err != nil {
						return nil, err
					}
				} else {
					i++
				}
				break
			}
			if f.obj {
				if c != '}' {
					return nil, errJSONChar(s, i, "after object key:value pair")
				}
				v = d.object(f)
			} else {
				if c != ']' {
					return nil, errJSONChar(s, i, "after array element")
				}
				v = d.array(f)
			}
			d.frames = d.frames[:len(d.frames)-1]
			i++
		}
	}
}

// array builds the array of the entries of frame f and pops them.
func (d *jsonDecoder) array(f jsonFrame) []any {
	a := make([]any, len(d.vals)-f.vals)
	copy(a, d.vals[f.vals:])
	d.pop(f)
	return a
}

// object builds the object of the entries of frame f and pops them. Later
// duplicate keys overwrite earlier ones.
func (d *jsonDecoder) object(f jsonFrame) map[string]any {
	vals := d.vals[f.vals:]
	keys := d.keys[f.keys:]
	keys = keys[:len(vals)]
	m := make(map[string]any, len(vals))
	for j, k := range keys {
		m[k] = vals[j]
	}
	d.pop(f)
	return m
}

// pop drops the entries of frame f. What they point to is cleared once, by
// release, up to the high-water mark: clearing pointers costs GC write
// barriers, so once is cheaper than at every container.
func (d *jsonDecoder) pop(f jsonFrame) {
	d.valsHigh = max(d.valsHigh, len(d.vals))
	d.keysHigh = max(d.keysHigh, len(d.keys))
	d.vals = d.vals[:f.vals]
	d.keys = d.keys[:f.keys]
}

// key reads an object key and its colon at i (before optional whitespace),
// pushes the key and returns the index just past the colon.
func (d *jsonDecoder) key(i int) (int, *Error) {
	s := d.s
	if i >= len(s) || s[i] != '"' {
		i = skipJSONSpace(s, i)
		if i >= len(s) {
			return 0, errJSONEOF(len(s))
		}
		if s[i] != '"' {
			return 0, errJSONChar(s, i, "looking for beginning of object key string")
		}
	}
	k, i, err := d.str(i + 1)
	if err != nil {
		return 0, err
	}
	d.keys = append(d.keys, k)
	return scanJSONColon(s, i)
}

// str reads the string literal whose opening quote is at s[i-1].
func (d *jsonDecoder) str(i int) (string, int, *Error) {
	s := d.s
	j := jsonPlainRun(s, i)
	if j < len(s) && s[j] == '"' {
		return s[i:j], j + 1, nil
	}
	end, escaped, err := scanJSONString(s, j)
	if err != nil {
		return "", 0, err
	}
	if !escaped {
		return s[i : end-1], end, nil
	}
	return d.unescape(i, end-1), end, nil
}

// unescape decodes the validated string content s[i:j], which has escapes,
// into the escape arena: strings.Builder never changes bytes once written,
// so the strings cut from it stay valid as it fills.
func (d *jsonDecoder) unescape(i, j int) string {
	s := d.s
	if d.esc.Cap()-d.esc.Len() < j-i {
		d.esc = strings.Builder{}
		d.esc.Grow(max(j-i, min(len(s)-i, 4096)))
	}
	start := d.esc.Len()
	for i < j {
		k := strings.IndexByte(s[i:j], '\\')
		if k < 0 {
			d.esc.WriteString(s[i:j])
			break
		}
		d.esc.WriteString(s[i : i+k])
		i += k
		switch c := s[i+1]; c {
		case 'u':
			r := jsonHex4(s, i+2)
			i += 6
			if utf16.IsSurrogate(r) {
				r = utf16.DecodeRune(r, jsonHex4(s, i+2))
				i += 6
			}
			d.esc.WriteRune(r)
			continue
		case 'b':
			d.esc.WriteByte('\b')
		case 'f':
			d.esc.WriteByte('\f')
		case 'n':
			d.esc.WriteByte('\n')
		case 'r':
			d.esc.WriteByte('\r')
		case 't':
			d.esc.WriteByte('\t')
		default: // '"', '\\', '/'
			d.esc.WriteByte(c)
		}
		i += 2
	}
	return d.esc.String()[start:]
}

// jsonNumberTail[c] reports whether c may continue a number after its
// integer digits.
var jsonNumberTail = [256]bool{'0': true, '1': true, '2': true, '3': true, '4': true, '5': true, '6': true, '7': true, '8': true, '9': true, '.': true, 'e': true, 'E': true}

// jsonSmallInts holds float64(i) already in an interface, so that the
// commonest numbers cost no allocation (interface values are immutable, so
// sharing them is safe).
var jsonSmallInts = func() (t [256]any) {
	for i := range t {
		t[i] = float64(i)
	}
	return t
}()

// number reads the number at s[i].
func (d *jsonDecoder) number(i int) (any, int, *Error) {
	s := d.s
	start := i
	if !d.useNumber {
		// Fast path: an integer of up to 15 digits is exact in a float64.
		j := i
		if s[j] == '-' {
			j++
		}
		k := j
		var u uint64
		for k < len(s) && k-j < 16 {
			c := s[k] - '0'
			if c > 9 {
				break
			}
			u = u*10 + uint64(c)
			k++
		}
		if nd := k - j; nd > 0 && nd <= 15 && (nd == 1 || s[j] != '0') && (k == len(s) || !jsonNumberTail[s[k]]) {
			if j == start && u < uint64(len(jsonSmallInts)) {
				return jsonSmallInts[u], k, nil
			}
			f := float64(u)
			if j != start {
				f = -f
			}
			return f, k, nil
		}
	}
	end, isInt, err := scanJSONNumber(s, i)
	if err != nil {
		return nil, 0, err
	}
	text := s[start:end]
	if !isInt && jsonMagnitude(s, start, end) > magFinite {
		return nil, 0, errJSONRange(s, start, end)
	}
	if d.useNumber {
		return json.Number(text), end, nil
	}
	return numberValue(text, isInt), end, nil
}

// numberValue is the value of valid JSON number text, within float64's
// range, by the decoder's rule: float64, as encoding/json reads it, unless
// that would lose the digits written. Then it is a json.Number holding
// them: an integer that float64 holds inexactly, or exactly but writes
// back otherwise (2^64 would come back as 18446744073709552000), and a
// fraction that float64 would make whole (1.00000000000000000001), which
// would otherwise pass for an integer.
func numberValue(text string, isInt bool) any {
	if isInt {
		if f, ok := jsonExactInt(text); ok {
			return f
		}
		return json.Number(text)
	}
	f, _ := jsonFloat(text)
	if f == math.Trunc(f) && !numberTextWhole(text) {
		return json.Number(text)
	}
	return f
}

// decodeScalar is decodeJSON for one valid scalar JSON value: a string
// without escapes costs one allocation, a number float64 holds as written
// none.
func decodeScalar(tok []byte, useNumber bool) any {
	switch tok[0] {
	case '"':
		if bytes.IndexByte(tok, '\\') < 0 {
			return string(tok[1 : len(tok)-1])
		}
	case 't':
		return true
	case 'f':
		return false
	case 'n':
		return nil
	default:
		if f, ok := jsonFastFloat(tok); ok && !useNumber && (f != math.Trunc(f) || numberTextWhole(tok)) {
			return f
		}
	}
	v, _ := decodeJSON(tok, useNumber, 1)
	return v
}

// jsonExactInt converts the valid integer literal text to a float64 if the
// float64 holds its value exactly and writes it back with the same digits.
func jsonExactInt(text string) (float64, bool) {
	digits := strings.TrimPrefix(text, "-")
	neg := len(digits) < len(text)
	switch {
	case len(digits) <= 19: // fits a uint64
		var u uint64
		for k := 0; k < len(digits); k++ {
			u = u*10 + uint64(digits[k]-'0')
		}
		f := float64(u)
		if neg {
			f = -f
		}
		if u <= 1<<53 { // every integer up to 2^53 is a float64, written with its digits
			return f, true
		}
		// Exact iff the odd part fits float64's 53-bit significand.
		if u>>bits.TrailingZeros64(u) >= 1<<53 {
			return 0, false
		}
		var buf [32]byte
		return f, string(strconv.AppendFloat(buf[:0], math.Abs(f), 'f', -1, 64)) == digits
	case len(digits) <= 21: // below 10^21, where float64 is written with an exponent
		f, err := strconv.ParseFloat(text, 64)
		if err != nil {
			return 0, false
		}
		var buf [32]byte
		if string(strconv.AppendFloat(buf[:0], math.Abs(f), 'f', 0, 64)) != digits || // inexact
			string(strconv.AppendFloat(buf[:0], math.Abs(f), 'f', -1, 64)) != digits { // written otherwise
			return 0, false
		}
		return f, true
	}
	return 0, false
}

// jsonDecimal returns the exact value of the valid JSON number text as its
// significant digits (no leading or trailing zeros; "" for zero) and the
// power of ten they are scaled by: 1.50e3 is ("15", 2), -0.05 is
// (neg, "5", -2). A scale beyond ±2^30 is clamped there: no float64
// reaches it. It allocates when the digits span the point.
func jsonDecimal(text string) (neg bool, digits string, scale int) {
	p := splitJSONNumber(text, 0, len(text))
	lead := strings.TrimLeft(text[p.intStart:p.intEnd], "0")
	frac := text[p.fracStart:p.fracEnd]
	sc := p.exp - int64(len(frac))
	if lead == "" {
		frac = strings.TrimLeft(frac, "0")
	}
	digits = lead + frac // at most one is non-empty unless the digits span the point
	trimmed := strings.TrimRight(digits, "0")
	sc += int64(len(digits) - len(trimmed))
	if trimmed == "" {
		return p.neg, "", 0
	}
	return p.neg, trimmed, int(max(min(sc, 1<<30), -1<<30))
}

// jsonFloat returns the float64 nearest to the valid JSON number text, as
// strconv.ParseFloat rounds it, and where the text lies against float64's
// range (see jsonMagnitude): beyond it, the float64 is ±Inf or zero.
func jsonFloat[T ~string | ~[]byte](text T) (float64, magnitude) {
	if f, ok := jsonFastFloat(text); ok {
		if f == 0 {
			return f, magZero
		}
		return f, magFinite
	}
	f, _ := strconv.ParseFloat(string(text), 64)
	return f, jsonMagnitude(text, 0, len(text))
}

var jsonPow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// jsonFastFloat converts the valid number text when its significand fits in
// 53 bits and its decimal exponent in ±22: then one correctly rounded
// multiplication or division gives the correctly rounded result, the same
// float64 strconv.ParseFloat returns (which takes this path too).
func jsonFastFloat[T ~string | ~[]byte](text T) (float64, bool) {
	i := 0
	neg := text[0] == '-'
	if neg {
		i++
	}
	var m uint64
	nd, frac := 0, 0
	dot := false
	for ; i < len(text); i++ {
		c := text[i]
		if c == '.' {
			dot = true
			continue
		}
		if c|0x20 == 'e' {
			break
		}
		if dot {
			frac++
		}
		if m == 0 && c == '0' {
			continue
		}
		if nd++; nd > 16 {
			return 0, false
		}
		m = m*10 + uint64(c-'0')
	}
	if m == 0 {
		if neg {
			return math.Copysign(0, -1), true
		}
		return 0, true
	}
	exp := 0
	if i < len(text) {
		i++
		eneg := text[i] == '-'
		if text[i] == '+' || eneg {
			i++
		}
		for ; i < len(text); i++ {
			if exp > 1000 {
				return 0, false
			}
			exp = exp*10 + int(text[i]-'0')
		}
		if eneg {
			exp = -exp
		}
	}
	exp -= frac
	if m > 1<<53 || exp < -22 || exp > 22 {
		return 0, false
	}
	f := float64(m)
	if exp >= 0 {
		f *= jsonPow10[exp]
	} else {
		f /= jsonPow10[-exp]
	}
	if neg {
		f = -f
	}
	return f, true
}
