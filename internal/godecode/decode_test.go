package godecode

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"reflect"
	"strings"
	"testing"
	"time"
)

// The types the differential tests decode into: between them, every Go
// type encoding/json decodes, and the ways it finds fields and methods.
type (
	Inner struct {
		A int    `json:"a"`
		B string `json:"b,omitempty"`
	}
	Embedded struct {
		E  string `json:"e"`
		ID int    // clashes with Outer.ID: shadowed
	}
	embeddedLower struct {
		L string `json:"l"`
	}
	Outer struct {
		Embedded
		*Inner
		embeddedLower
		ID      int              `json:"id"`
		Name    string           // no tag: matched by name, up to case
		Tagged  string           `json:"tagged_name"`
		Ptr     *int             `json:"ptr"`
		PtrPtr  **string         `json:"pp"`
		List    []Inner          `json:"list"`
		Array   [2]int           `json:"array"`
		Map     map[string]Inner `json:"map"`
		IntMap  map[int]string   `json:"int_map"`
		UintMap map[uint8]bool   `json:"uint_map"`
		Any     any              `json:"any"`
		Anys    []any            `json:"anys"`
		Num     json.Number      `json:"num"`
		Raw     json.RawMessage  `json:"raw"`
		Time    time.Time        `json:"time"`
		TimePtr *time.Time       `json:"time_ptr"`
		Level   Level            `json:"level"`
		Levels  map[string]Level `json:"levels"`
		Big     *big.Int         `json:"big"`
		Bytes   []byte           `json:"bytes"`
		Quoted  int              `json:"quoted,string"`
		F32     float32          `json:"f32"`
		I8      int8             `json:"i8"`
		U       uint             `json:"u"`
		Skip    string           `json:"-"`
		//lint:ignore SA5008 the field named "-", which encoding/json decodes
		Dash     string       `json:"-,"`
		Upper    Upper        `json:"upper"`
		Iface    fmt.Stringer `json:"iface"`
		Chan     chan int     `json:"chan"`
		NamedPtr NamedPtr     `json:"named_ptr"`
		//lint:ignore U1000 an unexported field, which decoding leaves alone
		private int
	}
	// Level decodes from text.
	Level int
	// Upper decodes by its own UnmarshalJSON, the Alias idiom.
	Upper struct {
		S string `json:"s"`
	}
	NamedPtr *Level
	Node     struct {
		V    int     `json:"v"`
		Kids []*Node `json:"kids"`
	}
)

func (l *Level) UnmarshalText(b []byte) error {
	switch string(b) {
	case "low":
		*l = 1
	case "high":
		*l = 2
	default:
		return errors.New("unknown level " + string(b))
	}
	return nil
}

func (u *Upper) UnmarshalJSON(b []byte) error {
	type alias Upper
	var a alias
	if err := json.Unmarshal(b, &a); err != nil {
		return err
	}
	*u = Upper{S: strings.ToUpper(a.S)}
	return nil
}

// targets returns fresh pointers of each type the tests decode into.
var targets = []func() any{
	func() any { return new(Outer) },
	func() any { return new(Inner) },
	func() any { return new(any) },
	func() any { return new([]int) },
	func() any { return new(map[string]any) },
	func() any { return new(map[string]*Inner) },
	func() any { return new(*Inner) },
	func() any { return new(Level) },
	func() any { return new(Upper) },
	func() any { return new(Node) },
	func() any { return new([3]string) },
	func() any { return new(json.RawMessage) },
	func() any { return new(string) },
	func() any { return new(float64) },
	func() any { return new(struct{ time.Time }) },
}

