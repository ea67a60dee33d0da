package coerce

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

// truncationDocs are argument texts with a value of every kind, JSON and
// near-JSON: each of their proper prefixes ends inside a value (the
// object, at least, is left open), so each is a call cut off.
var truncationDocs = []string{
	`{"s": "a\"b\u00e9", "n": -12.5e3, "i": 7, "t": true, "f": false, "z": null, "a": [1, "x", [], {}], "o": {"k": [null]}}`,
	`{'s': 'it is', "t": True, 'z': None, a: [1, 2,], "o": {"k": 'v'}, // note
"e": "C:\path"}`,
}

// Truncation in every position of every value kind is ErrTruncated, from
// every entry point: CoerceJSON, Unmarshal, CheckJSON, ToDeclared of the
// text, and Coerce of the text held in a string; never ErrSyntax, and
// never repaired.
func TestTruncationEverywhereIsErrTruncated(t *testing.T) {
	s := schemaOf(t, `{"type":"object","properties":{"s":{"type":"string"},"n":{"type":"number"},"i":{"type":"integer"},
		"a":{"type":"array"},"o":{"type":"object"},"p":{"type":"object"}}}`)
	for _, doc := range truncationDocs {
		for n := 1; n < len(doc); n++ {
			prefix := doc[:n]
			if strings.TrimSpace(prefix) == "" {
				continue
			}
			check := func(how string, err error) {
				t.Helper()
				if !errors.Is(err, ErrTruncated) || errors.Is(err, ErrSyntax) {
					t.Errorf("%s(%q): %v, want ErrTruncated", how, prefix, err)
				}
			}
			out, err := s.CoerceJSON([]byte(prefix))
			check("CoerceJSON", err)
			if string(out) != prefix {
				t.Errorf("CoerceJSON(%q) returned %q, want the text as sent", prefix, out)
			}
			var v any
			check("Unmarshal into any", Unmarshal([]byte(prefix), &v))
			var m map[string]any
			check("Unmarshal into a map", Unmarshal([]byte(prefix), &m))
			check("CheckJSON", s.CheckJSON([]byte(prefix)))
			st := s.Stream()
			for i := range len(prefix) {
				st.Write([]byte(prefix[i : i+1]))
			}
			_, err = st.Close()
			check("a Stream, byte by byte", err)
			_, err = ToDeclared(prefix, "object")
			check("ToDeclared", err)
			_, err = s.Coerce(map[string]any{"p": prefix})
			check("Coerce of the text in a string", err)
			quoted, _ := json.Marshal(map[string]string{"p": prefix})
			_, err = s.CoerceJSON(quoted)
			check("CoerceJSON of the text in a string", err)
		}
	}
}

// The feedback of a call cut off says so, says nothing ran, asks for a
// complete call, smaller or split, and blames no parameter.
func TestFeedbackOfTruncatedCall(t *testing.T) {
	s := schemaOf(t, `{"type":"object","required":["q"],"properties":{"q":{"type":"string"},"tags":{"type":"array"}}}`)
	_, err := s.CoerceJSON([]byte(`{"q": "long query", "tags": ["a", "b`))
	want := "Invalid arguments: 1 problem. Correct it and send the call again.\n" +
		"- the arguments: cut off before their end (at byte 36), so the tool did not run. " +
		"Send the call again, complete: make it smaller, or split the work into several calls."
	if got := s.Feedback(err); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	_, err = s.Coerce(map[string]any{"q": "x", "tags": `["a", "b`})
	want = "Invalid arguments: 1 problem. Correct it and send the call again.\n" +
		"- /tags: expected an array of any values; found the string \"[\\\"a\\\", \\\"b\", " +
		"JSON text cut off before its end, so the tool did not run. Send it complete. Example: [\"value\"]"
	if got := s.Feedback(err); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// Some providers re-send the whole object with each chunk of a stream:
// the same object twice in a row, or an empty one and then one, read as
// that one object, reported with a rule of its own; two objects that
// differ stay an error.
func TestResentObjectReadAsOne(t *testing.T) {
	s := schemaOf(t, `{"type":"object","properties":{"a":{"type":"integer"}}}`)
	for _, tc := range []struct{ in, want string }{
		{`{"a":1}{"a":1}`, `{"a":1}`},
		{`{"a": 1} {"a":1}`, `{"a":1}`},
		{`{}{"a":"2"}`, `{"a":2}`},
		{`{} {"a":1}`, `{"a":1}`},
	} {
		var got []Change
		out, err := s.WithOptions(Options{OnChange: func(c Change) { got = append(got, c) }}).CoerceJSON([]byte(tc.in))
		if err != nil || string(out) != tc.want || len(got) == 0 || got[0].Rule != Resent {
			t.Errorf("%s: got %s, %v, %+v; want %s, reported as resent", tc.in, out, err, got, tc.want)
		}
		var m map[string]any
		if err := Unmarshal([]byte(tc.in), &m); err != nil || m["a"] == nil {
			t.Errorf("Unmarshal(%s): %v, %v", tc.in, m, err)
		}
	}
	for _, in := range []string{`{"a":1}{"a":2}`, `{"a":1}{}`, `{}{}{"a":1}`, `{"a":1}[1]`} {
		if out, err := s.CoerceJSON([]byte(in)); !errors.Is(err, ErrSyntax) || string(out) != in {
			t.Errorf("%s: got %s, %v; want it as sent, ErrSyntax", in, out, err)
		}
	}
}

// ReplayArgs always gives valid JSON, never a closed truncation: the text
// itself, its one near-JSON reading, or {}.
func TestReplayArgs(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"a": 1}`, `{"a": 1}`},
		{`{'a': True}`, `{"a": true}`},
		{`{"a": [1, 2`, `{}`},
		{`{'a': 'it's'}`, `{}`},
		{``, `{}`},
		// Valid JSON is what CoerceJSON reads: UTF-8, which json.Valid
		// does not ask of a string.
		{"{\"a\": \"\xff\"}", `{}`},
	} {
		out, changed := ReplayArgs([]byte(tc.in))
		if string(out) != tc.want || changed != (tc.in != tc.want) {
			t.Errorf("ReplayArgs(%q) = %q, %t; want %q", tc.in, out, changed, tc.want)
		}
	}
	for _, doc := range truncationDocs {
		for n := range len(doc) {
			out, _ := ReplayArgs([]byte(doc[:n]))
			if !json.Valid(out) || n > 0 && string(out) != "{}" {
				t.Errorf("ReplayArgs(%q) = %q: a cut-off call replays as {}", doc[:n], out)
			}
		}
	}
	for _, entry := range fuzzCorpus(t, "FuzzSchemaCoerce") {
		if out, _ := ReplayArgs(entry[1].([]byte)); !json.Valid(out) || !utf8.Valid(out) {
			t.Errorf("ReplayArgs(%q) = %q, not JSON", entry[1], out)
		}
	}
}
