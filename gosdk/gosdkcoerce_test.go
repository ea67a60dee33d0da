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
	"testing"

	"github.com/coerce-go/coerce"
	"github.com/coerce-go/coerce/gosdk"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Raw tools get the bytes coercion writes: each value converted is written
// compact, every other byte is the client's, numbers included.
func TestRawToolBytes(t *testing.T) {
	server := newServer(nil)
	gosdkcoerce.Install(server)
	got := addRaw(server, "raw", json.RawMessage(rawSchema))
	cs := connect(t, server, client{})
	for _, tt := range []struct{ name, sent, want string }{{
		"nested values",
		`{"filter":{"min":"0.5","deep":{"on":"true"},"tags":"[\"a\"]"},"limit":"7"}`,
		`{"filter":{"min":0.5,"deep":{"on":true},"tags":["a"]},"limit":7}`,
	}, {
		"integer beyond 2^53 in an object for a string",
		`{"path_params":{"channel_id":1458059302022549698}}`,
		`{"path_params":"{\"channel_id\":1458059302022549698}"}`,
	}, {
		"integers beyond 2^53 in JSON text for an array",
		`{"ids":"[9007199254740993,18446744073709551617]"}`,
		`{"ids":[9007199254740993,18446744073709551617]}`,
	}, {
		"empty string for a nullable array",
		`{"ids":""}`,
		`{"ids":null}`,
	}, {
		"JSON text declared string stays text",
		`{"path_params":"{\"a\":1}","mode":"[1]"}`,
		`{"path_params":"{\"a\":1}","mode":"[1]"}`,
	}, {
		// A key of another case is its property misspelled (coerce's rule of
		// names), unless the property is given too: then both pass as sent.
		"undeclared keys pass as sent; a key of another case is renamed",
		`{"extra":"[1]","LIMIT":"5","Ids":"[1]","limit":"5"}`,
		`{"extra":"[1]","LIMIT":"5","ids":[1],"limit":5}`,
	}, {
		"already conforming, in an unusual key order",
		`{"path_params":"x","limit":9007199254740993,"ids":[1.0,2],"filter":{"min":1e2}}`,
		`{"path_params":"x","limit":9007199254740993,"ids":[1.0,2],"filter":{"min":1e2}}`,
	}} {
		t.Run(tt.name, func(t *testing.T) {
			if res := call(t, cs, "raw", json.RawMessage(tt.sent)); res.IsError {
				t.Fatal(resultText(res))
			}
			if g := <-got; string(g) != tt.want {
				t.Errorf("handler got %s\nwant %s", g, tt.want)
			}
		})
	}
}

// A tool's input schema may be anything that marshals to a JSON Schema.
func TestInputSchemaForms(t *testing.T) {
	var asMap map[string]any
	if err := json.Unmarshal([]byte(rawSchema), &asMap); err != nil {
		t.Fatal(err)
	}
	var asSchema *jsonschema.Schema
	if err := json.Unmarshal([]byte(rawSchema), &asSchema); err != nil {
		t.Fatal(err)
	}
	for name, inputSchema := range map[string]any{
		"json.RawMessage":    json.RawMessage(rawSchema),
		"map":                asMap,
		"*jsonschema.Schema": asSchema,
	} {
		t.Run(name, func(t *testing.T) {
			server := newServer(nil)
			gosdkcoerce.Install(server)
			got := addRaw(server, "raw", inputSchema)
			call(t, connect(t, server, client{}), "raw", map[string]any{"ids": "[1, 2]", "limit": "10"})
			if g, want := string(<-got), `{"ids":[1,2],"limit":10}`; g != want {
				t.Errorf("handler got %s, want %s", g, want)
			}
		})
	}
}

