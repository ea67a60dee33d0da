package agentoutput

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/coerce-go/coerce"
	"github.com/google/go-cmp/cmp"
)

// selectionSchema is what the architect is asked for.
var selectionSchema = func() *coerce.Schema {
	s, err := coerce.ParseSchema([]byte(`{"type": "object",
		"properties": {"selected_files": {"type": "array", "items": {"type": "string"}}, "rationale": {"type": "string"}},
		"required": ["selected_files"]}`))
	if err != nil {
		panic(err)
	}
	return s
}()

// TestParseWith reads the replies models write when asked for structured
// output: the value that conforms is found wherever it stands.
func TestParseWith(t *testing.T) {
	files := map[string]any{"selected_files": []any{"/p1.py", "/p2.py"}, "rationale": "core"}
	const filesJSON = `{"selected_files": ["/p1.py", "/p2.py"], "rationale": "core"}`
	tests := []struct {
		name  string
		reply string
		want  any
		err   error
	}{
		{"bare", filesJSON, files, nil},
		{"prose before a fence", "Here's the JSON:\n```json\n" + filesJSON + "\n```", files, nil},
		{"prose after a fence", "```\n" + filesJSON + "\n```\nHope that helps.", files, nil},
		{"prose around bare JSON", "Result: " + filesJSON + " (two files)", files, nil},
		{"an example first", "The format is `{\"files\": []}`.\n\n" + filesJSON, files, nil},
		{"Python literals", "```python\n{'selected_files': ['/p1.py', '/p2.py'], 'rationale': 'core',}\n```", files, nil},
		{"a single file for the list is not repaired", `{"selected_files": "/p1.py"}`, nil, coerce.ErrKind},
		{"two answers", filesJSON + "\nor maybe\n" + `{"selected_files": ["/p3.py"]}`, nil, coerce.ErrAmbiguous},
		{"cut off", "Here it is: " + filesJSON[:30], nil, coerce.ErrTruncated},
		{"no JSON", "I could not find any files.", nil, coerce.ErrSyntax},
		{"a required name missing", `{"rationale": "none fit"}`, nil, coerce.ErrMissing},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseWith(selectionSchema, tt.reply)
			if tt.err != nil {
				if !errors.Is(err, tt.err) {
					t.Fatalf("ParseWith(%q) = %v, %v; want %v", tt.reply, got, err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ParseWith(%q) (-want +got):\n%s", tt.reply, diff)
			}
		})
	}
}

// TestStepWithSchema runs the recipe whose architect answers with prose
// around a fence: without a schema the reply stays text and the foreach
// fails (TestProseStaysText); with one, the foreach runs over the files.
func TestStepWithSchema(t *testing.T) {
	reply := "The format is `{\"selected_files\": \"<paths>\"}`; here is mine:\n```json\n" + selection + "\n```\nLet me know!"
	var log []string
	e := scripted(map[string]map[string]string{
		"architect": {"*": reply},
		"analyzer":  {"*": "ok"},
	}, &log)
	steps := append([]Step(nil), selectThenAnalyze...)
	steps[0].Schema = selectionSchema
	vars, err := e.Run(context.Background(), steps, nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]any{"ok", "ok"}, vars["analyses"]); diff != "" {
		t.Errorf("analyses (-want +got):\n%s", diff)
	}

	// A reply with two selections fails the step, naming both.
	e = scripted(map[string]map[string]string{"architect": {"*": selection + "\n" + `{"selected_files": ["/x.py"]}`}}, &log)
	_, err = e.Run(context.Background(), steps[:1], nil)
	if !errors.Is(err, coerce.ErrAmbiguous) || !strings.Contains(err.Error(), "at offset 0, the second at offset "+strconv.Itoa(len(selection)+1)) {
		t.Errorf("two selections: %v", err)
	}
}
