package nearjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"
)

// FuzzRepair checks the contract on any bytes: no panic; valid JSON comes
// back as itself with no fixes; anything else is valid JSON with at least
// one fix, or an *Error whose offset lies in the text; and the work is
// linear in the input.
func FuzzRepair(f *testing.F) {
	for _, s := range samples {
		f.Add([]byte(s))
	}
	for _, s := range []string{
		`{"a": 1}`, `['a', 'b']`, `{'k': True, 'n': None}`, `[1, 2,]`, `{a: 1}`,
		"{\"a\": 1 // c\n}", `{"p": "C:\path"}`, `<tool_call>{"a": 1}</tool_call>`,
		`'it's'`, `"say "hi""`, `[1_000]`, `[NaN]`, `[0x10]`, `{"a": [1, 2`, `["\x41"]`,
		"[\"a\tb\"]", `/* x */ [1]`, `[[[[[[`, `{"a": "\ud800"}`,
		`{'offset': 100//4}`, "{\"offset\": 100 // 4\n, 'b': True}", "{'a': 1, // c\n 'b': 2}",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		orig := bytes.Clone(in)
		out, fixes, work, err := repair(in, Limits{MaxDepth: 64})
		if !bytes.Equal(in, orig) {
			t.Fatalf("%q: the input was modified", orig)
		}
		if work > 64*len(in)+2000 {
			t.Fatalf("%q: work %d for %d bytes", in, work, len(in))
		}
		if json.Valid(in) {
			if err != nil || fixes != 0 || !bytes.Equal(out, in) {
				t.Fatalf("%q is JSON: got %q %v %v", in, out, fixes, err)
			}
			return
		}
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.Offset < 0 || e.Offset > len(in) || out != nil || fixes != 0 {
				t.Fatalf("%q: %q %v %#v", in, out, fixes, err)
			}
			return
		}
		if !json.Valid(out) {
			t.Fatalf("%q: repaired to invalid JSON %q (%v)", in, out, fixes)
		}
		if fixes == 0 {
			t.Fatalf("%q: repaired to %q with no fix named", in, out)
		}
		// The output is JSON, so repairing it again changes nothing.
		again, fixes2, err := Repair(out, Limits{MaxDepth: 64})
		if err != nil || fixes2 != 0 || !bytes.Equal(again, out) {
			t.Fatalf("%q: second repair of %q gave %q %v %v", in, out, again, fixes2, err)
		}
	})
}
