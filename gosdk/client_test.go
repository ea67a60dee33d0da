package gosdkcoerce_test

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
	"github.com/coerce-go/coerce/gosdk"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The client tests run the SDK's own server, which validates the arguments
// of tools added with mcp.AddTool, and the SDK's own client, in process over
// its in-memory transports. The server has no coercion of its own: it is a
// server the host does not own.

// clientServer is a strict server: no coercion installed.
func clientServer(opts *mcp.ServerOptions) *mcp.Server {
	return mcp.NewServer(&mcp.Implementation{Name: "strict", Version: "v1"}, opts)
}

// clientConnect connects a client with opts (nil: the SDK's defaults) to
// server; both ends close when the test ends.
func clientConnect(t *testing.T, server *mcp.Server, opts *mcp.ClientOptions, protocol string) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	var sessionOpts *mcp.ClientSessionOptions
	if protocol != "" {
		sessionOpts = &mcp.ClientSessionOptions{ProtocolVersion: protocol}
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "host"}, opts).Connect(ctx, ct, sessionOpts)
	if err != nil {
		ss.Close()
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Close() })
	return cs
}

// A caller is what the tests call tools through: the SDK's session, or the
// wrapper.
type caller interface {
	CallTool(context.Context, *mcp.CallToolParams) (*mcp.CallToolResult, error)
}

func callTool(t *testing.T, c caller, tool string, args any) *mcp.CallToolResult {
	t.Helper()
	res, err := c.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("CallTool(%s, %v): %v", tool, args, err)
	}
	return res
}

func toolText(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// addStrict adds a tool with mcp.AddTool, so that the SDK validates its
// arguments against the schema inferred from In, and returns the channel
// on which its handler reports what it received.
func addStrict[In any](server *mcp.Server, name string) <-chan In {
	got := make(chan In, 1000)
	mcp.AddTool(server, &mcp.Tool{Name: name}, func(ctx context.Context, req *mcp.CallToolRequest, in In) (*mcp.CallToolResult, any, error) {
		got <- in
		return &mcp.CallToolResult{}, nil, nil
	})
	return got
}

// addRawTool adds a tool with Server.AddTool and returns the channel on
// which its handler reports the bytes of the arguments it received.
func addRawTool(server *mcp.Server, name, inputSchema string) <-chan json.RawMessage {
	got := make(chan json.RawMessage, 100)
	server.AddTool(&mcp.Tool{Name: name, InputSchema: json.RawMessage(inputSchema)}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		got <- req.Params.Arguments
		return &mcp.CallToolResult{}, nil
	})
	return got
}

type tagArgs struct {
	Tags []string `json:"tags"`
}

// The call as a model makes it, with an array as JSON text: the strict
// server rejects it from the SDK's own client, and accepts it through the
// wrapper, whose handler receives the array.
func TestClientRepairsWhatTheServerRejects(t *testing.T) {
	server := clientServer(nil)
	got := addStrict[tagArgs](server, "tag")
	session := clientConnect(t, server, nil, "")
	broken := map[string]any{"tags": `["a"]`}

	res := callTool(t, session, "tag", broken)
	if !res.IsError {
		t.Fatalf("the server accepted %v sent raw", broken)
	}
	if text := toolText(res); !strings.Contains(text, "tags") {
		t.Errorf("the server's rejection does not name tags: %s", text)
	}
	t.Logf("raw: %s", toolText(res))

	res = callTool(t, gosdkcoerce.WrapClient(session), "tag", broken)
	if res.IsError {
		t.Fatalf("wrapped: %s", toolText(res))
	}
	if in := <-got; !reflect.DeepEqual(in.Tags, []string{"a"}) {
		t.Errorf("the handler got %#v, want [a]", in.Tags)
	}
	if want := `["a"]`; broken["tags"] != want {
		t.Errorf("the caller's arguments changed: %v", broken)
	}
}

type countInt struct {
	N int `json:"n"`
}

type countString struct {
	N string `json:"n"`
}