var docs = []string{
	`{}`, `null`, `[]`, `""`, `0`, `true`, `"x"`, `1.5`, `-0`, `1e400`, ` {"a": 1} `, `{"a":1}x`,
	`{"a": 1, "b": "two"}`, `{"A": 1, "B": "two"}`, `{"a": "1"}`, `{"a": 1.5}`, `{"a": null, "b": null}`,
	`{"id": 7, "ID": 8, "e": "emb", "l": "low", "a": 3}`,
	`{"name": "n", "NAME": "m", "tagged_name": "t", "Tagged": "no"}`,
	`{"ptr": 5, "pp": "s", "list": [{"a": 1}, {"b": "x"}], "array": [1, 2, 3], "map": {"k": {"a": 2}}}`,
	`{"array": [1]}`, `{"list": []}`, `{"list": null}`, `{"map": null}`, `{"map": {}}`,
	`{"int_map": {"1": "one", "-2": "minus two"}}`, `{"int_map": {"x": "bad"}}`, `{"uint_map": {"255": true}}`, `{"uint_map": {"256": true}}`,
	`{"any": {"x": [1, "two", null, true, {"y": 1.5}]}, "anys": [1, [2]]}`, `{"any": 1e400}`,
	`{"num": 12345678901234567890123}`, `{"num": "12.5"}`, `{"num": "abc"}`, `{"num": ""}`,
	`{"raw": {"keep": [1, 2]}}`, `{"raw": null}`, `{"time": "2024-01-02T03:04:05Z"}`, `{"time": "yesterday"}`, `{"time": null}`,
	`{"time_ptr": "2024-01-02T03:04:05Z"}`, `{"time_ptr": null}`, `{"level": "high"}`, `{"level": 2}`, `{"level": "medium"}`, `{"level": null}`,
	`{"levels": {"a": "low", "b": "high"}}`, `{"big": 123456789012345678901234567890}`, `{"big": "1"}`,
	`{"bytes": "aGVsbG8="}`, `{"bytes": "not base64!"}`, `{"bytes": [1, 2]}`, `{"bytes": null}`,
	`{"quoted": "5"}`, `{"quoted": 5}`, `{"f32": 1e39}`, `{"f32": 1.5}`, `{"i8": 127}`, `{"i8": 128}`, `{"u": -1}`, `{"u": 18446744073709551615}`,
	`{"-": "dash"}`, `{"Skip": "no"}`, `{"upper": {"s": "shout"}}`, `{"upper": null}`, `{"iface": null}`, `{"iface": "x"}`,
	`{"chan": null}`, `{"chan": 1}`, `{"named_ptr": "low"}`, `{"named_ptr": 3}`, `{"named_ptr": null}`,
	`{"private": 1, "unknown": {"deep": [1, {"x": "\u00e9"}]}}`,
	`{"b": "esc\"aped \\ \/ \b\f\n\r\t \u0041 \ud83d\ude00 \ud800 \udc00x"}`, "{\"b\": \"bad utf8 \xff\xfe end\"}",
	"{\"b\": \"ctl \x01\"}", `{"b": "bad \x escape"}`, `{"b": "\u12"}`,
	`{"v": 1, "kids": [{"v": 2, "kids": [{"v": 3}]}, null]}`, `[1, 2, 3]`, `[1, "2"]`, `["a", "b", "c", "d"]`,
	`{"a": 1, "a": 2}`, `{"list": [{"a": 1}], "list": [{"b": "y"}]}`, `{"a":01}`, `{"a":-}`, `{"a":1.}`, `{"a":.5}`, `{"a":1e}`,
	`{"a":tru}`, `{"a":nul}`, `{"a" 1}`, `{"a":1,}`, `[1,]`, `{,}`, `{"a":[1,2}`, `"unterminated`, "",
	`[9223372036854775807, -9223372036854775808, 1234567890123456789]`, `[9223372036854775808]`, `[-9223372036854775809]`,
	`[10000000000000000000]`, `{"i8": -128}`, `{"i8": -129}`, `{"u": 9999999999999999999}`,
	`{"ID": 1}`, `{"Id": 1}`, `{"e": "x", "ID": 4}`, `{"K": 1, "k": 2}`, `{"ſ": 1}`, `{"A\u0301": 1}`,
}

// TestAgreesWithEncodingJSON decodes every doc into every target with
// Into and with json.Unmarshal: where Into says Decoded, json.Unmarshal
// succeeds with an equal value.
func TestAgreesWithEncodingJSON(t *testing.T) {
	decoded := 0
	for _, doc := range docs {
		for _, target := range targets {
			if checkAgrees(t, []byte(doc), target) {
				decoded++
			}
		}
	}
	t.Logf("%d of %d decoded here", decoded, len(docs)*len(targets))
}

