package nearjson

import (
	"strings"
	"testing"
)

// BenchmarkRepair measures the cheap check on valid JSON, the repair of a
// Python dict, and a refusal of truncated text, each at two sizes.
func BenchmarkRepair(b *testing.B) {
	item := `{'name': 'search', 'args': {'query': "it's", 'limit': 10, 'tags': ['a', 'b',], 'exact': True, 'after': None}}`
	valid := `{"name": "search", "args": {"query": "it's", "limit": 10, "tags": ["a", "b"], "exact": true, "after": null}}`
	for _, c := range []struct{ name, text string }{
		{"valid/small", valid},
		{"valid/large", "[" + strings.Repeat(valid+",", 999) + valid + "]"},
		{"python/small", item},
		{"python/large", "[" + strings.Repeat(item+",", 1000) + "]"},
		{"truncated/small", item[:len(item)-1]},
		{"truncated/large", "[" + strings.Repeat(item+",", 1000)},
	} {
		in := []byte(c.text)
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(in)))
			for b.Loop() {
				Repair(in, Limits{})
			}
		})
	}
}
