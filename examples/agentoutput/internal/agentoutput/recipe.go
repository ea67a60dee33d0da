package agentoutput

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/coerce-go/coerce"
)

// A Step of a recipe asks an agent to do something, in the shape of the
// steps of agent recipe runners.
type Step struct {
	ID     string
	Agent  string
	Prompt string // may hold {{var.path}} references; {{item}} in a foreach

	// Foreach, if set, is a reference such as "{{selection.selected_files}}"
	// to a list: the step runs once per item, and its output is the list of
	// the replies.
	Foreach string

	// Output names the variable that keeps the reply, parsed (see Parse).
	Output string

	// Schema, if set, declares what the reply holds: the one JSON value in
	// it that conforms is stored, repaired and coerced, wherever it stands
	// in the reply (see ParseWith); a reply that holds none, or two, fails the
	// step.
	Schema *coerce.Schema
}

// A Reply is what spawning an agent returns.
type Reply struct {
	Output    string // the agent's text
	SessionID string
}

// An Executor runs recipes, spawning agents with Spawn.
type Executor struct {
	Spawn func(ctx context.Context, agent, instruction string) (Reply, error)
}

// Run runs the steps in order and returns the variables: vars (not
// modified) and the steps' outputs.
//
// An agent's reply is stored parsed: a reply that is JSON object or array
// text becomes that object or array, so that later steps reach into it with
// dot paths ({{selection.selected_files}}) and iterate over it (foreach);
// any other reply is stored as its text. A step that declares a Schema
// stores the value its reply holds for it, or fails (see ParseWith).
func (e *Executor) Run(ctx context.Context, steps []Step, vars map[string]any) (map[string]any, error) {
	scope := make(map[string]any, len(vars)+len(steps))
	for k, v := range vars {
		scope[k] = v
	}
	for _, st := range steps {
		out, err := e.runStep(ctx, st, scope)
		if err != nil {
			return nil, fmt.Errorf("step %q: %w", st.ID, err)
		}
		if st.Output != "" {
			scope[st.Output] = out
		}
	}
	return scope, nil
}

func (e *Executor) runStep(ctx context.Context, st Step, scope map[string]any) (any, error) {
	if st.Foreach == "" {
		return e.spawn(ctx, st, scope)
	}
	items, err := foreachItems(scope, st.Foreach)
	if err != nil {
		return nil, err
	}
	// "item" is visible to this step only.
	itemScope := make(map[string]any, len(scope)+1)
	for k, v := range scope {
		itemScope[k] = v
	}
	outs := make([]any, len(items))
	for i, item := range items {
		itemScope["item"] = item
		if outs[i], err = e.spawn(ctx, st, itemScope); err != nil {
			return nil, fmt.Errorf("item %d: %w", i, err)
		}
	}
	return outs, nil
}

func (e *Executor) spawn(ctx context.Context, st Step, scope map[string]any) (any, error) {
	instruction, err := Substitute(st.Prompt, scope)
	if err != nil {
		return nil, err
	}
	r, err := e.Spawn(ctx, st.Agent, instruction)
	if err != nil {
		return nil, err
	}
	if st.Schema != nil {
		return ParseWith(st.Schema, r.Output)
	}
	return Parse(r.Output), nil
}

// foreachItems resolves a foreach reference to the list it names. A
// foreach declares a list, so the core converts to one: an array stays as
// it is, JSON text of an array is parsed, and anything else is an error
// that says what was found.
func foreachItems(scope map[string]any, ref string) ([]any, error) {
	path, open := strings.CutPrefix(strings.TrimSpace(ref), "{{")
	path, closed := strings.CutSuffix(path, "}}")
	if !open || !closed {
		return nil, fmt.Errorf("foreach %q is not a {{reference}}", ref)
	}
	v, err := Lookup(scope, strings.TrimSpace(path))
	if err != nil {
		return nil, err
	}
	list, err := coerce.ToDeclared(v, "list")
	if err != nil {
		return nil, fmt.Errorf("foreach variable %s must be a list: %w", ref, err)
	}
	items, ok := list.([]any)
	if !ok {
		return nil, fmt.Errorf("foreach variable %s is a %T, want []any", ref, list)
	}
	return items, nil
}

// Lookup returns the value at a dotted path such as
// "selection.selected_files.0". A string met on the way that holds JSON
// object or array text is read as what it holds.
func Lookup(scope map[string]any, path string) (any, error) {
	var cur any = scope
	keys := strings.Split(path, ".")
	for i, key := range keys {
		c, err := coerce.ToDeclared(cur, "dict | list")
		if err != nil {
			return nil, fmt.Errorf("{{%s}}: %s is not an object or array: %w", path, strings.Join(keys[:i], "."), err)
		}
		switch c := c.(type) {
		case map[string]any:
			v, ok := c[key]
			if !ok {
				return nil, fmt.Errorf("{{%s}}: no %q in %s", path, key, where(keys[:i]))
			}
			cur = v
		case []any:
			n, err := strconv.Atoi(key)
			if err != nil || n < 0 || n >= len(c) {
				return nil, fmt.Errorf("{{%s}}: no index %q in %s (length %d)", path, key, where(keys[:i]), len(c))
			}
			cur = c[n]
		default:
			return nil, fmt.Errorf("{{%s}}: cannot look into %T", path, c)
		}
	}
	return cur, nil
}

func where(keys []string) string {
	if len(keys) == 0 {
		return "the variables"
	}
	return strings.Join(keys, ".")
}

var reference = regexp.MustCompile(`\{\{\s*([\w.]+)\s*\}\}`)

// Substitute replaces each {{var.path}} in text with the value there:
// strings as they are, numbers and booleans as their JSON text, objects and
// arrays as compact JSON.
func Substitute(text string, scope map[string]any) (string, error) {
	var firstErr error
	out := reference.ReplaceAllStringFunc(text, func(m string) string {
		s, err := valueText(scope, reference.FindStringSubmatch(m)[1])
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			return m
		}
		return s
	})
	return out, firstErr
}

func valueText(scope map[string]any, path string) (string, error) {
	v, err := Lookup(scope, path)
	if err != nil || v == nil {
		return "null", err
	}
	s, err := coerce.ToDeclared(v, "str")
	if err != nil {
		return "", err
	}
	return s.(string), nil
}
