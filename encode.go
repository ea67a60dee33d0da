package coerce

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// appendJSON appends the compact JSON text of v to dst, as encoding/json
// would write it with HTML escaping off: map keys sorted, no trailing
// newline. NaN and ±Inf are an *Error with ErrKind; nesting deeper than
// maxDepth (which is how cycles end) is an *Error with ErrLimit. Path,
// Declared and Value are left empty.
//
// map[string]any, []any, string, bool, nil, the float, int and uint types,
// json.Number and json.RawMessage are written here, byte for byte as
// encoding/json writes them; any other value (structs, typed maps and
// slices, pointers, Marshalers) is handed to encoding/json for its subtree.
// An invalid json.Number or json.RawMessage is an *Error with ErrSyntax.
// maxDepth <= 0 means the default, 10000; the top-level array or object is
// at depth 1. On error dst is returned unchanged.
func appendJSON(dst []byte, v any, maxDepth int) ([]byte, error) {
	if maxDepth <= 0 {
		maxDepth = defaultMaxDepth
	}
	e := jsonEncoderPool.Get().(*jsonEncoder)
	e.maxDepth = maxDepth
	err := e.value(v, 0)
	if err == nil {
		dst = append(dst, e.buf...)
	}
	e.release()
	if err != nil {
		return dst, err
	}
	return dst, nil
}

// jsonEncoder writes one appendJSON value into buf; it is pooled so that
// the buffer and the key-sorting scratch are reused.
type jsonEncoder struct {
	buf      []byte
	pairs    []jsonPair // entries of the maps being written, innermost last
	maxDepth int
}

type jsonPair struct {
	k string
	v any
}

var jsonEncoderPool = sync.Pool{New: func() any { return new(jsonEncoder) }}

func (e *jsonEncoder) release() {
	clear(e.pairs)
	e.pairs = e.pairs[:0]
	e.buf = e.buf[:0]
	if cap(e.buf) > 1<<16 || cap(e.pairs) > 1<<12 {
		return
	}
	jsonEncoderPool.Put(e)
}

// value writes v, which is inside depth open arrays and objects.
func (e *jsonEncoder) value(v any, depth int) *Error {
	switch v := v.(type) {
	case nil:
		e.buf = append(e.buf, "null"...)
	case string:
		e.buf = appendJSONString(e.buf, v)
	case bool:
		e.buf = strconv.AppendBool(e.buf, v)
	case float64:
		return e.float(v, 64)
	case map[string]any:
		return e.object(v, depth)
	case []any:
		return e.array(v, depth)
	case json.Number:
		s := string(v)
		if s == "" {
			s = "0" // as encoding/json writes the zero Number
		}
		if end, _, err := scanJSONNumber(s, 0); err != nil || end != len(s) {
			return &Error{Err: ErrSyntax, Detail: "invalid number literal " + strconv.Quote(s)}
		}
		e.buf = append(e.buf, s...)
	case int:
		e.buf = strconv.AppendInt(e.buf, int64(v), 10)
	case int64:
		e.buf = strconv.AppendInt(e.buf, v, 10)
	case int32:
		e.buf = strconv.AppendInt(e.buf, int64(v), 10)
	case int16:
		e.buf = strconv.AppendInt(e.buf, int64(v), 10)
	case int8:
		e.buf = strconv.AppendInt(e.buf, int64(v), 10)
	case uint:
		e.buf = strconv.AppendUint(e.buf, uint64(v), 10)
	case uint64:
		e.buf = strconv.AppendUint(e.buf, v, 10)
	case uint32:
		e.buf = strconv.AppendUint(e.buf, uint64(v), 10)
	case uint16:
		e.buf = strconv.AppendUint(e.buf, uint64(v), 10)
	case uint8:
		e.buf = strconv.AppendUint(e.buf, uint64(v), 10)
	case uintptr:
		e.buf = strconv.AppendUint(e.buf, uint64(v), 10)
	case float32:
		return e.float(float64(v), 32)
	case json.RawMessage:
		return e.raw(v)
	default:
		return e.fallback(v)
	}
	return nil
}

func (e *jsonEncoder) float(f float64, bits int) *Error {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return &Error{Err: ErrKind, Detail: strconv.FormatFloat(f, 'g', -1, bits) + " is not a JSON number"}
	}
	e.buf = appendFloat(e.buf, f, bits)
	return nil
}

func errJSONDeep(maxDepth int) *Error {
	return &Error{Err: ErrLimit, Detail: "nesting deeper than " + strconv.Itoa(maxDepth) + " (a cycle?)"}
}

func (e *jsonEncoder) array(a []any, depth int) *Error {
	if a == nil {
		e.buf = append(e.buf, "null"...)
		return nil
	}
	if depth >= e.maxDepth {
		return errJSONDeep(e.maxDepth)
	}
	e.buf = append(e.buf, '[')
	for i, v := range a {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		if err := e.value(v, depth+1); err != nil {
			return err
		}
	}
	e.buf = append(e.buf, ']')
	return nil
}

func (e *jsonEncoder) object(m map[string]any, depth int) *Error {
	if m == nil {
		e.buf = append(e.buf, "null"...)
		return nil
	}
	if depth >= e.maxDepth {
		return errJSONDeep(e.maxDepth)
	}
	switch len(m) {
	case 0:
		e.buf = append(e.buf, "{}"...)
		return nil
	case 1:
		for k, v := range m {
			e.buf = appendJSONString(append(e.buf, '{'), k)
			e.buf = append(e.buf, ':')
			if err := e.value(v, depth+1); err != nil {
				return err
			}
		}
		e.buf = append(e.buf, '}')
		return nil
	}
	if len(m) <= len(jsonSmallObject{}) {
		return e.smallObject(m, depth)
	}
	// Sort the entries on a shared stack; nested objects push theirs above.
	base := len(e.pairs)
	for k, v := range m {
		e.pairs = append(e.pairs, jsonPair{k, v})
	}
	err := e.entries(e.pairs[base:], depth)
	clear(e.pairs[base:])
	e.pairs = e.pairs[:base]
	return err
}