// A tool replaced with another schema under its name is coerced to the new
// one once the server says its tools changed, and the handler of the
// client's own that RefreshSchemas wraps still hears of the change. Both
// for a client that subscribes (the latest protocol) and a legacy one,
// to which the server sends every change.
func TestClientFollowsToolListChanged(t *testing.T) {
	for _, protocol := range []string{"", "2025-06-18"} {
		t.Run("protocol="+protocol, func(t *testing.T) {
			server := clientServer(nil)
			asInt := addStrict[countInt](server, "count")
			changed := make(chan struct{}, 100)
			opts := &mcp.ClientOptions{ToolListChangedHandler: gosdkcoerce.RefreshSchemas(func(context.Context, *mcp.ToolListChangedRequest) {
				changed <- struct{}{}
			})}
			cs := gosdkcoerce.WrapClient(clientConnect(t, server, opts, protocol))

			if res := callTool(t, cs, "count", map[string]any{"n": "5"}); res.IsError {
				t.Fatalf("before: %s", toolText(res))
			}
			if in := <-asInt; in.N != 5 {
				t.Fatalf("before: the handler got %+v", in)
			}

			server.RemoveTools("count")
			asString := addStrict[countString](server, "count")
			<-changed // the client's own handler ran
			for len(changed) > 0 {
				<-changed
			}
			if res := callTool(t, cs, "count", map[string]any{"n": 5}); res.IsError {
				t.Fatalf("after: coerced to the old schema: %s", toolText(res))
			}
			if in := <-asString; in.N != "5" {
				t.Errorf("after: the handler got %+v", in)
			}
		})
	}
}

// A call naming a tool the server does not have is sent as given: the
// server answers it, as it answers the SDK's own client. A tool added
// after the first listing, while the client was not told of changes, is
// found by the next call that names it.
func TestClientUnknownTools(t *testing.T) {
	server := clientServer(nil)
	addStrict[tagArgs](server, "tag")
	session := clientConnect(t, server, nil, "")
	var errs []error
	cs := gosdkcoerce.Options{OnError: func(_ context.Context, _ string, err error) { errs = append(errs, err) }}.WrapClient(session)
	ctx := context.Background()

	args := map[string]any{"tags": `["a"]`}
	plainRes, plainErr := session.CallTool(ctx, &mcp.CallToolParams{Name: "nope", Arguments: args})
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "nope", Arguments: args})
	if (err == nil) != (plainErr == nil) || (err != nil && err.Error() != plainErr.Error()) {
		t.Errorf("unknown tool: wrapped error %v, plain error %v", err, plainErr)
	}
	if plainErr == nil && (res.IsError != plainRes.IsError || toolText(res) != toolText(plainRes)) {
		t.Errorf("unknown tool: wrapped %+v, plain %+v", res, plainRes)
	}
	t.Logf("the server answers an unknown tool: %v %v", plainErr, plainRes)
	if len(errs) > 0 {
		t.Errorf("OnError heard of an unknown tool: %v", errs)
	}

	late := addStrict[tagArgs](server, "late")
	if res := callTool(t, cs, "late", args); res.IsError {
		t.Fatalf("late tool: %s", toolText(res))
	}
	if in := <-late; !reflect.DeepEqual(in.Tags, []string{"a"}) {
		t.Errorf("late tool: the handler got %+v", in)
	}
}

