package coerce

import (
	"bytes"
	"errors"
	"strconv"

	"github.com/coerce-go/coerce/internal/jsonwire"
	"github.com/coerce-go/coerce/internal/nearjson"
)

// Model output, not tool calls: a model asked for structured output answers
// with a reply, and the value is somewhere in it, between prose, inside a
// markdown fence, beside an example it gave first. FromReply finds the values
// of the reply, coerces each against the schema, and takes the one that
// conforms, or none.

// maxReplyValues bounds the objects or arrays of a reply that FromReply
// coerces (those of a kind the schema's root takes): a reply holding more
// is refused with ErrLimit, since any of those left out might conform.
const maxReplyValues = 100

// FromReply returns the one JSON value in a model's whole reply that conforms
// to the schema, repaired and coerced as CoerceJSON does with Options.Check
// set:
//
//	order, err := orderSchema.FromReply(reply) // JSON text of the order
//
// The values of a reply are the JSON objects and arrays it holds (JSON or
// near-JSON, which is repaired where it has one reading), in the prose or in
// markdown fences, with or without a language tag; a scalar is no value of a
// reply, since prose cannot tell it from a word. They are found in one pass
// that reads the content of each fence and the prose around fences apart, so
// that neither runs into the other, each byte a bounded number of times. Each value of a
// kind the schema's root takes is coerced; one conforms when it coerces
// without error under Check (no required name missing, no name a closed
// object does not declare, no value outside its enum).
//
//   - One value conforms: it is returned, as CoerceJSON returns it (the bytes
//     of the reply where nothing changes). Where it is not the whole reply
//     (but whitespace), Options.OnChange first hears a Change with rule
//     FromReply and Offset where the value begins, then the value's own.
//     Values that conform and are equal, byte for byte once compact, are one
//     value: a reply that shows its answer and then repeats it in a fence
//     holds one answer.
//   - Two different values conform: ErrAmbiguous, naming the offset of the
//     first in Detail and of the second in Offset. Neither is taken.
//   - The reply ends inside a value (a model's output limit, a stream cut
//     short): ErrTruncated, with Offset where that value begins, whatever the
//     rest holds, since the value cut off may have been the answer.
//   - A value of a kind the root takes that cannot be read (it went wrong
//     after its first member, as `{"a": 1 "b": 2}` does; near-JSON with two
//     readings; a raw control character in a string): ErrSyntax, with Offset
//     where reading stopped, even beside a value that conforms, since the one
//     that cannot be read may have been the answer. A bracket in prose that
//     fails at its first word ("[see below]", "{name}") is no value.
//   - No value conforms: the error of the first value of a kind the root
//     takes, as CoerceJSON gives it (paths inside that value); else of the
//     first value of another kind; a reply with no object or array at all is
//     ErrSyntax.
//
// The errors about the reply itself (ErrAmbiguous, ErrTruncated, ErrSyntax
// for a value that cannot be read or is absent, ErrLimit) are an *Error whose
// Declared is the schema's type, Value the reply, and Offset a byte offset in
// the reply. MaxSize bounds the reply, before anything reads it; a value
// nested deeper than MaxDepth, or more than 100 values of the root's kind,
// are ErrLimit. The result is deterministic, and the work linear in the size
// of the reply times that of the schema.
func (s *Schema) FromReply(reply string) ([]byte, error) {
	o := &s.opts
	if o.MaxSize > 0 && len(reply) > o.MaxSize {
		e := stamp(tooLong(o.MaxSize), s.root, reply)
		return nil, &e
	}
	text := []byte(reply)
	sc := replyScan{text: text, root: s.root, maxDepth: o.maxDepth(), other: -1}
	sc.scan()
	countWork(sc.work)
	if sc.stop != nil {
		e := stamp(sc.stop, s.root, reply)
		return nil, &e
	}
	if len(sc.values) > maxReplyValues {
		return nil, &Error{Declared: s.root.String(), declared: s.root, Value: reply, Err: ErrLimit,
			Detail: "more than " + strconv.Itoa(maxReplyValues) + " " + kindsWords(s.root, true) + " in the reply"}
	}
	var taken *replyValue
	var firstErr error
	for i := range sc.values {
		v := &sc.values[i]
		v.out, v.changes, v.err = s.replyValue(text[v.start:v.end:v.end])
		if v.err != nil {
			if e := unread(v.err); e != nil {
				// It may have been the answer: nothing is taken.
				e.Offset += v.start
				return nil, e
			}
			if firstErr == nil {
				firstErr = v.err
			}
			continue
		}
		switch {
		case taken == nil:
			taken = v
		case !sameCompact(taken.out, v.out):
			return nil, &Error{Declared: s.root.String(), declared: s.root, Value: reply, Err: ErrAmbiguous, Offset: v.start,
				Detail: "two values conform, the first at offset " + strconv.Itoa(taken.start) + ", the second"}
		}
	}
	if taken == nil {
		switch {
		case firstErr != nil:
			return nil, firstErr
		case sc.other >= 0:
			// Of a kind the root does not take: its coercion says so.
			_, _, err := s.replyValue(text[sc.other:sc.otherEnd:sc.otherEnd])
			if err == nil { // cannot be, by the kinds; said plainly all the same
				err = &Error{Declared: s.root.String(), declared: s.root, Value: reply, Err: ErrKind}
			}
			return nil, err
		}
		return nil, &Error{Declared: s.root.String(), declared: s.root, Value: reply, Err: ErrSyntax,
			Detail: "no JSON " + kindsWords(s.root, false) + " in the reply"}
	}
	if o.OnChange != nil {
		if start := jsonwire.Space(text, 0); taken.start != start || len(trimSpace(text[start:])) != taken.end-start {
			o.OnChange(Change{Declared: s.root.String(), Found: String, Preview: preview(reply), Rule: FromReply, Offset: taken.start})
		}
		o.deliver(taken.changes)
	}
	return taken.out, nil
}

