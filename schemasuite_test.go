package coerce

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestJSONSchemaSuite runs the official JSON Schema Test Suite, vendored in
// testdata/jsonschema-suite with its LICENSE, against the contract that a
// value the schema accepts comes back untouched: every instance the suite
// marks valid must pass Coerce (numbers as float64, and as json.Number with
// UseNumber) and CoerceJSON (its exact bytes) without error and without
// change. The instances marked invalid are not coercion's business: it is
// not a validator.
//
// Each group's schema S becomes the one parameter p of an argument set,
// {"type": "object", "properties": {"p": S}}, with its local $refs moved
// along ("#/$defs/a" becomes "#/properties/p/$defs/a") and its $schema
// moved to the root, where ParseSchema reads it; a draft-07 group's root
// declares draft-07, so that the siblings of $ref are ignored as that draft
// says. A group is skipped when it needs what a single self-contained
// schema cannot give: suiteSkipRules say which, and suiteSkips lists the
// groups a rule cannot tell.
//
// Run with -v to see each skip with its reason and, at the end, one summary
// line per draft.
func TestJSONSchemaSuite(t *testing.T) {
	root := filepath.Join("testdata", "jsonschema-suite", "tests")
	var summaries []string
	for _, d := range suiteDrafts {
		files := suiteFiles(t, filepath.Join(root, d.dir))
		var n suiteCounts
		t.Run(d.dir, func(t *testing.T) {
			for _, file := range files {
				name := strings.TrimSuffix(file, ".json")
				groups := readJSON[[]suiteGroup](t, filepath.Join(root, d.dir, filepath.FromSlash(file)))
				if reason := suiteFileSkip(file); reason != "" {
					n.skipped += len(groups)
					t.Run(name, func(t *testing.T) { t.Skip(reason) })
					continue
				}
				t.Run(name, func(t *testing.T) {
					for _, g := range groups {
						runSuiteGroup(t, d, name, g, &n)
					}
				})
			}
		})
		summaries = append(summaries, fmt.Sprintf("JSON Schema Test Suite %s: %d groups run, %d skipped; %d valid instances run, %d passed, %d failed",
			d.dir, n.groups, n.skipped, n.instances, n.passed, n.instances-n.passed))
	}
	for _, s := range summaries {
		t.Log(s)
	}
}

// A suiteDraft is one folder of the suite and the $schema its groups are
// written for.
type suiteDraft struct {
	dir string
	// uri is what the wrapper's root declares when the group itself does
	// not; empty leaves it undeclared (ParseSchema's default, 2020-12).
	uri string
	// own lists the $schema values that name this draft.
	own []string
}

var suiteDrafts = []suiteDraft{
	{
		dir: "draft2020-12",
		own: []string{"https://json-schema.org/draft/2020-12/schema", "https://json-schema.org/draft/2020-12/schema#"},
	},
	{
		dir: "draft7",
		uri: "http://json-schema.org/draft-07/schema#",
		own: []string{"http://json-schema.org/draft-07/schema#", "http://json-schema.org/draft-07/schema"},
	},
}

type suiteCounts struct {
	groups, skipped, instances, passed int
}

type suiteGroup struct {
	Description string          `json:"description"`
	Schema      json.RawMessage `json:"schema"`
	Tests       []suiteTest     `json:"tests"`
}

type suiteTest struct {
	Description string `json:"description"`
	// Data keeps the instance's bytes as the suite writes them, so that
	// CoerceJSON sees big numbers with all their digits.
	Data  json.RawMessage `json:"data"`
	Valid bool            `json:"valid"`
}

// suiteSkips lists by draft/file/group, with the reason, the groups that
// suiteSkipRules let through but that cannot run as one parameter of a
// self-contained schema. There are none: every group the rules let through
// runs.
var suiteSkips = map[string]string{}

// suiteFileSkips lists the files (or folders, ending in /) that are skipped
// whole, with the reason.
var suiteFileSkips = map[string]string{
	"optional/format/": "format assertion, optional in the suite; format is no concern of coercion, which ignores it",
}

func suiteFileSkip(file string) string {
	for prefix, reason := range suiteFileSkips {
		if file == prefix || strings.HasSuffix(prefix, "/") && strings.HasPrefix(file, prefix) {
			return reason
		}
	}
	return ""
}

