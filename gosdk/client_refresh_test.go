package gosdkcoerce_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coerce-go/coerce/gosdk"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// When the wrapper lists the tools again on MCP 2026-07-28: once the ttlMs
// of tools/list runs out (SEP-2549) and after a -32020 HeaderMismatch of
// Streamable HTTP (SEP-2243); and a listing that holds no call past its
// context.

// ttl is a server option that gives every list result the ttlMs d.
func ttl(d time.Duration) *mcp.ServerOptions {
	return &mcp.ServerOptions{SetCacheable: func(_ context.Context, _ mcp.Request, c *mcp.Cacheable) {
		c.TTLMs = int(d / time.Millisecond)
	}}
}

// A tool whose schema changes under its name, on a server that tells the
// client nothing: the wrapper coerces to the old schema while the listing's
// ttlMs lasts, without listing again, and to the new one once it has run
// out.
func TestClientRelistsWhenTTLRunsOut(t *testing.T) {
	const life = 1500 * time.Millisecond
	server := clientServer(ttl(life))
	listings := countListings(server)
	asInt := addStrict[countInt](server, "count")
	cs := gosdkcoerce.WrapClient(clientConnect(t, server, nil, ""))
	listed := time.Now()

	if res := callTool(t, cs, "count", map[string]any{"n": "5"}); res.IsError {
		t.Fatalf("before: %s", toolText(res))
	}
	if in := <-asInt; in.N != 5 {
		t.Fatalf("before: the handler got %+v", in)
	}
	server.RemoveTools("count")
	asString := addStrict[countString](server, "count")
	callTool(t, cs, "count", map[string]any{"n": "6"}) // coerced to the old schema: the server may refuse it
	if time.Since(listed) < life {
		if n := listings.Load(); n != 1 {
			t.Errorf("within the ttlMs, the tools were listed %d times, want 1", n)
		}
	}

	time.Sleep(time.Until(listed.Add(life + 100*time.Millisecond)))
	if res := callTool(t, cs, "count", map[string]any{"n": 7}); res.IsError {
		t.Fatalf("after the ttlMs: coerced to the old schema: %s", toolText(res))
	}
	if in := <-asString; in.N != "7" {
		t.Errorf("after the ttlMs: the handler got %+v", in)
	}
	if n := listings.Load(); n != 2 {
		t.Errorf("the tools were listed %d times in all, want 2", n)
	}
}

// ttlMs 0, what a go-sdk server sends unless told otherwise, says a listing
// is stale at once: each call lists the tools first. A legacy protocol's
// results carry no ttlMs (the SDK reads 0): there a listing lasts until
// something else says it is stale.
func TestClientTTLZeroListsBeforeEveryCall(t *testing.T) {
	for _, tt := range []struct {
		protocol string
		want     int64
	}{{"", 3}, {"2025-06-18", 1}} {
		t.Run("protocol="+tt.protocol, func(t *testing.T) {
			server := clientServer(nil)
			listings := countListings(server)
			got := addStrict[countInt](server, "count")
			cs := gosdkcoerce.WrapClient(clientConnect(t, server, nil, tt.protocol))
			for range 3 {
				callTool(t, cs, "count", map[string]any{"n": "5"})
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
// against the tool as it is when the call arrives (SEP-2243). Here the
// tool gains an x-mcp-header parameter right after the wrapper listed it,
// so the call goes without the header and the server answers -32020
// (HeaderMismatch) before any handler runs. The wrapper lists the tools
// again and sends the call once more, with the header, which the server
// accepts; the SDK's own session, given the same call, gets the error.
func TestClientRelistsAfterHeaderMismatch(t *testing.T) {
	const (
		plain  = `{"type":"object","properties":{"region":{"type":"string"},"n":{"type":"integer"}}}`
		header = `{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"},"n":{"type":"integer"}}}`
	)
	server := clientServer(nil)
	headed := make(chan json.RawMessage, 10) // what the tool with the header gets
	addHeaded := func() {
		server.RemoveTools("q")
		server.AddTool(&mcp.Tool{Name: "q", InputSchema: json.RawMessage(header)}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			headed <- req.Params.Arguments
			return &mcp.CallToolResult{}, nil
		})
	}
	var listings atomic.Int64
	var swap atomic.Bool // replace the tool with its x-mcp-header form after the next listing
	server.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			res, err := next(ctx, method, req)
			if method == "tools/list" {
				listings.Add(1)
				if swap.CompareAndSwap(true, false) {
					addHeaded()
				}
			}
			return res, err
		}
	})
	addRawTool(server, "q", plain)
	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, &mcp.StreamableHTTPOptions{Stateless: true}))
	t.Cleanup(ts.Close)
	ctx := context.Background()
	session, err := mcp.NewClient(&mcp.Implementation{Name: "host"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: ts.URL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { session.Close() })
	args := map[string]any{"region": "eu", "n": "5"}

	// The SDK's own session: listed, then the tool changes, then the call.
	if _, err := session.ListTools(ctx, nil); err != nil {
		t.Fatal(err)
	}
	addHeaded()
	_, err = session.CallTool(ctx, &mcp.CallToolParams{Name: "q", Arguments: map[string]any{"region": "eu", "n": 5}})
	var werr *jsonrpc.Error
	if !errors.As(err, &werr) || werr.Code != mcp.CodeHeaderMismatch {
		t.Fatalf("the SDK's session: got %v, want a -32020 error", err)
	}
	t.Logf("the SDK's session: %v", err)

	server.RemoveTools("q")
	addRawTool(server, "q", plain)
	before := listings.Load()
	swap.Store(true)
	res, err := gosdkcoerce.WrapClient(session).CallTool(ctx, &mcp.CallToolParams{Name: "q", Arguments: args})
	if err != nil {
		t.Fatalf("wrapped: %v", err)
	}
	if res.IsError {
		t.Fatalf("wrapped: %s", toolText(res))
	}
	if n := listings.Load() - before; n != 2 {
		t.Errorf("the wrapper listed the tools %d times, want 2 (before the call, and after the -32020)", n)
	}
	if a := <-headed; string(a) != `{"n":5,"region":"eu"}` {
		t.Errorf("the handler got %s", a)
	}
}

// slowListing makes server's tools/list wait until release is closed (or
// ten seconds pass), telling entered each time one starts waiting.
func slowListing(server *mcp.Server) (entered <-chan struct{}, release func()) {
	in := make(chan struct{}, 10)
	gate := make(chan struct{})
	server.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "tools/list" {
				in <- struct{}{}
				select {
				case <-gate:
				case <-time.After(10 * time.Second):
				}
			}
			return next(ctx, method, req)
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
			server := clientServer(nil)
			listings := countListings(server)
			entered, release := slowListing(server)
			t.Cleanup(release)
			got := addStrict[countInt](server, "count")
			cs := gosdkcoerce.WrapClient(clientConnect(t, server, nil, ""))

			patient := make(chan error, 1)
			callPatient := func() {
				go func() {
					_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "count", Arguments: map[string]any{"n": "5"}})
					patient <- err
				}()
			}
			hasty := make(chan time.Duration, 1)
			callHasty := func() {
				go func() {
					ctx, cancel := context.WithTimeout(context.Background(), deadline)
					defer cancel()
					start := time.Now()
					cs.CallTool(ctx, &mcp.CallToolParams{Name: "count", Arguments: map[string]any{"n": "6"}})
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
