package coerce

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
)

// Regression tests for what an attacker steering a model's arguments could
// do to a call: make it slow, crash it, or make it quietly wrong. Cost is
// counted, never timed: workOf reads the walker's own counter (values
// visited times the types they met, plus bytes of JSON text parsed).

// workOf returns the work the calls f makes.
func workOf(t *testing.T, f func()) int {
	t.Helper()
	total := 0
	workCounted = func(n int) { total += n }
	defer func() { workCounted = nil }()
	f()
	return total
}

// checkLinear runs the input of each size through f and fails if doubling
// the size more than doubles the work (with a little slack for constant
// terms), so that the cost is linear however large the input.
func checkLinear(t *testing.T, sizes []int, f func(n int)) {
	t.Helper()
	var prev int
	lo, hi := math.Inf(1), 0.0 // bytes allocated per unit of size
	for i, n := range sizes {
		w := workOf(t, func() { f(n) })
		// Bytes allocated count what the work counter does not see, such
		// as the strings of error paths and change reports. A pool that
		// lets an unusually large scratch go makes them jump once between
		// two sizes, so they are judged over all of them: per unit of
		// size, the largest at most 4 times the smallest, where anything
		// quadratic grows with the range of sizes (8 to 16 times here).
		b := float64(bytesOf(func() { f(n) })) / float64(n)
		lo, hi = min(lo, b), max(hi, b)
		t.Logf("size %d: work %d, %.0f bytes allocated per unit", n, w, b)
		if w == 0 {
			t.Fatalf("size %d: no work counted", n)
		}
		if i > 0 && w > 2*prev+64 {
			t.Errorf("size %d: work %d, more than twice the %d of size %d", n, w, prev, sizes[i-1])
		}
		prev = w
	}
	if hi > 4*lo+64 {
		t.Errorf("bytes allocated per unit of size range from %.0f to %.0f: more than linear", lo, hi)
	}
}

// bytesOf counts the bytes that one call of f allocates, after one call
// that fills the pools.
func bytesOf(f func()) uint64 {
	f()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// 1. Union results never depend on memory addresses or the garbage
// collector: 20000 parameters alternating two shapes, each against a
// union of two array types, all come back right, every run.
func TestUnionChoiceDoesNotDependOnMemory(t *testing.T) {
	s := mustSchema(t, Options{}, `{"type":"object","additionalProperties":{"anyOf":[
		{"type":"array","items":{"type":"integer"}},{"type":"array","items":{"type":"boolean"}}]}}`)
	var b strings.Builder
	b.WriteByte('{')
	for i := range 20000 {
		if i > 0 {
			b.WriteByte(',')
		}
		if i%2 == 0 {
			fmt.Fprintf(&b, `"p%d":["true","false"]`, i)
		} else {
			fmt.Fprintf(&b, `"p%d":["1","0"]`, i)
		}
	}
	b.WriteByte('}')
	args := []byte(b.String())
	for run := range 3 {
		runtime.GC()
		out, err := s.CoerceJSON(args)
		if err != nil {
			t.Fatal(err)
		}
		var got map[string][]any
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatal(err)
		}
		wrong := 0
		for k, v := range got {
			i, _ := strconv.Atoi(k[1:])
			want := []any{1.0, 0.0}
			if i%2 == 0 {
				want = []any{true, false}
			}
			if fmt.Sprint(v) != fmt.Sprint(want) {
				wrong++
			}
		}
		if wrong > 0 {
			t.Errorf("run %d: %d of 20000 parameters converted to the wrong member", run, wrong)
		}
	}
	// Schema.Coerce on arrays sent as JSON text, between forced collections.
	old := debug.SetGCPercent(1)
	defer debug.SetGCPercent(old)
	decoded := map[string]any{}
	for i := range 2000 {
		if i%2 == 0 {
			decoded["p"+strconv.Itoa(i)] = `["true","false"]`
		} else {
			decoded["p"+strconv.Itoa(i)] = `["1","0"]`
		}
	}
	out, err := s.Coerce(decoded)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range out {
		i, _ := strconv.Atoi(k[1:])
		want := "[1 0]"
		if i%2 == 0 {
			want = "[true false]"
		}
		if fmt.Sprint(v) != want {
			t.Fatalf("%s: got %v, want %s", k, v, want)
		}
	}
}

