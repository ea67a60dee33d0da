package jsonwire

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"
)

// encStd writes v as encoding/json does with HTML escaping off, without the
// trailing newline.
func encStd(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// encCheck checks that appendJSON writes v as encoding/json does, appending
// to a non-empty dst too.
func encCheck(t *testing.T, v any) {
	t.Helper()
	want, werr := encStd(v)
	got, err := Append(nil, v, 0)
	if werr != nil {
		t.Fatalf("%#v: encoding/json fails (%v); the test expects it to succeed", v, werr)
	}
	if encBadUTF8(v) {
		// encoding/json writes U+FFFD; we refuse what would change the data.
		if err == nil || err.Kind != Syntax {
			t.Fatalf("Append(%#v) = %s, %v; want a Syntax error for invalid UTF-8", v, got, err)
		}
		return
	}
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("Append(%#v) = %s, %v\nencoding/json:    %s", v, got, err, want)
	}
	got, err = Append([]byte("prefix:"), v, 0)
	if err != nil || string(got) != "prefix:"+string(want) {
		t.Fatalf("Append(prefix, %#v) = %s, %v", v, got, err)
	}
	encCheckSize(t, v, len(want))
	encCheckBounded(t, v, string(want))
}

// encCheckBounded checks StringWithin and Prefix against want, the text
// of v: the text where it is within the bound, TooLong where it is not,
// and a prefix of it of at least n bytes (all of it, if shorter).
func encCheckBounded(t *testing.T, v any, want string) {
	t.Helper()
	if got, err := StringWithin(v, 0, len(want)); err != nil || got != want {
		t.Fatalf("StringWithin(%.200v, %d) = %.200s, %v; want the text", v, len(want), got, err)
	}
	if len(want) > 1 {
		if got, err := StringWithin(v, 0, len(want)-1); err == nil || err.Kind != TooLong {
			t.Fatalf("StringWithin(%.200v, %d) = %.200s, %v; want TooLong", v, len(want)-1, got, err)
		}
	}
	for _, n := range []int{1, 7, 40, 3000, len(want)} {
		got, err := Prefix(v, 0, n)
		if err != nil || !strings.HasPrefix(want, got) || len(got) < min(n, len(want)) {
			t.Fatalf("Prefix(%.200v, %d) = %.200s, %v; want at least %d bytes of %.200s", v, n, got, err, min(n, len(want)), want)
		}
	}
}

// A value that holds a slice or map twice at each level has a text
// exponentially longer than its memory: StringWithin refuses it, and
// Prefix shows its beginning, each at the cost of their bound, where
// measuring or writing it whole would not end.
func TestEncodeBoundedSharedValues(t *testing.T) {
	s := []any{"x"}
	m := map[string]any{"k": "x"}
	long := strings.Repeat("y", 1<<20)
	strs := make([]any, 1000)
	for i := range strs {
		strs[i] = long // a gigabyte of text, a megabyte of memory
	}
	for range 200 {
		s = []any{s, s}
		m = map[string]any{"a": m, "b": m}
	}
	for name, v := range map[string]any{"slices": s, "maps": m, "strings": strs, "in a map": map[string]any{"s": strs}} {
		if got, err := StringWithin(v, 0, 1<<20); err == nil || err.Kind != TooLong {
			t.Errorf("%s: StringWithin = %.40s, %v; want TooLong", name, got, err)
		}
		got, err := Prefix(v, 0, 40)
		if err != nil || len(got) < 40 {
			t.Errorf("%s: Prefix = %q, %v", name, got, err)
		}
	}
}

// encCheckSize checks that the size the encoder computes in advance, where
// it knows one, is the length of the text, n.
func encCheckSize(t *testing.T, v any, n int) {
	t.Helper()
	e := newEncoder(v, 0)
	defer e.release()
	if size, ok := e.size(v, 0); ok && size != n {
		t.Fatalf("size(%.200v) = %d, want %d, the length of the text", v, size, n)
	}
}

// encBadUTF8 reports whether a string or key that the encoder writes
// itself (not through encoding/json) holds invalid UTF-8.
func encBadUTF8(v any) bool {
	switch v := v.(type) {
	case string:
		return !utf8.ValidString(v)
	case []any:
		return slices.ContainsFunc(v, encBadUTF8)
	case map[string]any:
		for k, e := range v {
			if !utf8.ValidString(k) || encBadUTF8(e) {
				return true
			}
		}
	}
	return false
}

