package coercetest

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/coerce-go/coerce"
	"github.com/google/go-cmp/cmp"
)

// AssertRepairs checks that schema.Coerce repairs every variant of valid,
// the arguments of a call that conforms to schema. For valid itself, which
// must come back as it is, and then for each of Variants(schema, valid),
// it reports with t.Errorf, naming the variant and showing the arguments
// sent: an error from Coerce, a result that differs from Variant.Want (a
// go-cmp diff, -want +got, numbers compared by value), and a change Coerce
// made to the arguments it was given.
//
// It calls only t.Helper and t.Errorf, so the test goes on and reports
// every variant that fails.
func AssertRepairs(t testing.TB, schema *coerce.Schema, valid map[string]any) {
	t.Helper()
	if _, err := normalize(valid); err != nil {
		t.Errorf("coercetest: valid arguments are not JSON: %v", err)
		return
	}
	for _, v := range append([]Variant{{Args: valid, Want: valid}}, Variants(schema, valid)...) {
		sent := encode(mustNormalize(v.Args), compactStyle)
		got, err := schema.Coerce(v.Args)
		problems := outcome(v.Want, got, err)
		if after := encode(mustNormalize(v.Args), compactStyle); after != sent {
			problems = append(problems, "Coerce modified the arguments it was given: now "+after)
		}
		if len(problems) > 0 {
			t.Errorf("coercetest: %s (Coerce):\n\targs: %s\n\t%s", label(v.Name), sent, strings.Join(problems, "\n\t"))
		}
	}
}

// AssertRepairsJSON is AssertRepairs for SDKs that hand arguments over as
// raw bytes: valid is the JSON text of an argument object, and each
// variant is sent as compact JSON text to schema.CoerceJSON, whose result
// is decoded and compared.
func AssertRepairsJSON(t testing.TB, schema *coerce.Schema, valid []byte) {
	t.Helper()
	decoded, err := decode(valid)
	args, ok := decoded.(map[string]any)
	if err != nil || !ok {
		t.Errorf("coercetest: valid arguments are not a JSON object: %s", valid)
		return
	}
	for _, v := range append([]Variant{{Args: args, Want: args}}, Variants(schema, args)...) {
		sent := []byte(encode(v.Args, compactStyle))
		if v.Name == "" {
			sent = valid // as the caller wrote it: CoerceJSON keeps conforming bytes
		}
		before := string(sent)
		out, err := schema.CoerceJSON(sent)
		got, derr := decode(out)
		if derr != nil {
			got = "invalid JSON: " + string(out)
		}
		problems := outcome(v.Want, got, err)
		if string(sent) != before {
			problems = append(problems, "CoerceJSON modified the bytes it was given: now "+string(sent))
		}
		if len(problems) > 0 {
			t.Errorf("coercetest: %s (CoerceJSON):\n\targs: %s\n\t%s", label(v.Name), before, strings.Join(problems, "\n\t"))
		}
	}
}

func label(name string) string {
	if name == "" {
		return "valid arguments"
	}
	return fmt.Sprintf("variant %q", name)
}

// outcome describes what is wrong with one coercion: its error, and its
// result where that differs from want.
func outcome(want, got any, err error) []string {
	var problems []string
	if err != nil {
		problems = append(problems, "error: "+err.Error())
	}
	if diff := diffJSON(want, got); diff != "" {
		problems = append(problems, "coerced arguments differ (-want +got):\n"+indentLines(diff))
	}
	return problems
}

// numbersByValue compares the numbers that canonical leaves as
// json.Number by exact decimal value.
var numbersByValue = cmp.Comparer(sameNumber)

// diffJSON compares want and got as JSON values, numbers by value.
func diffJSON(want, got any) string {
	cw, err := canonical(want)
	if err != nil {
		return "want is not JSON: " + err.Error()
	}
	cg, err := canonical(got)
	if err != nil {
		return "got is not JSON: " + err.Error()
	}
	if cmp.Equal(cw, cg, numbersByValue) { // cheaper than a Diff that finds nothing
		return ""
	}
	return cmp.Diff(cw, cg, numbersByValue)
}

// canonical returns v as JSON values with one form for each number, so
// that equal numbers compare equal and read well in a diff: float64 where
// float64 holds the number exactly, json.Number otherwise.
func canonical(v any) (any, error) {
	n, err := normalize(v)
	if err != nil {
		return nil, err
	}
	return canonicalNumbers(n), nil
}

func canonicalNumbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		f, err := strconv.ParseFloat(string(x), 64)
		if err == nil && sameNumber(x, json.Number(numberString(f))) {
			return f
		}
	case []any:
		for i := range x {
			x[i] = canonicalNumbers(x[i])
		}
	case map[string]any:
		for k := range x {
			x[k] = canonicalNumbers(x[k])
		}
	}
	return v
}

// mustNormalize normalizes arguments already known to encode; for the
// message only, so a failure shows as the error text.
func mustNormalize(args map[string]any) any {
	v, err := normalize(args)
	if err != nil {
		return err.Error()
	}
	return v
}

func indentLines(s string) string {
	return "\t" + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n\t")
}
