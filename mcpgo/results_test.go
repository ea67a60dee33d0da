package mcpgocoerce_test

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
	"github.com/coerce-go/coerce/mcpgo"
	"github.com/coerce-go/coerce/toolcall"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// The result tests run mcp-go's server with WithOutputSchemaValidation, so
// that a result its output schema refuses becomes an error, and its client
// in process, which reads the result from the JSON the server wrote and
// validates nothing.

// itemsSchema declares items an array, as a hand-written schema does.
const itemsSchema = `{"type":"object","properties":{"items":{"type":"array","items":{"type":"string"}}},"required":["items"]}`

type itemsOut struct {
	Items []string `json:"items"`
}

func resultServer(install func(*server.MCPServer)) *server.MCPServer {
	s := server.NewMCPServer("results", "1.0.0", server.WithOutputSchemaValidation())
	if install != nil {
		install(s)
	}
	return s
}

// structuredOf is the structuredContent a client received, as the JSON
// text the server wrote; "" for none.
func structuredOf(res *mcp.CallToolResult) string {
	return string(res.RawStructuredContent)
}

func textOf(res *mcp.CallToolResult) string {
	text, _ := outcome(res, nil)
	return text
}

func callResult(t *testing.T, c client.MCPClient, name string, args any) *mcp.CallToolResult {
	t.Helper()
	res, err := c.CallTool(context.Background(), callRequest(name, args))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return res
}

// A structured handler that returns a nil slice for an array: with Install
// the client gets [], in structuredContent and in the text content mcp-go
// writes from it; without, the server's validation answers an error.
func TestStructuredNilSlice(t *testing.T) {
	tool := mcp.NewTool("list", mcp.WithRawOutputSchema(json.RawMessage(itemsSchema)))
	handler := mcp.NewStructuredToolHandler(func(context.Context, mcp.CallToolRequest, struct{}) (itemsOut, error) {
		return itemsOut{Items: nil}, nil
	})

	s := resultServer(mcpgocoerce.Install)
	s.AddTool(tool, handler)
	res := callResult(t, connect(t, s), "list", map[string]any{})
	if res.IsError || structuredOf(res) != `{"items":[]}` || textOf(res) != `{"items":[]}` {
		t.Errorf("isError %v, structuredContent %s, text %q; want {\"items\":[]} in both", res.IsError, structuredOf(res), textOf(res))
	}

	plain := resultServer(nil)
	plain.AddTool(tool, handler)
	if res := callResult(t, connect(t, plain), "list", map[string]any{}); !res.IsError || !strings.Contains(textOf(res), "output schema validation failed") {
		t.Errorf("without Install: isError %v, text %q", res.IsError, textOf(res))
	}
}

// rawResults adds a tool "raw" with the given output schema, whose handler
// returns the result given for each call's "case" argument.
func rawResults(s *server.MCPServer, outputSchema string, results map[string]*mcp.CallToolResult) {
	tool := mcp.NewTool("raw", mcp.WithString("case"), mcp.WithRawOutputSchema(json.RawMessage(outputSchema)))
	s.AddTool(tool, func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return results[req.GetString("case", "")], nil
	})
}

