package jsonwire

import (
	"encoding/binary"
	"math/bits"
	"strconv"
	"unicode/utf16"
)

// Text is JSON text held as a string or as bytes. Every function that
// reads text takes either, without converting it.
type Text interface{ ~string | ~[]byte }

// DefaultMaxDepth is the nesting limit that a maxDepth <= 0 stands for:
// encoding/json's.
const DefaultMaxDepth = 10000

// IsSpace reports whether c is one of the four bytes JSON counts as
// whitespace. Unicode spaces are not.
func IsSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// Space returns the index of the first byte at or after i that is not JSON
// whitespace, or len(data).
func Space[T Text](data T, i int) int {
	for i < len(data) {
		c := data[i]
		if c > ' ' || c != ' ' && c != '\n' && c != '\t' && c != '\r' {
			break
		}
		i++
	}
	return i
}

// End checks that nothing but whitespace follows a value that ends just
// before data[i]; the error is at the first byte that is not.
func End[T Text](data T, i int) *Error {
	if i = Space(data, i); i < len(data) {
		return errTrailing(i)
	}
	return nil
}

// Valid reports whether data is one JSON value, within maxDepth levels of
// nesting (DefaultMaxDepth for maxDepth <= 0), with whitespace around it:
// valid UTF-8, as every reader here asks.
func Valid[T Text](data T, maxDepth int) bool {
	end, err := Skip(data, 0, 0, maxDepth)
	return err == nil && End(data, end) == nil
}

// Skip validates the one JSON value that starts at data[i] (after optional
// whitespace), inside depth arrays and objects that are already open, and
// returns the index just past it, allocating nothing. Nesting deeper than
// maxDepth levels in all is an error; maxDepth <= 0 means
// DefaultMaxDepth. Whatever follows the value is not looked at. The rules
// and errors are those of Decode.
func Skip[T Text](data T, i, depth, maxDepth int) (int, *Error) {
	// A scalar is read here, with no call but the scanner's: the fitter
	// skips the scalars of the containers it walks itself one by one.
	i = Space(data, i)
	if i >= len(data) {
		return 0, errEOF(len(data))
	}
	switch c := data[i]; c {
	case '"':
		return SkipString(data, i)
	case '{', '[':
		if maxDepth <= 0 {
			maxDepth = DefaultMaxDepth
		}
		return skipNested(data, i, depth, maxDepth)
	case 't':
		return scanLiteral(data, i, "true")
	case 'f':
		return scanLiteral(data, i, "false")
	case 'n':
		return scanLiteral(data, i, "null")
	default:
		if c != '-' && c-'0' > 9 {
			return 0, errChar(data, i, "looking for beginning of value")
		}
		end, _, err := scanNumber(data, i)
		if err != nil {
			return 0, err
		}
		return end, nil
	}
}

// skipStackDepth is how many levels one skipNested call tracks in its own
// fixed-size bit stack; a value nested deeper is handed to a nested call,
// so the Go stack grows by one frame per skipStackDepth levels only.
const skipStackDepth = 1024

