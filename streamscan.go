package coerce

import (
	"strconv"

	"github.com/coerce-go/coerce/internal/jsonwire"
)

// The scanner of a Stream: JSON syntax read one byte at a time, with state
// only for the containers still open, so that text fed in pieces is read
// once. It judges syntax only, for Preview: Close reads the whole text
// again through CoerceJSON, which has the last word (near-JSON, resent
// objects, limits).

// A scanMode is what the scanner expects next.
type scanMode uint8

const (
	mValue     scanMode = iota // a value starts (at the top, after ':', after ',' in an array)
	mFirstKey                  // after '{': a key or '}'
	mKey                       // after ',' in an object: a key
	mColon                     // after a key: ':'
	mFirstItem                 // after '[': a value or ']'
	mAfter                     // after a value: ',' or the closing bracket; at the top, space alone
	mString                    // inside a string (a key when inKey)
	mEscape                    // after a backslash in a string
	mUnicode                   // inside \uXXXX
	mNumber                    // inside a number
	mLiteral                   // inside true, false or null
)

// A frame is a container still open.
type frame struct {
	obj        bool
	key        string // objects: the key of the member being read, decoded
	index      int    // arrays: the index of the element being read
	safe       int    // just past the last complete member, or the opening bracket
	valueStart int    // the root object: where the value of the member being read starts, or -1
}

type scanner struct {
	stack    []frame
	mode     scanMode
	started  bool // a value has started at the top
	inKey    bool
	strStart int // the open string's quote
	escStart int // the backslash of the escape being read
	hex      int // the hex digits of \u read
	num      numState
	lit      string // what the literal still needs
	end      int    // just past the member of the root object step reported
	memKey   string // its key
	memStart int    // where its value starts

	invalid   int // the offset of the first byte that cannot be JSON, plus one; 0 for none
	notObject bool

	steps int // the bytes stepped, for the tests to count: at most two per byte
}

// A numState is where a number is in JSON's grammar.
type numState uint8

const (
	nMinus numState = iota
	nZero
	nInt
	nDot
	nFrac
	nE
	nESign
	nExp
)

// next moves the number on by c, or reports that c does not continue it.
func (n *numState) next(c byte) bool {
	digit := c >= '0' && c <= '9'
	switch *n {
	case nMinus:
		switch {
		case c == '0':
			*n = nZero
		case digit:
			*n = nInt
		default:
			return false
		}
	case nZero, nInt:
		switch {
		case digit && *n == nInt:
		case c == '.':
			*n = nDot
		case c == 'e' || c == 'E':
			*n = nE
		default:
			return false
		}
	case nDot:
		if !digit {
			return false
		}
		*n = nFrac
	case nFrac:
		switch {
		case digit:
		case c == 'e' || c == 'E':
			*n = nE
		default:
			return false
		}
	case nE, nESign:
		switch {
		case digit:
			*n = nExp
		case (c == '+' || c == '-') && *n == nE:
			*n = nESign
		default:
			return false
		}
	case nExp:
		return digit
	}
	return true
}

// complete reports whether the number may end here.
func (n numState) complete() bool { return n == nZero || n == nInt || n == nFrac || n == nExp }

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func (sc *scanner) fail(i int) {
	if sc.invalid == 0 {
		sc.invalid = i + 1
	}
}

// step reads buf[i] and reports whether a member of the root object ended
// with it (sc.memKey, sc.memStart, sc.end say which).
func (sc *scanner) step(buf []byte, i int) bool {
	sc.steps++
	if sc.invalid != 0 {
		return false
	}
	c := buf[i]
	switch sc.mode {
	case mString:
		switch {
		case c == '"':
			if sc.inKey {
				sc.stack[len(sc.stack)-1].key = jsonwire.Unescape(buf[sc.strStart+1 : i])
				sc.inKey, sc.mode = false, mColon
				return false
			}
			return sc.ended(i + 1)
		case c == '\\':
			sc.mode, sc.escStart = mEscape, i
		case c < 0x20:
			sc.fail(i)
		}
		return false
	case mEscape:
		switch c {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			sc.mode = mString
		case 'u':
			sc.mode, sc.hex = mUnicode, 0
		default:
			sc.fail(i)
		}
		return false
	case mUnicode:
		if !isHex(c) {
			sc.fail(i)
		} else if sc.hex++; sc.hex == 4 {
			sc.mode = mString
		}
		return false
	case mNumber:
		if sc.num.next(c) {
			return false
		}
		if !sc.num.complete() {
			sc.fail(i)
			return false
		}
		ended := sc.ended(i)
		return sc.step(buf, i) || ended // c, after the number
	case mLiteral:
		if c != sc.lit[0] {
			sc.fail(i)
			return false
		}
		if sc.lit = sc.lit[1:]; sc.lit == "" {
			return sc.ended(i + 1)
		}
		return false
	}
	if isSpace(c) {
		return false
	}
	switch sc.mode {
	case mFirstKey, mKey:
		switch {
		case c == '"':
			sc.mode, sc.inKey, sc.strStart = mString, true, i
		case c == '}' && sc.mode == mFirstKey:
			return sc.close(i)
		default:
			sc.fail(i)
		}
	case mColon:
		if c != ':' {
			sc.fail(i)
		}
		sc.mode = mValue
	case mFirstItem:
		if c == ']' {
			return sc.close(i)
		}
		sc.value(buf, i)
	case mValue:
		sc.value(buf, i)
	case mAfter:
		if len(sc.stack) == 0 {
			sc.fail(i) // after the arguments: Close says what it is
			return false
		}
		f := &sc.stack[len(sc.stack)-1]
		switch {
		case c == ',' && f.obj:
			sc.mode = mKey
		case c == ',':
			f.index++
			sc.mode = mValue
		case c == '}' && f.obj, c == ']' && !f.obj:
			return sc.close(i)
		default:
			sc.fail(i)
		}
	}
	return false
}

