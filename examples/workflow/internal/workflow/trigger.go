package workflow

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/coerce-go/coerce"
)

// This file is the other way steps talk in a Go workflow engine: not
// through the node parameters of Engine.Run, but through messages. The
// engine keeps the state of a run (an Execution, whose step outputs are
// json.RawMessage) in a key-value bucket, builds the message that starts
// the next step from a payload template with ${steps.<name>.output.<key>}
// references, by text substitution, wraps the payload in an Envelope and
// publishes it. The consumer decodes the envelope, then its payload into
// the Go type the message's subject names.
//
// Substitution writes every value into a JSON string, so a list of tasks
// arrives as "[{\"id\":\"t1\",...}]", and as a string holding that string
// when the bucket had already turned the list into text. json.Unmarshal
// then fails inside the payload's own UnmarshalJSON:
//
//	json: cannot unmarshal string into Go struct field Alias.tasks of type []workflow.Task
//
// DecodeTrigger decodes with coerce.Unmarshal instead, which converts the
// text to the shape of the Go types first.

// A Task is one unit of work that a task generator plans.
type Task struct {
	ID        string   `json:"id"`
	Title     string   `json:"title"`
	Priority  int      `json:"priority,omitempty"`
	DependsOn []string `json:"depends_on,omitempty"`
}

// TaskReviewTrigger is the payload that starts a task review: the tasks a
// generator step planned for a change.
type TaskReviewTrigger struct {
	Slug  string `json:"slug"`
	Tasks []Task `json:"tasks"`
}

// MarshalJSON writes the payload with its message type beside its fields.
func (p TaskReviewTrigger) MarshalJSON() ([]byte, error) {
	type Alias TaskReviewTrigger // the fields, without these methods
	return json.Marshal(struct {
		Type string `json:"type"`
		Alias
	}{"task_review_trigger", Alias(p)})
}

// UnmarshalJSON reads the payload's fields and checks that it names the
// change it is about.
func (p *TaskReviewTrigger) UnmarshalJSON(data []byte) error {
	type Alias TaskReviewTrigger
	if err := json.Unmarshal(data, (*Alias)(p)); err != nil {
		return err
	}
	if p.Slug == "" {
		return errors.New("task review trigger: no slug")
	}
	return nil
}

// An Envelope carries a payload on the message bus. The payload stays raw
// JSON until the consumer knows, from the subject, which type to decode it
// into.
type Envelope struct {
	ID      string          `json:"id"`
	Subject string          `json:"subject"`
	Payload json.RawMessage `json:"payload"`
}

// A StepResult is what an execution keeps of a step that ran. Output is
// the step's output as the step wrote it.
type StepResult struct {
	Status string          `json:"status"`
	Output json.RawMessage `json:"output"`
}

// An Execution is the state of a workflow run between its steps.
type Execution struct {
	ID    string                `json:"id"`
	Steps map[string]StepResult `json:"steps"`
}

// ExecutionKV keeps executions as JSON, by ID, as a key-value bucket does.
// Its records keep each field of a step's output as a string: a field that
// is not one is stored as its JSON text, so a list of tasks comes back as
// "[{\"id\":\"t1\",...}]". With Double, the text of objects and arrays is
// encoded once more, as happens to raw JSON that goes through one more
// marshal on its way to the bucket.
type ExecutionKV struct {
	Double bool

	mu      sync.Mutex
	records map[string][]byte
}

// Put stores e.
func (kv *ExecutionKV) Put(e Execution) error {
	stored := Execution{ID: e.ID, Steps: make(map[string]StepResult, len(e.Steps))}
	for name, r := range e.Steps {
		out, err := kv.flatten(r.Output)
		if err != nil {
			return fmt.Errorf("store %s/%s: %w", e.ID, name, err)
		}
		stored.Steps[name] = StepResult{Status: r.Status, Output: out}
	}
	data, err := json.Marshal(stored)
	if err != nil {
		return err
	}
	kv.mu.Lock()
	defer kv.mu.Unlock()
	if kv.records == nil {
		kv.records = map[string][]byte{}
	}
	kv.records[e.ID] = data
	return nil
}