type encStruct struct {
	A int               `json:"a"`
	B string            `json:"b,omitempty"`
	M map[string]any    `json:"m"`
	N json.Number       `json:"n"`
	R json.RawMessage   `json:"r"`
	S []any             `json:"s"`
	P *encStruct        `json:"p,omitempty"`
	X map[string]string `json:"x,omitempty"`
}

type encMarshaler struct{ text string }

func (m encMarshaler) MarshalJSON() ([]byte, error) {
	if m.text == "error" {
		return nil, errors.New("refused")
	}
	return []byte(m.text), nil
}

type encTextMarshaler int

// encBadKey is a map key that has no text.
type encBadKey int

func (encBadKey) MarshalText() ([]byte, error) { return nil, errors.New("no text") }

func (m encTextMarshaler) MarshalText() ([]byte, error) {
	return []byte(fmt.Sprint("<", int(m), ">")), nil
}

func TestEncodeMatchesEncodingJSON(t *testing.T) {
	var allASCII, allBytes strings.Builder
	for c := 0; c < 0x80; c++ {
		allASCII.WriteByte(byte(c))
	}
	for c := 0; c < 0x100; c++ {
		allBytes.WriteByte(byte(c))
	}
	i := 42
	var nilPtr *int
	for _, v := range []any{
		nil, true, false,
		"", "abc", allASCII.String(), allBytes.String(),
		"<script>&amp;</script>", "\u2028\u2029\u2027\u202a", "é中😀", "\xff\xfe", "a\xc3", "\xed\xa0\x80",
		"\ufffd", "\x7f", "\"\\/", "\b\f\n\r\t\x00\x1f",
		0.0, math.Copysign(0, -1), 1.0, -1.5, 0.1, 1e20, 1e21, 1e-6, 1e-7, 123456789.0, 1e100, -1e-100,
		math.MaxFloat64, math.SmallestNonzeroFloat64, 9007199254740993.0, 1.5e300,
		float32(0), float32(1.1), float32(1e21), float32(1e-7), float32(3.4e38), float32(-1e-45), float32(16777217),
		int(-1), int8(math.MinInt8), int16(math.MaxInt16), int32(math.MinInt32), int64(math.MinInt64),
		uint(7), uint8(255), uint16(65535), uint32(math.MaxUint32), uint64(math.MaxUint64), uintptr(12),
		json.Number("1"), json.Number("-0.5e+10"), json.Number(""), json.Number("123456789012345678901234567890"),
		json.RawMessage(`{"a" : [1, 2 ,"x y"] }`), json.RawMessage(" null "), json.RawMessage(nil),
		json.RawMessage("\"<\u2028>\""), json.RawMessage("\"\xff\""),
		map[string]any{}, []any{}, map[string]any(nil), []any(nil),
		map[string]any{"b": 1.0, "a": "x", "": nil, "A": true, "é": 2.0, "a\x00": 3.0, "\u2028": 4.0, "\xff": 5.0, "<k>": 6.0},
		map[string]any{"z": map[string]any{"y": []any{1.0, map[string]any{"x": nil, "w": []any{}}}}},
		[]any{nil, true, "s", 1.5, []any{[]any{}}, map[string]any{"k": []any{json.Number("2")}}},
		encManyKeys(100),
		// Handed to encoding/json.
		encStruct{A: 1, M: map[string]any{"k": "v"}, N: "5", R: json.RawMessage("[1]"), S: []any{1.0}},
		&encStruct{B: "x", P: &encStruct{A: 2}, X: map[string]string{"b": "1", "a": "2"}},
		map[string]int{"b": 1, "a": 2}, map[int]string{2: "b", 10: "a"}, []string{"a", "<"}, []int(nil),
		[]byte("bytes\x00"), [2]any{1.0, "x"}, &i, nilPtr, time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC),
		encMarshaler{` { "m" : 1 } `}, encTextMarshaler(3), map[encTextMarshaler]any{2: 1.0, 1: 2.0},
		map[string]any{"nested": encStruct{A: 3}, "list": []map[string]any{{"b": 1, "a": 2}}},
		[]any{map[string]string{"<": ">"}, &encStruct{}, json.Number("7")},
	} {
		t.Run(fmt.Sprintf("%T", v), func(t *testing.T) { encCheck(t, v) })
	}
}

func encManyKeys(n int) map[string]any {
	m := make(map[string]any, n)
	for i := range n {
		m[fmt.Sprintf("key%03d", (i*37)%n)] = float64(i)
	}
	return m
}

