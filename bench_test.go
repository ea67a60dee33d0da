package coerce

import (
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// Benchmarks of the public entry points against what callers do without
// this package. Every benchmark in the package is named
// Benchmark<What>/<case>/impl=<who>, so that `make bench` can put the
// implementations side by side (benchstat -col /impl) with ratios measured
// in one run; impl=encoding_json is the standard library doing the same
// job, or, where no job is the same, its nearest floor (json.Valid).

// The argument object of a Discord tool call, and 10 KB of API records
// (written by decDoc10KB; examples/compare reads the same file).
const benchSmall = `{"channel_id":"1458059302022549698","limit":10}`

func bench10KB(b *testing.B) string {
	data, err := os.ReadFile("testdata/bench/array10k.json")
	if err != nil {
		b.Fatal(err)
	}
	return string(data)
}

// errSink makes the *Error of the allocation floor escape, as returned
// errors do.
var errSink error

// A plain string declared object: the sniff rejects it in nanoseconds,
// where the naive fix in the seeds attempts a parse of every string.
func BenchmarkNotJSON(b *testing.B) {
	const text = "Select the files that matter most for the review."
	b.Run("case=prose/impl=coerce", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			ToDeclared(text, "object")
		}
	})
	// The same decision without building an error: Structured, for values
	// with no declared type, which answers (s, false).
	b.Run("case=prose-structured/impl=coerce", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			Structured(text)
		}
	})
	// The floor under the first case: the one allocation its error needs,
	// an *Error as fail builds it, and nothing else.
	b.Run("case=prose-error-alloc/impl=coerce", func(b *testing.B) {
		b.ReportAllocs()
		var v any = text
		for b.Loop() {
			errSink = &Error{Declared: "object", Value: v, Err: ErrKind, Detail: "not JSON text"}
		}
	})
	// Each case's baseline, measured beside it so that benchstat gives
	// every row its ratio: the parse attempt of the naive fix.
	for _, c := range []string{"prose", "prose-structured", "prose-error-alloc"} {
		b.Run("case="+c+"/impl=encoding_json", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				var v any
				_ = json.Unmarshal([]byte(text), &v)
			}
		})
	}
}

// JSON text declared object or array: ToDeclared on the string, against
// json.Unmarshal of the same text into any (which needs it as []byte).
func BenchmarkParse(b *testing.B) {
	for _, doc := range []struct{ name, text, declared string }{
		{"small", benchSmall, "object"},
		{"10KB", bench10KB(b), "array"},
	} {
		b.Run("doc="+doc.name+"/impl=coerce", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(doc.text)))
			for b.Loop() {
				if _, err := ToDeclared(doc.text, doc.declared); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("doc="+doc.name+"/impl=encoding_json", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(doc.text)))
			for b.Loop() {
				var v any
				if err := json.Unmarshal([]byte(doc.text), &v); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// parsed keeps what BenchmarkParseFloor builds, so that it is not optimized
// away.
var parsed any

// Parsing against the least its result can cost: impl=floor makes afresh
// the maps and slices of the value a parse returns, around the very leaves
// it returned (no text read, no string or number boxed), which any parser
// that returns map[string]any and []any must allocate and fill. How close
// parse is to it says how much a faster scanner could still win.
func BenchmarkParseFloor(b *testing.B) {
	for _, doc := range []struct{ name, text, declared string }{
		{"small", benchSmall, "object"},
		{"10KB", bench10KB(b), "array"},
	} {
		v, err := ToDeclared(doc.text, doc.declared)
		if err != nil {
			b.Fatal(err)
		}
		b.Run("doc="+doc.name+"/impl=coerce", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				parsed, _ = ToDeclared(doc.text, doc.declared)
			}
		})
		b.Run("doc="+doc.name+"/impl=floor", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				parsed = containersAfresh(v)
			}
		})
	}
}

// containersAfresh is v with new maps and slices of the same sizes and the
// same leaf values.
func containersAfresh(v any) any {
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = containersAfresh(e)
		}
		return m
	case []any:
		a := make([]any, len(x))
		for i, e := range x {
			a[i] = containersAfresh(e)
		}
		return a
	}
	return v
}

// A map or slice declared string: ToDeclared against json.Marshal and the
// conversion to string that a caller needs after it.
func BenchmarkToString(b *testing.B) {
	for _, doc := range []struct{ name, text string }{
		{"small", benchSmall},
		{"10KB", bench10KB(b)},
	} {
		var v any
		if err := json.Unmarshal([]byte(doc.text), &v); err != nil {
			b.Fatal(err)
		}
		b.Run("doc="+doc.name+"/impl=coerce", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := ToDeclared(v, "str"); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("doc="+doc.name+"/impl=encoding_json", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				text, err := json.Marshal(v)
				if err != nil {
					b.Fatal(err)
				}
				_ = string(text)
			}
		})
	}
}

