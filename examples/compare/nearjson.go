package compare

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"reflect"
	"sort"
	"strings"
	"text/tabwriter"

	fantasy "charm.land/fantasy/jsonrepair"
	alexandre "github.com/RealAlexandreAI/json-repair"
	"github.com/coerce-go/coerce/internal/nearjson"
	"github.com/google/jsonschema-go/jsonschema"
	kaptinlin "github.com/kaptinlin/jsonrepair"
)

// A Repairer turns near-JSON text into JSON text, or refuses it.
type Repairer struct {
	Name, Version string
	Repair        func(string) (string, error)
}

// Repairers are coerce's internal/nearjson and the Go repair libraries
// that the module proxy serves and that build with Go 1.26, each through
// the function its README shows for repairing text into JSON text, with
// its default options.
var Repairers = []Repairer{
	{"coerce internal/nearjson", "(this tree)", func(s string) (string, error) {
		out, _, err := nearjson.Repair([]byte(s), nearjson.Limits{})
		return string(out), err
	}},
	{"RealAlexandreAI/json-repair", "v0.0.18", alexandre.RepairJSON},
	{"charm.land/fantasy/jsonrepair", "v0.41.2", func(s string) (string, error) { return fantasy.RepairJSON(s) }},
	{"kaptinlin/jsonrepair", "v0.2.15", kaptinlin.Repair},
}

// A Case is near-JSON text with the schema its value should conform to.
// Want is the value the text was written to mean, when it has exactly one
// reading; it is absent when any value would be a guess: text cut off,
// a quote that could end the string or belong to it, a number JSON does
// not write, items elided with "...", a missing value, a bracket closed
// by the wrong one.
type Case struct {
	Kind   string          `json:"kind"`
	Source string          `json:"source"`
	Text   string          `json:"text"`
	Schema json.RawMessage `json:"schema"`
	Want   json.RawMessage `json:"want,omitempty"`

	resolved *jsonschema.Resolved
}

// LoadCases reads the cases and resolves their schemas.
func LoadCases(path string) ([]Case, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var cases []Case
	if err := json.Unmarshal(data, &cases); err != nil {
		return nil, err
	}
	for i := range cases {
		c := &cases[i]
		var s jsonschema.Schema
		if err := json.Unmarshal(c.Schema, &s); err != nil {
			return nil, fmt.Errorf("case %d: %v", i, err)
		}
		if c.resolved, err = s.Resolve(nil); err != nil {
			return nil, fmt.Errorf("case %d: %v", i, err)
		}
	}
	return cases, nil
}

// An Outcome is what a repairer made of a case.
type Outcome int

const (
	// Right: the value meant, conforming to the schema.
	Right Outcome = iota
	// Wrong: a value other than the one meant, or one that does not
	// conform: a dropped item, a default filled in, a changed string.
	Wrong
	// Guessed: a value where the text has no single reading, such as
	// truncated text closed for the caller.
	Guessed
	// Refused: an error, or text that is not JSON (which a caller's
	// decoder then refuses).
	Refused
)

var outcomeNames = [...]string{"right", "wrong", "guessed", "refused"}

func (o Outcome) String() string { return outcomeNames[o] }

// Judge runs r on c and says what came of it, and whether a value that
// came out conforms to the schema (so would pass validation and run).
func Judge(r Repairer, c *Case) (o Outcome, conforms bool, out string) {
	return c.judge(safeRepair(r, c.Text))
}

// judge says what came of c when a reader returned out and err.
func (c *Case) judge(out string, err error) (o Outcome, conforms bool, _ string) {
	if err != nil || !json.Valid([]byte(out)) {
		return Refused, false, out
	}
	var v any
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		return Refused, false, out
	}
	conforms = c.resolved.Validate(v) == nil
	switch {
	case c.Want == nil:
		return Guessed, conforms, out
	case conforms && sameValue(exact(out), exact(string(c.Want))):
		return Right, true, out
	default:
		return Wrong, conforms, out
	}
}

// safeRepair calls r, turning a panic into an error: a library that
// panics on a case has not repaired it.
func safeRepair(r Repairer, text string) (out string, err error) {
	return safeCall(func() (string, error) { return r.Repair(text) })
}

// safeCall calls f, turning a panic into an error.
func safeCall(f func() (string, error)) (out string, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	return f()
}

