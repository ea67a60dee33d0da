package coerce

import (
	"bytes"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/coerce-go/coerce/internal/jsonwire"
)

const personSchema = `{"type": "object", "properties": {"name": {"type": "string"}, "age": {"type": "integer"}}, "required": ["name", "age"]}`

const alice = `{"name": "Alice", "age": 30}`

// replyCase is a reply, what FromReply must make of it: the value (compared
// compact), or the error's sentinel and words; and, for a value, the offset
// the FromReply change names (-1: no such change).
type replyCase struct {
	name   string
	schema string // personSchema if empty
	opts   Options
	reply  string
	want   string
	offset int
	err    error
	words  []string // in the error's text
}

func TestFromReply(t *testing.T) {
	fenced := "```json\n" + alice + "\n```"
	cases := []replyCase{
		// One value, found however it is wrapped.
		{name: "bare", reply: alice, want: alice, offset: -1},
		{name: "bare, whitespace around", reply: "\n  " + alice + "\n", want: alice, offset: -1},
		{name: "prose before", reply: "Here is the person:\n" + alice, want: alice, offset: 20},
		{name: "prose after", reply: alice + "\nHope that helps!", want: alice, offset: 0},
		{name: "prose around", reply: "Sure! " + alice + " Anything else?", want: alice, offset: 6},
		{name: "fence with a language tag", reply: fenced, want: alice, offset: 8},
		{name: "fence without one", reply: "```\n" + alice + "\n```", want: alice, offset: 4},
		{name: "fence with prose around", reply: "Here you go:\n" + fenced + "\nLet me know.", want: alice, offset: 21},
		{name: "fence never closed", reply: "Result:\n```json\n" + alice + "\n", want: alice, offset: 16},
		{name: "fence on one line", reply: "```json " + alice + "```", want: alice, offset: 8},
		{name: "fence indented", reply: "Result:\n   ```JSON\n   " + alice + "\n   ```", want: alice, offset: 22},
		{name: "prose with brackets that are no values", reply: "See [the docs](http://x.io) and {name}: " + alice, want: alice, offset: 40},
		{name: "a fence inside a string of the value", reply: "Here: {\"name\": \"```json\\n{}\\n```\", \"age\": 1}", want: "{\"name\": \"```json\\n{}\\n```\", \"age\": 1}", offset: 6},

		// Several values, one conforms: that one (json_repair #209).
		{name: "an inline example, then the answer", reply: "Here is an example: `{\"foo\": 1}`\n\nFinal answer:\n" + fenced, want: alice, offset: 56},
		{name: "a list, then the answer", reply: "The options are [\"a\", \"b\"].\n\n" + alice, want: alice, offset: 29},
		{name: "an empty object in prose", reply: "Return {} if nothing is found. " + alice, want: alice, offset: 31},
		{name: "the same value twice", reply: "Answer: " + alice + "\n\n" + fenced, want: alice, offset: 8},
		{name: "the same value twice, spaced apart", reply: alice + "\n```json\n{\"name\":\"Alice\",\"age\":30}\n```", want: alice, offset: 0},

		// Repaired and coerced as CoerceJSON does, with Check.
		{name: "near-JSON in a fence", reply: "```python\n{'name': 'Alice', 'age': 30,}\n```", want: alice, offset: 10},
		{name: "a numeric string for an integer", reply: `Done: {"name": "Alice", "age": "30"}`, want: alice, offset: 6},
		{name: "a renamed parameter", schema: `{"type": "object", "properties": {"user_name": {"type": "string"}}, "required": ["user_name"]}`,
			reply: `I found {"userName": "alice"}.`, want: `{"user_name": "alice"}`, offset: 8},
		{name: "an array root", schema: `{"type": "array", "items": {"type": "integer"}}`, reply: `The numbers: [1, "2", 3].`, want: `[1, 2, 3]`, offset: 13},
		{name: "an array root, an object beside it", schema: `{"type": "array", "items": {"type": "integer"}}`, reply: `{"note": 1} and [1]`, want: `[1]`, offset: 16},
		{name: "a union root", schema: `{"anyOf": [{"type": "array", "items": {"type": "integer"}}, {"type": "object"}]}`, reply: `x ["no"] y {"a": 1}`, want: `{"a": 1}`, offset: 11},

		// Two different values conform: neither.
		{name: "two answers", reply: alice + "\n" + `{"name": "Bob", "age": 4}`, err: ErrAmbiguous,
			words: []string{"two values conform, the first at offset 0, the second at offset 29"}},
		{name: "two answers in fences", reply: fenced + "\nor\n```json\n{\"name\": \"Bob\", \"age\": 4}\n```", err: ErrAmbiguous,
			words: []string{"at offset 8", "at offset 52"}},
		{name: "two answers, one repaired", reply: alice + " {'name': 'Bob', 'age': 4}", err: ErrAmbiguous},
		{name: "two any values", schema: `{}`, reply: `[1] [2]`, err: ErrAmbiguous},

		// Cut off: ErrTruncated, whatever else the reply holds.
		{name: "cut off", reply: `Here is your JSON: {"name": "Ali`, err: ErrTruncated, words: []string{"cut off", "at offset 19"}},
		{name: "cut off after an answer", reply: alice + ` and another: {"name": `, err: ErrTruncated},
		{name: "cut off in a closed fence", reply: "```json\n{\"name\": \"Alice\", \"age\": 30\n```", err: ErrTruncated, words: []string{"at offset 8"}},
		{name: "cut off in a fence never closed", reply: "```json\n{\"name\": \"Alice\",", err: ErrTruncated},
		{name: "cut off, an array of another kind", reply: alice + " [1, 2", err: ErrTruncated},

		// A value that cannot be read refuses the reply, even beside one that conforms.
		{name: "a member without its comma", reply: `{"name": "Bob" "age": 4}`, err: ErrSyntax, words: []string{"invalid syntax", "at offset 15"}},
		{name: "a broken value beside an answer", reply: "Example: {\"name\": \"x\", \"age\": 1,, }\nAnswer: " + alice, err: ErrSyntax, words: []string{"at offset 32"}},
		{name: "an ambiguous quote", reply: `Answer: {'name': 'it's', 'age': 3}`, err: ErrSyntax},
		{name: "a raw line break in a string", reply: "```json\n{\"name\": \"Al\nice\", \"age\": 30}\n```\n" + alice, err: ErrSyntax},
		{name: "near-JSON, with StrictJSON", opts: Options{StrictJSON: true}, reply: `{'name': 'Alice', 'age': 30}`, err: ErrSyntax},

		// Nothing conforms: why the first that could have.
		{name: "nothing", reply: "I cannot help with that.", err: ErrSyntax, words: []string{"no JSON object in the reply"}},
		{name: "nothing, an array schema", schema: `{"type": "array"}`, reply: "none", err: ErrSyntax, words: []string{"no JSON array in the reply"}},
		{name: "only prose brackets", reply: "[see below] and {name}", err: ErrSyntax, words: []string{"no JSON object"}},
		{name: "a required name missing", reply: `Here: {"name": "Alice"}`, err: ErrMissing, words: []string{"/age"}},
		{name: "a value that does not convert", reply: `{"name": "Alice", "age": "thirty"}`, err: ErrSyntax, words: []string{"/age"}},
		{name: "an array where an object is declared", reply: `The ages: [30, 31]`, err: ErrKind},
		{name: "a closed object with another name", schema: `{"type": "object", "properties": {"a": {"type": "integer"}}, "additionalProperties": false}`,
			reply: `{"b": 1}`, err: ErrUnknownName},
		{name: "an enum", schema: `{"type": "object", "properties": {"unit": {"enum": ["c", "f"]}}, "required": ["unit"]}`,
			reply: `{"unit": "k"} or {"unit": "F"}`, want: `{"unit": "f"}`, offset: 17},

		// Limits.
		{name: "MaxSize", opts: Options{MaxSize: 10}, reply: alice, err: ErrLimit},
		{name: "MaxDepth", opts: Options{MaxDepth: 3}, reply: `x [[[[1]]]]`, err: ErrLimit, words: []string{"nesting deeper than 3"}},
		{name: "too many values", reply: strings.Repeat(`{"name": "A"} `, maxReplyValues+1), err: ErrLimit, words: []string{"more than 100 object"}},
		{name: "many values of another kind", reply: strings.Repeat(`[1] `, 1000) + alice, want: alice, offset: 4000},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { c.run(t) })
	}
}