// flatten turns each field of the output object into a string.
func (kv *ExecutionKV) flatten(output json.RawMessage) (json.RawMessage, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(output, &fields); err != nil {
		return nil, err
	}
	flat := make(map[string]string, len(fields))
	for k, v := range fields {
		v = bytes.TrimSpace(v)
		var s string
		if json.Unmarshal(v, &s) == nil {
			flat[k] = s
			continue
		}
		text := string(v)
		if kv.Double && (v[0] == '{' || v[0] == '[') {
			quoted, _ := json.Marshal(text)
			text = string(quoted)
		}
		flat[k] = text
	}
	return json.Marshal(flat)
}

// Get returns the execution stored under id.
func (kv *ExecutionKV) Get(id string) (Execution, error) {
	kv.mu.Lock()
	data, ok := kv.records[id]
	kv.mu.Unlock()
	if !ok {
		return Execution{}, fmt.Errorf("store: no execution %q", id)
	}
	var e Execution
	err := json.Unmarshal(data, &e)
	return e, err
}

// Interpolate resolves the ${steps.<name>.output.<key>} references in a
// payload template, JSON text with the references inside its strings, and
// returns the message. Each reference is replaced by text: a string value
// by its characters, any other value by its JSON text, escaped to stay
// inside the JSON string around it. That is how a list becomes a string on
// its way to the next step.
func Interpolate(template string, e Execution) ([]byte, error) {
	var b strings.Builder
	for {
		i := strings.Index(template, "${")
		if i < 0 {
			break
		}
		n := strings.IndexByte(template[i:], '}')
		if n < 0 {
			break
		}
		ref := template[i+2 : i+n]
		v, err := e.value(ref)
		if err != nil {
			return nil, err
		}
		text, ok := v.(string)
		if !ok {
			raw, err := json.Marshal(v)
			if err != nil {
				return nil, fmt.Errorf("${%s}: %w", ref, err)
			}
			text = string(raw)
		}
		quoted, _ := json.Marshal(text)
		b.WriteString(template[:i])
		b.Write(quoted[1 : len(quoted)-1])
		template = template[i+n+1:]
	}
	b.WriteString(template)
	return []byte(b.String()), nil
}

// value finds the value of a reference steps.<name>.output.<key>.
func (e Execution) value(ref string) (any, error) {
	parts := strings.Split(ref, ".")
	if len(parts) != 4 || parts[0] != "steps" || parts[2] != "output" {
		return nil, fmt.Errorf("${%s}: want steps.<name>.output.<key>", ref)
	}
	r, ok := e.Steps[parts[1]]
	if !ok {
		return nil, fmt.Errorf("${%s}: no step %q in execution %s", ref, parts[1], e.ID)
	}
	// Numbers as json.Number: an ID beyond 2^53 keeps its digits.
	dec := json.NewDecoder(bytes.NewReader(r.Output))
	dec.UseNumber()
	var output map[string]any
	if err := dec.Decode(&output); err != nil {
		return nil, fmt.Errorf("${%s}: %w", ref, err)
	}
	v, ok := output[parts[3]]
	if !ok {
		return nil, fmt.Errorf("${%s}: no %q in the output of %s", ref, parts[3], parts[1])
	}
	return v, nil
}

// DecodeTrigger decodes a message that starts a task review, as the
// consumer does: the envelope, then its payload. coerce.Unmarshal converts
// what the substitution and the bucket made of the payload (a list as JSON
// text, once or twice over) to the shape of TaskReviewTrigger's fields,
// and then decodes it with encoding/json, which calls the payload's own
// UnmarshalJSON.
func DecodeTrigger(msg []byte) (Envelope, TaskReviewTrigger, error) {
	var env Envelope
	var p TaskReviewTrigger
	if err := coerce.Unmarshal(msg, &env); err != nil {
		return env, p, err
	}
	err := coerce.Unmarshal(env.Payload, &p)
	return env, p, err
}
