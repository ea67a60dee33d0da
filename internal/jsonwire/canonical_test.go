package jsonwire

import (
	"strings"
	"testing"
)

// AppendTextAsString writes what decoding and encoding would, when it
// writes anything.
func TestAppendTextAsString(t *testing.T) {
	for _, c := range []struct {
		src  string
		fast bool
	}{
		{`{"channel_id": "1458059302022549698"}`, true},
		{`{}`, true}, {`[]`, true}, {` [1, -2, true, false, null, "x y"] `, true},
		{`{"a": {"b": [1, {"c": 2, "d": 3}]}, "b": 0}`, true},
		{`{"b": 1, "a": 2}`, false}, {`{"a": 1, "a": 2}`, false}, {`{"a": 1, "ab": 2, "b": 3}`, true},
		{`{"a": 1.5}`, false}, {`[1e3]`, false}, {`[-0]`, false}, {`[1234567890123456]`, false}, {`[123456789012345]`, true},
		{`["é"]`, false}, {`["a\"b"]`, false}, {`["<&>"]`, true}, {`{"k\n": 1}`, false},
		{`[[{"z": 1, "y": 2}]]`, false}, {`[{"a": 1}, {"a": 2}]`, true},
		{strings.Repeat("[", 40) + strings.Repeat("]", 40), true},
	} {
		got, ok := AppendTextAsString([]byte("x"), []byte(c.src), 100)
		if ok != c.fast {
			t.Errorf("%s: %v, want %v", c.src, ok, c.fast)
		}
		if !ok {
			if string(got) != "x" {
				t.Errorf("%s: declined but wrote %s", c.src, got)
			}
			continue
		}
		v, err := Decode([]byte(c.src), false, 100)
		if err != nil {
			t.Fatal(err)
		}
		text, err := String(v, 100)
		if err != nil {
			t.Fatal(err)
		}
		want, err := Append([]byte("x"), text, 100)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("%s:\n got %s\nwant %s", c.src, got, want)
		}
	}
	if _, ok := AppendTextAsString(nil, []byte(strings.Repeat("[", 5)+strings.Repeat("]", 5)), 4); ok {
		t.Error("deeper than maxDepth, yet written")
	}
}

func FuzzAppendTextAsString(f *testing.F) {
	for _, s := range []string{`{"a": [1, {"b": "c"}]}`, `[1, 2]`, `{"b": 1, "a": 2}`, `"x"`, `[true, null]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		v, derr := Decode(src, false, 50)
		got, ok := AppendTextAsString(nil, src, 50)
		if derr != nil {
			return // only valid text is given
		}
		if !ok {
			return
		}
		text, err := String(v, 50)
		if err != nil {
			t.Fatalf("%s: written, but encoding fails: %v", src, err)
		}
		want, _ := Append(nil, text, 50)
		if string(got) != string(want) {
			t.Fatalf("%s:\n got %s\nwant %s", src, got, want)
		}
	})
}
