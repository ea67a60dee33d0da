package compare

import (
	"fmt"
	"strings"
	"testing"

	"github.com/coerce-go/coerce"
)

// The impl names of BenchmarkStream, by Previewer.
var streamImpls = map[string]string{
	"coerce Stream": "coerce", "coerce internal/nearjson, per delta": "nearjson",
	"RealAlexandreAI/json-repair, per delta": "alexandre", "charm.land/fantasy/jsonrepair, per delta": "fantasy",
	"kaptinlin/jsonrepair, per delta": "kaptinlin", "encoding/json, per delta": "encoding_json",
}

// BenchmarkStream: a whole stream, a preview after every delta, per op;
// parsed-B/op is the bytes read in all (a re-parse reads the buffer again
// at every delta).
func BenchmarkStream(b *testing.B) {
	schema := mustSchema(b, StreamSchema)
	for _, size := range []int{4 << 10, 64 << 10} {
		text := StreamArgs(size)
		for _, realistic := range []bool{false, true} {
			deltas, chunk := Deltas(text, realistic), "1B"
			if realistic {
				chunk = "tokens"
			}
			for _, p := range Previewers() {
				switch slow := p.Name != "coerce Stream" && p.Name != "coerce internal/nearjson, per delta" && p.Name != "encoding/json, per delta"; {
				case size > 4<<10 && !realistic && p.Name != "coerce Stream":
					continue // a re-parse per byte of 64 KiB takes minutes
				case size > 4<<10 && slow:
					continue // and per token, tens of seconds
				}
				b.Run(fmt.Sprintf("size=%dKB/deltas=%s/impl=%s", size>>10, chunk, streamImpls[p.Name]), func(b *testing.B) {
					b.ReportAllocs()
					parsed := 0
					for b.Loop() {
						_, parsed = p.Run(schema, deltas)
					}
					b.ReportMetric(float64(parsed), "parsed-B/op")
				})
			}
		}
	}
}

// A stream cut off before its end: which previewer hands back arguments a
// caller would run? coerce never does; a repairer that closes the text
// does, without dry_run, which the cut removed.
func TestStreamCutOff(t *testing.T) {
	schema := mustSchema(t, StreamSchema)
	text := StreamArgs(4 << 10)
	cuts := map[string]int{
		"inside the code":            len(text) / 3,
		"inside the edits":           strings.Index(string(text), `"edits"`) + 40,
		"before dry_run's value":     len(text) - len(`true}`),
		"after the last value, open": len(text) - 1,
	}
	for _, p := range Previewers() {
		ran := 0
		for where, n := range cuts {
			final, _ := p.Run(schema, Deltas(text[:n], true))
			if final != nil {
				ran++
				if p.Name == "coerce Stream" {
					t.Errorf("%s: coerce ran a call cut off %s", p.Name, where)
				}
			}
		}
		t.Logf("%-42s runs %d of %d cut-off calls", p.Name, ran, len(cuts))
	}
	if _, err := schema.CoerceJSON(text); err != nil {
		t.Fatal(err)
	}
	final, _ := Previewers()[0].Run(schema, Deltas(text, true))
	if final["dry_run"] != true {
		t.Fatalf("the whole stream: %v", final["dry_run"])
	}
	_ = coerce.ErrTruncated
}
