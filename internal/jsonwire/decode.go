package jsonwire

import (
	"bytes"
	"encoding/json"
	"strings"
	"sync"
	"unicode/utf16"
	"unicode/utf8"
)

// Decode parses data as exactly one JSON value, surrounded by nothing but
// JSON whitespace, into nil, bool, string, float64, json.Number, []any and
// map[string]any. Numbers are float64, unless that would change the digits
// written: then json.Number, with them (an integer float64 holds inexactly
// or writes back otherwise, as 2^64, or a fraction it makes whole, as
// 1.00000000000000000001). useNumber makes every number a
// json.Number with its text as written. Nesting deeper than maxDepth
// (<= 0 means DefaultMaxDepth), invalid UTF-8, raw control characters,
// escaped lone surrogates, trailing data and numbers beyond float64's
// range are errors.
//
// The top-level array or object is at depth 1, so, as with encoding/json,
// 10000 nested arrays are accepted and 10001 are not. Duplicate keys: the
// last one wins.
//
// Results equal encoding/json's Unmarshal into an any for every input both
// accept, except that numbers float64 would change stay json.Number. A
// number with a fraction or an exponent beyond float64's range (1e400,
// 1e-400) is an error even with useNumber.
//
// Memory: strings without escapes are substrings of a string input; a
// []byte input is copied once into a string (so the caller may reuse its
// bytes) and they are substrings of that copy. Strings with escapes are
// decoded into a shared arena. Either way, a retained string keeps its
// whole backing block alive. So does a retained array: the elements of
// arrays of up to slabMax/4 elements are cut from shared slabs of up to
// slabMax (see decoder.array).
func Decode[T Text](data T, useNumber bool, maxDepth int) (any, *Error) {
	if maxDepth <= 0 {
		maxDepth = DefaultMaxDepth
	}
	d := decoderPool.Get().(*decoder)
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

// DecodeScalar is Decode for one scalar JSON value that is known to be
// valid (Skip accepted it): a string without escapes costs one allocation
// (the string), a number float64 holds as written none but its boxing.
func DecodeScalar(tok []byte, useNumber bool) any {
	switch tok[0] {
	case '"':
		return Unescape(tok[1 : len(tok)-1])
	case 't':
		return true
	case 'f':
		return false
	case 'n':
		return nil
	}
	if useNumber {
		return json.Number(tok)
	}
	if !bytes.ContainsAny(tok, ".eE") {
		return intValue(tok)
	}
	f, _ := Float(tok)
	return floatValue(tok, f)
}

// Unescape returns the content of a valid JSON string literal (what lies
// between its quotes, as Key reports it) with its escapes decoded: a key
// as a decoder reads it.
func Unescape[T Text](content T) string {
	i := 0
	for i < len(content) && content[i] != '\\' {
		i++
	}
	if i == len(content) {
		return string(content)
	}
	var b strings.Builder
	b.Grow(len(content))
	b.WriteString(string(content[:i]))
	unescapeTo(&b, string(content[i:]))
	return b.String()
}

// AppendUnescaped appends the content of a valid JSON string literal,
// with its escapes decoded, to dst. Runs between escapes are found by a
// loop of its own, not a call per run: JSON text encoded as a string has
// an escape every few bytes.
func AppendUnescaped(dst, content []byte) []byte {
	for i := 0; i < len(content); {
		j := i
		for j < len(content) && content[j] != '\\' {
			j++
		}
		dst = append(dst, content[i:j]...)
		if j >= len(content)-1 {
			return append(dst, content[j:]...) // the end, or a lone backslash there
		}
		c, r, n := escape(content, j)
		if r >= 0 {
			dst = utf8.AppendRune(dst, r)
		} else {
			dst = append(dst, c)
		}
		i = j + n
	}
	return dst
}

// unescapeTo writes the valid string content s, decoded, to b.
func unescapeTo(b *strings.Builder, s string) {
	for i := 0; i < len(s); {
		k := strings.IndexByte(s[i:], '\\')
		if k < 0 {
			b.WriteString(s[i:])
			return
		}
		b.WriteString(s[i : i+k])
		i += k
		if i+1 == len(s) { // not valid content: a lone backslash at the end
			b.WriteByte('\\')
			return
		}
		c, r, n := escape(s, i)
		if r >= 0 {
			b.WriteRune(r)
		} else {
			b.WriteByte(c)
		}
		i += n
	}
}

// escape decodes the escape at s[i], a backslash not at the end of valid
// string content: the rune it stands for (a \u escape, or a pair of them
// for a surrogate pair) or, where r < 0, the byte; and its length.
func escape[T Text](s T, i int) (c byte, r rune, n int) {
	switch c = s[i+1]; c {
	case 'u':
		r = hex4(s, i+2)
		if utf16.IsSurrogate(r) {
			return 0, utf16.DecodeRune(r, hex4(s, i+8)), 12
		}
		return 0, r, 6
	case 'b':
		c = '\b'
	case 'f':
		c = '\f'
	case 'n':
		c = '\n'
	case 'r':
		c = '\r'
	case 't':
		c = '\t'
	}
	return c, -1, 2 // and '"', '\\', '/' stand for themselves
}

// decoder builds the values of one Decode call. Containers are built
// bottom-up on the vals and keys stacks, so that each slice and map is
// allocated once with its final size.
type decoder struct {
	s         string
	useNumber bool
	vals      []any           // values of the open containers, innermost last
	keys      []string        // keys of the open objects, innermost last
	frames    []frame         // the open containers
	esc       strings.Builder // arena for strings with escapes
	slab      []any           // arena for the elements of arrays
	slabSize  int             // the size of the last slab
	escSize   int             // the size of the last arena

	valsHigh, keysHigh int // high-water marks of vals and keys

	strs               int              // string values read so far
	boxes              *[boxSlots]boxed // string values in interfaces, to share: see box
	boxHits, boxMisses int              // lookups in boxes that found the string, and not
	boxOff             bool             // box has stopped looking
}

// boxed is a string value in an interface, as box shares it.
type boxed struct {
	s string
	v any
}

type frame struct {
	vals, keys int // where this container's entries start in vals and keys
	obj        bool
}

var decoderPool = sync.Pool{New: func() any { return new(decoder) }}

// release returns d to the pool without anything it still points to.
func (d *decoder) release() {
	clear(d.vals[:max(d.valsHigh, len(d.vals))])
	clear(d.keys[:max(d.keysHigh, len(d.keys))])
	d.vals, d.keys, d.frames = d.vals[:0], d.keys[:0], d.frames[:0]
	d.valsHigh, d.keysHigh = 0, 0
	if d.strs > boxAfter && d.boxes != nil {
		clear(d.boxes[:])
	}
	d.strs, d.boxHits, d.boxMisses, d.boxOff = 0, 0, 0, false
	d.s = ""
	d.esc, d.escSize = strings.Builder{}, 0
	d.slab, d.slabSize = nil, 0
	// Let an unusually large document's scratch go; the frames of a
	// document nested as deep as DefaultMaxDepth are kept, or each such
	// document would grow them again, and deep ones cost more per level.
	if cap(d.vals) > 1<<14 || cap(d.keys) > 1<<14 || cap(d.frames) > 2*DefaultMaxDepth {
		return
	}
	decoderPool.Put(d)
}

func (d *decoder) parse(maxDepth int) (any, *Error) {
	s := d.s
	i := 0
	var v any
	var err *Error
	for {
		// A value starts at i.
		i = Space(s, i)
		if i >= len(s) {
			return nil, errEOF(len(s))
		}
		switch c := s[i]; c {
		case '"':
			var str string
			if str, i, err = d.str(i + 1); err != nil {
				return nil, err
			}
			v = d.box(str)
		case '{':
			if len(d.frames) >= maxDepth {
				return nil, errDepth(maxDepth, i)
			}
			i = Space(s, i+1)
			if i < len(s) && s[i] == '}' {
				v = map[string]any{}
				i++
				break
			}
			d.frames = append(d.frames, frame{vals: len(d.vals), keys: len(d.keys), obj: true})
			if i, err = d.key(i); err != nil {
				return nil, err
			}
			continue
		case '[':
			if len(d.frames) >= maxDepth {
				return nil, errDepth(maxDepth, i)
			}
			i = Space(s, i+1)
			if i < len(s) && s[i] == ']' {
				v = []any{}
				i++
				break
			}
			d.frames = append(d.frames, frame{vals: len(d.vals), keys: len(d.keys)})
			continue
		case 't':
			if strings.HasPrefix(s[i:], "true") {
				v, i = true, i+4
			} else {
				_, err = scanLiteral(s, i, "true")
				return nil, err
			}
		case 'f':
			if strings.HasPrefix(s[i:], "false") {
				v, i = false, i+5
			} else {
				_, err = scanLiteral(s, i, "false")
				return nil, err
			}
		case 'n':
			if strings.HasPrefix(s[i:], "null") {
				v, i = nil, i+4
			} else {
				_, err = scanLiteral(s, i, "null")
				return nil, err
			}
		default:
			if c != '-' && c-'0' > 9 {
				return nil, errChar(s, i, "looking for beginning of value")
			}
			if v, i, err = d.number(i); err != nil {
				return nil, err
			}
		}
		// A value v ended just before i: add it to its container and close
		// containers until one expects another element.
		for {
			if len(d.frames) == 0 {
				if err := End(s, i); err != nil {
					return nil, err
				}
				return v, nil
			}
			d.vals = append(d.vals, v)
			if i < len(s) && s[i] != ',' && s[i] != ']' && s[i] != '}' {
				i = Space(s, i)
			}
			if i >= len(s) {
				return nil, errEOF(len(s))
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
					return nil, errChar(s, i, "after object key:value pair")
				}
				v = d.object(f)
			} else {
				if c != ']' {
					return nil, errChar(s, i, "after array element")
				}
				v = d.array(f, i)
			}
			d.frames = d.frames[:len(d.frames)-1]
			i++
		}
	}
}

