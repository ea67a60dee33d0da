package coercetest

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/coerce-go/coerce"
	"github.com/google/go-cmp/cmp"
)

// Check checks that schema.Coerce repairs every variant of valid, the
// arguments of a call that is valid against schema. It coerces valid
// itself, which must come back as it is, and then each of Variants(schema,
// valid), and returns an error for each that fails, joined with
// errors.Join: one that names the variant, shows the arguments sent, and
// says what went wrong (an error from Coerce, a result that differs from
// Variant.Want as a go-cmp diff, -want +got, numbers compared by value, or
// a change Coerce made to the arguments it was given). It returns nil when
// all pass.
//
// The errors are plain, as those of [testing/fstest.TestFS]: they are meant
// to be read in a test's output, and a program that wants the failing
// arguments themselves has them from Variants.
func Check(schema *coerce.Schema, valid map[string]any) error {
	if _, err := normalize(valid); err != nil {
		return fmt.Errorf("coercetest: valid arguments are not JSON: %w", err)
	}
	var errs []error
	for _, v := range append([]Variant{{Args: valid, Want: valid}}, Variants(schema, valid)...) {
		sent := encode(mustNormalize(v.Args), compactStyle)
		got, err := schema.Coerce(v.Args)
		problems := outcome(v.Want, got, err)
		if after := encode(mustNormalize(v.Args), compactStyle); after != sent {
			problems = append(problems, "Coerce modified the arguments it was given: now "+after)
		}
		if len(problems) > 0 {
			errs = append(errs, failure(v.Name, "Coerce", sent, problems))
		}
	}
	return errors.Join(errs...)
}

// CheckJSON is Check for SDKs that hand arguments over as raw bytes: valid
// is the JSON text of an argument object, and each variant is sent as
// compact JSON text to schema.CoerceJSON, whose result is decoded and
// compared.
func CheckJSON(schema *coerce.Schema, valid []byte) error {
	decoded, err := decode(valid)
	args, ok := decoded.(map[string]any)
	if err != nil || !ok {
		return fmt.Errorf("coercetest: valid arguments are not a JSON object: %s", valid)
	}
	var errs []error
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
			errs = append(errs, failure(v.Name, "CoerceJSON", before, problems))
		}
	}
	return errors.Join(errs...)
}

// AssertRepairs reports with t.Errorf each failure that Check finds, one
// call for each variant, so that the test goes on and shows them all. It
// calls only t.Helper and t.Errorf.
func AssertRepairs(t testing.TB, schema *coerce.Schema, valid map[string]any) {
	t.Helper()
	report(t, Check(schema, valid))
}

// AssertRepairsJSON reports with t.Errorf each failure that CheckJSON
// finds, as AssertRepairs does.
func AssertRepairsJSON(t testing.TB, schema *coerce.Schema, valid []byte) {
	t.Helper()
	report(t, CheckJSON(schema, valid))
}

func report(t testing.TB, err error) {
	t.Helper()
	if err == nil {
		return
	}
	errs := []error{err}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		errs = j.Unwrap()
	}
	for _, e := range errs {
		t.Errorf("%v", e)
	}
}

// failure is the error of one variant that coercion did not repair, sent
// through via ("Coerce" or "CoerceJSON").
func failure(name, via, sent string, problems []string) error {
	return fmt.Errorf("coercetest: %s (%s):\n\targs: %s\n\t%s", label(name), via, sent, strings.Join(problems, "\n\t"))
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

// canonical returns v as JSON values with one form for each number
// (clientValue's), so that equal numbers compare equal and read well in a
// diff.
func canonical(v any) (any, error) {
	n, err := normalize(v)
	if err != nil {
		return nil, err
	}
	return clientValue(n), nil
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
