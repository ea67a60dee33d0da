package workflow

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/coerce-go/coerce"
	"github.com/google/go-cmp/cmp"
)

// Typed step inputs, beside Task and TaskReviewTrigger (trigger.go). They
// live in package workflow, so encoding/json names them in its errors as a
// workflow engine's consumer sees them: []workflow.TaskReviewFinding.
type (
	TaskReviewFinding struct {
		TaskID   string `json:"task_id"`
		Severity string `json:"severity"`
	}
	PlanReviewEvent struct {
		Verdict  string              `json:"verdict"`
		Findings []TaskReviewFinding `json:"findings"`
	}
	Plan struct {
		Goal  string   `json:"goal"`
		Steps []string `json:"steps"`
	}
	PlanReviewTrigger struct {
		Slug        string `json:"slug"`
		PlanContent Plan   `json:"plan_content"`
	}
)

const channelID = "1458059302022549698" // beyond float64's exact integers

// recorder returns a node with the declared types that keeps the parameters
// it receives in *got.
func recorder(t *testing.T, types map[string]string, got *map[string]any) *Node {
	t.Helper()
	n, err := NewNode(types, func(_ context.Context, p map[string]any) (map[string]any, error) {
		*got = p
		return map[string]any{}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// typedRecorder returns a node taking In that keeps what it receives in *got.
func typedRecorder[In any](t *testing.T, got *In) *Node {
	t.Helper()
	n, err := NewTypedNode(func(_ context.Context, in In) (struct{}, error) {
		*got = in
		return struct{}{}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// producer returns a node with no parameters that outputs out.
func producer(t *testing.T, out map[string]any) *Node {
	t.Helper()
	n, err := NewNode(nil, func(context.Context, map[string]any) (map[string]any, error) {
		return out, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// discordParams declares the parameters of a Discord MCP tool's
// execute_action: path_params and body_schema hold JSON text.
var discordParams = map[string]string{
	"server_name": "str", "category_name": "str", "action_name": "str",
	"path_params": "str", "body_schema": "str",
}

// discord returns a node declared like the Discord MCP tool. Like the tool,
// it fails when path_params or body_schema is not JSON text.
func discord(t *testing.T, got *map[string]any) *Node {
	t.Helper()
	n, err := NewNode(discordParams, func(_ context.Context, p map[string]any) (map[string]any, error) {
		for _, k := range []string{"path_params", "body_schema"} {
			s, ok := p[k].(string)
			if !ok {
				return nil, fmt.Errorf("%s: want str, got %T", k, p[k])
			}
			if !json.Valid([]byte(s)) {
				return nil, fmt.Errorf("%s: not JSON: %q", k, s)
			}
		}
		*got = p
		return map[string]any{"status": "sent"}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestStrParamFromWorkflowObjects checks a node declaring str that
// receives the object a template or the workflow file made: it gets JSON
// text.
func TestStrParamFromWorkflowObjects(t *testing.T) {
	tests := []struct {
		name   string
		types  map[string]string
		params map[string]any
		inputs map[string]any
		want   map[string]any
	}{{
		name:   "dict from a whole template to str",
		types:  discordParams,
		params: map[string]any{"path_params": "${inputs.path_params}", "body_schema": "${inputs.body}"},
		inputs: map[string]any{
			"path_params": map[string]any{"channel_id": channelID},
			"body":        map[string]any{"content": "test from workflow"},
		},
		want: map[string]any{
			"path_params": `{"channel_id":"1458059302022549698"}`,
			"body_schema": `{"content":"test from workflow"}`,
		},
	}, {
		name:   "inline object holding a template to str",
		types:  discordParams,
		params: map[string]any{"path_params": map[string]any{"channel_id": "${inputs.channel_id}"}, "body_schema": map[string]any{"content": "${inputs.message}"}},
		inputs: map[string]any{"channel_id": channelID, "message": "test from workflow"},
		want: map[string]any{
			"path_params": `{"channel_id":"1458059302022549698"}`,
			"body_schema": `{"content":"test from workflow"}`,
		},
	}, {
		name:   "list to str",
		types:  map[string]string{"items": "str"},
		params: map[string]any{"items": "${inputs.data}"},
		inputs: map[string]any{"data": []any{1.0, 2.0, 3.0}},
		want:   map[string]any{"items": "[1,2,3]"},
	}, {
		name:   "JSON text declared str stays as written",
		types:  map[string]string{"path_params": "str"},
		params: map[string]any{"path_params": "${inputs.p}"},
		inputs: map[string]any{"p": `{"channel_id": "1458059302022549698"}`},
		want:   map[string]any{"path_params": `{"channel_id": "1458059302022549698"}`},
	}, {
		name:   "dict declared dict stays a dict",
		types:  map[string]string{"config": "dict"},
		params: map[string]any{"config": "${inputs.config}"},
		inputs: map[string]any{"config": map[string]any{"key": "value"}},
		want:   map[string]any{"config": map[string]any{"key": "value"}},
	}, {
		name:   "dict|str keeps a dict and keeps text",
		types:  map[string]string{"a": "dict|str", "b": "dict|str"},
		params: map[string]any{"a": "${inputs.a}", "b": "${inputs.b}"},
		inputs: map[string]any{"a": map[string]any{"k": "v"}, "b": `{"k":"v"}`},
		want:   map[string]any{"a": map[string]any{"k": "v"}, "b": `{"k":"v"}`},
	}, {
		name:   "stringified list[dict] and int",
		types:  map[string]string{"rows": "list[dict]", "limit": "int"},
		params: map[string]any{"rows": "${inputs.rows}", "limit": "${inputs.limit}"},
		inputs: map[string]any{"rows": `[{"a": 1}, {"a": 2}]`, "limit": "10"},
		want:   map[string]any{"rows": []any{map[string]any{"a": 1.0}, map[string]any{"a": 2.0}}, "limit": 10.0},
	}, {
		name:   "undeclared params pass through",
		types:  map[string]string{"known": "str"},
		params: map[string]any{"unknown": "${inputs.v}"},
		inputs: map[string]any{"v": map[string]any{"some": "value"}},
		want:   map[string]any{"unknown": map[string]any{"some": "value"}},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got map[string]any
			e := &Engine{Nodes: map[string]*Node{"n": recorder(t, tt.types, &got)}}
			if _, err := e.Run(context.Background(), tt.inputs, []Step{{Name: "s", Node: "n", Params: tt.params}}); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("node received (-want +got):\n%s", diff)
			}
		})
	}
}

// TestWorkflowFileBigChannelID runs the Discord action from a workflow
// file in which the channel ID is a number: it reaches path_params exact.
func TestWorkflowFileBigChannelID(t *testing.T) {
	steps, err := ParseSteps([]byte(`[{"name": "send", "node": "mcp-discord-execute_action", "params": {
		"server_name": "discord", "category_name": "DISCORD_CHANNELS_MESSAGES", "action_name": "create_message",
		"path_params": {"channel_id": 1458059302022549698},
		"body_schema": {"content": "${inputs.message}"}}}]`))
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	e := &Engine{Nodes: map[string]*Node{"mcp-discord-execute_action": discord(t, &got)}}
	if _, err := e.Run(context.Background(), map[string]any{"message": "test from workflow"}, steps); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"server_name":   "discord",
		"category_name": "DISCORD_CHANNELS_MESSAGES",
		"action_name":   "create_message",
		"path_params":   `{"channel_id":1458059302022549698}`,
		"body_schema":   `{"content":"test from workflow"}`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("node received (-want +got):\n%s", diff)
	}
}

// TestCLIParamsInferredAsObjects runs a node from the command line, whose
// parser infers an object from JSON text before it knows that the node
// declares str.
func TestCLIParamsInferredAsObjects(t *testing.T) {
	args := []string{
		"server_name=discord",
		"category_name=DISCORD_CHANNELS_MESSAGES",
		"action_name=create_message",
		`path_params={"channel_id":"1458059302022549698"}`,
		`body_schema={"content":"test message"}`,
		`extra={"some":"value"}`,
	}
	params, err := ParseCLIParams(args)
	if err != nil {
		t.Fatal(err)
	}
	// The precondition: the value was inferred as an object.
	if _, ok := params["path_params"].(map[string]any); !ok {
		t.Fatalf("path_params inferred as %T, want map[string]any", params["path_params"])
	}

	var got map[string]any
	e := &Engine{Nodes: map[string]*Node{"mcp-discord-execute_action": discord(t, &got)}}
	if _, err := e.RunNode(context.Background(), "mcp-discord-execute_action", params); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"server_name":   "discord",
		"category_name": "DISCORD_CHANNELS_MESSAGES",
		"action_name":   "create_message",
		"path_params":   `{"channel_id":"1458059302022549698"}`,
		"body_schema":   `{"content":"test message"}`,
		"extra":         map[string]any{"some": "value"}, // not declared: untouched
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("node received (-want +got):\n%s", diff)
	}
}

func TestParseCLIParams(t *testing.T) {
	got, err := ParseCLIParams([]string{
		`obj={"a": 1}`, `list=[1, 2]`, `word=hello`, `num=123`, `flag=true`, `null=null`,
		`quoted="x"`, `eq=a=b`, `empty=`, `prose=see {"a": 1}`,
	})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"obj": map[string]any{"a": 1.0}, "list": []any{1.0, 2.0},
		"word": "hello", "num": "123", "flag": "true", "null": "null",
		"quoted": `"x"`, "eq": "a=b", "empty": "", "prose": `see {"a": 1}`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	for _, bad := range []string{"novalue", "=x"} {
		if _, err := ParseCLIParams([]string{bad}); err == nil {
			t.Errorf("ParseCLIParams(%q): no error", bad)
		}
	}
}

// stringifiedOutput is a producer step's output that reaches a consumer
// decoding into a typed Go struct as a string: a list or an object
// stringified by a template, or double-encoded by a store.
type stringifiedOutput struct {
	name    string
	output  map[string]any // what the producer returns
	params  map[string]any // the consumer step's payload template
	store   Store          // between the steps
	consume func(t *testing.T) (node *Node, check func(t *testing.T))
	// The error the consumer fails with without coercion.
	origErr string
}

var sampleTasks = []Task{{ID: "t1", Title: "pick a limiter", Priority: 2}, {ID: "t2", Title: "wire middleware"}}

func stringifiedOutputs() []stringifiedOutput {
	tasksOut := func() map[string]any {
		return map[string]any{"tasks": []any{
			map[string]any{"id": "t1", "title": "pick a limiter", "priority": 2.0},
			map[string]any{"id": "t2", "title": "wire middleware"},
		}}
	}
	consumeTasks := func(t *testing.T) (*Node, func(*testing.T)) {
		var got TaskReviewTrigger
		return typedRecorder(t, &got), func(t *testing.T) {
			want := TaskReviewTrigger{Slug: "rate-limiting", Tasks: sampleTasks}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("task reviewer received (-want +got):\n%s", diff)
			}
		}
	}
	consumeFindings := func(t *testing.T) (*Node, func(*testing.T)) {
		var got PlanReviewEvent
		return typedRecorder(t, &got), func(t *testing.T) {
			want := PlanReviewEvent{Verdict: "needs_changes", Findings: []TaskReviewFinding{{TaskID: "t2", Severity: "major"}}}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("workflow-api received (-want +got):\n%s", diff)
			}
		}
	}
	consumePlan := func(t *testing.T) (*Node, func(*testing.T)) {
		var got PlanReviewTrigger
		return typedRecorder(t, &got), func(t *testing.T) {
			want := PlanReviewTrigger{Slug: "rate-limiting", PlanContent: Plan{Goal: "rate limits", Steps: []string{"limiter", "tests"}}}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("plan reviewer received (-want +got):\n%s", diff)
			}
		}
	}
	const planText = `{"goal": "rate limits", "steps": ["limiter", "tests"]}`
	planDouble, _ := json.Marshal(planText)
	const findingsText = `[{"task_id": "t2", "severity": "major"}]`
	tasksParams := map[string]any{"slug": "rate-limiting", "tasks": "${steps.producer.output.tasks}"}
	return []stringifiedOutput{{
		name:    "tasks through KV",
		output:  tasksOut(),
		params:  tasksParams,
		store:   &StringKV{},
		consume: consumeTasks,
		origErr: "json: cannot unmarshal string into Go struct field Alias.tasks of type []workflow.Task",
	}, {
		name:    "tasks through KV, double-encoded",
		output:  tasksOut(),
		params:  tasksParams,
		store:   &StringKV{Double: true},
		consume: consumeTasks,
		origErr: "json: cannot unmarshal string into Go struct field Alias.tasks of type []workflow.Task",
	}, {
		name:    "findings stringified",
		output:  map[string]any{"verdict": "needs_changes", "findings": findingsText},
		params:  map[string]any{"verdict": "${steps.producer.output.verdict}", "findings": "${steps.producer.output.findings}"},
		consume: consumeFindings,
		origErr: "json: cannot unmarshal string into Go struct field PlanReviewEvent.findings of type []workflow.TaskReviewFinding",
	}, {
		name:    "findings through KV, double-encoded",
		output:  map[string]any{"verdict": "needs_changes", "findings": []any{map[string]any{"task_id": "t2", "severity": "major"}}},
		params:  map[string]any{"verdict": "${steps.producer.output.verdict}", "findings": "${steps.producer.output.findings}"},
		store:   &StringKV{Double: true},
		consume: consumeFindings,
		origErr: "json: cannot unmarshal string into Go struct field PlanReviewEvent.findings of type []workflow.TaskReviewFinding",
	}, {
		name:    "plan_content stringified",
		output:  map[string]any{"slug": "rate-limiting", "content": planText},
		params:  map[string]any{"slug": "${steps.producer.output.slug}", "plan_content": "${steps.producer.output.content}"},
		consume: consumePlan,
		origErr: "json: cannot unmarshal string into Go struct field PlanReviewTrigger.plan_content of type workflow.Plan",
	}, {
		name:    "plan_content double-encoded",
		output:  map[string]any{"slug": "rate-limiting", "content": string(planDouble)},
		params:  map[string]any{"slug": "${steps.producer.output.slug}", "plan_content": "${steps.producer.output.content}"},
		store:   &StringKV{Double: true},
		consume: consumePlan,
		origErr: "json: cannot unmarshal string into Go struct field PlanReviewTrigger.plan_content of type workflow.Plan",
	}}
}

func (inc stringifiedOutput) run(t *testing.T, withoutCoercion bool) (check func(*testing.T), err error) {
	node, check := inc.consume(t)
	e := &Engine{
		Nodes:           map[string]*Node{"producer": producer(t, inc.output), "consumer": node},
		Store:           inc.store,
		withoutCoercion: withoutCoercion,
	}
	_, err = e.Run(context.Background(), nil, []Step{
		{Name: "producer", Node: "producer"},
		{Name: "consumer", Node: "consumer", Params: inc.params},
	})
	return check, err
}

// TestStringifiedStepOutputs checks that with coercion at the node each
// typed consumer gets its input in the declared shape.
func TestStringifiedStepOutputs(t *testing.T) {
	for _, inc := range stringifiedOutputs() {
		t.Run(inc.name, func(t *testing.T) {
			check, err := inc.run(t, false)
			if err != nil {
				t.Fatal(err)
			}
			check(t)
		})
	}
}

// TestWithoutCoercion shows that each case needs coercion: the same
// workflow, with the coercion step skipped, fails in the consumer.
func TestWithoutCoercion(t *testing.T) {
	for _, inc := range stringifiedOutputs() {
		t.Run(inc.name, func(t *testing.T) {
			_, err := inc.run(t, true)
			if err == nil || !strings.Contains(err.Error(), inc.origErr) {
				t.Errorf("without coercion: got error %v, want it to contain %q", err, inc.origErr)
			}
		})
	}

	t.Run("path_params object", func(t *testing.T) {
		var got map[string]any
		e := &Engine{Nodes: map[string]*Node{"discord": discord(t, &got)}, withoutCoercion: true}
		_, err := e.Run(context.Background(), map[string]any{"channel_id": channelID}, []Step{{
			Name: "send", Node: "discord",
			Params: map[string]any{"path_params": map[string]any{"channel_id": "${inputs.channel_id}"}, "body_schema": `{}`},
		}})
		const want = "path_params: want str, got map[string]interface {}"
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("without coercion: got error %v, want it to contain %q", err, want)
		}
	})

	t.Run("CLI params", func(t *testing.T) {
		params, err := ParseCLIParams([]string{`path_params={"channel_id":"1458059302022549698"}`, `body_schema={"content":"test message"}`})
		if err != nil {
			t.Fatal(err)
		}
		var got map[string]any
		e := &Engine{Nodes: map[string]*Node{"discord": discord(t, &got)}, withoutCoercion: true}
		_, err = e.RunNode(context.Background(), "discord", params)
		const want = "want str, got map[string]interface {}"
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("without coercion: got error %v, want it to contain %q", err, want)
		}
	})
}

// TestCoercionFailure checks that a parameter that cannot be converted
// stops the run with an error naming the step and the parameter's path.
func TestCoercionFailure(t *testing.T) {
	var planned, reviewed bool
	planner, err := NewNode(map[string]string{"goal": "str", "max_tasks": "int"}, func(context.Context, map[string]any) (map[string]any, error) {
		planned = true
		return map[string]any{"tasks": `[{"id": "t1", "title": "x", "priority": "high"}]`}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	reviewer, err := NewTypedNode(func(context.Context, TaskReviewTrigger) (struct{}, error) {
		reviewed = true
		return struct{}{}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	steps := []Step{
		{Name: "planner", Node: "planner", Params: map[string]any{"goal": "${inputs.goal}", "max_tasks": "${inputs.max_tasks}"}},
		{Name: "task_reviewer", Node: "reviewer", Params: map[string]any{"tasks": "${steps.planner.output.tasks}"}},
	}
	e := &Engine{Nodes: map[string]*Node{"planner": planner, "reviewer": reviewer}}

	tests := []struct {
		name     string
		maxTasks any
		step     string
		path     string
		msg      string
		ran      bool // whether the planner ran
	}{{
		name:     "int fed abc",
		maxTasks: "abc",
		step:     "planner",
		path:     "/max_tasks",
		msg:      `workflow: step "planner": coerce: /max_tasks: want integer, found string "abc": invalid syntax: not a number`,
	}, {
		name:     "deep in a typed struct",
		maxTasks: "3",
		step:     "task_reviewer",
		path:     "/tasks/0/priority",
		msg:      `workflow: step "task_reviewer": coerce: /tasks/0/priority: want integer, found string "high": invalid syntax: not a number`,
		ran:      true,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			planned, reviewed = false, false
			_, err := e.Run(context.Background(), map[string]any{"goal": "g", "max_tasks": tt.maxTasks}, steps)
			if err == nil {
				t.Fatal("Run: no error")
			}
			if err.Error() != tt.msg {
				t.Errorf("error:\n got %s\nwant %s", err, tt.msg)
			}
			var se *StepError
			if !errors.As(err, &se) || se.Step != tt.step {
				t.Errorf("errors.As StepError: got %#v, want step %q", se, tt.step)
			}
			var ce *coerce.Error
			if !errors.As(err, &ce) || ce.Path != tt.path {
				t.Errorf("errors.As coerce.Error: got %#v, want path %q", ce, tt.path)
			}
			if !errors.Is(err, coerce.ErrSyntax) {
				t.Errorf("errors.Is(err, coerce.ErrSyntax) = false")
			}
			if planned != tt.ran || reviewed {
				t.Errorf("planner ran %v, reviewer ran %v; want %v, false", planned, reviewed, tt.ran)
			}
		})
	}
}

// TestRunLeavesStepsAlone runs a workflow twice: resolving templates must
// not write into the steps' parameters.
func TestRunLeavesStepsAlone(t *testing.T) {
	var got map[string]any
	e := &Engine{Nodes: map[string]*Node{"n": recorder(t, map[string]string{"p": "str"}, &got)}}
	steps := []Step{{Name: "s", Node: "n", Params: map[string]any{"p": map[string]any{"id": "${inputs.id}"}}}}
	for _, id := range []string{"a", "b"} {
		if _, err := e.Run(context.Background(), map[string]any{"id": id}, steps); err != nil {
			t.Fatal(err)
		}
		if want := `{"id":"` + id + `"}`; got["p"] != want {
			t.Errorf("p = %v, want %s", got["p"], want)
		}
	}
	if diff := cmp.Diff(map[string]any{"p": map[string]any{"id": "${inputs.id}"}}, steps[0].Params); diff != "" {
		t.Errorf("step params changed (-want +got):\n%s", diff)
	}
}

func TestRunErrors(t *testing.T) {
	var got map[string]any
	e := &Engine{Nodes: map[string]*Node{"n": recorder(t, nil, &got)}}
	tests := []struct {
		name  string
		steps []Step
		want  string
	}{
		{"unknown node", []Step{{Name: "s", Node: "nope"}}, `workflow: step "s": no node "nope"`},
		{"unknown reference", []Step{{Name: "s", Node: "n", Params: map[string]any{"p": "${inputs.nope}"}}},
			`workflow: step "s": param "p": ${inputs.nope}: no "nope" in inputs`},
		{"reference to a later step", []Step{{Name: "s", Node: "n", Params: map[string]any{"p": "${steps.t.output}"}}},
			`workflow: step "s": param "p": ${steps.t.output}: no "t" in steps`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := e.Run(context.Background(), map[string]any{}, tt.steps)
			if err == nil || err.Error() != tt.want {
				t.Errorf("got error %v, want %s", err, tt.want)
			}
		})
	}
}

func TestNewNodeBadType(t *testing.T) {
	_, err := NewNode(map[string]string{"a": "list[", "b": "str"}, nil)
	var ce *coerce.Error
	if !errors.As(err, &ce) || ce.Path != "/a" || !errors.Is(err, coerce.ErrSyntax) {
		t.Errorf("NewNode: got %v, want a syntax error at /a", err)
	}
}
