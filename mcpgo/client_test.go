package mcpgocoerce_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coerce-go/coerce"
	"github.com/coerce-go/coerce/coercetest"
	"github.com/coerce-go/coerce/mcpgo"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// The client tests run mcp-go's own server with input validation on and no
// coercion installed (a server the host does not own), and mcp-go's own
// client, in process.

func strictServer(opts ...server.ServerOption) *server.MCPServer {
	opts = append([]server.ServerOption{server.WithInputSchemaValidation(), server.WithToolCapabilities(true)}, opts...)
	return server.NewMCPServer("strict", "1.0.0", opts...)
}

// startClient starts an in-process client of s and initializes it; it
// closes when the test ends.
func startClient(t *testing.T, s *server.MCPServer, options ...client.ClientOption) *client.Client {
	t.Helper()
	return startClientAt(t, s, "", options...)
}

// startClientAt is startClient on the given protocol version ("": the
// latest).
func startClientAt(t *testing.T, s *server.MCPServer, protocol string, options ...client.ClientOption) *client.Client {
	t.Helper()
	c, err := client.NewInProcessClientWithOptions(s, options...)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if _, err := c.Initialize(ctx, mcp.InitializeRequest{Params: mcp.InitializeParams{ProtocolVersion: protocol, ClientInfo: mcp.Implementation{Name: "host"}}}); err != nil {
		t.Fatal(err)
	}
	return c
}

// addTypedTool adds tool with a typed handler, which binds the raw
// arguments into In, and returns the channel on which it reports them.
func addTypedTool[In any](s *server.MCPServer, tool mcp.Tool) <-chan In {
	got := make(chan In, 1000)
	s.AddTool(tool, mcp.NewTypedToolHandler(func(_ context.Context, _ mcp.CallToolRequest, in In) (*mcp.CallToolResult, error) {
		got <- in
		return mcp.NewToolResultText("ok"), nil
	}))
	return got
}

func callRequest(name string, args any) mcp.CallToolRequest {
	var req mcp.CallToolRequest
	req.Params.Name = name
	req.Params.Arguments = args
	return req
}

// outcome is what the caller of a tool sees: the protocol error, or the
// tool's result, in a line.
func outcome(res *mcp.CallToolResult, err error) (string, bool) {
	if err != nil {
		return "error: " + err.Error(), false
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String(), !res.IsError
}

func mustCall(t *testing.T, c client.MCPClient, name string, args any) {
	t.Helper()
	if text, ok := outcome(c.CallTool(context.Background(), callRequest(name, args))); !ok {
		t.Fatalf("%s(%v): %s", name, args, text)
	}
}

type clientTagArgs struct {
	Tags []string `json:"tags"`
}

func tagTool(name string) mcp.Tool {
	return mcp.NewTool(name, mcp.WithArray("tags", mcp.WithStringItems()))
}

// The call as a model makes it, with an array as JSON text: the strict
// server rejects it from mcp-go's own client, and accepts it through the
// wrapper, whose handler receives the array.
func TestClientRepairsWhatTheServerRejects(t *testing.T) {
	s := strictServer()
	got := addTypedTool[clientTagArgs](s, tagTool("tag"))
	c := startClient(t, s)
	broken := map[string]any{"tags": `["a"]`}

	text, ok := outcome(c.CallTool(context.Background(), callRequest("tag", broken)))
	if ok {
		t.Fatalf("the server accepted %v sent raw", broken)
	}
	if !strings.Contains(text, "tags") {
		t.Errorf("the server's rejection does not name tags: %s", text)
	}
	t.Logf("raw: %s", text)

	mustCall(t, mcpgocoerce.WrapClient(c), "tag", broken)
	if in := <-got; !reflect.DeepEqual(in.Tags, []string{"a"}) {
		t.Errorf("the handler got %#v, want [a]", in.Tags)
	}
	if want := `["a"]`; broken["tags"] != want {
		t.Errorf("the caller's arguments changed: %v", broken)
	}
}

type clientCountInt struct {
	N int `json:"n"`
}

type clientCountString struct {
	N string `json:"n"`
}

// A tool registered again with another schema under its name is coerced to
// the new one once the server says its tools changed, and the client's
// other notification handlers still hear of it. On the latest protocol
// and on the legacy one.
func TestClientFollowsToolListChanged(t *testing.T) {
	for _, tt := range []struct {
		name    string
		options []client.ClientOption
	}{
		{"latest", nil},
		{"legacy", []client.ClientOption{client.WithProtocolVersion("2025-06-18")}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := strictServer()
			asInt := addTypedTool[clientCountInt](s, mcp.NewTool("count", mcp.WithInteger("n")))
			c := startClient(t, s, tt.options...)
			changed := make(chan struct{}, 100)
			cs := mcpgocoerce.WrapClient(c)
			c.OnNotification(func(n mcp.JSONRPCNotification) {
				if n.Method == mcp.MethodNotificationToolsListChanged {
					changed <- struct{}{}
				}
			})

			mustCall(t, cs, "count", map[string]any{"n": "5"})
			if in := <-asInt; in.N != 5 {
				t.Fatalf("before: the handler got %+v", in)
			}

			asString := addTypedTool[clientCountString](s, mcp.NewTool("count", mcp.WithString("n")))
			<-changed
			mustCall(t, cs, "count", map[string]any{"n": 5})
			if in := <-asString; in.N != "5" {
				t.Errorf("after: the handler got %+v", in)
			}
		})
	}
}

