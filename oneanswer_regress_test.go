package coerce

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

// The reproductions of the issue "One engine" and of the near-JSON
// bullets of "Hostile input on the new paths", each named for the
// behaviour it holds.

func TestCoerceJSONSameBytesWithOrWithoutOnChange(t *testing.T) {
	s := schemaOf(t, `{"type":"object","properties":{"cfg":{"type":"object"},"n":{"type":"integer"},"b":{"type":"boolean"}}}`)
	args := []byte(`{"cfg":"{\"b\":1,\"a\":2}","n":"5","b":"true"}`)
	plain, err := s.CoerceJSON(args)
	if err != nil {
		t.Fatal(err)
	}
	var got []Change
	heard, err := s.WithOptions(Options{OnChange: func(c Change) { got = append(got, c) }}).CoerceJSON(args)
	if err != nil || !bytes.Equal(plain, heard) {
		t.Errorf("without OnChange %s; with it %s, %v", plain, heard, err)
	}
	if d := changesMismatch(got, []Change{
		{Path: "/b", Rule: BooleanFromText, Declared: "boolean", Found: String, Preview: "true"},
		{Path: "/cfg", Rule: JSONText, Declared: "object", Found: String, Preview: `{"b":1,"a":2}`},
		{Path: "/n", Rule: NumberFromText, Declared: "integer", Found: String, Preview: "5"},
	}); d != "" {
		t.Errorf("changes: %s", d)
	}
}

func TestStructuredReadsAsToDeclared(t *testing.T) {
	for _, s := range []string{`<tool_call>{"a":1}</tool_call>`, "/* note */ {\"a\": 1}", "// c\n[1]", `{'a': 1}`} {
		got, ok := Structured(s)
		want, err := ToDeclared(s, "object | array")
		if !ok || err != nil || valueMismatch(got, want, byValue) != "" {
			t.Errorf("Structured(%q) = %v, %t; ToDeclared = %v, %v", s, got, ok, want, err)
		}
	}
	for _, s := range []string{"123", "true", "hello [world]", "<b>"} {
		if v, ok := Structured(s); ok {
			t.Errorf("Structured(%q) = %v, want false", s, v)
		}
	}
}

func TestChangePreviewNotHTMLEscaped(t *testing.T) {
	var got []Change
	o := Options{OnChange: func(c Change) { got = append(got, c) }}
	out, err := o.ToDeclared(map[string]any{"a": "<b>&"}, "str")
	if err != nil || out != `{"a":"<b>&"}` {
		t.Fatalf("got %v, %v", out, err)
	}
	if len(got) != 1 || got[0].Preview != `{"a":"<b>&"}` {
		t.Errorf("changes %+v, want the preview as the result is written", got)
	}
}

func TestCoerceJSONRepairsCommentBeforeArguments(t *testing.T) {
	s := schemaOf(t, `{"type":"object","properties":{"a":{"type":"integer"}}}`)
	for _, text := range []string{"// c\n{\"a\": \"1\"}", "# c\n{\"a\": \"1\"}", "/* note */ {\"a\": \"1\"}"} {
		out, err := s.CoerceJSON([]byte(text))
		var u map[string]any
		uerr := Unmarshal([]byte(text), &u)
		if err != nil || !bytes.Equal(bytes.TrimSpace(out), []byte(`{"a": 1}`)) || uerr != nil || u["a"] != "1" {
			t.Errorf("%q: CoerceJSON = %s, %v; Unmarshal %v", text, out, err, uerr)
		}
	}
}

func TestUnmarshalAnyRepairsNearJSONWithDefaultLimits(t *testing.T) {
	for _, o := range []Options{{}, {MaxDepth: 100}, {MaxSize: 1000}} {
		var v any
		if err := o.Unmarshal([]byte(`{'a': True, 'b': [1, 2,],}`), &v); err != nil || asJSON(v) != `{"a":true,"b":[1,2]}` {
			t.Errorf("%+v: got %s, %v", o, asJSON(v), err)
		}
	}
	var v any
	if err := (Options{StrictJSON: true}).Unmarshal([]byte(`{'a': 1}`), &v); err == nil {
		t.Errorf("StrictJSON repaired %v", v)
	}
}

