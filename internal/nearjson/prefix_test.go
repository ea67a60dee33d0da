package nearjson

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// RepairPrefix reads the value at the start of the text and nothing after
// it, by Repair's rules.
func TestRepairPrefix(t *testing.T) {
	for _, c := range []struct {
		in, json string
		n        int
		fixes    Fixes
	}{
		{`{"a": 1} and then prose`, `{"a": 1}`, 8, 0},
		{`[1, 2]]]`, `[1, 2]`, 6, 0},
		{`{'a': True} /* a comment that never ends`, `{"a": true}`, 11, SingleQuote | PythonLiteral},
		// A // after the value is not read, so it cannot make the Python
		// text doubtful (Repair refuses {'a': 1} // c, which it reads).
		{`{'a': 1} // c`, `{"a": 1}`, 8, SingleQuote},
		{"{\"a\": [1, 2,], // c\n}```", "{\"a\": [1, 2] \n}", 21, Comment | TrailingComma},
		{`{"text": "literal } and ]"} more`, `{"text": "literal } and ]"}`, 27, 0},
	} {
		p, err := RepairPrefix([]byte(c.in), Limits{})
		if err != nil || p.Len != c.n || p.Fixes != c.fixes || !bytes.Equal(trimmed(p.JSON), []byte(c.json)) {
			t.Errorf("%q: got %q len %d %v %v, want %q len %d %v", c.in, p.JSON, p.Len, p.Fixes, err, c.json, c.n, c.fixes)
		}
	}
}

func trimmed(b []byte) []byte { return bytes.TrimSpace(b) }

// Errors say where reading stopped, whether the text was cut off, and
// whether it went wrong after a member of its own (JSON gone wrong) or at
// once (prose with a bracket in it).
func TestRepairPrefixErrors(t *testing.T) {
	for _, c := range []struct {
		in             string
		offset         int
		truncated      bool
		members, deep  bool
		reasonFragment string
	}{
		{`[see below]`, 1, false, false, false, "bare word"},
		{`{name} is a placeholder`, 5, false, false, false, "expected ':'"},
		{`{"a": 1 "b": 2}`, 8, false, true, false, "expected ','"},
		{`[1, 2, and 3]`, 7, false, true, false, "bare word"},
		{`{"a": "cut`, 6, true, true, false, "unterminated"},
		{`[1, 2`, 5, true, true, false, "ends inside"},
		{`{'a': 'it's'}`, 10, false, true, false, "ambiguous"},
		{`[[[`, 2, false, false, true, "nesting"},
		{`prose`, 0, false, false, false, "no '['"},
	} {
		limits := Limits{}
		if c.deep {
			limits.MaxDepth = 2
		}
		p, err := RepairPrefix([]byte(c.in), limits)
		var e *Error
		if !errors.As(err, &e) || e.Offset != c.offset || e.Truncated != c.truncated || p.Members != c.members || p.Deep != c.deep || !strings.Contains(e.Reason, c.reasonFragment) {
			t.Errorf("%q: got %+v %v, want offset %d truncated %v members %v deep %v (%s)", c.in, p, err, c.offset, c.truncated, c.members, c.deep, c.reasonFragment)
		}
	}
}

// Where the whole text is a value and what follows it is whitespace,
// RepairPrefix and Repair agree.
func TestRepairPrefixAgreesWithRepair(t *testing.T) {
	for _, s := range append(append([]string{}, samples...), `{'a': [1, 2,], b: None}`, `["C:\path"]`, "{\"a\": 1 # c\n}") {
		if s == "" || s[0] != '[' && s[0] != '{' {
			continue
		}
		out, fixes, err := Repair([]byte(s), Limits{})
		p, perr := RepairPrefix([]byte(s), Limits{})
		if (err == nil) != (perr == nil) {
			t.Errorf("%q: Repair %v, RepairPrefix %v", s, err, perr)
			continue
		}
		if err == nil && (!bytes.Equal(trimmed(out), trimmed(p.JSON)) || fixes != p.Fixes) {
			t.Errorf("%q: Repair %q %v, RepairPrefix %q %v", s, out, fixes, p.JSON, p.Fixes)
		}
	}
}

// A caller that goes on from where each read stopped reads a text of any
// shape in work linear in its size.
func TestRepairPrefixWorkIsLinear(t *testing.T) {
	for _, s := range []string{`[x `, `{"a": 1} `, `[1, [2, `, `{"k": "\x41 [1]"} `, `[[[[`, `['a', `, `{a: `, `[1_0 `} {
		var prev int
		for _, k := range []int{1, 10, 100, 1000} {
			in := []byte(strings.Repeat(s, k))
			work := scanAll(in)
			if work > 16*len(in)+100 {
				t.Errorf("%q x%d: work %d for %d bytes", s, k, work, len(in))
			}
			if k > 1 && work > 10*prev+100 {
				t.Errorf("%q x%d: work %d, x%d was %d", s, k, work, k/10, prev)
			}
			prev = work
		}
	}
}

// scanAll reads every value of in, one after another, going on from where
// each read stopped, and returns the work done.
func scanAll(in []byte) int {
	work := 0
	for i := 0; i < len(in); {
		j := bytes.IndexAny(in[i:], "[{")
		if j < 0 {
			return work + len(in) - i
		}
		work += j
		i += j
		p, err := RepairPrefix(in[i:], Limits{MaxDepth: 64})
		work += p.Work
		var e *Error
		switch {
		case err == nil:
			i += p.Len
		case errors.As(err, &e) && !e.Truncated:
			i += max(e.Offset, 1)
		default:
			return work
		}
	}
	return work
}

// FuzzRepairPrefix: no panic; a value read is JSON (as Repair of its text
// gives it), within the text; an error's offset is inside the text; the
// work is linear.
func FuzzRepairPrefix(f *testing.F) {
	for _, s := range []string{
		`{"a": 1} prose`, `[1, 2]]`, `{'a': True} // c`, `{"a": 1 "b"}`, `[see below]`, `[[[[`,
		"{\"a\": [1,], # c\n}```", `{"a": "cut`, `{'offset': 100//4}`, `[1] [2]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		if len(in) == 0 || in[0] != '[' && in[0] != '{' {
			in = append([]byte{'['}, in...)
		}
		orig := bytes.Clone(in)
		p, err := RepairPrefix(in, Limits{MaxDepth: 64})
		if !bytes.Equal(in, orig) {
			t.Fatalf("%q: the input was modified", orig)
		}
		if p.Work > 64*len(in)+2000 {
			t.Fatalf("%q: work %d", in, p.Work)
		}
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.Offset < 0 || e.Offset > len(in) || p.JSON != nil {
				t.Fatalf("%q: %+v %v", in, p, err)
			}
			return
		}
		if p.Len < 2 || p.Len > len(in) {
			t.Fatalf("%q: length %d", in, p.Len)
		}
		out, fixes, rerr := Repair(in[:p.Len], Limits{MaxDepth: 64})
		if rerr != nil || fixes != p.Fixes || !bytes.Equal(out, p.JSON) {
			t.Fatalf("%q: RepairPrefix %q %v, Repair of its %d bytes %q %v %v", in, p.JSON, p.Fixes, p.Len, out, fixes, rerr)
		}
	})
}