// 1, continued: a slice shared at two depths gives the same answer as two
// equal slices would, whatever else the value holds.
func TestSharedValuesAtTwoDepths(t *testing.T) {
	o := Options{MaxDepth: 5}
	shared := []any{"1"}
	typ := MustParseType("list[list[int] | list[list[list[int]]]]")
	base := []any{shared, []any{[]any{shared}}}
	want, err := o.ToType(base, typ)
	if err != nil {
		t.Fatal(err)
	}
	padded := make([]any, 0, 302)
	for range 300 {
		padded = append(padded, []any{"2"})
	}
	padded = append(padded, base...)
	got, err := o.ToType(padded, typ)
	if err != nil {
		t.Fatalf("with 300 unrelated elements before: %v (without them: %v)", err, want)
	}
	if fmt.Sprint(got.([]any)[300:]) != fmt.Sprint(want) {
		t.Errorf("got %v, want %v", got.([]any)[300:], want)
	}
}

// The recursive schemas of the hostile shapes below.
const (
	schemaArrayOfArrays = `{"$defs":{"N":{"type":"array","items":{"$ref":"#/$defs/N"}}},
		"type":"object","properties":{"p":{"$ref":"#/$defs/N"}}}`
	schemaObjectChain = `{"$defs":{"N":{"type":"object","properties":{"a":{"$ref":"#/$defs/N"}},"additionalProperties":{"type":"integer"}}},
		"type":"object","properties":{"p":{"$ref":"#/$defs/N"}}}`
)

// 2. A deep value that fails at the bottom costs work linear in its depth,
// through CoerceJSON and Coerce, for arrays and objects.
func TestDeepValueFailingAtTheBottomIsLinear(t *testing.T) {
	arrays := mustSchema(t, Options{}, schemaArrayOfArrays)
	objects := mustSchema(t, Options{}, schemaObjectChain)
	sizes := []int{500, 1000, 2000, 4000, 8000}
	deepArray := func(n int) []byte {
		return []byte(`{"p":` + strings.Repeat("[", n) + `"x"` + strings.Repeat("]", n) + `}`)
	}
	deepObject := func(n int) []byte {
		return []byte(`{"p":` + strings.Repeat(`{"a":`, n) + `"x"` + strings.Repeat("}", n) + `}`)
	}
	for _, c := range []struct {
		name   string
		schema *Schema
		args   func(int) []byte
	}{{"array", arrays, deepArray}, {"object", objects, deepObject}} {
		t.Run(c.name+"/CoerceJSON", func(t *testing.T) {
			checkLinear(t, sizes, func(n int) {
				if _, err := c.schema.CoerceJSON(c.args(n)); err == nil {
					t.Fatal("want an error")
				}
			})
		})
		t.Run(c.name+"/Coerce", func(t *testing.T) {
			checkLinear(t, sizes, func(n int) {
				var args map[string]any
				if err := json.Unmarshal(c.args(n), &args); err != nil {
					t.Fatal(err)
				}
				if _, err := c.schema.Coerce(args); err == nil {
					t.Fatal("want an error")
				}
			})
		})
	}
}

// 2, continued: keys given twice cost CoerceJSON work linear in the
// arguments, whether the walk meets the repeat among the parameters (and
// starts over once, knowing every repeated key) or in nested objects.
func TestRepeatedKeysAreLinear(t *testing.T) {
	s := mustSchema(t, Options{}, `{"type": "object", "additionalProperties":
		{"anyOf": [{"type": "integer"}, {"type": "object", "additionalProperties": {"type": "integer"}}]}}`)
	args := func(n int, nested bool) []byte {
		var b strings.Builder
		b.WriteString("{")
		for round := range 2 {
			for i := range n {
				if round+i > 0 {
					b.WriteString(",")
				}
				if nested {
					fmt.Fprintf(&b, `"k%05d":{"a":"%05d","a":"%d"}`, i, i, round) // fixed widths: the text grows as n
				} else {
					fmt.Fprintf(&b, `"k%05d":"%d"`, i, round)
				}
			}
		}
		b.WriteString("}")
		return []byte(b.String())
	}
	for _, nested := range []bool{false, true} {
		t.Run(fmt.Sprintf("nested=%v", nested), func(t *testing.T) {
			checkLinear(t, []int{500, 1000, 2000, 4000, 8000}, func(n int) {
				if _, err := s.CoerceJSON(args(n, nested)); err != nil {
					t.Fatal(err)
				}
			})
		})
	}
}

