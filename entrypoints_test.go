package coerce

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/coerce-go/coerce/internal/jsonwire"
	"unicode/utf8"
)

// One answer per input: every entry point, given the same arguments and
// schema, gives the same result (the same bytes where the output is
// bytes), the same error paths and sentinels, the same changes and the
// same findings. oneAnswer states what "the same" means; the corpora below
// and FuzzOneAnswer feed it.

// oneAnswer runs args through every entry point against s and says how
// they disagree, or "". The entry points: CoerceJSON with and without
// OnChange; Coerce of the decoded text, with and without OnChange;
// ToType for each parameter (planMismatch); Unmarshal into any; Check of
// each result and CheckJSON of the text written.
func oneAnswer(s *Schema, args []byte) string {
	name := fmt.Sprintf("%.300s", args)
	text, jerr := s.CoerceJSON(bytes.Clone(args))
	var jchg []Change
	listen := s.WithOptions(withListener(s.opts, &jchg))
	text2, jerr2 := listen.CoerceJSON(bytes.Clone(args))
	if !bytes.Equal(text, text2) || errText(jerr) != errText(jerr2) {
		return fmt.Sprintf("%s: CoerceJSON = %s, %v; with OnChange = %s, %v", name, text, jerr, text2, jerr2)
	}
	// Check mode is CoerceJSON, then CheckJSON of what it wrote, in one
	// call (and, for a call that conforms, one pass).
	co := s.opts
	co.Check = true
	checking := s.WithOptions(co)
	ctext, cjerr := checking.CoerceJSON(bytes.Clone(args))
	want := jerr
	if jerr == nil {
		want = s.CheckJSON(text)
	}
	if !bytes.Equal(ctext, text) || errText(cjerr) != errText(want) {
		return fmt.Sprintf("%s: CoerceJSON with Check = %s, %v; CoerceJSON then CheckJSON = %s, %v", name, ctext, cjerr, text, want)
	}
	if d := feedbackMismatch(s, jerr, cjerr); d != "" {
		return name + ": " + d
	}

	// Argument text that is not JSON is repaired as a whole or not at
	// all: when the call fails, the text comes back as sent, and no
	// repair that did not happen is reported.
	if !jsonwire.Valid(args, 0) && jerr != nil && (!bytes.Equal(text, args) || len(jchg) > 0) {
		return fmt.Sprintf("%s: CoerceJSON failed (%v) and returned %s, reporting %d changes", name, jerr, text, len(jchg))
	}

	// The near-JSON decision is one: an argument object Unmarshal repairs
	// into any, CoerceJSON repairs (against a schema that converts
	// nothing), and the other way round.
	// (JSON text itself is Unmarshal's to read as encoding/json does, and
	// planMismatch compares that.)
	var u any
	uerr := Unmarshal(args, &u)
	if json.Valid(args) {
		uerr, u = nil, nil
	}
	open, oerr := openSchema.CoerceJSON(bytes.Clone(args))
	if _, isObject := u.(map[string]any); !json.Valid(args) && (uerr == nil && isObject || oerr == nil) {
		back, berr := decodeJSON(open, false, 0)
		// What Unmarshal repairs, it then decodes as encoding/json does:
		// a number beyond float64's range fails there, into any, as it
		// does in json.Unmarshal of the repaired text.
		repaired := oerr == nil && (uerr == nil || json.Unmarshal(open, new(any)) != nil)
		if (uerr == nil || repaired) != (oerr == nil) || berr != nil || uerr == nil && valueMismatch(u, back, nearestFloat64) != "" {
			return fmt.Sprintf("%s: Unmarshal into any = %s, %v; CoerceJSON = %s, %v", name, asJSON(u), uerr, open, oerr)
		}
	}

	cjErr := s.CheckJSON(args) // any text: never a panic
	if !json.Valid(args) {
		return ""
	}
	v, err := decodeJSON(args, s.opts.UseNumber, 0) // as a caller with these options decodes it
	m, isObject := v.(map[string]any)
	if err != nil || !isObject {
		return ""
	}
	if d := planMismatch(s, nil, args); d != "" {
		return d
	}
	if utf8.Valid(args) && !hasLoneSurrogate(args) && errPaths(s.Check(m)) != errPaths(cjErr) {
		return fmt.Sprintf("%s: Check = %v; CheckJSON = %v", name, s.Check(m), cjErr)
	}
	var cchg []Change
	got, cerr := s.WithOptions(withListener(s.opts, &cchg)).Coerce(m)
	if plain, perr := s.Coerce(m); errText(perr) != errText(cerr) || valueMismatch(plain, got, byValue) != "" {
		return fmt.Sprintf("%s: Coerce = %s, %v; with OnChange = %s, %v", name, asJSON(plain), perr, asJSON(got), cerr)
	}
	if cgot, ccerr := checking.Coerce(m); valueMismatch(got, cgot, byValue) != "" ||
		cerr != nil && errText(ccerr) != errText(cerr) || cerr == nil && errText(ccerr) != errText(s.Check(got)) {
		return fmt.Sprintf("%s: Coerce with Check = %s, %v; Coerce then Check = %s, %v", name, asJSON(cgot), ccerr, asJSON(got), cerr)
	}
	if d := feedbackMismatch(s, cerr, cjErr, s.Check(m)); d != "" {
		return name + ": " + d
	}
	var kchg []Change // Coerce with Check reports what Coerce does
	if _, err := s.WithOptions(withListener(co, &kchg)).Coerce(m); err == nil && cerr == nil {
		if d := changesMismatch(kchg, cchg); d != "" {
			return fmt.Sprintf("%s: Coerce with Check and without report other changes: %s", name, d)
		}
	}
	if d := changesMismatch(cchg, jchg); d != "" && cerr == nil && jerr == nil {
		return fmt.Sprintf("%s: Coerce and CoerceJSON report other changes: %s", name, d)
	}

	// The fitter in check mode is conservative: a value it passes, Check's
	// walk with a path (find) finds nothing in, for findings relies on it.
	for _, x := range []map[string]any{m, got} {
		f := newFitter(&s.opts)
		f.check, f.nulls.on = true, false
		if f.fit(x, s.root, 0) {
			if err := newChecker(&s.opts, 0).report(s.root, x, 0); err != nil {
				return fmt.Sprintf("%s: the fitter in check mode passes %s, Check's walk finds %v", name, asJSON(x), err)
			}
		}
	}

	// ToType of each parameter, with a listener and without: one answer.
	for k, v := range m {
		pt, ok := s.Lookup(k)
		if !ok {
			continue
		}
		var heard []Change
		a, aerr := s.opts.ToType(v, pt)
		b, berr := withListener(s.opts, &heard).ToType(v, pt)
		if errText(aerr) != errText(berr) || valueMismatch(a, b, byValue) != "" {
			return fmt.Sprintf("%s: ToType of %q = %s, %v; with OnChange = %s, %v", name, k, asJSON(a), aerr, asJSON(b), berr)
		}
	}

	// Check of a result and CheckJSON of the text written find the same.
	if jerr == nil && cerr == nil {
		a, b := s.Check(got), s.CheckJSON(text)
		if errPaths(a) != errPaths(b) {
			return fmt.Sprintf("%s: Check = %v; CheckJSON = %v", name, a, b)
		}
	}
	return ""
}

