package mcpgocoerce_test

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/coerce-go/coerce"
	"github.com/coerce-go/coerce/mcpgo"
	"github.com/coerce-go/coerce/toolcall"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// On MCP 2026-07-28 each request names its client in _meta (SEP-2575), and
// mcp-go copies that name onto the session as each request arrives, so the
// session names the client of whichever request came last. Two calls of
// two clients over one session (a gateway's), the second arriving while
// the first is between the server's hooks: each call is attributed to the
// client its _meta names, not to the one that wrote the session last.
func TestCallAttributedToClientInMeta(t *testing.T) {
	type heard struct{ listener, client string }
	var mu sync.Mutex
	var got []heard
	hear := func(listener string) func(ctx context.Context) {
		return func(ctx context.Context) {
			name, _, _ := toolcall.Client(ctx)
			mu.Lock()
			got = append(got, heard{listener, name})
			mu.Unlock()
		}
	}
	onChange, onError := hear("OnChange"), hear("OnError")

	s := strictServer()
	// A hook of the server's own, before coercion's: it holds agent-a's
	// call until agent-b's has arrived (and passed it).
	aWaits, bArrived := make(chan struct{}), make(chan struct{})
	hooks := &server.Hooks{}
	hooks.AddBeforeCallTool(func(ctx context.Context, _ any, _ *mcp.CallToolRequest) {
		info := server.RequestProtocolInfoFromContext(ctx)
		if info == nil || info.ClientInfo == nil {
			return
		}
		switch info.ClientInfo.Name {
		case "agent-a":
			close(aWaits)
			<-bArrived
		case "agent-b":
			close(bArrived)
		}
	})
	server.WithHooks(hooks)(s)
	mcpgocoerce.Options{
		OnChange: func(ctx context.Context, _ string, _ coerce.Change) { onChange(ctx) },
		OnError:  func(ctx context.Context, _ string, _ error) { onError(ctx) },
	}.Install(s)
	gotArgs := addTypedTool[clientCountInt](s, mcp.NewTool("count", mcp.WithNumber("n")))

	// A client that names no client of its own: each call names one in
	// its _meta.
	c, err := client.NewInProcessClient(s)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if _, err := c.Initialize(ctx, mcp.InitializeRequest{}); err != nil {
		t.Fatal(err)
	}
	callAs := func(name string, args map[string]any) {
		req := callRequest("count", args)
		req.Params.Meta = &mcp.Meta{}
		req.Params.Meta.SetClientInfo(mcp.Implementation{Name: name, Version: "1"})
		if _, err := c.CallTool(ctx, req); err != nil {
			t.Error(err)
		}
	}

	var wg sync.WaitGroup
	wg.Go(func() { callAs("agent-a", map[string]any{"n": "5"}) }) // one repair
	<-aWaits
	callAs("agent-b", map[string]any{"n": "ten"}) // one rejection
	wg.Wait()
	<-gotArgs

	mu.Lock()
	defer mu.Unlock()
	slices.SortFunc(got, func(a, b heard) int { return strings.Compare(a.listener, b.listener) })
	want := []heard{{"OnChange", "agent-a"}, {"OnError", "agent-b"}}
	if !slices.Equal(got, want) {
		t.Errorf("the listeners heard %v, want %v", got, want)
	}
}
