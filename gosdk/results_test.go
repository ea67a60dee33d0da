package gosdkcoerce_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coerce-go/coerce"
	"github.com/coerce-go/coerce/gosdk"
	"github.com/coerce-go/coerce/toolcall"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The result tests run the SDK's server with Install, and the SDK's own
// client, which does not validate results: what it decodes is what the
// server sent.

// itemsSchema declares items an array, as a hand-written schema does (the
// SDK infers ["null","array"] for a Go slice, which admits the null of a nil
// one).
const itemsSchema = `{"type":"object","properties":{"items":{"type":"array","items":{"type":"string"}}},"required":["items"]}`

type itemsOut struct {
	Items []string `json:"items"`
}

// structured is the structuredContent a client received, as JSON text.
func structured(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	if res.StructuredContent == nil {
		return ""
	}
	text, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	return string(text)
}

// A typed handler that returns a nil slice for an array: through AddTool
// the client gets [], in structuredContent and in the text content the SDK
// writes from it; through mcp.AddTool the SDK refuses its own output.
func TestTypedNilSlice(t *testing.T) {
	server := newServer(nil)
	gosdkcoerce.Install(server)
	list := func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, itemsOut, error) {
		return nil, itemsOut{Items: nil}, nil
	}
	gosdkcoerce.AddTool(server, &mcp.Tool{Name: "list", OutputSchema: json.RawMessage(itemsSchema)}, list)
	mcp.AddTool(server, &mcp.Tool{Name: "plain", OutputSchema: json.RawMessage(itemsSchema)}, list)
	cs := connect(t, server, client{})

	res := call(t, cs, "list", nil)
	if got := structured(t, res); got != `{"items":[]}` {
		t.Errorf("structuredContent %s, want {\"items\":[]}", got)
	}
	if got := resultText(res); got != `{"items":[]}` {
		t.Errorf("text content %q, want the structured content's JSON", got)
	}
	if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "plain"}); err == nil || !strings.Contains(err.Error(), "validating tool output") {
		t.Errorf("mcp.AddTool answered %v, want the SDK's own output validation error", err)
	}
}

// A typed tool whose output is inferred from a Go type, as most are: the
// SDK admits null for a slice there, and AddTool changes nothing, the
// bytes the SDK writes included.
func TestTypedInferredSchemaUntouched(t *testing.T) {
	server := newServer(nil)
	gosdkcoerce.Install(server)
	type out struct {
		Items []string  `json:"items"`
		At    time.Time `json:"at"`
		N     int       `json:"n"`
	}
	at := time.Date(2026, 7, 28, 12, 0, 0, 0, time.UTC)
	h := func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, out, error) {
		return nil, out{At: at, N: 5}, nil
	}
	gosdkcoerce.AddTool(server, &mcp.Tool{Name: "ours"}, h)
	mcp.AddTool(server, &mcp.Tool{Name: "sdk"}, h)
	cs := connect(t, server, client{})
	ours, sdk := call(t, cs, "ours", nil), call(t, cs, "sdk", nil)
	if a, b := structured(t, ours), structured(t, sdk); a != b || a != `{"at":"2026-07-28T12:00:00Z","items":null,"n":5}` {
		t.Errorf("AddTool sent %s, mcp.AddTool %s", a, b)
	}
	if a, b := resultText(ours), resultText(sdk); a != b {
		t.Errorf("AddTool's text %q, mcp.AddTool's %q", a, b)
	}
}

// rawResults adds a tool with Server.AddTool and the given output schema,
// whose handler returns the result given for each call's "case" argument.
func rawResults(server *mcp.Server, outputSchema string, results map[string]*mcp.CallToolResult) {
	tool := &mcp.Tool{Name: "raw", InputSchema: json.RawMessage(`{"type":"object","properties":{"case":{"type":"string"}}}`), OutputSchema: json.RawMessage(outputSchema)}
	server.AddTool(tool, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var in struct{ Case string }
		if err := json.Unmarshal(req.Params.Arguments, &in); err != nil {
			return nil, err
		}
		return results[in.Case], nil
	})
}

