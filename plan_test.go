package coerce

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
)

// The regression tests of the compiled plan: each behaviour here was once
// broken because two paths applied a rule differently, or a cache answered
// for the wrong key.

// Defect 1: the type a key gets from properties and patternProperties is
// decided per property when the schema is compiled, not by a cache keyed by
// the set of patterns a key matches, which one client's keys could fill for
// another's.
func TestPatternTypesDoNotLeakBetweenProperties(t *testing.T) {
	const src = `{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"string"}},
		"patternProperties":{"^[ab]$":{},"^[a-z]$":{}}}`
	for _, order := range [][]string{{"a", "b"}, {"b", "a"}} {
		s := mustSchema(t, Options{}, src)
		for _, k := range order {
			in := map[string]any{"a": "5", "b": "6"}
			in = map[string]any{k: in[k]}
			got, err := s.Coerce(in)
			if err != nil {
				t.Fatalf("order %v, key %s: %v", order, k, err)
			}
			want := map[string]any{"a": 5.0, "b": "6"}[k]
			if got[k] != want {
				t.Errorf("order %v: Coerce({%q: ...})[%q] = %#v, want %#v", order, k, k, got[k], want)
			}
		}
	}
	for i := range 50 {
		s := mustSchema(t, Options{}, src)
		got, err := s.Coerce(map[string]any{"a": "5", "b": "6"})
		if err != nil || got["a"] != 5.0 || got["b"] != "6" {
			t.Fatalf("run %d: got %v, %v; want a: 5, b: \"6\"", i, got, err)
		}
		raw, err := s.CoerceJSON([]byte(`{"a":"5","b":"6"}`))
		if err != nil || string(raw) != `{"a":5,"b":"6"}` {
			t.Fatalf("run %d: CoerceJSON gave %s, %v", i, raw, err)
		}
	}
}

const petSchemas = `"$defs": {
	"Cat": {"type":"object","properties":{"petType":{"type":"string"},"n":{"type":"string"}},"required":["petType"]},
	"Dog": {"type":"object","properties":{"petType":{"type":"string"},"n":{"type":"integer"}},"required":["petType"]},
	"Pet": {"oneOf":[{"$ref":"#/$defs/Cat"},{"$ref":"#/$defs/Dog"}],"discriminator":{"propertyName":"petType"}}
}`

// Defect 2: a discriminator chooses the member through every wrapper of its
// union.
func TestDiscriminatorSurvivesWrappers(t *testing.T) {
	for _, pet := range []string{
		`{"$ref":"#/$defs/Pet"}`,
		`{"anyOf":[{"$ref":"#/$defs/Pet"},{"type":"null"}]}`,
		`{"$ref":"#/$defs/Pet","nullable":true}`,
		`{"type":"object","$ref":"#/$defs/Pet"}`,
		`{"allOf":[{"$ref":"#/$defs/Pet"},{"type":"object"}]}`,
		`{"type":["object","null"],"$ref":"#/$defs/Pet"}`,
	} {
		s := mustSchema(t, Options{}, `{"type":"object","properties":{"pet":`+pet+`},`+petSchemas+`}`)
		got, err := s.Coerce(map[string]any{"pet": map[string]any{"petType": "Dog", "n": "5"}})
		if err != nil {
			t.Errorf("%s: %v", pet, err)
			continue
		}
		if n := got["pet"].(map[string]any)["n"]; n != 5.0 {
			t.Errorf("%s: Dog's n = %#v, want 5", pet, n)
		}
		raw, err := s.CoerceJSON([]byte(`{"pet":{"petType":"Dog","n":"5"}}`))
		if err != nil || string(raw) != `{"pet":{"petType":"Dog","n":5}}` {
			t.Errorf("%s: CoerceJSON = %s, %v", pet, raw, err)
		}
		raw, err = s.CoerceJSON([]byte(`{"pet":{"petType":"Cat","n":5}}`))
		if err != nil || string(raw) != `{"pet":{"petType":"Cat","n":"5"}}` {
			t.Errorf("%s: Cat: CoerceJSON = %s, %v", pet, raw, err)
		}
	}
}