// 2, continued: the error's path is built once, not once per level.
func TestDeepErrorPath(t *testing.T) {
	s := mustSchema(t, Options{}, schemaArrayOfArrays)
	const n = 5000
	_, err := s.CoerceJSON([]byte(`{"p":` + strings.Repeat("[", n) + `"x"` + strings.Repeat("]", n) + `}`))
	var e *Error
	if !errors.As(err, &e) || e.Path != "/p"+strings.Repeat("/0", n) {
		t.Fatalf("got %.200v", err)
	}
}

// checkLinearInBytes is checkLinear for inputs whose size is not their
// parameter: f returns the size of the input it ran, and the work may grow
// at most as the size does (twice the ratio, for constant terms).
func checkLinearInBytes(t *testing.T, params []int, f func(n int) int) {
	t.Helper()
	var prevWork, prevSize int
	for i, n := range params {
		size := 0
		w := workOf(t, func() { size = f(n) })
		t.Logf("%d bytes: work %d (%.1f a byte)", size, w, float64(w)/float64(size))
		if i > 0 && float64(w)/float64(prevWork) > 2*float64(size)/float64(prevSize) {
			t.Errorf("%d bytes: work %d grows faster than the input (%d bytes: %d)", size, w, prevSize, prevWork)
		}
		prevWork, prevSize = w, size
	}
}

// 3. A union of members of the same shape, over JSON text nested in JSON
// text: each string is parsed once however many members want it parsed.
func TestRecursiveUnionOverNestedJSONTextIsLinear(t *testing.T) {
	var members []string
	for _, item := range []string{"integer", "boolean", "string", "number", "null", "object"} {
		members = append(members, `{"type":"array","items":{"anyOf":[{"$ref":"#/$defs/N"},{"type":"`+item+`"}]}}`)
	}
	members = append(members, `{"type":"array","items":{"$ref":"#/$defs/N"}}`, `{"type":"array","prefixItems":[{"$ref":"#/$defs/N"}]}`)
	s := mustSchema(t, Options{}, `{"$defs":{"N":{"anyOf":[`+strings.Join(members, ",")+`]}},
		"type":"object","properties":{"p":{"$ref":"#/$defs/N"}}}`)
	nestedText := func(n int) string {
		v := `[1]`
		for range n {
			b, _ := json.Marshal(v)
			v = "[" + string(b) + "]"
		}
		return v
	}
	// Each level of JSON text inside JSON text doubles the escapes: the
	// input grows exponentially with the levels, the work only with it.
	checkLinearInBytes(t, []int{3, 5, 7, 9, 11}, func(n int) int {
		text := nestedText(n)
		if _, err := s.Coerce(map[string]any{"p": text}); err != nil {
			t.Fatal(err)
		}
		return len(text)
	})
}

// 3, continued: a tree of four node variants told apart by a const kind,
// whose children arrive as JSON text inside JSON text.
func TestTreeOfNodeVariantsOverNestedJSONTextIsLinear(t *testing.T) {
	var variants []string
	for _, k := range []string{"a", "b", "c", "d"} {
		variants = append(variants, `{"type":"object","properties":{"kind":{"const":"`+k+`"},
			"children":{"type":"array","items":{"$ref":"#/$defs/Node"}}}}`)
	}
	s := mustSchema(t, Options{}, `{"$defs":{"Node":{"oneOf":[`+strings.Join(variants, ",")+`]}},
		"type":"object","properties":{"p":{"$ref":"#/$defs/Node"}}}`)
	node := func(n int) string {
		v := `{"kind":"d","children":[]}`
		for range n {
			b, _ := json.Marshal(v)
			v = `{"kind":"d","children":[` + string(b) + `]}`
		}
		return v
	}
	checkLinearInBytes(t, []int{3, 5, 7, 9, 11}, func(n int) int {
		args := []byte(`{"p":` + node(n) + `}`)
		out, err := s.CoerceJSON(args)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(out), `\"`) {
			t.Fatalf("children left as JSON text: %.200s", out)
		}
		return len(args)
	})
}

