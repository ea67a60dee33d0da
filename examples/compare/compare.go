// Package compare holds benchmarks that set coerce beside the ways callers
// repair arguments without it, in one process: the naive "parse every
// string that looks like JSON" fix that servers and workflow engines reach
// for, written with encoding/json, and goccy/go-json as a reference for what a
// third-party codec (with unsafe code) buys. It is a module of its own so
// that the core keeps no third-party dependency. Run it through `make bench`
// at the repository root, which prints everything side by side.
package compare

import (
	"encoding/json"

	gojson "github.com/goccy/go-json"
)

// NaiveRepair is the fix the seeds' authors wrote first: try to parse every
// string argument, keep the result if it is an object or array. It knows no
// types, so it also parses strings that were meant to stay JSON text, and it
// repairs no scalar.
func NaiveRepair(args map[string]any, unmarshal func([]byte, any) error) map[string]any {
	out := make(map[string]any, len(args))
	for k, v := range args {
		if s, ok := v.(string); ok {
			var parsed any
			if unmarshal([]byte(s), &parsed) == nil {
				switch parsed.(type) {
				case map[string]any, []any:
					v = parsed
				}
			}
		}
		out[k] = v
	}
	return out
}

// The naive repair on raw arguments: decode, repair, encode.
func NaiveRepairJSON(raw []byte, unmarshal func([]byte, any) error, marshal func(any) ([]byte, error)) ([]byte, error) {
	var args map[string]any
	if err := unmarshal(raw, &args); err != nil {
		return raw, err
	}
	return marshal(NaiveRepair(args, unmarshal))
}

var (
	stdUnmarshal = json.Unmarshal
	stdMarshal   = json.Marshal
	goUnmarshal  = gojson.Unmarshal
	goMarshal    = gojson.Marshal
)