func (c replyCase) run(t *testing.T) {
	t.Helper()
	schema := c.schema
	if schema == "" {
		schema = personSchema
	}
	var heard []Change
	o := c.opts
	o.OnChange = func(ch Change) { heard = append(heard, ch) }
	s := mustSchema(t, o, schema)
	out, err := s.FromReply(c.reply)
	if c.err != nil {
		if !errors.Is(err, c.err) || out != nil {
			t.Fatalf("FromReply(%q) = %s, %v; want %v", c.reply, out, err, c.err)
		}
		for _, w := range c.words {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("error %q does not say %q", err, w)
			}
		}
		if len(heard) != 0 {
			t.Errorf("a refused reply reported changes: %v", heard)
		}
		if alone, with := Feedback(err), s.Feedback(err); alone != with {
			t.Errorf("Feedback without the schema:\n%s\nwith it:\n%s", alone, with)
		}
		return
	}
	if err != nil || !bytes.Equal(jsonwire.AppendCompact(nil, out), jsonwire.AppendCompact(nil, []byte(c.want))) {
		t.Fatalf("FromReply(%q) = %s, %v; want %s", c.reply, out, err, c.want)
	}
	taken := -1
	for i, ch := range heard {
		if ch.Rule == FromReply {
			if i != 0 || ch.Path != "" || ch.Found != String {
				t.Errorf("the FromReply change is not first, or not of the reply: %v", heard)
			}
			taken = ch.Offset
		}
	}
	if taken != c.offset {
		t.Errorf("FromReply change at offset %d, want %d (changes %v)", taken, c.offset, heard)
	}
	if c.offset >= 0 && !strings.HasPrefix(c.reply[c.offset:], string(out[:1])) {
		t.Errorf("offset %d is not where the value begins: %q", c.offset, c.reply[c.offset:])
	}
	// Without a listener, the same bytes.
	again, err := mustSchema(t, c.opts, schema).FromReply(c.reply)
	if err != nil || !bytes.Equal(again, out) {
		t.Errorf("without OnChange: %s, %v; with it: %s", again, err, out)
	}
}