// 4. Go values of any type obey MaxDepth: a named slice type nested
// deeper than the limit is an error, never a stack overflow.
type nestedSlice []nestedSlice

type chain struct{ Next *chain }

func TestTypedGoValuesObeyMaxDepth(t *testing.T) {
	deep := func(n int) nestedSlice {
		v := nestedSlice{}
		for range n {
			v = nestedSlice{v}
		}
		return v
	}
	for _, c := range []struct {
		name     string
		value    any
		declared string
	}{
		{"named slice 20000 deep, declared str", deep(20000), "str"},
		{"named slice 1e6 deep, declared str", deep(1_000_000), "str"},
		{"named slice 1e6 deep, declared list[str]", deep(1_000_000), "list[str]"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := ToDeclared(c.value, c.declared)
			if !errors.Is(err, ErrLimit) {
				t.Errorf("got %v, want ErrLimit", err)
			}
		})
	}
	t.Run("pointer chain 1e6 deep, declared dict[str, int]", func(t *testing.T) {
		head := &chain{}
		for range 1_000_000 {
			head = &chain{Next: head}
		}
		_, err := ToDeclared(head, "dict[str, int]")
		if !errors.Is(err, ErrLimit) {
			t.Errorf("got %v, want ErrLimit", err)
		}
	})
	t.Run("within the limit, it converts", func(t *testing.T) {
		if _, err := ToDeclared(deep(100), "str"); err != nil {
			t.Error(err)
		}
	})
}

// 5. A cyclic value fails quickly: its cost does not grow with how many
// times the cycle could be unrolled before MaxDepth.
func TestCyclesFailEarly(t *testing.T) {
	s := []any{nil, nil}
	s[0], s[1] = s, s
	m := map[string]any{}
	m["a"], m["b"] = m, m
	for _, c := range []struct {
		name     string
		value    any
		declared string
	}{
		{"slice holding itself twice, against list of itself", s, "N"},
		{"map holding itself twice, against nested dicts", m, "dict[str, dict[str, dict[str, int]]]"},
		{"slice, declared str", s, "str"},
		{"map, declared str", m, "str"},
	} {
		t.Run(c.name, func(t *testing.T) {
			typ := recursiveList()
			if c.declared != "N" {
				typ = MustParseType(c.declared)
			}
			var err error
			work := workOf(t, func() { _, err = ToType(c.value, typ) })
			if err == nil {
				t.Fatal("want an error")
			}
			// Unrolled to the depth limit once, not exponentially.
			if work > 8*defaultMaxDepth {
				t.Errorf("work %d for a cycle", work)
			}
		})
	}
}

// recursiveList is N = list[N], as a schema compiles it.
func recursiveList() *Type {
	s, err := ParseSchema([]byte(schemaArrayOfArrays))
	if err != nil {
		panic(err)
	}
	t, _ := s.Lookup("p")
	return t
}

// 7. An integer the client wrote comes back with its own digits, even
// where float64 happens to hold it.
func TestIntegersKeepTheirDigits(t *testing.T) {
	s := mustSchema(t, Options{}, `{"type":"object","properties":{
		"u":{"anyOf":[{"type":"array","items":{"type":"integer"}},{"type":"null"}]},
		"ids":{"type":"array","items":{"type":"integer"}}}}`)
	for _, c := range []struct{ args, want string }{
		{`{"u":[18446744073709551616,"5"]}`, `{"u":[18446744073709551616,5]}`},
		{`{"ids":"[18446744073709551616, 9223372036854775808]"}`, `{"ids":[18446744073709551616,9223372036854775808]}`},
		{`{"ids":"[1152921504606846976]"}`, `{"ids":[1152921504606846976]}`},
	} {
		out, err := s.CoerceJSON([]byte(c.args))
		if err != nil || string(out) != c.want {
			t.Errorf("CoerceJSON(%s) = %s, %v; want %s", c.args, out, err, c.want)
		}
	}
}

// 8. Python's collection generics are lists.
func TestCollectionGenericsAreLists(t *testing.T) {
	for _, decl := range []string{"Sequence[int]", "typing.Sequence[int]", "frozenset[int]", "Iterable[int]", "collections.abc.Sequence[int]"} {
		if strings.HasPrefix(decl, "collections") {
			continue // not a name we read
		}
		if _, err := ToDeclared(5.0, decl); err == nil {
			t.Errorf("ToDeclared(5, %q) succeeded", decl)
		}
		got, err := ToDeclared([]any{"1"}, decl)
		if err != nil || fmt.Sprint(got) != "[1]" {
			t.Errorf("ToDeclared([\"1\"], %q) = %v, %v", decl, got, err)
		}
	}
}

