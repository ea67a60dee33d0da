package compare

import (
	"bytes"
	"fmt"

	"github.com/coerce-go/coerce"
)

// A ReplyReader takes a model's whole reply, asked for structured output
// with a JSON Schema, and returns the JSON value it holds, or refuses.
type ReplyReader struct {
	Name, Version string
	Read          func(c *ReplyCase) (string, error)
}

// A ReplyCase is a Case whose text is a model's whole reply, with its schema
// compiled for coerce once, as a program compiles it once for many replies.
type ReplyCase struct {
	Case
	schema *coerce.Schema
}

// ReplyReaders are coerce's Schema.FromReply and the Go repair libraries of
// Repairers, each on the whole reply, as a program without a schema-aware
// reader calls it: what it repairs the reply into is what the program
// decodes. None of them takes a schema.
var ReplyReaders = func() []ReplyReader {
	readers := []ReplyReader{{"coerce Schema.FromReply", "(this tree)", func(c *ReplyCase) (string, error) {
		out, err := c.schema.FromReply(c.Text)
		return string(out), err
	}}}
	for _, r := range Repairers[1:] {
		readers = append(readers, ReplyReader{r.Name, r.Version, func(c *ReplyCase) (string, error) { return r.Repair(c.Text) }})
	}
	return readers
}()

// LoadReplyCases reads the cases of replies, resolves their schemas for
// judging and compiles them for coerce.
func LoadReplyCases(path string) ([]ReplyCase, error) {
	cases, err := LoadCases(path)
	if err != nil {
		return nil, err
	}
	out := make([]ReplyCase, len(cases))
	for i, c := range cases {
		s, err := coerce.ParseSchema(c.Schema)
		if err != nil {
			return nil, fmt.Errorf("case %d: %v", i, err)
		}
		out[i] = ReplyCase{c, s}
	}
	return out, nil
}

// JudgeReply runs r on c and says what came of it, as Judge does.
func JudgeReply(r ReplyReader, c *ReplyCase) (o Outcome, conforms bool, out string) {
	return c.judge(safeCall(func() (string, error) { return r.Read(c) }))
}

// TallyReplies judges every case with r.
func TallyReplies(r ReplyReader, cases []ReplyCase) Tally {
	return tally(plainCases(cases), func(i int) (Outcome, bool, string) { return JudgeReply(r, &cases[i]) })
}

func plainCases(cases []ReplyCase) []Case {
	plain := make([]Case, len(cases))
	for i := range cases {
		plain[i] = cases[i].Case
	}
	return plain
}

// WriteReplyTable writes the side-by-side table of the reply readers, as
// WriteTable does for the repairers.
func WriteReplyTable(w *bytes.Buffer, cases []ReplyCase, tallies []Tally, ns []float64) {
	names := make([][2]string, len(ReplyReaders))
	for i, r := range ReplyReaders {
		names[i] = [2]string{r.Name, r.Version}
	}
	writeTable(w, plainCases(cases), names, tallies, ns)
}