func checkAgrees(t *testing.T, data []byte, target func() any) bool {
	t.Helper()
	got, want := target(), target()
	wantErr := json.Unmarshal(data, want)
	if Into(data, reflect.ValueOf(got), Options{}) != Decoded {
		return false
	}
	if wantErr != nil {
		t.Errorf("%T %q: decoded, but json.Unmarshal fails: %v", want, data, wantErr)
	} else if !reflect.DeepEqual(got, want) {
		t.Errorf("%T %q:\n got %#v\nwant %#v", want, data, reflect.ValueOf(got).Elem(), reflect.ValueOf(want).Elem())
	}
	return true
}

// TestDecodesTheUsualCases: the types and texts tool arguments are made
// of are decoded here, not handed to encoding/json.
func TestDecodesTheUsualCases(t *testing.T) {
	for _, c := range []struct {
		doc    string
		target func() any
	}{
		{`{"a": 1, "b": "two"}`, func() any { return new(Inner) }},
		{`{"id": 7, "e": "emb", "l": "x", "a": 3, "ptr": 1, "pp": "s", "list": [{"a": 1}], "array": [1, 2],
		  "map": {"k": {"a": 2}}, "int_map": {"1": "x"}, "any": {"x": [1, "two", null, true]}, "num": 12,
		  "raw": {"keep": 1}, "time": "2024-01-02T03:04:05Z", "level": "high", "bytes": "aGk=", "upper": {"s": "x"},
		  "unknown": [1, {"x": "\u00e9"}], "NAME": "case", "b": "esc\"aped \u0041 \ud83d\ude00", "chan": null}`,
			func() any { return new(Outer) }},
		{`{"v": 1, "kids": [{"v": 2, "kids": [{"v": 3}]}]}`, func() any { return new(Node) }},
		{`[{"a": 1}, {"b": "x"}]`, func() any { return new([]Inner) }},
		{`{"k": [1, 2.5, "s", {"n": null}]}`, func() any { return new(map[string]any) }},
	} {
		got := c.target()
		if o := Into([]byte(c.doc), reflect.ValueOf(got), Options{}); o != Decoded {
			t.Errorf("%T %s: outcome %d, want Decoded", got, c.doc, o)
		}
		checkAgrees(t, []byte(c.doc), c.target)
	}
}

func TestStops(t *testing.T) {
	for _, c := range []struct {
		doc  string
		o    Options
		want Outcome
	}{
		{`{"a": 1, "x": 2}`, Options{StopAtUnknownKey: true}, Stopped},
		{`{"a": 1, "A": 2}`, Options{StopAtUnknownKey: true}, Decoded}, // a field, up to case
		{`{"a": 1, "b": null}`, Options{}, Decoded},
		{`[[[1]]]`, Options{MaxDepth: 2}, Declined},
	} {
		var v any = new(Inner)
		if c.doc[0] == '[' {
			v = new(any)
		}
		if got := Into([]byte(c.doc), reflect.ValueOf(v), c.o); got != c.want {
			t.Errorf("%s %+v: %d, want %d", c.doc, c.o, got, c.want)
		}
	}
}

// Nesting beyond encoding/json's limit is declined, not recursed into.
func TestDeepNesting(t *testing.T) {
	for _, n := range []int{maxNesting, maxNesting + 1, 100000} {
		doc := []byte(strings.Repeat("[", n) + strings.Repeat("]", n))
		var v any
		got := Into(doc, reflect.ValueOf(&v), Options{})
		if want := (n <= maxNesting); (got == Decoded) != want {
			t.Errorf("depth %d: outcome %d", n, got)
		}
		checkAgrees(t, doc, func() any { return new(any) })
	}
}

func FuzzInto(f *testing.F) {
	for _, d := range docs {
		f.Add([]byte(d))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, target := range targets {
			checkAgrees(t, data, target)
		}
	})
}

func BenchmarkInto(b *testing.B) {
	doc := []byte(`{"id": 7, "e": "emb", "ptr": 1, "list": [{"a": 1, "b": "x"}, {"a": 2, "b": "y"}], "map": {"k": {"a": 2}},
		"any": {"x": [1, "two", null, true]}, "num": 12, "level": "high", "NAME": "case"}`)
	b.Run("impl=godecode", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var v Outer
			if Into(doc, reflect.ValueOf(&v), Options{}) != Decoded {
				b.Fatal("declined")
			}
		}
	})
	b.Run("impl=encoding_json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var v Outer
			if err := json.Unmarshal(doc, &v); err != nil {
				b.Fatal(err)
			}
		}
	})
}
