package nearjson

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"
)

// DefaultMaxDepth is the nesting limit when Limits.MaxDepth is zero: the
// limit of encoding/json and of the core's reader, so that a value this
// package writes can always be read back.
const DefaultMaxDepth = 10000

// Limits bound the work of a repair. The zero value is the default.
type Limits struct {
	// MaxDepth is the deepest nesting of arrays and objects accepted; the
	// top-level array or object is at depth 1. Zero or less means
	// DefaultMaxDepth. Valid JSON is returned as it is without being held
	// to it (encoding/json's own limit, 10000, applies to it).
	MaxDepth int
}

// Fixes is the set of repairs a call applied, one bit each. The zero value
// means none: the text was JSON.
type Fixes uint16

// The repairs, in the order Names lists them.
const (
	TemplateToken    Fixes = 1 << iota // chat-template tokens around the text
	Comment                            // //, # or /* */ comments
	PythonLiteral                      // True, False, None
	SingleQuote                        // 'strings'
	UnquotedKey                        // {key: ...}
	TrailingComma                      // [1, 2,]
	InvalidEscape                      // "C:\path", "it\'s"
	ControlCharacter                   // a raw tab or line break in a string
)

var fixNames = [...]string{
	"template-token",
	"comment",
	"python-literal",
	"single-quote",
	"unquoted-key",
	"trailing-comma",
	"invalid-escape",
	"control-character",
}

// Has reports whether every repair of g is in f.
func (f Fixes) Has(g Fixes) bool { return f&g == g }

// Names returns the stable short name of each repair in f, in a fixed
// order, for a change report; nil when f is zero.
func (f Fixes) Names() []string {
	var names []string
	for i, n := range fixNames {
		if f&(1<<i) != 0 {
			names = append(names, n)
		}
	}
	return names
}

// String returns the names joined by commas, or "none".
func (f Fixes) String() string {
	if f == 0 {
		return "none"
	}
	return strings.Join(f.Names(), ",")
}

// Error is the error of Repair: where in the text it stopped and why.
type Error struct {
	// Offset is the byte offset in the text given to Repair of the
	// character that could not be read (for an unterminated string, its
	// opening quote; for text that ended too soon, the length of the text).
	Offset int
	// Reason says what is wrong, without the offset.
	Reason string
	// Truncated is set when the text ended inside a string, array, object,
	// comment, escape or number: text that was most likely cut off, which
	// this package never completes.
	Truncated bool
}

func (e *Error) Error() string {
	return "nearjson: " + e.Reason + " at offset " + strconv.Itoa(e.Offset)
}

// Repair returns text as JSON. Valid JSON is returned as it is (the same
// slice), with no fixes. Otherwise the text is read once, left to right,
// and either every deviation from JSON it holds is one of the repairs of
// Fixes, and the result is valid JSON holding the value the text was
// written to mean, or the result is an *Error. The output never shares
// memory with text unless it is text itself.
func Repair(text []byte, limits Limits) (out []byte, fixes Fixes, err error) {
	out, fixes, _, err = repair(text, limits)
	return out, fixes, err
}

// repair is Repair that also returns the work done: the number of bytes
// examined, counted in every loop, so that tests can check that it grows
// linearly with the input without timing anything.
func repair(text []byte, limits Limits) ([]byte, Fixes, int, error) {
	// The cheap check first: a call whose text is JSON, nearly all of
	// them, costs one validation and no allocation.
	work := len(text)
	if json.Valid(text) {
		return text, 0, work, nil
	}
	p := parser{in: text, maxDepth: limits.MaxDepth, work: work, divAt: -1}
	if p.maxDepth <= 0 {
		p.maxDepth = DefaultMaxDepth
	}
	start, end := p.trimTokens()
	p.in, p.pos = text[:end], start
	p.out = make([]byte, 0, end-start+8)
	if err := p.parse(); err != nil {
		return nil, 0, p.work, err
	}
	// Decided again once the whole text is read: what makes it Python may
	// come after the // it makes doubtful.
	if err := p.pythonDivision(); err != nil {
		return nil, 0, p.work, err
	}
	return p.out, p.fixes, p.work, nil
}

