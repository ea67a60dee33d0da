package coerce

import (
	"fmt"
	"strings"
	"testing"
)

// shapeName names a shape for failure messages.
func shapeName(s shape) string {
	switch s {
	case shapeNone:
		return "none"
	case shapeObject:
		return "object"
	case shapeArray:
		return "array"
	case shapeQuoted:
		return "quoted"
	case shapeFenced:
		return "fenced"
	}
	return fmt.Sprintf("shape(%d)", uint8(s))
}

// sniffCases: what the first and last bytes of a string say, and the text
// to look at next (trimmed; for a fence, its content trimmed).
var sniffCases = []struct {
	in    string
	shape shape
	text  string
}{
	{`{"a":1}`, shapeObject, `{"a":1}`},
	{`{}`, shapeObject, `{}`},
	{" \t\r\n{\"a\":1}\r\n\t ", shapeObject, `{"a":1}`},
	{`{ not json }`, shapeObject, `{ not json }`}, // the sniff does not parse
	{`[1,2]`, shapeArray, `[1,2]`},
	{`[]`, shapeArray, `[]`},
	{"\n[ ]\n", shapeArray, `[ ]`},
	{`"x"`, shapeQuoted, `"x"`},
	{`""`, shapeQuoted, `""`},
	{` "{\"a\":1}" `, shapeQuoted, `"{\"a\":1}"`},

	// Short strings.
	{``, shapeNone, ``},
	{` `, shapeNone, ``},
	{`{`, shapeNone, `{`},
	{`[`, shapeNone, `[`},
	{`"`, shapeNone, `"`},
	{"`", shapeNone, "`"},
	{" { ", shapeNone, "{"},
	{`5`, shapeNone, `5`},
	{`ab`, shapeNone, `ab`},

	// Mismatched ends and words.
	{`{]`, shapeNone, `{]`},
	{`[}`, shapeNone, `[}`},
	{`{"a":1`, shapeNone, `{"a":1`},
	{`[1`, shapeNone, `[1`},
	{`"x`, shapeNone, `"x`},
	{`hello`, shapeNone, `hello`},
	{`null`, shapeNone, `null`},
	{`{"a":1} x`, shapeNone, `{"a":1} x`},

	// JSON whitespace only: Unicode spaces are not trimmed.
	{"\u00a0{}", shapeNone, "\u00a0{}"},
	{"{}\u00a0", shapeNone, "{}\u00a0"},
	{"\u2003[1]\u2003", shapeNone, "\u2003[1]\u2003"},
	{"\v[1]", shapeNone, "\v[1]"},
	{"\f{}", shapeNone, "\f{}"},
	{"\u00a0\"x\"", shapeNone, "\u00a0\"x\""},

	// Fences.
	{"```json\n{\"a\":1}\n```", shapeFenced, `{"a":1}`},
	{"```\n[1]\n```", shapeFenced, `[1]`},
	{"```JSON\n{}\n```", shapeFenced, `{}`},
	{"```Json\n{}\n```", shapeFenced, `{}`},
	{"```json\r\n{}\r\n```", shapeFenced, `{}`},
	{"```\r\n[1]\r\n```", shapeFenced, `[1]`},
	{"  ```json\n{}\n```\n\n", shapeFenced, `{}`},
	{"```json\n\n  {}  \n\n```", shapeFenced, `{}`},
	{"```json\n{\n  \"a\": 1\n}\n```", shapeFenced, "{\n  \"a\": 1\n}"},
	{"```json\nhello\n```", shapeFenced, `hello`}, // a fence; what it holds is the next question
	{"```json\n\n```", shapeFenced, ``},
	{"```json\n```", shapeFenced, ``},
	{"```\n```", shapeFenced, ``},
	{"```json5\n{}\n```", shapeNone, "```json5\n{}\n```"},
	{"```1\n{}\n```", shapeNone, "```1\n{}\n```"},
	{"```c++\n{}\n```", shapeNone, "```c++\n{}\n```"},
	{"```json {}\n```", shapeNone, "```json {}\n```"},
	{"```json\n{}```", shapeNone, "```json\n{}```"},
	{"```json{}\n```", shapeNone, "```json{}\n```"},
	{"```json\n{}\n```\ntext", shapeNone, "```json\n{}\n```\ntext"},
	{"```json\n{}\n``` text", shapeNone, "```json\n{}\n``` text"},
	{"text\n```json\n{}\n```", shapeNone, "text\n```json\n{}\n```"},
	{"``json\n{}\n``", shapeNone, "``json\n{}\n``"},
	{"`{}`", shapeNone, "`{}`"},
	{"```", shapeNone, "```"},
	{"``````", shapeNone, "``````"},
}