// A call naming a tool the server does not have is sent as given: the
// server answers it as it answers mcp-go's own client. A tool added after
// the first listing is found by the next call that names it, whether or
// not the notification came first.
func TestClientUnknownTools(t *testing.T) {
	s := strictServer(server.WithToolCapabilities(false)) // tells no one of changes
	addTypedTool[clientTagArgs](s, tagTool("tag"))
	c := startClient(t, s)
	var errs []error
	cs := mcpgocoerce.Options{OnError: func(_ context.Context, _ string, err error) { errs = append(errs, err) }}.WrapClient(c)
	args := map[string]any{"tags": `["a"]`}

	plainText, plainOK := outcome(c.CallTool(context.Background(), callRequest("nope", args)))
	text, ok := outcome(cs.CallTool(context.Background(), callRequest("nope", args)))
	if text != plainText || ok != plainOK || ok {
		t.Errorf("unknown tool: wrapped %q %v, plain %q %v", text, ok, plainText, plainOK)
	}
	t.Logf("the server answers an unknown tool: %s", plainText)
	if len(errs) > 0 {
		t.Errorf("OnError heard of an unknown tool: %v", errs)
	}

	mustCall(t, cs, "tag", args)
	late := addTypedTool[clientTagArgs](s, tagTool("late"))
	mustCall(t, cs, "late", args)
	if in := <-late; !reflect.DeepEqual(in.Tags, []string{"a"}) {
		t.Errorf("late tool: the handler got %+v", in)
	}
}

type snowflakeArgs struct {
	ID  int64   `json:"id"`
	IDs []int64 `json:"ids"`
	Ref string  `json:"ref"`
}

// Integers beyond 2^53 keep their digits, whichever Go value holds the
// arguments, to the typed handler, which binds the raw bytes.
func TestClientKeepsBigIntegers(t *testing.T) {
	s := strictServer()
	got := addTypedTool[snowflakeArgs](s, mcp.NewTool("snowflake",
		mcp.WithInteger("id"), mcp.WithArray("ids", mcp.Items(map[string]any{"type": "integer"})), mcp.WithString("ref")))
	cs := mcpgocoerce.WrapClient(startClient(t, s))

	type typed struct {
		ID  string          `json:"id"`
		IDs string          `json:"ids"`
		Ref json.RawMessage `json:"ref"`
	}
	rawArguments := callRequest("snowflake", nil)
	rawArguments.Params.RawArguments = json.RawMessage(`{"id":"9007199254740993","ids":"[9007199254740993]","ref":{"id":9007199254740993}}`)
	for name, req := range map[string]mcp.CallToolRequest{
		"map":          callRequest("snowflake", map[string]any{"id": "9007199254740993", "ids": "[9007199254740993]", "ref": json.RawMessage(`{"id":9007199254740993}`)}),
		"RawMessage":   callRequest("snowflake", json.RawMessage(`{"id":"9007199254740993","ids":"[9007199254740993]","ref":{"id":9007199254740993}}`)),
		"struct":       callRequest("snowflake", typed{ID: "9007199254740993", IDs: "[9007199254740993]", Ref: json.RawMessage(`{"id":9007199254740993}`)}),
		"RawArguments": rawArguments,
	} {
		if text, ok := outcome(cs.CallTool(context.Background(), req)); !ok {
			t.Errorf("%s: %s", name, text)
			continue
		}
		want := snowflakeArgs{ID: 9007199254740993, IDs: []int64{9007199254740993}, Ref: `{"id":9007199254740993}`}
		if in := <-got; !reflect.DeepEqual(in, want) {
			t.Errorf("%s: the handler got %+v", name, in)
		}
	}
}