// Defect 3: the failure budget counts values that fail the call, once
// each, not the attempts of union members that were discarded.
func TestFailureBudgetCountsFailuresNotAttempts(t *testing.T) {
	var objs []string
	for i := range 4 {
		objs = append(objs, fmt.Sprintf(`{"type":"object","properties":{"k%d":{"type":"integer"}},"required":["k%d"]}`, i, i))
	}
	s := mustSchema(t, Options{}, `{"type":"object","properties":{"xs":{"type":"array","items":{"anyOf":[`+
		strings.Join(objs, ",")+`,{"type":"integer"}]}}}}`)
	elems := make([]string, 20000)
	for i := range elems {
		elems[i] = `"1"`
	}
	raw, err := s.CoerceJSON([]byte(`{"xs":[` + strings.Join(elems, ",") + `]}`))
	if err != nil {
		t.Fatalf("20000 convertible elements: %v", err)
	}
	if want := `{"xs":[` + strings.Repeat("1,", 19999) + `1]}`; string(raw) != want {
		t.Fatalf("20000 convertible elements: not all converted")
	}
	args := map[string]any{"xs": anySlice(20000, "1")}
	got, err := s.Coerce(args)
	if err != nil || got["xs"].([]any)[19999] != 1.0 {
		t.Fatalf("Coerce of 20000 convertible elements: %v", err)
	}

	var members []string
	for i := range 60 {
		members = append(members, fmt.Sprintf(`{"type":"object","properties":{"m%d":{"type":"integer"}},"required":["m%d"]}`, i, i))
	}
	s = mustSchema(t, Options{}, `{"type":"object","properties":{"n":{"type":"integer"},
		"xs":{"type":"array","items":{"anyOf":[`+strings.Join(members, ",")+`]}}}}`)
	got, err = s.Coerce(map[string]any{"n": "5", "xs": anySlice(2000, "x")})
	if got["n"] != 5.0 {
		t.Errorf("n = %#v beside 2000 failing elements, want 5", got["n"])
	}
	if errors.Is(err, ErrLimit) {
		t.Errorf("2000 failing elements of a 60-member union: %v", firstLine(err))
	}
}

func anySlice(n int, v any) []any {
	s := make([]any, n)
	for i := range s {
		s[i] = v
	}
	return s
}

func firstLine(err error) string {
	s, _, _ := strings.Cut(err.Error(), "\n")
	return s
}

// Defect 4: a number in JSON text is never itself a reason to fail.
func TestNumbersBeyondFloat64PassAsWritten(t *testing.T) {
	s := mustSchema(t, Options{}, `{"type":"object","properties":{"a":{"type":"integer"},"n":{"type":"number"}}}`)
	for _, c := range []struct{ in, want string }{
		{`{"a":"5","z":1e-400}`, `{"a":5,"z":1e-400}`},
		{`{"a":"5","z":1e400}`, `{"a":5,"z":1e400}`},
		{`{"n":1e400}`, `{"n":1e400}`},
		{`{"z":[1e400,{"y":-1e999}]}`, `{"z":[1e400,{"y":-1e999}]}`},
	} {
		got, err := s.CoerceJSON([]byte(c.in))
		if err != nil || string(got) != c.want {
			t.Errorf("CoerceJSON(%s) = %s, %v; want %s", c.in, got, err, c.want)
		}
	}
	type target struct {
		N json.Number     `json:"n"`
		R json.RawMessage `json:"r"`
		A any             `json:"a"`
		F float64         `json:"f"`
	}
	for _, in := range []string{`{"n":1e400}`, `{"r":1e400}`, `{"a":1e-400}`, `{"f":1e-400}`, `{"n":"1e400"}`} {
		var want, got target
		werr := json.Unmarshal([]byte(in), &want)
		gerr := Unmarshal([]byte(in), &got)
		if (werr == nil) != (gerr == nil) || !reflect.DeepEqual(got, want) {
			t.Errorf("Unmarshal(%s) = %+v, %v; json.Unmarshal gives %+v, %v", in, got, gerr, want, werr)
		}
	}
}