// The changes of the value taken come after the FromReply change, and only
// those of the value taken.
func TestFromReplyChanges(t *testing.T) {
	var got []string
	s := mustSchema(t, Options{OnChange: func(c Change) { got = append(got, c.Path+":"+c.Rule.String()) }}, personSchema)
	reply := "Not this one: {'name': 'Bob'}\n```json\n{'name': 'Alice', 'age': '30'}\n```"
	if _, err := s.FromReply(reply); err != nil {
		t.Fatal(err)
	}
	want := ":from-reply :single-quote /age:number-from-text"
	if strings.Join(got, " ") != want {
		t.Errorf("changes %q, want %q", strings.Join(got, " "), want)
	}
	if n := Notice([]Change{{Declared: "object", Found: String, Rule: FromReply}}); !strings.Contains(n, "alone") {
		t.Errorf("notice: %q", n)
	}
}

// Feedback for two values that conform says so.
func TestFromReplyFeedback(t *testing.T) {
	s := mustSchema(t, Options{}, personSchema)
	_, err := s.FromReply(alice + " " + `{"name": "Bob", "age": 4}`)
	fb := s.Feedback(err)
	if !strings.Contains(fb, "more than one value that fits") || !strings.Contains(fb, "Send exactly one") {
		t.Errorf("feedback: %s", fb)
	}
}

// The work of FromReply grows linearly with the reply, whatever it holds:
// counted, not timed.
func TestFromReplyWorkIsLinear(t *testing.T) {
	s := mustSchema(t, Options{}, personSchema)
	for _, unit := range []string{
		"prose and more prose ",
		"[x ",           // a bracket that fails at once
		"{name} ",       // a placeholder
		"[1, [2, [3 ] ", // nested, never closed
		"```json\n[1]\n```\n",
		`{"name": "A"} `, // values that do not conform
		`[[[[[[[[ `,      // deep
		`{"a": "\x41 [1]"} `,
		"`{\"foo\": 1}` ", // inline code
		"{'a': 'it's'} ",
	} {
		var prev int
		for _, k := range []int{1, 10, 100, 1000} {
			reply := strings.Repeat(unit, k) + alice
			work := 0
			workCounted = func(n int) { work += n }
			s.FromReply(reply)
			workCounted = nil
			if work > 200*len(reply)+5000 {
				t.Errorf("%q x%d: work %d for %d bytes", unit, k, work, len(reply))
			}
			if k > 1 && work > 12*prev+5000 {
				t.Errorf("%q x%d: work %d, x%d was %d", unit, k, work, k/10, prev)
			}
			prev = work
		}
	}
}

// fenceRegions splits a reply into prose and fence contents, in order.
func TestFenceRegions(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"prose", "[prose]"},
		{"a\n```json\nX\n```\nb", "[a\n```json\n][X\n][```\nb]"},
		{"```\nX", "[```\n][X]"},
		{"a\n````\n```\nX\n````\nb", "[a\n````\n][```\nX\n][````\nb]"},
		{"```json {\"a\": 1}```", "[```json {\"a\": 1}```]"},
		{"x ```json\nX\n```", "[x ```json\nX\n```]"},
		{"    ```\nX\n```", "[    ```\nX\n```]"},
		{"```\r\nX\r\n```\r\n", "[```\r\n][X\r\n][```\r\n]"},
		{"```\n```", "[```\n][```]"},
	} {
		var got strings.Builder
		fenceRegions([]byte(c.in), func(lo, hi int) bool {
			got.WriteString("[" + c.in[lo:hi] + "]")
			return true
		})
		if got.String() != c.want {
			t.Errorf("%q: regions %q, want %q", c.in, got.String(), c.want)
		}
	}
}

