package compare

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/coerce-go/coerce"
)

// Streams: the argument text of a real-looking tool call fed in deltas,
// with a preview after each, through coerce's Stream and through a
// re-parse of the whole buffer per delta, as most agents preview (each
// Repairer on the prefix, or encoding/json).

// StreamSchema is the schema of StreamArgs: a file edit with code.
const StreamSchema = `{"type": "object", "required": ["path", "content", "edits"],
	"properties": {"path": {"type": "string"}, "content": {"type": "string"}, "dry_run": {"type": "boolean"},
	"edits": {"type": "array", "items": {"type": "object", "properties": {
		"line": {"type": "integer"}, "lines": {"type": "array", "items": {"type": "string"}}}}}}}`

// StreamArgs is argument text of about size bytes: a path, a long string
// of Go code with quotes, escapes and newlines, and nested arrays of
// edits, then dry_run, the flag that a cut-off call loses.
func StreamArgs(size int) []byte {
	var code strings.Builder
	for i := 0; code.Len() < size*3/4; i++ {
		fmt.Fprintf(&code, "func f%d(s string) error {\n\tif s == \"\" {\n\t\treturn fmt.Errorf(\"f%d: %%q\\t\", s)\n\t}\n\treturn nil\n}\n\n", i, i)
	}
	type edit struct {
		Line  int      `json:"line"`
		Lines []string `json:"lines"`
	}
	var edits []edit
	for i := 0; len(edits)*60 < size/4; i++ {
		edits = append(edits, edit{Line: 10 * i, Lines: []string{fmt.Sprintf("x%d := %d", i, i), "// \"done\""}})
	}
	text, _ := json.Marshal(map[string]any{"path": "internal/gen/funcs.go", "content": code.String(), "edits": edits})
	// dry_run last, as models write it after the payload.
	return append(text[:len(text)-1], `,"dry_run":true}`...)
}

// Deltas cuts text into the deltas of a stream: each one byte, or
// realistic deltas of a few tokens (3 to 16 bytes, in a fixed pattern).
func Deltas(text []byte, realistic bool) [][]byte {
	sizes := []int{1}
	if realistic {
		sizes = []int{3, 7, 5, 12, 4, 9, 16, 6}
	}
	var out [][]byte
	for i, n := 0, 0; i < len(text); n++ {
		end := min(i+sizes[n%len(sizes)], len(text))
		out = append(out, text[i:end])
		i = end
	}
	return out
}

// A Previewer previews a stream delta by delta and says what it would
// run at the end.
type Previewer struct {
	Name, Version string
	// Run feeds the deltas, previewing after each, and returns the
	// arguments it would hand to the tool at the end (nil: none), and the
	// bytes it parsed in all.
	Run func(schema *coerce.Schema, deltas [][]byte) (final map[string]any, parsed int)
}

// Previewers are coerce's Stream and a re-parse per delta by each
// Repairer and by encoding/json.
func Previewers() []Previewer {
	ps := []Previewer{{"coerce Stream", "(this tree)", func(s *coerce.Schema, deltas [][]byte) (map[string]any, int) {
		st := s.Stream()
		parsed := 0
		for _, d := range deltas {
			st.Write(d)
			st.Preview()
			parsed += len(d)
		}
		out, err := st.Close()
		if err != nil {
			return nil, parsed
		}
		var m map[string]any
		if json.Unmarshal(out, &m) != nil {
			return nil, parsed
		}
		return m, parsed
	}}}
	reparse := func(parse func(string) (map[string]any, bool)) func(*coerce.Schema, [][]byte) (map[string]any, int) {
		return func(_ *coerce.Schema, deltas [][]byte) (map[string]any, int) {
			var buf []byte
			var last map[string]any
			parsed := 0
			for _, d := range deltas {
				buf = append(buf, d...)
				parsed += len(buf)
				last, _ = parse(string(buf))
			}
			return last, parsed
		}
	}
	for _, r := range Repairers {
		ps = append(ps, Previewer{r.Name + ", per delta", r.Version, reparse(func(s string) (map[string]any, bool) {
			out, err := r.Repair(s)
			var m map[string]any
			if err != nil || json.Unmarshal([]byte(out), &m) != nil {
				return nil, false
			}
			return m, true
		})})
	}
	ps = append(ps, Previewer{"encoding/json, per delta", "(Go 1.26)", reparse(func(s string) (map[string]any, bool) {
		var m map[string]any
		return m, json.Unmarshal([]byte(s), &m) == nil
	})})
	return ps
}
