package jsonwire

import (
	"math"
	"strconv"
	"strings"
	"testing"
)

// TestFloat checks Float against strconv.ParseFloat, bit for bit, on
// numbers its fast path takes and on those it leaves to strconv.
func TestFloat(t *testing.T) {
	for _, c := range []struct {
		in  string
		mag Magnitude
	}{
		{"0", Zero}, {"-0", Zero}, {"-0.0e-400", Zero}, {"0e99999999999999999999", Zero},
		{"10", Finite}, {"2.5", Finite}, {"-0.001", Finite}, {"1e22", Finite}, {"1e23", Finite},
		{"9007199254740993", Finite}, {"0.30000000000000004", Finite}, {"123456789012345678901234567890", Finite},
		{"4.9e-324", Finite}, {"1.7976931348623157e308", Finite},
		{"1e400", Overflow}, {"-1.7976931348623159e308", Overflow}, {"1e-400", Underflow}, {"2.4703282292062327e-324", Underflow},
		// Around the length below which a number without an exponent is
		// judged in one look.
		{"0." + strings.Repeat("0", 304) + "1", Finite}, {"0." + strings.Repeat("0", 305) + "1", Finite},
		{"0." + strings.Repeat("0", 400) + "1", Underflow}, {"-0." + strings.Repeat("0", 400), Zero},
		{"1" + strings.Repeat("0", 305) + ".5", Finite}, {"1" + strings.Repeat("0", 306) + ".5", Finite},
		{"2" + strings.Repeat("0", 308) + ".5", Overflow},
	} {
		f, mag := Float(c.in)
		want, _ := strconv.ParseFloat(c.in, 64)
		if math.Float64bits(f) != math.Float64bits(want) || mag != c.mag || magnitude(c.in, 0, len(c.in)) != c.mag {
			t.Errorf("Float(%.40s) = %v, %d; want %v, %d", c.in, f, mag, want, c.mag)
		}
		if fb, _ := Float([]byte(c.in)); math.Float64bits(fb) != math.Float64bits(f) {
			t.Errorf("Float([]byte %.40s) = %v, want %v", c.in, fb, f)
		}
	}
}

// The fast paths of the codec's numbers, each against the standard
// library's route to the same result. Kept only where they win.

// benchNumbers are numbers as tool arguments and API records hold them.
var benchNumbers = []string{"7", "10", "-42", "1458059302", "2.5", "98.6", "-0.001", "123.456", "1e3", "0.30000000000000004"}

// Float's fast path (fastFloat) against strconv.ParseFloat, which has one
// of its own behind its more general parsing.
func BenchmarkParseFloat(b *testing.B) {
	for _, s := range benchNumbers {
		text := []byte(s)
		b.Run("num="+s+"/impl=jsonwire", func(b *testing.B) {
			for b.Loop() {
				benchFloat, _ = Float(text)
			}
		})
		b.Run("num="+s+"/impl=strconv", func(b *testing.B) {
			for b.Loop() {
				benchFloat, _ = strconv.ParseFloat(string(text), 64)
			}
		})
	}
}

var (
	benchFloat float64
	benchAny   any
	benchBytes []byte
)

// The decoder's path for short integers (smallInt) against its general
// path for every number (anyNumber: the grammar, then ExactInt).
func BenchmarkDecodeNumber(b *testing.B) {
	for _, s := range []string{"7", "10", "-42", "1458059302", "999999999999999"} {
		d := &decoder{s: s + ","}
		b.Run("num="+s+"/impl=jsonwire", func(b *testing.B) {
			for b.Loop() {
				benchAny, _, _ = d.number(0)
			}
		})
		b.Run("num="+s+"/impl=general", func(b *testing.B) {
			for b.Loop() {
				benchAny, _, _ = d.anyNumber(0)
			}
		})
	}
}

// AppendFloat's path for integers against strconv.AppendFloat, which
// writes the same digits for them.
func BenchmarkAppendFloat(b *testing.B) {
	buf := make([]byte, 0, 64)
	for _, f := range []float64{7, 1458059302, -42, 2.5, 0.001} {
		name := strconv.FormatFloat(f, 'g', -1, 64)
		b.Run("num="+name+"/impl=jsonwire", func(b *testing.B) {
			for b.Loop() {
				benchBytes = AppendFloat(buf[:0], f, 64)
			}
		})
		b.Run("num="+name+"/impl=strconv", func(b *testing.B) {
			for b.Loop() {
				benchBytes = strconv.AppendFloat(buf[:0], f, 'f', -1, 64)
			}
		})
	}
}

// Value answers as Decode does, without the boxing.
func TestValueMatchesDecode(t *testing.T) {
	for _, text := range []string{"0", "-0", "5", "-17", "1.5", "0.1", "1e3", "1E+3", "1.0", "9007199254740992", "9007199254740993",
		"9007199254740993.0", "1e22", "1e23", "1.5e300", "1e-7", "1.00000000000000000001", "123456789012345678901234567890",
		"18446744073709551616", "1.7976931348623157e308", "4.9e-324", "0.30000000000000004"} {
		v, err := Decode(text, false, 0)
		if err != nil {
			t.Fatalf("Decode(%s): %v", text, err)
		}
		f, ok := Value(text)
		switch d := v.(type) {
		case float64:
			if !ok || math.Float64bits(f) != math.Float64bits(d) {
				t.Errorf("Value(%s) = %v, %t; Decode gives float64 %v", text, f, ok, d)
			}
		default:
			if ok {
				t.Errorf("Value(%s) = %v, true; Decode gives %#v", text, f, d)
			}
		}
	}
}

// digitRun reads eight bytes at a time: every byte value, at every lane,
// before or after another non-digit, stops it where a byte loop stops.
func TestDigitRun(t *testing.T) {
	want := func(b []byte, i int) int {
		for i < len(b) && b[i]-'0' <= 9 {
			i++
		}
		return i
	}
	buf := make([]byte, 24)
	for c := range 256 {
		for p := range 20 {
			for _, c2 := range []byte{'5', 0, '/', ':', '.', 'e', 0x80, 0xba, 0xff} {
				for k := range buf {
					buf[k] = '0' + byte(k%10)
				}
				buf[p] = byte(c)
				buf[p+2] = c2
				for start := range 3 {
					if got, w := digitRun(buf, start), want(buf, start); got != w {
						t.Fatalf("digitRun(%q, %d) = %d, want %d", buf, start, got, w)
					}
					if got, w := digitRun(string(buf), start), want(buf, start); got != w {
						t.Fatalf("digitRun(string %q, %d) = %d, want %d", buf, start, got, w)
					}
				}
			}
		}
	}
}
