package compare

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"
)

func loadReplyCases(tb testing.TB) []ReplyCase {
	tb.Helper()
	cases, err := LoadReplyCases("testdata/reply_cases.json")
	if err != nil {
		tb.Fatal(err)
	}
	return cases
}

// validationKeyword is the kind of the cases whose verdict turns on a
// validation keyword (pattern, minimum, format...), which coerce leaves to
// a validator: FromReply returns the value the reply holds, as every
// library here does, and the caller's validator refuses it.
const validationKeyword = "validation-keyword"

// The cases are what they claim: each wanted value conforms to its schema,
// and every case has a source.
func TestReplyCases(t *testing.T) {
	for i, c := range loadReplyCases(t) {
		if c.Source == "" || c.Kind == "" {
			t.Errorf("case %d has no source or kind", i)
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

// TestReplyTable sets Schema.FromReply beside the Go repair libraries, each
// on the whole reply, on the structured-output cases of json_repair's and
// jsonrepair's test suites and on replies from public issue threads, and
// prints the table (run with -v). Ours gives no wrong and no guessed value
// but where a validation keyword decides, and at least as many right values
// as the best of the others. Time per call is measured in rounds that
// alternate the readers, and printed, never asserted.
func TestReplyTable(t *testing.T) {
	cases := loadReplyCases(t)
	tallies := make([]Tally, len(ReplyReaders))
	for i, r := range ReplyReaders {
		tallies[i] = TallyReplies(r, cases)
	}
	for i := range cases {
		o, _, out := JudgeReply(ReplyReaders[0], &cases[i])
		switch {
		case cases[i].Kind == validationKeyword && o != Guessed:
			t.Errorf("%s %q: %s %s; FromReply leaves %s to a validator, and should return the value", cases[i].Kind, cases[i].Text, o, out, "pattern")
		case cases[i].Kind != validationKeyword && (o == Wrong || o == Guessed):
			t.Errorf("%s %q: %s %s", cases[i].Kind, cases[i].Text, o, out)
		}
	}
	for i, tl := range tallies[1:] {
		if tl.Count[Right] > tallies[0].Count[Right] {
			t.Errorf("%s: %d right, ours %d", ReplyReaders[i+1].Name, tl.Count[Right], tallies[0].Count[Right])
		}
	}
	ns := make([]float64, len(ReplyReaders))
	if !testing.Short() {
		ns = timeReplies(cases, 5, 20*time.Millisecond)
	}
	var b bytes.Buffer
	WriteReplyTable(&b, cases, tallies, ns)
	t.Log("\n" + b.String())
	if testing.Verbose() {
		for i := range cases {
			line := cases[i].Kind + " " + jsonQuote(cases[i].Text) + ":"
			for _, r := range ReplyReaders {
				o, _, out := JudgeReply(r, &cases[i])
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

// timeReplies measures each reader's mean time per call over all cases, in
// rounds that alternate the readers.
func timeReplies(cases []ReplyCase, rounds int, budget time.Duration) []float64 {
	total := make([]time.Duration, len(ReplyReaders))
	calls := make([]int, len(ReplyReaders))
	for range rounds {
		for i, r := range ReplyReaders {
			start := time.Now()
			for time.Since(start) < budget {
				for j := range cases {
					safeCall(func() (string, error) { return r.Read(&cases[j]) })
				}
				calls[i] += len(cases)
			}
			total[i] += time.Since(start)
		}
	}
	ns := make([]float64, len(ReplyReaders))
	for i := range ns {
		ns[i] = float64(total[i].Nanoseconds()) / float64(calls[i])
	}
	return ns
}

// BenchmarkReply runs every case through each reader:
// BenchmarkReply/impl=<who>, one op being the whole set of cases.
func BenchmarkReply(b *testing.B) {
	cases := loadReplyCases(b)
	for _, r := range ReplyReaders {
		b.Run("impl="+r.Name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for j := range cases {
					safeCall(func() (string, error) { return r.Read(&cases[j]) })
				}
			}
		})
	}
}