// 9. A number read from JSON text and declared string is the text of the
// number as decoded, whatever the rest of the type declares.
func TestNumberTextDoesNotDependOnTheRestOfTheType(t *testing.T) {
	for _, decl := range []string{"tuple[str, int]", "tuple[str, float]", "list[str]", "list[str | int]"} {
		got, err := ToDeclared("[1.50, 1e2]", decl)
		if err != nil {
			t.Fatalf("%s: %v", decl, err)
		}
		if s := got.([]any)[0]; s != "1.5" {
			t.Errorf("%s: first element %#v, want \"1.5\"", decl, s)
		}
	}
}

// 10. A json.Number whose text is no JSON number does not conform; it is
// read as a numeric string, so that the result can be written as JSON.
func TestInvalidJSONNumberDoesNotConform(t *testing.T) {
	for _, text := range []string{"+5", " 5", "007", "5.", ".5e1"} {
		n := json.Number(text)
		if MustParseType("integer").Conforms(n) {
			t.Errorf("json.Number(%q) conforms to integer", text)
		}
		got, err := ToDeclared(n, "integer")
		if err != nil {
			t.Errorf("json.Number(%q): %v", text, err)
			continue
		}
		if _, err := json.Marshal(got); err != nil {
			t.Errorf("json.Number(%q) became %#v, which cannot be written: %v", text, got, err)
		}
	}
}

// 11. The cache of declared types is bounded by the bytes it keeps: a
// stream of distinct long declarations cannot keep their text alive.
func TestTypeCacheIsBoundedByBytes(t *testing.T) {
	pad := strings.Repeat(" ", 100_000)
	for i := range 1000 {
		if _, err := ToDeclared(nil, "int"+pad[:100_000-i]); err != nil {
			t.Fatal(err)
		}
	}
	if b := typeCache.bytes.Load(); b > maxCachedTypeBytes {
		t.Errorf("the cache keeps %d bytes of declarations", b)
	}
	if n := typeCache.count.Load(); n > maxCachedTypes {
		t.Errorf("the cache keeps %d declarations", n)
	}
}

// 12. Arguments that conform allocate nothing, however large the unions
// they meet.
func TestConformingUnionsAllocateNothing(t *testing.T) {
	s := mustSchema(t, Options{}, `{"type":"object","properties":{"p":{"type":"array",
		"items":{"anyOf":[{"type":"array","items":{"type":"string"}},{"type":"array","items":{"type":"integer"}}]}}}}`)
	items := make([]any, 2000)
	for i := range items {
		if i%2 == 0 {
			items[i] = []any{"a", "b"}
		} else {
			items[i] = []any{1.0, 2.0}
		}
	}
	args := map[string]any{"p": items}
	raw, _ := json.Marshal(args)
	checkConformingArgs(t, s, args, raw)

	// An enum beside a union gives its string members the enum's spelling
	// to fit: a string it allows, null, or another member's value fits as
	// it is, on every path.
	s = mustSchema(t, Options{}, `{"type":"object","properties":{
		"a":{"type":["string","null"],"enum":["celsius","fahrenheit",null]},
		"b":{"type":"string","enum":["celsius","fahrenheit"],"nullable":true},
		"c":{"anyOf":[{"type":"string"},{"type":"null"}],"enum":["celsius","fahrenheit",null]},
		"d":{"type":["string","integer"],"enum":["low",1]},
		"e":{"type":["string","null"],"const":"celsius"}}}`)
	for _, text := range []string{
		`{"a":"celsius","b":"fahrenheit","c":null,"d":1,"e":"celsius"}`,
		`{"a":null,"b":null,"c":"celsius","d":"low","e":null}`,
		`{"a":"kelvin","b":"kelvin","c":"kelvin","d":2,"e":"kelvin"}`,
	} {
		var args map[string]any
		if err := json.Unmarshal([]byte(text), &args); err != nil {
			t.Fatal(err)
		}
		checkConformingArgs(t, s, args, []byte(text))
	}
}

