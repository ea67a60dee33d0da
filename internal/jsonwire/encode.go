package jsonwire

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// Append appends the compact JSON text of v to dst, as encoding/json
// would write it with HTML escaping off: map keys sorted, no trailing
// newline. NaN and ±Inf are Unsupported; nesting deeper than maxDepth
// (<= 0 means DefaultMaxDepth; the top-level array or object is at depth
// 1) is a Depth error, which is how cycles end.
//
// map[string]any, []any, string, bool, nil, the float, int and uint types,
// json.Number and json.RawMessage are written here, byte for byte as
// encoding/json writes them; any other value (structs, typed maps and
// slices, pointers, Marshalers) is handed to encoding/json for its subtree,
// and its errors are classified by their types, not their text. An invalid
// json.Number or json.RawMessage is a Syntax error. On error dst is
// returned unchanged (though, as with append, bytes past its length, in
// its capacity, may have been written).
func Append(dst []byte, v any, maxDepth int) ([]byte, *Error) {
	e := newEncoder(v, maxDepth)
	e.dst = dst
	defer e.release()
	if err := e.encode(v); err != nil {
		return dst, err
	}
	if e.mode == direct {
		return e.buf, nil
	}
	dst = slices.Grow(dst, e.len())
	for _, c := range e.chunks {
		dst = append(dst, c.b...)
	}
	return append(dst, e.buf...), nil
}

// String is Append to a new string: the text is allocated once, at its
// size, however large, and little else is, even on a call that finds the
// pools empty (BenchmarkEncodeSize, pool=cold).
func String(v any, maxDepth int) (string, *Error) {
	return StringWithin(v, maxDepth, 0)
}

// StringWithin is String for a text of at most maxLen bytes (<= 0: no
// bound): a longer one is a TooLong error, found before it is written
// whole, and before it is measured whole. A Go value's text can be
// exponentially longer than its memory (maps and slices it holds more
// than once): the bound makes writing it cost at most about maxLen.
func StringWithin(v any, maxDepth, maxLen int) (string, *Error) {
	return encodeString(v, maxDepth, maxLen, false)
}

// Prefix is the beginning of the text of v: all of it where it is at
// most n bytes long, else its first n bytes at least (written up to a
// value's end, past n). It costs what writing that much does, however
// long the whole text is, and fails only where the value does before
// the text passes n bytes.
func Prefix(v any, maxDepth, n int) (string, *Error) {
	return encodeString(v, maxDepth, max(n, 1), true)
}

func encodeString(v any, maxDepth, maxLen int, prefix bool) (string, *Error) {
	e := newEncoder(v, maxDepth)
	e.toString = true
	if maxLen > 0 {
		e.maxLen, e.prefix = maxLen, prefix
		e.limit = min(e.limit, maxLen+1)
	}
	defer e.release()
	if err := e.encode(v); err != nil {
		return "", err
	}
	if e.maxLen > 0 && !e.prefix && (e.over || e.len()+e.out.Len() > e.maxLen) {
		// Past the bound between the last spill and the end: the closing
		// brackets, or a string at the top, which value has no frame to
		// stop in.
		return "", e.tooLong()
	}
	if e.mode == streaming {
		e.out.Write(e.buf)
		return e.out.String(), nil
	}
	var b strings.Builder
	b.Grow(e.len())
	for _, c := range e.chunks {
		b.Write(c.b)
	}
	b.Write(e.buf)
	return b.String(), nil
}