// array builds the array of the entries of frame f, whose closing bracket
// is at i, and pops them. A small array is cut from a slab that the
// arrays of the document share, as its strings with escapes share an
// arena: half the allocations of an array each, and, for the GC, arrays
// nested in one another are no longer a chain of as many objects to mark
// one after the other (deep values cost more per level to mark than
// shallow ones otherwise: BenchmarkDepth). Each slab of a document is
// twice as large as the one before, from 16 elements to slabMax, and
// never larger than the rest of the input can fill.
func (d *decoder) array(f frame, i int) []any {
	n := len(d.vals) - f.vals
	if len(d.slab) < n {
		if n > slabMax/4 {
			a := make([]any, n)
			copy(a, d.vals[f.vals:])
			d.pop(f)
			return a
		}
		// Bound the slab by the elements the rest of the input can hold
		// (a byte and a comma each).
		d.slabSize = min(max(2*d.slabSize, 16), slabMax)
		d.slab = make([]any, max(n, min(d.slabSize, n+(len(d.s)-i)/2)))
	}
	a := d.slab[:n:n]
	d.slab = d.slab[n:]
	copy(a, d.vals[f.vals:])
	d.pop(f)
	return a
}

// slabMax is the largest slab of array elements.
const slabMax = 512

// object builds the object of the entries of frame f and pops them. Later
// duplicate keys overwrite earlier ones.
func (d *decoder) object(f frame) map[string]any {
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
func (d *decoder) pop(f frame) {
	d.valsHigh = max(d.valsHigh, len(d.vals))
	d.keysHigh = max(d.keysHigh, len(d.keys))
	d.vals = d.vals[:f.vals]
	d.keys = d.keys[:f.keys]
}

// key reads an object key and its colon at i (before optional whitespace),
// pushes the key and returns the index just past the colon.
func (d *decoder) key(i int) (int, *Error) {
	s := d.s
	if i >= len(s) || s[i] != '"' {
		i = Space(s, i)
		if i >= len(s) {
			return 0, errEOF(len(s))
		}
		if s[i] != '"' {
			return 0, errChar(s, i, "looking for beginning of object key string")
		}
	}
	k, i, err := d.str(i + 1)
	if err != nil {
		return 0, err
	}
	d.keys = append(d.keys, k)
	return scanColon(s, i)
}

// str reads the string literal whose opening quote is at s[i-1].
func (d *decoder) str(i int) (string, int, *Error) {
	s := d.s
	j := plainRun(s, i)
	if j < len(s) && s[j] == '"' {
		return s[i:j], j + 1, nil
	}
	end, escaped, err := scanString(s, j)
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
// so the strings cut from it stay valid as it fills. Each arena of a
// document is twice as large as the one before, from 256 bytes to 4 KB,
// and never larger than the rest of the input: a document with a few
// escaped strings does not pay for 4 KB.
func (d *decoder) unescape(i, j int) string {
	if d.esc.Cap()-d.esc.Len() < j-i {
		d.escSize = min(max(2*d.escSize, 256), 4096)
		d.esc = strings.Builder{}
		d.esc.Grow(max(j-i, min(len(d.s)-i, d.escSize)))
	}
	start := d.esc.Len()
	unescapeTo(&d.esc, d.s[i:j])
	return d.esc.String()[start:]
}

// A string in an interface costs an allocation: box shares one among the
// equal short string values of a document (the enum values, tags and
// labels that records repeat: 110 of the 252 strings of the 10 KB document
// of BenchmarkParse), as smallInts shares numbers. Interface values are
// immutable, so sharing them is safe, and what is shared depends on
// nothing but the text. A document's first boxAfter strings are boxed
// each alone, so that small documents do not pay for the table, which is
// cleared at release only if it was used; a string longer than boxMax is
// rarely repeated. Looking a string up costs about what its allocation
// does (a unique string costs both), so a document whose strings are
// mostly unique (fewer than one in five found, after boxGiveUp misses)
// stops looking.
const (
	boxSlots  = 128
	boxAfter  = 8
	boxMax    = 32
	boxGiveUp = 64
)

// box returns s in an interface.
func (d *decoder) box(s string) any {
	d.strs++
	if d.strs <= boxAfter || d.boxOff || len(s) > boxMax || len(s) == 0 {
		return s
	}
	if d.boxes == nil {
		d.boxes = new([boxSlots]boxed)
	}
	h := uint(len(s))*0x9e37 ^ uint(s[0])<<4 ^ uint(s[len(s)-1])<<9 ^ uint(s[len(s)/2])<<1
	h ^= h >> 7
	b := &d.boxes[h%boxSlots]
	if b.s == s && b.v != nil {
		d.boxHits++
		return b.v
	}
	d.boxMisses++
	if d.boxMisses >= boxGiveUp && d.boxHits < d.boxMisses/4 {
		d.boxOff = true
	}
	b.s, b.v = s, s
	return b.v
}

// smallInts holds float64(i) already in an interface, so that the
// commonest numbers cost no allocation (interface values are immutable, so
// sharing them is safe).
var smallInts = func() (t [256]any) {
	for i := range t {
		t[i] = float64(i)
	}
	return t
}()

// number reads the number at s[i], by the decoder's rule (see intValue
// and floatValue).
func (d *decoder) number(i int) (any, int, *Error) {
	if !d.useNumber {
		if v, end, ok := d.smallInt(i); ok {
			return v, end, nil
		}
	}
	return d.anyNumber(i)
}

// numberTail[c] reports whether c may continue a number after its integer
// digits.
var numberTail = [256]bool{'0': true, '1': true, '2': true, '3': true, '4': true, '5': true, '6': true, '7': true, '8': true, '9': true, '.': true, 'e': true, 'E': true}

// smallInt reads the number at s[i] if it is an integer of up to 15
// digits, which a float64 holds exactly: in one look at its digits, where
// the general path (anyNumber) reads them twice, grammar then value. Most
// numbers in tool arguments are such; on 0-255 it takes half the time
// (BenchmarkDecodeNumber).
func (d *decoder) smallInt(i int) (any, int, bool) {
	s := d.s
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
	if nd := k - j; nd == 0 || nd > 15 || nd > 1 && s[j] == '0' || k < len(s) && numberTail[s[k]] {
		return nil, 0, false
	}
	if j == i && u < uint64(len(smallInts)) {
		return smallInts[u], k, true
	}
	f := float64(u)
	if j != i {
		f = -f
	}
	return f, k, true
}

// anyNumber reads the number at s[i].
func (d *decoder) anyNumber(i int) (any, int, *Error) {
	s := d.s
	end, isInt, err := scanNumber(s, i)
	if err != nil {
		return nil, 0, err
	}
	text := s[i:end]
	switch {
	case d.useNumber:
		return json.Number(text), end, nil
	case isInt:
		return intValue(text), end, nil
	}
	f, mag := Float(text)
	if mag > Finite {
		// No float64 holds it (1e400, 1e-400): it stays as written, as an
		// integer float64 cannot hold does. A number is never itself a
		// reason to fail; converting it to something that cannot hold it
		// is.
		return json.Number(text), end, nil
	}
	return floatValue(text, f), end, nil
}
