package jsonwire

import "testing"

// PlainInt answers as SkipNumber does for the integers it takes, and takes
// every integer SkipNumber reads as one, whatever follows and wherever the
// input ends.
func TestPlainIntAgreesWithSkipNumber(t *testing.T) {
	nums := []string{
		"0", "-0", "1", "-1", "7", "12", "1234567", "12345678", "123456789",
		"1458059302022549698", "-1458059302022549698", "99999999999999999999999999",
		"00", "01", "-01", "0.5", "1.5", "12345678.5", "1e3", "1E3", "123456789e1",
		"-", "--1", "-a", "+1", ".5", "1.", "1e", "0x1", "a", "",
	}
	for _, num := range nums {
		for _, tail := range []string{"", ",", "}", " ", "]", ", \"k\": 1}", "x", "0", ".", "e"} {
			in := []byte(num + tail)
			end, ok := PlainInt(in, 0)
			var want int
			var isInt bool
			var err *Error
			if len(in) > 0 && (in[0] == '-' || in[0]-'0' <= 9) {
				want, isInt, err = SkipNumber(in, 0)
			} else {
				err = errEOF(0) // not a number: SkipNumber's caller never asks
			}
			if ok != (err == nil && isInt) || ok && end != want {
				t.Errorf("PlainInt(%q) = %d, %v; SkipNumber = %d, %v, %v", in, end, ok, want, isInt, err)
			}
		}
	}
}

// Valid is one value, whitespace around it, valid UTF-8, within the depth.
func TestValid(t *testing.T) {
	for _, c := range []struct {
		in    string
		depth int
		want  bool
	}{
		{` {"a": [1, "x"]} `, 0, true},
		{`1 2`, 0, false},
		{``, 0, false},
		{"\"\xff\"", 0, false},
		{`[[1]]`, 1, false},
		{`[[1]]`, 2, true},
	} {
		if got := Valid(c.in, c.depth); got != c.want {
			t.Errorf("Valid(%q, %d) = %t, want %t", c.in, c.depth, got, c.want)
		}
	}
}
