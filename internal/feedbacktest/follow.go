// Package feedbacktest is the scripted model of the integrations' tests:
// it reads the feedback a refused tool call got and writes the corrected
// call, as a model that follows the feedback literally would. It knows
// nothing but the text: each line names a JSON Pointer, and either gives
// an example to send there, or says the name is not declared and lists
// the declared names, nearest first.
package feedbacktest

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Follow returns a copy of args corrected as feedback says: the value at
// each path named with an example becomes the example; a name that is not
// declared is renamed to the nearest declared name. It fails when a line
// says neither, so that a test notices feedback a model could not act on.
func Follow(args map[string]any, feedback string) (map[string]any, error) {
	var fixed map[string]any
	b, err := json.Marshal(args)
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(b, &fixed); err != nil {
		return nil, err
	}
	lines := strings.Split(feedback, "\n")
	if len(lines) < 2 || !strings.HasPrefix(lines[0], "Invalid arguments") {
		return nil, fmt.Errorf("not feedback: %q", feedback)
	}
	for _, line := range lines[1:] {
		path, rest, ok := strings.Cut(strings.TrimPrefix(line, "- "), ": ")
		if !ok || !strings.HasPrefix(path, "/") {
			return nil, fmt.Errorf("cannot act on %q", line)
		}
		parent, key := splitPointer(path)
		container, err := lookup(fixed, parent)
		if err != nil {
			return nil, err
		}
		if _, names, ok := strings.Cut(rest, "declared, nearest first: "); ok && strings.HasPrefix(rest, "not a declared name") {
			m, ok := container.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("%s: not in an object", path)
			}
			nearest, _, _ := strings.Cut(strings.TrimSuffix(names, "."), ", ")
			m[nearest] = m[key]
			delete(m, key)
			continue
		}
		_, example, ok := strings.Cut(rest, ". Example: ")
		if !ok {
			return nil, fmt.Errorf("no example in %q", line)
		}
		var v any
		if err := json.Unmarshal([]byte(example), &v); err != nil {
			return nil, fmt.Errorf("example in %q: %w", line, err)
		}
		switch c := container.(type) {
		case map[string]any:
			c[key] = v
		case []any:
			i, err := strconv.Atoi(key)
			if err != nil || i < 0 || i >= len(c) {
				return nil, fmt.Errorf("%s: no such element", path)
			}
			c[i] = v
		default:
			return nil, fmt.Errorf("%s: no container", path)
		}
	}
	return fixed, nil
}

func splitPointer(path string) (parent, key string) {
	i := strings.LastIndex(path, "/")
	key = strings.NewReplacer("~1", "/", "~0", "~").Replace(path[i+1:])
	return path[:i], key
}

func lookup(v any, pointer string) (any, error) {
	if pointer == "" {
		return v, nil
	}
	for _, tok := range strings.Split(pointer[1:], "/") {
		tok = strings.NewReplacer("~1", "/", "~0", "~").Replace(tok)
		switch c := v.(type) {
		case map[string]any:
			v = c[tok]
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(c) {
				return nil, fmt.Errorf("%s: no element %s", pointer, tok)
			}
			v = c[i]
		default:
			return nil, fmt.Errorf("%s: no container at %s", pointer, tok)
		}
	}
	return v, nil
}

// Schema is the input schema of the tool the loops call: closed, with a
// required string, an enum, an integer and an array of strings.
const Schema = `{
	"type": "object",
	"properties": {
		"owner": {"type": "string"},
		"state": {"type": "string", "enum": ["OPEN", "CLOSED"]},
		"perPage": {"type": "integer"},
		"labels": {"type": "array", "items": {"type": "string"}}
	},
	"required": ["owner"],
	"additionalProperties": false
}`

// A Case is one class of failure: the call a model first sends, and what
// the tool must receive once the model followed the feedback.
type Case struct {
	Name  string
	Call  string
	Fixed string
}

// Cases are the classes of failure the loops go through.
var Cases = []Case{
	{"wrong type", `{"owner": "octo", "perPage": "ten"}`, `{"owner": "octo", "perPage": 1}`},
	{"enum value", `{"owner": "octo", "state": "opne"}`, `{"owner": "octo", "state": "OPEN"}`},
	{"unknown name", `{"owner": "octo", "stat": "OPEN"}`, `{"owner": "octo", "state": "OPEN"}`},
	{"missing required", `{"state": "OPEN"}`, `{"owner": "text", "state": "OPEN"}`},
	{"invalid JSON text", `{"owner": "octo", "labels": "[\"bug\","}`, `{"owner": "octo", "labels": ["text"]}`},
}