// The typed input of a workflow step or tool, for BenchmarkUnmarshal.
type (
	benchTask struct {
		ID        string   `json:"id"`
		Title     string   `json:"title"`
		Priority  int      `json:"priority"`
		DependsOn []string `json:"depends_on,omitempty"`
	}
	benchInput struct {
		ServerName string            `json:"server_name"`
		ChannelID  int64             `json:"channel_id"`
		Limit      int               `json:"limit"`
		Notify     bool              `json:"notify"`
		Tags       []string          `json:"tags"`
		Tasks      []benchTask       `json:"tasks"`
		Headers    map[string]string `json:"headers,omitempty"`
	}
)

// benchUnmarshalDocs returns arguments that conform to benchInput, small and
// with 20 tasks, and the same 20 tasks as a workflow engine breaks them:
// tasks stringified, numbers and booleans as strings.
func benchUnmarshalDocs() (small, tasks, broken []byte) {
	small = []byte(`{"server_name":"discord","channel_id":1458059302022549698,"limit":10,"notify":true,"tags":["a","b"]}`)
	var list []benchTask
	for i := range 20 {
		t := benchTask{ID: "t" + strconv.Itoa(i), Title: "task number " + strconv.Itoa(i), Priority: i % 3}
		if i > 0 {
			t.DependsOn = []string{"t" + strconv.Itoa(i-1)}
		}
		list = append(list, t)
	}
	tasksJSON, _ := json.Marshal(list)
	quoted, _ := json.Marshal(string(tasksJSON))
	head := `{"server_name":"discord","channel_id":1458059302022549698,`
	tasks = []byte(head + `"limit":10,"notify":true,"tags":["a","b"],"tasks":` + string(tasksJSON) + `}`)
	broken = []byte(head + `"limit":"10","notify":"true","tags":"[\"a\",\"b\"]","tasks":` + string(quoted) + `}`)
	return small, tasks, broken
}