// feedbackMismatch says where Feedback of one of errs, without the
// schema, differs from s.Feedback: the errors keep the types they declare,
// so the text is one, whoever renders it.
func feedbackMismatch(s *Schema, errs ...error) string {
	for _, err := range errs {
		if alone, with := Feedback(err), s.Feedback(err); alone != with {
			return fmt.Sprintf("Feedback(%v) without the schema:\n%s\nwith it:\n%s", err, alone, with)
		}
	}
	return ""
}

var openSchema = func() *Schema {
	s, err := ParseSchema([]byte(`{"type":"object"}`))
	if err != nil {
		panic(err)
	}
	return s
}()

func withListener(o Options, into *[]Change) Options {
	o.OnChange = func(c Change) { *into = append(*into, c) }
	return o
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// changesMismatch compares two reports by path, rule and declared type.
func changesMismatch(a, b []Change) string {
	show := func(cs []Change) string {
		var s []string
		for _, c := range cs {
			s = append(s, c.Path+" "+c.Rule.String()+" "+c.Declared+" "+c.Found.String()+" "+strconv.Quote(c.Preview))
		}
		return strings.Join(s, "; ")
	}
	if x, y := show(a), show(b); x != y {
		return "[" + x + "] and [" + y + "]"
	}
	return ""
}

// corpusCase is one argument text against one schema, from a corpus.
type corpusCase struct {
	name   string
	schema *Schema
	args   []byte
	valid  bool // a JSON Schema Test Suite instance marked valid
}

// corpora lists every case of the conformance vectors, of the JSON Schema
// Test Suite (each valid instance as the parameter p, as
// TestJSONSchemaSuite wraps it), of the schemas of the feedback and
// schema tests against the fuzz corpora's argument texts, and of the fuzz
// corpora against their own schemas.
func corpora(t *testing.T) []corpusCase {
	var cases []corpusCase
	vectors := loadCases[schemaCase](t, "testdata/conformance/*schemas.json")
	for _, c := range vectors {
		s, err := ParseSchema(c.Schema)
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, corpusCase{"vector " + c.ID, s, c.Args, false})
	}

	root := filepath.Join("testdata", "jsonschema-suite", "tests")
	for _, d := range suiteDrafts {
		for _, file := range suiteFiles(t, filepath.Join(root, d.dir)) {
			if suiteFileSkip(file) != "" {
				continue
			}
			for _, g := range readJSON[[]suiteGroup](t, filepath.Join(root, d.dir, filepath.FromSlash(file))) {
				schema := mustUseNumber(t, g.Schema)
				if suiteSkipReason(d, schema) != "" {
					continue
				}
				s, err := ParseSchema(wrapSuiteSchema(t, d, schema))
				if err != nil {
					continue
				}
				for _, c := range g.Tests {
					cases = append(cases, corpusCase{"suite " + d.dir + "/" + file + "/" + g.Description + "/" + c.Description, s, []byte(`{"p":` + string(c.Data) + `}`), c.Valid})
				}
			}
		}
	}

	// The fuzz corpora: FuzzSchemaCoerce's against the schemas it fuzzes,
	// FuzzPlanDifferential's against its generated schemas.
	schemas := fuzzSchemaSet(t, Options{})
	var texts [][]byte
	for _, entry := range fuzzCorpus(t, "FuzzSchemaCoerce") {
		i, args := entry[0].(uint16), entry[1].([]byte)
		texts = append(texts, args)
		cases = append(cases, corpusCase{"FuzzSchemaCoerce " + strconv.Itoa(int(i)), schemas[int(i)%len(schemas)], args, false})
	}
	for _, s := range fuzzSchemaSeeds {
		texts = append(texts, []byte(s.args))
	}
	for _, entry := range fuzzCorpus(t, "FuzzPlanDifferential") {
		seed, args := entry[0].(uint64), entry[1].([]byte)
		s, _, _, _, _ := planSchema(seed % 1000)
		cases = append(cases, corpusCase{"FuzzPlanDifferential " + strconv.FormatUint(seed, 10), s, args, false})
	}

	// Real tools' schemas (the feedback goldens' and the schema tests')
	// against every argument text above.
	files, _ := filepath.Glob("testdata/feedback/*.json")
	more, _ := filepath.Glob("testdata/schemas/*.json")
	for _, f := range append(files, more...) {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		s, err := ParseSchema(src)
		if err != nil {
			continue // a schema a test shows refused
		}
		for i, args := range texts {
			cases = append(cases, corpusCase{filepath.Base(f) + " text " + strconv.Itoa(i), s, args, false})
		}
	}
	return cases
}