// Integers beyond 2^53 keep their digits, whichever Go value holds the
// arguments. A raw tool's handler gets the bytes the client sent (mcp.AddTool
// would decode them to float64 on the server, as the package doc says).
func TestClientKeepsBigIntegers(t *testing.T) {
	server := clientServer(nil)
	got := addRawTool(server, "snowflake", `{"type":"object","properties":{
		"id":{"type":"integer"},
		"ids":{"type":"array","items":{"type":"integer"}},
		"ref":{"type":"string"}}}`)
	cs := gosdkcoerce.WrapClient(clientConnect(t, server, nil, ""))

	type typed struct {
		ID  string          `json:"id"`
		IDs string          `json:"ids"`
		Ref json.RawMessage `json:"ref"`
	}
	for name, args := range map[string]any{
		"map":        map[string]any{"id": "9007199254740993", "ids": "[9007199254740993]", "ref": json.RawMessage(`{"id":9007199254740993}`)},
		"RawMessage": json.RawMessage(`{"id":"9007199254740993","ids":"[9007199254740993]","ref":{"id":9007199254740993}}`),
		"struct":     typed{ID: "9007199254740993", IDs: "[9007199254740993]", Ref: json.RawMessage(`{"id":9007199254740993}`)},
	} {
		callTool(t, cs, "snowflake", args)
		raw := <-got
		var in struct {
			ID  json.Number   `json:"id"`
			IDs []json.Number `json:"ids"`
			Ref string        `json:"ref"`
		}
		d := json.NewDecoder(bytes.NewReader(raw))
		d.UseNumber()
		if err := d.Decode(&in); err != nil {
			t.Fatalf("%s: %s: %v", name, raw, err)
		}
		if in.ID != "9007199254740993" || len(in.IDs) != 1 || in.IDs[0] != "9007199254740993" || in.Ref != `{"id":9007199254740993}` {
			t.Errorf("%s: the server got %s", name, raw)
		}
	}
}

type variantArgs struct {
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
	Window *struct {
		From int `json:"from"`
		To   int `json:"to"`
	} `json:"window"`
}

// Every broken form coercetest knows of a conforming call reaches the
// strict server's handler as the conforming call would, given as a map and
// as JSON text.
func TestClientRepairsEveryVariant(t *testing.T) {
	server := clientServer(nil)
	got := addStrict[variantArgs](server, "search")
	session := clientConnect(t, server, nil, "")
	cs := gosdkcoerce.WrapClient(session)

	var schemaText []byte
	for tool, err := range session.Tools(context.Background(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		schemaText, _ = json.Marshal(tool.InputSchema)
	}
	schema, err := coerce.ParseSchema(schemaText)
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
		"window":      map[string]any{"from": 1, "to": 9},
	}
	variants := coercetest.Variants(schema, valid)
	if len(variants) < 20 {
		t.Fatalf("only %d variants", len(variants))
	}
	t.Logf("%d variants", len(variants))
	for _, v := range variants {
		text, err := json.Marshal(v.Args)
		if err != nil {
			t.Fatal(err)
		}
		wantText, err := json.Marshal(v.Want)
		if err != nil {
			t.Fatal(err)
		}
		var want variantArgs
		if err := json.Unmarshal(wantText, &want); err != nil {
			t.Fatal(err)
		}
		for form, args := range map[string]any{"map": v.Args, "RawMessage": json.RawMessage(text)} {
			res := callTool(t, cs, "search", args)
			if res.IsError {
				t.Errorf("%s as %s: %s", v.Name, form, toolText(res))
				continue
			}
			if in := <-got; !reflect.DeepEqual(in, want) {
				t.Errorf("%s as %s: the handler got %+v, want %+v", v.Name, form, in, want)
			}
		}
	}
}

// Arguments in any Go value the SDK takes: the caller's params, their Meta
// and the arguments are left as they were.
func TestClientArgumentForms(t *testing.T) {
	server := clientServer(nil)
	got := addStrict[tagArgs](server, "tag")
	cs := gosdkcoerce.WrapClient(clientConnect(t, server, nil, ""))

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
		"conforming struct": tagArgs{Tags: []string{"a"}},
	} {
		params := &mcp.CallToolParams{Name: "tag", Arguments: args, Meta: mcp.Meta{"trace": "t1"}}
		before := fmt.Sprintf("%#v", *params)
		res, err := cs.CallTool(context.Background(), params)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if res.IsError {
			t.Errorf("%s: %s", name, toolText(res))
			continue
		}
		if in := <-got; !reflect.DeepEqual(in.Tags, []string{"a"}) {
			t.Errorf("%s: the handler got %+v", name, in)
		}
		if after := fmt.Sprintf("%#v", *params); after != before {
			t.Errorf("%s: params changed:\n%s\n%s", name, before, after)
		}
	}
}

