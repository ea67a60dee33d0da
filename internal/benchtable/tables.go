package main

import (
	"fmt"
	"io"
	"strings"
)

// The README's tables, row by row.

func (t *tables) print(w io.Writer) {
	fmt.Fprintf(w, "Medians of %d alternating rounds; ratios are medians of the per-round ratios, with their range.\n\n", t.rounds)

	fmt.Fprintln(w, "Arguments that need nothing (the cost of every conforming call):")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| arguments | coerce | `json.Valid` | goccy `Valid` | coerce / `json.Valid` | allocs |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|")
	for _, c := range []struct{ label, args string }{
		{"ten string parameters", "strings"},
		{"ten numeric parameters", "numbers"},
		{"one 1 MB string parameter", "1MB"},
	} {
		co := t.get("compare", "PassThrough/args="+c.args+"/impl=coerce")
		std := t.get("compare", "PassThrough/args="+c.args+"/impl=encoding_json")
		goj := t.get("compare", "PassThrough/args="+c.args+"/impl=go_json")
		fmt.Fprintf(w, "| `CoerceJSON`, %s | %s | %s | %s | %s | %s |\n", c.label,
			duration(median(field(co, ns))), duration(median(field(std, ns))), duration(median(field(goj, ns))), ratio(co, std), allocs(co))
	}
	sc := t.get("root", "SchemaCoerce/args=no-change/impl=coerce")
	fmt.Fprintf(w, "| `Schema.Coerce`, ten decoded parameters | %s | — | — | — | %s |\n", duration(median(field(sc, ns))), allocs(sc))
	ps := t.get("root", "NotJSON/case=prose-structured/impl=coerce")
	pstd := t.get("root", "NotJSON/case=prose-structured/impl=encoding_json")
	fmt.Fprintf(w, "| `Structured` on prose (no JSON) vs a `json.Unmarshal` attempt | %s | %s | — | %s | %s |\n",
		duration(median(field(ps, ns))), duration(median(field(pstd, ns))), ratio(ps, pstd), allocs(ps))
	fmt.Fprintln(w)

	fmt.Fprintln(w, "Arguments that need repair, against decoding, fixing by hand and encoding again:")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| request | coerce | encoding/json | goccy/go-json | coerce / goccy | coerce / encoding/json | allocs coerce / goccy |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|")
	for _, c := range []struct{ label, bench, cs string }{
		{"the quickstart call, raw (`CoerceJSON`)", "RepairArgsJSON", "mcp-call"},
		{"ten numeric parameters as strings, raw (`CoerceJSON`)", "RepairArgsJSON", "numeric-call"},
		{"the quickstart call, decoded (`Schema.Coerce` vs the fix alone)", "RepairArgs", "mcp-call"},
	} {
		co := t.get("compare", c.bench+"/case="+c.cs+"/impl=coerce")
		std := t.get("compare", c.bench+"/case="+c.cs+"/impl=encoding_json")
		goj := t.get("compare", c.bench+"/case="+c.cs+"/impl=go_json")
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s / %s |\n", c.label,
			duration(median(field(co, ns))), duration(median(field(std, ns))), duration(median(field(goj, ns))),
			ratio(co, goj), ratio(co, std), allocs(co), allocs(goj))
	}
	fmt.Fprintln(w)

	fmt.Fprintln(w, "Single values and typed decode, against what encoding/json does for the same job:")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| work | coerce | encoding/json | ratio | allocs coerce / std |")
	fmt.Fprintln(w, "|---|---|---|---|---|")
	for _, c := range []struct{ label, name string }{
		{"prose declared `object` (an error) vs a `json.Unmarshal` attempt", "NotJSON/case=prose"},
		{"JSON text → value, small MCP object", "Parse/doc=small"},
		{"JSON text → value, 10 KB of records", "Parse/doc=10KB"},
		{"map → JSON text, small", "ToString/doc=small"},
		{"map → JSON text, 10 KB", "ToString/doc=10KB"},
		{"`Unmarshal` of conforming text, small", "Unmarshal/case=conforming-small"},
		{"`Unmarshal` of conforming text, 20 tasks", "Unmarshal/case=conforming-tasks"},
		{"`Unmarshal` of broken text vs `json.Unmarshal` of the repaired text", "Unmarshal/case=broken-tasks"},
	} {
		co := t.get("root", c.name+"/impl=coerce")
		std := t.get("root", c.name+"/impl=encoding_json")
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s / %s |\n", c.label,
			duration(median(field(co, ns))), duration(median(field(std, ns))), ratio(co, std), allocs(co), allocs(std))
	}
	fmt.Fprintln(w)

	fmt.Fprintln(w, "The change report, unset and set (`Options.OnChange`):")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| arguments | unset | set | allocs unset / set |")
	fmt.Fprintln(w, "|---|---|---|---|")
	for _, c := range []struct{ label, cs string }{
		{"ten conforming parameters, `CoerceJSON`", "conforming"},
		{"ten parameters as LLM clients send them, `CoerceJSON`", "broken"},
	} {
		off := t.get("root", "ChangeReport/case="+c.cs+"/report=unset/impl=coerce")
		on := t.get("root", "ChangeReport/case="+c.cs+"/report=set/impl=coerce")
		fmt.Fprintf(w, "| %s | %s | %s | %s / %s |\n", c.label,
			duration(median(field(off, ns))), duration(median(field(on, ns))), allocs(off), allocs(on))
	}
	fmt.Fprintln(w)

	fmt.Fprintln(w, "Linear in depth and size (the codec):")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| work | per level at depth 100 | at depth 10000 | growth | encoding/json at 100 / 10000 |")
	fmt.Fprintln(w, "|---|---|---|---|---|")
	for _, op := range []string{"decode", "encode"} {
		per := func(impl string, depth int) float64 {
			return median(field(t.get("root", fmt.Sprintf("Depth/op=%s/depth=%d/impl=%s", op, depth, impl)), ns)) / float64(depth)
		}
		c1, c2 := per("coerce", 100), per("coerce", 10000)
		s1, s2 := per("encoding_json", 100), per("encoding_json", 10000)
		fmt.Fprintf(w, "| %s, nested arrays | %s | %s | %.2f× | %s / %s |\n", op, duration(c1), duration(c2), c2/c1, duration(s1), duration(s2))
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| encode | output | allocated, coerce, warm pools | empty pools | encoding/json, warm | empty |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|")
	for _, size := range []string{"64KB", "1MB"} {
		get := func(pool, impl string) []sample {
			return t.get("root", "EncodeSize/size="+size+"/pool="+pool+"/impl="+impl)
		}
		co := get("warm", "coerce")
		out := median(field(co, func(s sample) float64 { return s.out }))
		allocated := func(samples []sample) float64 {
			return median(field(samples, func(s sample) float64 { return s.bytes })) / out
		}
		fmt.Fprintf(w, "| %s of records | %s | %.2f× the output | %.2f× | %.2f× | %.2f× |\n", size, bytesText(out),
			allocated(co), allocated(get("cold", "coerce")), allocated(get("warm", "encoding_json")), allocated(get("cold", "encoding_json")))
	}
	fmt.Fprintln(w)

	fmt.Fprintln(w, "Hostile input (`BenchmarkHostile`), at 1x, 10x and 100x size:")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| shape | 1x | 10x | 100x | 10x / 1x | 100x / 10x |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|")
	for _, c := range []struct{ label, shape string }{
		{"an array nested 100 deep per 1x, failing at the bottom", "deep-array-failing-at-the-bottom"},
		{"an object chain 100 deep per 1x, failing at the bottom", "deep-object-failing-at-the-bottom"},
		{"10 trees per 1x of a 4-variant union, children as JSON text in JSON text", "union-tree-in-nested-json-text"},
		{"200 elements per 1x against a union of three arrays", "long-array-of-unions"},
		{"100 keys per 1x, each a union of two closed objects", "wide-object-of-unions"},
		{"a slice holding itself 2 times per 1x", "cycle"},
		{"a named slice type nested 1000 deep per 1x", "typed-go-value-too-deep"},
	} {
		var ts [3]float64
		for i, n := range []string{"1x", "10x", "100x"} {
			ts[i] = median(field(t.get("root", "Hostile/shape="+c.shape+"/size="+n+"/impl=coerce"), ns))
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %.1f× | %.1f× |\n", c.label,
			duration(ts[0]), duration(ts[1]), duration(ts[2]), ts[1]/ts[0], ts[2]/ts[1])
	}
}

func bytesText(v float64) string {
	switch {
	case v >= 1<<20:
		return fmt.Sprintf("%.1f MiB", v/(1<<20))
	case v >= 1<<10:
		return fmt.Sprintf("%.0f KiB", v/(1<<10))
	}
	return strings.TrimSpace(fmt.Sprintf("%.0f B", v))
}