// suiteFiles lists the .json files under dir, with slash-separated paths
// relative to it, in order.
func suiteFiles(t *testing.T, dir string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() || !strings.HasSuffix(p, ".json") {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		files = append(files, filepath.ToSlash(rel))
		return err
	})
	if err != nil || len(files) == 0 {
		t.Fatalf("no suite files in %s: %v", dir, err)
	}
	slices.Sort(files)
	return files
}

func runSuiteGroup(t *testing.T, d suiteDraft, file string, g suiteGroup, n *suiteCounts) {
	var valid []suiteTest
	for _, c := range g.Tests {
		if c.Valid {
			valid = append(valid, c)
		}
	}
	schema := mustUseNumber(t, g.Schema) // numbers in const and enum keep their digits
	reason := suiteSkips[d.dir+"/"+file+"/"+g.Description]
	if reason == "" {
		reason = suiteSkipReason(d, schema)
	}
	if reason != "" {
		n.skipped++
		t.Run(g.Description, func(t *testing.T) { t.Skip(reason) })
		return
	}
	n.groups++
	wrapper := wrapSuiteSchema(t, d, schema)
	t.Run(g.Description, func(t *testing.T) {
		s, err := ParseSchema(wrapper)
		if err == nil {
			var sNum *Schema
			sNum, err = Options{UseNumber: true}.ParseSchema(wrapper)
			if err == nil {
				for _, c := range valid {
					n.instances++
					if t.Run(c.Description, func(t *testing.T) { checkSuiteInstance(t, s, sNum, c.Data) }) {
						n.passed++
					}
				}
				return
			}
		}
		n.instances += len(valid) // run, and failed with the schema
		t.Fatalf("ParseSchema(%s): %v", wrapper, err)
	})
}

// checkSuiteInstance checks that the argument set {"p": data} comes back
// untouched, without error, from each way of coercing it.
func checkSuiteInstance(t *testing.T, s, sNum *Schema, data json.RawMessage) {
	text := []byte(`{"p":` + string(data) + `}`)

	for _, useNumber := range []bool{false, true} {
		how, schema, args := "Coerce", s, decodeArgs(t, string(text))
		if useNumber {
			how, schema, args = "Coerce (UseNumber)", sNum, mustUseNumber(t, text).(map[string]any)
		}
		p := args["p"]
		before := deepCopy(args)
		got, err := schema.Coerce(args)
		switch {
		case err != nil:
			t.Errorf("%s(%s): %v", how, data, err)
		case !identical(got, args) || !identical(got["p"], p):
			t.Errorf("%s(%s) changed it: p = %s", how, data, suiteShow(got["p"]))
		}
		if !reflect.DeepEqual(args, before) {
			t.Errorf("%s(%s) modified its input: now %s", how, data, suiteShow(args["p"]))
		}
	}

	got, err := s.CoerceJSON(text)
	switch {
	case err != nil:
		t.Errorf("CoerceJSON(%s): %v", text, err)
	case !identical(got, text):
		t.Errorf("CoerceJSON(%s) = %s, want the same bytes, not a copy", text, got)
	}
}

// suiteShow writes a result for a failure message, with the Go type of a
// scalar that JSON alone would not tell apart.
func suiteShow(v any) string {
	text, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%#v", v)
	}
	switch v.(type) {
	case map[string]any, []any, nil:
		return string(text)
	}
	return fmt.Sprintf("%s (%T)", text, v)
}

// suiteParam is the parameter each group's schema becomes, and suiteRefBase
// the pointer to it that its local $refs start with.
const (
	suiteParam   = "p"
	suiteRefBase = "#/properties/" + suiteParam
)

// wrapSuiteSchema writes the argument-set schema whose one parameter has
// the group's schema (decoded by mustUseNumber, and changed here).
func wrapSuiteSchema(t *testing.T, d suiteDraft, schema any) []byte {
	t.Helper()
	wrapper := map[string]any{"type": "object"}
	if d.uri != "" {
		wrapper["$schema"] = d.uri
	}
	if m, ok := schema.(map[string]any); ok {
		if uri, ok := m["$schema"]; ok {
			wrapper["$schema"] = uri
			delete(m, "$schema")
		}
	}
	eachSubschema(schema, true, func(m map[string]any, _ bool) string {
		if ref, ok := m["$ref"].(string); ok && strings.HasPrefix(ref, "#") {
			m["$ref"] = suiteRefBase + ref[1:]
		}
		return ""
	})
	wrapper["properties"] = map[string]any{suiteParam: schema}
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false) // patterns keep their < and >, as written
	if err := e.Encode(wrapper); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSpace(b.Bytes())
}

