// Package compare holds the benchmarks that set coerce beside what callers
// do without it, in one process and on the same bytes: decoding the
// arguments, fixing them by hand for the one schema they know, and encoding
// them again, with encoding/json and with the fast JSON libraries callers
// reach for instead: goccy/go-json, segmentio/encoding's json and
// bytedance/sonic (a JIT for amd64 and arm64; all three use unsafe code).
// It is a module of its own so that the core keeps no third-party
// dependency.
// Run it through `make bench` at the repository root, which prints every
// table of the README.
//
// It also sets the core's near-JSON repair (internal/nearjson) beside the
// Go repair libraries, on the near-JSON cases of their own test suites and
// of public issue threads (testdata/nearjson_cases.json): how many each
// repairs to the value meant, how many it turns into another value or
// guesses where the text has no single reading (closing truncated text,
// filling a missing value, dropping elided items), and how many it
// refuses. `go test -run TestNearJSONTable -v` prints the table.
package compare

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/bytedance/sonic"
	gojson "github.com/goccy/go-json"
	segjson "github.com/segmentio/encoding/json"
)

// A codec is a JSON library: encoding/json or a peer.
type codec struct {
	unmarshal func([]byte, any) error
	marshal   func(any) ([]byte, error)
	valid     func([]byte) bool
}

// sonic is used in its ConfigStd, the configuration that does what
// encoding/json does: it sorts map keys, escapes HTML, validates strings
// and copies them out of the input. Its default configuration skips those
// and so does less work than the others in a row. On Go 1.26 and amd64 or
// arm64 it runs its JIT; elsewhere (go1.28 and later, for v1.15.5) it falls
// back to encoding/json, and its figures would be encoding/json's.
var (
	stdCodec   = codec{json.Unmarshal, json.Marshal, json.Valid}
	goCodec    = codec{gojson.Unmarshal, gojson.Marshal, gojson.Valid}
	segCodec   = codec{segjson.Unmarshal, segjson.Marshal, segjson.Valid}
	sonicCodec = codec{sonic.ConfigStd.Unmarshal, sonic.ConfigStd.Marshal, sonic.ConfigStd.Valid}
)

// peers are the codecs each benchmark sets beside coerce, by impl name:
// encoding/json and the fast libraries.
var peers = []struct {
	impl string
	c    codec
}{{"encoding_json", stdCodec}, {"go_json", goCodec}, {"segmentio", segCodec}, {"sonic", sonicCodec}}

// The quickstart's call: the input schema of a Discord "execute_action"
// tool, and its arguments as a client sent them (a map where JSON text was
// declared, arrays and objects as JSON text, one in a markdown fence,
// scalars as strings).
const (
	quickstartSchema = `{
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
	quickstartCall = "{" +
		`"server_name": "discord",` +
		`"path_params": {"channel_id": "1458059302022549698"},` +
		`"group_by": "[\"type\"]",` +
		`"limit": "10",` +
		`"notify": "true",` +
		`"config": "` + "```json\\n{\\\"depth\\\": 2}\\n```" + `"` +
		"}"
)

// FixQuickstart is the repair a developer writes by hand for the
// quickstart's tool, knowing its schema: each parameter's broken forms,
// converted as coerce converts them.
func FixQuickstart(args map[string]any, c codec) error {
	if v, ok := args["path_params"].(map[string]any); ok {
		text, err := c.marshal(v)
		if err != nil {
			return err
		}
		args["path_params"] = string(text)
	}
	for _, k := range []string{"group_by", "config"} {
		s, ok := args[k].(string)
		if !ok {
			continue
		}
		if s = strings.TrimSpace(s); strings.HasPrefix(s, "```") { // a fenced block
			s = strings.TrimSuffix(s[strings.IndexByte(s, '\n')+1:], "```")
		}
		var v any
		if err := c.unmarshal([]byte(s), &v); err != nil {
			return err
		}
		args[k] = v
	}
	if s, ok := args["limit"].(string); ok {
		n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
		if err != nil {
			return err
		}
		args["limit"] = float64(n)
	}
	if s, ok := args["notify"].(string); ok {
		b, err := strconv.ParseBool(s)
		if err != nil {
			return err
		}
		args["notify"] = b
	}
	return nil
}

// The ten-parameter numeric call: numbers sent as strings.
var (
	numericSchema, numericCall = numericTool()
)

func numericTool() (schema, call string) {
	var props, args []string
	for i := range 10 {
		typ, val := "integer", strconv.Itoa(1000*i+7)
		if i%2 == 1 {
			typ, val = "number", strconv.Itoa(i)+".25"
		}
		props = append(props, fmt.Sprintf(`"p%d": {"type": %q}`, i, typ))
		args = append(args, fmt.Sprintf(`"p%d": %q`, i, val))
	}
	return `{"type": "object", "properties": {` + strings.Join(props, ", ") + `}}`,
		"{" + strings.Join(args, ", ") + "}"
}

// FixNumeric repairs the numeric call by hand: every parameter is a number.
func FixNumeric(args map[string]any) error {
	for k, v := range args {
		s, ok := v.(string)
		if !ok {
			continue
		}
		f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil {
			return fmt.Errorf("%s: %w", k, err)
		}
		args[k] = f
	}
	return nil
}

// RepairJSON decodes raw arguments, fixes them and encodes them again.
func RepairJSON(raw []byte, c codec, fix func(map[string]any) error) ([]byte, error) {
	var args map[string]any
	if err := c.unmarshal(raw, &args); err != nil {
		return nil, err
	}
	if args == nil {
		return nil, errors.New("no arguments")
	}
	if err := fix(args); err != nil {
		return nil, err
	}
	return c.marshal(args)
}

// The arrays call: five list parameters sent as JSON text, as LLM clients
// send arrays ({"ids": "[1, 2, 3]"}), beside five that conform.
var (
	arraysSchema, arraysCall = arraysTool()
)

func arraysTool() (schema, call string) {
	var props, args []string
	for i := range 5 {
		props = append(props, fmt.Sprintf(`"ids%d": {"type": "array", "items": {"type": "integer"}}`, i),
			fmt.Sprintf(`"tags%d": {"type": "array", "items": {"type": "string"}}`, i))
		args = append(args, fmt.Sprintf(`"ids%d": "[%d, %d, %d, %d]"`, i, i, 10*i+1, 100*i+2, 1000*i+3),
			fmt.Sprintf(`"tags%d": ["alpha", "beta", "gamma %d"]`, i, i))
	}
	return `{"type": "object", "properties": {` + strings.Join(props, ", ") + `}}`,
		"{" + strings.Join(args, ", ") + "}"
}

// FixArrays repairs the arrays call by hand: a string where a list is
// declared is the list's JSON text.
func FixArrays(args map[string]any, c codec) error {
	for k, v := range args {
		s, ok := v.(string)
		if !ok {
			continue
		}
		var list []any
		if err := c.unmarshal([]byte(s), &list); err != nil {
			return fmt.Errorf("%s: %w", k, err)
		}
		args[k] = list
	}
	return nil
}
