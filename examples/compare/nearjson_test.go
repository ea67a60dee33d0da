package compare

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"
)

func loadCases(tb testing.TB) []Case {
	tb.Helper()
	cases, err := LoadCases("testdata/nearjson_cases.json")
	if err != nil {
		tb.Fatal(err)
	}
	return cases
}

// The cases are what they claim: near-JSON (none is valid JSON, whose
// only reading is JSON's), each wanted value conforms to its schema.
func TestNearJSONCases(t *testing.T) {
	for i, c := range loadCases(t) {
		if json.Valid([]byte(c.Text)) {
			t.Errorf("case %d (%s) is valid JSON: %q", i, c.Kind, c.Text)
		}
		if c.Want == nil {
			continue
		}
		var v any
		if err := json.Unmarshal(c.Want, &v); err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		if err := c.resolved.Validate(v); err != nil {
			t.Errorf("case %d (%s): the value wanted does not conform: %v", i, c.Kind, err)
		}
	}
}

// TestNearJSONTable sets the repairers side by side on the cases of their
// own test suites and of public issue threads, and prints the table (run
// with -v). Ours gives no wrong and no guessed value, and at least as many
// right values as the best of the others. Time per call is measured in
// rounds that alternate the repairers, and printed, never asserted.
func TestNearJSONTable(t *testing.T) {
	cases := loadCases(t)
	tallies := make([]Tally, len(Repairers))
	for i, r := range Repairers {
		tallies[i] = TallyAll(r, cases)
	}
	ours := tallies[0]
	if ours.Count[Wrong] != 0 || ours.Count[Guessed] != 0 {
		for i := range cases {
			if o, _, out := Judge(Repairers[0], &cases[i]); o == Wrong || o == Guessed {
				t.Errorf("%s %q: %s %s", cases[i].Kind, cases[i].Text, o, out)
			}
		}
	}
	for i, tl := range tallies[1:] {
		if tl.Count[Right] > ours.Count[Right] {
			t.Errorf("%s: %d right, ours %d", Repairers[i+1].Name, tl.Count[Right], ours.Count[Right])
		}
	}
	ns := make([]float64, len(Repairers))
	if !testing.Short() {
		ns = timePerCall(cases, 5, 20*time.Millisecond)
	}
	var b bytes.Buffer
	WriteTable(&b, cases, tallies, ns)
	t.Log("\n" + b.String())
	if testing.Verbose() {
		for i := range cases {
			line := cases[i].Kind + " " + jsonQuote(cases[i].Text) + ":"
			for _, r := range Repairers {
				o, _, out := Judge(r, &cases[i])
				line += " [" + o.String()
				if o != Refused {
					line += " " + out
				}
				line += "]"
			}
			t.Log(line)
		}
	}
}

func jsonQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// timePerCall measures each repairer's mean time per call over all cases,
// in rounds that alternate the repairers so that the machine's drift
// falls on all of them alike.
func timePerCall(cases []Case, rounds int, budget time.Duration) []float64 {
	total := make([]time.Duration, len(Repairers))
	calls := make([]int, len(Repairers))
	for range rounds {
		for i, r := range Repairers {
			start := time.Now()
			for time.Since(start) < budget {
				for j := range cases {
					safeRepair(r, cases[j].Text)
				}
				calls[i] += len(cases)
			}
			total[i] += time.Since(start)
		}
	}
	ns := make([]float64, len(Repairers))
	for i := range ns {
		ns[i] = float64(total[i].Nanoseconds()) / float64(calls[i])
	}
	return ns
}

// BenchmarkNearJSON runs every case through each repairer:
// BenchmarkNearJSON/impl=<who>, one op being the whole set of cases.
// `go test -bench NearJSON -count 8` alternates nothing by itself; use
// benchstat over -count rounds, or TestNearJSONTable's alternating rounds.
func BenchmarkNearJSON(b *testing.B) {
	cases := loadCases(b)
	for _, r := range Repairers {
		b.Run("impl="+r.Name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for j := range cases {
					safeRepair(r, cases[j].Text)
				}
			}
		})
	}
}
