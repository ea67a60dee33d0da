package coercetest_test

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/coerce-go/coerce"
	"github.com/coerce-go/coerce/coercetest"
)

// recorder is a testing.TB that records what the helpers report. The
// embedded TB is nil: a call to any other method panics, which shows that
// the helpers use only Helper and Errorf.
type recorder struct {
	testing.TB
	helper int
	errors []string
}

func (r *recorder) Helper() { r.helper++ }

func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

// report returns the message that names variant, or "".
func (r *recorder) report(label string) string {
	for _, e := range r.errors {
		if strings.HasPrefix(e, "coercetest: "+label+" (") {
			return e
		}
	}
	return ""
}

func TestAssertRepairsPasses(t *testing.T) {
	schema := mustSchema(t, everyTypeSchema)
	valid := everyTypeArgs()
	for _, tt := range []struct {
		name   string
		assert func(testing.TB)
	}{
		{"Coerce", func(tb testing.TB) { coercetest.AssertRepairs(tb, schema, valid) }},
		{"CoerceJSON", func(tb testing.TB) { coercetest.AssertRepairsJSON(tb, schema, mustJSON(t, valid)) }},
	} {
		r := &recorder{}
		tt.assert(r)
		if len(r.errors) > 0 {
			t.Errorf("%s: reported %d failures, want none; first:\n%s", tt.name, len(r.errors), r.errors[0])
		}
		if r.helper == 0 {
			t.Errorf("%s: did not call Helper", tt.name)
		}
	}
}

// TestAssertRepairsWrongDeclaration shows what a failure looks like: the
// schema declares tags a string, so coercion turns the valid array into
// JSON text, in the valid arguments and in every variant.
func TestAssertRepairsWrongDeclaration(t *testing.T) {
	schema, err := coerce.SchemaFromTypes(map[string]string{"tags": "str", "limit": "int"})
	if err != nil {
		t.Fatal(err)
	}
	valid := map[string]any{"tags": []any{"a", "b"}, "limit": 5}
	for _, tt := range []struct {
		name   string
		assert func(testing.TB)
		via    string
	}{
		{"Coerce", func(tb testing.TB) { coercetest.AssertRepairs(tb, schema, valid) }, "Coerce"},
		{"CoerceJSON", func(tb testing.TB) { coercetest.AssertRepairsJSON(tb, schema, mustJSON(t, valid)) }, "CoerceJSON"},
	} {
		r := &recorder{}
		tt.assert(r)
		if len(r.errors) != 2 {
			t.Errorf("%s: reported %d failures, want 2 (valid arguments, limit/integer-as-string):\n%s",
				tt.name, len(r.errors), strings.Join(r.errors, "\n"))
		}
		for _, label := range []string{"valid arguments", `variant "limit/integer-as-string"`} {
			msg := r.report(label)
			if msg == "" {
				t.Errorf("%s: no failure reported for %s; got:\n%s", tt.name, label, strings.Join(r.errors, "\n"))
				continue
			}
			for _, want := range []string{
				"coercetest: " + label + " (" + tt.via + "):\n",
				"\targs: {",
				"coerced arguments differ:\n",
				`/tags: want ["a","b"], got "[\"a\",\"b\"]"`,
			} {
				if !strings.Contains(squeeze(msg), squeeze(want)) {
					t.Errorf("%s: report for %s lacks %q:\n%s", tt.name, label, want, msg)
				}
			}
		}
		if msg := r.report(`variant "limit/integer-as-string"`); !strings.Contains(msg, `"limit":"5"`) {
			t.Errorf("%s: report does not show the variant's arguments:\n%s", tt.name, msg)
		}
	}
}

// TestAssertRepairsCoercionError: a declared integer whose valid value has a
// fraction cannot be coerced; every check reports the error, and names its
// variant.
func TestAssertRepairsCoercionError(t *testing.T) {
	schema, err := coerce.SchemaFromTypes(map[string]string{"ratio": "int", "verbose": "bool"})
	if err != nil {
		t.Fatal(err)
	}
	r := &recorder{}
	coercetest.AssertRepairs(r, schema, map[string]any{"ratio": 2.5, "verbose": true})
	labels := []string{
		"valid arguments",
		`variant "verbose/boolean-as-string"`,
		`variant "verbose/boolean-as-python-string"`,
		`variant "verbose/boolean-as-number"`,
	}
	if len(r.errors) != len(labels) {
		t.Errorf("reported %d failures, want %d:\n%s", len(r.errors), len(labels), strings.Join(r.errors, "\n"))
	}
	for _, label := range labels {
		msg := r.report(label)
		if !strings.Contains(msg, "\terror: coerce: /ratio: want integer, found number 2.5") {
			t.Errorf("report for %s does not show the error:\n%s", label, msg)
		}
		if strings.Contains(msg, "differ") {
			t.Errorf("report for %s shows a diff, but the result is right apart from the error:\n%s", label, msg)
		}
	}
}

