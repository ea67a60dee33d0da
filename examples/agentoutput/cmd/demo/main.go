// Command demo runs a three-step "select files, then analyze each" recipe
// against scripted agents, and then positional arguments as an LLM writes
// them through ParseArgs. It prints what each agent was asked and the Go
// type each reply was stored as.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"strings"

	"github.com/coerce-go/coerce"
	"github.com/coerce-go/coerce/examples/agentoutput/internal/agentoutput"
)

// selection is what the architect is asked for: its reply is read for the
// one value that conforms, wherever it stands.
var selection = func() *coerce.Schema {
	s, err := coerce.ParseSchema([]byte(`{"type": "object",
		"properties": {"selected_files": {"type": "array", "items": {"type": "string"}}, "rationale": {"type": "string"}},
		"required": ["selected_files"]}`))
	if err != nil {
		log.Fatal(err)
	}
	return s
}()

var recipe = []agentoutput.Step{{
	ID:     "select-files",
	Agent:  "architect",
	Prompt: "Select files to analyze under {{root}}. Reply in JSON.",
	Output: "selection",
	Schema: selection,
}, {
	ID:      "analyze-files",
	Agent:   "analyzer",
	Foreach: "{{selection.selected_files}}",
	Prompt:  "Analyze {{item}}",
	Output:  "analyses",
}, {
	ID:     "summarize",
	Agent:  "writer",
	Prompt: "Summarize. {{analyses.0.file}}: {{analyses.0.issues}} issues. All: {{analyses}}",
	Output: "summary",
}}

var issues = map[string]int{"/src/auth/session.py": 2, "/src/auth/tokens.py": 1}

// agents reply as models do: prose around a fenced JSON block, bare JSON,
// and prose around a fence again.
func spawn(_ context.Context, agent, instruction string) (agentoutput.Reply, error) {
	fmt.Printf("%-10s <- %s\n", agent, clip(instruction))
	var out string
	switch agent {
	case "architect":
		out = "I picked the two files that hold the session logic:\n```json\n{\n  \"selected_files\": [\"/src/auth/session.py\", \"/src/auth/tokens.py\"],\n  \"rationale\": \"These are the core files\"\n}\n```\nThe tests are left out."
	case "analyzer":
		file := strings.TrimPrefix(instruction, "Analyze ")
		out = fmt.Sprintf(`{"file": %q, "issues": %d}`, file, issues[file])
	default:
		out = "Two files, three issues in all:\n```json\n{\"total\": 3}\n```"
	}
	return agentoutput.Reply{Output: out, SessionID: "recipe_xyz_abc123"}, nil
}

func main() {
	log.SetFlags(0)
	e := &agentoutput.Executor{Spawn: func(ctx context.Context, agent, instruction string) (agentoutput.Reply, error) {
		return spawn(ctx, agent, instruction)
	}}
	vars, err := e.Run(context.Background(), recipe, map[string]any{"root": "/src"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("\nstored variables:")
	for _, st := range recipe {
		v := vars[st.Output]
		fmt.Printf("  %-10s %-24T %s\n", st.Output, v, show(v))
	}
	fmt.Println("\npositional arguments:")
	calls := [][]any{
		{"register", `{"id": "foo"}`},
		{"batch", "[1, 2, 3]"},
		{"lookup", "123"},
		{"toggle", "true"},
		{"clear", "null"},
		{"note", "hello"},
		{"quote", `"hello"`},
	}
	for _, args := range calls {
		parsed := agentoutput.ParseArgs(args)
		fmt.Printf("  %-48s -> %s\n", show(args), types(parsed))
	}
	fmt.Println()
	fmt.Println("  register(raw):   ", errText(register(calls[0]...)))
	fmt.Println("  register(parsed):", errText(register(agentoutput.ParseArgs(calls[0])...)))
}

// register is an artifact that takes an entry object, which agents invoke
// with the entry written as JSON text.
func register(args ...any) (any, error) {
	entry, ok := args[1].(map[string]any)
	if !ok {
		return nil, fmt.Errorf("entry is %T, want an object", args[1])
	}
	return "registered " + entry["id"].(string), nil
}

func errText(v any, err error) string {
	if err != nil {
		return "error: " + err.Error()
	}
	return fmt.Sprint(v)
}

func types(args []any) string {
	var b strings.Builder
	for i, a := range args {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%T", a)
	}
	return b.String()
}

func show(v any) string {
	b, _ := json.Marshal(v)
	return clip(string(b))
}

func clip(s string) string {
	s = strings.ReplaceAll(s, "\n", `\n`)
	if len(s) > 80 {
		return s[:77] + "..."
	}
	return s
}