// Results of a tool added with Server.AddTool, rule by rule: Go values as
// encoding/json writes them, and JSON text, coerced; what cannot be fixed
// sent as text only; errors left alone.
func TestRawResults(t *testing.T) {
	const schema = `{"type":"object","properties":{
		"items":{"type":"array","items":{"type":"string"}},
		"at":{"type":"string"},
		"n":{"type":"integer"},
		"filter":{"type":"string"},
		"color":{"enum":["red","green"]}
	},"required":["items","n"]}`
	at := time.Date(2026, 7, 28, 12, 0, 0, 0, time.UTC)
	text := func(s string) []mcp.Content { return []mcp.Content{&mcp.TextContent{Text: s}} }
	for _, c := range []struct {
		name       string
		res        *mcp.CallToolResult
		structured string // "": none
		text       string
		rejected   string // the path OnError hears of; "-": nothing heard
	}{
		{
			name:       "Go values",
			res:        &mcp.CallToolResult{StructuredContent: map[string]any{"items": []string(nil), "at": at, "n": "5", "filter": map[string]any{"k": 1}}, Content: text(`{"at":"2026-07-28T12:00:00Z","filter":{"k":1},"items":null,"n":"5"}`)},
			structured: `{"at":"2026-07-28T12:00:00Z","filter":"{\"k\":1}","items":[],"n":5}`,
			text:       `{"at":"2026-07-28T12:00:00Z","filter":"{\"k\":1}","items":[],"n":5}`,
			rejected:   "-",
		},
		{
			name:       "JSON text, another text content kept",
			res:        &mcp.CallToolResult{StructuredContent: json.RawMessage(`{"items":"[\"a\"]","n":1}`), Content: text("found one")},
			structured: `{"items":["a"],"n":1}`,
			text:       "found one",
			rejected:   "-",
		},
		{
			name:     "unfixable: text only",
			res:      &mcp.CallToolResult{StructuredContent: map[string]any{"items": []string{}, "n": "five"}, Content: text(`{"items":[],"n":"five"}`)},
			text:     `{"items":[],"n":"five"}`,
			rejected: "/n",
		},
		{
			name:     "unfixable, no text: its JSON becomes the text",
			res:      &mcp.CallToolResult{StructuredContent: map[string]any{"items": []string{}, "n": 1, "color": "blue"}},
			text:     `{"color":"blue","items":[],"n":1}`,
			rejected: "/color",
		},
		{
			name:       "isError left alone",
			res:        &mcp.CallToolResult{IsError: true, StructuredContent: map[string]any{"n": "five"}, Content: text("failed")},
			structured: `{"n":"five"}`,
			text:       "failed",
			rejected:   "-",
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			var mu sync.Mutex
			var heard []string
			var parts []toolcall.Part
			var logs bytes.Buffer
			server := newServer(nil)
			gosdkcoerce.Options{
				OnError: func(ctx context.Context, tool string, err error) {
					mu.Lock()
					defer mu.Unlock()
					parts = append(parts, toolcall.PartOf(ctx))
					var ce *coerce.Error
					if errors.As(err, &ce) {
						heard = append(heard, ce.Path)
					}
				},
				Logger: slog.New(slog.NewTextHandler(&logs, nil)),
			}.Install(server)
			rawResults(server, schema, map[string]*mcp.CallToolResult{"x": c.res})
			cs := connect(t, server, client{})
			res := call(t, cs, "raw", map[string]any{"case": "x"})
			if got := structured(t, res); got != c.structured {
				t.Errorf("structuredContent %s, want %s", got, c.structured)
			}
			if got := resultText(res); got != c.text {
				t.Errorf("text %q, want %q", got, c.text)
			}
			mu.Lock()
			defer mu.Unlock()
			if c.rejected == "-" {
				if len(heard) != 0 {
					t.Errorf("OnError heard of %q", heard)
				}
				return
			}
			if len(heard) != 1 || heard[0] != c.rejected || parts[0] != toolcall.PartResult {
				t.Errorf("OnError heard of %q in %v, want %q in the result", heard, parts, c.rejected)
			}
			if !strings.Contains(logs.String(), `msg="coerce: result rejected"`) || !strings.Contains(logs.String(), "tool=raw") {
				t.Errorf("log:\n%s", logs.String())
			}
		})
	}
}

// A result that conforms reaches the client as the handler returned it:
// the same json.RawMessage, so the same bytes, spacing and key order kept.
func TestConformingResultUntouched(t *testing.T) {
	server := newServer(nil)
	gosdkcoerce.Install(server)
	var outer resultProbe
	server.AddReceivingMiddleware(outer.middleware) // runs before coercion, and sees its result
	sent := json.RawMessage(`{ "n": 5,  "items": ["a"] }`)
	rawResults(server, itemsSchema, map[string]*mcp.CallToolResult{"x": {StructuredContent: sent}})
	cs := connect(t, server, client{})
	call(t, cs, "raw", map[string]any{"case": "x"})
	got, ok := outer.last().StructuredContent.(json.RawMessage)
	if !ok || len(got) != len(sent) || &got[0] != &sent[0] {
		t.Errorf("the server sent %s (%T), want the handler's own json.RawMessage", got, outer.last().StructuredContent)
	}
}

// resultProbe is a receiving middleware that keeps the tool results it
// sees.
type resultProbe struct {
	mu      sync.Mutex
	results []*mcp.CallToolResult
}

func (p *resultProbe) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if r, ok := res.(*mcp.CallToolResult); ok {
			p.mu.Lock()
			p.results = append(p.results, r)
			p.mu.Unlock()
		}
		return res, err
	}
}

func (p *resultProbe) last() *mcp.CallToolResult {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.results[len(p.results)-1]
}

