package nearjson

import "strings"

// A Prefix is the value that text begins with, as RepairPrefix read it.
type Prefix struct {
	// JSON is the value written as JSON: text[:Len] itself when that is
	// JSON, with no fixes.
	JSON []byte
	// Len is the number of bytes of text the value takes, from its opening
	// bracket to its closing one.
	Len int
	// Fixes are the repairs the value took.
	Fixes Fixes
	// Members is set, on an error, when the text read before it held a
	// ':' or ',' of the value's own: JSON that went wrong after its first
	// member, rather than prose with a bracket in it ("[see below]",
	// "{name}"), which fails at its first word.
	Members bool
	// Deep is set, on an error, when the value nests deeper than
	// Limits.MaxDepth.
	Deep bool
	// Work is the number of bytes examined, as Repair counts them: what a
	// caller that reads many values out of one text adds up to show that
	// its work is linear.
	Work int
}

// RepairPrefix reads the one array or object that text begins with (text[0]
// is '[' or '{') by the rules of Repair, and stops at its closing bracket:
// what follows is not read. It is Repair for a value inside other text, such
// as a model's reply, where a caller looks for values one after another.
//
// It returns the value and its length, or an *Error: where the text is no
// such value, Offset is where reading stopped, so that a caller that goes on
// from there reads each byte a bounded number of times; Truncated is set
// when the text ends inside the value. Unlike Repair it never returns text
// as it is without reading it (no json.Valid first: that would read what
// follows the value), and it removes no chat-template tokens.
func RepairPrefix(text []byte, limits Limits) (Prefix, error) {
	p := parser{in: text, maxDepth: limits.MaxDepth, divAt: -1, prefix: true}
	if p.maxDepth <= 0 {
		p.maxDepth = DefaultMaxDepth
	}
	if len(text) == 0 || text[0] != '[' && text[0] != '{' {
		return Prefix{}, p.fail(0, "no '[' or '{' at the start of the text")
	}
	err := p.parse()
	if err == nil {
		err = p.pythonDivision()
	}
	if err != nil {
		e, _ := err.(*Error)
		return Prefix{Members: members(p.out), Deep: e != nil && strings.HasPrefix(e.Reason, deepReason), Work: p.work}, err
	}
	out := p.out
	if p.fixes == 0 {
		out = text[:len(p.in)]
	}
	return Prefix{JSON: out, Len: len(p.in), Fixes: p.fixes, Work: p.work}, nil
}

// deepReason begins the reason of the error of a value nested deeper than
// the limit (see parse).
const deepReason = "nesting deeper than "

// members reports whether out, the JSON a failed read wrote, holds a ':' or
// ',' outside its strings.
func members(out []byte) bool {
	in := false
	for i := 0; i < len(out); i++ {
		switch c := out[i]; {
		case in && c == '\\':
			i++
		case c == '"':
			in = !in
		case !in && (c == ':' || c == ','):
			return true
		}
	}
	return false
}
