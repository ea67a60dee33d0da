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
// Write reads each byte once, as it comes, whatever the chunking, and
// decodes each value once, when it ends: a stream of n bytes costs O(n) in
// all. A Preview costs the depth of the value still open, and the part of
// an open string written since the last preview, so that a preview after
// every delta keeps the stream linear.
//
// A Stream is for one goroutine.
type Stream struct {
	s   *Schema
	buf []byte
	sc  scanner

	done      map[string]any  // the arguments so far: the members complete, converted; and the one open, as far as it goes
	open      strings.Builder // the text of the string being read, decoded up to openAt
	openStart int             // where that string starts
	openAt    int             // where its decoding stopped

	decoded int // the bytes the previews decoded, for the tests to count
}

// Stream returns a Stream of arguments for s.
func (s *Schema) Stream() *Stream {
	st := &Stream{s: s, done: map[string]any{}, openStart: -1}
	st.sc.useNumber, st.sc.maxDepth = s.opts.UseNumber, s.opts.maxDepth()
	st.sc.root, st.sc.atRoot = st.done, st.coerced
	return st
}

// Write appends p to the argument text. It never fails.
func (st *Stream) Write(p []byte) (int, error) {
	from := len(st.buf)
	st.buf = append(st.buf, p...)
	for i := from; i < len(st.buf); i++ {
		st.sc.step(st.buf, i)
	}
	return len(p), nil
}

// Close returns what Schema.CoerceJSON returns for all the text written.
// The Stream may be closed more than once, with the same answer.
func (st *Stream) Close() ([]byte, error) {
	return st.s.CoerceJSON(st.buf)
}

// coerced is v, a member of the arguments that has just ended, converted
// to the type of parameter key where it converts.
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
	// Args holds the members complete so far, each converted to its
	// parameter's type where that converts, and the one still open as far
	// as it goes: an open string's text so far, an open number, an open
	// container with its members so far. It is valid until the next Write,
	// and is not to be modified.
	Args map[string]any

	// Open lists the JSON Pointers of the values still open, outermost
	// first: "" while the argument object itself is, then the member being
	// written, and so on. It is empty once the text is complete.
	Open []string

	// Err is nil while the text is JSON so far (complete or not). It is a
	// *Error wrapping ErrSyntax where the text can no longer be JSON,
	// ErrKind where it is not an object, or ErrLimit where it nests deeper
	// than MaxDepth; Close may still repair near-JSON. Previews stop there.
	Err error
}

// Preview returns the arguments so far. It costs the depth of the value
// open, and the part of an open string written since the last preview.
func (st *Stream) Preview() Partial {
	sc := &st.sc
	p := Partial{Args: st.done}
	switch {
	case sc.invalid != 0:
		at := sc.invalid - 1
		p.Err = &Error{Err: ErrSyntax, Detail: "invalid character " + strconv.QuoteRune(rune(st.buf[at])) + " at offset " + strconv.Itoa(at)}
		switch {
		case sc.notObject:
			p.Err = &Error{Declared: "object", Err: ErrKind, Detail: "the arguments are not an object"}
		case sc.tooDeep:
			p.Err = &Error{Err: ErrLimit, Detail: "nesting deeper than " + strconv.Itoa(sc.maxDepth)}
		}
		return p
	case len(sc.stack) == 0:
		if !sc.started {
			p.Open = []string{""}
		}
		return p
	}
	p.Open = sc.pointers()
	// The scalar open, as far as it goes: a string's text, decoded as it
	// grows; a number that may end here.
	top := &sc.stack[len(sc.stack)-1]
	switch {
	case !sc.scalarOpen():
	case sc.mode == mString || sc.mode == mEscape || sc.mode == mUnicode:
		if st.openStart != sc.strStart {
			st.open.Reset()
			st.openStart, st.openAt = sc.strStart, sc.strStart+1
		}
		if cut := sc.stringCut(st.buf); cut > st.openAt {
			st.decoded += cut - st.openAt
			st.open.WriteString(jsonwire.Unescape(st.buf[st.openAt:cut]))
			st.openAt = cut
		}
		top.put(st.open.String())
	case sc.mode == mNumber && sc.num.complete() && len(st.buf)-sc.valStart <= 64:
		st.decoded += len(st.buf) - sc.valStart
		top.put(sc.number(st.buf[sc.valStart:]))
	}
	// The containers open, each in the one around it.
	for d := len(sc.stack) - 1; d >= 1; d-- {
		sc.stack[d-1].put(sc.stack[d].value())
	}
	return p
}