type jsonSmallObject [16]jsonPair

// smallObject sorts the entries of a small map in an array on the Go stack,
// which, unlike a heap buffer, costs no GC write barriers.
func (e *jsonEncoder) smallObject(m map[string]any, depth int) *Error {
	var buf jsonSmallObject
	p := buf[:0]
	for k, v := range m {
		p = append(p, jsonPair{k, v})
	}
	return e.entries(p, depth)
}

// entries sorts p and writes it as an object.
func (e *jsonEncoder) entries(p []jsonPair, depth int) *Error {
	sortJSONPairs(p)
	e.buf = append(e.buf, '{')
	for i := range p {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		e.buf = appendJSONString(e.buf, p[i].k)
		e.buf = append(e.buf, ':')
		if err := e.value(p[i].v, depth+1); err != nil {
			return err
		}
	}
	e.buf = append(e.buf, '}')
	return nil
}

// sortJSONPairs sorts by key, byte-wise, as encoding/json sorts map keys.
// Keys are distinct.
func sortJSONPairs(p []jsonPair) {
	if len(p) > 12 {
		slices.SortFunc(p, func(a, b jsonPair) int { return strings.Compare(a.k, b.k) })
		return
	}
	for i := 1; i < len(p); i++ {
		for j := i; j > 0 && p[j].k < p[j-1].k; j-- {
			p[j], p[j-1] = p[j-1], p[j]
		}
	}
}

// raw writes a json.RawMessage compacted, as encoding/json does (which
// validates its syntax but not its UTF-8).
func (e *jsonEncoder) raw(m json.RawMessage) *Error {
	if m == nil {
		e.buf = append(e.buf, "null"...)
		return nil
	}
	b := bytes.NewBuffer(e.buf)
	if err := json.Compact(b, m); err != nil {
		return &Error{Err: ErrSyntax, Detail: "invalid json.RawMessage: " + strings.TrimPrefix(err.Error(), "json: ")}
	}
	e.buf = b.Bytes()
	return nil
}

// jsonAppender lets a json.Encoder write into an encoder's buffer.
type jsonAppender struct{ e *jsonEncoder }

func (w jsonAppender) Write(p []byte) (int, error) {
	w.e.buf = append(w.e.buf, p...)
	return len(p), nil
}

// fallback writes v with encoding/json, which handles every other type.
func (e *jsonEncoder) fallback(v any) *Error {
	n := len(e.buf)
	enc := json.NewEncoder(jsonAppender{e})
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		e.buf = e.buf[:n]
		detail := strings.TrimPrefix(err.Error(), "json: ")
		var unsupported *json.UnsupportedValueError
		var syntax *json.SyntaxError
		switch {
		case errors.As(err, &unsupported) && strings.HasPrefix(unsupported.Str, "encountered a cycle"):
			return &Error{Err: ErrLimit, Detail: detail}
		case errors.As(err, &syntax) || strings.HasPrefix(detail, "invalid number literal"):
			return &Error{Err: ErrSyntax, Detail: detail}
		}
		return &Error{Err: ErrKind, Detail: detail}
	}
	if len(e.buf) > n && e.buf[len(e.buf)-1] == '\n' {
		e.buf = e.buf[:len(e.buf)-1]
	}
	return nil
}

const jsonHexDigits = "0123456789abcdef"

// appendJSONString appends s quoted exactly as encoding/json writes a string
// with HTML escaping off: short escapes for \b \f \n \r \t, \u00XX for other
// control characters, U+2028 and U+2029 escaped, invalid UTF-8 replaced by
// \ufffd.
func appendJSONString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; ; {
		i = jsonPlainRun(s, i) // as is, HTML escaping being off
		if i >= len(s) {
			break
		}
		c := s[i]
		if c < utf8.RuneSelf {
			dst = append(dst, s[start:i]...)
			switch c {
			case '\\', '"':
				dst = append(dst, '\\', c)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', jsonHexDigits[c>>4], jsonHexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i++
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', jsonHexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// appendFloat appends f as encoding/json writes a float64 (and as JavaScript
// prints a number): 5, 1.5, 1e+21, 1e-7. f must be finite.
func appendFloat(dst []byte, f float64, bits int) []byte {
	// Fast path: below 1e15 (< 2^50) the shortest decimal of an integral
	// float64 is its integer digits. -0 takes the general path.
	if bits == 64 && f > -1e15 && f < 1e15 {
		if i := int64(f); float64(i) == f && i != 0 {
			return strconv.AppendInt(dst, i, 10)
		}
	}
	abs := math.Abs(f)
	fmt := byte('f')
	if abs != 0 {
		if bits == 64 && (abs < 1e-6 || abs >= 1e21) || bits == 32 && (float32(abs) < 1e-6 || float32(abs) >= 1e21) {
			fmt = 'e'
		}
	}
	dst = strconv.AppendFloat(dst, f, fmt, -1, bits)
	if fmt == 'e' {
		n := len(dst)
		if n >= 4 && dst[n-4] == 'e' && dst[n-3] == '-' && dst[n-2] == '0' {
			dst[n-2] = dst[n-1]
			dst = dst[:n-1]
		}
	}
	return dst
}
