package workflow

import (
	"fmt"
	"strings"

	"github.com/coerce-go/coerce"
)

// ParseCLIParams reads key=value arguments, as a workflow tool's command
// for running one node takes them. A value that is JSON object or array
// text becomes that object or array, before anyone knows what the node
// wants; every other value stays a string. Either way the node's declared
// types decide in the end (see Engine.RunNode): a parsed object declared
// str goes back to JSON text, "5" declared int becomes 5.
//
// The guess is a common one, kept here to show that coercion copes with
// it. A CLI that knows the node's schema does better to guess nothing: left
// as text, a value declared dict is parsed by the schema and one declared
// str keeps its bytes (spacing, key order) exactly.
func ParseCLIParams(args []string) (map[string]any, error) {
	params := make(map[string]any, len(args))
	for _, arg := range args {
		key, value, ok := strings.Cut(arg, "=")
		if !ok || key == "" {
			return nil, fmt.Errorf("workflow: parameter %q is not key=value", arg)
		}
		// The core returns the string unchanged when it is not such text.
		params[key], _ = coerce.ToDeclared(value, "dict | list")
	}
	return params, nil
}
