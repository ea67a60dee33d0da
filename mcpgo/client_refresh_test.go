package mcpgocoerce_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coerce-go/coerce/mcpgo"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// When the wrapper lists the tools again on MCP 2026-07-28: once the ttlMs
// of tools/list runs out (SEP-2549) and after a -32020 HeaderMismatch of
// Streamable HTTP (SEP-2243); and a listing that holds no call past its
// context.

// quietServer is a strict server that tells its clients nothing of changes
// to its tools (no listChanged), and counts its listings.
func quietServer(opts ...server.ServerOption) (*server.MCPServer, *atomic.Int64) {
	var listings atomic.Int64
	hooks := &server.Hooks{}
	hooks.AddBeforeListTools(func(context.Context, any, *mcp.ListToolsRequest) { listings.Add(1) })
	opts = append([]server.ServerOption{server.WithInputSchemaValidation(), server.WithToolCapabilities(false), server.WithHooks(hooks)}, opts...)
	return server.NewMCPServer("quiet", "1.0.0", opts...), &listings
}

// A tool whose schema changes under its name, on a server that tells the
// client nothing: the wrapper coerces to the old schema while the listing's
// ttlMs lasts, without listing again, and to the new one once it has run
// out.
func TestClientRelistsWhenTTLRunsOut(t *testing.T) {
	const life = 1500 * time.Millisecond
	s, listings := quietServer(server.WithCacheHints(int64(life/time.Millisecond), ""))
	asInt := addTypedTool[clientCountInt](s, mcp.NewTool("count", mcp.WithInteger("n")))
	cs := mcpgocoerce.WrapClient(startClient(t, s))
	listed := time.Now()

	mustCall(t, cs, "count", map[string]any{"n": "5"})
	if in := <-asInt; in.N != 5 {
		t.Fatalf("before: the handler got %+v", in)
	}
	s.DeleteTools("count")
	asString := addTypedTool[clientCountString](s, mcp.NewTool("count", mcp.WithString("n")))
	cs.CallTool(context.Background(), callRequest("count", map[string]any{"n": "6"})) // coerced to the old schema: the server may refuse it
	if time.Since(listed) < life {
		if n := listings.Load(); n != 1 {
			t.Errorf("within the ttlMs, the tools were listed %d times, want 1", n)
		}
	}

	time.Sleep(time.Until(listed.Add(life + 100*time.Millisecond)))
	mustCall(t, cs, "count", map[string]any{"n": 7})
	if in := <-asString; in.N != "7" {
		t.Errorf("after the ttlMs: the handler got %+v", in)
	}
	if n := listings.Load(); n != 2 {
		t.Errorf("the tools were listed %d times in all, want 2", n)
	}
}

// ttlMs 0, what an mcp-go server sends unless told otherwise, says a
// listing is stale at once: each call lists the tools first. A legacy
// protocol's results carry no ttlMs: there a listing lasts until something
// else says it is stale.
func TestClientTTLZeroListsBeforeEveryCall(t *testing.T) {
	for _, tt := range []struct {
		protocol string
		want     int64
	}{{"", 3}, {mcp.LATEST_LEGACY_PROTOCOL_VERSION, 1}} {
		t.Run("protocol="+tt.protocol, func(t *testing.T) {
			s, listings := quietServer()
			got := addTypedTool[clientCountInt](s, mcp.NewTool("count", mcp.WithInteger("n")))
			cs := mcpgocoerce.WrapClient(startClientAt(t, s, tt.protocol))
			for range 3 {
				mustCall(t, cs, "count", map[string]any{"n": "5"})
				if in := <-got; in.N != 5 {
					t.Fatalf("the handler got %+v", in)
				}
			}
			if n := listings.Load(); n != tt.want {
				t.Errorf("3 calls listed the tools %d times, want %d", n, tt.want)
			}
		})
	}
}