// Calls that need no change reach the handler as the very bytes the client
// sent, in the very request: so do requests other than tools/call. A
// repaired call reaches the handler in a copy, and middleware added after
// Install, which runs before it, keeps the client's arguments.
func TestWhatPassesUntouched(t *testing.T) {
	var outer, inner probe
	server := newServer(nil)
	server.AddReceivingMiddleware(inner.middleware) // runs after coercion
	gosdkcoerce.Install(server)
	server.AddReceivingMiddleware(outer.middleware) // runs before coercion
	typed := make(chan json.RawMessage, 10)
	mcp.AddTool(server, &mcp.Tool{Name: "search"}, func(ctx context.Context, req *mcp.CallToolRequest, in searchArgs) (*mcp.CallToolResult, any, error) {
		typed <- req.Params.Arguments
		return nil, nil, nil
	})
	raw := addRaw(server, "raw", json.RawMessage(rawSchema))
	cs := connect(t, server, client{})

	conforming := mustJSON(t, validSearch)
	if res := call(t, cs, "search", json.RawMessage(conforming)); res.IsError {
		t.Fatal(resultText(res))
	}
	if g := <-typed; !bytes.Equal(g, conforming) {
		t.Errorf("typed handler got %s\nclient sent %s", g, conforming)
	}
	conforming = []byte(`{"path_params":"{\"a\": 1}","ids":[3,1],"limit":1e1}`)
	if res := call(t, cs, "raw", json.RawMessage(conforming)); res.IsError {
		t.Fatal(resultText(res))
	}
	if g := <-raw; !bytes.Equal(g, conforming) {
		t.Errorf("raw handler got %s\nclient sent %s", g, conforming)
	}
	if err := cs.Ping(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := cs.ListTools(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	broken := []byte(`{"ids":"[1]"}`)
	if res := call(t, cs, "raw", json.RawMessage(broken)); res.IsError {
		t.Fatal(resultText(res))
	}
	<-raw

	// The inner probe sees what the outer one saw, in the same request
	// values, but for the repaired call; and the tools/list by which
	// coercion learned the schemas.
	before, after := outer.all(), inner.all()
	var own []seen
	for _, s := range after {
		if _, ok := s.req.(*mcp.ListToolsRequest); ok && s.req.GetSession() != nil && !slicesContainsReq(before, s.req) {
			own = append(own, s)
		}
	}
	if len(own) != 1 {
		t.Errorf("coercion listed the tools %d times, want once", len(own))
	}
	after = removeSeen(after, own)
	if len(before) != len(after) {
		t.Fatalf("outer middleware saw %d requests, inner %d besides coercion's own", len(before), len(after))
	}
	for i := range before {
		b, a := before[i], after[i]
		if b.method != a.method {
			t.Fatalf("request %d: outer saw %s, inner %s", i, b.method, a.method)
		}
		repaired := b.method == "tools/call" && bytes.Equal(b.req.(*mcp.CallToolRequest).Params.Arguments, broken)
		if repaired {
			if a.req == b.req {
				t.Errorf("the repaired call was changed in place")
			}
			if g, want := string(a.req.(*mcp.CallToolRequest).Params.Arguments), `{"ids":[1]}`; g != want {
				t.Errorf("inner middleware got %s, want %s", g, want)
			}
			continue
		}
		if a.req != b.req {
			t.Errorf("request %d (%s) was replaced", i, b.method)
		}
	}
}

func slicesContainsReq(ss []seen, req mcp.Request) bool {
	for _, s := range ss {
		if s.req == req {
			return true
		}
	}
	return false
}

func removeSeen(ss, drop []seen) []seen {
	var out []seen
	for _, s := range ss {
		if !slicesContainsReq(drop, s.req) {
			out = append(out, s)
		}
	}
	return out
}

type countArgs struct {
	N int `json:"n"`
}

type countText struct {
	N string `json:"n"`
}

// A tool added after the first call is found on its first call.
func TestToolAddedAfterFirstCall(t *testing.T) {
	server := newServer(nil)
	gosdkcoerce.Install(server)
	first := addTyped[countArgs](server, "first")
	cs := connect(t, server, client{})
	call(t, cs, "first", map[string]any{"n": "1"})
	if in := <-first; in.N != 1 {
		t.Errorf("first got %+v", in)
	}

	second := addTyped[countArgs](server, "second")
	if res := call(t, cs, "second", map[string]any{"n": "2"}); res.IsError {
		t.Fatal(resultText(res))
	}
	if in := <-second; in.N != 2 {
		t.Errorf("second got %+v", in)
	}
}

// A tool removed and added again under its name with another schema is
// coerced to its new schema as soon as coercion can know of the change:
// when the server tells clients that follow tool changes, or, when it
// tells no one, when a client starts.
func TestToolReplacedWithAnotherSchema(t *testing.T) {
	noChanges := &mcp.ServerOptions{Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{ListChanged: false}}}
	followingLatest, changedLatest := following(client{})
	followingLegacy, changedLegacy := following(legacy)
	for _, tt := range []struct {
		name    string
		server  *mcp.ServerOptions
		client  client
		changed <-chan struct{} // nil: the server tells no one
	}{
		{"client follows changes", nil, followingLatest, changedLatest},
		{"legacy client", nil, followingLegacy, changedLegacy},
		{"server tells no one, next client", noChanges, client{}, nil},
		{"server tells no one, next legacy client", noChanges, legacy, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			server := newServer(tt.server)
			gosdkcoerce.Install(server)
			asInt := addTyped[countArgs](server, "count")
			cs := connect(t, server, tt.client)
			call(t, cs, "count", map[string]any{"n": "5"})
			if in := <-asInt; in.N != 5 {
				t.Fatalf("before: handler got %+v", in)
			}

			server.RemoveTools("count")
			asText := addTyped[countText](server, "count")
			if tt.changed != nil {
				<-tt.changed
			} else {
				cs = connect(t, server, tt.client)
			}
			for _, n := range []any{5, "5"} {
				if res := call(t, cs, "count", map[string]any{"n": n}); res.IsError {
					t.Fatalf("after, n=%#v: %s", n, resultText(res))
				}
				if in := <-asText; in.N != "5" {
					t.Errorf("after, n=%#v: handler got %+v", n, in)
				}
			}
		})
	}
}

