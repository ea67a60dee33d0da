package gosdkcoerce

import (
	"context"
	"encoding/json"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/coerce-go/coerce"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// server stands for the tools a server lists, and counts the listings.
type server struct {
	mu       sync.Mutex
	tools    []*mcp.Tool
	listings atomic.Int32
}

func (s *server) set(tools ...*mcp.Tool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tools = tools
}

func (s *server) list(context.Context) ([]*mcp.Tool, error) {
	s.listings.Add(1)
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*mcp.Tool(nil), s.tools...), nil
}

func tool(name, schema string) *mcp.Tool {
	return &mcp.Tool{Name: name, InputSchema: json.RawMessage(schema)}
}

func lookup(t *testing.T, c *toolCache, s *server, name string) *toolEntry {
	t.Helper()
	e, err := c.lookup(context.Background(), name, s.list)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// Each registered tool is compiled once, however often the tools are
// listed; a tool registered anew under its name is compiled anew.
func TestEntriesOutliveListings(t *testing.T) {
	var (
		c toolCache
		s server
	)
	a, b := tool("a", `{"type":"object","properties":{"n":{"type":"integer"}}}`), tool("b", `{"type":"object"}`)
	s.set(a, b)
	ea := lookup(t, &c, &s, "a")
	schema, err := ea.schema(coerce.Options{})
	if err != nil {
		t.Fatal(err)
	}

	c.invalidate()
	if e := lookup(t, &c, &s, "a"); e != ea {
		t.Error("an unchanged tool got a new entry")
	}
	if again, _ := ea.schema(coerce.Options{}); again != schema {
		t.Error("an unchanged tool was compiled again")
	}

	a2 := tool("a", `{"type":"object","properties":{"n":{"type":"string"}}}`)
	s.set(a2, b)
	c.invalidate()
	if e := lookup(t, &c, &s, "a"); e == ea || e.def != a2 {
		t.Error("a tool registered anew kept its old entry")
	}
	if n := s.listings.Load(); n != 3 {
		t.Errorf("%d listings, want 3", n)
	}
}

// A call finds a tool added since the last listing, and a name the server
// does not have costs a listing and gives no entry.
func TestMisses(t *testing.T) {
	var (
		c toolCache
		s server
	)
	s.set(tool("a", `{"type":"object"}`))
	lookup(t, &c, &s, "a")
	s.set(tool("a", `{"type":"object"}`), tool("b", `{"type":"object"}`))
	if e := lookup(t, &c, &s, "b"); e == nil {
		t.Error("b not found")
	}
	if e := lookup(t, &c, &s, "nope"); e != nil {
		t.Error("found a tool the server does not have")
	}
	if n := s.listings.Load(); n != 3 {
		t.Errorf("%d listings, want 3", n)
	}
}

// Calls that find the cache stale at once share one listing.
func TestConcurrentLookupsShareAListing(t *testing.T) {
	var (
		c toolCache
		s server
	)
	s.set(tool("a", `{"type":"object"}`))
	lookup(t, &c, &s, "a")
	c.invalidate()

	start := make(chan struct{})
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			<-start
			if e, err := c.lookup(context.Background(), "a", s.list); e == nil || err != nil {
				t.Errorf("lookup: %v, %v", e, err)
			}
		})
	}
	close(start)
	wg.Wait()
	if n := s.listings.Load(); n != 2 {
		t.Errorf("%d listings, want 2", n)
	}
}

// A call whose arguments conform, of a tool already known, costs no
// allocation in the middleware: the request goes on as it came.
func TestConformingCallAllocatesNothing(t *testing.T) {
	tools := []*mcp.Tool{tool("a", `{"type":"object","properties":{"n":{"type":"integer"},"tags":{"type":"array"}}}`)}
	next := func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method == methodListTools {
			return &mcp.ListToolsResult{Tools: tools}, nil
		}
		return nil, nil
	}
	h := (&coercer{}).middleware(next)
	ctx := context.Background()
	call := &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: "a", Arguments: json.RawMessage(`{"n":1,"tags":["x"]}`)}}
	if _, err := h(ctx, methodCallTool, call); err != nil { // lists the tools, compiles a
		t.Fatal(err)
	}
	allocs := testing.AllocsPerRun(100, func() {
		if _, err := h(ctx, methodCallTool, call); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per call, want 0", allocs)
	}
}

// A result that conforms to the tool's output schema costs no allocation
// either, with arguments and without: it goes back as it came.
func TestConformingResultAllocatesNothing(t *testing.T) {
	a := tool("a", `{"type":"object","properties":{"n":{"type":"integer"}}}`)
	a.OutputSchema = json.RawMessage(`{"type":"object","properties":{"items":{"type":"array","items":{"type":"string"}},"note":{"type":["string","null"]}},"required":["items"]}`)
	result := &mcp.CallToolResult{StructuredContent: json.RawMessage(`{"items":["x"],"note":null}`)}
	next := func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method == methodListTools {
			return &mcp.ListToolsResult{Tools: []*mcp.Tool{a}}, nil
		}
		return result, nil
	}
	h := (&coercer{}).middleware(next)
	ctx := context.Background()
	for _, args := range []string{`{"n":1}`, ``} {
		call := &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: "a", Arguments: json.RawMessage(args)}}
		if res, err := h(ctx, methodCallTool, call); err != nil || res != result {
			t.Fatalf("got %v, %v; want the handler's result", res, err)
		}
		allocs := testing.AllocsPerRun(100, func() {
			if _, err := h(ctx, methodCallTool, call); err != nil {
				t.Fatal(err)
			}
		})
		if allocs != 0 {
			t.Errorf("arguments %q: %v allocations per call, want 0", args, allocs)
		}
	}
}