func TestEncodeErrors(t *testing.T) {
	cyclicMap := map[string]any{"a": 1.0}
	cyclicMap["self"] = cyclicMap
	cyclicSlice := []any{1.0, nil}
	cyclicSlice[1] = cyclicSlice
	mutualMap := map[string]any{}
	mutualSlice := []any{mutualMap}
	mutualMap["s"] = mutualSlice
	wide := map[string]any{}
	wide["a"], wide["b"], wide["c"] = wide, wide, wide
	type encNode struct{ Next *encNode }
	node := &encNode{}
	node.Next = node
	typedCycle := map[string]any{}
	typedCycle["t"] = map[string]map[string]any{"m": typedCycle}

	for _, c := range []struct {
		name     string
		v        any
		maxDepth int
		kind     ErrorKind
		detail   string
	}{
		{"NaN", math.NaN(), 0, Unsupported, "NaN is not a JSON number"},
		{"+Inf", math.Inf(1), 0, Unsupported, "+Inf is not a JSON number"},
		{"-Inf in map", map[string]any{"a": []any{math.Inf(-1)}}, 0, Unsupported, "-Inf is not a JSON number"},
		{"float32 NaN", float32(math.NaN()), 0, Unsupported, "NaN is not a JSON number"},
		{"float32 Inf", []any{float32(math.Inf(1))}, 0, Unsupported, "+Inf is not a JSON number"},
		{"NaN in struct", struct{ F float64 }{math.NaN()}, 0, Unsupported, ""},
		{"Inf in typed map", map[string]float32{"a": float32(math.Inf(1))}, 0, Unsupported, ""},
		{"invalid Number", json.Number("1.2.3"), 0, Syntax, `invalid number literal "1.2.3"`},
		{"Number +1", []any{json.Number("+1")}, 0, Syntax, ""},
		{"Number 01", json.Number("01"), 0, Syntax, ""},
		{"Number NaN", json.Number("NaN"), 0, Syntax, ""},
		{"Number in struct", struct{ N json.Number }{"x"}, 0, Syntax, ""},
		{"invalid RawMessage", json.RawMessage(`{"a":}`), 0, Syntax, ""},
		{"empty RawMessage", json.RawMessage{}, 0, Syntax, ""},
		{"two values RawMessage", json.RawMessage(`1 2`), 0, Syntax, ""},
		{"chan", make(chan int), 0, Unsupported, ""},
		{"func in map", map[string]any{"f": func() {}}, 0, Unsupported, ""},
		{"complex", complex(1, 2), 0, Unsupported, ""},
		{"Marshaler error", encMarshaler{"error"}, 0, Unsupported, ""},
		{"Marshaler invalid", encMarshaler{"{"}, 0, Syntax, ""},
		{"RawMessage in struct", struct{ R json.RawMessage }{json.RawMessage("[1,")}, 0, Syntax, ""},
		// encoding/json gives no type to this error (see stdErrorKind).
		{"map key without text", map[encBadKey]any{1: 1.0}, 0, Syntax, ""},
		{"cyclic map", cyclicMap, 0, Depth, "nesting deeper than 10000 (a cycle?)"},
		{"cyclic slice", cyclicSlice, 0, Depth, ""},
		{"cycle through map and slice", mutualMap, 0, Depth, ""},
		{"cycle three ways", wide, 0, Depth, ""},
		{"cyclic map small limit", cyclicMap, 5, Depth, "nesting deeper than 5 (a cycle?)"},
		{"cyclic struct", node, 0, Depth, ""},
		{"cycle through a typed map", typedCycle, 0, Depth, ""},
		{"too deep", decNestedValue(4, "1"), 3, Depth, "nesting deeper than 3 (a cycle?)"},
		{"too deep objects", decNestedValue(10001, "o"), 0, Depth, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			dst := []byte("keep")
			got, err := Append(dst, c.v, c.maxDepth)
			if err == nil || err.Kind != c.kind || err.Offset != 0 {
				t.Fatalf("got %q, %#v; want an error of kind %v", got, err, c.kind)
			}
			if c.detail != "" && err.Msg != c.detail {
				t.Fatalf("message %q, want %q", err.Msg, c.detail)
			}
			if string(got) != "keep" {
				t.Fatalf("dst changed to %q", got)
			}
			if _, serr := encStd(c.v); serr == nil && c.maxDepth == 0 && c.name != "too deep objects" {
				t.Fatalf("encoding/json accepts %#v", c.v)
			}
		})
	}
	// Exactly at the limit is fine.
	for _, v := range []any{decNestedValue(3, "1"), decNestedValue(3, "o"), decNestedValue(3, "")} {
		encCheckDepth(t, v, 3)
	}
	encCheckDepth(t, decNestedValue(10000, "o"), 0)
	encCheckDepth(t, decNestedValue(10000, "1"), 0)
}

