// Package workflow is a small workflow engine that coerces each node's
// parameters to the types the node declares before running it.
//
// Steps pass data to each other through ${path} templates. Somewhere on the
// way a value often changes shape: an LLM node returns a plan as JSON text,
// a key-value store hands back a string where a list went in, a workflow
// file writes an object where a tool wants JSON text. The engine does not
// try to keep every value in shape along the way; it converts at the one
// place where the wanted shape is known, the node's declared parameters:
//
//	params, err := node.schema.Coerce(resolved)
//
// A node declares its parameters either by type name, as the node
// interfaces of Python workflow engines do ({"path_params": "str",
// "tasks": "list[dict]"}), or with a Go struct it decodes its input into
// (NewTypedNode). Messages between steps, decoded into Go structs with
// coerce.Unmarshal, are in trigger.go.
package workflow

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/coerce-go/coerce"
)

// A Node is a unit of work with declared parameters. Build one with NewNode
// or NewTypedNode.
type Node struct {
	schema *coerce.Schema
	run    func(ctx context.Context, params map[string]any) (map[string]any, error)
}

// NewNode returns a node whose parameters are declared by type name, in
// coerce.ParseType's syntax: "str", "int", "dict", "list[dict]", "dict|str".
// run receives the parameters converted to those types. Parameters that are
// not declared reach run as they are.
func NewNode(params map[string]string, run func(ctx context.Context, params map[string]any) (map[string]any, error)) (*Node, error) {
	s, err := coerce.SchemaFromTypes(params)
	if err != nil {
		return nil, err
	}
	return &Node{schema: s, run: run}, nil
}

// NewTypedNode returns a node whose input is the Go struct In: its fields
// (by their json names) are the parameters, and their Go types are the
// declared types. The parameters are coerced to those types, then decoded
// into an In with encoding/json. The Out that run returns becomes the step's
// output; it must encode as a JSON object.
func NewTypedNode[In, Out any](run func(ctx context.Context, in In) (Out, error)) (*Node, error) {
	s, err := coerce.SchemaFor[In]()
	if err != nil {
		return nil, err
	}
	return &Node{schema: s, run: func(ctx context.Context, params map[string]any) (map[string]any, error) {
		// Through JSON, as a message bus would carry it: this is where a
		// string that should have been a list used to fail.
		text, err := json.Marshal(params)
		if err != nil {
			return nil, err
		}
		var in In
		if err := json.Unmarshal(text, &in); err != nil {
			return nil, err
		}
		out, err := run(ctx, in)
		if err != nil {
			return nil, err
		}
		// Outputs are JSON-shaped maps, so that templates can walk them.
		// The core parses the text (a struct already counts as an object
		// to it) and keeps integers beyond float64 exact.
		text, err = json.Marshal(out)
		if err != nil {
			return nil, err
		}
		m, err := coerce.ToDeclared(string(text), "dict")
		if err != nil {
			return nil, fmt.Errorf("output %T is not an object: %w", out, err)
		}
		return m.(map[string]any), nil
	}}, nil
}

// A Step runs a node with parameters. Parameter values may hold ${path}
// templates, anywhere inside them (see Engine.Run).
type Step struct {
	Name   string         `json:"name"`
	Node   string         `json:"node"`
	Params map[string]any `json:"params"`
}

// ParseSteps reads a workflow definition: a JSON array of steps. Numbers
// are read as json.Number so that an ID like 1458059302022549698 stays
// exact instead of rounding through float64.
func ParseSteps(data []byte) ([]Step, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var steps []Step
	if err := dec.Decode(&steps); err != nil {
		return nil, fmt.Errorf("workflow: %w", err)
	}
	return steps, nil
}

// A Store keeps each step's output until later steps read it, as a Go
// workflow engine keeps its execution state in a key-value bucket.
// Whatever a store does to the types on the way (see StringKV) is repaired
// by coercion when the output reaches a node.
type Store interface {
	Put(step string, output map[string]any) error
	Get(step string) (map[string]any, error)
}

// An Engine runs workflows over a set of named nodes.
type Engine struct {
	Nodes map[string]*Node

	// Store keeps step outputs between steps; nil keeps them in memory as
	// they are.
	Store Store

	// Trace, if set, is called before each node runs, with its parameters
	// as the templates resolved them and as the node receives them.
	Trace func(step string, resolved, coerced map[string]any)

	// withoutCoercion skips coercion, so that tests can show the failures
	// it prevents.
	withoutCoercion bool
}

// A StepError reports the step where a run stopped. Err is a coercion
// error (a *coerce.Error, or several joined, each with the parameter's JSON
// Pointer), a template error, or the node's own error.
type StepError struct {
	Step string
	Err  error
}

func (e *StepError) Error() string { return fmt.Sprintf("workflow: step %q: %v", e.Step, e.Err) }
func (e *StepError) Unwrap() error { return e.Err }

// Run runs the steps in order and returns the last one's output.
//
// A parameter value that is exactly one template, "${inputs.tasks}", takes
// the value at that path with its own type: a list stays a list. A template
// inside other text, "id-${inputs.n}", becomes text, with objects and
// arrays written as compact JSON. Paths start at "inputs" (the workflow's
// inputs) or at "steps.<name>.output" (an earlier step's output), and go
// on through object keys and array indexes; a string met on the way that
// holds JSON text is read as the object or array it holds.
//
// The resolved parameters are then coerced to the node's declared types. If
// a parameter cannot be, the run stops with a *StepError naming the step,
// which wraps the *coerce.Error naming the parameter.
func (e *Engine) Run(ctx context.Context, inputs map[string]any, steps []Step) (map[string]any, error) {
	outputs := map[string]any{}
	scope := map[string]any{"inputs": inputs, "steps": outputs}
	var last map[string]any
	for _, st := range steps {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		out, err := e.runStep(ctx, st, scope)
		if err != nil {
			return nil, &StepError{Step: st.Name, Err: err}
		}
		if e.Store != nil {
			// Later steps see the output as the store gives it back.
			if err := e.Store.Put(st.Name, out); err != nil {
				return nil, &StepError{Step: st.Name, Err: err}
			}
			if out, err = e.Store.Get(st.Name); err != nil {
				return nil, &StepError{Step: st.Name, Err: err}
			}
		}
		outputs[st.Name] = map[string]any{"output": out}
		last = out
	}
	return last, nil
}

func (e *Engine) runStep(ctx context.Context, st Step, scope map[string]any) (map[string]any, error) {
	node, ok := e.Nodes[st.Node]
	if !ok {
		return nil, fmt.Errorf("no node %q", st.Node)
	}
	resolved, err := resolveParams(st.Params, scope)
	if err != nil {
		return nil, err
	}
	return e.invoke(ctx, st.Name, node, resolved)
}

// RunNode runs one node with parameters given directly, as a CLI does
// (see ParseCLIParams): the same coercion, without templates.
func (e *Engine) RunNode(ctx context.Context, name string, params map[string]any) (map[string]any, error) {
	node, ok := e.Nodes[name]
	if !ok {
		return nil, fmt.Errorf("workflow: no node %q", name)
	}
	out, err := e.invoke(ctx, name, node, params)
	if err != nil {
		return nil, &StepError{Step: name, Err: err}
	}
	return out, nil
}

func (e *Engine) invoke(ctx context.Context, step string, node *Node, params map[string]any) (map[string]any, error) {
	coerced := params
	if !e.withoutCoercion {
		var err error
		if coerced, err = node.schema.Coerce(params); err != nil {
			return nil, err
		}
	}
	if e.Trace != nil {
		e.Trace(step, params, coerced)
	}
	return node.run(ctx, coerced)
}