type clientVariantArgs struct {
	Tags       []string       `json:"tags"`
	Config     map[string]any `json:"config"`
	Limit      int            `json:"limit"`
	Exact      bool           `json:"exact"`
	Score      float64        `json:"score"`
	PathParams string         `json:"path_params"`
	Filter     struct {
		IDs  []int  `json:"ids"`
		Mode string `json:"mode"`
	} `json:"filter"`
}

// Every broken form coercetest knows of a conforming call reaches the
// strict server's handler as the conforming call would, given as a map and
// as JSON text.
func TestClientRepairsEveryVariant(t *testing.T) {
	s := strictServer()
	got := addTypedTool[clientVariantArgs](s, mcp.NewTool("search",
		mcp.WithArray("tags", mcp.WithStringItems()),
		mcp.WithObject("config"),
		mcp.WithInteger("limit"),
		mcp.WithBoolean("exact"),
		mcp.WithNumber("score"),
		mcp.WithString("path_params"),
		mcp.WithObject("filter", mcp.Properties(map[string]any{
			"ids":  map[string]any{"type": "array", "items": map[string]any{"type": "integer"}},
			"mode": map[string]any{"type": "string"},
		})),
	))
	c := startClient(t, s)
	cs := mcpgocoerce.WrapClient(c)

	listed, err := c.ListTools(context.Background(), mcp.ListToolsRequest{})
	if err != nil || len(listed.Tools) != 1 {
		t.Fatal(err, listed)
	}
	text, err := json.Marshal(listed.Tools[0].InputSchema)
	if err != nil {
		t.Fatal(err)
	}
	schema, err := coerce.ParseSchema(text)
	if err != nil {
		t.Fatal(err)
	}
	valid := map[string]any{
		"tags":        []any{"a", "b"},
		"config":      map[string]any{"k": 1},
		"limit":       5,
		"exact":       true,
		"score":       0.5,
		"path_params": `{"channel_id":"1458059302022549698"}`,
		"filter":      map[string]any{"ids": []any{1, 2}, "mode": "any"},
	}
	variants := coercetest.Variants(schema, valid)
	if len(variants) < 20 {
		t.Fatalf("only %d variants", len(variants))
	}
	t.Logf("%d variants", len(variants))
	for _, v := range variants {
		argsText, err := json.Marshal(v.Args)
		if err != nil {
			t.Fatal(err)
		}
		wantText, err := json.Marshal(v.Want)
		if err != nil {
			t.Fatal(err)
		}
		var want clientVariantArgs
		if err := json.Unmarshal(wantText, &want); err != nil {
			t.Fatal(err)
		}
		for form, args := range map[string]any{"map": v.Args, "RawMessage": json.RawMessage(argsText)} {
			if text, ok := outcome(cs.CallTool(context.Background(), callRequest("search", args))); !ok {
				t.Errorf("%s as %s: %s", v.Name, form, text)
				continue
			}
			if in := <-got; !reflect.DeepEqual(in, want) {
				t.Errorf("%s as %s: the handler got %+v, want %+v", v.Name, form, in, want)
			}
		}
	}
}

// Arguments in any Go value mcp-go sends, the caller's left as they were.
func TestClientArgumentForms(t *testing.T) {
	s := strictServer()
	got := addTypedTool[clientTagArgs](s, tagTool("tag"))
	cs := mcpgocoerce.WrapClient(startClient(t, s))

	type text struct {
		Tags string `json:"tags"`
	}
	for name, args := range map[string]any{
		"map[string]any":    map[string]any{"tags": `["a"]`},
		"map[string]string": map[string]string{"tags": `["a"]`},
		"RawMessage":        json.RawMessage(`{"tags": "[\"a\"]"}`),
		"struct":            text{Tags: `["a"]`},
		"*struct":           &text{Tags: "```json\n[\"a\"]\n```"},
		"conforming map":    map[string]any{"tags": []any{"a"}},
		"conforming struct": clientTagArgs{Tags: []string{"a"}},
	} {
		before := fmt.Sprintf("%#v", args)
		mustCall(t, cs, "tag", args)
		if in := <-got; !reflect.DeepEqual(in.Tags, []string{"a"}) {
			t.Errorf("%s: the handler got %+v", name, in)
		}
		if after := fmt.Sprintf("%#v", args); after != before {
			t.Errorf("%s: arguments changed:\n%s\n%s", name, before, after)
		}
	}
}