// The tools are listed page after page: a tool on the last page is coerced.
func TestClientListsEveryPage(t *testing.T) {
	server := clientServer(&mcp.ServerOptions{PageSize: 3})
	for i := range 10 {
		addStrict[countInt](server, fmt.Sprintf("tool%02d", i))
	}
	last := addStrict[tagArgs](server, "zz")
	cs := gosdkcoerce.WrapClient(clientConnect(t, server, nil, ""))
	if res := callTool(t, cs, "zz", map[string]any{"tags": `["a"]`}); res.IsError {
		t.Fatal(toolText(res))
	}
	if in := <-last; !reflect.DeepEqual(in.Tags, []string{"a"}) {
		t.Errorf("the handler got %+v", in)
	}
}

type ctxKey struct{}

// OnChange hears of each repair with the call's context and the tool;
// OnError of what could not be repaired, and the call is still sent as the
// caller gave it, so that the server rejects it with its own message;
// Logger logs repairs at debug level and failures at warn level.
func TestClientReports(t *testing.T) {
	server := clientServer(nil)
	type args struct {
		Tags  []string `json:"tags"`
		Count int      `json:"count"`
	}
	got := addStrict[args](server, "tag")
	var (
		changes []coerce.Change
		errs    []error
		logs    bytes.Buffer
	)
	cs := gosdkcoerce.Options{
		OnChange: func(ctx context.Context, tool string, c coerce.Change) {
			if ctx.Value(ctxKey{}) != "call" || tool != "tag" {
				t.Errorf("OnChange: context %v, tool %q", ctx.Value(ctxKey{}), tool)
			}
			changes = append(changes, c)
		},
		OnError: func(ctx context.Context, tool string, err error) {
			if ctx.Value(ctxKey{}) != "call" || tool != "tag" {
				t.Errorf("OnError: context %v, tool %q", ctx.Value(ctxKey{}), tool)
			}
			errs = append(errs, err)
		},
		Logger: slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
	}.WrapClient(clientConnect(t, server, nil, ""))
	ctx := context.WithValue(context.Background(), ctxKey{}, "call")

	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "tag", Arguments: map[string]any{"tags": `["a"]`, "count": "2"}})
	if err != nil || res.IsError {
		t.Fatalf("repairable call: %v %v", err, res)
	}
	<-got
	if len(changes) != 2 || changes[0].Path != "/count" || changes[0].Rule != coerce.NumberFromText || changes[1].Path != "/tags" || changes[1].Rule != coerce.JSONText {
		t.Errorf("OnChange got %+v", changes)
	}
	if len(errs) != 0 {
		t.Errorf("OnError got %v", errs)
	}

	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "tag", Arguments: map[string]any{"tags": `["a"]`, "count": "two"}})
	if err != nil {
		t.Fatal(err)
	}
	if !res.IsError || !strings.Contains(toolText(res), "count") {
		t.Errorf("the server did not reject count as the caller gave it: %s", toolText(res))
	}
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
	if warn["level"] != "WARN" || warn["tool"] != "tag" || !reflect.DeepEqual(warn["rejection"], map[string]any{
		"path": "/count", "declared": "integer", "found": "string", "preview": "two", "rule": "syntax",
	}) {
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
	server := clientServer(nil)
	got := addStrict[tagArgs](server, "tag")
	opts := &mcp.ClientOptions{ToolListChangedHandler: gosdkcoerce.RefreshSchemas(nil)}
	cs := gosdkcoerce.WrapClient(clientConnect(t, server, opts, ""))

	const callers, calls = 8, 25
	var wg sync.WaitGroup
	wg.Go(func() {
		for i := range 20 {
			name := fmt.Sprintf("other%d", i%3)
			addStrict[countInt](server, name)
			server.RemoveTools(name)
		}
	})
	errs := make(chan string, callers*calls)
	for range callers {
		wg.Go(func() {
			for range calls {
				res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "tag", Arguments: map[string]any{"tags": `["a"]`}})
				switch {
				case err != nil:
					errs <- err.Error()
				case res.IsError:
					errs <- toolText(res)
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
	for _, protocol := range []string{"", "2025-06-18"} {
		t.Run("protocol="+protocol, func(t *testing.T) {
			server := clientServer(&mcp.ServerOptions{SetCacheable: func(_ context.Context, _ mcp.Request, c *mcp.Cacheable) {
				c.TTLMs = int(time.Hour / time.Millisecond)
			}})
			listings := countListings(server)
			got := addStrict[tagArgs](server, "tag")
			changed := make(chan struct{}, 10)
			opts := &mcp.ClientOptions{ToolListChangedHandler: gosdkcoerce.RefreshSchemas(func(context.Context, *mcp.ToolListChangedRequest) { changed <- struct{}{} })}
			cs := gosdkcoerce.WrapClient(clientConnect(t, server, opts, protocol))

			for range 10 {
				callTool(t, cs, "tag", map[string]any{"tags": `["a"]`})
				<-got
			}
			if n := listings.Load(); n != 1 {
				t.Errorf("10 calls listed the tools %d times, want 1", n)
			}
			addStrict[countInt](server, "other")
			<-changed
			for range 10 {
				callTool(t, cs, "tag", map[string]any{"tags": `["a"]`})
				<-got
			}
			if n := listings.Load(); n != 2 {
				t.Errorf("after a change, the tools were listed %d times in all, want 2", n)
			}
		})
	}
}

// countListings counts the tools/list requests server receives.
func countListings(server *mcp.Server) *atomic.Int64 {
	var listings atomic.Int64
	server.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "tools/list" {
				listings.Add(1)
			}
			return next(ctx, method, req)
		}
	})
	return &listings
}

