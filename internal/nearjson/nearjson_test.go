package nearjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

// valueOf decodes JSON text with numbers as json.Number, so that two texts
// compare by value with their digits exact.
func valueOf(tb testing.TB, text []byte) any {
	tb.Helper()
	d := json.NewDecoder(bytes.NewReader(text))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		tb.Fatalf("%q: %v", text, err)
	}
	return v
}

// Every repair, alone and with others: the text, the JSON it must give
// (compared by value) and the fixes named.
func TestRepairForms(t *testing.T) {
	for _, c := range []struct {
		name, in, want string
		fixes          Fixes
	}{
		{"python list", `['a', 'b']`, `["a","b"]`, SingleQuote},
		{"python dict", `{'k': True, 'n': None, 'f': False}`, `{"k":true,"n":null,"f":false}`, SingleQuote | PythonLiteral},
		{"python literal only as bare token", `{"a": "True", "b": 'None', "c": True}`, `{"a":"True","b":"None","c":true}`, SingleQuote | PythonLiteral},
		{"single quote with double inside", `{'q': 'say "hi"'}`, `{"q":"say \"hi\""}`, SingleQuote},
		{"single quote escaped", `['it\'s']`, `["it's"]`, SingleQuote},
		{"escaped double in single", `['a\"b']`, `["a\"b"]`, SingleQuote},
		{"apostrophe in double quotes untouched", `{"a": "it's", b: 1}`, `{"a":"it's","b":1}`, UnquotedKey},
		{"trailing comma array", `[1, 2, ]`, `[1,2]`, TrailingComma},
		{"trailing comma object", "{\"a\": 1,\n}", `{"a":1}`, TrailingComma},
		{"trailing comma nested", `{"a": [1,], "b": {"c": 2,},}`, `{"a":[1],"b":{"c":2}}`, TrailingComma},
		{"unquoted keys", `{a: 1, _b: 2, $c: 3, d4: 4}`, `{"a":1,"_b":2,"$c":3,"d4":4}`, UnquotedKey},
		{"unquoted key named like a literal", `{true: 1, None: 2}`, `{"true":1,"None":2}`, UnquotedKey},
		{"line comment", "{\"a\": 1 // one\n}", `{"a":1}`, Comment},
		{"line comment at end", "{\"a\": 1} // done", `{"a":1}`, Comment},
		{"block comment", `{/* k */ "a": /* v */ 1}`, `{"a":1}`, Comment},
		{"hash comment", "{\n # the limit\n \"limit\": 10\n}", `{"limit":10}`, Comment},
		{"comment marker inside string kept", `{'url': "http://x/#y"}`, `{"url":"http://x/#y"}`, SingleQuote},
		{"windows path", `{"path": "C:\path\dir"}`, `{"path":"C:\\path\\dir"}`, InvalidEscape},
		{"windows users path", `{"path": "C:\Users\me"}`, `{"path":"C:\\Users\\me"}`, InvalidEscape},
		{"escapes fine in another string", `{"path": "C:\Users", "text": "a\nb"}`, `{"path":"C:\\Users","text":"a\nb"}`, InvalidEscape},
		{"regex", `{"re": "\d+\.\d*"}`, `{"re":"\\d+\\.\\d*"}`, InvalidEscape},
		{"escaped apostrophe in double", `{"a": "it\'s"}`, `{"a":"it's"}`, InvalidEscape},
		{"backslash u not hex", `["\user"]`, `["\\user"]`, InvalidEscape},
		{"raw newline and tab", "{\"code\": \"a\n\tb\"}", `{"code":"a\n\tb"}`, ControlCharacter},
		{"raw control", "[\"a\x01\"]", `["a\u0001"]`, ControlCharacter},
		{"im_start", "<|im_start|>assistant\n{\"a\": 1}<|im_end|>", `{"a":1}`, TemplateToken},
		{"tool_call tags", "<tool_call>\n{\"a\": 1}\n</tool_call>", `{"a":1}`, TemplateToken},
		{"tool_call inside im", "<|im_start|>assistant\n<tool_call>\n{\"a\": 1}\n</tool_call><|im_end|>", `{"a":1}`, TemplateToken},
		{"python_tag", `<|python_tag|>{"a": 1}<|eom_id|>`, `{"a":1}`, TemplateToken},
		{"llama header", `<|start_header_id|>assistant<|end_header_id|>{"a": 1}<|eot_id|>`, `{"a":1}`, TemplateToken},
		{"mistral", `[TOOL_CALLS]{'a': 1}</s>`, `{"a":1}`, TemplateToken | SingleQuote},
		{"token prefix only", `<tool_call>{"a": 1}`, `{"a":1}`, TemplateToken},
		{"token inside a string kept", `{"a": "<tool_call>"}<|im_end|>`, `{"a":"<tool_call>"}`, TemplateToken},
		{"unicode kept", `{'é': 'ü€𝄞'}`, `{"é":"ü€𝄞"}`, SingleQuote},
		{"valid escapes kept", `['\n\t\u00e9\/\\']`, `["\n\t\u00e9/\\"]`, SingleQuote},
		{"big integer digits kept", `{'id': 123456789012345678901234567890, 'f': 1.000000000000000000001}`, `{"id":123456789012345678901234567890,"f":1.000000000000000000001}`, SingleQuote},
		{"numbers kept", `[0, -0, 1e5, -1.5E-3, 2e+2,]`, `[0,-0,1e5,-1.5E-3,2e+2]`, TrailingComma},
		{"scalar", `'text'`, `"text"`, SingleQuote},
		{"empty containers", `{'a': [], 'b': {}}`, `{"a":[],"b":{}}`, SingleQuote},
		{"all at once", "<tool_call>{name: 'f', // the tool\n 'args': {'x': [1, 2,], 'y': None, 'p': \"C:\\dir\"},}</tool_call>",
			`{"name":"f","args":{"x":[1,2],"y":null,"p":"C:\\dir"}}`,
			TemplateToken | Comment | SingleQuote | UnquotedKey | TrailingComma | PythonLiteral | InvalidEscape},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, fixes, err := Repair([]byte(c.in), Limits{})
			if err != nil {
				t.Fatalf("%s: %v", c.in, err)
			}
			if !json.Valid(out) {
				t.Fatalf("%s: invalid output %s", c.in, out)
			}
			if got, want := valueOf(t, out), valueOf(t, []byte(c.want)); !reflect.DeepEqual(got, want) {
				t.Errorf("%s: got %s, want %s", c.in, out, c.want)
			}
			if fixes != c.fixes {
				t.Errorf("%s: fixes %v, want %v", c.in, fixes, c.fixes)
			}
		})
	}
}