// FuzzFromReply: no panic; a value returned conforms (CoerceJSON with Check
// returns it as it is) and lies in the reply; an error is one of the
// sentinels; the answer is the same twice; the work is linear.
func FuzzFromReply(f *testing.F) {
	for _, s := range []string{
		alice, "Here:\n```json\n" + alice + "\n```\nBye", "`{\"foo\": 1}` then " + alice,
		alice + alice, alice + ` {"name": "Bob", "age": 4}`, `{"name": "Al`, "```json\n{'name': 'x', 'age': 1,}\n```",
		"[see] {name} [1, 2", `{"a": 1 "b": 2}`, "```\n```\n", "[[[[[[[[[[", "{\"name\": \"a\nb\", \"age\": 1}",
		`{"name": "A", "age": "7"} {"name": "A", "age": 7}`, "<tool_call>" + alice + "</tool_call>",
	} {
		f.Add(s)
	}
	s := mustSchema(f, Options{MaxDepth: 64}, personSchema)
	check := mustSchema(f, Options{MaxDepth: 64, Check: true}, personSchema)
	sentinels := []error{ErrSyntax, ErrKind, ErrPrecision, ErrLimit, ErrTruncated, ErrAmbiguous, ErrMissing, ErrUnknownName, ErrEnum}
	f.Fuzz(func(t *testing.T, reply string) {
		work := 0
		workCounted = func(n int) { work += n }
		out, err := s.FromReply(reply)
		workCounted = nil
		if work > 400*len(reply)+20000 {
			t.Fatalf("%q: work %d for %d bytes", reply, work, len(reply))
		}
		again, err2 := s.FromReply(reply)
		if !bytes.Equal(out, again) || (err == nil) != (err2 == nil) || err != nil && err.Error() != err2.Error() {
			t.Fatalf("%q: %s %v, then %s %v", reply, out, err, again, err2)
		}
		if err != nil {
			for _, sentinel := range sentinels {
				if errors.Is(err, sentinel) {
					return
				}
			}
			t.Fatalf("%q: error of no sentinel: %v", reply, err)
		}
		if again, err := check.CoerceJSON(out); err != nil || !bytes.Equal(again, out) {
			t.Fatalf("%q: took %s, which CoerceJSON with Check makes %s, %v", reply, out, again, err)
		}
	})
}

// offsetsOf lists the offsets an ambiguity error names, for the tests.
func offsetsOf(err error) []int {
	var e *Error
	if !errors.As(err, &e) {
		return nil
	}
	i := strings.Index(e.Detail, "offset ")
	first, _ := strconv.Atoi(strings.TrimRight(strings.Fields(e.Detail[i+len("offset "):])[0], ","))
	return []int{first, e.Offset}
}

func TestFromReplyAmbiguityOffsets(t *testing.T) {
	s := mustSchema(t, Options{}, personSchema)
	reply := "First " + alice + " then " + `{"name": "Bob", "age": 4}`
	_, err := s.FromReply(reply)
	got := offsetsOf(err)
	if len(got) != 2 || got[0] != 6 || got[1] != 40 || !strings.HasPrefix(reply[got[1]:], `{"name": "Bob"`) {
		t.Errorf("offsets %v of %v", got, err)
	}
}

// A reply that is an argument object and nothing else is read as
// CoerceJSON with Check reads that object: every case of the corpora
// whose text is a JSON object, under the schema's options and each of
// optionSets, gives the same bytes (those of the value, without the
// whitespace around it) and the same error.
func TestFromReplyOfArgumentsIsCoerceJSONWithCheck(t *testing.T) {
	n, failed := 0, 0
	for _, c := range corpora(t) {
		if _, isObject := argsObject(c.args); !isObject || !jsonwire.Valid(c.args, 0) {
			continue
		}
		for _, o := range append([]Options{c.schema.opts}, optionSets...) {
			n++
			s := c.schema.WithOptions(o)
			o.Check = true
			want, werr := s.WithOptions(o).CoerceJSON(c.args)
			got, err := s.FromReply(string(c.args))
			if werr == nil && (err != nil || !bytes.Equal(got, bytes.TrimSpace(want))) || werr != nil && errText(err) != errText(werr) {
				if failed++; failed <= 10 {
					t.Errorf("%+v: %s: %s: FromReply = %s, %v; CoerceJSON with Check = %s, %v", o, c.name, c.args, got, err, want, werr)
				}
			}
		}
	}
	t.Logf("%d replies, %d disagreements", n, failed)
}