// suiteSkipRules say which groups cannot run as one parameter of a
// self-contained schema, and why: a schema that refers to a document
// outside itself, names a part of itself by anything but a JSON Pointer
// from its root, or is written for another draft or vocabulary. Each rule
// looks at one schema object of the group (root says whether it is the
// group's schema itself) and returns what it found, or "".
var suiteSkipRules = []struct {
	reason string
	found  func(d suiteDraft, m map[string]any, root bool) string
}{
	{
		"a $ref to another document, which the suite serves from a network",
		func(_ suiteDraft, m map[string]any, _ bool) string {
			if ref, ok := m["$ref"].(string); ok && !strings.HasPrefix(ref, "#") {
				return ref
			}
			return ""
		},
	},
	{
		"a $ref to an anchor, a name that ParseSchema does not resolve",
		func(_ suiteDraft, m map[string]any, _ bool) string {
			if ref, ok := m["$ref"].(string); ok && ref != "#" && strings.HasPrefix(ref, "#") && !strings.HasPrefix(ref, "#/") {
				return ref
			}
			return ""
		},
	},
	{
		"an identifier below the root, which changes the base the $refs under it resolve against",
		func(_ suiteDraft, m map[string]any, root bool) string {
			if root {
				return ""
			}
			if id, ok := m["$id"]; ok {
				return fmt.Sprint("$id ", id)
			}
			if id, ok := m["id"].(string); ok {
				return "id " + id
			}
			return ""
		},
	},
	{
		"anchors and dynamic or recursive references, which a JSON Pointer cannot stand for",
		func(_ suiteDraft, m map[string]any, _ bool) string {
			for _, k := range []string{"$anchor", "$dynamicRef", "$dynamicAnchor", "$recursiveRef", "$recursiveAnchor"} {
				if _, ok := m[k]; ok {
					return k
				}
			}
			return ""
		},
	},
	{
		"a $schema of another draft or vocabulary, or one below the root (an embedded document)",
		func(d suiteDraft, m map[string]any, root bool) string {
			uri, ok := m["$schema"]
			if !ok {
				if _, ok := m["$vocabulary"]; ok {
					return "$vocabulary"
				}
				return ""
			}
			if s, _ := uri.(string); !root || !slices.Contains(d.own, s) {
				return fmt.Sprint("$schema ", uri)
			}
			return ""
		},
	},
}

// suiteSkipReason gives the reason of the first rule of suiteSkipRules
// that finds something in the group's schema, or "".
func suiteSkipReason(d suiteDraft, schema any) string {
	for _, r := range suiteSkipRules {
		found := eachSubschema(schema, true, func(m map[string]any, root bool) string { return r.found(d, m, root) })
		if found != "" {
			return r.reason + ": " + found
		}
	}
	return ""
}

// eachSubschema calls f on schema and each schema object within it, in a
// fixed order, until f returns a non-empty string, which it returns. It
// knows which keywords hold values rather than schemas (const, enum,
// default, examples) and which hold schemas by name (properties, $defs,
// ...), so that a property called "$ref" or an "$id" inside an enum value
// are not taken for keywords. Other keywords, unknown ones included, are
// searched for schemas, as the suite's refOfUnknownKeyword tests expect.
func eachSubschema(schema any, root bool, f func(m map[string]any, root bool) string) string {
	switch s := schema.(type) {
	case []any:
		for _, e := range s {
			if r := eachSubschema(e, false, f); r != "" {
				return r
			}
		}
		return ""
	case map[string]any:
		if r := f(s, root); r != "" {
			return r
		}
		for _, k := range slices.Sorted(maps.Keys(s)) {
			switch k {
			case "const", "enum", "default", "examples":
				continue
			case "properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies":
				if named, ok := s[k].(map[string]any); ok {
					for _, name := range slices.Sorted(maps.Keys(named)) {
						if r := eachSubschema(named[name], false, f); r != "" {
							return r
						}
					}
					continue
				}
			}
			if r := eachSubschema(s[k], false, f); r != "" {
				return r
			}
		}
	}
	return ""
}
