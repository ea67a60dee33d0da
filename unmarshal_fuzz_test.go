package coerce

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"runtime"
	"runtime/debug"
	"testing"
)

// The types FuzzUnmarshal decodes into: between them, every kind of field
// the derivation treats apart.
type (
	fuzzItem struct {
		ID   string   `json:"id"`
		N    int      `json:"n,omitempty"`
		Tags []string `json:"tags"`
	}
	fuzzInput struct {
		umBase
		S     string          `json:"s"`
		I     int             `json:"i"`
		I64   int64           `json:"i64"`
		U8    uint8           `json:"u8"`
		F     float64         `json:"f"`
		B     bool            `json:"b"`
		P     *int            `json:"p"`
		List  []string        `json:"list"`
		Items []fuzzItem      `json:"items"`
		Item  *fuzzItem       `json:"item"`
		Map   map[string]int  `json:"map"`
		Num   json.Number     `json:"num"`
		Raw   json.RawMessage `json:"raw"`
		Any   any             `json:"any"`
		Q     int             `json:"q,string"`
		Blob  []byte          `json:"blob"`
		Level umLevel         `json:"level"`
		Skip  string          `json:"-"`
	}
)

// fuzzTargets decode data with Unmarshal and with json.Unmarshal into
// fresh values of one type each, starting from defaults for the first.
var fuzzTargets = []func(t *testing.T, data []byte){
	func(t *testing.T, data []byte) {
		checkUnmarshal(t, data, func() *fuzzInput { return &fuzzInput{S: "default", I: 7, umBase: umBase{Revision: 1}} })
	},
	func(t *testing.T, data []byte) { checkUnmarshal(t, data, func() *fuzzInput { return new(fuzzInput) }) },
	func(t *testing.T, data []byte) { checkUnmarshal(t, data, func() *[]int { return new([]int) }) },
	func(t *testing.T, data []byte) {
		checkUnmarshal(t, data, func() *map[string]*fuzzItem { return new(map[string]*fuzzItem) })
	},
	func(t *testing.T, data []byte) { checkUnmarshal(t, data, func() *umAlias { return new(umAlias) }) },
	func(t *testing.T, data []byte) { checkUnmarshal(t, data, func() *umNumbers { return new(umNumbers) }) },
	func(t *testing.T, data []byte) { checkUnmarshal(t, data, func() *any { return new(any) }) },
	// A value that holds data in every field: a null in the text sets a
	// slice, map or pointer to nil, and leaves the rest, as encoding/json
	// does (the rule of nulls does not apply to Go types).
	func(t *testing.T, data []byte) { checkUnmarshal(t, data, prefilledInput) },
	func(t *testing.T, data []byte) {
		checkUnmarshal(t, data, func() *map[string]*fuzzItem {
			return &map[string]*fuzzItem{"a": {ID: "x", Tags: []string{"t"}}}
		})
	},
}

func prefilledInput() *fuzzInput {
	p := 3
	var anything any = map[string]any{"k": "v"}
	return &fuzzInput{
		umBase: umBase{Revision: 1}, S: "s", I: 1, I64: 2, U8: 3, F: 1.5, B: true, P: &p,
		List: []string{"a"}, Items: []fuzzItem{{ID: "i", N: 1, Tags: []string{"t"}}}, Item: &fuzzItem{ID: "j", Tags: []string{}},
		Map: map[string]int{"m": 1}, Num: "12", Raw: json.RawMessage(`{"r":1}`), Any: anything, Q: 4, Blob: []byte("b"),
		Level: umLevel(2), Skip: "skip",
	}
}

// FuzzUnmarshal compares Unmarshal with json.Unmarshal on whatever the
// fuzzer makes up, for representative target types:
//
//   - text json.Unmarshal accepts is accepted, with the same result, and
//     nothing in it is converted: conforming text is decoded as sent;
//   - text json.Unmarshal rejects is rejected too, unless something in it
//     was converted;
//   - on error the target keeps the value it had, and a conversion error
//     is made of *Errors that each wrap a sentinel;
//   - nothing panics.
//
// It is seeded from the rows of TestUnmarshal and from
// testdata/fuzz/FuzzUnmarshal.
func FuzzUnmarshal(f *testing.F) {
	for _, c := range unmarshalCases() {
		for i := range fuzzTargets {
			f.Add(uint8(i), []byte(c.data))
		}
	}
	f.Fuzz(func(t *testing.T, target uint8, data []byte) {
		fuzzTargets[int(target)%len(fuzzTargets)](t, data)
	})
}

