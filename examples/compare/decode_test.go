package compare

import (
	"encoding/json"
	"os"
	"reflect"
	"strconv"
	"testing"

	"github.com/coerce-go/coerce"
)

// Typed decode, JSON text to a value, and a value to JSON text: coerce
// against encoding/json and each fast library doing the same job. The
// root's BenchmarkUnmarshal, BenchmarkParse and BenchmarkToString measure
// the same against encoding/json alone; here every row has its peers.

// The typed input of a workflow step or tool: the root's bench_test.go
// types, copied.
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

// An unmarshal case: coerce.Unmarshal reads data, the peers read want,
// the text as it should have been sent (the same text, where data
// conforms).
type unmarshalCase struct {
	name       string
	data, want []byte
}

// unmarshalCases are the root's BenchmarkUnmarshal documents (small, 20
// tasks, and the 20 tasks as a workflow engine breaks them: tasks
// stringified, numbers and booleans as strings), and conforming documents
// of about 10 KB and 1 MB of tasks.
func unmarshalCases() []unmarshalCase {
	const head = `{"server_name":"discord","channel_id":1458059302022549698,`
	small := []byte(head + `"limit":10,"notify":true,"tags":["a","b"]}`)
	// n tasks, or as many as size bytes hold, when n is 0.
	tasks := func(n, size int) []byte {
		var list []benchTask
		for i, text := 0, 2; n > 0 && i < n || n == 0 && text < size; i++ {
			t := benchTask{ID: "t" + strconv.Itoa(i), Title: "task number " + strconv.Itoa(i), Priority: i % 3}
			if i > 0 {
				t.DependsOn = []string{"t" + strconv.Itoa(i-1)}
			}
			list = append(list, t)
			one, _ := json.Marshal(t)
			text += len(one) + 1
		}
		text, _ := json.Marshal(list)
		return text
	}
	doc := func(tasks []byte) []byte {
		return []byte(head + `"limit":10,"notify":true,"tags":["a","b"],"tasks":` + string(tasks) + `}`)
	}
	tasks20 := tasks(20, 0)
	quoted, _ := json.Marshal(string(tasks20))
	broken := []byte(head + `"limit":"10","notify":"true","tags":"[\"a\",\"b\"]","tasks":` + string(quoted) + `}`)
	kb10, mb1 := doc(tasks(0, 10<<10)), doc(tasks(0, 1<<20))
	return []unmarshalCase{
		{"small", small, small},
		{"tasks", doc(tasks20), doc(tasks20)},
		{"10KB", kb10, kb10},
		{"1MB", mb1, mb1},
		{"broken-tasks", broken, doc(tasks20)},
	}
}

// checkUnmarshal fails unless every peer decodes the case's text to what
// coerce.Unmarshal gives: the rows compare the same work. It also warms
// the peers up (sonic compiles a decoder per type at its first use).
func checkUnmarshal(tb testing.TB, c unmarshalCase) {
	tb.Helper()
	var want benchInput
	if err := coerce.Unmarshal(c.data, &want); err != nil {
		tb.Fatalf("%s: coerce: %v", c.name, err)
	}
	for _, p := range peers {
		var got benchInput
		if err := p.c.unmarshal(c.want, &got); err != nil {
			tb.Fatalf("%s: %s: %v", c.name, p.impl, err)
		}
		if !reflect.DeepEqual(got, want) {
			tb.Errorf("%s: %s decodes another value than coerce", c.name, p.impl)
		}
	}
}

func TestPeersUnmarshalAsCoerce(t *testing.T) {
	for _, c := range unmarshalCases() {
		checkUnmarshal(t, c)
	}
}

