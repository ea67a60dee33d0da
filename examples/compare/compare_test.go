package compare

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/coerce-go/coerce"
)

// The same inputs as the root module's benchmarks (bench_test.go there), so
// that benchstat lines the rows up: Benchmark<What>/<case>/impl=<who>.
const small = `{"channel_id":"1458059302022549698","limit":10}`

func doc10KB(tb testing.TB) string {
	data, err := os.ReadFile("../../testdata/bench/array10k.json")
	if err != nil {
		tb.Fatal(err)
	}
	return string(data)
}

// A Discord tool call as clients send it, and the tool's input schema.
const (
	callSchema = `{"type": "object", "properties": {
		"server_name": {"type": "string"},
		"path_params": {"type": "string"},
		"group_by": {"type": ["null", "array"], "items": {"type": "string"}},
		"config": {"anyOf": [{"type": "object"}, {"type": "null"}]},
		"limit": {"type": "integer"},
		"notify": {"type": "boolean"}}}`
	brokenCall = `{"server_name": "discord", "path_params": {"channel_id": "1458059302022549698"},
		"group_by": "[\"type\", \"author\"]", "config": "{\"depth\": 2, \"mode\": \"fast\"}",
		"limit": "10", "notify": "true"}`
)

func BenchmarkRepairArgs(b *testing.B) {
	schema, err := coerce.ParseSchema([]byte(callSchema))
	if err != nil {
		b.Fatal(err)
	}
	var args map[string]any
	if err := json.Unmarshal([]byte(brokenCall), &args); err != nil {
		b.Fatal(err)
	}
	b.Run("case=mcp-call/impl=coerce", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := schema.Coerce(args); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("case=mcp-call/impl=naive", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			NaiveRepair(args, stdUnmarshal)
		}
	})
	b.Run("case=mcp-call/impl=go_json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			NaiveRepair(args, goUnmarshal)
		}
	})
}

func BenchmarkRepairArgsJSON(b *testing.B) {
	schema, err := coerce.ParseSchema([]byte(callSchema))
	if err != nil {
		b.Fatal(err)
	}
	raw := []byte(brokenCall)
	b.Run("case=mcp-call/impl=coerce", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := schema.CoerceJSON(raw); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("case=mcp-call/impl=naive", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := NaiveRepairJSON(raw, stdUnmarshal, stdMarshal); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("case=mcp-call/impl=go_json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := NaiveRepairJSON(raw, goUnmarshal, goMarshal); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// goccy/go-json rows for the root module's BenchmarkNotJSON, BenchmarkParse
// and BenchmarkToString.

func BenchmarkNotJSON(b *testing.B) {
	const text = "Select the files that matter most for the review."
	b.Run("case=prose/impl=go_json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var v any
			_ = goUnmarshal([]byte(text), &v)
		}
	})
}

func BenchmarkParse(b *testing.B) {
	for _, doc := range []struct{ name, text string }{{"small", small}, {"10KB", doc10KB(b)}} {
		b.Run("doc="+doc.name+"/impl=go_json", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(doc.text)))
			for b.Loop() {
				var v any
				if err := goUnmarshal([]byte(doc.text), &v); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkToString(b *testing.B) {
	for _, doc := range []struct{ name, text string }{{"small", small}, {"10KB", doc10KB(b)}} {
		var v any
		if err := json.Unmarshal([]byte(doc.text), &v); err != nil {
			b.Fatal(err)
		}
		b.Run("doc="+doc.name+"/impl=go_json", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				text, err := goMarshal(v)
				if err != nil {
					b.Fatal(err)
				}
				_ = string(text)
			}
		})
	}
}

// What the naive repair gets wrong, which the benchmark figures do not show:
// it parses JSON text that a string parameter wanted kept, and leaves
// scalars broken.
func TestNaiveRepairIsNotEquivalent(t *testing.T) {
	schema, err := coerce.ParseSchema([]byte(callSchema))
	if err != nil {
		t.Fatal(err)
	}
	args := map[string]any{"path_params": `{"channel_id": "1"}`, "limit": "10"}
	naive := NaiveRepair(args, stdUnmarshal)
	if _, parsed := naive["path_params"].(map[string]any); !parsed {
		t.Errorf("naive repair kept path_params as text: %#v", naive["path_params"])
	}
	if naive["limit"] != "10" {
		t.Errorf("naive repair converted limit: %#v", naive["limit"])
	}
	fixed, err := schema.Coerce(args)
	if err != nil {
		t.Fatal(err)
	}
	if fixed["path_params"] != args["path_params"] || fixed["limit"] != 10.0 {
		t.Errorf("coerce: %#v", fixed)
	}
}