func checkUnmarshal[T any](t *testing.T, data []byte, fresh func() *T) {
	orig := bytes.Clone(data)
	want, got := fresh(), fresh()
	jerr := json.Unmarshal(data, want)
	changes, keyEdits := 0, 0
	err := Options{OnChange: func(c Change) {
		changes++
		if c.Rule == Renamed {
			keyEdits++
		}
	}}.Unmarshal(data, got)
	if !bytes.Equal(data, orig) {
		t.Fatalf("Unmarshal modified its input: %q, was %q", data, orig)
	}
	// One answer whichever way: without OnChange, text json.Unmarshal
	// accepts takes the decoder's one pass, the rest the conversion.
	plain := fresh()
	if perr := Unmarshal(data, plain); fmt.Sprint(perr) != fmt.Sprint(err) {
		t.Fatalf("Unmarshal(%q) into %T: %v; with OnChange set: %v", data, got, perr, err)
	} else if d := umDiff(got, plain); d != "" {
		t.Fatalf("Unmarshal(%q) into %T (-with OnChange +without):\n%s", data, got, d)
	}
	switch {
	case jerr == nil && err != nil:
		t.Fatalf("Unmarshal(%q) into %T: %v; json.Unmarshal accepts it", data, got, err)
	case jerr == nil && keyEdits > 0:
		// A key renamed (the rule of names), in text encoding/json
		// accepts by ignoring the key: the result is meant to differ,
		// and the value of a renamed key may convert too. (No null is
		// removed for a Go type: it takes null as encoding/json does.)
	case jerr == nil && changes > 0:
		t.Fatalf("Unmarshal(%q) into %T converted %d values of text json.Unmarshal accepts", data, got, changes)
	case jerr == nil:
		if d := umDiff(want, got); d != "" {
			t.Fatalf("Unmarshal(%q) into %T (-json +coerce):\n%s", data, got, d)
		}
	case err == nil && changes == 0:
		t.Fatalf("Unmarshal(%q) into %T converted nothing and succeeded; json.Unmarshal fails: %v", data, got, jerr)
	}
	if err == nil {
		return
	}
	if d := umDiff(fresh(), got); d != "" {
		t.Fatalf("Unmarshal(%q) into %T failed (%v) but wrote (-before +after):\n%s", data, got, err, d)
	}
	if _, ok := errorPaths(err); !ok {
		return // encoding/json's own error
	}
	checkErrorContract(t, err)
	for _, e := range joinedErrors(err) {
		if !errors.Is(e, ErrSyntax) && !errors.Is(e, ErrTruncated) && !errors.Is(e, ErrKind) && !errors.Is(e, ErrPrecision) && !errors.Is(e, ErrLimit) {
			t.Fatalf("Unmarshal(%q) into %T: %v wraps no sentinel", data, got, e)
		}
	}
	if changes != 0 {
		t.Fatalf("Unmarshal(%q) into %T failed but reported %d conversions", data, got, changes)
	}
}

// The fuzz types must stay what they claim to exercise.
func TestFuzzUnmarshalTypes(t *testing.T) {
	s, err := SchemaFor[fuzzInput]()
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]string{
		"created_by": "string", "item": "fuzzItem | null", "num": "number | string", "raw": "any",
		"q": "string", "blob": "string | list[integer]", "level": "string",
	} {
		if got, ok := s.Lookup(k); !ok || got.String() != want {
			t.Errorf("fuzzInput.%s is %v, want %s", k, got, want)
		}
	}
	if got := reflect.TypeFor[fuzzInput]().NumField(); got != 19 {
		t.Errorf("fuzzInput has %d fields; update this test and the seeds", got)
	}
}

// Unmarshal under garbage-collector stress: argument sets made of the
// fuzz types' keys, holding values of every kind as they are, stringified
// (as LLM clients send them) or fenced, decoded into every fuzz target
// with the collector at 1% (the decoder's and the walker's pools emptied
// as they go), each checked as FuzzUnmarshal checks, and decoded again
// after a full collection to the same outcome.
func TestPropertiesOfUnmarshal(t *testing.T) {
	g := gen{r: rand.New(rand.NewPCG(5, 6))}
	keys := []string{"s", "i", "i64", "u8", "f", "b", "p", "list", "items", "item", "map", "num", "raw", "any",
		"q", "blob", "level", "created_by", "revision", "CreatedBy", "createdBy", "S", "unknown"}
	n := 2000
	if testing.Short() {
		n = 100
	}
	old := debug.SetGCPercent(1)
	defer debug.SetGCPercent(old)
	for range n {
		args := map[string]any{}
		for range 1 + g.r.IntN(6) {
			v := g.any(3)
			switch g.r.IntN(4) {
			case 0:
				text, _ := json.Marshal(v)
				v = string(text)
			case 1:
				text, _ := json.Marshal(v)
				v = "```json\n" + string(text) + "\n```"
			}
			args[keys[g.r.IntN(len(keys))]] = v
		}
		data, err := json.Marshal(args)
		if err != nil {
			t.Fatal(err)
		}
		for _, target := range fuzzTargets {
			target(t, data)
		}
		var first, second fuzzInput
		e1 := Unmarshal(data, &first)
		runtime.GC()
		e2 := Unmarshal(data, &second)
		if fmt.Sprint(e1) != fmt.Sprint(e2) || umDiff(&first, &second) != "" {
			t.Fatalf("%s: a second run after a collection differs: %v, then %v", data, e1, e2)
		}
	}
}