type parser struct {
	// In the string being read: the offset of its first JSON escape other
	// than a quote's, and of its first backslash that stands for itself;
	// -1 when none. A string may not hold both: see escape.
	escAt, litAt int
	in           []byte
	pos          int
	out          []byte
	fixes        Fixes
	stack        []byte // the open brackets, '[' or '{'
	maxDepth     int
	work         int
	// divAt is the offset of the first // read as a comment right after a
	// value, -1 when none: Python reads it as floor division, so the text
	// is refused if it proves to be Python-literal text. hash is set once
	// a # comment was read, a sign of Python as True or 'quotes' are.
	divAt int
	hash  bool
	// prefix: the text is read only as far as its first value, whose
	// closing bracket ends it (RepairPrefix).
	prefix bool
}

func (p *parser) fail(at int, reason string) error {
	return &Error{Offset: at, Reason: reason}
}

func (p *parser) truncated(at int, reason string) error {
	return &Error{Offset: at, Reason: reason, Truncated: true}
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// trimTokens returns the bounds of the text inside the template tokens
// around it. Each round removes a token or ends, and compares at most every
// token once, so the work is linear in what it removes.
func (p *parser) trimTokens() (start, end int) {
	in := p.in
	start, end = 0, len(in)
	for {
		for start < end && isSpace(in[start]) {
			start++
			p.work++
		}
		found := false
		for _, t := range prefixTokens {
			p.work++
			if start == end || in[start] != t[0] {
				continue
			}
			p.work += len(t)
			if bytes.HasPrefix(in[start:end], []byte(t)) {
				start += len(t)
				p.fixes |= TemplateToken
				found = true
				break
			}
		}
		if !found {
			break
		}
	}
	for {
		for end > start && isSpace(in[end-1]) {
			end--
			p.work++
		}
		found := false
		for _, t := range suffixTokens {
			p.work++
			if start == end || in[end-1] != t[len(t)-1] {
				continue
			}
			p.work += len(t)
			if bytes.HasSuffix(in[start:end], []byte(t)) {
				end -= len(t)
				p.fixes |= TemplateToken
				found = true
				break
			}
		}
		if !found {
			return start, end
		}
	}
}

// skipSpace copies whitespace and drops comments up to the next token.
// afterValue is set where a value was just read, and so where Python's //
// would be floor division.
func (p *parser) skipSpace(afterValue bool) error {
	in := p.in
	for p.pos < len(in) {
		p.work++
		switch c := in[p.pos]; {
		case isSpace(c):
			p.out = append(p.out, c)
			p.pos++
		case c == '#' || c == '/' && p.pos+1 < len(in) && in[p.pos+1] == '/':
			p.fixes |= Comment
			if c == '#' {
				p.hash = true
			} else if afterValue && p.divAt < 0 {
				p.divAt = p.pos
				if err := p.pythonDivision(); err != nil {
					return err // now, before the comment swallows what follows
				}
			}
			i := bytes.IndexByte(in[p.pos:], '\n')
			if i < 0 {
				i = len(in) - p.pos
			}
			p.work += i
			p.pos += i
		case c == '/' && p.pos+1 < len(in) && in[p.pos+1] == '*':
			p.fixes |= Comment
			i := bytes.Index(in[p.pos+2:], []byte("*/"))
			if i < 0 {
				p.work += len(in) - p.pos
				return p.truncated(p.pos, "unterminated comment")
			}
			p.work += i + 4
			p.pos += i + 4
		case c == '/' && p.pos+1 == len(in):
			// The last byte, where a comment may begin: the text was cut
			// off there, or it is no comment; either way nothing follows.
			return p.truncated(p.pos, "text ends at the start of a comment")
		case c == '/':
			return p.fail(p.pos, "'/' that does not begin a comment")
		default:
			return nil
		}
	}
	return nil
}

// pythonDivision refuses the text if a // was read right after a value
// (divAt) and the text read so far is Python-literal text: a string in
// single quotes, True, False or None, or a # comment. Python reads such a //
// as floor division ({'offset': 100//4} is 25), so a comment is a guess.
func (p *parser) pythonDivision() error {
	if p.divAt >= 0 && (p.hash || p.fixes&(SingleQuote|PythonLiteral) != 0) {
		return p.fail(p.divAt, "'//' after a value in Python-literal text: floor division or a comment")
	}
	return nil
}

// The states of parse: what the next token may be.
const (
	wantValue = iota // a value: at the top, after '[', ':' or ',' in an array
	wantKey          // a key: after '{' or ',' in an object
	wantColon        // ':' after a key
	wantNext         // after a value: ',', the closing bracket, or the end
)

// parse reads one value and the end of the text. It keeps the open
// brackets on a stack of its own rather than recursing, so nesting costs a
// byte each and MaxDepth alone bounds it.
func (p *parser) parse() error {
	state := wantValue
	// closeOK: a closing bracket may come now: right after '[' or '{'
	// (empty), or after a comma (a trailing comma, dropped). commaAt is the
	// index in out of that comma, -1 if the bracket was just opened.
	closeOK, commaAt := false, -1
	lastString := false // the value just read was a string
	for {
		if err := p.skipSpace(state == wantNext); err != nil {
			return err
		}
		if p.pos >= len(p.in) {
			switch {
			case state == wantNext && len(p.stack) == 0:
				return nil
			case len(p.stack) > 0:
				return p.truncated(len(p.in), "text ends inside "+p.open())
			default:
				return p.truncated(len(p.in), "no value")
			}
		}
		c := p.in[p.pos]
		switch state {
		case wantValue, wantKey:
			if c == ']' || c == '}' {
				if !closeOK {
					if commaAt < 0 && state == wantValue && len(p.stack) > 0 {
						return p.fail(p.pos, "no value after ':'")
					}
					return p.fail(p.pos, "unexpected '"+string(c)+"'")
				}
				if c != p.closer() {
					return p.fail(p.pos, "'"+string(c)+"' closes "+p.open())
				}
				if commaAt >= 0 {
					p.fixes |= TrailingComma
					p.work += len(p.out) - commaAt
					p.out = append(p.out[:commaAt], p.out[commaAt+1:]...)
				}
				p.closeBracket(c)
				state, lastString = wantNext, false
				continue
			}
			if c == ',' {
				return p.fail(p.pos, "a comma where a value or key belongs")
			}
			if state == wantKey {
				if err := p.key(c); err != nil {
					return err
				}
				state, closeOK, commaAt = wantColon, false, -1
				continue
			}
			closeOK, commaAt = false, -1
			switch {
			case c == '{' || c == '[':
				if len(p.stack) >= p.maxDepth {
					return p.fail(p.pos, deepReason+strconv.Itoa(p.maxDepth))
				}
				p.stack = append(p.stack, c)
				p.out = append(p.out, c)
				p.pos++
				p.work++
				closeOK = true
				if c == '{' {
					state = wantKey
				}
				continue
			case c == '"' || c == '\'':
				if err := p.str(c); err != nil {
					return err
				}
				lastString = true
			case c == '-' || '0' <= c && c <= '9':
				if err := p.number(); err != nil {
					return err
				}
				lastString = false
			case isIdentStart(c):
				if err := p.word(); err != nil {
					return err
				}
				lastString = false
			default:
				return p.fail(p.pos, "unexpected "+quoteChar(p.in[p.pos:])+" where a value belongs")
			}
			state = wantNext
		case wantColon:
			if c != ':' {
				return p.fail(p.pos, "expected ':' after the key, found "+quoteChar(p.in[p.pos:]))
			}
			p.out = append(p.out, ':')
			p.pos++
			p.work++
			state = wantValue
		case wantNext:
			switch {
			case len(p.stack) == 0:
				if lastString && (c == '"' || c == '\'' || isIdentStart(c)) {
					return p.fail(p.pos, "text after the closing quote: a quote inside the string is ambiguous")
				}
				return p.fail(p.pos, "text after the value")
			case c == ',':
				commaAt = len(p.out)
				p.out = append(p.out, ',')
				p.pos++
				p.work++
				closeOK = true
				if p.stack[len(p.stack)-1] == '{' {
					state = wantKey
				} else {
					state = wantValue
				}
			case c == p.closer():
				p.closeBracket(c)
				lastString = false
			case lastString && (c == '"' || c == '\'' || isIdentStart(c)):
				return p.fail(p.pos, "text after the closing quote: a quote inside the string is ambiguous")
			default:
				return p.fail(p.pos, "expected ',' or '"+string(p.closer())+"', found "+quoteChar(p.in[p.pos:]))
			}
		}
	}
}

func (p *parser) closer() byte {
	if len(p.stack) == 0 {
		return 0
	}
	if p.stack[len(p.stack)-1] == '{' {
		return '}'
	}
	return ']'
}

func (p *parser) open() string {
	if len(p.stack) > 0 && p.stack[len(p.stack)-1] == '{' {
		return "an object"
	}
	return "an array"
}

func (p *parser) closeBracket(c byte) {
	p.stack = p.stack[:len(p.stack)-1]
	p.out = append(p.out, c)
	p.pos++
	p.work++
	if p.prefix && len(p.stack) == 0 {
		p.in = p.in[:p.pos] // the value ends here: nothing after it is read
	}
}

func quoteChar(b []byte) string {
	r, _ := utf8.DecodeRune(b)
	return strconv.QuoteRune(r)
}

func isIdentStart(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' || c == '$'
}

func isIdentPart(c byte) bool { return isIdentStart(c) || '0' <= c && c <= '9' }

// isDelim reports whether c may follow a number or a bare word: whitespace,
// punctuation that ends a value, or the start of a comment.
func isDelim(c byte) bool {
	return isSpace(c) || c == ',' || c == ']' || c == '}' || c == ':' || c == '/' || c == '#'
}

// ident returns the end of the identifier at p.pos.
func (p *parser) ident() int {
	i := p.pos
	for i < len(p.in) && isIdentPart(p.in[i]) {
		i++
	}
	p.work += i - p.pos
	return i
}

// key reads an object key: a string in either quotes, or an identifier.
func (p *parser) key(c byte) error {
	switch {
	case c == '"' || c == '\'':
		return p.str(c)
	case isIdentStart(c):
		end := p.ident()
		p.fixes |= UnquotedKey
		p.out = append(p.out, '"')
		p.out = append(p.out, p.in[p.pos:end]...)
		p.out = append(p.out, '"')
		p.pos = end
		return nil
	}
	return p.fail(p.pos, "unexpected "+quoteChar(p.in[p.pos:])+" where a key belongs")
}

// word reads a bare word where a value belongs: JSON's literals, or
// Python's.
func (p *parser) word() error {
	end := p.ident()
	if end < len(p.in) && !isDelim(p.in[end]) {
		return p.fail(p.pos, "bare word "+strconv.Quote(string(p.in[p.pos:end]))+" followed by "+quoteChar(p.in[end:]))
	}
	// The switch on the converted bytes allocates nothing; the word is
	// made a string only for an error.
	var lit string
	switch string(p.in[p.pos:end]) {
	case "true":
		lit = "true"
	case "false":
		lit = "false"
	case "null":
		lit = "null"
	case "True":
		lit = "true"
	case "False":
		lit = "false"
	case "None":
		lit = "null"
	}
	if lit != "" {
		if p.in[p.pos] != lit[0] {
			p.fixes |= PythonLiteral
		}
		p.out = append(p.out, lit...)
		p.pos = end
		return nil
	}
	switch w := string(p.in[p.pos:end]); w {
	case "NaN", "Infinity", "inf", "nan":
		return p.fail(p.pos, w+" is not a JSON number")
	default:
		if end == len(p.in) {
			// A word cut off by the end of the text: "Tr" may have been
			// True, so it is reported as truncated.
			for _, lit := range [...]string{"true", "false", "null", "True", "False", "None"} {
				if strings.HasPrefix(lit, w) {
					return p.truncated(end, "text ends inside "+strconv.Quote(lit))
				}
			}
		}
		return p.fail(p.pos, "bare word "+strconv.Quote(w)+" where a value belongs")
	}
}

// number copies a number written as JSON writes it; any other spelling is
// refused, since its value is a guess (1_000, 0x10, 01) or not a number.
func (p *parser) number() error {
	in, start := p.in, p.pos
	i := start
	digits := func() int {
		j := i
		for j < len(in) && '0' <= in[j] && in[j] <= '9' {
			j++
		}
		return j - i
	}
	if in[i] == '-' {
		i++
	}
	if i == len(in) {
		return p.truncated(i, "text ends inside a number")
	}
	switch {
	case in[i] == '0':
		i++
	case '1' <= in[i] && in[i] <= '9':
		i += digits()
	default:
		return p.fail(start, "not a JSON number")
	}
	if i < len(in) && in[i] == '.' {
		i++
		n := digits()
		if n == 0 && i == len(in) {
			return p.truncated(i, "text ends inside a number")
		}
		if n == 0 {
			return p.fail(start, "not a JSON number: no digit after '.'")
		}
		i += n
	}
	if i < len(in) && (in[i] == 'e' || in[i] == 'E') {
		i++
		if i < len(in) && (in[i] == '+' || in[i] == '-') {
			i++
		}
		n := digits()
		if n == 0 && i == len(in) {
			return p.truncated(i, "text ends inside a number")
		}
		if n == 0 {
			return p.fail(start, "not a JSON number: no digit in the exponent")
		}
		i += n
	}
	p.work += i - start
	if i < len(in) && !isDelim(in[i]) {
		return p.fail(start, "not a JSON number: "+quoteChar(in[i:])+" after the digits")
	}
	p.out = append(p.out, in[start:i]...)
	p.pos = i
	return nil
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// hexRun reports whether b begins with n hex digits.
func hexRun(b []byte, n int) bool {
	if len(b) < n {
		return false
	}
	for _, c := range b[:n] {
		if !isHex(c) {
			return false
		}
	}
	return true
}

// str copies a string in quotes q (" or ') as a JSON string.
func (p *parser) str(q byte) error {
	in, start := p.in, p.pos
	if q == '\'' {
		p.fixes |= SingleQuote
	}
	p.out = append(p.out, '"')
	p.pos++
	p.work++
	p.escAt, p.litAt = -1, -1
	for {
		// Copy the run of bytes that need nothing.
		i := p.pos
		for i < len(in) {
			c := in[i]
			if c == q || c == '\\' || c == '"' || c < 0x20 || c >= 0x80 {
				break
			}
			i++
		}
		p.work += i - p.pos
		p.out = append(p.out, in[p.pos:i]...)
		p.pos = i
		if i == len(in) {
			return p.truncated(start, "unterminated string")
		}
		p.work++
		switch c := in[i]; {
		case c == q:
			p.out = append(p.out, '"')
			p.pos++
			return nil
		case c == '"': // inside single quotes
			p.out = append(p.out, '\\', '"')
			p.pos++
		case c < 0x20:
			p.fixes |= ControlCharacter
			switch c {
			case '\n':
				p.out = append(p.out, '\\', 'n')
			case '\r':
				p.out = append(p.out, '\\', 'r')
			case '\t':
				p.out = append(p.out, '\\', 't')
			default:
				p.out = append(p.out, '\\', 'u', '0', '0', "0123456789abcdef"[c>>4], "0123456789abcdef"[c&15])
			}
			p.pos++
		case c >= 0x80:
			if !utf8.FullRune(in[i:]) {
				return p.truncated(start, "unterminated string")
			}
			r, n := utf8.DecodeRune(in[i:])
			if r == utf8.RuneError && n == 1 {
				return p.fail(i, "invalid UTF-8 in a string")
			}
			p.out = append(p.out, in[i:i+n]...)
			p.pos += n
		default: // a backslash
			if err := p.escape(start, q); err != nil {
				return err
			}
		}
	}
}

// escape reads the escape at p.pos in a string that began at start.
func (p *parser) escape(start int, q byte) error {
	in, i := p.in, p.pos
	if i+1 == len(in) {
		return p.truncated(start, "unterminated string")
	}
	switch e := in[i+1]; e {
	case '"':
		p.out = append(p.out, '\\', e)
		p.pos += 2
	case '\\', '/', 'b', 'f', 'n', 'r', 't':
		if err := p.jsonEscape(i); err != nil {
			return err
		}
		p.out = append(p.out, '\\', e)
		p.pos += 2
	case '\'':
		if q == '"' {
			p.fixes |= InvalidEscape
		}
		p.out = append(p.out, '\'')
		p.pos += 2
	case 'u':
		switch rest := in[i+2:]; {
		case hexRun(rest, 4):
			if err := p.jsonEscape(i); err != nil {
				return err
			}
			p.out = append(p.out, in[i:i+6]...)
			p.pos += 6
		case len(rest) < 4 && hexRun(rest, len(rest)):
			return p.truncated(start, "unterminated string")
		case len(rest) > 0 && rest[0] == '{':
			return p.fail(i, `ambiguous escape \u{`)
		default:
			return p.literalBackslash()
		}
	case 'x':
		if hexRun(in[i+2:], 2) {
			return p.fail(i, `ambiguous escape \x`)
		}
		return p.literalBackslash()
	case 'U':
		if hexRun(in[i+2:], 8) {
			return p.fail(i, `ambiguous escape \U`)
		}
		return p.literalBackslash()
	case 'N':
		if i+2 < len(in) && in[i+2] == '{' {
			return p.fail(i, `ambiguous escape \N{`)
		}
		return p.literalBackslash()
	case '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'a', 'v':
		return p.fail(i, `ambiguous escape \`+string(e))
	default:
		if e < 0x20 {
			return p.fail(i, "backslash before a control character")
		}
		return p.literalBackslash()
	}
	p.work++
	return nil
}

// jsonEscape records a JSON escape at i. A string that also holds a
// backslash JSON cannot read was written by someone who did not escape
// backslashes: its \n or \b may as well be a backslash and a letter
// ("C:\bin\app.exe", "C:\Users\new"), so it is refused rather than read
// either way.
func (p *parser) jsonEscape(i int) error {
	if p.litAt >= 0 {
		return p.fail(i, "a JSON escape in a string that also holds a backslash JSON cannot read")
	}
	if p.escAt < 0 {
		p.escAt = i
	}
	return nil
}

// literalBackslash writes the backslash at p.pos as a character of its own;
// the character after it is read as any other.
func (p *parser) literalBackslash() error {
	if p.escAt >= 0 {
		return p.fail(p.pos, "a backslash that JSON cannot read in a string that also holds JSON escapes")
	}
	if p.litAt < 0 {
		p.litAt = p.pos
	}
	p.fixes |= InvalidEscape
	p.out = append(p.out, '\\', '\\')
	p.pos++
	return nil
}
