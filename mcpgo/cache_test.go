package mcpgocoerce

import (
	"encoding/json"
	"io"
	"log/slog"
	"strconv"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// A tool registered again and again with new schemas keeps at most
// schemasPerTool compilations, the most recent ones.
func TestSchemaCacheIsBoundedPerTool(t *testing.T) {
	s := server.NewMCPServer("test", "0.0.0")
	c := &coercer{server: s}
	for i := range 3 * schemasPerTool {
		schema := `{"type":"object","properties":{"x` + strconv.Itoa(i) + `":{"type":"integer"}}}`
		s.AddTool(mcp.NewTool("t", mcp.WithRawInputSchema(json.RawMessage(schema))), nil)
		got, err := c.schemaFor(t.Context(), "t")
		if err != nil {
			t.Fatal(err)
		}
		if typ, _ := got.Lookup("x" + strconv.Itoa(i)); typ.String() != "integer" {
			t.Fatalf("registration %d: x%d declared %q, want integer", i, i, typ)
		}
		v, _ := c.schemas.Load("t")
		if n := len(v.([]*compiled)); n > schemasPerTool {
			t.Fatalf("registration %d: %d schemas cached, want at most %d", i, n, schemasPerTool)
		}
	}
}

// Coercion costs a call nothing beyond finding its schema when the
// arguments conform, and reporting costs nothing when nobody listens: a
// logger not enabled for debug level makes no allocation more than no
// options at all.
func TestUnheardChangesCostNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts vary under the race detector (see raceEnabled)")
	}
	s := server.NewMCPServer("test", "0.0.0")
	s.AddTool(mcp.NewTool("t", mcp.WithRawInputSchema(json.RawMessage(
		`{"type":"object","properties":{"x":{"type":"integer"}}}`))), nil)
	allocs := func(o Options, args string) float64 {
		c := &coercer{server: s, opts: o}
		raw := json.RawMessage(args)
		return testing.AllocsPerRun(100, func() {
			var req mcp.CallToolRequest
			req.Params.Name = "t"
			req.Params.RawArguments = raw
			c.beforeCallTool(t.Context(), nil, &req)
		})
	}
	c := &coercer{server: s}
	lookup := testing.AllocsPerRun(100, func() { c.schemaFor(t.Context(), "t") })
	if got := allocs(Options{}, `{"x":5}`); got != lookup {
		t.Errorf("conforming call: %v allocations, want %v as for finding the schema alone", got, lookup)
	}

	quiet := slog.New(slog.NewTextHandler(io.Discard, &slog.HandlerOptions{Level: slog.LevelInfo}))
	for _, args := range []string{`{"x":5}`, `{"x":"5"}`} {
		if none, unheard := allocs(Options{}, args), allocs(Options{Logger: quiet}, args); unheard != none {
			t.Errorf("%s: %v allocations with a quiet logger, %v without", args, unheard, none)
		}
	}
}