// Sessions share what coercion learned of the server's tools: with two
// clients connected, the tools are listed once.
func TestTwoSessions(t *testing.T) {
	var inner probe
	server := newServer(nil)
	server.AddReceivingMiddleware(inner.middleware)
	gosdkcoerce.Install(server)
	got := addTyped[countArgs](server, "count")
	a, b := connect(t, server, client{}), connect(t, server, legacy)
	for i := range 3 {
		for _, cs := range []*mcp.ClientSession{a, b} {
			call(t, cs, "count", map[string]any{"n": fmt.Sprint(i)})
			if in := <-got; in.N != i {
				t.Errorf("handler got %+v, want %d", in, i)
			}
		}
	}
	if n := inner.count("tools/list"); n != 1 {
		t.Errorf("tools listed %d times, want once", n)
	}
}

// With many tools, a call costs no listing once the tools are known: the
// first call lists them all, page by page, and later calls list nothing.
func TestManyTools(t *testing.T) {
	const tools, pageSize = 95, 10
	var inner probe
	server := newServer(&mcp.ServerOptions{
		PageSize: pageSize,
		// So that no notification can make coercion list the tools again
		// at a moment the test does not choose.
		Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{ListChanged: false}},
	})
	server.AddReceivingMiddleware(inner.middleware)
	gosdkcoerce.Install(server)
	got := make([]<-chan countArgs, tools)
	for i := range got {
		got[i] = addTyped[countArgs](server, fmt.Sprintf("tool%03d", i))
	}
	cs := connect(t, server, client{})
	const pages = (tools + pageSize - 1) / pageSize

	for round := range 3 {
		for i := tools - 1; i >= 0; i -= 7 {
			call(t, cs, fmt.Sprintf("tool%03d", i), map[string]any{"n": fmt.Sprint(round)})
			if in := <-got[i]; in.N != round {
				t.Fatalf("tool%03d got %+v", i, in)
			}
		}
	}
	if n := inner.count("tools/list"); n != pages {
		t.Errorf("%d listings, want %d: one of every page", n, pages)
	}

	// A tool not yet known costs one listing more.
	late := addTyped[countArgs](server, "late")
	call(t, cs, "late", map[string]any{"n": "1"})
	if in := <-late; in.N != 1 {
		t.Errorf("late got %+v", in)
	}
	call(t, cs, "tool000", map[string]any{"n": "1"})
	<-got[0]
	if n := inner.count("tools/list"); n != 2*pages {
		t.Errorf("%d listings, want %d", n, 2*pages)
	}
}