// A limit applies before any repair: near-JSON longer than MaxSize is
// refused without being repaired in full first.
func TestNearJSONLimitBeforeRepair(t *testing.T) {
	big := "<tool_call>{'a': '" + strings.Repeat("x", 4<<20) + "'}</tool_call>"
	o := Options{MaxSize: 1000}
	var err error
	allocs := testing.AllocsPerRun(1, func() { _, err = o.ToDeclared(big, "dict") })
	if !errors.Is(err, ErrLimit) {
		t.Errorf("got %v, want ErrLimit", err)
	}
	if allocs > 20 {
		t.Errorf("%v allocations", allocs)
	}
}

// Near-JSON arguments that then fail come back as sent, and nothing is
// reported of a repair that did not happen.
func TestNearJSONArgsFailureReturnsTextAsSent(t *testing.T) {
	s := schemaOf(t, `{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"integer"}}}`)
	var got []Change
	args := []byte(`{'a': '1', 'b': 'x'}`)
	out, err := s.WithOptions(Options{OnChange: func(c Change) { got = append(got, c) }}).CoerceJSON(args)
	if err == nil || !bytes.Equal(out, args) || len(got) != 0 {
		t.Errorf("got %s, %v, %d changes; want the text as sent, an error and none", out, err, len(got))
	}
	out, err = s.WithOptions(Options{OnChange: func(c Change) { got = append(got, c) }}).CoerceJSON([]byte(`{'a': '1'}`))
	if err != nil || string(out) != `{"a": 1}` || len(got) != 2 {
		t.Errorf("got %s, %v, %+v", out, err, got)
	}
}

// A null in conforming text changes a prefilled value as json.Unmarshal
// does: a slice, map or pointer becomes nil, anything else stays.
func TestUnmarshalNullIntoPrefilledFollowsEncodingJSON(t *testing.T) {
	text := []byte(`{"list": null, "map": null, "p": null, "item": null, "s": null, "i": null, "any": null, "raw": null}`)
	want, got := prefilledInput(), prefilledInput()
	if err := json.Unmarshal(text, want); err != nil {
		t.Fatal(err)
	}
	if err := Unmarshal(text, got); err != nil {
		t.Fatal(err)
	}
	if d := umDiff(want, got); d != "" {
		t.Errorf("(-json +coerce):\n%s", d)
	}
}

// A json.RawMessage counts as the JSON value it holds: one whose value
// conforms comes back as it is, whatever the schema's items say; one
// that needs converting becomes what its value converts to.
func TestRawMessageCountsAsItsValue(t *testing.T) {
	for _, tc := range []struct {
		schema, raw string
		want        any
	}{
		{`{"items":{"type":"integer"}}`, `[1]`, json.RawMessage(`[1]`)},
		{`{"items":{"type":"string"}}`, `[1]`, []any{"1"}},
		{`{"items":{"type":"integer"}}`, `{"a":1}`, json.RawMessage(`{"a":1}`)},
		{`{"items":{"type":"integer"}}`, `5`, json.RawMessage(`5`)},
		{`{"type":"array","items":{"type":"integer"}}`, `[1]`, json.RawMessage(`[1]`)},
		{`{"type":"array","items":{"type":"integer"}}`, `["1"]`, []any{1.0}},
		{`{"type":"string"}`, `"x"`, json.RawMessage(`"x"`)},
		{`{"type":"string"}`, `[1]`, "[1]"},
	} {
		s := schemaOf(t, `{"type":"object","properties":{"p":`+tc.schema+`}}`)
		out, err := s.Coerce(map[string]any{"p": json.RawMessage(tc.raw)})
		if err != nil || !reflect.DeepEqual(out["p"], tc.want) {
			t.Errorf("%s <- %s: got %#v, %v; want %#v", tc.schema, tc.raw, out["p"], err, tc.want)
		}
		text, err := s.CoerceJSON([]byte(`{"p":` + tc.raw + `}`))
		if back, _ := json.Marshal(map[string]any{"p": out["p"]}); err != nil || !bytes.Equal(text, back) && !bytes.Equal(text, []byte(`{"p":`+tc.raw+`}`)) {
			t.Errorf("%s <- %s: CoerceJSON %s, %v; Coerce %s", tc.schema, tc.raw, text, err, back)
		}
	}
}