// The tools are listed page after page: a tool on the last page is coerced.
func TestClientListsEveryPage(t *testing.T) {
	s := strictServer(server.WithPaginationLimit(3))
	for i := range 10 {
		addTypedTool[clientCountInt](s, mcp.NewTool(fmt.Sprintf("tool%02d", i), mcp.WithInteger("n")))
	}
	last := addTypedTool[clientTagArgs](s, tagTool("zz"))
	cs := mcpgocoerce.WrapClient(startClient(t, s))
	mustCall(t, cs, "zz", map[string]any{"tags": `["a"]`})
	if in := <-last; !reflect.DeepEqual(in.Tags, []string{"a"}) {
		t.Errorf("the handler got %+v", in)
	}
}

type clientCtxKey struct{}

// OnChange hears of each repair with the call's context and the tool;
// OnError of what could not be repaired, and the call is still sent as the
// caller gave it, so that the server rejects it with its own message;
// Logger logs repairs at debug level and failures at warn level.
func TestClientReports(t *testing.T) {
	s := strictServer()
	type args struct {
		Tags  []string `json:"tags"`
		Count int      `json:"count"`
	}
	got := addTypedTool[args](s, mcp.NewTool("tag", mcp.WithArray("tags", mcp.WithStringItems()), mcp.WithInteger("count")))
	var (
		changes []coerce.Change
		errs    []error
		logs    bytes.Buffer
	)
	cs := mcpgocoerce.Options{
		OnChange: func(ctx context.Context, tool string, c coerce.Change) {
			if ctx.Value(clientCtxKey{}) != "call" || tool != "tag" {
				t.Errorf("OnChange: context %v, tool %q", ctx.Value(clientCtxKey{}), tool)
			}
			changes = append(changes, c)
		},
		OnError: func(ctx context.Context, tool string, err error) {
			if ctx.Value(clientCtxKey{}) != "call" || tool != "tag" {
				t.Errorf("OnError: context %v, tool %q", ctx.Value(clientCtxKey{}), tool)
			}
			errs = append(errs, err)
		},
		Logger: slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
	}.WrapClient(startClient(t, s))
	ctx := context.WithValue(context.Background(), clientCtxKey{}, "call")

	if text, ok := outcome(cs.CallTool(ctx, callRequest("tag", map[string]any{"tags": `["a"]`, "count": "2"}))); !ok {
		t.Fatalf("repairable call: %s", text)
	}
	<-got
	if len(changes) != 2 || changes[0].Path != "/count" || changes[0].Rule != coerce.NumberFromText || changes[1].Path != "/tags" || changes[1].Rule != coerce.JSONText {
		t.Errorf("OnChange got %+v", changes)
	}
	if len(errs) != 0 {
		t.Errorf("OnError got %v", errs)
	}

	text, ok := outcome(cs.CallTool(ctx, callRequest("tag", map[string]any{"tags": `["a"]`, "count": "two"})))
	if ok || !strings.Contains(text, "count") {
		t.Errorf("the server did not reject count as the caller gave it: %s", text)
	}
	t.Logf("the server's answer: %s", text)
	var ce *coerce.Error
	if len(errs) != 1 || !errors.As(errs[0], &ce) || ce.Path != "/count" || !errors.Is(ce, coerce.ErrSyntax) {
		t.Errorf("OnError got %v", errs)
	}

	var records []map[string]any
	for line := range strings.SplitSeq(strings.TrimSpace(logs.String()), "\n") {
		var r map[string]any
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		records = append(records, r)
	}
	// Two repairs in the first call, one in the second (tags), one failure.
	if len(records) != 4 {
		t.Fatalf("%d records:\n%s", len(records), logs.String())
	}
	// The attributes every integration logs a rejection with (package toolcall).
	warn := records[3]
	e, _ := warn["rejection"].(map[string]any)
	if warn["level"] != "WARN" || warn["tool"] != "tag" || e["path"] != "/count" || e["declared"] != "integer" || e["found"] != "string" || e["rule"] != "syntax" || e["preview"] != "two" {
		t.Errorf("warn record: %v", warn)
	}
	for _, r := range records[:3] {
		if r["level"] != "DEBUG" || r["tool"] != "tag" || r["change"] == nil {
			t.Errorf("debug record: %v", r)
		}
	}
}