// With KeepSDKErrors, arguments that cannot be converted are left as sent,
// while the others are converted; the SDK rejects the call with the
// message it gives without coercion, and OnError sees why.
func TestOnError(t *testing.T) {
	type report struct {
		tool string
		err  error
	}
	var (
		mu      sync.Mutex
		reports []report
		inner   probe
	)
	opts := gosdkcoerce.Options{KeepSDKErrors: true, OnError: func(ctx context.Context, tool string, err error) {
		mu.Lock()
		defer mu.Unlock()
		reports = append(reports, report{tool, err})
	}}
	plain, server := newServer(nil), newServer(nil)
	server.AddReceivingMiddleware(inner.middleware)
	opts.Install(server)
	addTyped[searchArgs](plain, "search")
	got := addTyped[searchArgs](server, "search")
	addTyped[optionalArgs](server, "optional")
	cs, plainCS := connect(t, server, client{}), connect(t, plain, client{})

	// Only limit is wrong once tags is repaired.
	arguments := with(validSearch, map[string]any{"tags": `["a", "b"]`, "limit": "five"})
	want := resultText(call(t, plainCS, "search", with(validSearch, map[string]any{"limit": "five"})))
	res := call(t, cs, "search", arguments)
	if !res.IsError || resultText(res) != want || !strings.Contains(want, "/properties/limit") {
		t.Errorf("got IsError=%v %q\nwant IsError=true %q, about limit", res.IsError, resultText(res), want)
	}
	if len(got) != 0 {
		t.Errorf("handler ran with %+v", <-got)
	}
	args := inner.arguments()
	if diff := diffJSON(mustJSON(t, with(validSearch, map[string]any{"limit": "five"})), args[len(args)-1]); diff != "" {
		t.Errorf("the SDK got (-want +got):\n%s", diff)
	}

	// Nothing to report for calls that conform, have no arguments, or name
	// no tool of the server.
	for _, args := range []any{validSearch} {
		if res := call(t, cs, "search", args); res.IsError {
			t.Errorf("%v: %s", args, resultText(res))
		}
	}
	for _, args := range []any{nil, json.RawMessage("null")} {
		if res := call(t, cs, "optional", args); res.IsError {
			t.Errorf("%v: %s", args, resultText(res))
		}
	}
	if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "nope", Arguments: arguments}); err == nil {
		t.Error("a call of no tool succeeded")
	}

	mu.Lock()
	defer mu.Unlock()
	if len(reports) != 1 {
		t.Fatalf("OnError called %d times, want once: %v", len(reports), reports)
	}
	var cerr *coerce.Error
	if r := reports[0]; r.tool != "search" || !errors.As(r.err, &cerr) || cerr.Path != "/limit" || cerr.Value != "five" {
		t.Errorf("OnError(%q, %v), want a *coerce.Error for \"five\" at /limit", r.tool, r.err)
	}
}

// A tool whose input schema coerce cannot read, and a server whose tools
// cannot be listed, are reported on each call, which goes on untouched.
func TestOnErrorWithoutSchema(t *testing.T) {
	var (
		mu     sync.Mutex
		errs   []string
		failed = errors.New("not for you")
	)
	opts := gosdkcoerce.Options{OnError: func(ctx context.Context, tool string, err error) {
		mu.Lock()
		defer mu.Unlock()
		errs = append(errs, tool+": "+err.Error())
	}}
	t.Run("unreadable schema", func(t *testing.T) {
		server := newServer(nil)
		opts.Install(server)
		got := addRaw(server, "odd", json.RawMessage(`{"type":"object","properties":{"x":{"type":"frob"},"n":{"type":"integer"}}}`))
		cs := connect(t, server, client{})
		for range 2 {
			call(t, cs, "odd", map[string]any{"n": "1"})
			if g := string(<-got); g != `{"n":"1"}` {
				t.Errorf("handler got %s", g)
			}
		}
	})
	t.Run("no listing", func(t *testing.T) {
		server := newServer(nil)
		server.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
			return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
				if method == "tools/list" {
					return nil, failed
				}
				return next(ctx, method, req)
			}
		})
		opts.Install(server)
		got := addRaw(server, "raw", json.RawMessage(rawSchema))
		call(t, connect(t, server, client{}), "raw", map[string]any{"limit": "1"})
		if g := string(<-got); g != `{"limit":"1"}` {
			t.Errorf("handler got %s", g)
		}
	})
	mu.Lock()
	defer mu.Unlock()
	want := []string{
		`odd: gosdkcoerce: input schema of "odd": coerce: /properties/x/type: unknown type: schema: "frob" is not a JSON Schema type`,
		`odd: gosdkcoerce: input schema of "odd": coerce: /properties/x/type: unknown type: schema: "frob" is not a JSON Schema type`,
		`raw: gosdkcoerce: listing the tools: not for you`,
	}
	if !reflect.DeepEqual(errs, want) {
		t.Errorf("OnError got\n%s\nwant\n%s", strings.Join(errs, "\n"), strings.Join(want, "\n"))
	}
}