// Results rule by rule: Go values as encoding/json writes them, and JSON
// text, coerced; what cannot be fixed sent as text only, which the server's
// validation lets through; errors left alone.
func TestResults(t *testing.T) {
	const schema = `{"type":"object","properties":{
		"items":{"type":"array","items":{"type":"string"}},
		"at":{"type":"string"},
		"n":{"type":"integer"},
		"filter":{"type":"string"},
		"color":{"enum":["red","green"]}
	},"required":["items","n"]}`
	at := time.Date(2026, 7, 28, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		name       string
		res        *mcp.CallToolResult
		structured string // "": none
		text       string
		isError    bool
		rejected   string // the path OnError hears of; "-": nothing heard
	}{
		{
			name:       "Go values, through mcp.NewToolResultStructuredOnly",
			res:        mcp.NewToolResultStructuredOnly(map[string]any{"items": []string(nil), "at": at, "n": "5", "filter": map[string]any{"k": 1}}),
			structured: `{"at":"2026-07-28T12:00:00Z","filter":"{\"k\":1}","items":[],"n":5}`,
			text:       `{"at":"2026-07-28T12:00:00Z","filter":"{\"k\":1}","items":[],"n":5}`,
			rejected:   "-",
		},
		{
			name:       "JSON text, another text content kept",
			res:        mcp.NewToolResultStructured(json.RawMessage(`{"items":"[\"a\"]","n":1}`), "found one"),
			structured: `{"items":["a"],"n":1}`,
			text:       "found one",
			rejected:   "-",
		},
		{
			name:       "RawStructuredContent",
			res:        &mcp.CallToolResult{RawStructuredContent: json.RawMessage(`{"items":[],"n":"2"}`), StructuredContent: map[string]any{"items": []any{}, "n": "2"}},
			structured: `{"items":[],"n":2}`,
			rejected:   "-",
		},
		{
			name:     "unfixable: text only",
			res:      mcp.NewToolResultStructuredOnly(map[string]any{"items": []string{}, "n": "five"}),
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
			res:        &mcp.CallToolResult{IsError: true, StructuredContent: map[string]any{"n": "five"}, Content: []mcp.Content{mcp.NewTextContent("failed")}},
			structured: `{"n":"five"}`,
			text:       "failed",
			isError:    true,
			rejected:   "-",
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			var mu sync.Mutex
			var heard []string
			var parts []toolcall.Part
			var logs bytes.Buffer
			s := resultServer(mcpgocoerce.Options{
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
			}.Install)
			rawResults(s, schema, map[string]*mcp.CallToolResult{"x": c.res})
			res := callResult(t, connect(t, s), "raw", map[string]any{"case": "x"})
			if res.IsError != c.isError || structuredOf(res) != c.structured || (c.text != "" && textOf(res) != c.text) {
				t.Errorf("isError %v, structuredContent %s, text %q; want %v, %s, %q", res.IsError, structuredOf(res), textOf(res), c.isError, c.structured, c.text)
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

// A result that conforms leaves the server as the handler returned it: the
// same result, its structuredContent the same json.RawMessage.
func TestConformingResultUntouched(t *testing.T) {
	hooks := &server.Hooks{}
	var mu sync.Mutex
	var after []*mcp.CallToolResult
	hooks.AddAfterCallTool(func(_ context.Context, _ any, _ *mcp.CallToolRequest, result any) {
		mu.Lock()
		defer mu.Unlock()
		after = append(after, result.(*mcp.CallToolResult))
	})
	s := server.NewMCPServer("results", "1.0.0", server.WithOutputSchemaValidation(), server.WithHooks(hooks))
	mcpgocoerce.Install(s)
	sent := &mcp.CallToolResult{StructuredContent: json.RawMessage(`{ "n": 5,  "items": ["a"] }`)}
	rawResults(s, itemsSchema, map[string]*mcp.CallToolResult{"x": sent})
	callResult(t, connect(t, s), "raw", map[string]any{"case": "x"})
	mu.Lock()
	defer mu.Unlock()
	if len(after) != 1 || after[0] != sent {
		t.Errorf("the server answered %+v, want the handler's own result", after)
	}
}

// SEP-2106: an output schema whose root is not an object.
func TestNonObjectOutputSchema(t *testing.T) {
	s := resultServer(mcpgocoerce.Install)
	rawResults(s, `{"type":"array","items":{"type":"integer"}}`, map[string]*mcp.CallToolResult{
		"nil":     mcp.NewToolResultStructuredOnly([]int(nil)),
		"strings": mcp.NewToolResultStructuredOnly([]string{"1", "2"}),
		"bad":     mcp.NewToolResultStructured([]any{1, "x"}, "1 and x"),
	})
	c := connect(t, s)
	for name, want := range map[string]string{"nil": `[]`, "strings": `[1,2]`} {
		if res := callResult(t, c, "raw", map[string]any{"case": name}); structuredOf(res) != want || textOf(res) != want {
			t.Errorf("%s: structuredContent %s, text %q, want %s", name, structuredOf(res), textOf(res), want)
		}
	}
	if res := callResult(t, c, "raw", map[string]any{"case": "bad"}); res.IsError || structuredOf(res) != "" || textOf(res) != "1 and x" {
		t.Errorf("bad: isError %v, structuredContent %s, text %q; want the text alone", res.IsError, structuredOf(res), textOf(res))
	}
}

// KeepResults leaves results to the handlers, and to the server's
// validation.
func TestKeepResults(t *testing.T) {
	s := resultServer(mcpgocoerce.Options{KeepResults: true}.Install)
	rawResults(s, itemsSchema, map[string]*mcp.CallToolResult{"x": mcp.NewToolResultStructuredOnly(itemsOut{})})
	if res := callResult(t, connect(t, s), "raw", map[string]any{"case": "x"}); !res.IsError {
		t.Errorf("the server's validation let %s through", structuredOf(res))
	}
}

// A result's repairs are reported with the tool, the part and the client,
// and a repaired call's notice still follows its result.
func TestResultRepairsReported(t *testing.T) {
	var mu sync.Mutex
	var heard []string
	s := resultServer(mcpgocoerce.Options{NoticeRepairs: true, OnChange: func(ctx context.Context, tool string, c coerce.Change) {
		mu.Lock()
		defer mu.Unlock()
		name, _, _ := toolcall.Client(ctx)
		heard = append(heard, tool+" "+toolcall.PartOf(ctx).String()+" "+c.Path+" "+c.Rule.String()+" "+name)
	}}.Install)
	rawResults(s, itemsSchema, map[string]*mcp.CallToolResult{"5": mcp.NewToolResultStructured(map[string]any{"items": `["a"]`}, "one")})
	res := callResult(t, connect(t, s), "raw", map[string]any{"case": 5})
	mu.Lock()
	defer mu.Unlock()
	want := []string{"raw arguments /case number-to-text mcpgocoerce-test", "raw result /items json-text mcpgocoerce-test"}
	if strings.Join(heard, "\n") != strings.Join(want, "\n") {
		t.Errorf("OnChange heard:\n%s\nwant:\n%s", strings.Join(heard, "\n"), strings.Join(want, "\n"))
	}
	if structuredOf(res) != `{"items":["a"]}` || !strings.HasPrefix(textOf(res), "one") || textOf(res) == "one" {
		t.Errorf("structuredContent %s, text %q; want the repaired result and the notice", structuredOf(res), textOf(res))
	}
}
