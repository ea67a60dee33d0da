package compare

import (
	"encoding/json"
	"maps"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/coerce-go/coerce"
)

// Benchmarks are named Benchmark<What>/<case>/impl=<who>: coerce,
// encoding_json, go_json, segmentio or sonic. Each row's implementations run here, one after
// the other, on the same bytes; `make bench` alternates the rounds.

func mustSchema(tb testing.TB, text string) *coerce.Schema {
	tb.Helper()
	s, err := coerce.ParseSchema([]byte(text))
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

func decode(tb testing.TB, text []byte) map[string]any {
	tb.Helper()
	var v map[string]any
	if err := json.Unmarshal(text, &v); err != nil {
		tb.Fatal(err)
	}
	return v
}

// The repairs by hand are what they claim: each gives what coerce gives,
// with either codec, so that the benchmarks compare the same work.
func TestHandFixesMatchCoerce(t *testing.T) {
	for _, c := range []struct {
		name, schema, call string
		fix                func(map[string]any, codec) error
	}{
		{"quickstart", quickstartSchema, quickstartCall, FixQuickstart},
		{"numeric", numericSchema, numericCall, func(m map[string]any, _ codec) error { return FixNumeric(m) }},
		{"arrays", arraysSchema, arraysCall, FixArrays},
	} {
		want, err := mustSchema(t, c.schema).CoerceJSON([]byte(c.call))
		if err != nil {
			t.Fatal(err)
		}
		for _, cd := range peers {
			got, err := RepairJSON([]byte(c.call), cd.c, func(m map[string]any) error { return c.fix(m, cd.c) })
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(decode(t, got), decode(t, want)) {
				t.Errorf("%s with %s: %s, coerce %s", c.name, cd.impl, got, want)
			}
		}
	}
}

func BenchmarkRepairArgsJSON(b *testing.B) {
	for _, c := range []struct {
		name, schema, call string
		fix                func(map[string]any, codec) error
	}{
		{"mcp-call", quickstartSchema, quickstartCall, FixQuickstart},
		{"numeric-call", numericSchema, numericCall, func(m map[string]any, _ codec) error { return FixNumeric(m) }},
		{"arrays-call", arraysSchema, arraysCall, FixArrays},
	} {
		schema := mustSchema(b, c.schema)
		raw := []byte(c.call)
		b.Run("case="+c.name+"/impl=coerce", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := schema.CoerceJSON(raw); err != nil {
					b.Fatal(err)
				}
			}
		})
		for _, cd := range peers {
			b.Run("case="+c.name+"/impl="+cd.impl, func(b *testing.B) {
				b.ReportAllocs()
				fix := func(m map[string]any) error { return c.fix(m, cd.c) }
				for b.Loop() {
					if _, err := RepairJSON(raw, cd.c, fix); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// Decoded arguments: Schema.Coerce against the fix alone (on a copy, as
// coerce copies what it changes), with each codec for the JSON text inside.
func BenchmarkRepairArgs(b *testing.B) {
	schema := mustSchema(b, quickstartSchema)
	args := decode(b, []byte(quickstartCall))
	b.Run("case=mcp-call/impl=coerce", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := schema.Coerce(args); err != nil {
				b.Fatal(err)
			}
		}
	})
	for _, cd := range peers {
		b.Run("case=mcp-call/impl="+cd.impl, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := FixQuickstart(maps.Clone(args), cd.c); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// passThroughArgs are argument sets that conform as they are, with their
// schemas: the cost of every call that needs nothing.
func passThroughArgs() []struct{ name, schema, args string } {
	words := "select the files that matter most for the review"
	var sp, sa, np, na []string
	for i := range 10 {
		sp = append(sp, `"s`+strconv.Itoa(i)+`": {"type": "string"}`)
		sa = append(sa, `"s`+strconv.Itoa(i)+`": "`+words+` `+strconv.Itoa(i)+`"`)
		typ, val := "integer", strconv.Itoa(1458059302022549698+i)
		if i%2 == 1 {
			typ, val = "number", strconv.Itoa(i)+".125e3"
		}
		np = append(np, `"n`+strconv.Itoa(i)+`": {"type": "`+typ+`"}`)
		na = append(na, `"n`+strconv.Itoa(i)+`": `+val)
	}
	big := strings.Repeat(words+`\n`, (1<<20)/(len(words)+2))
	// records: an array of twenty short objects.
	var recs []string
	for i := range 20 {
		n := strconv.Itoa(i + 1)
		recs = append(recs, `{"id": "t`+n+`", "title": "task number `+n+`", "priority": `+strconv.Itoa(i%4)+`, "done": `+strconv.FormatBool(i%3 == 0)+`}`)
	}
	// short: ten short parameters, five strings and five small integers.
	var shp, sha []string
	for i := range 5 {
		n := strconv.Itoa(i)
		shp = append(shp, `"s`+n+`": {"type": "string"}`, `"k`+n+`": {"type": "integer"}`)
		sha = append(sha, `"s`+n+`": "v`+n+`"`, `"k`+n+`": `+strconv.Itoa(3*i+1))
	}
	return []struct{ name, schema, args string }{
		{"strings", `{"type": "object", "properties": {` + strings.Join(sp, ", ") + `}}`, "{" + strings.Join(sa, ", ") + "}"},
		{"numbers", `{"type": "object", "properties": {` + strings.Join(np, ", ") + `}}`, "{" + strings.Join(na, ", ") + "}"},
		{"1MB", `{"type": "object", "properties": {"path": {"type": "string"}, "content": {"type": "string"}}}`,
			`{"path": "README.md", "content": "` + big + `"}`},
		{"records", `{"type": "object", "properties": {"records": {"type": "array", "items": {"type": "object", "properties": {` +
			`"id": {"type": "string"}, "title": {"type": "string"}, "priority": {"type": "integer"}, "done": {"type": "boolean"}}}}}}`,
			`{"records": [` + strings.Join(recs, ", ") + `]}`},
		{"short", `{"type": "object", "properties": {` + strings.Join(shp, ", ") + `}}`, "{" + strings.Join(sha, ", ") + "}"},
		// The quickstart's call as a client that follows the schema sends it.
		{"quickstart", quickstartSchema, `{"server_name": "discord", "path_params": "{\"channel_id\": \"1458059302022549698\"}", ` +
			`"group_by": ["type"], "limit": 10, "notify": true, "config": {"depth": 2}}`},
	}
}

// CoerceJSON on arguments that conform reads them once and returns them:
// against the least any server does with raw arguments, validating them.
func BenchmarkPassThrough(b *testing.B) {
	for _, c := range passThroughArgs() {
		schema := mustSchema(b, c.schema)
		raw := []byte(c.args)
		if out, err := schema.CoerceJSON(raw); err != nil || &out[0] != &raw[0] {
			b.Fatalf("%s: the arguments do not conform: %v", c.name, err)
		}
		b.Run("args="+c.name+"/impl=coerce", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(raw)))
			for b.Loop() {
				schema.CoerceJSON(raw)
			}
		})
		for _, cd := range []struct {
			impl string
			c    codec
		}{{"encoding_json", stdCodec}, {"go_json", goCodec}, {"segmentio", segCodec}, {"sonic", sonicCodec}} {
			b.Run("args="+c.name+"/impl="+cd.impl, func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(raw)))
				for b.Loop() {
					if !cd.c.valid(raw) {
						b.Fatal("invalid")
					}
				}
			})
		}
	}
}