// skipNested is Skip for the array or object at data[i]. It reads the
// scalars inside it itself, as Skip does, rather than call Skip for each.
func skipNested[T Text](data T, i, outer, maxDepth int) (int, *Error) {
	var isObj [skipStackDepth / 64]uint64 // bit n: level n is an object
	n := 0                                // levels open in this call
	var err *Error
	for {
		// A value starts at i.
		i = Space(data, i)
		if i >= len(data) {
			return 0, errEOF(len(data))
		}
		switch c := data[i]; c {
		case '"':
			if j := plainRun(data, i+1); j < len(data) && data[j] == '"' {
				i = j + 1 // a plain string, as in Skip
			} else if i, _, err = scanString(data, j); err != nil {
				return 0, err
			}
		case '{', '[':
			if outer+n >= maxDepth {
				return 0, errDepth(maxDepth, i)
			}
			if n == skipStackDepth {
				if i, err = skipNested(data, i, outer+n, maxDepth); err != nil {
					return 0, err
				}
				break
			}
			i = Space(data, i+1)
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
			if i, err = skipKey(data, i); err != nil {
				return 0, err
			}
			continue
		case 't':
			if i, err = scanLiteral(data, i, "true"); err != nil {
				return 0, err
			}
		case 'f':
			if i, err = scanLiteral(data, i, "false"); err != nil {
				return 0, err
			}
		case 'n':
			if i, err = scanLiteral(data, i, "null"); err != nil {
				return 0, err
			}
		default:
			if c != '-' && c-'0' > 9 {
				return 0, errChar(data, i, "looking for beginning of value")
			}
			if i, _, err = scanNumber(data, i); err != nil {
				return 0, err
			}
		}
		// A value ended just before i: close containers until one expects
		// another element.
		for {
			if n == 0 {
				return i, nil
			}
			i = Space(data, i)
			if i >= len(data) {
				return 0, errEOF(len(data))
			}
			obj := isObj[(n-1)>>6]&(1<<((n-1)&63)) != 0
			c := data[i]
			if c == ',' {
				if obj {
					if i, err = skipKey(data, i+1); err != nil {
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
				return 0, errChar(data, i, "after object key:value pair")
			}
			return 0, errChar(data, i, "after array element")
		}
	}
}

// skipKey validates an object key and its colon, starting at i (before
// optional whitespace), and returns the index just past the colon.
func skipKey[T Text](data T, i int) (int, *Error) {
	i = Space(data, i)
	if i >= len(data) {
		return 0, errEOF(len(data))
	}
	if data[i] != '"' {
		return 0, errChar(data, i, "looking for beginning of object key string")
	}
	i, _, err := scanString(data, i+1)
	if err != nil {
		return 0, err
	}
	return scanColon(data, i)
}

// scanColon expects optional whitespace and a colon at i and returns the
// index just past the colon.
func scanColon[T Text](data T, i int) (int, *Error) {
	if i < len(data) && data[i] == ':' {
		return i + 1, nil
	}
	i = Space(data, i)
	if i >= len(data) {
		return 0, errEOF(len(data))
	}
	if data[i] != ':' {
		return 0, errChar(data, i, "after object key")
	}
	return i + 1, nil
}

// Members of an object or array, for a caller that walks JSON text itself
// (validating it as Skip does, or reading text already validated) and
// wants the structure's rules and errors from one place:
//
//	i, more, err := Open(data, i, depth, maxDepth)
//	for more {
//		keyStart, keyEnd, escaped, i, err = Key(data, i) // objects only
//		... the member's value, from i to end ...
//		i, more, err = Next(data, end, obj)
//	}
//	// i is just past the closing bracket or brace
//
// Each returns the index where it stopped reading; on error the index is 0.

// Open reads the '[' or '{' at data[i], inside depth arrays and objects
// that are already open, and the whitespace after it. For an empty array
// or object it returns the index just past its end and more = false;
// otherwise the index of its first member (of an object, its key) and
// more = true. Opening more than maxDepth levels in all is an error;
// maxDepth <= 0 means DefaultMaxDepth.
func Open[T Text](data T, i, depth, maxDepth int) (next int, more bool, err *Error) {
	if maxDepth <= 0 {
		maxDepth = DefaultMaxDepth
	}
	if depth >= maxDepth {
		return 0, false, errDepth(maxDepth, i)
	}
	closer := byte(']')
	if data[i] == '{' {
		closer = '}'
	}
	i = Space(data, i+1)
	if i < len(data) && data[i] == closer {
		return i + 1, false, nil
	}
	return i, true, nil
}

// Key reads an object key and its colon at data[i] (whitespace may
// precede both). The key's content is data[start:end], between its
// quotes; escaped says whether it has escapes (see Unescape). next is the
// index after the colon and the whitespace that follows it: where the
// member's value starts.
func Key[T Text](data T, i int) (start, end int, escaped bool, next int, err *Error) {
	if i >= len(data) || data[i] != '"' {
		i = Space(data, i)
		if i >= len(data) {
			return 0, 0, false, 0, errEOF(len(data))
		}
		if data[i] != '"' {
			return 0, 0, false, 0, errChar(data, i, "looking for beginning of object key string")
		}
	}
	start = i + 1
	// The usual key is plain ASCII: found by plainRun alone, without
	// scanString's loop around it.
	if end = plainRun(data, start); end >= len(data) || data[end] != '"' {
		if i, escaped, err = scanString(data, end); err != nil {
			return 0, 0, false, 0, err
		}
		end = i - 1
	}
	i = end + 1
	if i < len(data) && data[i] == ':' { // the usual case, without a call
		i++
	} else if i, err = scanColon(data, i); err != nil {
		return 0, 0, false, 0, err
	}
	return start, end, escaped, Space(data, i), nil
}

// ShortKey reads the object key at data[i] when it is the usual one: a
// quote, at most eight plain bytes (see plain), a quote and at once a
// colon. It returns the key as a word, its first byte lowest and zeros
// above its end (no plain byte is zero, so the word tells the key), its
// length, and the index where the member's value starts, after the colon
// and whitespace. ok is false for any other key, and where fewer than
// nine bytes are left: Key reads those, and reports their errors.
func ShortKey[T Text](data T, i int) (w uint64, n, next int, ok bool) {
	if i < 0 || i+9 > len(data) || data[i] != '"' {
		return 0, 0, 0, false
	}
	x := le64(data[i+1 : i+9])
	if m := specials(x); m != 0 {
		n = bits.TrailingZeros64(m) >> 3
		x &= 1<<(8*n) - 1
	} else {
		n = 8
	}
	if i+9+n > len(data) { // near the end: byte by byte
		if j := i + 1 + n; j+1 < len(data) && data[j] == '"' && data[j+1] == ':' {
			return x, n, Space(data, j+2), true
		}
		return 0, 0, 0, false
	}
	// The closing quote, the colon and what follows, in one word.
	switch y := le64(data[i+1+n : i+9+n]); {
	case y&0xffffff == '"'|':'<<8|' '<<16: // the usual single space
		if y>>24&0xff > ' ' {
			return x, n, i + 4 + n, true
		}
		return x, n, Space(data, i+4+n), true
	case y&0xffff == '"'|':'<<8:
		return x, n, Space(data, i+3+n), true
	}
	return 0, 0, 0, false
}

// ShortString returns the index just past the string at data[i] when it
// is the usual short one: a quote, at most seven plain bytes and a quote.
// ok is false for any other value, and where fewer than nine bytes are
// left: SkipString or Skip read those.
func ShortString(data []byte, i int) (end int, ok bool) {
	if i+9 <= len(data) && data[i] == '"' {
		if m := specials(binary.LittleEndian.Uint64(data[i+1:])); m != 0 {
			if j := i + 1 + bits.TrailingZeros64(m)>>3; data[j] == '"' {
				return j + 1, true
			}
		}
	}
	return 0, false
}

// ShortInt returns the index just past the number at data[i] when it is
// the usual small integer: one to seven digits, no leading zero, and no
// fraction or exponent after them. ok is false for any other value, and
// where fewer than eight bytes are left: SkipNumber or Skip read those.
func ShortInt(data []byte, i int) (end int, ok bool) {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	if i < 0 || i+8 > len(data) {
		return 0, false
	}
	x := binary.LittleEndian.Uint64(data[i:])
	m := ((x - '0'*ones) | (x + 0x46*ones)) & highs // see digitRun
	n := bits.TrailingZeros64(m) >> 3               // 8 if all are digits
	if n == 0 || n == 8 || n > 1 && data[i] == '0' {
		return 0, false
	}
	if c := data[i+n]; c == '.' || c|0x20 == 'e' {
		return 0, false
	}
	return i + n, true
}

// PlainInt returns the index just past the number at data[i] when it is
// an integer, of any length, with no fraction or exponent after it: where
// SkipNumber would return it with isInt true. ok is false for any other
// value, valid or not: SkipNumber reads those. It reads eight digits at a
// time, in one call.
func PlainInt(data []byte, i int) (end int, ok bool) {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	if i < 0 || i >= len(data) {
		return 0, false
	}
	if data[i] == '-' {
		if i++; i >= len(data) {
			return 0, false
		}
	}
	switch c := data[i]; {
	case c == '0':
		i++
	case c-'1' <= 8:
		for i++; i+8 <= len(data); i += 8 {
			x := binary.LittleEndian.Uint64(data[i:])
			if m := ((x - '0'*ones) | (x + 0x46*ones)) & highs; m != 0 { // see digitRun
				i += bits.TrailingZeros64(m) >> 3
				goto end
			}
		}
		for i < len(data) && data[i]-'0' <= 9 {
			i++
		}
	default:
		return 0, false
	}
end:
	if i < len(data) {
		if c := data[i]; c-'0' <= 9 || c == '.' || c|0x20 == 'e' {
			return 0, false // a leading zero, a fraction or an exponent
		}
	}
	return i, true
}

// SkipString validates the string at data[i], which is '"', and returns
// the index just past it: Skip for a string.
func SkipString[T Text](data T, i int) (int, *Error) {
	// The usual string is plain, and often short: found in its first
	// eight bytes, or by plainRun alone, without scanString's loop.
	if i >= 0 && i+9 <= len(data) {
		if m := specials(le64(data[i+1 : i+9])); m != 0 {
			if j := i + 1 + bits.TrailingZeros64(m)>>3; data[j] == '"' {
				return j + 1, nil
			}
		}
	}
	j := plainRun(data, i+1)
	if j < len(data) && data[j] == '"' {
		return j + 1, nil
	}
	end, _, err := scanString(data, j)
	return end, err
}

// SkipStringRest is SkipString for a caller that has read the string's
// opening quote and plain bytes (see plain) up to data[j]: it validates the
// rest from there and returns the index just past the closing quote, with
// the error SkipString would return.
func SkipStringRest(data []byte, j int) (int, *Error) {
	end, _, err := scanString(data, j)
	return end, err
}

// SkipNumber validates the number at data[i], which is '-' or a digit,
// and returns the index just past it, and whether it is a plain integer
// (no fraction, no exponent): Skip for a number.
func SkipNumber[T Text](data T, i int) (end int, isInt bool, err *Error) {
	return scanNumber(data, i)
}

// Next reads what follows a member that ends just before data[i] in an
// object (obj) or array: a comma, after which it returns the index of the
// next member (after whitespace) and more = true; or the closing brace or
// bracket, after which it returns the index just past it and more = false.
func Next[T Text](data T, i int, obj bool) (next int, more bool, err *Error) {
	i = Space(data, i)
	if i >= len(data) {
		return 0, false, errEOF(len(data))
	}
	switch c := data[i]; {
	case c == ',':
		return Space(data, i+1), true, nil
	case obj && c == '}', !obj && c == ']':
		return i + 1, false, nil
	case obj:
		return 0, false, errChar(data, i, "after object key:value pair")
	}
	return 0, false, errChar(data, i, "after array element")
}

// plain[c] reports whether byte c stands for itself inside a JSON string
// with nothing more to check: printable ASCII except '"' and '\\'.
var plain = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// plainRun returns the index of the first byte at or after i that is not
// plain string content (see plain), or len(data). It looks at eight bytes
// at a time (see specials), sixteen per round.
func plainRun[T Text](data T, i int) int {
	if i < 0 || i >= len(data) {
		return i
	}
	rest := data[i:]
	for len(rest) >= 16 {
		m0, m1 := specials(le64(rest)), specials(le64(rest[8:]))
		if m0|m1 != 0 {
			if m0 != 0 {
				return len(data) - len(rest) + bits.TrailingZeros64(m0)>>3
			}
			return len(data) - len(rest) + 8 + bits.TrailingZeros64(m1)>>3
		}
		rest = rest[16:]
	}
	if len(rest) >= 8 {
		if m := specials(le64(rest)); m != 0 {
			return len(data) - len(rest) + bits.TrailingZeros64(m)>>3
		}
		rest = rest[8:]
	}
	for len(rest) > 0 && plain[rest[0]] {
		rest = rest[1:]
	}
	return len(data) - len(rest)
}

// PlainRun is plainRun for a decoder of its own that reads strings: the
// index of the first byte at or after i that is not plain string content
// ('"', '\\', a control or a byte of non-ASCII), or len(data).
func PlainRun(data []byte, i int) int { return plainRun(data, i) }

// Specials is specials for a caller that reads the words of a string
// itself: the high bit of each lane of x (its first byte lowest) that is
// not plain string content (see plain); the lowest set lane is exact.
func Specials(x uint64) uint64 { return specials(x) }

// specials returns, for the eight bytes of x (the first in its low byte),
// the high bit of each lane that holds a byte that is not plain string
// content: < 0x20, '"', '\\' or >= 0x80. A borrow can only set lanes
// above a lane that is truly set, so the lowest set lane is exact.
func specials(x uint64) uint64 {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	return ((x - 0x20*ones) | ((x ^ '"'*ones) - ones) | ((x ^ '\\'*ones) - ones) | x) & highs
}

// le64 reads the first eight bytes of s as a little-endian word (the
// caller has checked that there are eight).
func le64[T Text](s T) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// scanString validates the string literal whose opening quote is at
// data[i-1] and returns the index just past its closing quote, and whether
// it has escapes. It rejects raw control characters, invalid UTF-8, bad
// escapes and escaped lone surrogates.
func scanString[T Text](data T, i int) (end int, escaped bool, err *Error) {
	for {
		// plainRun's loop, without a call per run between escapes.
		for i >= 0 && i+16 <= len(data) {
			w := data[i : i+16]
			m0, m1 := specials(le64(w)), specials(le64(w[8:]))
			if m0|m1 != 0 {
				if m0 != 0 {
					i += bits.TrailingZeros64(m0) >> 3
				} else {
					i += 8 + bits.TrailingZeros64(m1)>>3
				}
				goto special
			}
			i += 16
		}
		if i = plainRun(data, i); i >= len(data) {
			return 0, false, errEOF(len(data))
		}
	special:
		switch c := data[i]; {
		case c == '"':
			return i + 1, escaped, nil
		case c == '\\':
			escaped = true
			if i+1 < len(data) && shortEscape[data[i+1]] { // \n and the like, without a call
				i += 2
			} else if i, err = scanEscape(data, i); err != nil {
				return 0, false, err
			}
		case c < 0x20:
			return 0, false, errChar(data, i, "in string literal")
		default:
			n := utf8SeqLen(data, i)
			if n == 0 {
				return 0, false, errAt(Syntax, "invalid UTF-8", i)
			}
			i += n
		}
	}
}

// shortEscape[c] reports whether \c is a whole escape sequence.
var shortEscape = [256]bool{'"': true, '\\': true, '/': true, 'b': true, 'f': true, 'n': true, 'r': true, 't': true}

// scanEscape validates the escape sequence at data[i] == '\\' and returns
// the index just past it. A high surrogate must be followed at once by an
// escaped low surrogate; the pair counts as one sequence.
func scanEscape[T Text](data T, i int) (int, *Error) {
	if i+1 >= len(data) {
		return 0, errEOF(len(data))
	}
	switch data[i+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return i + 2, nil
	case 'u':
		r, err := scanHex4(data, i+2)
		if err != nil {
			return 0, err
		}
		if !utf16.IsSurrogate(r) {
			return i + 6, nil
		}
		if r < 0xdc00 && i+12 <= len(data) && data[i+6] == '\\' && data[i+7] == 'u' {
			if r2 := hex4(data, i+8); r2 >= 0xdc00 && r2 <= 0xdfff {
				return i + 12, nil
			}
		}
		return 0, errAt(Syntax, `lone surrogate \u`+strconv.FormatInt(int64(r), 16), i)
	}
	return 0, errChar(data, i+1, "in string escape code")
}

// scanHex4 reads the four hex digits of a \u escape at data[i:].
func scanHex4[T Text](data T, i int) (rune, *Error) {
	var r rune
	for k := i; k < i+4; k++ {
		if k >= len(data) {
			return 0, errEOF(len(data))
		}
		h := hexVal(data[k])
		if h < 0 {
			return 0, errChar(data, k, `in \u hexadecimal character escape`)
		}
		r = r<<4 | h
	}
	return r, nil
}

// hex4 reads four hex digits at data[i:], or returns -1.
func hex4[T Text](data T, i int) rune {
	if i < 0 || i+4 > len(data) {
		return -1
	}
	a, b, c, d := hexVal(data[i]), hexVal(data[i+1]), hexVal(data[i+2]), hexVal(data[i+3])
	if a|b|c|d < 0 {
		return -1
	}
	return a<<12 | b<<8 | c<<4 | d
}

func hexVal(c byte) rune {
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
func utf8SeqLen[T Text](data T, i int) int {
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

// scanLiteral validates the literal lit (true, false or null) at data[i].
func scanLiteral[T Text](data T, i int, lit string) (int, *Error) {
	for k := 1; k < len(lit); k++ {
		if i+k >= len(data) {
			return 0, errEOF(len(data))
		}
		if data[i+k] != lit[k] {
			return 0, errChar(data, i+k, "in literal "+lit+" (expecting "+quoteByte(lit[k])+")")
		}
	}
	return i + len(lit), nil
}

// AppendCompact appends the valid JSON text data to dst without its
// insignificant whitespace, as json.Compact does, allocating nothing
// beyond dst's growth.
func AppendCompact(dst, data []byte) []byte {
	start := 0
	for i := 0; i < len(data); {
		switch c := data[i]; {
		case c == '"':
			i, _, _ = scanString(data, i+1)
		case IsSpace(c):
			dst = append(dst, data[start:i]...)
			i = Space(data, i)
			start = i
		default:
			i++
		}
	}
	return append(dst, data[start:]...)
}
