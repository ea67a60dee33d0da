package coerce

import "github.com/coerce-go/coerce/internal/jsonwire"

// shape is what the first and last bytes of a string say it may hold.
type shape uint8

const (
	shapeNone   shape = iota // cannot be JSON object or array text: never parsed
	shapeObject              // {...}
	shapeArray               // [...]
	shapeQuoted              // "...": a JSON string literal, perhaps double-encoded JSON text
	shapeFenced              // ```lang\n...\n```: a markdown fence around JSON text
)

// trimSpace trims JSON whitespace. Unlike strings.TrimSpace it leaves
// Unicode spaces alone: they are not JSON whitespace.
func trimSpace[T ~string | ~[]byte](s T) T {
	i, j := 0, len(s)
	for i < j && jsonwire.IsSpace(s[i]) {
		i++
	}
	for j > i && jsonwire.IsSpace(s[j-1]) {
		j--
	}
	return s[i:j]
}

// sniff classifies s by its first and last non-whitespace bytes and returns
// the text to look at next: s trimmed, or for a fence the text inside it,
// trimmed. It reads a bounded number of bytes whatever len(s) is (the
// fence's opening line at most 32), so a string that cannot be JSON costs
// nanoseconds and allocates nothing.
func sniff[T ~string | ~[]byte](s T) (shape, T) {
	s = trimSpace(s)
	if len(s) < 2 {
		return shapeNone, s
	}
	switch first, last := s[0], s[len(s)-1]; {
	case first == '{' && last == '}':
		return shapeObject, s
	case first == '[' && last == ']':
		return shapeArray, s
	case first == '"' && last == '"':
		return shapeQuoted, s
	case first == '`':
		if inner, ok := fenced(s); ok {
			return shapeFenced, inner
		}
	}
	return shapeNone, s
}

// sniffPlain is sniff for text that may not be wrapped again: the content of
// a fence or of a double-encoded string is either object or array text, or
// not JSON we unwrap.
func sniffPlain[T ~string | ~[]byte](s T) (shape, T) {
	sh, text := sniff(s)
	if sh != shapeObject && sh != shapeArray {
		return shapeNone, text
	}
	return sh, text
}

const maxFenceTag = 32

// fenced returns the content of a markdown fence that makes up all of s (s
// trimmed): an opening line of three backticks and an optional language tag
// of letters, a closing line of three backticks alone, and the text between.
func fenced[T ~string | ~[]byte](s T) (T, bool) {
	const fence = "```"
	if len(s) < 2*len(fence)+1 || string(s[:len(fence)]) != fence || string(s[len(s)-len(fence):]) != fence {
		return s[:0], false
	}
	// The opening line: the tag, then the end of the line.
	i := len(fence)
	for i < len(s) && i-len(fence) <= maxFenceTag && (s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z') {
		i++
	}
	if i < len(s) && s[i] == '\r' {
		i++
	}
	if i >= len(s) || s[i] != '\n' {
		return s[:0], false
	}
	// The closing line: three backticks right after a line break.
	end := len(s) - len(fence)
	if end <= i || s[end-1] != '\n' {
		return s[:0], false
	}
	if end-1 == i { // one line break closes the opening line and opens the closing one
		return s[:0], true
	}
	return trimSpace(s[i+1 : end-1]), true
}
