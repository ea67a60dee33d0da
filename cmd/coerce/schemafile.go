package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/coerce-go/coerce"
)

// A schema file is one of three things, told apart by its top-level keys,
// so that whatever a user has at hand works without conversion:
//
//   - a tools/list result ({"tools": [...]}, or the whole JSON-RPC response
//     around it, {"result": {"tools": [...]}}), from which --tool picks one;
//   - one MCP tool ({"name": ..., "inputSchema": {...}}), whose input schema
//     is used;
//   - anything else: a JSON Schema of the arguments.
type toolEntry struct {
	Name        string          `json:"name"`
	InputSchema json.RawMessage `json:"inputSchema"`
}

type schemaFileShape struct {
	Tools       []toolEntry      `json:"tools"`
	Result      *schemaFileShape `json:"result"`
	Name        string           `json:"name"`
	InputSchema json.RawMessage  `json:"inputSchema"`
}

// readSchemaFile returns the JSON Schema of the arguments that the file
// holds. Problems with the file or --tool are usage errors: the command line
// named the wrong thing.
func readSchemaFile(path, tool string) ([]byte, error) {
	if path == "" {
		return nil, usagef("--schema FILE is required")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, usagef("%v", err)
	}
	var shape schemaFileShape
	if err := json.Unmarshal(data, &shape); err != nil {
		return nil, usagef("%s: not a JSON object: %v", path, err)
	}
	if shape.Result != nil && shape.Result.Tools != nil {
		shape = *shape.Result
	}
	switch {
	case shape.Tools != nil:
		var names []string
		for _, t := range shape.Tools {
			if t.Name == tool {
				if len(t.InputSchema) == 0 {
					return nil, usagef("%s: tool %q has no inputSchema", path, tool)
				}
				return t.InputSchema, nil
			}
			names = append(names, t.Name)
		}
		slices.Sort(names)
		if tool == "" {
			return nil, usagef("%s is a tools/list result: name a tool with --tool (one of %s)", path, strings.Join(names, ", "))
		}
		return nil, usagef("%s: no tool %q (the tools are %s)", path, tool, strings.Join(names, ", "))
	case len(shape.InputSchema) > 0:
		if tool != "" && tool != shape.Name {
			return nil, usagef("%s is the tool %q, not %q", path, shape.Name, tool)
		}
		return shape.InputSchema, nil
	default:
		if tool != "" {
			return nil, usagef("%s is a JSON Schema, not a tools/list result: --tool %q names nothing in it", path, tool)
		}
		return bytes.TrimSpace(data), nil
	}
}

// loadSchema reads and compiles the schema a command's --schema and --tool
// name.
func loadSchema(path, tool string, o coerce.Options) (*coerce.Schema, error) {
	raw, err := readSchemaFile(path, tool)
	if err != nil {
		return nil, err
	}
	s, err := o.ParseSchema(raw)
	if err != nil {
		return nil, usagef("%s: %v", path, err)
	}
	return s, nil
}

// reportChanges writes one line per change to w, for a person reading a
// pipeline's stderr: where, what was found, what it became and by which rule.
func reportChanges(w interface{ Write([]byte) (int, error) }, changes []coerce.Change) {
	for _, c := range changes {
		path := c.Path
		if path == "" {
			path = "/"
		}
		preview := ""
		if c.Preview != "" {
			preview = " " + strconv.Quote(c.Preview)
		}
		fmt.Fprintf(w, "coerce: %s: %s%s to %s (%s)\n", path, c.Found, preview, c.Declared, c.Rule)
	}
}