func TestAssertRepairsInvalidArguments(t *testing.T) {
	schema, err := coerce.SchemaFromTypes(map[string]string{"x": "float"})
	if err != nil {
		t.Fatal(err)
	}
	r := &recorder{}
	coercetest.AssertRepairs(r, schema, map[string]any{"x": math.Inf(1)})
	if len(r.errors) != 1 || !strings.HasPrefix(r.errors[0], "coercetest: valid arguments are not JSON") {
		t.Errorf("AssertRepairs with +Inf reported %q, want one failure: not JSON", r.errors)
	}
	for _, text := range []string{`[1]`, `{"x":`, ``, `{"x":1} {}`} {
		r := &recorder{}
		coercetest.AssertRepairsJSON(r, schema, []byte(text))
		if len(r.errors) != 1 || !strings.HasPrefix(r.errors[0], "coercetest: valid arguments are not a JSON object") {
			t.Errorf("AssertRepairsJSON(%q) reported %q, want one failure: not a JSON object", text, r.errors)
		}
	}
}

// TestAssertRepairsNumbersByValue: a number comes back as float64 or
// json.Number whatever it was given as; only its value counts.
func TestAssertRepairsNumbersByValue(t *testing.T) {
	schema, err := coerce.SchemaFromTypes(map[string]string{"n": "float", "b": "bool"})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []any{
		5, int8(-5), uint64(5), float32(0.5), 5.0, 0.1, 1e21, 1e-7,
		json.Number("5"), json.Number("5.0"), json.Number("5e0"), json.Number("-0"),
		json.Number("9007199254740993"), json.Number("0.30000000000000000001"),
	} {
		r := &recorder{}
		valid := map[string]any{"n": n, "b": true}
		coercetest.AssertRepairs(r, schema, valid)
		coercetest.AssertRepairsJSON(r, schema, mustJSON(t, valid))
		for _, e := range r.errors {
			t.Errorf("valid n = %#v: %s", n, e)
		}
	}
}

// TestAssertRepairsNumberMismatch: equal by value is exact, so coercion
// that rounded a number would be caught. A declared string makes the
// helper compare a number with its text, which shows the diff.
func TestAssertRepairsNumberMismatch(t *testing.T) {
	schema, err := coerce.SchemaFromTypes(map[string]string{"n": "str", "b": "bool"})
	if err != nil {
		t.Fatal(err)
	}
	r := &recorder{}
	coercetest.AssertRepairs(r, schema, map[string]any{"n": json.Number("9007199254740993"), "b": true})
	msg := squeeze(r.report("valid arguments"))
	if !strings.Contains(msg, `/n: want 9007199254740993, got "9007199254740993"`) {
		t.Errorf("report does not show the number against its text:\n%s", msg)
	}
}

// squeeze makes every run of white space one space, so that the checks
// of a report do not depend on its indentation.
func squeeze(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// TestBigIntegersKeepTheirDigits: integers beyond 2^53 inside JSON text,
// and sent as a number for a string, come back with every digit, as the
// README's "Nothing lost" promises.
func TestBigIntegersKeepTheirDigits(t *testing.T) {
	t.Run("array text, Coerce", func(t *testing.T) {
		// ids/array-as-json-text: "[9007199254740993]" -> [9007199254740993]
		schema, err := coerce.SchemaFromTypes(map[string]string{"ids": "list[int]"})
		if err != nil {
			t.Fatal(err)
		}
		coercetest.AssertRepairs(t, schema, map[string]any{"ids": []any{json.Number("9007199254740993")}})
	})
	t.Run("number for a string, CoerceJSON", func(t *testing.T) {
		// id/string-as-number: {"id":9007199254740993} -> {"id":"9007199254740993"}
		schema, err := coerce.SchemaFromTypes(map[string]string{"id": "str"})
		if err != nil {
			t.Fatal(err)
		}
		coercetest.AssertRepairsJSON(t, schema, []byte(`{"id":"9007199254740993"}`))
	})
}

func BenchmarkAssertRepairs(b *testing.B) {
	schema := mustSchema(b, everyTypeSchema)
	valid := everyTypeArgs()
	b.ReportAllocs()
	for b.Loop() {
		coercetest.AssertRepairs(&recorder{}, schema, valid)
	}
	b.ReportMetric(float64(len(coercetest.Variants(schema, valid))), "variants")
}
