// Command demo runs a four-step workflow in which values change shape
// between steps: an LLM planner whose plan is JSON text, a task generator
// and a task reviewer that take typed Go structs, and a Discord action that
// wants path_params as JSON text. Step outputs go through a store that
// hands every structured field back double-encoded.
//
// It prints what each node receives: the Go type a template resolved to,
// and the type after coercion to what the node declares. Then it sends the
// task reviewer's trigger the other way, as a message built from a payload
// template over the execution state, and decodes it as the consumer does,
// with json.Unmarshal and with coerce.Unmarshal.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/coerce-go/coerce/examples/workflow/internal/workflow"
)

// The workflow definition, as a workflow file would hold it. Note
// path_params: an object here, but the Discord tool declares it str.
const definition = `[
  {"name": "planner", "node": "llm_planner",
   "params": {"goal": "${inputs.goal}", "max_tasks": "${inputs.max_tasks}"}},
  {"name": "task_generator", "node": "task_generator",
   "params": {"slug": "${steps.planner.output.slug}",
              "plan": "${steps.planner.output.plan_content}",
              "max_tasks": "${inputs.max_tasks}"}},
  {"name": "task_reviewer", "node": "task_reviewer",
   "params": {"slug": "${steps.planner.output.slug}",
              "tasks": "${steps.task_generator.output.tasks}",
              "scope_patterns": "${inputs.scope_patterns}"}},
  {"name": "notify", "node": "discord_execute_action",
   "params": {"server_name": "discord",
              "action_name": "create_message",
              "path_params": {"channel_id": "${inputs.channel_id}"},
              "body_schema": {"content": "Plan ${steps.planner.output.slug}: ${steps.task_reviewer.output.verdict} (${steps.task_reviewer.output.task_count} tasks)"}}}
]`

type Plan struct {
	Goal  string   `json:"goal"`
	Steps []string `json:"steps"`
}

type Task struct {
	ID        string   `json:"id"`
	Title     string   `json:"title"`
	DependsOn []string `json:"depends_on,omitempty"`
}

type Finding struct {
	TaskID   string `json:"task_id"`
	Severity string `json:"severity"`
	Note     string `json:"note"`
}

type GeneratorInput struct {
	Slug     string `json:"slug"`
	Plan     Plan   `json:"plan"`
	MaxTasks int    `json:"max_tasks"`
}

type GeneratorResult struct {
	Tasks []Task `json:"tasks"`
}

type TaskReviewTrigger struct {
	Slug          string   `json:"slug"`
	Tasks         []Task   `json:"tasks"`
	ScopePatterns []string `json:"scope_patterns"`
}

type TaskReviewResult struct {
	Verdict   string    `json:"verdict"`
	TaskCount int       `json:"task_count"`
	Findings  []Finding `json:"findings"`
}

func main() {
	log.SetFlags(0)
	e := &workflow.Engine{
		Nodes: nodes(),
		Store: &workflow.StringKV{Double: true},
		Trace: trace,
	}
	steps, err := workflow.ParseSteps([]byte(definition))
	if err != nil {
		log.Fatal(err)
	}
	inputs := map[string]any{
		"goal":      "Add rate limiting to the public API",
		"max_tasks": "3", // from a command line: text
		// As a client sent it: JSON text, where the reviewer wants []string.
		"scope_patterns": `["api/**", "middleware/**"]`,
		"channel_id":     "1458059302022549698",
	}
	if _, err := e.Run(context.Background(), inputs, steps); err != nil {
		log.Fatal(err)
	}

	// The same engine, with a parameter that cannot be an int.
	inputs["max_tasks"] = "abc"
	e.Trace = nil
	_, err = e.Run(context.Background(), inputs, steps)
	fmt.Printf("\nwith max_tasks=%q:\n  %v\n", inputs["max_tasks"], err)

	trigger()
}

