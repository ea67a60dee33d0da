// Command quickstart coerces a realistic MCP tool call — the arguments as an
// LLM client really sent them — to the tool's input schema, and prints each
// parameter before and after.
//
//	go run ./examples/quickstart
package main

import (
	"encoding/json"
	"fmt"
	"log"
	"maps"
	"os"
	"slices"
	"text/tabwriter"

	"github.com/coerce-go/coerce"
)

// The input schema of a Discord "execute_action" tool, in the shape the
// official Go SDK and Python servers emit.
const inputSchema = `{
  "type": "object",
  "properties": {
    "server_name": {"type": "string"},
    "path_params": {"type": "string", "description": "JSON object text"},
    "group_by":    {"type": ["null", "array"], "items": {"type": "string"}},
    "limit":       {"type": "integer"},
    "notify":      {"type": "boolean"},
    "config":      {"anyOf": [{"type": "object"}, {"type": "null"}]}
  },
  "required": ["server_name"],
  "additionalProperties": false
}`

// What arrived: a map where JSON text was declared, arrays and objects as
// JSON text (one of them in a markdown fence), scalars as strings.
const call = "{" +
	`"server_name": "discord",` +
	`"path_params": {"channel_id": "1458059302022549698"},` +
	`"group_by": "[\"type\"]",` +
	`"limit": "10",` +
	`"notify": "true",` +
	`"config": "` + "```json\\n{\\\"depth\\\": 2}\\n```" + `"` +
	"}"

func main() {
	schema, err := coerce.ParseSchema([]byte(inputSchema))
	if err != nil {
		log.Fatal(err)
	}
	var before map[string]any
	if err := json.Unmarshal([]byte(call), &before); err != nil {
		log.Fatal(err)
	}
	after, err := schema.Coerce(before)
	if err != nil {
		log.Fatal(err)
	}

	w := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "PARAMETER\tDECLARED\tBEFORE\tAFTER")
	for _, name := range slices.Sorted(maps.Keys(before)) {
		t, _ := schema.Lookup(name)
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", name, t, show(before[name]), show(after[name]))
	}
	w.Flush()

	// The same on the raw bytes, as SDKs that pass json.RawMessage need.
	raw, err := schema.CoerceJSON([]byte(call))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("\nCoerceJSON:\n  before: %s\n  after:  %s\n", call, raw)
}

// show prints a value with its Go type, so that the change of shape shows.
func show(v any) string {
	text, _ := json.Marshal(v)
	return fmt.Sprintf("%T %s", v, text)
}
