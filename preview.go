package coerce

import (
	"encoding/json"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Previews: the few bytes of a value that a change, an error message or
// a feedback text shows. One writer makes them all, from the value's
// beginning: a value is never encoded whole to show its first bytes, so
// that a preview costs at most its length (and the keys of the objects it
// opens, sorted), however large or deep the value is.

// PreviewLen bounds Change.Preview, so that reporting a change never
// copies more than a few bytes of an argument, however long.
const PreviewLen = 40

// preview is the beginning of a scalar's text, at most PreviewLen bytes,
// as Change.Preview holds it: a string as it is, a number or boolean as
// its text; "" for anything else.
func preview(v any) string {
	switch x := v.(type) {
	case string:
		return cut(x, PreviewLen)
	case bool:
		return strconv.FormatBool(x)
	}
	switch kindOf(v) {
	case kindNumber:
		s, _ := numberText(v)
		return cut(s, PreviewLen)
	case kindString:
		return cut(stringOf(v), PreviewLen)
	case kindBool:
		return strconv.FormatBool(reflect.Indirect(reflect.ValueOf(v)).Bool())
	}
	return ""
}

// Preview is the beginning of a value, on one line, for a log or a
// message: a string's first PreviewLen bytes as they are (cut at a
// character boundary), any other value's JSON text's, read from the
// value's beginning and never encoded whole, however large or deep it is.
// Line breaks, other control characters and the Unicode line separators
// become spaces. It is what the integrations log of a value they reject.
func Preview(v any) string {
	if s, ok := v.(string); ok {
		return oneLine(cut(s, PreviewLen))
	}
	return strings.TrimSuffix(previewJSON(v, PreviewLen), "...")
}

// previewJSON is the beginning of v's JSON text (keys sorted, HTML not
// escaped, as the results are written), at most n bytes, cut at a
// character boundary and marked "..." when cut. A value with no JSON
// text of its own here (a Go struct, a typed map) shows its Go type.
func previewJSON(v any, n int) string {
	p := previewer{max: n}
	p.value(v)
	if len(p.buf) > n {
		return oneLine(cut(string(p.buf), n)) + "..."
	}
	return oneLine(string(p.buf))
}

// A previewer writes JSON text until it holds more than max bytes.
type previewer struct {
	buf []byte
	max int
}

func (p *previewer) full() bool { return len(p.buf) > p.max }

func (p *previewer) value(v any) {
	if p.full() {
		return
	}
	switch x := v.(type) {
	case nil:
		p.buf = append(p.buf, "null"...)
	case string:
		// More than max bytes of the string cannot show: the quote of its
		// first max+1 bytes is enough to be cut.
		p.buf, _ = appendJSON(p.buf, cut(x, p.max+1), 0)
	case bool:
		p.buf = strconv.AppendBool(p.buf, x)
	case json.RawMessage:
		p.buf = append(p.buf, strings.TrimSpace(cut(string(x), p.max+1))...)
	case map[string]any:
		p.buf = append(p.buf, '{')
		for i, k := range slices.Sorted(maps.Keys(x)) {
			if p.full() {
				return
			}
			if i > 0 {
				p.buf = append(p.buf, ',')
			}
			p.buf, _ = appendJSON(p.buf, cut(k, p.max+1), 0)
			p.buf = append(p.buf, ':')
			p.value(x[k])
		}
		p.buf = append(p.buf, '}')
	case []any:
		p.buf = append(p.buf, '[')
		for i, e := range x {
			if p.full() {
				return
			}
			if i > 0 {
				p.buf = append(p.buf, ',')
			}
			p.value(e)
		}
		p.buf = append(p.buf, ']')
	default:
		switch kindOf(v) {
		case kindNumber:
			s, _ := numberText(v)
			p.buf = append(p.buf, s...)
		case kindString:
			p.buf, _ = appendJSON(p.buf, cut(stringOf(v), p.max+1), 0)
		case kindBool:
			p.buf = append(p.buf, boolText(v)...)
		case kindNull:
			p.buf = append(p.buf, "null"...)
		default:
			p.buf = append(p.buf, "(Go "...)
			p.buf = append(p.buf, reflect.TypeOf(v).String()...)
			p.buf = append(p.buf, ')')
		}
	}
}

// cut shortens s to at most n bytes, at a character boundary.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i]
}

// cutMarked is cut, marking a cut with "...".
func cutMarked(s string, n int) string {
	if c := cut(s, n); len(c) < len(s) {
		return c + "..."
	}
	return s
}

// oneLine replaces in s what could end a line, or not print, in a text
// that a model or a log reads: control characters and the Unicode line
// and paragraph separators become a space, invalid UTF-8 U+FFFD. Text of
// the arguments goes through it (or through a JSON quote) before it
// reaches feedback.
func oneLine(s string) string {
	clean := true
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r < 0x20 || r == 0x7f || r == '\u2028' || r == '\u2029' || r == utf8.RuneError && n == 1 {
			clean = false
			break
		}
		i += n
	}
	if clean {
		return s
	}
	var b strings.Builder
	for _, r := range s { // invalid UTF-8 ranges as U+FFFD
		if r < 0x20 || r == 0x7f || r == '\u2028' || r == '\u2029' {
			r = ' '
		}
		b.WriteRune(r)
	}
	return b.String()
}
