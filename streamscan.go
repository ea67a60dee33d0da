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

// A frame is a container still open, and its value so far: its members
// complete, decoded (each once, when it ends).
type frame struct {
	obj   bool
	key   string         // objects: the key of the member being read, decoded
	index int            // arrays: the index of the element being read
	m     map[string]any // objects
	a     []any          // arrays
	open  bool           // a member of it is being read (its key, for objects, is read)
}

// value is the frame's container.
func (f *frame) value() any {
	if f.obj {
		return f.m
	}
	return f.a
}

// put sets the member being read to v: an object's key, an array's
// element index (appended, or written over a preview's).
func (f *frame) put(v any) {
	if f.obj {
		f.m[f.key] = v
		return
	}
	f.a = append(f.a[:f.index], v)
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
	valStart int    // where the scalar being read starts

	useNumber bool
	maxDepth  int
	// root is the root object's map, and atRoot converts each of its
	// members as it ends (Stream).
	root   map[string]any
	atRoot func(key string, v any) any

	invalid   int // the offset of the first byte that cannot be JSON, plus one; 0 for none
	notObject bool
	tooDeep   bool // that byte opens a container deeper than maxDepth

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

func (sc *scanner) fail(i int) {
	if sc.invalid == 0 {
		sc.invalid = i + 1
	}
}

// step reads buf[i].
func (sc *scanner) step(buf []byte, i int) {
	sc.steps++
	if sc.invalid != 0 {
		return
	}
	c := buf[i]
	switch sc.mode {
	case mString:
		switch {
		case c == '"':
			// The string's text is valid as jsonwire reads it (UTF-8
			// included), which CoerceJSON asks at Close: the states
			// above only find where it ends, and what fails early.
			if _, err := jsonwire.SkipString(buf, sc.strStart); err != nil {
				sc.fail(err.Offset)
				return
			}
			if sc.inKey {
				f := &sc.stack[len(sc.stack)-1]
				f.key, f.open = jsonwire.Unescape(buf[sc.strStart+1:i]), true
				sc.inKey, sc.mode = false, mColon
				return
			}
			sc.ended(jsonwire.Unescape(buf[sc.strStart+1 : i]))
		case c == '\\':
			sc.mode, sc.escStart = mEscape, i
		case c < 0x20:
			sc.fail(i)
		}
		return
	case mEscape:
		switch c {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			sc.mode = mString
		case 'u':
			sc.mode, sc.hex = mUnicode, 0
		default:
			sc.fail(i)
		}
		return
	case mUnicode:
		if !isHex(c) {
			sc.fail(i)
		} else if sc.hex++; sc.hex == 4 {
			sc.mode = mString
		}
		return
	case mNumber:
		if sc.num.next(c) {
			return
		}
		if !sc.num.complete() {
			sc.fail(i)
			return
		}
		sc.ended(sc.number(buf[sc.valStart:i]))
		sc.step(buf, i) // c, after the number
		return
	case mLiteral:
		if c != sc.lit[0] {
			sc.fail(i)
			return
		}
		if sc.lit = sc.lit[1:]; sc.lit == "" {
			var v any // null
			if c == 'e' {
				v = buf[sc.valStart] == 't'
			}
			sc.ended(v)
		}
		return
	}
	if jsonwire.IsSpace(c) {
		return
	}
	switch sc.mode {
	case mFirstKey, mKey:
		switch {
		case c == '"':
			sc.mode, sc.inKey, sc.strStart = mString, true, i
		case c == '}' && sc.mode == mFirstKey:
			sc.close()
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
			sc.close()
			return
		}
		sc.value(buf, i)
	case mValue:
		sc.value(buf, i)
	case mAfter:
		if len(sc.stack) == 0 {
			sc.fail(i) // after the arguments: Close says what it is
			return
		}
		f := &sc.stack[len(sc.stack)-1]
		switch {
		case c == ',' && f.obj:
			sc.mode = mKey
		case c == ',':
			f.index++
			sc.mode = mValue
		case c == '}' && f.obj, c == ']' && !f.obj:
			sc.close()
		default:
			sc.fail(i)
		}
	}
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
	} else {
		sc.stack[len(sc.stack)-1].open = true
	}
	sc.valStart = i
	if (c == '{' || c == '[') && len(sc.stack) >= sc.maxDepth {
		sc.tooDeep = true // as CoerceJSON refuses it: Preview says so
		sc.fail(i)
		return
	}
	switch {
	case c == '{':
		m := sc.root
		if len(sc.stack) > 0 || m == nil {
			m = map[string]any{}
		}
		sc.stack = append(sc.stack, frame{obj: true, m: m})
		sc.mode = mFirstKey
	case c == '[':
		sc.stack = append(sc.stack, frame{a: []any{}})
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

// number decodes number text as decodeJSON does.
func (sc *scanner) number(text []byte) any {
	v, _ := decodeJSON(text, sc.useNumber, sc.maxDepth)
	return v
}

// close closes the innermost container.
func (sc *scanner) close() {
	f := sc.stack[len(sc.stack)-1]
	sc.stack = sc.stack[:len(sc.stack)-1]
	sc.ended(f.value())
}

// ended ends the value being read, v decoded: it becomes a member of the
// container around it.
func (sc *scanner) ended(v any) {
	sc.mode = mAfter
	if len(sc.stack) == 0 {
		return // the arguments are complete
	}
	f := &sc.stack[len(sc.stack)-1]
	if len(sc.stack) == 1 && sc.atRoot != nil {
		v = sc.atRoot(f.key, v)
	}
	f.put(v)
	f.open = false
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
			p = jsonwire.AppendPointerToken(p, f.key)
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