// Defect 6: the spelling of a key (escaped, duplicated) does not steer the
// union: keys are decoded once, the last occurrence counts.
func TestKeySpellingDoesNotSteerTheUnion(t *testing.T) {
	s := mustSchema(t, Options{}, `{"type":"object","properties":{"p":{"oneOf":[
		{"type":"object","properties":{"kind":{"const":"a"},"v":{"type":"string"}}},
		{"type":"object","properties":{"kind":{"const":"b"},"v":{"type":"integer"}}}]}}}`)
	for _, in := range []string{
		`{"p":{"\u006bind":"b","v":"5"}}`,
		`{"p":{"kind":"a","kind":"b","v":"5"}}`,
		`{"p":{"ki\u006ed":"b","v":5}}`,
	} {
		var args map[string]any
		if err := json.Unmarshal([]byte(in), &args); err != nil {
			t.Fatal(err)
		}
		got, err := s.Coerce(args)
		if err != nil || got["p"].(map[string]any)["v"] != 5.0 {
			t.Errorf("Coerce(%s) = %v, %v; want v: 5 (member b)", in, got, err)
		}
		raw, err := s.CoerceJSON([]byte(in))
		if err != nil {
			t.Errorf("CoerceJSON(%s): %v", in, err)
			continue
		}
		var back map[string]any
		if err := json.Unmarshal(raw, &back); err != nil || back["p"].(map[string]any)["v"] != 5.0 {
			t.Errorf("CoerceJSON(%s) = %s; want v: 5 (member b)", in, raw)
		}
	}
}

// Defect 7: a typed Go value that conforms is returned as it is, whatever
// union it meets, on every run.
func TestConformingTypedValuesAreReturnedAsTheyAre(t *testing.T) {
	in := []map[string]string{{"x": "a"}}
	got, err := ToDeclared(in, "list[map[string]int | map[string]str]")
	if err != nil {
		t.Fatal(err)
	}
	if g, ok := got.([]map[string]string); !ok || &g[0] != &in[0] {
		t.Errorf("got %T %v, want the input itself", got, got)
	}
	m := &map[string]any{"a": map[string]string{}, "b": "x"}
	for i := range 200 {
		for _, o := range []Options{{}, {MaxDepth: 3}} {
			got, err := o.ToDeclared(m, "dict[str, list[str]] | dict[str, str | map]")
			if err != nil {
				t.Fatalf("run %d, MaxDepth %d: %v", i, o.MaxDepth, err)
			}
			if got != any(m) {
				t.Fatalf("run %d, MaxDepth %d: got a copy %v, want the input itself", i, o.MaxDepth, got)
			}
		}
	}
}

// Defect 8: the same failure gets the same sentinel from every entry point.
func TestSameFailureSameSentinel(t *testing.T) {
	s := mustSchema(t, Options{}, `{"type":"object","properties":{"p":{"anyOf":[{"type":"integer"},
		{"type":"array","items":{"type":["null","boolean"]}}]}}}`)
	_, err1 := s.Coerce(map[string]any{"p": []any{"x"}})
	_, err2 := s.CoerceJSON([]byte(`{"p":["x"]}`))
	p, _ := s.Lookup("p")
	_, err3 := ToType([]any{"x"}, p)
	for _, sentinel := range []error{ErrSyntax, ErrKind} {
		if errors.Is(err1, sentinel) != errors.Is(err2, sentinel) || errors.Is(err1, sentinel) != errors.Is(err3, sentinel) {
			t.Errorf("%v: Coerce: %v\nCoerceJSON: %v\nToType: %v", sentinel, err1, err2, err3)
		}
	}
}