// encoder writes one value into buf, its own first buffer, which is
// pooled with it: most values end there, and the caller copies the text
// out at its size. A text longer than probeSize goes on in one of two
// ways:
//
//   - chunked: buf moves into chunks every chunkSize bytes, and the caller
//     copies them out once, at the text's size, so that the text is not
//     copied again each time a growing buffer doubles. The chunks come
//     from a pool and go back to it, so a call that finds them there
//     allocates the text and nothing else.
//   - sized, where the pool has no chunk to give (a first call, or one
//     after the GC emptied the pools): allocating chunks there would cost
//     as much again as the text, so instead the exact length of the text
//     is computed (size, a pass over the value that costs about half as
//     much as writing it), and the text is written where it ends:
//     String's strings.Builder, grown once to that length, into which buf
//     is flushed every probeSize bytes (streaming); or Append's dst, grown
//     once, that buf becomes (direct). Such a call allocates the text and
//     buf, a few KB, and nothing else but the frames and map entries of
//     value and size (32 bytes a level of nesting, 24 an entry of the
//     maps open), which a deep value needs as it needed goroutine stack.
//
// An encoder whose previous value was also longer than probeSize takes
// the chunks it does not find from the heap instead, and so fills the
// pool: values that long come in runs, as in a loop, and the pass
// that measures a value would slow each of them down.
//
// The length is not known in advance where the value holds a type
// encoding/json writes, or a json.RawMessage (compacted as written): then
// chunks are used whatever the pool holds.
type encoder struct {
	buf    []byte     // the buffer being written: first's, cur's, or (direct) dst
	first  chunk      // the encoder's own buffer, the only one most values need
	cur    *chunk     // the pooled chunk buf belongs to, once first is full
	chunks []*chunk   // the full buffers, in order, before buf
	pairs  []pair     // entries of the maps being written, innermost last
	frames []encFrame // the arrays and objects being written, innermost last

	pairsHigh, framesHigh int // high-water marks of pairs and frames

	maxDepth int
	badUTF8  bool // a string or key held invalid UTF-8: the value fails

	root     any             // the value written, which sized measures
	mode     encMode         // what spill does with buf
	limit    int             // the length of buf at which spill acts
	toString bool            // String: the text goes to out, not to dst
	maxLen   int             // StringWithin's bound, or Prefix's length; 0 for none
	prefix   bool            // Prefix: past maxLen, the text so far is the answer
	over     bool            // the text is past maxLen: value stops
	out      strings.Builder // streaming: the text, allocated at its size
	dst      []byte          // Append's dst, which direct mode grows
	lastLong bool            // the previous value was longer than probeSize
}

type encMode uint8

const (
	probing   encMode = iota // all of the text is in first
	chunked                  // the text is in chunks, then buf
	streaming                // the text is in out, then buf
	direct                   // the text is in buf, which is dst
)

// probeSize is the length past which the text of a value leaves the
// encoder's own buffer. That buffer is allocated at once a little past it
// (grown by appending, it would allocate four times as much on its way
// there).
const probeSize = 2 << 10

type chunk struct{ b []byte }

// chunkSize is what a buffer holds before the encoder moves on to the
// next: it spills between values once buf is past it.
const chunkSize = 32 << 10

type pair struct {
	k string
	v any
}

var (
	encoderPool = sync.Pool{New: func() any { return new(encoder) }}
	chunkPool   sync.Pool // of *chunk; empty, it gives nil: see encoder
)

func newChunk() *chunk { return &chunk{make([]byte, 0, chunkSize+chunkSize/8)} }

func newEncoder(v any, maxDepth int) *encoder {
	if maxDepth <= 0 {
		maxDepth = DefaultMaxDepth
	}
	e := encoderPool.Get().(*encoder)
	e.maxDepth = maxDepth
	if e.first.b == nil {
		e.first.b = make([]byte, 0, probeSize+probeSize/4)
	}
	e.buf = e.first.b[:0]
	e.badUTF8 = false
	e.root, e.mode, e.limit = v, probing, probeSize
	e.maxLen, e.prefix, e.over = 0, false, false
	return e
}

// encode writes v. A string or map key holding invalid UTF-8 fails the
// value, as it does in JSON text that is read (encoding/json would write
// U+FFFD in its place, which changes the data).
func (e *encoder) encode(v any) *Error {
	if err := e.value(v, 0); err != nil {
		return err
	}
	if e.badUTF8 {
		return &Error{Kind: Syntax, Msg: "invalid UTF-8 in a string"}
	}
	return nil
}