func isHex(c byte) bool { return c-'0' <= 9 || c|0x20-'a' <= 5 }

// value starts the value at buf[i].
func (sc *scanner) value(buf []byte, i int) {
	c := buf[i]
	if len(sc.stack) == 0 {
		if sc.started || c != '{' {
			sc.notObject = !sc.started
			sc.fail(i)
			return
		}
		sc.started = true
	}
	if len(sc.stack) == 1 {
		sc.stack[0].valueStart = i
	}
	switch {
	case c == '{':
		sc.stack = append(sc.stack, frame{obj: true, safe: i + 1, valueStart: -1})
		sc.mode = mFirstKey
	case c == '[':
		sc.stack = append(sc.stack, frame{safe: i + 1, valueStart: -1})
		sc.mode = mFirstItem
	case c == '"':
		sc.mode, sc.inKey, sc.strStart = mString, false, i
	case c == '-' || c >= '0' && c <= '9':
		sc.mode, sc.num = mNumber, nInt
		if c == '-' {
			sc.num = nMinus
		} else if c == '0' {
			sc.num = nZero
		}
	case c == 't':
		sc.mode, sc.lit = mLiteral, "rue"
	case c == 'f':
		sc.mode, sc.lit = mLiteral, "alse"
	case c == 'n':
		sc.mode, sc.lit = mLiteral, "ull"
	default:
		sc.fail(i)
	}
}

// close closes the container whose bracket is buf[i].
func (sc *scanner) close(i int) bool {
	sc.stack = sc.stack[:len(sc.stack)-1]
	return sc.ended(i + 1)
}

// ended ends the value that ends just before end, and reports whether it
// was a member of the root object.
func (sc *scanner) ended(end int) bool {
	sc.mode = mAfter
	if len(sc.stack) == 0 {
		return false // the arguments are complete
	}
	f := &sc.stack[len(sc.stack)-1]
	f.safe = end
	if len(sc.stack) > 1 || f.valueStart < 0 {
		return false
	}
	sc.memKey, sc.memStart, sc.end = f.key, f.valueStart, end
	f.valueStart = -1
	return true
}

// scalarOpen reports whether a string, number or literal is being read
// (not a key).
func (sc *scanner) scalarOpen() bool {
	switch sc.mode {
	case mString:
		return !sc.inKey
	case mEscape, mUnicode:
		return !sc.inKey
	case mNumber, mLiteral:
		return true
	}
	return false
}

// pointers are the JSON Pointers of the values still open, outermost
// first.
func (sc *scanner) pointers() []string {
	ps := make([]string, 0, len(sc.stack)+1)
	var p []byte
	ps = append(ps, "")
	for d, f := range sc.stack {
		if d == len(sc.stack)-1 && !sc.scalarOpen() {
			break
		}
		if f.obj {
			p = appendPointerToken(p, f.key)
		} else {
			p = strconv.AppendInt(append(p, '/'), int64(f.index), 10)
		}
		ps = append(ps, string(p))
	}
	return ps
}

// stringCut is where the open string's text can be cut and decoded: before
// an escape not yet complete.
func (sc *scanner) stringCut(buf []byte) int {
	if sc.mode == mEscape || sc.mode == mUnicode {
		return sc.escStart
	}
	return len(buf)
}

// closed returns the value that starts at buf[from], as far as it goes,
// made JSON: a member not yet complete is dropped but for a string or a
// number so far, and the containers still open are closed. It is nil
// where nothing of it is complete.
func (sc *scanner) closed(buf []byte, from int) []byte {
	top := &sc.stack[len(sc.stack)-1]
	cut, suffix := len(buf), ""
	switch sc.mode {
	case mString, mEscape, mUnicode:
		if sc.inKey {
			cut = top.safe
		} else {
			cut, suffix = sc.stringCut(buf), `"`
		}
	case mNumber:
		if !sc.num.complete() {
			cut = top.safe
		}
	case mLiteral, mColon, mKey, mValue:
		cut = top.safe
	}
	if cut <= from {
		return nil
	}
	out := make([]byte, 0, cut-from+len(suffix)+len(sc.stack))
	out = append(append(out, buf[from:cut]...), suffix...)
	for d := len(sc.stack) - 1; d >= 1; d-- {
		if sc.stack[d].obj {
			out = append(out, '}')
		} else {
			out = append(out, ']')
		}
	}
	return out
}