// The work budget charges a failing value for what it costs: a value
// that holds itself twice, against a 24-deep list or dict of integers,
// fails at every leaf, and each failure is kept until the errors are
// sorted. Charged as a visit, failures took 20 to 30 times the time of
// passing values per unit of budget; charged failWork, the allocations of
// a call stopped by MaxWork are bounded by MaxWork/failWork failures.
// (Counted, not timed.)
func TestWorkBudgetChargesFailures(t *testing.T) {
	m := map[string]any{}
	m["a"], m["b"] = m, m
	s := []any{nil, nil}
	s[0], s[1] = s, s
	deep := func(open, leaf string) string {
		return strings.Repeat(open, 24) + leaf + strings.Repeat("]", 24)
	}
	o := Options{MaxWork: 1 << 16}
	for _, tc := range []struct {
		v    any
		decl string
	}{{s, deep("list[", "int")}, {m, deep("dict[str, ", "int")}} {
		var err error
		n := testing.AllocsPerRun(1, func() { _, err = o.ToDeclared(tc.v, tc.decl) })
		if !errors.Is(err, ErrLimit) {
			t.Fatalf("%s: got %v, want ErrLimit", tc.decl, err)
		}
		if bound := 8 * float64(o.MaxWork/64); n > bound {
			t.Errorf("%.20s...: %v allocations, more than %v", tc.decl, n, bound)
		}
	}
}

// Argument text that is near-JSON is coerced as its repair is, strings
// holding near-JSON inside it included: the value of a parameter gets the
// same answer whether the text around it was JSON or near-JSON.
func TestNearJSONArgsRepairTheirStringsToo(t *testing.T) {
	s := schemaOf(t, `{"type":"object","properties":{"p":{"type":"object"},"n":{"type":"integer"}}}`)
	for _, args := range []string{`{"p": "{'a': True}", "n": "5"}`, `{'p': "{'a': True}", 'n': '5'}`} {
		out, err := s.CoerceJSON([]byte(args))
		var got map[string]any
		if jerr := json.Unmarshal(out, &got); err != nil || jerr != nil || asJSON(got) != `{"n":5,"p":{"a":true}}` {
			t.Errorf("%s: got %s, %v", args, out, err)
		}
	}
}

// Nulls are removed at every level of a declared object where the
// property is neither required nor nullable (OpenAI's strict mode makes
// nested optional properties required and nullable too), alike from every
// entry point, reported, and kept where a union must choose, where the
// property takes null, and in a parameter that fails.
func TestNestedNullsRemoved(t *testing.T) {
	s := schemaOf(t, `{"type":"object","properties":{
		"filter":{"type":"object","required":["q"],"properties":{"q":{"type":"string"},"label":{"type":"string"},"n":{"type":["integer","null"]},
			"deep":{"type":"array","items":{"type":"object","properties":{"x":{"type":"integer"}}}}}},
		"either":{"anyOf":[{"type":"object","properties":{"a":{"type":"string"}}},{"type":"object","properties":{"b":{"type":"integer"}}}]},
		"limit":{"type":"integer"}}}`)
	for _, tc := range []struct{ in, want string }{
		{`{"filter":{"q":"x","label":null}}`, `{"filter":{"q":"x"}}`},
		{`{"filter":{"q":null,"label":null,"n":null,"deep":[{"x":null},{"x":"2"}]}}`, `{"filter":{"deep":[{},{"x":2}],"n":null,"q":null}}`},
		{`{"filter":"{\"q\":\"x\",\"label\":null}"}`, `{"filter":{"q":"x"}}`},
		{`{"either":{"a":null}}`, `{"either":{"a":null}}`},
		{`{"filter":{"q":"x","label":null},"limit":"ten"}`, `{"filter":{"q":"x"},"limit":"ten"}`},
		{`{"filter":{"q":"x","label":null,"deep":[{"x":"no"}]},"limit":"5"}`, `{"filter":{"deep":[{"x":"no"}],"label":null,"q":"x"},"limit":5}`},
	} {
		var heard []Change
		out, _ := s.WithOptions(Options{OnChange: func(c Change) { heard = append(heard, c) }}).CoerceJSON([]byte(tc.in))
		var got any
		if err := json.Unmarshal(out, &got); err != nil || asJSON(got) != tc.want {
			t.Errorf("CoerceJSON(%s) = %s, want %s", tc.in, out, tc.want)
		}
		if d := oneAnswer(s, []byte(tc.in)); d != "" {
			t.Error(d)
		}
		if strings.Contains(tc.in, "label\":null") && !strings.Contains(tc.want, "label") {
			found := false
			for _, c := range heard {
				found = found || c.Rule == NullRemoved && strings.HasSuffix(c.Path, "/label")
			}
			if !found {
				t.Errorf("%s: no null-removed change in %+v", tc.in, heard)
			}
		}
	}
	// A Go struct takes null for every field, as encoding/json does.
	type filter struct {
		Q     string  `json:"q"`
		Label *string `json:"label"`
	}
	var in struct {
		Filter filter `json:"filter"`
	}
	label := "kept"
	in.Filter.Label = &label
	if err := Unmarshal([]byte(`{"filter":{"q":"x","label":null}}`), &in); err != nil || in.Filter.Label != nil {
		t.Errorf("Unmarshal: %+v, %v; want label set to nil, as json.Unmarshal does", in, err)
	}
}