// optionalArgs has no required parameter: the tool takes no arguments.
type optionalArgs struct {
	Tags []string `json:"tags,omitempty"`
}

type traceKey struct{}

// OnChange sees each repair with the call's context and the tool's name,
// in the order of the paths, and so does Coerce.OnChange, without them.
func TestOnChange(t *testing.T) {
	var (
		mu      sync.Mutex
		changes []string
	)
	record := func(s string) {
		mu.Lock()
		defer mu.Unlock()
		changes = append(changes, s)
	}
	opts := gosdkcoerce.Options{
		Coerce: coerce.Options{OnChange: func(c coerce.Change) { record("coerce " + c.Path) }},
		OnChange: func(ctx context.Context, tool string, c coerce.Change) {
			record(fmt.Sprintf("%v %s %s %s %s %q", ctx.Value(traceKey{}), tool, c.Path, c.Found, c.Rule, c.Preview))
		},
	}
	server := newServer(nil)
	opts.Install(server)
	server.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			return next(context.WithValue(ctx, traceKey{}, "trace-1"), method, req)
		}
	})
	got := addTyped[searchArgs](server, "search")
	cs := connect(t, server, client{})
	for _, args := range []map[string]any{
		with(validSearch, map[string]any{"tags": `["a"]`, "limit": "5", "filter": map[string]any{"ids": "[1]", "mode": "any"}, "exact": "yes"}),
		validSearch,
	} {
		if res := call(t, cs, "search", args); res.IsError {
			t.Fatal(resultText(res))
		}
		<-got
	}

	want := []string{
		`coerce /exact`,
		`trace-1 search /exact string boolean-from-text "yes"`,
		`coerce /filter/ids`,
		`trace-1 search /filter/ids string json-text "[1]"`,
		`coerce /limit`,
		`trace-1 search /limit string number-from-text "5"`,
		`coerce /tags`,
		`trace-1 search /tags string json-text "[\"a\"]"`,
	}
	mu.Lock()
	defer mu.Unlock()
	if !reflect.DeepEqual(changes, want) {
		t.Errorf("changes:\n%s\nwant:\n%s", strings.Join(changes, "\n"), strings.Join(want, "\n"))
	}
}

// Logger logs each repair at debug level with the tool's and the client's
// names, and nothing when it does not log debug records.
func TestLogger(t *testing.T) {
	for _, level := range []slog.Level{slog.LevelDebug, slog.LevelInfo} {
		t.Run(level.String(), func(t *testing.T) {
			var buf lockedBuffer
			logger := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{
				Level: level,
				ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
					if a.Key == slog.TimeKey && len(groups) == 0 {
						return slog.Attr{}
					}
					return a
				},
			}))
			server := newServer(&mcp.ServerOptions{Logger: slog.New(slog.DiscardHandler)})
			gosdkcoerce.Options{Logger: logger}.Install(server)
			got := addTyped[countArgs](server, "count")
			call(t, connect(t, server, client{}), "count", map[string]any{"n": "5"})
			<-got
			want := ""
			if level == slog.LevelDebug {
				want = `level=DEBUG msg="coerce: argument repaired" tool=count client.name=test-client change.path=/n change.declared=integer change.found=string change.preview=5 change.rule=number-from-text` + "\n"
			}
			if g := buf.String(); g != want {
				t.Errorf("log:\n%s\nwant:\n%s", g, want)
			}
		})
	}
}

