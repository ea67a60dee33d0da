package coerce

import (
	"bytes"
	"slices"

	"github.com/coerce-go/coerce/internal/jsonwire"
)

// What the walk over text (raw.go) learns of the whole text before it
// needs it, each in one pass that reads every byte once, made only for a
// call that needs it: the keys given again later in their object, which
// a decoder would overwrite (supersededKeys), and where each container
// ends (end), for a walk that passes over a value before it walks into it.

// knowSuperseded runs the pre-pass that finds the keys given again later in
// their object (supersededKeys), once per call, and has the walk start over
// (w.restart) if it marks a parameter the walk has evaluated already.
func (w *textWalk) knowSuperseded() {
	if w.superKnown {
		return
	}
	w.superKnown = true
	w.superseded = w.supersededKeys(w.data[:w.dataEnd], w.dataStart)
	for _, k := range w.top {
		if _, ok := w.superseded[int(k.lo)]; ok {
			w.restart = true
		}
	}
}

// supersededAt reports whether the key whose opening quote is at
// w.data[off] occurs again later in its object, and where the occurrence
// that decides (the last) opens.
func (w *textWalk) supersededAt(off int) (decider int, ok bool) {
	w.knowSuperseded()
	decider, ok = w.superseded[off]
	return decider, ok
}

// supersededKeys returns the offsets of the keys, in the valid JSON text
// from data[start], that occur again later in the same object, each with
// the offset of the last occurrence, which decides: nil when no key does,
// the usual case. It reads each byte once, strings eight at a
// time.
func (w *textWalk) supersededKeys(data []byte, start int) map[int]int {
	var out map[int]int
	w.ensure()
	stack, keys := w.frames[:0], w.spans[:0]
	expectKey := false
	for i := start; i < len(data); i++ {
		switch data[i] {
		case '{':
			stack = append(stack, int32(len(keys)))
			expectKey = true
		case '[':
			stack = append(stack, -1)
		case '}', ']':
			if from := stack[len(stack)-1]; from >= 0 {
				out = markSuperseded(data, keys[from:], out)
				keys = keys[:from]
			}
			stack = stack[:len(stack)-1]
			expectKey = false
		case ',':
			expectKey = len(stack) > 0 && stack[len(stack)-1] >= 0
		case '"':
			if expectKey {
				lo, hi, escaped, next, _ := jsonwire.Key(data, i)
				keys = append(keys, keySpan{int32(lo - 1), int32(hi + 1), escaped})
				expectKey = false
				i = next - 1
				continue
			}
			end, _ := jsonwire.Skip(data, i, 0, 1)
			i = end - 1
		}
	}
	w.frames, w.spans = stack, keys // kept for the next call
	return out
}

// A box is an object or array of the text: where it opens and ends.
type box struct{ open, end int32 }

// end returns where the valid JSON value at w.data[i] ends. A container's
// end is looked up in a record of them all (boxes), made the first time
// one is asked for in a call, in a pass that reads each byte once: so a
// walk that passes over a value before it walks into it (keyedMember)
// reads no byte of it twice, however deep such containers nest.
func (w *textWalk) end(i int) int {
	if c := w.data[i]; c != '{' && c != '[' {
		end, _ := jsonwire.Skip(w.data, i, 0, 1)
		return end
	}
	if !w.boxed {
		w.boxed = true
		w.boxes = containerEnds(w.data[:w.dataEnd], w.dataStart, w.frames[:0], w.boxes[:0])
	}
	n, _ := slices.BinarySearchFunc(w.boxes, int32(i), func(b box, at int32) int { return int(b.open - at) })
	return int(w.boxes[n].end)
}

// containerEnds appends to boxes, in the order they open, the objects and
// arrays of the valid JSON text from data[start]; stack is scratch.
func containerEnds(data []byte, start int, stack []int32, boxes []box) []box {
	for i := start; i < len(data); i++ {
		switch data[i] {
		case '{', '[':
			stack = append(stack, int32(len(boxes)))
			boxes = append(boxes, box{open: int32(i)})
		case '}', ']':
			boxes[stack[len(stack)-1]].end = int32(i + 1)
			stack = stack[:len(stack)-1]
		case '"':
			end, _ := jsonwire.Skip(data, i, 0, 1)
			i = end - 1
		}
	}
	return boxes
}

// sameKey reports whether two keys in data are the same key.
func sameKey(data []byte, a, b keySpan) bool {
	if !a.escaped && !b.escaped {
		// Most keys differ in length or in their last byte (p0, p1...):
		// told apart without a call.
		return a.hi-a.lo == b.hi-b.lo && data[a.hi-2] == data[b.hi-2] && bytes.Equal(data[a.lo+1:a.hi-1], data[b.lo+1:b.hi-1])
	}
	return jsonwire.Unescape(data[a.lo+1:a.hi-1]) == jsonwire.Unescape(data[b.lo+1:b.hi-1])
}

// A keySpan is a key in JSON text, quotes included.
type keySpan struct {
	lo, hi  int32
	escaped bool
}

// markSuperseded adds to out the keys of one object that occur again
// later in it, each with the last occurrence of its key.
func markSuperseded(data []byte, spans []keySpan, out map[int]int) map[int]int {
	text := func(s keySpan) []byte { return data[s.lo+1 : s.hi-1] }
	mark := func(s, last keySpan) {
		if out == nil {
			out = map[int]int{}
		}
		out[int(s.lo)] = int(last.lo)
	}
	if len(spans) <= 16 {
		for a := range spans {
			last := -1
			for b := a + 1; b < len(spans); b++ {
				if sameKey(data, spans[a], spans[b]) {
					last = b
				}
			}
			if last >= 0 {
				mark(spans[a], spans[last])
			}
		}
		return out
	}
	last := make(map[string]int, len(spans))
	for n, s := range spans {
		last[jsonwire.Unescape(text(s))] = n
	}
	for n, s := range spans {
		if l := last[jsonwire.Unescape(text(s))]; l != n {
			mark(s, spans[l])
		}
	}
	return out
}