// A server on Streamable HTTP checks each call's Mcp-Param-* headers
// against the tool as it is when the call arrives (SEP-2243), and mcp-go's
// client writes them from its last listing. Here the tool gains an
// x-mcp-header parameter after the wrapper listed it, within the listing's
// ttlMs, and the server tells no one: the call goes without the header and
// the server answers -32020 (HeaderMismatch) before any handler runs. The
// wrapper lists the tools again and sends the call once more, with the
// header, which the server accepts; mcp-go's own client, given the same
// call, gets the error.
func TestClientRelistsAfterHeaderMismatch(t *testing.T) {
	const (
		plain  = `{"type":"object","properties":{"region":{"type":"string"},"n":{"type":"integer"}}}`
		header = `{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"},"n":{"type":"integer"}}}`
	)
	s, listings := quietServer(server.WithCacheHints(int64(time.Hour/time.Millisecond), ""))
	got := make(chan json.RawMessage, 10)
	addQ := func(schema string) {
		s.DeleteTools("q")
		s.AddTool(mcp.NewToolWithRawSchema("q", "", json.RawMessage(schema)), func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			got <- req.Params.RawArguments
			return mcp.NewToolResultText("ok"), nil
		})
	}
	addQ(plain)
	ts := httptest.NewServer(server.NewStreamableHTTPServer(s))
	t.Cleanup(ts.Close)
	ctx := context.Background()
	connectHTTP := func() *client.Client {
		c, err := client.NewStreamableHttpClient(ts.URL + "/mcp")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		if err := c.Start(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := c.Initialize(ctx, mcp.InitializeRequest{Params: mcp.InitializeParams{ClientInfo: mcp.Implementation{Name: "host"}}}); err != nil {
			t.Fatal(err)
		}
		if v := c.ProtocolVersion(); !mcp.IsModernProtocol(v) {
			t.Fatalf("protocol %q, want 2026-07-28 or later", v)
		}
		return c
	}

	// mcp-go's own client: listed, then the tool changes, then the call.
	plainClient := connectHTTP()
	if _, err := plainClient.ListTools(ctx, mcp.ListToolsRequest{}); err != nil {
		t.Fatal(err)
	}
	addQ(header)
	_, err := plainClient.CallTool(ctx, callRequest("q", map[string]any{"region": "eu", "n": 5}))
	if !mcp.IsHeaderMismatch(err) {
		t.Fatalf("mcp-go's client: got %v, want a -32020 error", err)
	}
	t.Logf("mcp-go's client: %v", err)

	addQ(plain)
	cs := mcpgocoerce.WrapClient(connectHTTP())
	before := listings.Load()
	mustCall(t, cs, "q", map[string]any{"region": "eu", "n": "5"})
	if a := <-got; string(a) != `{"n":5,"region":"eu"}` {
		t.Errorf("before: the handler got %s", a)
	}
	addQ(header)
	res, err := cs.CallTool(ctx, callRequest("q", map[string]any{"region": "eu", "n": "6"}))
	if text, ok := outcome(res, err); !ok {
		t.Fatalf("wrapped: %s", text)
	}
	if a := <-got; string(a) != `{"n":6,"region":"eu"}` {
		t.Errorf("after: the handler got %s", a)
	}
	if n := listings.Load() - before; n != 2 {
		t.Errorf("the wrapper listed the tools %d times, want 2 (at the first call, and after the -32020)", n)
	}
}

// slowListing makes s's tools/list wait until release is called (or ten
// seconds pass), telling entered each time one starts waiting.
func slowListing(hooks *server.Hooks) (entered <-chan struct{}, release func()) {
	in := make(chan struct{}, 10)
	gate := make(chan struct{})
	hooks.AddBeforeListTools(func(context.Context, any, *mcp.ListToolsRequest) {
		in <- struct{}{}
		select {
		case <-gate:
		case <-time.After(10 * time.Second):
		}
	})
	var once atomic.Bool
	return in, func() {
		if once.CompareAndSwap(false, true) {
			close(gate)
		}
	}
}

// While one call waits for a slow tools/list, another call with a short
// deadline returns by its deadline, whichever of them started the listing;
// the listing goes on for the call that still waits, which is repaired
// once it ends, and is made once.
func TestClientCallReturnsByItsDeadlineWhileListingIsSlow(t *testing.T) {
	const deadline = 300 * time.Millisecond
	for _, shortFirst := range []bool{false, true} {
		name := "the patient call lists"
		if shortFirst {
			name = "the hasty call lists"
		}
		t.Run(name, func(t *testing.T) {
			hooks := &server.Hooks{}
			var listings atomic.Int64
			hooks.AddBeforeListTools(func(context.Context, any, *mcp.ListToolsRequest) { listings.Add(1) })
			entered, release := slowListing(hooks)
			t.Cleanup(release)
			s := strictServer(server.WithHooks(hooks))
			got := addTypedTool[clientCountInt](s, mcp.NewTool("count", mcp.WithInteger("n")))
			cs := mcpgocoerce.WrapClient(startClient(t, s))

			patient := make(chan error, 1)
			callPatient := func() {
				go func() {
					_, err := cs.CallTool(context.Background(), callRequest("count", map[string]any{"n": "5"}))
					patient <- err
				}()
			}
			hasty := make(chan time.Duration, 1)
			callHasty := func() {
				go func() {
					ctx, cancel := context.WithTimeout(context.Background(), deadline)
					defer cancel()
					start := time.Now()
					cs.CallTool(ctx, callRequest("count", map[string]any{"n": "6"}))
					hasty <- time.Since(start)
				}()
			}
			if shortFirst {
				callHasty()
				<-entered
				callPatient()
			} else {
				callPatient()
				<-entered
				callHasty()
			}
			select {
			case took := <-hasty:
				t.Logf("the call with a deadline of %v returned after %v", deadline, took)
				if took > deadline+time.Second {
					t.Errorf("the call with a deadline of %v returned after %v", deadline, took)
				}
			case <-time.After(deadline + 5*time.Second):
				t.Fatalf("the call with a deadline of %v has not returned after %v", deadline, deadline+5*time.Second)
			}
			release()
			if err := <-patient; err != nil {
				t.Fatalf("the patient call: %v", err)
			}
			if in := <-got; in.N != 5 {
				t.Errorf("the patient call: the handler got %+v", in)
			}
			if n := listings.Load(); n != 1 {
				t.Errorf("the tools were listed %d times, want 1", n)
			}
		})
	}
}
