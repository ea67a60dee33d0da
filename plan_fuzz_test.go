package coerce

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
)

// planSchema is the schema a fuzz seed stands for: two parameters of
// generated types (unions, nullable, lists, dicts, scalars, objects with
// keywords), as TestPropertiesOfSchemas makes them, and sometimes a
// pattern for the other keys.
func planSchema(seed uint64) (*Schema, []byte, gen) {
	g := gen{r: rand.New(rand.NewPCG(seed, seed>>32|1))}
	p, q := g.typ(3), g.typ(2)
	doc := map[string]any{"type": "object", "properties": map[string]any{"p": p.schema(), "q": q.schema()}}
	if seed%3 == 0 {
		doc["patternProperties"] = map[string]any{"^x": g.typ(2).schema(), "^[a-z]$": g.typ(1).schema()}
	}
	text, _ := json.Marshal(doc)
	s, err := ParseSchema(text)
	if err != nil {
		panic(fmt.Sprintf("%s: %v", text, err))
	}
	return s, text, g
}

// FuzzPlanDifferential holds the entry points together on random schemas
// and random argument text: Coerce on the decoded text and CoerceJSON on
// the text agree on results, error paths and sentinels; ToType on each
// parameter agrees with both; and Unmarshal equals json.Unmarshal on text
// that conforms.
func FuzzPlanDifferential(f *testing.F) {
	for seed := range uint64(40) {
		_, _, g := planSchema(seed)
		p, q := g.typ(3), g.typ(2)
		args := map[string]any{"p": g.value(p, 3), "q": g.value(q, 3), "xy": g.any(2), "z": "5"}
		text, err := json.Marshal(args)
		if err != nil {
			continue
		}
		f.Add(seed, text)
		// The same values as JSON text in strings: a model's favourite.
		for k, v := range args {
			if b, err := json.Marshal(v); err == nil {
				args[k] = string(b)
			}
		}
		if text, err := json.Marshal(args); err == nil {
			f.Add(seed, text)
		}
	}
	f.Add(uint64(7), []byte(`{"p":"[1,\"2\",{\"a\":\"5\"}]","q":{"\u0070":1,"p":"x"},"p":null}`))
	f.Add(uint64(9), []byte(`{"p":1e400,"q":"9223372036854775808.0","x1":[true,"false"],"a":"1"}`))
	// JSON text in a fence, with spaces around it, encoded once more, in
	// chat-template tokens, near-JSON; words for booleans: each way of
	// rawText and rawScalarInto.
	for _, args := range []map[string]any{
		{"p": "```json\n[1, {\"a\": true}]\n```", "q": " {\"b\": \"2\"} ", "z": "true"},
		{"p": `"[1,2]"`, "q": `<tool>{"a": 1}</tool>`, "xy": "false", "z": "TRUE"},
		{"p": "```\r\n{}\n```", "q": "[1,]", "z": "false"},
		{"p": "```json\n```", "q": "```js\n\"x\"\n```", "z": " true"},
	} {
		text, _ := json.Marshal(args)
		for seed := range uint64(12) {
			f.Add(seed, text)
		}
	}

	f.Fuzz(func(t *testing.T, seed uint64, args []byte) {
		s, schemaText, _ := planSchema(seed % 1000)
		if !json.Valid(args) {
			return // refusal is FuzzSchemaCoerce's
		}
		v, err := decodeJSON(args, false, 0)
		m, ok := v.(map[string]any)
		if err != nil || !ok {
			return
		}
		name := fmt.Sprintf("%s <- %s", schemaText, args)

		got, cerr := s.Coerce(m)
		text, jerr := s.CoerceJSON(args)
		if errPaths(cerr) != errPaths(jerr) {
			t.Fatalf("%s:\nCoerce fails at %s\nCoerceJSON at %s\n(%v\n%v)", name, errPaths(cerr), errPaths(jerr), cerr, jerr)
		}
		back, derr := decodeJSON(text, false, 0)
		if derr != nil {
			t.Fatalf("%s: CoerceJSON wrote %s: %v", name, text, derr)
		}
		if d := valueMismatch(back, any(got), byValue); d != "" {
			t.Fatalf("%s:\nCoerceJSON = %s\nCoerce     = %s\n%s", name, text, asJSON(got), d)
		}

		// Each parameter alone, against its declared type, once the rules
		// of names and nulls have renamed and removed what they do (their
		// own agreement is checked above, by the two entry points).
		edited, _ := s.opts.applyKeyEdits(s.params, m)
		var leaves []string
		for k, e := range edited {
			pt, ok := s.Lookup(k)
			if !ok {
				continue
			}
			out, err := ToType(e, pt)
			if d := valueMismatch(out, got[k], byValue); d != "" {
				t.Fatalf("%s: ToType of %q = %s, Coerce gave %s: %s", name, k, asJSON(out), asJSON(got[k]), d)
			}
			for _, e := range errorLeaves(err) {
				leaves = append(leaves, pointerToken(k)+e.Path+" "+sentinelName(e.Err))
			}
		}
		var want []string
		for _, e := range errorLeaves(cerr) {
			want = append(want, e.Path+" "+sentinelName(e.Err))
		}
		if !sameSet(leaves, want) {
			t.Fatalf("%s: ToType per parameter fails at %q, Coerce at %q", name, leaves, want)
		}

		// Text that conforms decodes as encoding/json decodes it.
		if cerr == nil && string(text) == string(args) {
			var a, b map[string]any
			aerr, berr := Unmarshal(args, &a), json.Unmarshal(args, &b)
			// On error json.Unmarshal may have written part of its value;
			// Unmarshal writes nothing (its contract): only success compares.
			if (aerr == nil) != (berr == nil) || aerr == nil && !reflect.DeepEqual(a, b) || aerr != nil && a != nil {
				t.Fatalf("%s: Unmarshal = %v, %v; json.Unmarshal = %v, %v", name, a, aerr, b, berr)
			}
		}
	})
}

func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	count := map[string]int{}
	for _, s := range a {
		count[s]++
	}
	for _, s := range b {
		if count[s]--; count[s] < 0 {
			return false
		}
	}
	return true
}