// size is the length of the text of v, inside depth open arrays and
// objects, as value writes it, computed without writing it; ok is false
// where it is not known in advance: for types encoding/json writes, for a
// json.RawMessage (compacted as written), and for values that fail (NaN,
// nesting deeper than maxDepth, which bounds the walk on a cycle). A
// float is formatted into a stack buffer, as value formats it: the length
// of its shortest digits has no cheaper exact answer. As value does, it
// loops over frames on e.frames (and the entries of maps on e.pairs),
// above those of the value being written, which a spill leaves open to
// measure it.
func (e *encoder) size(v any, depth int) (n int, ok bool) {
	base, pairsBase := len(e.frames), len(e.pairs)
	for {
		switch x := v.(type) {
		case nil:
			n += len("null")
		case string:
			n += stringSize(x)
		case bool:
			if x {
				n += len("true")
			} else {
				n += len("false")
			}
		case float64:
			m, ok := floatSize(x, 64)
			if !ok {
				return e.sizeFails(base, pairsBase)
			}
			n += m
		case map[string]any:
			if x == nil {
				n += len("null")
				break
			}
			if depth >= e.maxDepth {
				return e.sizeFails(base, pairsBase)
			}
			n += 2 + max(len(x)-1, 0) // braces and commas
			if len(x) == 0 {
				break
			}
			for k, v := range x {
				n += stringSize(k) + 1
				e.pairs = append(e.pairs, pair{v: v})
			}
			e.push(nil, len(x)-1)
			v, depth = e.popPair().v, depth+1
			continue
		case []any:
			if x == nil {
				n += len("null")
				break
			}
			if depth >= e.maxDepth {
				return e.sizeFails(base, pairsBase)
			}
			n += 2 + max(len(x)-1, 0) // brackets and commas
			if len(x) == 0 {
				break
			}
			e.push(x, 1)
			v, depth = x[0], depth+1
			continue
		default:
			m, ok := otherSize(x)
			if !ok {
				return e.sizeFails(base, pairsBase)
			}
			n += m
		}
		if e.maxLen > 0 && n > e.maxLen {
			// Past the bound: what matters is that it is, not by how much
			// (a value holding a map twice at each level would be measured
			// for ever). sized reads n.
			e.sizeFails(base, pairsBase)
			return n, true
		}
		for {
			if len(e.frames) == base {
				return n, true
			}
			f := &e.frames[len(e.frames)-1]
			if f.a != nil {
				if f.next < len(f.a) {
					v = f.a[f.next]
					f.next++
					break
				}
			} else if f.next > 0 {
				f.next--
				v = e.popPair().v
				break
			}
			e.frames = e.frames[:len(e.frames)-1]
			depth--
		}
	}
}

// sizeFails closes the frames and entries size opened above base and
// pairsBase, where the size is not known.
func (e *encoder) sizeFails(base, pairsBase int) (int, bool) {
	e.pairsHigh = max(e.pairsHigh, len(e.pairs))
	e.pairs = e.pairs[:pairsBase]
	e.frames = e.frames[:base]
	return 0, false
}

// otherSize is size for the types other writes.
func otherSize(v any) (int, bool) {
	var b [24]byte
	switch v := v.(type) {
	case json.Number:
		return max(len(v), 1), true // "" is written 0
	case int:
		return len(strconv.AppendInt(b[:0], int64(v), 10)), true
	case int64:
		return len(strconv.AppendInt(b[:0], v, 10)), true
	case int32:
		return len(strconv.AppendInt(b[:0], int64(v), 10)), true
	case int16:
		return len(strconv.AppendInt(b[:0], int64(v), 10)), true
	case int8:
		return len(strconv.AppendInt(b[:0], int64(v), 10)), true
	case uint:
		return len(strconv.AppendUint(b[:0], uint64(v), 10)), true
	case uint64:
		return len(strconv.AppendUint(b[:0], v, 10)), true
	case uint32:
		return len(strconv.AppendUint(b[:0], uint64(v), 10)), true
	case uint16:
		return len(strconv.AppendUint(b[:0], uint64(v), 10)), true
	case uint8:
		return len(strconv.AppendUint(b[:0], uint64(v), 10)), true
	case uintptr:
		return len(strconv.AppendUint(b[:0], uint64(v), 10)), true
	case float32:
		return floatSize(float64(v), 32)
	}
	return 0, false
}