// trigger builds the message that starts the task reviewer from the
// execution state, kept in a bucket that had already made text of the
// tasks, and decodes its payload as the consumer does.
func trigger() {
	kv := &workflow.ExecutionKV{Double: true}
	err := kv.Put(workflow.Execution{ID: "run-1", Steps: map[string]workflow.StepResult{
		"planner":        {Status: "done", Output: json.RawMessage(`{"slug": "rate-limiting"}`)},
		"task_generator": {Status: "done", Output: json.RawMessage(`{"tasks": [{"id": "t1", "title": "pick a limiter"}, {"id": "t2", "title": "add tests", "priority": 1}]}`)},
	}})
	if err != nil {
		log.Fatal(err)
	}
	e, err := kv.Get("run-1")
	if err != nil {
		log.Fatal(err)
	}
	msg, err := workflow.Interpolate(`{"id": "msg-1", "subject": "trigger.task-reviewer", "payload": {"slug": "${steps.planner.output.slug}", "tasks": "${steps.task_generator.output.tasks}"}}`, e)
	if err != nil {
		log.Fatal(err)
	}
	var env workflow.Envelope
	if err := json.Unmarshal(msg, &env); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("\nmessage to the task reviewer, payload:\n  %s\n", env.Payload)
	var p workflow.TaskReviewTrigger
	fmt.Printf("json.Unmarshal:\n  %v\n", json.Unmarshal(env.Payload, &p))
	_, p, err = workflow.DecodeTrigger(msg)
	fmt.Printf("coerce.Unmarshal:\n  %v %+v\n", err, p)
}

func nodes() map[string]*workflow.Node {
	planner := must(workflow.NewNode(map[string]string{"goal": "str", "max_tasks": "int"},
		func(_ context.Context, p map[string]any) (map[string]any, error) {
			// An LLM's reply: the plan is JSON text, not an object.
			plan := `{"goal": "` + p["goal"].(string) + `", "steps": ["pick a limiter", "wire middleware", "add tests"]}`
			return map[string]any{"slug": "rate-limiting", "plan_content": plan}, nil
		}))

	generator := must(workflow.NewTypedNode(func(_ context.Context, in GeneratorInput) (GeneratorResult, error) {
		fmt.Printf("  node got %T{Plan: %T with %d steps, MaxTasks: %d}\n", in, in.Plan, len(in.Plan.Steps), in.MaxTasks)
		var out GeneratorResult
		for i, s := range in.Plan.Steps[:min(in.MaxTasks, len(in.Plan.Steps))] {
			t := Task{ID: fmt.Sprintf("t%d", i+1), Title: s}
			if i > 0 {
				t.DependsOn = []string{fmt.Sprintf("t%d", i)}
			}
			out.Tasks = append(out.Tasks, t)
		}
		return out, nil
	}))

	reviewer := must(workflow.NewTypedNode(func(_ context.Context, in TaskReviewTrigger) (TaskReviewResult, error) {
		fmt.Printf("  node got %T{Tasks: %T len %d, ScopePatterns: %q}\n", in, in.Tasks, len(in.Tasks), in.ScopePatterns)
		return TaskReviewResult{
			Verdict:   "approved",
			TaskCount: len(in.Tasks),
			Findings:  []Finding{{TaskID: "t3", Severity: "minor", Note: "cover the 429 path"}},
		}, nil
	}))

	// Declared like the Discord MCP tool: path_params and body_schema are
	// JSON text. Like the tool, it reads them as text and fails otherwise.
	discord := must(workflow.NewNode(map[string]string{
		"server_name": "str", "action_name": "str", "path_params": "str", "body_schema": "str",
	}, func(_ context.Context, p map[string]any) (map[string]any, error) {
		for _, k := range []string{"path_params", "body_schema"} {
			if _, ok := p[k].(string); !ok {
				return nil, fmt.Errorf("%s: want str, got %T", k, p[k])
			}
		}
		return map[string]any{"status": "sent"}, nil
	}))

	return map[string]*workflow.Node{
		"llm_planner":            planner,
		"task_generator":         generator,
		"task_reviewer":          reviewer,
		"discord_execute_action": discord,
	}
}

func trace(step string, resolved, coerced map[string]any) {
	fmt.Printf("\n%s\n", step)
	for _, k := range slices.Sorted(maps.Keys(resolved)) {
		before, after := resolved[k], coerced[k]
		if fmt.Sprintf("%T %v", before, before) == fmt.Sprintf("%T %v", after, after) {
			fmt.Printf("  %-14s %-24T %s\n", k, after, show(after))
			continue
		}
		fmt.Printf("  %-14s %-24T %s\n", k, before, show(before))
		fmt.Printf("  %-14s %-24T %s\n", "  coerced to", after, show(after))
	}
}

// show prints a value compactly: strings quoted, the rest as JSON.
func show(v any) string {
	var s string
	if str, ok := v.(string); ok {
		s = fmt.Sprintf("%q", str)
	} else {
		b, _ := json.Marshal(v)
		s = string(b)
	}
	if len(s) > 70 {
		s = s[:67] + "..."
	}
	return strings.ReplaceAll(s, "\n", `\n`)
}

func must[T any](v T, err error) T {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	return v
}
