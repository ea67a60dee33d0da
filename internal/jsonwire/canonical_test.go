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

func TestIsFloatText(t *testing.T) {
	for _, s := range []string{"0", "-0", "7", "1.25", "-3.5", "0.5", "0.000001", "0.0000011", "123456789012345",
		"1234567890123456", "12345678901234.5", "1234567890123.45", "0.123456789012345", "0.1234567890123456",
		"1.0", "1e3", "1E3", "1.5e2", "0.0000001", "100", "1.10", "007", "-", "9007199254740993", "0.30000000000000004",
		"100000000000000000000", "123456.789"} {
		f, ok := Value([]byte(s))
		want := ok && string(AppendFloat(nil, f, 64)) == s
		if got := IsFloatText([]byte(s)); got && !want {
			t.Errorf("IsFloatText(%s) = true, but AppendFloat writes %s", s, AppendFloat(nil, f, 64))
		} else if got != want && len(s) <= 16 && s != "100000000000000000000" {
			t.Logf("IsFloatText(%s) = %v (AppendFloat writes %s): declined, which is allowed", s, got, AppendFloat(nil, f, 64))
		}
	}
}

func FuzzIsFloatText(f *testing.F) {
	for _, s := range []string{"1.25", "0.000001", "123456789012345", "-0", "1.5e2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !IsNumber([]byte(s)) || !IsFloatText([]byte(s)) {
			return
		}
		if f, ok := Value([]byte(s)); !ok || string(AppendFloat(nil, f, 64)) != s {
			t.Fatalf("IsFloatText(%s), but AppendFloat writes %s", s, AppendFloat(nil, f, 64))
		}
	})
}