// SEP-2106: an output schema whose root is not an object, for a typed and
// a raw tool.
func TestNonObjectOutputSchema(t *testing.T) {
	server := newServer(nil)
	gosdkcoerce.Install(server)
	ids := json.RawMessage(`{"type":"array","items":{"type":"integer"}}`)
	gosdkcoerce.AddTool(server, &mcp.Tool{Name: "typed", OutputSchema: ids}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, []int, error) {
		return nil, nil, nil
	})
	rawResults(server, string(ids), map[string]*mcp.CallToolResult{
		"strings": {StructuredContent: []string{"1", "2"}},
		"text":    {StructuredContent: "[3]"},
		"bad":     {StructuredContent: []any{1, "x"}, Content: []mcp.Content{&mcp.TextContent{Text: "1 and x"}}},
	})
	cs := connect(t, server, client{})
	if res := call(t, cs, "typed", nil); structured(t, res) != `[]` || resultText(res) != `[]` {
		t.Errorf("typed: structuredContent %s, text %q, want []", structured(t, res), resultText(res))
	}
	if res := call(t, cs, "raw", map[string]any{"case": "strings"}); structured(t, res) != `[1,2]` {
		t.Errorf("strings: structuredContent %s, want [1,2]", structured(t, res))
	}
	if res := call(t, cs, "raw", map[string]any{"case": "text"}); structured(t, res) != `[3]` {
		t.Errorf("JSON text: structuredContent %s, want [3]", structured(t, res))
	}
	if res := call(t, cs, "raw", map[string]any{"case": "bad"}); structured(t, res) != "" || resultText(res) != "1 and x" {
		t.Errorf("bad: structuredContent %s, text %q, want text only", structured(t, res), resultText(res))
	}
}

// A typed handler's output that cannot be fixed reaches the client as the
// text the SDK would have written, without structuredContent.
func TestTypedUnfixable(t *testing.T) {
	server := newServer(nil)
	var rejected []string
	gosdkcoerce.Options{OnError: func(ctx context.Context, tool string, err error) {
		rejected = append(rejected, tool+" "+toolcall.PartOf(ctx).String()+" "+err.Error())
	}}.Install(server)
	type out struct {
		N string `json:"n"`
	}
	gosdkcoerce.AddTool(server, &mcp.Tool{Name: "count", OutputSchema: json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"}}}`)},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, out, error) {
			return nil, out{N: "many"}, nil
		})
	cs := connect(t, server, client{})
	res := call(t, cs, "count", nil)
	if res.IsError || res.StructuredContent != nil || resultText(res) != `{"n":"many"}` {
		t.Errorf("got isError %v, structuredContent %v, text %q; want the text alone", res.IsError, res.StructuredContent, resultText(res))
	}
	if len(rejected) != 1 || !strings.HasPrefix(rejected[0], "count result coerce: /n: want integer") {
		t.Errorf("OnError heard %q", rejected)
	}
}

// KeepResults leaves results to the handlers, and makes AddTool
// mcp.AddTool.
func TestKeepResults(t *testing.T) {
	server := newServer(nil)
	gosdkcoerce.Options{KeepResults: true}.Install(server)
	rawResults(server, itemsSchema, map[string]*mcp.CallToolResult{"x": {StructuredContent: map[string]any{"items": nil}}})
	gosdkcoerce.AddTool(server, &mcp.Tool{Name: "typed", OutputSchema: json.RawMessage(itemsSchema)}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, itemsOut, error) {
		return nil, itemsOut{}, nil
	})
	cs := connect(t, server, client{})
	if res := call(t, cs, "raw", map[string]any{"case": "x"}); structured(t, res) != `{"items":null}` {
		t.Errorf("structuredContent %s, want it as the handler returned it", structured(t, res))
	}
	if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "typed"}); err == nil {
		t.Error("the SDK accepted an output its schema refuses")
	}
}

// A result's repairs are reported, with the tool and the part.
func TestResultRepairsReported(t *testing.T) {
	server := newServer(nil)
	var mu sync.Mutex
	var heard []string
	gosdkcoerce.Options{OnChange: func(ctx context.Context, tool string, c coerce.Change) {
		mu.Lock()
		defer mu.Unlock()
		heard = append(heard, tool+" "+toolcall.PartOf(ctx).String()+" "+c.Path+" "+c.Rule.String())
	}}.Install(server)
	rawResults(server, itemsSchema, map[string]*mcp.CallToolResult{"x": {StructuredContent: map[string]any{"items": "[\"a\"]"}}})
	cs := connect(t, server, client{})
	call(t, cs, "raw", map[string]any{"case": "x"})
	mu.Lock()
	defer mu.Unlock()
	if want := "raw result /items json-text"; len(heard) != 1 || heard[0] != want {
		t.Errorf("OnChange heard %q, want %q", heard, want)
	}
}