// Defect 9: invalid UTF-8 in a Go string is an error when it would be
// written as JSON text, as it is when JSON text holding it is read.
func TestInvalidUTF8InGoStringsIsAnError(t *testing.T) {
	in := map[string]any{"a": "ok\xff"}
	got, err := ToDeclared(in, "str")
	if err == nil {
		t.Fatalf("got %q, want an error", got)
	}
	if !errors.Is(err, ErrSyntax) {
		t.Errorf("err = %v, want ErrSyntax as for JSON text", err)
	}
	if !reflect.DeepEqual(got, in) {
		t.Errorf("got %v, want the input unchanged", got)
	}
	_, jerr := ToDeclared("{\"a\":\"ok\xff\"}", "dict")
	if !errors.Is(jerr, ErrSyntax) {
		t.Errorf("JSON text with invalid UTF-8: %v, want ErrSyntax", jerr)
	}
}

type textKey struct{ a, b string }

func (k textKey) MarshalText() ([]byte, error) { return []byte(k.a + "." + k.b), nil }

// Defect 10: maps keyed by integers or TextMarshalers are objects, as
// encoding/json writes them.
func TestIntegerAndTextKeyedMapsAreObjects(t *testing.T) {
	for _, c := range []struct {
		in   any
		text string
	}{
		{map[int]string{2: "b", 10: "a"}, `{"10":"a","2":"b"}`},
		{map[uint8]int{1: 1}, `{"1":1}`},
		{map[textKey]int{{"x", "y"}: 1}, `{"x.y":1}`},
	} {
		got, err := ToDeclared(c.in, "str")
		if err != nil || got != c.text {
			t.Errorf("ToDeclared(%#v, str) = %#v, %v; want %s", c.in, got, err, c.text)
		}
		got, err = ToDeclared(c.in, "dict")
		if err != nil || !reflect.DeepEqual(got, c.in) {
			t.Errorf("ToDeclared(%#v, dict) = %#v, %v; want it as it is", c.in, got, err)
		}
	}
	got, err := ToDeclared(map[int]string{1: "5"}, "dict[str, int]")
	if err != nil || !reflect.DeepEqual(got, map[string]any{"1": 5.0}) {
		t.Errorf("ToDeclared(map[int]string{1: \"5\"}, dict[str, int]) = %#v, %v", got, err)
	}
}

// Defect 11: an integer keeps its digits however it is written, also when
// it becomes text: a whole number float64 would write back as another
// integer (2^63 as 9223372036854776000) is read as json.Number, which
// becomes its own text.
func TestWholeNumbersBecomeTextWithTheirDigits(t *testing.T) {
	s := mustSchema(t, Options{}, `{"type":"object","properties":{"s":{"type":"string"}}}`)
	for _, c := range []struct{ in, want string }{
		{`{"s":9223372036854775808.0}`, `{"s":"9223372036854775808.0"}`},
		{`{"s":9.223372036854775808e18}`, `{"s":"9.223372036854775808e18"}`},
		{`{"s":18446744073709551616}`, `{"s":"18446744073709551616"}`},
		{`{"s":9007199254740993}`, `{"s":"9007199254740993"}`},
		{`{"s":1e21}`, `{"s":"1e+21"}`},
		{`{"s":1.50}`, `{"s":"1.5"}`},
	} {
		got, err := s.CoerceJSON([]byte(c.in))
		if err != nil || string(got) != c.want {
			t.Errorf("CoerceJSON(%s) = %s, %v; want %s", c.in, got, err, c.want)
		}
		// Coerce on the text as this package decodes it gives the same.
		v, err := decodeJSON([]byte(c.in), false, 0)
		if err != nil {
			t.Fatal(err)
		}
		m, err := s.Coerce(v.(map[string]any))
		var w map[string]any
		json.Unmarshal([]byte(c.want), &w)
		if err != nil || m["s"] != w["s"] {
			t.Errorf("Coerce(%s) = %v, %v; want %v", c.in, m, err, w)
		}
	}
}

// Defect 12: a $ref to a subschema by its own $id in the same document
// resolves.
func TestRefByIDInTheSameDocument(t *testing.T) {
	s := mustSchema(t, Options{}, `{"type":"object","properties":{"f":{"$ref":"http://e.com/foo.json#"}},
		"definitions":{"foo":{"$id":"http://e.com/foo.json","type":"integer"}}}`)
	got, err := s.Coerce(map[string]any{"f": "5"})
	if err != nil || got["f"] != 5.0 {
		t.Errorf("got %v, %v", got, err)
	}
}

