package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/coerce-go/coerce"
)

const argsSynopsis = `--schema FILE [--tool NAME] [flags] KEY=VALUE...

Prints one JSON object of arguments, each VALUE read as the type the schema
declares for KEY. KEY:=JSON gives a value as JSON text instead. A dotted KEY
(filter.limit=5) names a nested property; a KEY the schema does not declare
is refused (status 2). Values that cannot be read as their type print the
feedback a model would get, with status 1.`

func runArgs(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("args", argsSynopsis, stderr)
	schemaPath := fs.String("schema", "", "the JSON Schema, MCP tool or tools/list `FILE`")
	tool := fs.String("tool", "", "the tool `NAME`, when FILE is a tools/list result")
	check := fs.Bool("check", false, "also fail (status 1) on what a validator refuses: a required KEY missing, a value outside an enum")
	verbose := fs.Bool("v", false, "report each conversion on stderr")
	opts := coerce.Options{WrapScalars: true} // a bare tags=a is one tag: see the package doc
	optionFlags(fs, &opts)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	var changes []coerce.Change
	if *verbose {
		opts.OnChange = func(c coerce.Change) { changes = append(changes, c) }
	}
	s, err := loadSchema(*schemaPath, *tool, opts)
	if err != nil {
		return err
	}
	built, err := buildArgs(s, fs.Args())
	if err != nil {
		return err
	}
	out, err := s.Coerce(built)
	if err != nil {
		return &failError{s.Feedback(err)}
	}
	if *check {
		if err := s.Check(out); err != nil {
			return &failError{s.Feedback(err)}
		}
	}
	reportChanges(stderr, changes)
	return writeJSON(stdout, out)
}

// buildArgs makes the argument object that the KEY=VALUE pairs describe,
// each VALUE still the string it was (or the value its JSON text holds, for
// KEY:=JSON): the schema's coercion then reads each as its declared type, in
// one call, so that errors carry JSON Pointers and the library's feedback.
func buildArgs(s *coerce.Schema, pairs []string) (map[string]any, error) {
	root := map[string]any{}
	lists := map[string]bool{} // the paths whose value is a list of repeated KEYs
	for _, pair := range pairs {
		key, text, ok := strings.Cut(pair, "=")
		if !ok {
			return nil, usagef("%q is not KEY=VALUE", pair)
		}
		var value any = text
		if k, isJSON := strings.CutSuffix(key, ":"); isJSON {
			key = k
			dec := json.NewDecoder(strings.NewReader(text))
			dec.UseNumber()
			if err := dec.Decode(&value); err != nil || dec.More() {
				return nil, usagef("%s:=%s: not one JSON value", key, text)
			}
		}
		if key == "" {
			return nil, usagef("%q has no KEY", pair)
		}
		path, t, err := resolveKey(s, key)
		if err != nil {
			return nil, err
		}
		if err := setPath(root, lists, path, t, value, key); err != nil {
			return nil, err
		}
	}
	return root, nil
}

// resolveKey finds the property a KEY names: the top-level parameter of
// that exact name if there is one (a name may hold a dot), or else the
// nested property its dotted parts name, one object level per part.
func resolveKey(s *coerce.Schema, key string) ([]string, *coerce.Type, error) {
	if t, ok := s.Lookup(key); ok {
		return []string{key}, t, nil
	}
	parts := strings.Split(key, ".")
	t, ok := s.Lookup(parts[0])
	if !ok || len(parts) == 1 {
		return nil, nil, undeclared(s.Type(), key, parts[0])
	}
	for i, part := range parts[1:] {
		obj := objectOf(t)
		if obj == nil {
			return nil, nil, usagef("%s: %s is declared %s, which has no properties", key, strings.Join(parts[:i+1], "."), t)
		}
		if !declares(obj, part) {
			return nil, nil, undeclared(obj, key, part)
		}
		t = obj.Property(part)
	}
	return parts, t, nil
}

// objectOf returns t if it is an object type, or the object member of a
// union such as an optional object; nil if t declares no object.
func objectOf(t *coerce.Type) *coerce.Type {
	switch t.Kind() {
	case coerce.Object:
		return t
	case coerce.Union:
		for _, m := range t.Members() {
			if m.Kind() == coerce.Object {
				return m
			}
		}
	}
	return nil
}

// declares reports whether an object type declares a property: by its name,
// or by a patternProperties or additionalProperties that gives it a type.
// An object that says nothing of other properties does not declare them, so
// a misspelt key is refused instead of passing through untyped.
func declares(obj *coerce.Type, name string) bool {
	return slices.Contains(obj.Properties(), name) || obj.Property(name).Kind() != coerce.Any
}

func undeclared(obj *coerce.Type, key, part string) error {
	names := "none"
	if o := objectOf(obj); o != nil && len(o.Properties()) > 0 {
		names = strings.Join(o.Properties(), ", ")
	}
	if key == part {
		return usagef("%s: the schema declares no such parameter (it declares %s)", key, names)
	}
	return usagef("%s: %q is not declared there (the properties are %s)", key, part, names)
}

// setPath stores value at path in root, making the objects on the way. A
// key given again is one more element for an array, and a mistake for any
// other type, as is a value given both whole and by its properties.
func setPath(root map[string]any, lists map[string]bool, path []string, t *coerce.Type, value any, key string) error {
	m := root
	for i, p := range path[:len(path)-1] {
		next, exists := m[p]
		if !exists {
			child := map[string]any{}
			m[p] = child
			m = child
			continue
		}
		child, ok := next.(map[string]any)
		if !ok {
			return usagef("%s: %s is given whole and by its properties", key, strings.Join(path[:i+1], "."))
		}
		m = child
	}
	last := path[len(path)-1]
	prev, exists := m[last]
	switch {
	case !exists:
		m[last] = value
	case isArray(t):
		// A KEY:=JSON array given first is one element too, so which
		// values are lists of occurrences is kept apart, by path.
		at := strings.Join(path, "\x00")
		if lists[at] {
			m[last] = append(prev.([]any), value)
		} else {
			m[last] = []any{prev, value}
			lists[at] = true
		}
	default:
		if _, isObj := prev.(map[string]any); isObj {
			return usagef("%s: %s is given whole and by its properties", key, strings.Join(path, "."))
		}
		return usagef("%s is given twice, and is declared %s, not an array", key, t)
	}
	return nil
}

func isArray(t *coerce.Type) bool {
	if t.Kind() == coerce.Array {
		return true
	}
	return slices.ContainsFunc(t.Members(), func(m *coerce.Type) bool { return m.Kind() == coerce.Array })
}

// writeJSON writes v as one line of JSON, with <, > and & as they are: the
// output goes to programs, not into HTML.
func writeJSON(w io.Writer, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("writing the result: %v", err)
	}
	_, err := w.Write(buf.Bytes())
	return err
}