// exact decodes JSON text with numbers as json.Number, so that no digit
// is lost before comparing.
func exact(text string) any {
	d := json.NewDecoder(strings.NewReader(text))
	d.UseNumber()
	var v any
	if d.Decode(&v) != nil {
		return nil
	}
	return v
}

// sameValue compares decoded values, numbers by their exact value (1.0
// equals 1; 12345678901234567890 differs from 12345678901234567000).
func sameValue(a, b any) bool {
	switch a := a.(type) {
	case json.Number:
		b, ok := b.(json.Number)
		if !ok {
			return false
		}
		x, okx := new(big.Rat).SetString(string(a))
		y, oky := new(big.Rat).SetString(string(b))
		return okx && oky && x.Cmp(y) == 0
	case []any:
		b, ok := b.([]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for i := range a {
			if !sameValue(a[i], b[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		b, ok := b.(map[string]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for k, va := range a {
			vb, ok := b[k]
			if !ok || !sameValue(va, vb) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(a, b)
}

// A Tally counts a repairer's outcomes over the cases.
type Tally struct {
	Count [4]int
	// WrongConforming counts the wrong and guessed values that conform to
	// the schema: those validation lets through to run.
	WrongConforming int
	// ByKind counts, per kind of case, the cases whose outcome was the
	// expected one: Right where a value is meant, Refused where none is.
	ByKind map[string]int
}

// TallyAll judges every case with r.
func TallyAll(r Repairer, cases []Case) Tally {
	return tally(cases, func(i int) (Outcome, bool, string) { return Judge(r, &cases[i]) })
}

// tally counts the outcomes of judge, which judges case i.
func tally(cases []Case, judge func(i int) (Outcome, bool, string)) Tally {
	t := Tally{ByKind: map[string]int{}}
	for i := range cases {
		o, conforms, _ := judge(i)
		t.Count[o]++
		if (o == Wrong || o == Guessed) && conforms {
			t.WrongConforming++
		}
		if o == Right || o == Refused && cases[i].Want == nil {
			t.ByKind[cases[i].Kind]++
		}
	}
	return t
}

// WriteTable writes the side-by-side table: outcomes per repairer, and
// the time per call when ns is not nil; then the expected outcomes per
// kind of case.
func WriteTable(w *bytes.Buffer, cases []Case, tallies []Tally, ns []float64) {
	names := make([][2]string, len(Repairers))
	for i, r := range Repairers {
		names[i] = [2]string{r.Name, r.Version}
	}
	writeTable(w, cases, names, tallies, ns)
}

// writeTable is WriteTable for the readers named (name, version).
func writeTable(w *bytes.Buffer, cases []Case, names [][2]string, tallies []Tally, ns []float64) {
	meant := 0
	kinds := map[string]int{}
	for _, c := range cases {
		if c.Want != nil {
			meant++
		}
		kinds[c.Kind]++
	}
	fmt.Fprintf(w, "%d cases: %d with one reading (a value is meant), %d without (a value is a guess)\n\n", len(cases), meant, len(cases)-meant)
	tw := tabwriter.NewWriter(w, 0, 0, 1, ' ', tabwriter.AlignRight|tabwriter.Debug)
	fmt.Fprintln(tw, "library\tversion\tright\twrong\tguessed\trefused\twrong+guessed that conform\tns/call\t")
	for i, r := range names {
		t := tallies[i]
		per := "-"
		if ns != nil {
			per = fmt.Sprintf("%.0f", ns[i])
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%d\t%d\t%s\t\n", r[0], r[1], t.Count[Right], t.Count[Wrong], t.Count[Guessed], t.Count[Refused], t.WrongConforming, per)
	}
	tw.Flush()
	kindNames := make([]string, 0, len(kinds))
	for k := range kinds {
		kindNames = append(kindNames, k)
	}
	sort.Strings(kindNames)
	fmt.Fprintln(w, "\nexpected outcome per kind (right where a value is meant, refused where none is):")
	tw = tabwriter.NewWriter(w, 0, 0, 1, ' ', tabwriter.AlignRight|tabwriter.Debug)
	fmt.Fprint(tw, "kind\tcases\t")
	for _, r := range names {
		fmt.Fprintf(tw, "%s\t", strings.SplitN(r[0], "/", 2)[0])
	}
	fmt.Fprintln(tw)
	for _, k := range kindNames {
		fmt.Fprintf(tw, "%s\t%d\t", k, kinds[k])
		for i := range names {
			fmt.Fprintf(tw, "%d\t", tallies[i].ByKind[k])
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
}
