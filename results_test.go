package coerce

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"testing"
)

// forResults is s in the results direction, as toolcall.CompileOutput
// makes it: checked, and null conforming only where it is declared.
func forResults(s *Schema, onChange func(Change)) *Schema {
	o := s.opts
	o.results, o.Check, o.OnChange = true, true, onChange
	return s.WithOptions(o)
}

// A value the schema accepts is a result that conforms: every instance
// the JSON Schema Test Suite marks valid comes back as it came, the text
// itself, with no error and no change, nulls included (the suite holds
// many where a type or a union takes them).
func TestResultsAcceptWhatTheSchemaAccepts(t *testing.T) {
	n := 0
	for _, c := range corpora(t) {
		if !c.valid {
			continue
		}
		n++
		var changes []string
		got, err := forResults(c.schema, func(ch Change) { changes = append(changes, ch.Path) }).coerceResult(c.args)
		if err != nil || !sameSlice(got, c.args) || changes != nil {
			t.Errorf("%s: %s came back as %s, %v, changes at %q", c.name, c.args, got, err, changes)
		}
	}
	t.Logf("%d valid instances", n)
}

// The results direction is the arguments' engine but for null: on every
// case of the corpora whose text holds no null (holdsNull), it gives what CoerceJSON
// with Check gives (the bytes, the changes, the error), but that a result
// that fails comes back as it came.
func TestResultsAgreeWithArguments(t *testing.T) {
	n, failed := 0, 0
	for _, c := range corpora(t) {
		if holdsNull(c.args) {
			continue
		}
		if _, isObject := argsObject(c.args); !isObject {
			continue // CoerceJSON's arguments are an object; a result may be anything
		}
		n++
		var argChanges, resChanges []Change
		o := c.schema.opts
		o.Check, o.OnChange = true, func(ch Change) { argChanges = append(argChanges, ch) }
		want, wantErr := c.schema.WithOptions(o).CoerceJSON(c.args)
		got, err := forResults(c.schema, func(ch Change) { resChanges = append(resChanges, ch) }).coerceResult(c.args)
		var d string
		switch {
		case fmt.Sprint(err) != fmt.Sprint(wantErr):
			d = fmt.Sprintf("error %v, want %v", err, wantErr)
		case err != nil && !sameSlice(got, c.args):
			d = fmt.Sprintf("a result that fails came back as %s", got)
		case err == nil && !bytes.Equal(got, want):
			d = fmt.Sprintf("%s, want %s", got, want)
		case err == nil && fmt.Sprint(resChanges) != fmt.Sprint(argChanges):
			d = fmt.Sprintf("changes %v, want %v", resChanges, argChanges)
		}
		if d != "" {
			if failed++; failed <= 20 {
				t.Errorf("%s: %s: %s", c.name, c.args, d)
			}
		}
	}
	t.Logf("%d cases, %d disagreements", n, failed)
}

// A result that coerces holds no null where its type does not take one:
// every case of the corpora, and each again with every scalar in it made
// null. strayNull, the test's own reading of the types through the public
// API, says where one is. A result it finds none in, which CoerceJSON
// with Check passes as it is, the results direction passes as it is too.
func TestResultsHoldNoStrayNull(t *testing.T) {
	n, converted, refused := 0, 0, 0
	for _, c := range corpora(t) {
		d := json.NewDecoder(bytes.NewReader(c.args))
		d.UseNumber()
		var v any
		if d.Decode(&v) != nil || d.More() {
			continue
		}
		nulled, _ := json.Marshal(nullScalars(v))
		for _, text := range [][]byte{c.args, nulled} {
			n++
			s := forResults(c.schema, nil)
			got, err := s.coerceResult(text)
			if err != nil {
				refused++
				if !sameSlice(got, text) {
					t.Errorf("%s: %s failed (%v) and came back as %s", c.name, text, err, got)
				}
				continue
			}
			var out any
			d := json.NewDecoder(bytes.NewReader(got))
			d.UseNumber()
			if err := d.Decode(&out); err != nil {
				t.Fatalf("%s: %s gave %s, not JSON: %v", c.name, text, got, err)
			}
			if at, ok := strayNull(s.root, out, ""); ok {
				t.Errorf("%s: %s gave %s, with null at %q", c.name, text, got, at)
			}
			if !sameSlice(got, text) {
				converted++
			}
		}
		if _, stray := strayNull(c.schema.root, v, ""); !stray {
			o := c.schema.opts
			o.Check = true
			if got, err := c.schema.WithOptions(o).CoerceJSON(c.args); err == nil && sameSlice(got, c.args) {
				if got, err := forResults(c.schema, nil).coerceResult(c.args); err != nil || !sameSlice(got, c.args) {
					t.Errorf("%s: %s conforms, and came back as %s, %v", c.name, c.args, got, err)
				}
			}
		}
	}
	t.Logf("%d texts: %d converted, %d refused", n, converted, refused)
}

