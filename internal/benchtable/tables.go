package main

import (
	"fmt"
	"io"
	"strings"
)

// The tables of BENCHMARKS.md, row by row.

// The fast libraries each peer row sets beside coerce and encoding/json, by
// impl name, as examples/compare names them. sonic is optional: where it
// does not build (outside amd64 and arm64, or on a Go release it does not
// support yet) examples/compare may leave it out, and its cells are "—".
var fastPeers = []struct {
	impl, label string
	optional    bool
}{{"go_json", "goccy", false}, {"segmentio", "segmentio", false}, {"sonic", "sonic", true}}

// peerHeader is the header of a table of peer rows, first the column of
// what a row is.
func peerHeader(w io.Writer, what, std string) {
	fmt.Fprintf(w, "| %s | coerce | %s |", what, std)
	for _, p := range fastPeers {
		fmt.Fprintf(w, " %s |", p.label)
	}
	fmt.Fprintf(w, " coerce / %s | coerce / fastest peer | allocs coerce / %s / fastest |\n", std, std)
	fmt.Fprint(w, strings.Repeat("|---", 6+len(fastPeers)), "|\n")
}

// peerRow prints the row of the benchmarks name/impl=<who> of examples/
// compare: coerce, encoding/json and each fast library, the fastest of
// which (the lowest median) is in bold and named in the ratio column. An
// optional row the run lacks is all "—".
func (t *tables) peerRow(w io.Writer, label, name string, optional bool) {
	if optional && !t.has("compare", name+"/impl=coerce") {
		t.pending = append(t.pending, "compare:"+name)
		fmt.Fprintf(w, "| %s |%s\n", label, strings.Repeat(" — |", 5+len(fastPeers)))
		return
	}
	co := t.get("compare", name+"/impl=coerce")
	std := t.get("compare", name+"/impl=encoding_json")
	cells := make([]string, len(fastPeers))
	var fastest []sample
	fastestLabel := ""
	for i, p := range fastPeers {
		cells[i] = "—"
		if p.optional && !t.has("compare", name+"/impl="+p.impl) {
			continue
		}
		s := t.get("compare", name+"/impl="+p.impl)
		cells[i] = duration(median(field(s, ns)))
		if fastest == nil || median(field(s, ns)) < median(field(fastest, ns)) {
			fastest, fastestLabel = s, p.label
		}
	}
	for i, p := range fastPeers {
		if p.label == fastestLabel {
			cells[i] = "**" + cells[i] + "**"
		}
	}
	fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s %s | %s / %s / %s |\n", label,
		duration(median(field(co, ns))), duration(median(field(std, ns))), strings.Join(cells, " | "),
		ratio(co, std), ratio(co, fastest), fastestLabel, allocs(co), allocs(std), allocs(fastest))
}

// rootRow prints a row of the root module's benchmarks, which set coerce
// beside encoding/json alone: "—" in the peers' cells.
func (t *tables) rootRow(w io.Writer, label, name string, withStd bool) {
	co := t.get("root", name+"/impl=coerce")
	stdTime, stdRatio, stdAllocs := "—", "—", "—"
	if withStd {
		std := t.get("root", name+"/impl=encoding_json")
		stdTime, stdRatio, stdAllocs = duration(median(field(std, ns))), ratio(co, std), allocs(std)
	}
	fmt.Fprintf(w, "| %s | %s | %s |%s %s | — | %s / %s / — |\n", label, duration(median(field(co, ns))), stdTime,
		strings.Repeat(" — |", len(fastPeers)), stdRatio, allocs(co), stdAllocs)
}