// Defect 13: a property with const or enum that tells objects apart is
// compared with them after its own coercion, the rule of enums included
// (README, "Schemas"): "Square" chooses the square member and is respelled,
// whether the object is a map, JSON text, or JSON text in a string. The
// fitter compared "Square" as it is, found no candidate, and kept the map
// as fitting the circle. With the rule off, "Square" chooses nothing and
// the value stays as it came, on every path.
func TestDiscriminatorIsReadAfterTheRuleOfEnums(t *testing.T) {
	const schema = `{"type":"object","properties":{"shape":{"anyOf":[
		{"type":"object","properties":{"kind":{"type":"string","enum":["circle"]},"r":{"type":"number"}}},
		{"type":"object","properties":{"kind":{"const":"square"},"side":{"type":"number"}}}]}}}`
	for _, c := range []struct {
		opts     Options
		in, want string
	}{
		{Options{}, `{"shape":{"kind":"Square","side":"2"}}`, `{"shape":{"kind":"square","side":2}}`},
		{Options{}, `{"shape":{"kind":"CIRCLE","r":"2"}}`, `{"shape":{"kind":"circle","r":2}}`},
		{Options{}, `{"shape":"{\"kind\":\"Square\",\"side\":\"2\"}"}`, `{"shape":{"kind":"square","side":2}}`},
		{Options{}, `{"shape":{"kind":"square","side":2}}`, `{"shape":{"kind":"square","side":2}}`},
		{Options{ExactEnums: true}, `{"shape":{"kind":"Square","side":"2"}}`, `{"shape":{"kind":"Square","side":"2"}}`},
		// The square takes "Square" as it is (the rule is off) and "r" as
		// a key it does not declare: the value conforms to it, so nothing
		// changes, though the circle would convert "r". CoerceJSON took
		// "Square", which it decodes to see whether the rule might act,
		// as converted, and so chose the circle (FuzzPlanDifferential).
		{Options{ExactEnums: true}, `{"shape":{"kind":"Square","r":"2"}}`, `{"shape":{"kind":"Square","r":"2"}}`},
		{Options{StructuredOnly: true}, `{"shape":{"kind":"Square","side":"2"}}`, `{"shape":{"kind":"Square","side":"2"}}`},
	} {
		s := mustSchema(t, c.opts, schema)
		var args map[string]any
		if err := json.Unmarshal([]byte(c.in), &args); err != nil {
			t.Fatal(err)
		}
		var want map[string]any
		if err := json.Unmarshal([]byte(c.want), &want); err != nil {
			t.Fatal(err)
		}
		got, err := s.Coerce(args)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%+v: Coerce(%s) = %v, %v; want %s", c.opts, c.in, got, err, c.want)
		}
		raw, err := s.CoerceJSON([]byte(c.in))
		if err != nil || string(raw) != c.want {
			t.Errorf("%+v: CoerceJSON(%s) = %s, %v; want %s", c.opts, c.in, raw, err, c.want)
		}
	}
}