// nullScalars is v with each string, number and boolean in it null.
func nullScalars(v any) any {
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = nullScalars(e)
		}
		return m
	case []any:
		a := make([]any, len(x))
		for i, e := range x {
			a[i] = nullScalars(e)
		}
		return a
	}
	return nil
}

// strayNull returns the path of a null in v where t, read through the
// public API, does not take one: looking into an object or array only
// where t, or the one member of a union of its kind, declares it, and
// taking null where t or a member of its union is null or any.
func strayNull(t *Type, v any, path string) (string, bool) {
	takes := func(t *Type) bool { return t.Kind() == Any || t.Kind() == Null }
	ofKind := func(k Kind) *Type {
		if t.Kind() != Union {
			return t
		}
		var one *Type
		for _, m := range t.Members() {
			if m.Kind() == k {
				if one != nil {
					return nil
				}
				one = m
			}
		}
		return one
	}
	switch x := v.(type) {
	case nil:
		if takes(t) || t.Kind() == Union && slices.ContainsFunc(t.Members(), takes) {
			return "", false
		}
		return path, true
	case map[string]any:
		if t = ofKind(Object); t == nil || t.Kind() != Object {
			return "", false
		}
		for _, k := range slices.Sorted(maps.Keys(x)) {
			if at, ok := strayNull(t.Property(k), x[k], path+"/"+k); ok {
				return at, true
			}
		}
	case []any:
		if t = ofKind(Array); t == nil || t.Kind() != Array {
			return "", false
		}
		for i, e := range x {
			if at, ok := strayNull(t.Item(i), e, path+"/"+strconv.Itoa(i)); ok {
				return at, true
			}
		}
	}
	return "", false
}

// sameSlice reports whether a and b are the same bytes in memory: the
// text itself.
func sameSlice(a, b []byte) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// FuzzResults: generated schemas (planSchema's, with unions, enums, nulls
// and names) and text, in the results direction. A result that fails
// comes back as it came; one that coerces holds no null where its type
// does not take one (strayNull), and conforms: coerced again, it is the
// text itself, with no change. On text that holds no null, it is what
// CoerceJSON with Check gives.
func FuzzResults(f *testing.F) {
	for seed := range uint64(16) {
		for _, text := range []string{
			`{"p": null, "q": [1, null], "z": null}`,
			`{"p": "5", "q": {"a": null}, "z": [null, [null]]}`,
			`{'p': None, 'q': [1, 2,], "z": True}`,
			`null`, `[null]`, `"[null]"`, `{"q": "{\"a\": null}"}`,
			`{"q": {"a": "x", "a": null}, "z": [{"b": 1, "b": null}]}`,
		} {
			f.Add(seed, []byte(text))
		}
	}
	f.Fuzz(func(t *testing.T, seed uint64, text []byte) {
		plain := plannedSchema(seed % 1000)
		var changes []Change
		s := forResults(plain, func(ch Change) { changes = append(changes, ch) })
		got, err := s.coerceResult(text)
		if err != nil {
			if !sameSlice(got, text) {
				t.Fatalf("%s failed (%v) and came back as %s", text, err, got)
			}
			return
		}
		if !sameSlice(got, text) {
			var out any
			d := json.NewDecoder(bytes.NewReader(got))
			d.UseNumber()
			if err := d.Decode(&out); err != nil {
				t.Fatalf("%s gave %s, not JSON: %v", text, got, err)
			}
			if at, ok := strayNull(s.root, out, ""); ok {
				t.Fatalf("%s gave %s, with null at %q", text, got, at)
			}
			changes = nil
			again, err := s.coerceResult(got)
			if err != nil || !sameSlice(again, got) || changes != nil {
				t.Fatalf("%s gave %s, which coerced again gives %s, %v, changes %v", text, got, again, err, changes)
			}
		}
		if _, isObject := argsObject(text); isObject && !holdsNull(text) {
			o := plain.opts
			o.Check = true
			want, werr := plain.WithOptions(o).CoerceJSON(text)
			if werr != nil || !bytes.Equal(got, want) {
				t.Fatalf("%s gave %s, where CoerceJSON with Check gives %s, %v", text, got, want, werr)
			}
		}
	})
}

// holdsNull reports whether text may hold a null: JSON's, or Python's
// None, which near-JSON repair reads as null, in the text or in JSON text
// in a string.
func holdsNull(text []byte) bool {
	return bytes.Contains(text, []byte("null")) || bytes.Contains(text, []byte("None"))
}