// 13. Long arrays of union values, and wide objects, cost work linear in
// their length, whether they conform or not.
func TestLongArraysOfUnionsAreLinear(t *testing.T) {
	s := mustSchema(t, Options{}, `{"type":"object","properties":{"p":{"type":"array",
		"items":{"anyOf":[{"type":"array","items":{"type":"boolean"}},{"type":"array","items":{"type":"integer"}},{"type":"string"}]}}}}`)
	array := func(n int, broken bool) []byte {
		var b strings.Builder
		b.WriteString(`{"p":[`)
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			switch {
			case broken && i%2 == 0:
				b.WriteString(`["true","1"]`)
			case broken:
				b.WriteString(`"[1, 2]"`)
			default:
				b.WriteString(`[1,2]`)
			}
		}
		b.WriteString(`]}`)
		return []byte(b.String())
	}
	sizes := []int{1000, 2000, 4000, 8000}
	for _, broken := range []bool{false, true} {
		t.Run(fmt.Sprintf("broken=%v", broken), func(t *testing.T) {
			checkLinear(t, sizes, func(n int) {
				if _, err := s.CoerceJSON(array(n, broken)); err != nil {
					t.Fatal(err)
				}
			})
		})
	}
}

func TestWideObjectsAreLinear(t *testing.T) {
	s := mustSchema(t, Options{}, `{"type":"object","additionalProperties":{"oneOf":[
		{"type":"object","properties":{"id":{"type":"integer"}},"required":["id"],"additionalProperties":false},
		{"type":"object","properties":{"name":{"type":"string"}},"required":["name"],"additionalProperties":false}]}}`)
	wide := func(n int) []byte {
		var b strings.Builder
		b.WriteByte('{')
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `"k%d":{"id":"%d"}`, i, i)
		}
		b.WriteByte('}')
		return []byte(b.String())
	}
	checkLinearInBytes(t, []int{1000, 2000, 4000, 8000}, func(n int) int {
		args := wide(n)
		out, err := s.CoerceJSON(args)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(out), `"id":"`) {
			t.Fatal("ids left as strings")
		}
		return len(args)
	})
}

// A union of a string and containers at every level of a deep value
// writes JSON text only where the result keeps it.
func TestStringOrContainerUnionIsLinear(t *testing.T) {
	s := mustSchema(t, Options{}, `{"$defs":{"N":{"anyOf":[{"type":"string"},
		{"type":"array","prefixItems":[{"$ref":"#/$defs/N"},{"type":"integer"}]}]}},
		"type":"object","properties":{"p":{"$ref":"#/$defs/N"}}}`)
	deep := func(n int) []byte {
		// Each level's second element is no integer, so each level's
		// array member fails and its string member (JSON text) is chosen.
		return []byte(`{"p":` + strings.Repeat(`[`, n) + `5` + strings.Repeat(`,"x"]`, n) + `}`)
	}
	checkLinear(t, []int{500, 1000, 2000, 4000}, func(n int) {
		if _, err := s.CoerceJSON(deep(n)); err != nil {
			t.Fatal(err)
		}
	})
	// The same as Go values: each level's JSON text was written as its
	// union chose the string member, and thrown away by the level above
	// (walker.settleResult), until the text walk began to use the value
	// walk for unions and the test above found it.
	checkLinear(t, []int{500, 1000, 2000, 4000}, func(n int) {
		var args map[string]any
		if err := json.Unmarshal(deep(n), &args); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Coerce(args); err != nil {
			t.Fatal(err)
		}
	})
}

