package gosdkcoerce_test

import (
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"math/big"
	"strings"
	"sync"
	"testing"

	"github.com/coerce-go/coerce"
	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The tests run the SDK's own server and client in process, over the SDK's
// in-memory transports: the SDK validates typed tools' arguments as it does
// in production, and nothing of it is mocked.

func newServer(opts *mcp.ServerOptions) *mcp.Server {
	return mcp.NewServer(&mcp.Implementation{Name: "test-server", Version: "v0.0.1"}, opts)
}

// client configures the client side of a connection: nil for the SDK's
// defaults (the latest protocol, following no tool changes).
type client struct {
	opts    *mcp.ClientOptions
	session *mcp.ClientSessionOptions
}

// connect connects a client to server and returns its session; both ends
// close when the test ends.
func connect(t *testing.T, server *mcp.Server, c client) *mcp.ClientSession {
	t.Helper()
	ss, cs := connectBoth(t, server, c)
	t.Cleanup(func() { cs.Close(); ss.Close() })
	return cs
}

// connectBoth connects a client to server and returns both sessions; the
// caller closes them.
func connectBoth(t *testing.T, server *mcp.Server, c client) (*mcp.ServerSession, *mcp.ClientSession) {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test-client"}, c.opts).Connect(ctx, ct, c.session)
	if err != nil {
		ss.Close()
		t.Fatal(err)
	}
	return ss, cs
}

// legacy is a client that speaks the protocol of 2025-06-18, which most
// hosts speak: the server sends it every change of its tools unasked.
var legacy = client{session: &mcp.ClientSessionOptions{ProtocolVersion: "2025-06-18"}}

// following returns a client that follows tool changes, and the channel on
// which it reports each notifications/tools/list_changed it receives.
func following(c client) (client, <-chan struct{}) {
	changed := make(chan struct{}, 100)
	opts := mcp.ClientOptions{}
	if c.opts != nil {
		opts = *c.opts
	}
	opts.ToolListChangedHandler = func(context.Context, *mcp.ToolListChangedRequest) { changed <- struct{}{} }
	c.opts = &opts
	return c, changed
}

func call(t *testing.T, cs *mcp.ClientSession, tool string, arguments any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: arguments})
	if err != nil {
		t.Fatalf("CallTool(%s): %v", tool, err)
	}
	return res
}

func resultText(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// addTyped adds a tool with mcp.AddTool, its input schema inferred from In,
// and returns the channel on which its handler reports what it received.
func addTyped[In any](server *mcp.Server, name string) <-chan In {
	got := make(chan In, 100)
	mcp.AddTool(server, &mcp.Tool{Name: name}, func(ctx context.Context, req *mcp.CallToolRequest, in In) (*mcp.CallToolResult, any, error) {
		got <- in
		return nil, nil, nil
	})
	return got
}

// addRaw adds a tool with Server.AddTool and the given input schema, and
// returns the channel on which its handler reports the raw arguments it
// received.
func addRaw(server *mcp.Server, name string, inputSchema any) <-chan json.RawMessage {
	got := make(chan json.RawMessage, 100)
	server.AddTool(&mcp.Tool{Name: name, InputSchema: inputSchema}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		got <- req.Params.Arguments
		return &mcp.CallToolResult{}, nil
	})
	return got
}

// listedSchema compiles the input schema that server lists for tool, as a
// client sees it.
func listedSchema(t *testing.T, cs *mcp.ClientSession, tool string) *coerce.Schema {
	t.Helper()
	for tl, err := range cs.Tools(context.Background(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		if tl.Name != tool {
			continue
		}
		text, err := json.Marshal(tl.InputSchema)
		if err != nil {
			t.Fatal(err)
		}
		schema, err := coerce.ParseSchema(text)
		if err != nil {
			t.Fatal(err)
		}
		return schema
	}
	t.Fatalf("no tool %q", tool)
	return nil
}

// with returns a copy of args with the given parameters replaced.
func with(args, replaced map[string]any) map[string]any {
	out := maps.Clone(args)
	maps.Copy(out, replaced)
	return out
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	text, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return text
}

// diffJSON compares two JSON texts by value, numbers by their exact decimal
// value (so 5 and 5.0 are equal, 9007199254740993 and 9007199254740992 are
// not), and returns a go-cmp diff, -want +got, or "".
func diffJSON(want, got []byte) string {
	decode := func(text []byte) any {
		d := json.NewDecoder(bytes.NewReader(text))
		d.UseNumber()
		var v any
		if err := d.Decode(&v); err != nil {
			return "invalid JSON: " + string(text)
		}
		return v
	}
	return cmp.Diff(decode(want), decode(got), cmp.Comparer(func(a, b json.Number) bool {
		x, okx := new(big.Rat).SetString(string(a))
		y, oky := new(big.Rat).SetString(string(b))
		return okx && oky && x.Cmp(y) == 0
	}))
}

// probe is a receiving middleware that records the requests it sees.
type probe struct {
	mu       sync.Mutex
	requests []seen
}

type seen struct {
	method string
	req    mcp.Request
}

func (p *probe) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		p.mu.Lock()
		p.requests = append(p.requests, seen{method, req})
		p.mu.Unlock()
		return next(ctx, method, req)
	}
}

// all returns what the probe has seen so far.
func (p *probe) all() []seen {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]seen(nil), p.requests...)
}

// count returns how many requests for method the probe has seen.
func (p *probe) count(method string) int {
	n := 0
	for _, s := range p.all() {
		if s.method == method {
			n++
		}
	}
	return n
}

// arguments returns the arguments of the tool calls the probe has seen, in
// order.
func (p *probe) arguments() []json.RawMessage {
	var args []json.RawMessage
	for _, s := range p.all() {
		if c, ok := s.req.(*mcp.CallToolRequest); ok {
			args = append(args, c.Params.Arguments)
		}
	}
	return args
}