// Calls from many goroutines, while the server adds and removes tools and
// the client is told: every call is repaired, under the race detector.
func TestClientConcurrentCalls(t *testing.T) {
	s := strictServer()
	got := addTypedTool[clientTagArgs](s, tagTool("tag"))
	cs := mcpgocoerce.WrapClient(startClient(t, s))

	const callers, calls = 8, 25
	var wg sync.WaitGroup
	wg.Go(func() {
		for i := range 20 {
			name := fmt.Sprintf("other%d", i%3)
			addTypedTool[clientCountInt](s, mcp.NewTool(name, mcp.WithInteger("n")))
			s.DeleteTools(name)
		}
	})
	errs := make(chan string, callers*calls)
	for range callers {
		wg.Go(func() {
			for range calls {
				if text, ok := outcome(cs.CallTool(context.Background(), callRequest("tag", map[string]any{"tags": `["a"]`}))); !ok {
					errs <- text
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	for range callers * calls {
		if in := <-got; !reflect.DeepEqual(in.Tags, []string{"a"}) {
			t.Fatalf("the handler got %+v", in)
		}
	}
}

// The tools are listed at the first call, then not again while nothing
// changes, however many calls; once after the server says they changed.
// On the latest protocol, as long as the listing's ttlMs lasts (here an
// hour); on a legacy one, whose results carry no ttlMs, for good.
func TestClientListsOnlyWhenNeeded(t *testing.T) {
	for _, protocol := range []string{"", mcp.LATEST_LEGACY_PROTOCOL_VERSION} {
		t.Run("protocol="+protocol, func(t *testing.T) {
			hooks := &server.Hooks{}
			var listings atomic.Int64
			hooks.AddBeforeListTools(func(context.Context, any, *mcp.ListToolsRequest) { listings.Add(1) })
			s := strictServer(server.WithHooks(hooks), server.WithCacheHints(int64(time.Hour/time.Millisecond), ""))
			got := addTypedTool[clientTagArgs](s, tagTool("tag"))
			c := startClientAt(t, s, protocol)
			cs := mcpgocoerce.WrapClient(c)
			changed := make(chan struct{}, 10)
			c.OnNotification(func(n mcp.JSONRPCNotification) {
				if n.Method == mcp.MethodNotificationToolsListChanged {
					changed <- struct{}{}
				}
			})

			for range 10 {
				mustCall(t, cs, "tag", map[string]any{"tags": `["a"]`})
				<-got
			}
			if n := listings.Load(); n != 1 {
				t.Errorf("10 calls listed the tools %d times, want 1", n)
			}
			addTypedTool[clientCountInt](s, mcp.NewTool("other", mcp.WithInteger("n")))
			<-changed
			for range 10 {
				mustCall(t, cs, "tag", map[string]any{"tags": `["a"]`})
				<-got
			}
			if n := listings.Load(); n != 2 {
				t.Errorf("after a change, the tools were listed %d times in all, want 2", n)
			}
		})
	}
}

// A schema the client cannot compile is reported, and the call sent as
// given.
func TestClientUnreadableSchema(t *testing.T) {
	s := server.NewMCPServer("lenient", "1.0.0") // no validation: it would refuse the schema too
	got := make(chan json.RawMessage, 10)
	s.AddTool(mcp.NewToolWithRawSchema("odd", "", json.RawMessage(`{"type":"object","properties":{"tags":{"type":"frobnicate"}}}`)),
		func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			got <- req.Params.RawArguments
			return mcp.NewToolResultText("ok"), nil
		})
	var errs []error
	var logs bytes.Buffer
	cs := mcpgocoerce.Options{
		OnError: func(_ context.Context, _ string, err error) { errs = append(errs, err) },
		Logger:  slog.New(slog.NewTextHandler(&logs, nil)),
	}.WrapClient(startClient(t, s))
	for range 2 {
		mustCall(t, cs, "odd", map[string]any{"tags": `["a"]`})
		if raw := <-got; string(raw) != `{"tags":"[\"a\"]"}` {
			t.Errorf("the server got %s, want the arguments as given", raw)
		}
	}
	if len(errs) != 2 || !strings.Contains(errs[0].Error(), `input schema of "odd"`) || !errors.Is(errs[0], coerce.ErrUnknownType) {
		t.Errorf("OnError got %v", errs)
	}
	if !strings.Contains(logs.String(), "level=WARN") || !strings.Contains(logs.String(), "tool=odd") {
		t.Errorf("log: %s", logs.String())
	}
}