func BenchmarkUnmarshal(b *testing.B) {
	for _, c := range unmarshalCases() {
		checkUnmarshal(b, c)
		b.Run("case="+c.name+"/impl=coerce", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(c.data)))
			for b.Loop() {
				var in benchInput
				if err := coerce.Unmarshal(c.data, &in); err != nil {
					b.Fatal(err)
				}
			}
		})
		for _, p := range peers {
			b.Run("case="+c.name+"/impl="+p.impl, func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(c.data)))
				for b.Loop() {
					var in benchInput
					if err := p.c.unmarshal(c.want, &in); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// The root's benchmark documents: the argument object of a Discord tool
// call, and 10 KB of API records (the root's testdata/bench/array10k.json).
type textDoc struct{ name, text, declared string }

func textDocs(tb testing.TB) []textDoc {
	data, err := os.ReadFile("../../testdata/bench/array10k.json")
	if err != nil {
		tb.Fatal(err)
	}
	return []textDoc{
		{"small", `{"channel_id":"1458059302022549698","limit":10}`, "object"},
		{"10KB", string(data), "array"},
	}
}

// checkParse fails unless every peer parses the text to what coerce gives.
func checkParse(tb testing.TB, d textDoc) {
	tb.Helper()
	want, err := coerce.ToDeclared(d.text, d.declared)
	if err != nil {
		tb.Fatalf("%s: coerce: %v", d.name, err)
	}
	for _, p := range peers {
		var got any
		if err := p.c.unmarshal([]byte(d.text), &got); err != nil {
			tb.Fatalf("%s: %s: %v", d.name, p.impl, err)
		}
		if !reflect.DeepEqual(got, want) {
			tb.Errorf("%s: %s parses another value than coerce", d.name, p.impl)
		}
	}
}

func TestPeersParseAsCoerce(t *testing.T) {
	for _, d := range textDocs(t) {
		checkParse(t, d)
	}
}

// JSON text to a value (any): what the root's BenchmarkParse measures,
// ToDeclared on the text declared object or array, against each library's
// Unmarshal into any. Each side gets the text as its API takes it, coerce
// a string (a tool argument's value), the others a []byte, held ready.
func BenchmarkParseAny(b *testing.B) {
	for _, d := range textDocs(b) {
		checkParse(b, d)
		b.Run("doc="+d.name+"/impl=coerce", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(d.text)))
			for b.Loop() {
				if _, err := coerce.ToDeclared(d.text, d.declared); err != nil {
					b.Fatal(err)
				}
			}
		})
		data := []byte(d.text)
		for _, p := range peers {
			b.Run("doc="+d.name+"/impl="+p.impl, func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(data)))
				for b.Loop() {
					var v any
					if err := p.c.unmarshal(data, &v); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// checkEncode fails unless every peer writes the value as the same bytes
// as coerce (map keys sorted, HTML characters escaped, numbers written as
// encoding/json writes them).
func checkEncode(tb testing.TB, name string, v any) {
	tb.Helper()
	want, err := coerce.ToDeclared(v, "str")
	if err != nil {
		tb.Fatalf("%s: coerce: %v", name, err)
	}
	for _, p := range peers {
		got, err := p.c.marshal(v)
		if err != nil {
			tb.Fatalf("%s: %s: %v", name, p.impl, err)
		}
		if string(got) != want.(string) {
			tb.Errorf("%s: %s writes other bytes than coerce:\n%s\n%s", name, p.impl, got, want)
		}
	}
}

func encodeValue(tb testing.TB, d textDoc) any {
	var v any
	if err := json.Unmarshal([]byte(d.text), &v); err != nil {
		tb.Fatal(err)
	}
	return v
}

func TestPeersEncodeAsCoerce(t *testing.T) {
	for _, d := range textDocs(t) {
		checkEncode(t, d.name, encodeValue(t, d))
	}
}

// encoded keeps what the encode benchmarks write.
var encoded string

// A value to JSON text: what the root's BenchmarkToString measures,
// ToDeclared of a decoded value declared str, against each library's
// Marshal and the conversion to string that a caller needs after it.
func BenchmarkEncode(b *testing.B) {
	for _, d := range textDocs(b) {
		v := encodeValue(b, d)
		checkEncode(b, d.name, v)
		b.Run("doc="+d.name+"/impl=coerce", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				out, err := coerce.ToDeclared(v, "str")
				if err != nil {
					b.Fatal(err)
				}
				encoded = out.(string)
			}
		})
		for _, p := range peers {
			b.Run("doc="+d.name+"/impl="+p.impl, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					text, err := p.c.marshal(v)
					if err != nil {
						b.Fatal(err)
					}
					encoded = string(text)
				}
			})
		}
	}
}
