package coerce

import (
	"strconv"
	"strings"

	"github.com/coerce-go/coerce/internal/jsonwire"
)

// A Stream reads the argument text of one tool call as a model streams it,
// in deltas of any size: it is an io.Writer for the deltas, Close gives
// the call's arguments, and Preview shows a UI what they look like so far.
//
// Close returns exactly what Schema.CoerceJSON returns for all the bytes
// written, the result and the error: text left open fails with
// ErrTruncated. Nothing but Close finalises: {"q":"t"} then ,"limit":10}
// is one call. A Preview is never a call: it is a value to show (Partial),
// not text to run or to Unmarshal.
//
// Write reads each byte once, as it comes, whatever the chunking: a
// stream of n bytes costs O(n) in all. A Preview costs the value still
// open at the top level (the members already complete are decoded once,
// when they end, and an open string's text is decoded as it grows), so
// that a preview after every delta keeps a stream of many members linear;
// a single open container is decoded again at each preview.
//
// A Stream is for one goroutine.
type Stream struct {
	s   *Schema
	buf []byte
	sc  scanner

	done   map[string]any  // the members complete, decoded and converted; and the one open, as far as it goes
	open   strings.Builder // the text of the string open at the top level, decoded up to openAt
	openAt int             // where in buf that decoding stopped; -1 for no such string

	decoded int // the bytes the previews decoded, for the tests to count
}

// Stream returns a Stream of arguments for s.
func (s *Schema) Stream() *Stream {
	return &Stream{s: s, done: map[string]any{}, openAt: -1}
}

// Write appends p to the argument text. It never fails.
func (st *Stream) Write(p []byte) (int, error) {
	from := len(st.buf)
	st.buf = append(st.buf, p...)
	for i := from; i < len(st.buf); i++ {
		if st.sc.step(st.buf, i) {
			st.memberEnded()
		}
	}
	return len(p), nil
}

// Close returns what Schema.CoerceJSON returns for all the text written.
// The Stream may be closed more than once, with the same answer.
func (st *Stream) Close() ([]byte, error) {
	return st.s.CoerceJSON(st.buf)
}

// Len is the number of bytes written.
func (st *Stream) Len() int { return len(st.buf) }

// memberEnded decodes the member of the argument object that has just
// ended, once, converted to its parameter's type where that converts.
func (st *Stream) memberEnded() {
	sc := &st.sc
	if v, err := decodeJSON(st.buf[sc.memStart:sc.end], st.s.opts.UseNumber, st.s.opts.maxDepth()); err == nil {
		st.done[sc.memKey] = st.coerced(sc.memKey, v)
	}
	st.openAt = -1
}

// coerced is v converted to the type of parameter key, where it converts.
func (st *Stream) coerced(key string, v any) any {
	pt, ok := st.s.Lookup(key)
	if !ok {
		return v
	}
	o := st.s.opts
	o.OnChange = nil
	if c, err := o.ToType(v, pt); err == nil {
		return c
	}
	return v
}

// A Partial is what a Stream's arguments look like so far, for a UI:
// never a call to run.
type Partial struct {
	// Args holds the members complete so far, and the one still open as
	// far as it goes (an open string's text so far, an open container with
	// its complete members), each converted to its parameter's type where
	// that converts. It is valid until the next Write, and is not to be
	// modified.
	Args map[string]any

	// Open lists the JSON Pointers of the values still open, outermost
	// first: "" while the argument object itself is, then the member being
	// written, and so on. It is empty once the text is complete.
	Open []string

	// Err is nil while the text is JSON so far (complete or not). It is a
	// *Error wrapping ErrSyntax where the text can no longer be JSON, or
	// ErrKind where it is not an object; Close may still repair near-JSON.
	Err error
}

// Preview returns the arguments so far. Its cost is that of the member
// still open at the top level (see Stream).
func (st *Stream) Preview() Partial {
	sc := &st.sc
	p := Partial{Args: st.done}
	switch {
	case sc.invalid != 0:
		at := sc.invalid - 1
		p.Err = &Error{Err: ErrSyntax, Detail: "invalid character " + strconv.QuoteRune(rune(st.buf[at])) + " at offset " + strconv.Itoa(at)}
		if sc.notObject {
			p.Err = &Error{Declared: "object", Err: ErrKind, Detail: "the arguments are not an object"}
		}
		return p
	case len(sc.stack) == 0:
		if !sc.started {
			p.Open = []string{""}
		}
		return p
	}
	p.Open = sc.pointers()
	f := &sc.stack[0]
	if f.valueStart < 0 {
		return p // no member open at the top
	}
	if len(sc.stack) == 1 && sc.mode != mNumber {
		if sc.mode != mString && sc.mode != mEscape && sc.mode != mUnicode {
			return p // a literal: nothing to show yet
		}
		// A string: its text so far, decoded as it grows.
		if st.openAt < 0 {
			st.open.Reset()
			st.openAt = f.valueStart + 1
		}
		if cut := sc.stringCut(st.buf); cut > st.openAt {
			st.decoded += cut - st.openAt
			st.open.WriteString(jsonwire.Unescape(st.buf[st.openAt:cut]))
			st.openAt = cut
		}
		st.done[f.key] = st.open.String()
		return p
	}
	if text := sc.closed(st.buf, f.valueStart); text != nil {
		st.decoded += len(text)
		if v, err := decodeJSON(text, st.s.opts.UseNumber, st.s.opts.maxDepth()); err == nil {
			st.done[f.key] = v
		}
	}
	return p
}