// A Go value that holds a slice or map twice at each level, 100 levels
// deep, has a JSON text of 2^100 leaves in a few kilobytes of memory.
// Written for a string parameter (to-json-text), its text costs a unit of
// work a byte, and the budget stops it before it is written whole, as it
// stops a walk of the value; the change's preview reads its first bytes
// alone. Both wrote on for ever. (Counted in bytes allocated, not timed.)
func TestWorkBudgetBoundsTheTextOfSharedValues(t *testing.T) {
	s := []any{"x"}
	m := map[string]any{"k": "x"}
	for range 100 {
		s = []any{s, s}
		m = map[string]any{"a": m, "b": m}
	}
	var heard []Change
	o := Options{MaxWork: 1 << 16, OnChange: func(c Change) { heard = append(heard, c) }}
	params := schemaOf(t, `{"type":"object","properties":{"p":{"type":"string"},"q":{"anyOf":[{"type":"integer"},{"type":"string"}]}}}`).WithOptions(o)
	for _, v := range []any{s, m} {
		for name, call := range map[string]func() error{
			"str":                   func() error { _, err := o.ToDeclared(v, "str"); return err },
			"Optional[str]":         func() error { _, err := o.ToDeclared(v, "Optional[str]"); return err },
			"dict[str, str]":        func() error { _, err := o.ToDeclared(map[string]any{"k": v}, "dict[str, str]"); return err },
			"a string parameter":    func() error { _, err := params.Coerce(map[string]any{"p": v}); return err },
			"a union with a string": func() error { _, err := params.Coerce(map[string]any{"q": v}); return err },
		} {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			err := call()
			runtime.ReadMemStats(&after)
			if !errors.Is(err, ErrLimit) {
				t.Errorf("%T as %s: %v, want ErrLimit", v, name, err)
			}
			if n := after.TotalAlloc - before.TotalAlloc; n > 64*uint64(o.MaxWork) {
				t.Errorf("%T as %s: %d bytes allocated for a budget of %d", v, name, n, o.MaxWork)
			}
		}
	}
	// Within the budget, the text is written and its change previewed.
	small := []any{"x"}
	for range 8 {
		small = []any{small, small}
	}
	heard = nil
	out, err := o.ToDeclared(small, "str")
	text, _ := json.Marshal(small)
	if err != nil || out != string(text) || len(heard) != 1 || heard[0].Preview != string(text[:PreviewLen]) {
		t.Fatalf("got %.60v, %v, %+v; want the text and a change previewing it", out, err, heard)
	}
}