// fuzzCorpus reads the seed corpus of a fuzz target in testdata/fuzz.
func fuzzCorpus(t *testing.T, target string) [][]any { return fuzzCorpusF(t, target) }

func fuzzCorpusF(t testing.TB, target string) [][]any {
	files, err := filepath.Glob(filepath.Join("testdata", "fuzz", target, "*"))
	if err != nil {
		t.Fatal(err)
	}
	var entries [][]any
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		vals, err := parseCorpusFile(data)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		entries = append(entries, vals)
	}
	return entries
}

// parseCorpusFile reads the values of a "go test fuzz v1" file: a uint16,
// uint64 or []byte per line, as go test writes them.
func parseCorpusFile(data []byte) ([]any, error) {
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) == 0 || lines[0] != "go test fuzz v1" {
		return nil, fmt.Errorf("not a fuzz corpus file")
	}
	var vals []any
	for _, l := range lines[1:] {
		open, close := strings.IndexByte(l, '('), strings.LastIndexByte(l, ')')
		if open < 0 || close < open {
			return nil, fmt.Errorf("line %q", l)
		}
		kind, arg := l[:open], l[open+1:close]
		switch kind {
		case "uint16", "uint64":
			n, err := strconv.ParseUint(arg, 0, 64)
			if err != nil {
				return nil, err
			}
			if kind == "uint16" {
				vals = append(vals, uint16(n))
			} else {
				vals = append(vals, n)
			}
		case "[]byte", "string":
			s, err := strconv.Unquote(arg)
			if err != nil {
				return nil, err
			}
			if kind == "string" {
				vals = append(vals, s)
			} else {
				vals = append(vals, []byte(s))
			}
		default:
			return nil, fmt.Errorf("type %q", kind)
		}
	}
	return vals, nil
}

