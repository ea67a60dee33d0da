package workflow

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/coerce-go/coerce"
)

// resolveParams returns the step's parameters with their templates
// resolved. The step's own map is left as it is, so a workflow can run
// twice.
func resolveParams(params, scope map[string]any) (map[string]any, error) {
	out := make(map[string]any, len(params))
	for k, v := range params {
		r, err := resolve(v, scope)
		if err != nil {
			return nil, fmt.Errorf("param %q: %w", k, err)
		}
		out[k] = r
	}
	return out, nil
}

// resolve resolves the templates in v, and in the strings of any objects
// and arrays it holds: {"channel_id": "${inputs.channel_id}"} is a value
// with a template inside.
func resolve(v any, scope map[string]any) (any, error) {
	switch x := v.(type) {
	case string:
		return resolveString(x, scope)
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			r, err := resolve(e, scope)
			if err != nil {
				return nil, err
			}
			out[k] = r
		}
		return out, nil
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			r, err := resolve(e, scope)
			if err != nil {
				return nil, err
			}
			out[i] = r
		}
		return out, nil
	}
	return v, nil
}

// resolveString gives a string that is exactly one template the value at
// its path, of whatever type; any other string stays a string, with each
// template in it replaced by its value as text.
func resolveString(s string, scope map[string]any) (any, error) {
	if path, ok := wholeTemplate(s); ok {
		return lookup(scope, path)
	}
	if !strings.Contains(s, "${") {
		return s, nil
	}
	var b strings.Builder
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			break
		}
		n := strings.IndexByte(s[i:], '}')
		if n < 0 {
			break // an unclosed "${" is text
		}
		v, err := lookup(scope, s[i+2:i+n])
		if err != nil {
			return nil, err
		}
		text, err := asText(v)
		if err != nil {
			return nil, fmt.Errorf("${%s}: %w", s[i+2:i+n], err)
		}
		b.WriteString(s[:i])
		b.WriteString(text)
		s = s[i+n+1:]
	}
	b.WriteString(s)
	return b.String(), nil
}

// wholeTemplate reports whether s is one template and nothing else.
// "${a}-${b}" and " ${a}" are not.
func wholeTemplate(s string) (path string, ok bool) {
	if !strings.HasPrefix(s, "${") || !strings.HasSuffix(s, "}") {
		return "", false
	}
	path = s[2 : len(s)-1]
	return path, !strings.ContainsAny(path, "{}")
}

// asText writes a value into text the way a string parameter wants it:
// strings as they are, numbers and booleans as their JSON text, objects
// and arrays as compact JSON. The core's string conversion does exactly
// that.
func asText(v any) (string, error) {
	if v == nil {
		return "null", nil
	}
	s, err := coerce.ToDeclared(v, "str")
	if err != nil {
		return "", err
	}
	return s.(string), nil
}

// lookup finds the value at a dotted path such as
// "steps.task_generator.output.tasks.0.id".
func lookup(scope map[string]any, path string) (any, error) {
	var cur any = scope
	keys := strings.Split(path, ".")
	for i, key := range keys {
		// Going further needs an object or an array. An output that a store
		// or an LLM turned into JSON text is read as what it holds; the core
		// parses only text that is an object or array, so a plain string
		// here is an error, not a guess.
		c, err := coerce.ToDeclared(cur, "dict | list")
		if err != nil {
			return nil, fmt.Errorf("${%s}: %s is not an object or array: %w", path, describePath(keys[:i]), err)
		}
		switch c := c.(type) {
		case map[string]any:
			v, ok := c[key]
			if !ok {
				return nil, fmt.Errorf("${%s}: no %q in %s", path, key, describePath(keys[:i]))
			}
			cur = v
		case []any:
			n, err := strconv.Atoi(key)
			if err != nil || n < 0 || n >= len(c) {
				return nil, fmt.Errorf("${%s}: no index %q in %s (length %d)", path, key, describePath(keys[:i]), len(c))
			}
			cur = c[n]
		default:
			return nil, fmt.Errorf("${%s}: cannot look into %T", path, c)
		}
	}
	return cur, nil
}

func describePath(keys []string) string {
	if len(keys) == 0 {
		return "the workflow's scope"
	}
	return strings.Join(keys, ".")
}