// Defect 14: a call stopped by a limit of its own, the work budget or the
// size of its arguments, says so in the same words from every entry point:
// the limit, no path (where the budget runs out depends on the order of
// the work), and no declared type set beside the arguments as if their
// kinds disagreed. CoerceJSON said "want object, found JSON text of an
// object" where Coerce said neither, and both named the budget of the call
// (MaxWork with 32 units for each byte of text read) as MaxWork's value.
func TestCallLimitsSayTheSame(t *testing.T) {
	// w takes much work: each item tried against 40 list types, each of
	// whose items is tried against 40 object types.
	var outer, inner []string
	for i := range 40 {
		inner = append(inner, fmt.Sprintf(`{"type":"object","properties":{"k%d":{"type":"integer"}},"required":["k%d"]}`, i, i))
	}
	for i := range 40 {
		outer = append(outer, fmt.Sprintf(`{"type":"array","minItems":%d,"items":{"anyOf":[%s]}}`, i, strings.Join(inner, ",")))
	}
	schema := `{"type":"object","properties":{"n":{"type":"integer"},"m":{"type":"integer"},
		"w":{"type":"array","items":{"anyOf":[` + strings.Join(outer, ",") + `]}}}}`
	const text = `{"n":"5","w":[[{"k1":"3"}]],"m":"2"}`
	var args map[string]any
	if err := json.Unmarshal([]byte(text), &args); err != nil {
		t.Fatal(err)
	}
	work := Options{MaxWork: 100}
	s := mustSchema(t, work, schema)
	w, _ := s.Lookup("w")
	size := Options{MaxSize: 10}
	var into struct{ N int }

	const workMessage = "coerce: limit exceeded: the call needs more work than Options.MaxWork (100) allows"
	for _, c := range []struct {
		name  string
		call  func() error
		value any
		want  string
	}{
		{"Coerce", func() error { _, err := s.Coerce(args); return err }, args, workMessage},
		{"CoerceJSON", func() error { _, err := s.CoerceJSON([]byte(text)); return err }, json.RawMessage(text), workMessage},
		{"ToType", func() error { _, err := work.ToType(args["w"], w); return err }, args["w"], workMessage},
		{"CoerceJSON, MaxSize", func() error { _, err := s.WithOptions(size).CoerceJSON([]byte(text)); return err },
			json.RawMessage(text), "coerce: limit exceeded: JSON text longer than 10 bytes"},
		{"Unmarshal, MaxSize", func() error { return size.Unmarshal([]byte(text), &into) },
			json.RawMessage(text), "coerce: limit exceeded: JSON text longer than 10 bytes"},
	} {
		err := c.call()
		var e *Error
		if !errors.Is(err, ErrLimit) || !errors.As(err, &e) {
			t.Errorf("%s: %v, want an *Error with ErrLimit", c.name, err)
			continue
		}
		if err.Error() != c.want {
			t.Errorf("%s: %q, want %q", c.name, err, c.want)
		}
		if e.Path != "" || e.Declared != "" || !reflect.DeepEqual(e.Value, c.value) {
			t.Errorf("%s: Path %q, Declared %q, Value %s; want the call's: no path, no type, the value given", c.name, e.Path, e.Declared, short(e.Value))
		}
		// What a model reads: the arguments, the limit, what to do.
		want := "Invalid arguments: 1 problem. Correct it and send the call again.\n- the arguments: too large or too deeply nested (" +
			strings.TrimPrefix(c.want, "coerce: limit exceeded: ") + "); send a smaller value."
		if got := s.Feedback(err); got != want {
			t.Errorf("%s: Feedback\n%s\nwant\n%s", c.name, got, want)
		}
		checkErrorContract(t, err)
	}
}

// BFCL's function schemas use the type names of Python: ParseSchema reads
// them as ToDeclared does.
func TestSchemasUseTheTypeNamesToDeclaredKnows(t *testing.T) {
	s := mustSchema(t, Options{}, `{"type":"dict","properties":{"x":{"type":"float"},"t":{"type":"tuple","items":{"type":"integer"}},
		"a":{"type":"any"},"d":{"type":"dict"},"l":{"type":"list"}},"required":["x"]}`)
	got, err := s.Coerce(map[string]any{"x": "1.5", "t": "[1,2]", "a": "z", "d": `{"k":1}`})
	if err != nil || got["x"] != 1.5 || !reflect.DeepEqual(got["t"], []any{1.0, 2.0}) || got["a"] != "z" ||
		!reflect.DeepEqual(got["d"], map[string]any{"k": 1.0}) {
		t.Errorf("got %v, %v", got, err)
	}
}

var _ = math.Inf