// TestOneAnswer holds the entry points together on every corpus case.
func TestOneAnswer(t *testing.T) {
	cases := corpora(t)
	failed := 0
	for _, c := range cases {
		if d := oneAnswer(c.schema, c.args); d != "" {
			failed++
			if failed <= 20 {
				t.Errorf("%s: %s", c.name, d)
			}
		}
	}
	t.Logf("%d cases, %d disagreements", len(cases), failed)
}

// Every case of the corpora again under each option that changes what
// coercion does, one at a time (and the two exact ones together): one
// answer whatever the options. The Go values Coerce is given are decoded
// as a caller with those options decodes them (UseNumber).
func TestOneAnswerUnderEachOption(t *testing.T) {
	cases := corpora(t)
	for _, o := range optionSets {
		failed := 0
		for _, c := range cases {
			if d := oneAnswer(c.schema.WithOptions(o), c.args); d != "" {
				if failed++; failed <= 5 {
					t.Errorf("%+v: %s: %s", o, c.name, d)
				}
			}
		}
		t.Logf("%+v: %d cases, %d disagreements", o, len(cases), failed)
	}
}

// optionSets are the options that change what coercion does, one at a
// time (the two exact ones together).
var optionSets = []Options{{WrapScalars: true}, {KeepNulls: true}, {ExactNames: true, ExactEnums: true},
	{StructuredOnly: true}, {UseNumber: true}, {StrictJSON: true}}