func (t *tables) print(w io.Writer) {
	fmt.Fprintf(w, "Medians of %d alternating rounds; ratios are medians of the per-round ratios, with their range.\n", t.rounds)
	fmt.Fprintln(w, t.machine)
	fmt.Fprintln(w, "The fastest peer of a row is the one of goccy/go-json, segmentio/encoding and bytedance/sonic (ConfigStd) with the lowest median, in bold.")
	fmt.Fprintln(w)

	fmt.Fprintln(w, "Arguments that need nothing (the cost of every conforming call), against each library's `Valid`:")
	fmt.Fprintln(w)
	peerHeader(w, "arguments", "`json.Valid`")
	for _, c := range []struct{ label, args string }{
		{"ten string parameters", "strings"},
		{"ten short parameters", "short"},
		{"ten numeric parameters", "numbers"},
		{"twenty short records", "records"},
		{"the quickstart call, as its schema asks", "quickstart"},
		{"one 1 MB string parameter", "1MB"},
	} {
		t.peerRow(w, "`CoerceJSON`, "+c.label, "PassThrough/args="+c.args, false)
	}
	sc := t.get("root", "SchemaCoerce/args=no-change/impl=coerce")
	fmt.Fprintf(w, "| `Schema.Coerce`, ten decoded parameters | %s | — |%s — | — | %s / — / — |\n",
		duration(median(field(sc, ns))), strings.Repeat(" — |", len(fastPeers)), allocs(sc))
	t.rootRow(w, "`Structured` on prose (no JSON) vs a `json.Unmarshal` attempt", "NotJSON/case=prose-structured", true)
	fmt.Fprintln(w)

	fmt.Fprintln(w, "Arguments that need repair, against decoding, fixing by hand and encoding again with each library:")
	fmt.Fprintln(w)
	peerHeader(w, "request", "encoding/json")
	for _, c := range []struct{ label, name string }{
		{"the quickstart call, raw (`CoerceJSON`)", "RepairArgsJSON/case=mcp-call"},
		{"ten numeric parameters as strings, raw (`CoerceJSON`)", "RepairArgsJSON/case=numeric-call"},
		{"five lists as JSON text beside five that conform, raw (`CoerceJSON`)", "RepairArgsJSON/case=arrays-call"},
		{"the quickstart call, decoded (`Schema.Coerce` vs the fix alone)", "RepairArgs/case=mcp-call"},
	} {
		t.peerRow(w, c.label, c.name, false)
	}
	fmt.Fprintln(w)

	fmt.Fprintln(w, "Single values, parsing, encoding and typed decode, against each library doing the same job:")
	fmt.Fprintln(w)
	peerHeader(w, "work", "encoding/json")
	t.rootRow(w, "prose declared `object` (an error) vs a `json.Unmarshal` attempt", "NotJSON/case=prose", true)
	for _, c := range []struct{ label, name string }{
		{"JSON text → value, small MCP object", "ParseAny/doc=small"},
		{"JSON text → value, 10 KB of records", "ParseAny/doc=10KB"},
		{"map → JSON text, small", "Encode/doc=small"},
		{"map → JSON text, 10 KB", "Encode/doc=10KB"},
		{"`Unmarshal` of conforming text, small", "Unmarshal/case=small"},
		{"`Unmarshal` of conforming text, 20 tasks", "Unmarshal/case=tasks"},
		{"`Unmarshal` of conforming text, 10 KB of tasks", "Unmarshal/case=10KB"},
		{"`Unmarshal` of conforming text, 1 MB of tasks", "Unmarshal/case=1MB"},
		{"`Unmarshal` of broken text vs the others' `Unmarshal` of the repaired text", "Unmarshal/case=broken-tasks"},
	} {
		t.peerRow(w, c.label, c.name, false)
	}
	fmt.Fprintln(w)

	fmt.Fprintln(w, "Parsing against the least its result costs (`BenchmarkParseFloor`): the same maps and slices made afresh around the leaves the parse returned, with no text read and nothing boxed:")
	fmt.Fprintln(w)
	t.pairTable(w, "| document | parse (`ToDeclared`) | its maps and slices alone | parse / floor | allocs parse / floor |", true, [][3]string{
		{"small MCP object", "ParseFloor/doc=small/impl=coerce", "ParseFloor/doc=small/impl=floor"},
		{"10 KB of records", "ParseFloor/doc=10KB/impl=coerce", "ParseFloor/doc=10KB/impl=floor"},
	})
	fmt.Fprintln(w)

	fmt.Fprintln(w, "The change report, unset and set (`Options.OnChange`):")
	fmt.Fprintln(w)
	t.pairTable(w, "| arguments | unset | set | allocs unset / set |", false, [][3]string{
		{"ten conforming parameters, `CoerceJSON`", "ChangeReport/case=conforming/report=unset/impl=coerce", "ChangeReport/case=conforming/report=set/impl=coerce"},
		{"ten parameters as LLM clients send them, `CoerceJSON`", "ChangeReport/case=broken/report=unset/impl=coerce", "ChangeReport/case=broken/report=set/impl=coerce"},
	})
	fmt.Fprintln(w)

	fmt.Fprintln(w, "The check the MCP adapters make before the handler, on a call that passes: ten conforming parameters, with required, enum and closed keywords, coerced alone, then coerced and checked (`Check` after coercion, or `Options.Check`, which checks in the same pass):")
	fmt.Fprintln(w)
	t.pairTable(w, "| arguments | coerced | coerced and checked | alone / with the check | allocs |", true, [][3]string{
		{"JSON text, `CoerceJSON` then `CheckJSON`", "CallCheck/case=conforming/impl=coerce", "CallCheck/case=conforming/impl=coerce+check"},
		{"JSON text, `CoerceJSON` with `Options.Check`", "CallCheck/case=conforming/impl=coerce", "CallCheck/case=conforming/impl=coerce-check-mode"},
		{"Go values, `Coerce` then `Check`", "CallCheck/case=conforming-values/impl=coerce", "CallCheck/case=conforming-values/impl=coerce+check"},
		{"Go values, `Coerce` with `Options.Check`", "CallCheck/case=conforming-values/impl=coerce", "CallCheck/case=conforming-values/impl=coerce-check-mode"},
	})
	fmt.Fprintln(w)

	t.streamTable(w)

	fmt.Fprintln(w, "A `tools/call` round trip to a go-sdk server over stdio, direct and through `coerce mcp` (`BenchmarkToolsCall`), and the proxy's own work on the message (`BenchmarkProxyMessage`):")
	fmt.Fprintln(w)
	t.pairTableOf(w, "proxy", "| arguments | direct | through the proxy | direct / proxy | allocs |", true, [][3]string{
		{"that fit", "ToolsCall/path=direct/args=conforming", "ToolsCall/path=proxy/args=conforming"},
		{"that the proxy repairs", "ToolsCall/path=direct/args=repaired", "ToolsCall/path=proxy/args=repaired"},
	})
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
		{"`Feedback` of a missing argument whose type is a union naming the next type twice, 3 levels per 1x", "feedback-of-a-doubling-union-schema"},
		{"`Check` of Go maps holding one child twice, 10 levels per 1x", "check-of-shared-maps"},
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

// pairTable prints a table of the root's benchmarks two by two: per row
// its label and two benchmarks, their medians side by side, the ratio of
// the first to the second (withRatio), and their allocations.
func (t *tables) pairTable(w io.Writer, header string, withRatio bool, rows [][3]string) {
	t.pairTableOf(w, "root", header, withRatio, rows)
}

// pairTableOf is pairTable for the benchmarks of the binary bin.
func (t *tables) pairTableOf(w io.Writer, bin, header string, withRatio bool, rows [][3]string) {
	fmt.Fprintln(w, header)
	fmt.Fprintln(w, strings.Repeat("|---", strings.Count(header, "|")-1)+"|")
	for _, r := range rows {
		a, b := t.get(bin, r[1]), t.get(bin, r[2])
		fmt.Fprintf(w, "| %s | %s | %s |", r[0], duration(median(field(a, ns))), duration(median(field(b, ns))))
		if withRatio {
			fmt.Fprintf(w, " %s |", ratio(a, b))
		}
		fmt.Fprintf(w, " %s / %s |\n", allocs(a), allocs(b))
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

// The previewers of BenchmarkStream, as examples/compare names them.
var streamPeers = []struct{ impl, label string }{
	{"coerce", "coerce `Stream`"}, {"nearjson", "coerce's nearjson, per delta"}, {"alexandre", "RealAlexandreAI/json-repair v0.0.18"},
	{"fantasy", "charm.land/fantasy/jsonrepair v0.41.2"}, {"kaptinlin", "kaptinlin/jsonrepair v0.2.15"}, {"encoding_json", "encoding/json, per delta"},
}

// streamTable prints BenchmarkStream: a whole stream with a preview after
// every delta, per previewer, its time and the bytes it parsed; "—" where
// the benchmark leaves a previewer out (the slow ones at 64 KB).
func (t *tables) streamTable(w io.Writer) {
	fmt.Fprintln(w, "A tool call streamed with a preview after every delta (`BenchmarkStream` in examples/compare): coerce's `Stream` against a re-parse of the buffer per delta; time per stream, and bytes parsed:")
	fmt.Fprintln(w)
	fmt.Fprint(w, "| stream |")
	for _, p := range streamPeers {
		fmt.Fprintf(w, " %s |", p.label)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, strings.Repeat("|---", 1+len(streamPeers))+"|")
	for _, c := range []struct{ label, name string }{
		{"4 KB, byte by byte", "size=4KB/deltas=1B"}, {"4 KB, deltas of 3 to 16 bytes", "size=4KB/deltas=tokens"},
		{"64 KB, byte by byte", "size=64KB/deltas=1B"}, {"64 KB, deltas of 3 to 16 bytes", "size=64KB/deltas=tokens"},
	} {
		fmt.Fprintf(w, "| %s |", c.label)
		for _, p := range streamPeers {
			name := "Stream/" + c.name + "/impl=" + p.impl
			if !t.has("compare", name) {
				fmt.Fprint(w, " — |")
				continue
			}
			s := t.get("compare", name)
			fmt.Fprintf(w, " %s, %s |", duration(median(field(s, ns))), bytesText(median(field(s, func(s sample) float64 { return s.parsed }))))
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w)
}