// When the tools cannot be listed, OnError and Logger hear why, and the
// call is sent as the caller gave it.
func TestClientListingFails(t *testing.T) {
	server := clientServer(nil)
	server.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "tools/list" {
				return nil, errors.New("listing is down")
			}
			return next(ctx, method, req)
		}
	})
	got := addRawTool(server, "raw", `{"type":"object","properties":{"tags":{"type":"array"}}}`)
	var errs []error
	var logs bytes.Buffer
	cs := gosdkcoerce.Options{
		OnError: func(_ context.Context, tool string, err error) { errs = append(errs, fmt.Errorf("%s: %w", tool, err)) },
		Logger:  slog.New(slog.NewTextHandler(&logs, nil)),
	}.WrapClient(clientConnect(t, server, nil, ""))

	callTool(t, cs, "raw", map[string]any{"tags": `["a"]`})
	if raw := <-got; string(raw) != `{"tags":"[\"a\"]"}` {
		t.Errorf("the server got %s, want the arguments as given", raw)
	}
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "raw: gosdkcoerce: listing the tools") || !strings.Contains(errs[0].Error(), "listing is down") {
		t.Errorf("OnError got %v", errs)
	}
	if !strings.Contains(logs.String(), "level=WARN") || !strings.Contains(logs.String(), "tool=raw") {
		t.Errorf("log: %s", logs.String())
	}
}

// A schema the client cannot compile is reported, and the call sent as
// given.
func TestClientUnreadableSchema(t *testing.T) {
	server := clientServer(nil)
	got := addRawTool(server, "odd", `{"type":"object","properties":{"tags":{"type":"frobnicate"}}}`)
	var errs []error
	cs := gosdkcoerce.Options{OnError: func(_ context.Context, _ string, err error) { errs = append(errs, err) }}.WrapClient(clientConnect(t, server, nil, ""))
	for range 2 {
		callTool(t, cs, "odd", map[string]any{"tags": `["a"]`})
		if raw := <-got; string(raw) != `{"tags":"[\"a\"]"}` {
			t.Errorf("the server got %s, want the arguments as given", raw)
		}
	}
	if len(errs) != 2 || !strings.Contains(errs[0].Error(), `input schema of "odd"`) || !errors.Is(errs[0], coerce.ErrUnknownType) {
		t.Errorf("OnError got %v", errs)
	}
}