// A replyValue is an object or array of a reply: where it is, and what
// coercing it gave.
type replyValue struct {
	start, end int
	out        []byte
	changes    []Change
	err        error
}

// replyValue coerces the text of one value of a reply against the schema,
// with Check, collecting its changes for the caller to deliver if it is
// taken: an object as CoerceJSON reads arguments (names, nulls, checks), any
// other value by the pipeline over text against the root, then checked.
func (s *Schema) replyValue(text []byte) ([]byte, []Change, error) {
	if _, isObject := argsObject(text); isObject && s.params != nil {
		return s.coerceArgsText(text, true)
	}
	out, changes, err := coerceText(&s.opts, text, s.root, false, nil)
	if err == nil {
		err = checkValue(&s.opts, s.root, out)
	}
	return out, changes, err
}

// checkValue is Check for one JSON value of any kind against t: nil or the
// findings, in path order.
func checkValue(o *Options, t *Type, text []byte) error {
	v, err := decodeJSON(text, true, o.maxDepth())
	if err != nil {
		return err
	}
	return findings(o, t, v, 0, workPerByte*len(text))
}

// unread returns a copy of err when it says that a value's text could not
// be read at all (ErrSyntax, ErrTruncated or ErrLimit for the value
// itself), as opposed to read and found not to conform; nil otherwise.
func unread(err error) *Error {
	e, ok := err.(*Error)
	if !ok || e.Path != "" || e.Err != ErrSyntax && e.Err != ErrTruncated && e.Err != ErrLimit {
		return nil
	}
	c := *e
	return &c
}

// sameCompact reports whether two JSON texts are the same once compact.
func sameCompact(a, b []byte) bool {
	return bytes.Equal(jsonwire.AppendCompact(nil, a), jsonwire.AppendCompact(nil, b))
}

// kindsWords names the kinds of value t takes in a reply, for messages.
func kindsWords(t *Type, plural bool) string {
	o, a := takesKind(t, '{'), takesKind(t, '[')
	switch {
	case o && !a && plural:
		return "objects"
	case o && !a:
		return "object"
	case a && !o && plural:
		return "arrays"
	case a && !o:
		return "array"
	case plural:
		return "objects or arrays"
	}
	return "object or array"
}

// takesKind reports whether t takes a value of the kind that opens with
// open ('{' or '['): t is that kind, any, or a union with such a member.
func takesKind(t *Type, open byte) bool {
	want := typeObject
	if open == '[' {
		want = typeArray
	}
	switch t.kind {
	case typeAny, want:
		return true
	case typeUnion:
		for _, m := range t.members {
			if m.kind == want {
				return true
			}
		}
	}
	return false
}