// Valid JSON comes back as the very same bytes, not a copy, with no fixes.
func TestValidUnchanged(t *testing.T) {
	for _, in := range []string{
		`{}`, ` [1, 2.50, 1e400, "a\u0000", {"b": null}] `, `"C:\\path"`, `123456789012345678901234567890`,
		`{"a": "it's", "b": "// not a comment", "c": "<tool_call>"}`, "\"\xff\"",
	} {
		b := []byte(in)
		out, fixes, err := Repair(b, Limits{})
		if err != nil || fixes != 0 || len(out) != len(b) || &out[0] != &b[0] {
			t.Errorf("%s: %s %v %v, want the input itself", in, out, fixes, err)
		}
	}
}

// Each refusal, with the start of its reason. None of these has a single
// reading, or all of them lack text that would have to be invented.
func TestRefusals(t *testing.T) {
	for _, c := range []struct {
		in, reason string
		truncated  bool
	}{
		// Numbers that are not JSON's.
		{`{"n": 1_000}`, "not a JSON number", false},
		{`[NaN]`, "NaN is not a JSON number", false},
		{`[Infinity]`, "Infinity is not a JSON number", false},
		{`[-Infinity]`, "not a JSON number", false},
		{`{'n': 0x10}`, "not a JSON number", false},
		{`{'n': 0o7}`, "not a JSON number", false},
		{`{'n': 1,000}`, "unexpected", false},
		{`[1,000]`, "not a JSON number", false},
		{`{'n': +1}`, "unexpected '+'", false},
		{`{'n': .5}`, "unexpected '.'", false},
		{`{'n': 1.}`, "not a JSON number", false},
		{`{'n': 01}`, "not a JSON number", false},
		{`{'n': 1e}`, "not a JSON number", false},
		{`{'n': 1L}`, "not a JSON number", false},
		{`[inf]`, "inf is not a JSON number", false},
		// Ambiguous quotes.
		{`{'s': 'it's'}`, "text after the closing quote", false},
		{`{"s": "say "hi""}`, "text after the closing quote", false},
		{`'it's'`, "text after the closing quote", false},
		{`['a' 'b']`, "text after the closing quote", false},
		{`{"a": "x"y"}`, "text after the closing quote", false},
		// Ambiguous escapes.
		{`["\x41"]`, `ambiguous escape \x`, false},
		{`["\0"]`, `ambiguous escape \0`, false},
		{`["C:\7z"]`, `ambiguous escape \7`, false},
		{`["C:\apps"]`, `ambiguous escape \a`, false},
		{`["\v"]`, `ambiguous escape \v`, false},
		{`["\U0001F600"]`, `ambiguous escape \U`, false},
		{`["\N{DASH}"]`, `ambiguous escape \N{`, false},
		{`["\u{41}"]`, `ambiguous escape \u{`, false},
		{"[\"a\\\nb\"]", "backslash before a control character", false},
		{`{"path": "C:\bin\app.exe"}`, "ambiguous escape \\a", false},
		{`{"path": "C:\bin\pkg"}`, "a backslash that JSON cannot read", false},
		{`{"path": "C:\Users\new"}`, "a JSON escape in a string", false},
		{`{"re": "\d+\\w"}`, "a JSON escape in a string", false},
		// Nothing is invented.
		{`[1 2]`, "expected ','", false},
		{`{"a" 1}`, "expected ':'", false},
		{`{"a": }`, "no value after ':'", false},
		{`[1,,2]`, "a comma where", false},
		{`[,1]`, "a comma where", false},
		{`{,}`, "a comma where", false},
		{`[1,2],`, "text after the value", false},
		{`{"a": 1}}`, "text after the value", false},
		{`{"a": 1]`, "expected ','", false},
		{`[1}`, "expected ','", false},
		{`[}`, "'}' closes an array", false},
		{``, "no value", true},
		{` // nothing`, "no value", true},
		{`<tool_call></tool_call>`, "no value", true},
		// Unknown words and forms.
		{`{"a": undefined}`, "bare word", false},
		{`{"a": Truely}`, "bare word", false},
		{`{"a": True'}`, "bare word", false},
		{`{"a": u'x'}`, "bare word", false},
		{`{a-b: 1}`, "expected ':'", false},
		{`{1: 2}`, "where a key belongs", false},
		{`{"a": (1, 2)}`, "where a value belongs", false},
		{`{"a": 1 / 2}`, "'/' that does not begin", false},
		{"[\"\xff\"] // x", "invalid UTF-8", false},
		// Tokens are stripped only around the text.
		{`{"a": <tool_call>1</tool_call>}`, "where a value belongs", false},
		{`<foo>{"a": 1}`, "where a value belongs", false},
		// Truncated text fails closed.
		{`{"a": [1, 2`, "text ends inside an array", true},
		{`{"a": 1,`, "text ends inside an object", true},
		{`{"a": "hel`, "unterminated string", true},
		{`['hel`, "unterminated string", true},
		{`["a\`, "unterminated string", true},
		{`["\u00`, "unterminated string", true},
		{"[\"\xc3", "unterminated string", true},
		{`[1, -`, "text ends inside a number", true},
		{`[1.`, "text ends inside a number", true},
		{`[1e`, "text ends inside a number", true},
		{`[1 /* note`, "unterminated comment", true},
		{`<tool_call>{"a": [1, 2</tool_call>`, "text ends inside an array", true},
		{`{"a": 1 // }`, "text ends inside an object", true},
	} {
		out, fixes, err := Repair([]byte(c.in), Limits{})
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("%s: %s %v %v, want an error %q", c.in, out, fixes, err, c.reason)
			continue
		}
		if !strings.Contains(e.Reason, c.reason) || e.Truncated != c.truncated {
			t.Errorf("%s: %q (truncated %v), want %q (truncated %v)", c.in, e.Reason, e.Truncated, c.reason, c.truncated)
		}
		if out != nil || fixes != 0 {
			t.Errorf("%s: error with output %q and fixes %v", c.in, out, fixes)
		}
		if e.Offset < 0 || e.Offset > len(c.in) {
			t.Errorf("%s: offset %d out of the text", c.in, e.Offset)
		}
	}
}

// In Python-literal text (a string in single quotes, True, False or None, a
// # comment, wherever in the text) // right after a value is floor division
// as much as a comment: {'offset': 100//4} means 25 to Python and 100 to a
// reader of comments, so it is refused, at the //. Where a value cannot end
// (after a bracket opens, a comma or a colon) // can only be a comment, and
// text with no sign of Python keeps its // comments after values.
func TestFloorDivisionInPythonLiteralTextIsRefused(t *testing.T) {
	for _, c := range []struct {
		in     string
		offset int
	}{
		{`{'offset': 100//4}`, 14},
		{`{'offset': 100 // 4}`, 15},
		{"{'offset': 100 // 4\n}", 15},
		{"{'offset': 100\n// 4\n}", 15},
		{"{\"offset\": 100 // 4\n, \"exact\": True}", 15},     // True comes after
		{"{\"offset\": 100 // 4\n} # four a page", 15},        // so does the #
		{"{\"offset\": 100 // 4\n, \"page\": 'next'}", 15},    // and the quote
		{"{'n': [1, 2] // 2\n}", 13},                          // after a list
		{"{'n': 'a' // 2\n}", 10},                             // after a string
		{"{'n': None // 2\n}", 11},                            // after a literal
		{"{'n': 1} // 2", 9},                                  // after the whole value
		{"{'a': 1, // a comment\n 'b': 2 // doubtful\n}", 30}, // the second only
	} {
		out, fixes, err := Repair([]byte(c.in), Limits{})
		var e *Error
		if !errors.As(err, &e) || e.Offset != c.offset || !strings.Contains(e.Reason, "floor division") || e.Truncated {
			t.Errorf("%s: got %s %v %v, want a refusal of the // at offset %d", c.in, out, fixes, err, c.offset)
		}
	}
	for _, c := range []struct{ in, want string }{
		{"{'a': 1, // the first\n 'b': 2}", `{"a":1,"b":2}`},
		{"{'a': // the first\n 1}", `{"a":1}`},
		{"[// none yet\n 'a']", `["a"]`},
		{"// a Python dict\n{'a': 1}", `{"a":1}`},
		{"{'a': 1 /* one */}", `{"a":1}`},
		{"{\"a\": 100 // 4\n}", `{"a":100}`},
		{"{a: 100 // four\n, b: true}", `{"a":100,"b":true}`},
	} {
		out, _, err := Repair([]byte(c.in), Limits{})
		if err != nil || !reflect.DeepEqual(valueOf(t, out), valueOf(t, []byte(c.want))) {
			t.Errorf("%s: got %s, %v; want %s", c.in, out, err, c.want)
		}
	}
}

// The offset names the character that could not be read.
func TestErrorOffset(t *testing.T) {
	for _, c := range []struct {
		in     string
		offset int
	}{
		{`{"n": 1_000}`, 6},
		{`{'s': 'it's'}`, 10},
		{`{"a": "hel`, 6},
		{`[1, 2`, 5},
		{`["C:\x41"]`, 4},
	} {
		_, _, err := Repair([]byte(c.in), Limits{})
		var e *Error
		if !errors.As(err, &e) || e.Offset != c.offset {
			t.Errorf("%s: %v, want offset %d", c.in, err, c.offset)
		}
	}
}

// Documents of every form, each with its repairs; used by the prefix, the
// linearity and the fuzz tests.
var samples = []string{
	`{'name': 'search', 'args': {'query': "it's", 'limit': 10, 'tags': ['a', 'b',], 'exact': True, 'after': None}}`,
	"<|im_start|>assistant\n<tool_call>\n{name: \"f\", /* c */ args: {path: \"C:\\dir\", n: -12.5e3, big: 123456789012345678901},\n # h\n}\n</tool_call><|im_end|>",
	`[1, [2, [3, {'a': [true, false, null,],},],],]`,
	"{\"code\": \"line1\n\tline2\", // the code\n 're': '\\d+'} # end",
	`{"valid": [1, "two", {"three": 3.0}], "x": "\u00e9"}`,
}

// Every proper prefix of a document is an error, unless the prefix is
// itself a complete document: then it must hold the same value as the
// whole. No prefix yields a different value silently, so text cut off by a
// token limit is never executed as a shorter call.
func TestTruncationFailsClosed(t *testing.T) {
	for _, doc := range samples {
		full, _, err := Repair([]byte(doc), Limits{})
		if err != nil {
			t.Fatalf("%s: %v", doc, err)
		}
		want := valueOf(t, full)
		for n := 0; n < len(doc); n++ {
			prefix := []byte(doc[:n])
			out, _, err := Repair(prefix, Limits{})
			if err != nil {
				continue
			}
			if got := valueOf(t, out); !reflect.DeepEqual(got, want) {
				t.Errorf("prefix %q of %q: repaired to %s, a different value than %s", prefix, doc, out, full)
			}
		}
	}
}

// A truncation error says so: a prefix that ends inside the value is
// reported as truncated, whatever character it was cut at.
func TestTruncationIsNamed(t *testing.T) {
	doc := `{'a': [1, 'two', {"b": None}], c: 'x\'y'}`
	for n := 1; n < len(doc); n++ {
		_, _, err := Repair([]byte(doc[:n]), Limits{})
		var e *Error
		if !errors.As(err, &e) || !e.Truncated {
			t.Errorf("prefix %q: %v, want a truncation error", doc[:n], err)
		}
	}
}

func TestMaxDepth(t *testing.T) {
	nest := func(n int) []byte {
		return []byte(strings.Repeat("[", n) + "'x'" + strings.Repeat("]", n))
	}
	if _, _, err := Repair(nest(3), Limits{MaxDepth: 3}); err != nil {
		t.Errorf("depth 3, limit 3: %v", err)
	}
	if _, _, err := Repair(nest(4), Limits{MaxDepth: 3}); err == nil || !strings.Contains(err.Error(), "nesting deeper than 3") {
		t.Errorf("depth 4, limit 3: %v", err)
	}
	if _, _, err := Repair(nest(DefaultMaxDepth), Limits{}); err != nil {
		t.Errorf("depth %d, default limit: %v", DefaultMaxDepth, err)
	}
	if _, _, err := Repair(nest(DefaultMaxDepth+1), Limits{}); err == nil {
		t.Errorf("depth %d, default limit: no error", DefaultMaxDepth+1)
	}
}

// Work grows linearly with the input, whatever it holds: the work figure
// of a text repeated k times is at most k times that of one copy, plus a
// constant, and never beyond a few bytes examined per input byte.
func TestWorkIsLinear(t *testing.T) {
	shapes := append([]string{}, samples...)
	shapes = append(shapes,
		`["\d\d\d\d",`, // many invalid escapes
		`[`,            // deep nesting
		`{a: 1, b: 'x', c: True, `,
		`/* c */ // d`+"\n", // comments
		"<tool_call>",       // a run of tokens
		`'`,                 // unterminated quotes
		`"a\`,
		`1_`,
	)
	for _, s := range shapes {
		var prev int
		for _, k := range []int{1, 10, 100, 1000} {
			in := []byte(strings.Repeat(s, k))
			_, _, work, _ := repair(in, Limits{})
			// The template tokens cost the most: every token of the
			// list may be compared at each one removed.
			if work > 64*len(in)+2000 {
				t.Errorf("%q x%d: work %d for %d bytes", s, k, work, len(in))
			}
			if k > 1 && work > 10*prev+2000 {
				t.Errorf("%q x%d: work %d, x%d was %d", s, k, work, k/10, prev)
			}
			prev = work
		}
	}
}

func TestFixesNames(t *testing.T) {
	all := Fixes(1<<len(fixNames)) - 1
	if got := strings.Join(all.Names(), " "); got != "template-token comment python-literal single-quote unquoted-key trailing-comma invalid-escape control-character" {
		t.Errorf("names: %s", got)
	}
	if Fixes(0).String() != "none" || (SingleQuote|TrailingComma).String() != "single-quote,trailing-comma" {
		t.Errorf("String: %q %q", Fixes(0).String(), (SingleQuote | TrailingComma).String())
	}
	if !(SingleQuote | Comment).Has(Comment) || Comment.Has(SingleQuote|Comment) {
		t.Error("Has")
	}
}