// Every case of the corpora again, with the first key of each object below
// the parameters given twice, null once: before its value (the value
// decides) and after it (the null decides, and the rule of nulls may
// remove it). Decoders keep the last occurrence, and so must every entry
// point (the rule of nulls included), whatever the text said before it.
func TestOneAnswerKeysGivenTwice(t *testing.T) {
	failed, n := 0, 0
	for _, c := range corpora(t) {
		d := json.NewDecoder(bytes.NewReader(c.args))
		d.UseNumber()
		var v map[string]any
		if d.Decode(&v) != nil || d.More() || v == nil {
			continue
		}
		for _, nullFirst := range []bool{true, false} {
			var b bytes.Buffer
			writeTwice(&b, v, nullFirst, 0)
			n++
			if d := oneAnswer(c.schema, b.Bytes()); d != "" {
				failed++
				if failed <= 20 {
					t.Errorf("%s, %s: %s", c.name, b.Bytes(), d)
				}
			}
		}
	}
	t.Logf("%d cases, %d disagreements", n, failed)
}

// writeTwice writes v as JSON, keys sorted, with the first key of every
// object below the top given twice, null once: first, or last.
func writeTwice(b *bytes.Buffer, v any, nullFirst bool, depth int) {
	switch x := v.(type) {
	case map[string]any:
		keys := slices.Sorted(maps.Keys(x))
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			name, _ := json.Marshal(k)
			twice := i == 0 && depth > 0
			if twice && nullFirst {
				b.Write(name)
				b.WriteString(":null,")
			}
			b.Write(name)
			b.WriteByte(':')
			writeTwice(b, x[k], nullFirst, depth+1)
			if twice && !nullFirst {
				b.WriteByte(',')
				b.Write(name)
				b.WriteString(":null")
			}
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			writeTwice(b, e, nullFirst, depth+1)
		}
		b.WriteByte(']')
	default:
		text, _ := json.Marshal(x)
		b.Write(text)
	}
}

// FuzzOneAnswer holds every entry point to one answer on generated
// schemas (enums, nulls, names, unions, nested objects: planSchema) and
// any argument text, near-JSON included; seed/1000 picks the options
// (0 and 7: the schema's own; else one of optionSets).
func FuzzOneAnswer(f *testing.F) {
	for _, entry := range fuzzCorpusF(f, "FuzzPlanDifferential") {
		f.Add(entry[0].(uint64), entry[1].([]byte))
	}
	for seed := range uint64(8) {
		for _, text := range []string{
			`{'p': None, 'q': [1, 2,], "z": True}`,
			"// note\n{\"p\": \"5\", \"z\": null}",
			`<tool_call>{"P": "[1]", "q": {"a": "1"}}</tool_call>`,
			`{"p": "{'a': 1}", "q": "[1,]", "xy": null}`,
			`{"p": 1, "p": "2", "Z": "true"}`,
			`{"p": "", "q": {}, "z": [], "xy": { }}`,
			`{"kwargs": {"p": "5", "q": ""}}`,
			`{"input": "{\"p\": 1}"}`,
			`{"q": {"a": "x", "a": null}, "z": [{"b": 1, "b": null}]}`,
		} {
			f.Add(seed, []byte(text))
		}
	}
	for k := range uint64(len(optionSets)) {
		f.Add(1000*(k+1)+3, []byte(`{'p': None, 'q': [1, "2",], "z": "True", "xy": {"a": null}}`))
	}
	f.Fuzz(func(t *testing.T, seed uint64, args []byte) {
		s := plannedSchema(seed % 1000)
		if k := int(seed / 1000 % 8); k > 0 && k <= len(optionSets) { // the schema's own, the other times
			s = s.WithOptions(optionSets[k-1])
		}
		if d := oneAnswer(s, args); d != "" {
			t.Fatal(d)
		}
	})
}

// plannedSchemas caches planSchema's schemas by seed: a fuzz target that
// compiles one per input spends its time compiling.
var plannedSchemas sync.Map

func plannedSchema(seed uint64) *Schema {
	if s, ok := plannedSchemas.Load(seed); ok {
		return s.(*Schema)
	}
	s, _, _, _, _ := planSchema(seed)
	plannedSchemas.Store(seed, s)
	return s
}