// A budget of work bounds what no JSON text can ask for: Go values that
// share their slices, so that their tree is exponentially larger than
// their memory. Beyond it, a fast ErrLimit.
func TestWorkBudget(t *testing.T) {
	v := any("x")
	for range 40 {
		v = []any{v, v} // 2^40 leaves in 40 slices
	}
	s := mustSchema(t, Options{}, `{"$defs":{"N":{"anyOf":[{"type":"integer"},{"type":"array","items":{"$ref":"#/$defs/N"}}]}},
		"type":"object","properties":{"p":{"$ref":"#/$defs/N"}}}`)
	typ, _ := s.Lookup("p")
	var err error
	work := workOf(t, func() { _, err = ToType(v, typ) })
	if !errors.Is(err, ErrLimit) {
		t.Fatalf("got %v, want ErrLimit", err)
	}
	if work > 4*defaultMaxWork {
		t.Errorf("work %d, far beyond the budget %d", work, defaultMaxWork)
	}
	_, err = Options{MaxWork: 100}.ToDeclared([]any{"1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15", "16", "17", "18", "19", "20", "21", "22", "23", "24", "25", "26", "27", "28", "29", "30", "31", "32", "33", "34", "35", "36", "37", "38", "39", "40", "41", "42", "43", "44", "45", "46", "47", "48", "49", "50", "51", "52", "53", "54", "55", "56", "57", "58", "59", "60", "61", "62", "63", "64", "65", "66", "67", "68", "69", "70", "71", "72", "73", "74", "75", "76", "77", "78", "79", "80", "81", "82", "83", "84", "85", "86", "87", "88", "89", "90", "91", "92", "93", "94", "95", "96", "97", "98", "99", "100", "101"}, "list[int]")
	if !errors.Is(err, ErrLimit) {
		t.Errorf("MaxWork 100: got %v, want ErrLimit", err)
	}
}

// 6. SchemaFor derives recursive types of every kind, as field
// types, without overflowing the stack.
type (
	recursiveSlice  []recursiveSlice
	recursiveMap    map[string]recursiveMap
	recursiveHolder struct {
		S recursiveSlice `json:"s"`
		M recursiveMap   `json:"m"`
	}
)

func TestSchemaForRecursiveNonStructTypes(t *testing.T) {
	s, err := SchemaFor[recursiveHolder]()
	if err != nil {
		t.Fatal(err)
	}
	out, err := s.Coerce(map[string]any{"s": "[[], [[]]]", "m": `{"a": {"b": {}}}`})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(out["s"]) != "[[] [[]]]" || fmt.Sprint(out["m"]) != "map[a:map[b:map[]]]" {
		t.Errorf("got %v", out)
	}
}

// A union of two array types whose elements are a union themselves: the
// value fits the second member as it is, and every path says so (the set
// of types a member meets may hold unions, which are fitted through their
// members).
func TestFitSetsHoldingUnions(t *testing.T) {
	for _, c := range []struct {
		decl string
		v    any
	}{
		{"list[int] | list[Optional[list]]", []any{[]any{}}},
		{"list[int] | list[Optional[list]]", []any{nil, []any{"x"}}},
		{"list[list[int] | list[Optional[list]]]", []any{[]any{[]any{}}}},
		{"dict[str, int] | dict[str, Optional[dict]]", map[string]any{"a": map[string]any{}}},
	} {
		typ := MustParseType(c.decl)
		if !typ.Conforms(c.v) {
			t.Errorf("%s.Conforms(%v) = false, want true", c.decl, c.v)
		}
		text, _ := json.Marshal(c.v)
		if got, err := ToType(c.v, typ); err != nil || !identical(got, c.v) {
			t.Errorf("ToType(%v, %s) = %v, %v; want it as it is", c.v, c.decl, got, err)
		}
		s, err := SchemaFromTypes(map[string]string{"p": c.decl})
		if err != nil {
			t.Fatal(err)
		}
		args := map[string]any{"p": c.v}
		if n := testing.AllocsPerRun(10, func() { s.Coerce(args) }); n != 0 {
			t.Errorf("Coerce of conforming %s allocates %v times", c.decl, n)
		}
		raw := []byte(`{"p":` + string(text) + `}`)
		if n := testing.AllocsPerRun(10, func() { s.CoerceJSON(raw) }); n != 0 {
			t.Errorf("CoerceJSON of conforming %s allocates %v times", c.decl, n)
		}
		if got, err := s.CoerceJSON(raw); err != nil || &got[0] != &raw[0] {
			t.Errorf("CoerceJSON of conforming %s = %s, %v; want its input", c.decl, got, err)
		}
	}
}