type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// A key in another case is its parameter misspelled, renamed by default;
// with ExactNames it is not a parameter, the SDK rejects it for a struct's
// schema, and the model is told the name it meant.
func TestKeysMatchExactly(t *testing.T) {
	// By default "N" is n misspelled, and the call is repaired (the rule of
	// names); with ExactNames keys match exactly, as JSON Schema matches
	// them, and the model is told.
	server := newServer(nil)
	gosdkcoerce.Install(server)
	got := addTyped[countArgs](server, "count")
	res := call(t, connect(t, server, client{}), "count", map[string]any{"N": "5"})
	if res.IsError || len(got) != 1 || (<-got).N != 5 {
		t.Fatalf("default: got IsError=%v %q; want n: 5 at the handler", res.IsError, resultText(res))
	}

	server = newServer(nil)
	gosdkcoerce.Options{Coerce: coerce.Options{ExactNames: true}}.Install(server)
	got = addTyped[countArgs](server, "count")
	res = call(t, connect(t, server, client{}), "count", map[string]any{"N": "5"})
	const want = "Invalid arguments: 2 problems. Correct them and send the call again.\n" +
		"- /N: not a declared name; declared, nearest first: n.\n" +
		"- /n: missing, and required: an integer. Example: 1"
	if !res.IsError || resultText(res) != want {
		t.Errorf("got IsError=%v %q, want IsError=true %q", res.IsError, resultText(res), want)
	}
	if len(got) != 0 {
		t.Errorf("handler ran with %+v", <-got)
	}
}

// Calls go on concurrently with each other and with changes to the tools;
// run with -race.
func TestConcurrentCallsAndChanges(t *testing.T) {
	server := newServer(nil)
	gosdkcoerce.Install(server)
	got := addTyped[countArgs](server, "count") // holds the 40 calls below
	sessions := []*mcp.ClientSession{connect(t, server, client{}), connect(t, server, legacy)}

	var calls sync.WaitGroup
	for i := range 4 {
		cs := sessions[i%len(sessions)]
		calls.Go(func() {
			for j := range 10 {
				name := fmt.Sprintf("tool%d_%d", i, j)
				addTyped[countArgs](server, name)
				for _, tool := range []string{"count", name} {
					res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: map[string]any{"n": "7"}})
					if err != nil {
						t.Errorf("%s: %v", tool, err)
						return
					}
					if res.IsError {
						t.Errorf("%s: %s", tool, resultText(res))
						return
					}
				}
				server.RemoveTools(name)
			}
		})
	}
	calls.Wait()
	for range 40 {
		if in := <-got; in.N != 7 {
			t.Errorf("count got %+v", in)
		}
	}
}

type snowflake struct {
	ID         int64  `json:"id"`
	PathParams string `json:"path_params"`
}

// Coercion writes integers beyond 2^53 with every digit, for a typed tool
// too. The SDK then decodes a typed tool's arguments with numbers as
// float64 to apply defaults, so the handler gets the integer parameter
// rounded, coerced or not; the JSON text in the string parameter keeps
// every digit.
func TestTypedToolBigIntegers(t *testing.T) {
	var inner probe
	server := newServer(nil)
	server.AddReceivingMiddleware(inner.middleware)
	gosdkcoerce.Install(server)
	got := addTyped[snowflake](server, "snowflake")
	res := call(t, connect(t, server, client{}), "snowflake",
		json.RawMessage(`{"id":"1458059302022549698","path_params":{"channel_id":1458059302022549698}}`))
	if res.IsError {
		t.Fatal(resultText(res))
	}
	args := inner.arguments()
	if g, want := string(args[len(args)-1]), `{"id":1458059302022549698,"path_params":"{\"channel_id\":1458059302022549698}"}`; g != want {
		t.Errorf("the SDK got %s\nwant %s", g, want)
	}
	if in, want := <-got, `{"channel_id":1458059302022549698}`; in.PathParams != want {
		t.Errorf("handler got path_params %q, want %q", in.PathParams, want)
	}
}