// A replyScan finds the values of a reply in one pass: the contents of its
// markdown fences and the prose between them are read as regions of their
// own, so that neither can run into the other, and in each region every
// '{' or '[' that no value read before covers starts a value, read by
// nearjson.RepairPrefix. A read that fails goes on from where it stopped,
// so each byte is read a bounded number of times, whatever the text.
type replyScan struct {
	text     []byte
	root     *Type
	maxDepth int
	values   []replyValue // of a kind the root takes, in the order of the text
	// other is where the first value of another kind begins (-1 if none),
	// and otherEnd where it ends.
	other, otherEnd int
	stop            *Error // what ends the scan: a value cut off, too deep, unreadable
	work            int
}

func (sc *replyScan) scan() {
	fenceRegions(sc.text, func(lo, hi int) bool {
		sc.region(lo, hi)
		return sc.stop == nil
	})
}

// region reads the values of text[lo:hi].
func (sc *replyScan) region(lo, hi int) {
	for i := lo; i < hi; {
		j := i
		for j < hi && sc.text[j] != '{' && sc.text[j] != '[' {
			j++
		}
		sc.work += j - i
		if j == hi {
			return
		}
		p, err := nearjson.RepairPrefix(sc.text[j:hi], nearjson.Limits{MaxDepth: sc.maxDepth})
		sc.work += p.Work
		takes := takesKind(sc.root, sc.text[j])
		if err == nil {
			switch {
			case takes:
				sc.values = append(sc.values, replyValue{start: j, end: j + p.Len})
			case sc.other < 0:
				sc.other, sc.otherEnd = j, j+p.Len
			}
			i = j + p.Len
			continue
		}
		var e *nearjson.Error
		if !errors.As(err, &e) {
			sc.stop = &Error{Err: ErrSyntax, Detail: err.Error(), Offset: j}
			return
		}
		switch {
		case p.Deep:
			sc.stop = &Error{Err: ErrLimit, Detail: e.Reason, Offset: j + e.Offset}
			return
		case e.Truncated:
			sc.stop = &Error{Err: ErrTruncated, Detail: truncatedDetail, Offset: j}
			return
		case p.Members && takes:
			sc.stop = &Error{Err: ErrSyntax, Detail: e.Reason, Offset: j + e.Offset}
			return
		}
		i = j + max(e.Offset, 1)
	}
}

// fenceRegions calls visit with the regions of text that are not empty, in
// order: the prose before, between and after its markdown fences (their
// fence lines included), and the content of each fence. A fence opens with a
// line of three or more backticks and an info string without a backtick (a
// language tag, or nothing), indented by up to three spaces, and closes with
// a line of at least as many backticks and nothing else; a fence that never
// closes runs to the end of the text. It stops when visit returns false.
func fenceRegions(text []byte, visit func(lo, hi int) bool) {
	each := func(lo, hi int) bool { return lo == hi || visit(lo, hi) }
	prose, content, open := 0, 0, 0 // open: the backticks of the open fence; 0 outside fences
	for i := 0; i < len(text); {
		end := bytes.IndexByte(text[i:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += i
		}
		line := text[i:end]
		switch {
		case open == 0:
			if n := fenceLine(line, false); n > 0 {
				if !each(prose, min(end+1, len(text))) {
					return
				}
				open, content = n, min(end+1, len(text))
			}
		case fenceLine(line, true) >= open:
			if !each(content, i) {
				return
			}
			open, prose = 0, i
		}
		i = end + 1
	}
	if open > 0 {
		each(content, len(text))
	} else {
		each(prose, len(text))
	}
}

// fenceLine returns the number of backticks that line opens a fence with
// (closing: that it closes one with), or 0 when it is no such line.
func fenceLine(line []byte, closing bool) int {
	i := 0
	for i < 3 && i < len(line) && line[i] == ' ' {
		i++
	}
	n := 0
	for i+n < len(line) && line[i+n] == '`' {
		n++
	}
	if n < 3 {
		return 0
	}
	for _, c := range line[i+n:] {
		if c == '`' || closing && c != ' ' && c != '\t' && c != '\r' {
			return 0
		}
	}
	return n
}