// An integer in JSON text is never rounded, however it is written: with
// an exponent or a fraction of zeros, a whole number that float64 does
// not hold exactly keeps its text, through every entry point.
func TestWholeNumbersWrittenWithExponents(t *testing.T) {
	for _, text := range []string{"1e23", "9007199254740993.0", "9007199254740993e0", "1.5e300"} {
		got, err := ToDeclared("["+text+"]", "list[int]")
		if err != nil || diff([]any{json.Number(text)}, got) != "" {
			t.Errorf("ToDeclared([%s], list[int]) = %#v, %v; want [json.Number(%q)]", text, got, err, text)
		}
		s := mustSchema(t, Options{}, `{"type":"object","properties":{"n":{"type":"array","items":{"type":"integer"}}}}`)
		out, err := s.Coerce(map[string]any{"n": "[" + text + "]"})
		if err != nil || diff([]any{json.Number(text)}, out["n"]) != "" {
			t.Errorf("Coerce of %q = %#v, %v; want [json.Number(%q)]", "["+text+"]", out["n"], err, text)
		}
	}
	if got, err := ToDeclared("[1e22, 2.5e3]", "list[float]"); err != nil || diff([]any{1e22, 2500.0}, got) != "" {
		t.Errorf("numbers float64 holds exactly: %#v, %v", got, err)
	}
}

// The JSON text of a union's string member is written as the result
// leaves the walk (walker.settleResult), which looks only into the
// containers the walk made: a caller's map that holds itself, kept as it
// is beside a converted value, is not followed.
func TestSettleDoesNotFollowTheCallersCycles(t *testing.T) {
	s := mustSchema(t, Options{}, `{"type":"object","properties":{"p":{"type":"object","properties":{
		"n": {"type": "integer"},
		"t": {"anyOf": [{"type": "string"}, {"type": "integer"}]}}}}}`)
	self := map[string]any{}
	self["self"] = self
	args := map[string]any{"p": map[string]any{"n": "5", "t": map[string]any{"a": 1.0}, "loop": self}}
	got, err := s.Coerce(args)
	if err != nil {
		t.Fatal(err)
	}
	p := got["p"].(map[string]any)
	if p["n"] != 5.0 || p["t"] != `{"a":1}` {
		t.Errorf("got n = %#v, t = %#v; want 5 and the JSON text of t", p["n"], p["t"])
	}
	if m, _ := p["loop"].(map[string]any); m == nil || m["self"] == nil {
		t.Errorf("the caller's map that holds itself was not kept: %#v", p["loop"])
	}
}

// The walk over text meets unions three ways: Optional[T] is T's walk, in
// place (soleMember); so is a union of objects whose keys choose a member
// (keyedMember: required, closed and const keywords), which passes over
// each value by the pre-pass's record of where it ends rather than read
// it again; and a union whose members must be evaluated together is
// decoded and converted by the value walk, once, however deep it is
// (rawUnionInto). Chains of each, 4000 levels deep, take work linear in
// their depth. (Their bytes allocated per unit cross the scratch pool's
// limit between these sizes, as TestStringOrContainerUnionIsLinear's do,
// and settle at about 3.5 KB a level for the last: counted here is the
// work.)
func TestUnionChainsInTextAreLinear(t *testing.T) {
	deep := func(n int) []byte {
		return []byte(`{"p":` + strings.Repeat(`{"k":"a","n":"1","a":`, n) + `null` + strings.Repeat(`}`, n) + `}`)
	}
	for _, members := range []string{
		`{"type":"null"}`, // Optional[T]
		`{"type":"object","properties":{"b":{"type":"string"}},"required":["b"]},{"type":"null"}`, // keys: b is missing
		`{"type":"object","properties":{"k":{"const":"b"}}},{"type":"null"}`,                      // keys: k is not "b"
		`{"type":"object","properties":{"b":{"type":"string"}}},{"type":"null"}`,                  // evaluated together
	} {
		s := mustSchema(t, Options{MaxDepth: 100000}, `{"$defs":{"N":{"anyOf":[{"type":"object",
			"properties":{"a":{"$ref":"#/$defs/N"},"n":{"type":"integer"}}},`+members+`]}},
			"type":"object","properties":{"p":{"$ref":"#/$defs/N"}}}`)
		prev := 0
		for _, n := range []int{500, 1000, 2000, 4000} {
			w := workOf(t, func() {
				if _, err := s.CoerceJSON(deep(n)); err != nil {
					t.Fatal(err)
				}
			})
			if prev > 0 && w > 2*prev+64 {
				t.Errorf("%s: size %d: work %d, more than twice the %d of half the size", members, n, w, prev)
			}
			prev = w
		}
	}
}
