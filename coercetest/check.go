package coercetest

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/coerce-go/coerce"
	"github.com/coerce-go/coerce/internal/jsonwire"
)

// Check checks that schema.Coerce repairs every variant of valid, the
// arguments of a call that is valid against schema. It coerces valid
// itself, which must come back as it is (but for a null given for a
// parameter that is neither required nor nullable, which coercion removes
// as "not given"), and then each of Variants(schema,
// valid), and returns an error for each that fails, joined with
// errors.Join: one that names the variant, shows the arguments sent, and
// says what went wrong (an error from Coerce, a result that differs from
// Variant.Want, each difference on a line by its JSON Pointer, numbers
// compared by value, or
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
	for _, v := range append([]Variant{{Args: valid, Want: wantOf(schema, valid)}}, Variants(schema, valid)...) {
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
	for _, v := range append([]Variant{{Args: args, Want: wantOf(schema, args)}}, Variants(schema, args)...) {
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
		problems = append(problems, "coerced arguments differ:\n"+indentLines(diff))
	}
	return problems
}

// maxDiffLines bounds the differences diffJSON lists.
const maxDiffLines = 20

// diffJSON compares want and got as JSON values, numbers by value, and
// lists where they differ, a line each: the JSON Pointer, then what was
// wanted and what came.
func diffJSON(want, got any) string {
	cw, err := canonical(want)
	if err != nil {
		return "want is not JSON: " + err.Error()
	}
	cg, err := canonical(got)
	if err != nil {
		return "got is not JSON: " + err.Error()
	}
	var d differ
	d.walk("", cw, cg)
	if d.more > 0 {
		d.lines = append(d.lines, fmt.Sprintf("(%d more differences)", d.more))
	}
	return strings.Join(d.lines, "\n")
}

type differ struct {
	lines []string
	more  int
}

func (d *differ) add(path, format string, args ...any) {
	if path == "" {
		path = "(the arguments)"
	}
	if len(d.lines) == maxDiffLines {
		d.more++
		return
	}
	d.lines = append(d.lines, path+": "+fmt.Sprintf(format, args...))
}

func (d *differ) walk(path string, want, got any) {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			break
		}
		keys := make([]string, 0, len(w)+len(g))
		for k := range w {
			keys = append(keys, k)
		}
		for k := range g {
			if _, ok := w[k]; !ok {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		for _, k := range keys {
			at := path + jsonwire.PointerToken(k)
			wv, inW := w[k]
			gv, inG := g[k]
			switch {
			case !inG:
				d.add(at, "want %s, missing", show(wv))
			case !inW:
				d.add(at, "not wanted, got %s", show(gv))
			default:
				d.walk(at, wv, gv)
			}
		}
		return
	case []any:
		g, ok := got.([]any)
		if !ok {
			break
		}
		for i := range max(len(w), len(g)) {
			at := path + "/" + strconv.Itoa(i)
			switch {
			case i >= len(g):
				d.add(at, "want %s, missing", show(w[i]))
			case i >= len(w):
				d.add(at, "not wanted, got %s", show(g[i]))
			default:
				d.walk(at, w[i], g[i])
			}
		}
		return
	default:
		if sameScalar(want, got) {
			return
		}
	}
	d.add(path, "want %s, got %s", show(want), show(got))
}

// sameScalar compares two canonical JSON scalars, numbers by value.
func sameScalar(a, b any) bool {
	if na, ok := number(a); ok {
		nb, ok := number(b)
		return ok && sameNumber(na, nb)
	}
	switch a.(type) {
	case string, bool, nil:
		return a == b
	}
	return false
}

func number(v any) (json.Number, bool) {
	switch x := v.(type) {
	case json.Number:
		return x, true
	case float64:
		return json.Number(numberString(x)), true
	}
	return "", false
}

// show is a value as JSON text, cut to a readable length.
func show(v any) string {
	text, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	if len(text) > 80 {
		return string(text[:77]) + "..."
	}
	return string(text)
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

// indentLines indents the lines of s under a problem's first line, which
// failure puts after a tab.
func indentLines(s string) string {
	return "\t\t" + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n\t\t")
}

// wantOf is what coercing valid arguments gives: the arguments, less a
// null given for a parameter that is neither required nor nullable (the
// rule of nulls, coerce.Options.KeepNulls).
func wantOf(schema *coerce.Schema, valid map[string]any) map[string]any {
	out := valid
	for name, v := range valid {
		if v != nil || slices.Contains(schema.Type().Required(), name) {
			continue
		}
		t, ok := schema.Lookup(name)
		if !ok || takesNull(t) {
			continue
		}
		if len(out) == len(valid) {
			out = maps.Clone(valid)
		}
		delete(out, name)
	}
	return out
}

func takesNull(t *coerce.Type) bool {
	switch t.Kind() {
	case coerce.Any, coerce.Null:
		return true
	case coerce.Union:
		return slices.ContainsFunc(t.Members(), func(m *coerce.Type) bool { return m.Kind() == coerce.Null })
	}
	return false
}