// floatSize is the length of f as float writes it.
func floatSize(f float64, bits int) (int, bool) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, false
	}
	var b [32]byte
	return len(AppendFloat(b[:0], f, bits)), true
}

// stringSize is the length of s quoted, as appendString writes it.
func stringSize(s string) int {
	n := len(s) + 2
	for i := 0; ; {
		i = plainRun(s, i)
		if i >= len(s) {
			return n
		}
		c := s[i]
		if c < utf8.RuneSelf {
			switch c {
			case '\\', '"', '\b', '\f', '\n', '\r', '\t':
				n++ // \x for x
			default:
				n += 5 // \u00XX for x
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			n += 5 // \ufffd for one byte
		case r == '\u2028' || r == '\u2029':
			n += 3 // \u202X for three bytes
		}
		i += size
	}
}

// len is the length of the text written.
func (e *encoder) len() int {
	n := len(e.buf)
	for _, c := range e.chunks {
		n += len(c.b)
	}
	return n
}

// spill acts, between values, once buf is past limit: see encoder. It is
// called after every element of every array and object, so the test is
// kept small enough to inline. It reports false once the text is past
// maxLen (over), where value stops.
func (e *encoder) spill() bool {
	if len(e.buf) >= e.limit {
		return e.spillOver()
	}
	return true
}

func (e *encoder) spillOver() bool {
	if e.maxLen > 0 && (e.over || e.len() > e.maxLen) {
		e.over = true
		return false
	}
	switch e.mode {
	case probing:
		if c, _ := chunkPool.Get().(*chunk); c != nil {
			e.chunk(c)
		} else if e.lastLong {
			e.chunk(newChunk())
		} else {
			e.sized()
		}
	case chunked:
		c, _ := chunkPool.Get().(*chunk)
		if c == nil {
			c = newChunk()
		}
		e.chunk(c)
	case streaming:
		e.out.Write(e.buf)
		e.buf = e.buf[:0]
	}
	return !e.over
}

// chunk moves buf on to chunks and goes on in c.
func (e *encoder) chunk(c *chunk) {
	full := e.cur
	if full == nil {
		full = &e.first
	}
	full.b = e.buf
	e.chunks = append(e.chunks, full)
	e.cur = c
	e.buf = c.b[:0]
	e.mode, e.limit = chunked, chunkSize
}

// sized computes the length of the text and moves what buf holds to where
// the text ends, grown to that length; or, if the length is not known in
// advance, goes on in chunks.
func (e *encoder) sized() {
	n, ok := e.size(e.root, 0)
	switch {
	case e.maxLen > 0 && n > e.maxLen && !e.prefix:
		e.over = true // size stopped there
	case e.maxLen > 0 && n > e.maxLen:
		e.chunk(newChunk()) // Prefix: on to maxLen, which spillOver finds
	case !ok:
		e.chunk(newChunk())
	case e.toString:
		e.mode = streaming
		e.out.Grow(n)
		e.out.Write(e.buf)
		e.buf = e.buf[:0]
	default:
		e.mode, e.limit = direct, math.MaxInt
		e.first.b = e.buf
		e.buf = append(slices.Grow(e.dst, n), e.buf...)
	}
}

func (e *encoder) release() {
	clear(e.pairs[:max(e.pairsHigh, len(e.pairs))])
	clear(e.frames[:e.framesHigh])
	e.pairs, e.frames = e.pairs[:0], e.frames[:0]
	e.pairsHigh, e.framesHigh = 0, 0
	switch {
	case e.mode == direct:
		// buf is the caller's; first.b was kept when it took over.
	case e.cur != nil:
		e.cur.b = e.buf
		e.chunks = append(e.chunks, e.cur)
		e.cur = nil
	default:
		e.first.b = e.buf
	}
	for i, c := range e.chunks {
		c.b = c.b[:0]
		if c != &e.first && cap(c.b) <= 2*chunkSize {
			chunkPool.Put(c)
		}
		e.chunks[i] = nil
	}
	e.chunks = e.chunks[:0]
	e.lastLong = e.mode != probing
	e.buf, e.root, e.dst = nil, nil, nil
	e.out = strings.Builder{}
	e.toString = false
	e.maxLen, e.prefix, e.over = 0, false, false
	// Let an unusually large value's scratch go; the frames of a value
	// nested as deep as DefaultMaxDepth are kept, or each such value would
	// grow them again, and deep ones would cost more per level.
	if cap(e.first.b) > 2*chunkSize || cap(e.pairs) > 1<<12 || cap(e.chunks) > 1<<10 || cap(e.frames) > 4*DefaultMaxDepth {
		return
	}
	encoderPool.Put(e)
}

// value writes v, which is inside depth open arrays and objects. It
// loops rather than recursing, with a frame of its own for each open
// array and object on e.frames: a Go stack frame per level would make a
// deep value cost more per level than a shallow one (the stack grown by
// copying, scanned by the GC, and, thousands of levels deep, megabytes
// beyond the caches: BenchmarkDepth).
func (e *encoder) value(v any, depth int) *Error {
	base := len(e.frames)
	for {
		// Write v; an array or object with entries is opened, and v
		// becomes its first.
		switch x := v.(type) {
		case nil:
			e.buf = append(e.buf, "null"...)
		case string:
			e.string(x)
		case bool:
			e.buf = strconv.AppendBool(e.buf, x)
		case float64:
			if err := e.float(x, 64); err != nil {
				return e.unwind(base, err)
			}
		case map[string]any:
			if x == nil {
				e.buf = append(e.buf, "null"...)
				break
			}
			if depth >= e.maxDepth {
				return e.unwind(base, e.tooDeep())
			}
			if len(x) == 0 {
				e.buf = append(e.buf, "{}"...)
				break
			}
			// The entries on a shared stack, sorted last key first, to be
			// taken from its top; nested objects push theirs above.
			pb := len(e.pairs)
			for k, v := range x {
				e.pairs = append(e.pairs, pair{k, v})
			}
			sortPairsDown(e.pairs[pb:])
			e.push(nil, len(x)-1)
			p := e.popPair()
			e.buf = e.appendString(append(e.buf, '{'), p.k)
			e.buf = append(e.buf, ':')
			v, depth = p.v, depth+1
			continue
		case []any:
			if x == nil {
				e.buf = append(e.buf, "null"...)
				break
			}
			if depth >= e.maxDepth {
				return e.unwind(base, e.tooDeep())
			}
			if len(x) == 0 {
				e.buf = append(e.buf, "[]"...)
				break
			}
			e.push(x, 1)
			e.buf = append(e.buf, '[')
			v, depth = x[0], depth+1
			continue
		default:
			if err := e.other(x); err != nil {
				return e.unwind(base, err)
			}
		}
		// v is written: go on to the next entry of the innermost open
		// array or object, closing those that have none left.
		for {
			if len(e.frames) == base {
				return nil
			}
			if !e.spill() {
				return e.unwind(base, e.tooLong())
			}
			f := &e.frames[len(e.frames)-1]
			if f.a != nil {
				if f.next < len(f.a) {
					e.buf = append(e.buf, ',')
					v = f.a[f.next]
					f.next++
					break
				}
				e.buf = append(e.buf, ']')
			} else {
				if f.next > 0 {
					f.next--
					p := e.popPair()
					e.buf = e.appendString(append(e.buf, ','), p.k)
					e.buf = append(e.buf, ':')
					v = p.v
					break
				}
				e.buf = append(e.buf, '}')
			}
			e.frames = e.frames[:len(e.frames)-1]
			depth--
		}
	}
}

// encFrame is an array or object that value has opened: the array's
// elements, next being the index of the one to write next; or (a is nil)
// an object with next entries left to write, on top of e.pairs.
type encFrame struct {
	a    []any
	next int
}

// push opens a frame. Its fields are stored one by one: a frame stored
// whole is copied by typedmemmove, whose write barrier, while the GC
// marks, costs far more than that of its one pointer. The frames double
// as they grow (append grows large slices by a quarter, which allocates
// five times the final size on the way).
func (e *encoder) push(a []any, next int) {
	n := len(e.frames)
	if n == cap(e.frames) {
		e.frames = append(make([]encFrame, 0, max(2*n, 16)), e.frames...)
	}
	e.frames = e.frames[:n+1]
	f := &e.frames[n]
	f.a, f.next = a, next
	e.framesHigh = max(e.framesHigh, n+1)
}

// popPair takes the entry on top of e.pairs. What entries point to is
// cleared once, by release, up to the high-water mark: clearing pointers
// costs GC write barriers, so once is cheaper than at every entry.
func (e *encoder) popPair() pair {
	n := len(e.pairs) - 1
	e.pairsHigh = max(e.pairsHigh, n+1)
	p := e.pairs[n]
	e.pairs = e.pairs[:n]
	return p
}

// unwind closes the frames value opened above base, on error.
func (e *encoder) unwind(base int, err *Error) *Error {
	e.frames = e.frames[:base]
	return err
}

// other is value for the types encoding/json never decodes into. It is
// out of line so that value stays small.
//
//go:noinline
func (e *encoder) other(v any) *Error {
	switch v := v.(type) {
	case json.Number:
		s := string(v)
		if s == "" {
			s = "0" // as encoding/json writes the zero Number
		}
		if !IsNumber(s) {
			return &Error{Kind: Syntax, Msg: "invalid number literal " + strconv.Quote(s)}
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

func (e *encoder) float(f float64, bits int) *Error {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return &Error{Kind: Unsupported, Msg: strconv.FormatFloat(f, 'g', -1, bits) + " is not a JSON number"}
	}
	e.buf = AppendFloat(e.buf, f, bits)
	return nil
}

// tooLong is value's error once the text is past maxLen: none for
// Prefix, whose text so far is the answer.
func (e *encoder) tooLong() *Error {
	if e.prefix {
		return nil
	}
	return &Error{Kind: TooLong, Msg: "the text is longer than " + strconv.Itoa(e.maxLen) + " bytes"}
}

func (e *encoder) tooDeep() *Error {
	return &Error{Kind: Depth, Msg: "nesting deeper than " + strconv.Itoa(e.maxDepth) + " (a cycle?)"}
}

// sortPairsDown sorts by key, byte-wise, last key first: the reverse of
// the order in which encoding/json writes map keys. Keys are distinct.
func sortPairsDown(p []pair) {
	if len(p) > 12 {
		slices.SortFunc(p, func(a, b pair) int { return strings.Compare(b.k, a.k) })
		return
	}
	for i := 1; i < len(p); i++ {
		for j := i; j > 0 && p[j].k > p[j-1].k; j-- {
			p[j], p[j-1] = p[j-1], p[j]
		}
	}
}

// raw writes a json.RawMessage compacted, as encoding/json does (which
// validates its syntax but not its UTF-8).
func (e *encoder) raw(m json.RawMessage) *Error {
	if m == nil {
		e.buf = append(e.buf, "null"...)
		return nil
	}
	b := bytes.NewBuffer(e.buf)
	if err := json.Compact(b, m); err != nil {
		return &Error{Kind: Syntax, Msg: "invalid json.RawMessage: " + strings.TrimPrefix(err.Error(), "json: ")}
	}
	e.buf = b.Bytes()
	return nil
}

// appender lets a json.Encoder write into an encoder's buffer.
type appender struct{ e *encoder }

func (w appender) Write(p []byte) (int, error) {
	w.e.buf = append(w.e.buf, p...)
	return len(p), nil
}

// fallback writes v with encoding/json, which handles every other type.
func (e *encoder) fallback(v any) *Error {
	n := len(e.buf)
	enc := json.NewEncoder(appender{e})
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		e.buf = e.buf[:n]
		return &Error{Kind: stdErrorKind(err), Msg: strings.TrimPrefix(err.Error(), "json: ")}
	}
	if len(e.buf) > n && e.buf[len(e.buf)-1] == '\n' {
		e.buf = e.buf[:len(e.buf)-1]
	}
	return nil
}

// stdErrorKind classifies an error of encoding/json's encoder by its type.
func stdErrorKind(err error) ErrorKind {
	var syntax *json.SyntaxError
	var value *json.UnsupportedValueError
	var typ *json.UnsupportedTypeError
	var marshaler *json.MarshalerError
	switch {
	case errors.As(err, &syntax):
		// Text that is not JSON: a MarshalJSON result or a
		// json.RawMessage inside the value, reported inside a
		// MarshalerError or not.
		return Syntax
	case errors.As(err, &value):
		// A float that is NaN or ±Inf, or a map, slice or pointer met
		// again inside itself: a cycle, which ends in too deep a value
		// here, as it does in Append.
		if k := value.Value.Kind(); k == reflect.Float32 || k == reflect.Float64 {
			return Unsupported
		}
		return Depth
	case errors.As(err, &typ), errors.As(err, &marshaler):
		// A channel, function or complex number; an error of a
		// MarshalJSON or MarshalText method.
		return Unsupported
	}
	// encoding/json reports two errors without a type: an invalid
	// json.Number literal, and a map key whose MarshalText fails (whose
	// message quotes the method's error rather than wrapping it). No type
	// tells them apart, and their text is no API. Both are Syntax: the
	// name is exact for the first, the commoner, and the second is a key
	// that has no JSON text either.
	return Syntax
}

// string writes s quoted; a long one in pieces, spilling between them, so
// that one large string does not grow buf far past limit. Cut where a
// character starts, the pieces are escaped as the whole would be.
func (e *encoder) string(s string) {
	if len(s) <= e.limit {
		e.buf = e.appendString(e.buf, s)
		return
	}
	e.buf = append(e.buf, '"')
	for len(s) > 0 {
		// Back off to where a character starts; past utf8.UTFMax bytes
		// there is none to split (the bytes are not UTF-8, and each is
		// replaced alone wherever the cut falls).
		// (A limit Prefix lowered still leaves a piece room to find one.)
		n := min(len(s), max(e.limit, 2*utf8.UTFMax))
		for k := n; k > n-utf8.UTFMax && k < len(s); k-- {
			if utf8.RuneStart(s[k]) {
				n = k
				break
			}
		}
		var ok bool
		e.buf, ok = appendStringContent(e.buf, s[:n])
		e.badUTF8 = e.badUTF8 || !ok
		s = s[n:]
		if !e.spill() {
			return // value stops at the next spill
		}
	}
	e.buf = append(e.buf, '"')
}

const hexDigits = "0123456789abcdef"

// appendString appends s quoted exactly as encoding/json writes a string
// with HTML escaping off: short escapes for \b \f \n \r \t, \u00XX for other
// control characters, U+2028 and U+2029 escaped, invalid UTF-8 replaced by
// \ufffd and noted in e (the value then fails: see encode).
func (e *encoder) appendString(dst []byte, s string) []byte {
	dst, ok := appendStringContent(append(dst, '"'), s)
	e.badUTF8 = e.badUTF8 || !ok
	return append(dst, '"')
}

// appendStringContent is appendString without the quotes; ok is false if s
// holds invalid UTF-8.
func appendStringContent(dst []byte, s string) (out []byte, ok bool) {
	ok = true
	start := 0
	for i := 0; ; {
		i = plainRun(s, i) // as is, HTML escaping being off
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
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			ok = false
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i++
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	return append(dst, s[start:]...), ok
}

// AppendFloat appends f as encoding/json writes a float64 (and as JavaScript
// prints a number): 5, 1.5, 1e+21, 1e-7. f must be finite.
func AppendFloat(dst []byte, f float64, bits int) []byte {
	// Below 1e15 (< 2^50) the shortest decimal of an integral float64 is
	// its integer digits, which strconv.AppendInt writes in a quarter of
	// AppendFloat's time (BenchmarkAppendFloat). -0 takes the general path.
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