// Compiling ends when ParseSchema returns: no call of Coerce, CoerceJSON
// or ToType starts the schema compiler again, whatever keys and values it
// meets (patternProperties matched in every combination, discriminated
// unions behind wrappers, recursive references).
func TestNothingCompilesAfterParseSchema(t *testing.T) {
	s := mustSchema(t, Options{}, `{"type":"object",
		"properties":{"a":{"type":"integer"},"b":{"type":"string"},"pet":{"anyOf":[{"$ref":"#/$defs/Pet"},{"type":"null"}]},
			"tree":{"$ref":"#/$defs/Tree"}},
		"patternProperties":{"^[ab]":{"type":"integer"},"^[a-z]$":{},"x":{"type":"object","properties":{"n":{"type":"integer"}}},
			"y":{"type":"object","properties":{"m":{"type":"boolean"}}},"z":{"type":"array"},"^q":{"type":"number"},"w":{}},
		`+petSchemas[:len(petSchemas)-1]+`,
		"Tree":{"type":"object","properties":{"v":{"type":"integer"},"kids":{"type":"array","items":{"$ref":"#/$defs/Tree"}}}}}}`)
	compiles := 0
	compilerStarted = func() { compiles++ }
	defer func() { compilerStarted = nil }()
	keys := []string{"a", "b", "ab", "xy", "xyz", "qx", "qxyzw", "wxyz", "c", "xq"}
	for _, k := range keys {
		for _, v := range []string{`"5"`, `{"n":"1","m":"true"}`, `"[1]"`, `[{"n":"2"}]`} {
			text := `{"` + k + `":` + v + `,"pet":{"petType":"Dog","n":"5"},"tree":{"v":"1","kids":[{"v":"2","kids":[]}]}}`
			if _, err := s.CoerceJSON([]byte(text)); err != nil && !errors.Is(err, ErrKind) && !errors.Is(err, ErrSyntax) {
				t.Fatalf("%s: %v", text, err)
			}
			var args map[string]any
			json.Unmarshal([]byte(text), &args)
			s.Coerce(args)
			for _, name := range []string{k, "pet", "tree"} {
				if p, ok := s.Lookup(name); ok {
					ToType(args[name], p)
				}
			}
		}
	}
	if compiles != 0 {
		t.Errorf("the schema compiler started %d times after ParseSchema returned", compiles)
	}
}

// Defect 5: keys matching patternProperties in many combinations cost
// linear work: the merged types were made when the schema was compiled.
func TestPatternCombinationsAreLinear(t *testing.T) {
	for _, npat := range []int{4, 9} {
		pats := make([]string, npat)
		for i := range pats {
			pats[i] = fmt.Sprintf(`"%c":{"type":"object","properties":{"p%d":{"type":"integer"}}}`, 'a'+i, i)
		}
		s := mustSchema(t, Options{}, `{"type":"object","patternProperties":{`+strings.Join(pats, ",")+`}}`)
		wide := func(n int) []byte {
			var b strings.Builder
			b.WriteByte('{')
			for i := range n {
				if i > 0 {
					b.WriteByte(',')
				}
				key := make([]byte, 0, npat+8)
				for j := range npat {
					if i>>j&1 == 1 {
						key = append(key, byte('a'+j))
					}
				}
				fmt.Fprintf(&b, `"%s%d":{"p0":"%d"}`, key, i, i)
			}
			b.WriteByte('}')
			return []byte(b.String())
		}
		checkLinearInBytes(t, []int{500, 1000, 2000, 4000}, func(n int) int {
			args := wide(n)
			if _, err := s.CoerceJSON(args); err != nil {
				t.Fatal(err)
			}
			return len(args)
		})
	}
}

// Invalid UTF-8 in typed Go values too, which encoding/json writes.
func TestInvalidUTF8InTypedGoValuesIsAnError(t *testing.T) {
	type rec struct {
		Name string `json:"name"`
	}
	for _, v := range []any{rec{"ok\xff"}, map[string]string{"a\xff": "b"}, []string{"\xc3"}} {
		got, err := ToDeclared(v, "str")
		if !errors.Is(err, ErrSyntax) {
			t.Errorf("ToDeclared(%#v, str) = %#v, %v; want ErrSyntax", v, got, err)
		}
	}
}