// Unmarshal into a typed input: on conforming text it costs a check of
// the text on top of json.Unmarshal; on broken text, against
// json.Unmarshal of the text as it should have been sent (the standard
// library cannot decode the broken text at all).
func BenchmarkUnmarshal(b *testing.B) {
	small, tasks, broken := benchUnmarshalDocs()
	for _, c := range []struct {
		name       string
		data, want []byte
	}{
		{"conforming-small", small, small},
		{"conforming-tasks", tasks, tasks},
		{"broken-tasks", broken, tasks},
	} {
		b.Run("case="+c.name+"/impl=coerce", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(c.data)))
			for b.Loop() {
				var in benchInput
				if err := Unmarshal(c.data, &in); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("case="+c.name+"/impl=encoding_json", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(c.data)))
			for b.Loop() {
				var in benchInput
				if err := json.Unmarshal(c.want, &in); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// The shapes an attacker steering a model's arguments would send, at 1x,
// 10x and 100x size: the time must grow 10x per step at most (linear), and
// README's hostile-input table is this benchmark's output.
func BenchmarkHostile(b *testing.B) {
	// Deep enough for the 100x shapes (10000 levels), which the default
	// MaxDepth would refuse at once.
	deep := Options{MaxDepth: 20000}
	arrays := mustSchema(b, deep, schemaArrayOfArrays)
	objects := mustSchema(b, deep, schemaObjectChain)
	var variants []string
	for _, k := range []string{"a", "b", "c", "d"} {
		variants = append(variants, `{"type":"object","properties":{"kind":{"const":"`+k+`"},
			"children":{"type":"array","items":{"$ref":"#/$defs/Node"}}},"required":["kind"]}`)
	}
	tree := mustSchema(b, Options{}, `{"$defs":{"Node":{"oneOf":[`+strings.Join(variants, ",")+`]}},
		"type":"object","properties":{"p":{"type":"array","items":{"$ref":"#/$defs/Node"}}}}`)
	unions := mustSchema(b, Options{}, `{"type":"object","properties":{"p":{"type":"array",
		"items":{"anyOf":[{"type":"array","items":{"type":"boolean"}},{"type":"array","items":{"type":"integer"}},{"type":"string"}]}}}}`)
	wide := mustSchema(b, Options{}, `{"type":"object","additionalProperties":{"oneOf":[
		{"type":"object","properties":{"id":{"type":"integer"}},"required":["id"],"additionalProperties":false},
		{"type":"object","properties":{"name":{"type":"string"}},"required":["name"],"additionalProperties":false}]}}`)
	node := `{"kind":"d","children":["{\"kind\":\"c\",\"children\":[]}"]}`

	type shape struct {
		name string
		run  func(b *testing.B, n int)
	}
	coerceJSON := func(s *Schema, text func(n int) string) func(b *testing.B, n int) {
		return func(b *testing.B, n int) {
			args := []byte(text(n))
			b.SetBytes(int64(len(args)))
			for b.Loop() {
				s.CoerceJSON(args)
			}
		}
	}
	repeat := func(n int, sep, item string) string {
		return strings.TrimSuffix(strings.Repeat(item+sep, n), sep)
	}
	for _, sh := range []shape{
		{"deep-array-failing-at-the-bottom", coerceJSON(arrays, func(n int) string {
			return `{"p":` + strings.Repeat("[", 100*n) + `"x"` + strings.Repeat("]", 100*n) + `}`
		})},
		{"deep-object-failing-at-the-bottom", coerceJSON(objects, func(n int) string {
			return `{"p":` + strings.Repeat(`{"a":`, 100*n) + `"x"` + strings.Repeat("}", 100*n) + `}`
		})},
		{"union-tree-in-nested-json-text", coerceJSON(tree, func(n int) string {
			return `{"p":[` + repeat(10*n, ",", node) + `]}`
		})},
		{"long-array-of-unions", coerceJSON(unions, func(n int) string {
			return `{"p":[` + repeat(100*n, ",", `["true","1"],"[1, 2]"`) + `]}`
		})},
		{"wide-object-of-unions", coerceJSON(wide, func(n int) string {
			var s strings.Builder
			for i := range 100 * n {
				if i > 0 {
					s.WriteByte(',')
				}
				fmt.Fprintf(&s, `"k%d":{"id":"%d"}`, i, i)
			}
			return "{" + s.String() + "}"
		})},
		{"cycle", func(b *testing.B, n int) {
			s := make([]any, 2*n)
			for i := range s {
				s[i] = s
			}
			t := recursiveList()
			for b.Loop() {
				ToType(s, t)
			}
		}},
		{"feedback-of-a-doubling-union-schema", func(b *testing.B, n int) {
			// A union that names the next type twice at each level, 3
			// levels per 1x: the feedback for one missing argument.
			s := mustSchema(b, Options{}, doublingUnionSchema(3*n))
			err := s.Check(map[string]any{})
			for b.Loop() {
				s.Feedback(err)
			}
		}},
		{"check-of-shared-maps", func(b *testing.B, n int) {
			// Go maps holding the same child twice, 10 levels per 1x:
			// Check stops at MaxWork, as coercion does.
			s := mustSchema(b, Options{}, `{"$defs":{"n":{"type":"object","properties":{"a":{"$ref":"#/$defs/n"},"b":{"$ref":"#/$defs/n"},"e":{"enum":["x"]}}}},"$ref":"#/$defs/n"}`)
			v := map[string]any{"e": "x"}
			for range 10 * n {
				v = map[string]any{"a": v, "b": v, "e": "x"}
			}
			for b.Loop() {
				s.Check(v)
			}
		}},
		{"typed-go-value-too-deep", func(b *testing.B, n int) {
			v := nestedSlice{}
			for range 1000 * n {
				v = nestedSlice{v}
			}
			for b.Loop() {
				ToDeclared(v, "str")
			}
		}},
	} {
		for _, n := range []int{1, 10, 100} {
			b.Run("shape="+sh.name+"/size="+strconv.Itoa(n)+"x/impl=coerce", func(b *testing.B) {
				b.ReportAllocs()
				sh.run(b, n)
			})
		}
	}
}

// The change report costs nothing while Options.OnChange is unset: the
// same call with and without a callback, on arguments that conform (no
// change to report either way) and on arguments as LLM clients send them.
func BenchmarkChangeReport(b *testing.B) {
	plain := mustSchema(b, Options{}, "pydantic-create-issue.json")
	changes := 0
	reported := plain.WithOptions(Options{OnChange: func(Change) { changes++ }})
	for _, c := range []struct{ name, args string }{
		{"conforming", createIssueArgs},
		{"broken", createIssueBrokenArgs},
	} {
		args := []byte(c.args)
		for _, r := range []struct {
			name string
			s    *Schema
		}{{"unset", plain}, {"set", reported}} {
			b.Run("case="+c.name+"/report="+r.name+"/impl=coerce", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := r.s.CoerceJSON(args); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkCallCheck is what the MCP adapters do with a call that passes:
// CoerceJSON alone, and CoerceJSON then CheckJSON, the check they make
// before the handler (required, closed and enum keywords all present).
func BenchmarkCallCheck(b *testing.B) {
	checked := mustSchema(b, Options{}, `{"type":"object","additionalProperties":false,"required":["owner","repo","title"],
		"properties":{"owner":{"type":"string"},"repo":{"type":"string"},"title":{"type":"string"},"body":{"type":"string"},
		"state":{"enum":["open","closed"]},"labels":{"type":"array","items":{"type":"string"}},"milestone":{"type":["integer","null"]},
		"assignees":{"type":"array","items":{"type":"string"}},"draft":{"type":"boolean"},"priority":{"enum":[1,2,3]}}}`)
	args := []byte(`{"owner":"octo","repo":"hello","title":"Bug","body":"It breaks.","state":"open","labels":["bug","p1"],"milestone":3,"assignees":["a"],"draft":false,"priority":2}`)
	b.Run("case=conforming/impl=coerce", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := checked.CoerceJSON(args); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("case=conforming/impl=coerce+check", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			out, err := checked.CoerceJSON(args)
			if err == nil {
				err = checked.CheckJSON(out)
			}
			if err != nil {
				b.Fatal(err)
			}
		}
	})
	// Options.Check: the same answer, the conforming call read once.
	checking := checked.WithOptions(Options{Check: true})
	b.Run("case=conforming/impl=coerce-check-mode", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := checking.CoerceJSON(args); err != nil {
				b.Fatal(err)
			}
		}
	})
	// The same call as Go values, for Coerce and Check.
	var values map[string]any
	if err := json.Unmarshal(args, &values); err != nil {
		b.Fatal(err)
	}
	b.Run("case=conforming-values/impl=coerce", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := checked.Coerce(values); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("case=conforming-values/impl=coerce+check", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			out, err := checked.Coerce(values)
			if err == nil {
				err = checked.Check(out)
			}
			if err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("case=conforming-values/impl=coerce-check-mode", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := checking.Coerce(values); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// Cost per level of nesting, at depth 100 and 10000: JSON text declared
// list parsed to a value, and that value declared str written as text.
// The per-level cost should not grow with depth (the codec keeps no
// per-level state beyond a stack that grows by appending). Each row holds
// only its own values: the value the encode rows write is built in them,
// so that the decode rows' garbage collections do not also mark it.
func BenchmarkDepth(b *testing.B) {
	for _, depth := range []int{100, 10000} {
		text := strings.Repeat("[", depth) + "1" + strings.Repeat("]", depth)
		o := Options{MaxDepth: depth + 1}
		name := "depth=" + strconv.Itoa(depth)
		for _, c := range []struct {
			name string
			run  func(v any) error
		}{
			{"op=decode/" + name + "/impl=coerce", func(any) error {
				_, err := o.ToDeclared(text, "list")
				return err
			}},
			{"op=decode/" + name + "/impl=encoding_json", func(any) error {
				var v any
				return json.Unmarshal([]byte(text), &v)
			}},
			{"op=encode/" + name + "/impl=coerce", func(v any) error {
				_, err := o.ToDeclared(v, "str")
				return err
			}},
			{"op=encode/" + name + "/impl=encoding_json", func(v any) error {
				text, err := json.Marshal(v)
				_ = string(text)
				return err
			}},
		} {
			b.Run(c.name, func(b *testing.B) {
				var v any // the value to write, for the encode rows
				if strings.HasPrefix(c.name, "op=encode/") {
					var err error
					if v, err = o.ToDeclared(text, "list"); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportAllocs()
				for b.Loop() {
					if err := c.run(v); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// Bytes allocated to write a large value as JSON text, against the size
// of the text (out-B/op): the encoder should allocate the output and
// little more, however large it is. pool=warm is a call in a loop, whose
// buffers the previous calls left in their pools; pool=cold a call that
// finds the pools empty, as the first does, or one after the GC emptied
// them (two collections before each call, outside the timer and the
// allocation count).
func BenchmarkEncodeSize(b *testing.B) {
	one := bench10KB(b)
	var record []any
	if err := json.Unmarshal([]byte(one), &record); err != nil {
		b.Fatal(err)
	}
	for _, size := range []struct {
		name string
		n    int
	}{{"64KB", 64 << 10}, {"1MB", 1 << 20}} {
		var v []any
		for n := 0; n < size.n; n += len(one) {
			v = append(v, record...)
		}
		for _, pool := range []string{"warm", "cold"} {
			for _, impl := range []struct {
				name   string
				encode func() (string, error)
			}{
				{"coerce", func() (string, error) {
					out, err := ToDeclared(v, "str")
					s, _ := out.(string)
					return s, err
				}},
				{"encoding_json", func() (string, error) {
					text, err := json.Marshal(v)
					return string(text), err
				}},
			} {
				b.Run("size="+size.name+"/pool="+pool+"/impl="+impl.name, func(b *testing.B) {
					b.ReportAllocs()
					var out string
					for range b.N {
						if pool == "cold" {
							b.StopTimer()
							runtime.GC()
							runtime.GC() // a sync.Pool is empty after two
							b.StartTimer()
						}
						var err error
						if out, err = impl.encode(); err != nil {
							b.Fatal(err)
						}
					}
					b.ReportMetric(float64(len(out)), "out-B/op")
				})
			}
		}
	}
}