func TestSniff(t *testing.T) {
	for _, c := range sniffCases {
		var sh shape
		var text string
		if !noPanic(t, "sniff", c.in, func() { sh, text = sniff(c.in) }) {
			continue
		}
		if sh != c.shape || text != c.text {
			t.Errorf("sniff(%q) = %s, %q; want %s, %q", c.in, shapeName(sh), text, shapeName(c.shape), c.text)
		}
	}
}

// noPanic runs f, reporting a panic as a failure of fn(in) so that the
// other rows still run; it reports whether f returned.
func noPanic(t *testing.T, fn, in string, f func()) (ok bool) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Errorf("%s(%q) panicked: %v", fn, in, r)
		}
	}()
	f()
	return true
}

// sniffPlain is for the content of a fence or of a double-encoded string,
// which may not be wrapped again: only {…} and […] are left.
func TestSniffPlain(t *testing.T) {
	for _, c := range sniffCases {
		want := c.shape
		if want != shapeObject && want != shapeArray {
			want = shapeNone
		}
		var sh shape
		if !noPanic(t, "sniffPlain", c.in, func() { sh, _ = sniffPlain(c.in) }) {
			continue
		}
		if sh != want {
			t.Errorf("sniffPlain(%q) = %s, want %s", c.in, shapeName(sh), shapeName(want))
		}
	}
}

func TestFenced(t *testing.T) {
	for _, c := range []struct {
		in   string
		want string
		ok   bool
	}{
		{"```json\n{}\n```", "{}", true},
		{"```\n[1]\n```", "[1]", true},
		{"```json\r\n[1]\r\n```", "[1]", true},
		{"```json\n```", "", true},
		{"```\n```", "", true},
		{"```json\n\n```", "", true},
		{"```json\n\"x\"\n```", `"x"`, true},
		{"```json5\n{}\n```", "", false},
		{"```json\n{}```", "", false},
		{"```json\n{}\n```x", "", false},
		{"x```json\n{}\n```", "", false},
		{"```json\n{}\n", "", false},
		{"", "", false},
		{"```", "", false},
	} {
		var got string
		var ok bool
		if !noPanic(t, "fenced", c.in, func() { got, ok = fenced(c.in) }) {
			continue
		}
		if ok != c.ok || ok && got != c.want {
			t.Errorf("fenced(%q) = %q, %v; want %q, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

func TestTrimSpace(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", ""},
		{" \t\r\n", ""},
		{" x ", "x"},
		{"\r\n\tx y\t\r\n", "x y"},
		{"\u00a0x\u00a0", "\u00a0x\u00a0"},
		{"\u2028x", "\u2028x"},
		{"\ufeffx", "\ufeffx"},
		{"\vx\f", "\vx\f"},
		{" \u00a0 ", "\u00a0"},
	} {
		if got := trimSpace(c.in); got != c.want {
			t.Errorf("trimSpace(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// The sniff decides without allocating, and reads a bounded number of
// bytes whatever the length.
// sniffSink keeps the compiler from dropping a sniff whose result is unused.
var sniffSink shape

func TestSniffAllocs(t *testing.T) {
	inputs := []string{strings.Repeat("x", 1<<16), "[" + strings.Repeat(" ", 1<<16) + "1]"}
	for _, c := range sniffCases {
		inputs = append(inputs, c.in)
	}
	for _, in := range inputs {
		if allocs := testing.AllocsPerRun(100, func() { sniffSink, _ = sniff(in) }); allocs != 0 {
			t.Errorf("sniff(%.20q...): %v allocations, want 0", in, allocs)
		}
	}
}
