package workflow

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/coerce-go/coerce"
	"github.com/google/go-cmp/cmp"
)

// The template of the message that starts the task reviewer, as a workflow
// definition writes it: references inside JSON strings.
const reviewTemplate = `{"id": "msg-1", "subject": "workflow.trigger.task-reviewer", "payload": {
	"slug": "${steps.planner.output.slug}",
	"tasks": "${steps.task_generator.output.tasks}"}}`

var plannedTasks = []Task{
	{ID: "t1", Title: "pick a limiter", Priority: 2},
	{ID: "t2", Title: "wire middleware", DependsOn: []string{"t1"}},
}

// runUntilReview stores the planner's and the task generator's results in
// kv, loads the execution back as the engine does before the next step,
// and builds the message that starts the review.
func runUntilReview(t *testing.T, kv *ExecutionKV) []byte {
	t.Helper()
	generated, err := json.Marshal(map[string]any{"tasks": plannedTasks, "count": len(plannedTasks)})
	if err != nil {
		t.Fatal(err)
	}
	err = kv.Put(Execution{ID: "run-1", Steps: map[string]StepResult{
		"planner":        {Status: "done", Output: json.RawMessage(`{"slug": "rate-limits"}`)},
		"task_generator": {Status: "done", Output: generated},
	}})
	if err != nil {
		t.Fatal(err)
	}
	e, err := kv.Get("run-1")
	if err != nil {
		t.Fatal(err)
	}
	msg, err := Interpolate(reviewTemplate, e)
	if err != nil {
		t.Fatal(err)
	}
	return msg
}

// stringified counts how many times the payload's tasks were encoded as a
// JSON string over the array.
func stringified(t *testing.T, msg []byte) int {
	t.Helper()
	var m struct {
		Payload struct {
			Tasks json.RawMessage `json:"tasks"`
		} `json:"payload"`
	}
	if err := json.Unmarshal(msg, &m); err != nil {
		t.Fatal(err)
	}
	n, text := 0, m.Payload.Tasks
	for len(text) > 0 && text[0] == '"' {
		var s string
		if err := json.Unmarshal(text, &s); err != nil {
			t.Fatal(err)
		}
		n, text = n+1, []byte(s)
	}
	return n
}

// TestTaskReviewTrigger replays a Go workflow engine's failure with the
// real shape of its types: step results with json.RawMessage outputs kept
// in a key-value bucket, a payload template resolved by text substitution,
// an envelope around a payload with Alias-based MarshalJSON and
// UnmarshalJSON. The tasks arrive stringified, once or, when the bucket
// had already made text of them, twice; json.Unmarshal fails in the
// payload's UnmarshalJSON, coerce.Unmarshal decodes them.
func TestTaskReviewTrigger(t *testing.T) {
	const jsonErr = "json: cannot unmarshal string into Go struct field Alias.tasks of type []workflow.Task"
	want := TaskReviewTrigger{Slug: "rate-limits", Tasks: plannedTasks}
	for _, tt := range []struct {
		name  string
		kv    *ExecutionKV
		times int
	}{
		{"tasks stringified once", &ExecutionKV{}, 1},
		{"tasks stringified twice", &ExecutionKV{Double: true}, 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			msg := runUntilReview(t, tt.kv)
			if n := stringified(t, msg); n != tt.times {
				t.Fatalf("the message holds the tasks stringified %d times, want %d: %s", n, tt.times, msg)
			}

			var env Envelope
			if err := json.Unmarshal(msg, &env); err != nil {
				t.Fatal(err)
			}
			var plain TaskReviewTrigger
			if err := json.Unmarshal(env.Payload, &plain); err == nil || err.Error() != jsonErr {
				t.Errorf("json.Unmarshal of the payload: error %v\nwant %s", err, jsonErr)
			}

			env, got, err := DecodeTrigger(msg)
			if err != nil {
				t.Fatalf("DecodeTrigger(%s): %v", msg, err)
			}
			if env.ID != "msg-1" || env.Subject != "workflow.trigger.task-reviewer" {
				t.Errorf("DecodeTrigger: envelope %+v", env)
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("DecodeTrigger (-want +got):\n%s", d)
			}
		})
	}
}

// A message that the producer wrote with the payload's own MarshalJSON
// decodes as it is: the conversion leaves text that fits alone.
func TestTaskReviewTriggerConforming(t *testing.T) {
	payload, err := json.Marshal(TaskReviewTrigger{Slug: "x", Tasks: plannedTasks})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(payload), `"type":"task_review_trigger"`) {
		t.Fatalf("MarshalJSON wrote %s, without the message type", payload)
	}
	msg, err := json.Marshal(Envelope{ID: "msg-2", Subject: "s", Payload: payload})
	if err != nil {
		t.Fatal(err)
	}
	var plain TaskReviewTrigger
	if err := json.Unmarshal(payload, &plain); err != nil {
		t.Fatal(err)
	}
	_, got, err := DecodeTrigger(msg)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(plain, got); d != "" {
		t.Errorf("DecodeTrigger differs from json.Unmarshal (-json +coerce):\n%s", d)
	}
}

// What cannot be converted says where; what the payload itself refuses is
// its own error.
func TestTaskReviewTriggerErrors(t *testing.T) {
	_, _, err := DecodeTrigger([]byte(`{"payload": {"slug": "x", "tasks": "[{\"id\": \"t1\", \"priority\": \"high\"}]"}}`))
	var ce *coerce.Error
	if !errors.As(err, &ce) || ce.Path != "/tasks/0/priority" || !errors.Is(err, coerce.ErrSyntax) {
		t.Errorf("DecodeTrigger with priority \"high\": %v, want a coerce.Error at /tasks/0/priority", err)
	}
	_, _, err = DecodeTrigger([]byte(`{"payload": {"tasks": "[]"}}`))
	if err == nil || err.Error() != "task review trigger: no slug" {
		t.Errorf("DecodeTrigger without a slug: %v", err)
	}
}

func TestInterpolate(t *testing.T) {
	e := Execution{ID: "r", Steps: map[string]StepResult{"s": {Output: json.RawMessage(
		`{"text": "a \"quoted\" word", "n": 1458059302022549698, "obj": {"k": [true, null]}}`)}}}
	got, err := Interpolate(`{"a": "${steps.s.output.text}", "b": "id-${steps.s.output.n}", "c": "${steps.s.output.obj}"}`, e)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"a": "a \"quoted\" word", "b": "id-1458059302022549698", "c": "{\"k\":[true,null]}"}`
	if string(got) != want {
		t.Errorf("Interpolate:\n got %s\nwant %s", got, want)
	}
	for _, ref := range []string{"${inputs.x}", "${steps.nope.output.x}", "${steps.s.output.nope}"} {
		if _, err := Interpolate(`"`+ref+`"`, e); err == nil {
			t.Errorf("Interpolate(%s): no error", ref)
		}
	}
}