func encCheckDepth(t *testing.T, v any, maxDepth int) {
	t.Helper()
	want, _ := encStd(v)
	if got, err := Append(nil, v, maxDepth); err != nil || !bytes.Equal(got, want) {
		t.Errorf("Append at the depth limit: %.40s, %v", got, err)
	}
}

// TestEncodeRoundTrip writes decoded documents back.
func TestEncodeRoundTrip(t *testing.T) {
	for _, doc := range [][]byte{[]byte(decSmallDoc), decDoc10KB()} {
		for _, useNumber := range []bool{false, true} {
			v, err := Decode(doc, useNumber, 0)
			if err != nil {
				t.Fatal(err)
			}
			encCheck(t, v)
		}
	}
}

func TestEncodeConcurrent(t *testing.T) {
	v, _ := Decode(decDoc10KB(), false, 0)
	want, _ := encStd(v)
	done := make(chan bool)
	for range 4 {
		go func() {
			defer func() { done <- true }()
			for range 20 {
				if got, err := Append(nil, v, 0); err != nil || !bytes.Equal(got, want) {
					t.Error("concurrent appendJSON differs")
					return
				}
			}
		}()
	}
	for range 4 {
		<-done
	}
}

func FuzzEncodeDifferential(f *testing.F) {
	for _, s := range []string{
		decSmallDoc, `{"b":[1,2.5e-7,-0,true,false,null,"x\u00e9\ud83d\ude00<>&"],"a":{},"":1e21}`,
		`"\u2028\u2029\ud800\u0000\u001f\u007f"`, "\"\xff\"", `[1e400]`, `{"é":1,"e":2,"E":3}`,
		`123456789012345678901234567890`, ` [ 1 , { "a" : "b" } ] `, `{"a":1,"a":2}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		// Values as encoding/json decodes them, both number modes.
		var v any
		if json.Unmarshal(data, &v) == nil {
			encCheck(t, v)
		}
		if n, err := decStdUseNumber(data); err == nil {
			encCheck(t, n)
		}
		// The raw bytes as a string, a key, a json.Number and a
		// json.RawMessage: same output, or both fail.
		s := string(data)
		for _, v := range []any{s, map[string]any{s: s, "k": 1.0}, json.Number(s), json.RawMessage(data), []any{json.RawMessage(data)}} {
			want, werr := encStd(v)
			got, err := Append(nil, v, 0)
			if werr == nil && encBadUTF8(v) {
				if err == nil || err.Kind != Syntax {
					t.Fatalf("Append(%#v) = %s, %v; want a Syntax error for invalid UTF-8", v, got, err)
				}
				return
			}
			if (err == nil) != (werr == nil) || !bytes.Equal(got, want) {
				t.Fatalf("Append(%#v) = %s, %v\nencoding/json:    %s, %v", v, got, err, want, werr)
			}
		}
	})
}

func BenchmarkEncode(b *testing.B) {
	for _, doc := range []struct {
		name string
		data []byte
	}{
		{"small", []byte(decSmallDoc)},
		{"10KB", decDoc10KB()},
	} {
		v, err := Decode(doc.data, false, 0)
		if err != nil {
			b.Fatal(err)
		}
		out, _ := json.Marshal(v)
		b.Run("doc="+doc.name+"/impl=coerce", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(out)))
			for b.Loop() {
				if _, err := Append(nil, v, 0); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("doc="+doc.name+"/impl=encoding_json", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(out)))
			for b.Loop() {
				if _, err := json.Marshal(v); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// Text larger than a buffer is written in chunks, and a long string in
// pieces cut where characters start: the text must be encoding/json's
// whatever falls on a cut (multi-byte characters, escapes, bytes that are
// not UTF-8, U+2028), and String and Append must agree.
func TestEncodeAcrossChunks(t *testing.T) {
	var long strings.Builder
	for long.Len() < 5*chunkSize {
		long.WriteString("é\"\n\u2028€😀\xff\xe2\x82 plain text ")
	}
	var contin strings.Builder // continuation bytes only: no character starts
	for contin.Len() < 2*chunkSize {
		contin.WriteByte(0x80 | byte(contin.Len()%64))
	}
	records := make([]any, 3000)
	for i := range records {
		records[i] = map[string]any{"id": float64(i), "name": "record é " + strings.Repeat("x", i%50), "tags": []any{"a", "b"}}
	}
	// A value of a type encoding/json writes has no size known in advance:
	// such a text is written in chunks (encoder.chunked).
	type other struct{ N int }
	for name, v := range map[string]any{
		"long string":                long.String(),
		"continuation bytes":         contin.String(),
		"records":                    records,
		"strings in a list":          []any{long.String(), "short", contin.String()},
		"records, then a struct":     []any{records, other{1}},
		"a struct, then records":     []any{other{1}, records, long.String()},
		"records, then a RawMessage": []any{records, json.RawMessage(` [ 1 ] `), long.String()},
	} {
		wantText, err := encStd(v)
		if err != nil {
			t.Fatal(err)
		}
		want := string(wantText)
		// Pools emptied (the text is measured, then written where it
		// ends, unless the value has no size known in advance), then
		// pools filled by the call before (the text is written in chunks).
		for _, pools := range []string{"empty", "filled"} {
			if pools == "empty" {
				emptyPools()
			}
			got, werr := String(v, 0)
			if encBadUTF8(v) {
				if werr == nil || werr.Kind != Syntax {
					t.Errorf("%s, pools %s: String = %.20q, %v; want a Syntax error for invalid UTF-8", name, pools, got, werr)
				}
				continue
			}
			if werr != nil || got != want {
				i := 0
				for i < min(len(got), len(want)) && got[i] == want[i] {
					i++
				}
				t.Errorf("%s, pools %s: String differs from encoding/json at byte %d of %d (err %v): %q, want %q", name, pools, i, len(want), werr,
					got[max(0, i-10):min(len(got), i+10)], want[max(0, i-10):min(len(want), i+10)])
			}
			if pools == "empty" {
				emptyPools()
			}
			if b, aerr := Append([]byte("x"), v, 0); aerr != nil || string(b) != "x"+want {
				t.Errorf("%s, pools %s: Append differs from encoding/json (err %v)", name, pools, aerr)
			}
		}
		encCheckSize(t, v, len(want))
	}
}

// emptyPools empties every sync.Pool, as two collections do.
func emptyPools() {
	runtime.GC()
	runtime.GC()
}

// A large text costs little more than itself, even on a call that finds
// the pools empty: String allocates it once at its size, where buffers
// that double as they fill, copied into the result, cost over twice as
// much (BenchmarkEncodeSize in the root package has the figures).
func TestEncodeColdAllocation(t *testing.T) {
	records := make([]any, 4000)
	for i := range records {
		records[i] = map[string]any{"id": float64(i * 7919), "name": "record " + strings.Repeat("x", i%50), "score": float64(i) / 7,
			"tags": []any{"a", "b\n"}, "meta": map[string]any{"ok": i%2 == 0, "note": nil}}
	}
	for _, v := range []any{records, records[:300]} {
		var text string
		var before, after runtime.MemStats
		emptyPools()
		runtime.ReadMemStats(&before)
		text, err := String(v, 0)
		runtime.ReadMemStats(&after)
		if err != nil {
			t.Fatal(err)
		}
		if got, limit := after.TotalAlloc-before.TotalAlloc, uint64(len(text))*12/10; got > limit {
			t.Errorf("String of a %d-byte text, pools empty: %d bytes allocated, want at most %d (1.2x)", len(text), got, limit)
		}
	}
}

// A Prefix longer than the encoder's first buffer, with no chunk in the
// pool (a first call, or one after the GC emptied it; under -race, any
// call): the encoder measures the text, finds it longer than the prefix,
// and must write on to it, where it stopped at the first buffer's end.
func TestEncodePrefixWithEmptyPools(t *testing.T) {
	v, err := Decode(decDoc10KB(), false, 0)
	if err != nil {
		t.Fatal(err)
	}
	full, _ := String(v, 0)
	for _, n := range []int{probeSize + 1, 3000, 2 * chunkSize} {
		chunkPool = sync.Pool{}
		got, err := Prefix(v, 0, n)
		if err != nil || len(got) < min(n, len(full)) || full[:len(got)] != got {
			t.Errorf("Prefix(%d) = %d bytes, %v; want at least %d of the text", n, len(got), err, min(n, len(full)))
		}
	}
}
