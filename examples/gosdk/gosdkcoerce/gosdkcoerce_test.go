package gosdkcoerce_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/coerce-go/coerce"
	"github.com/coerce-go/coerce/examples/gosdk/gosdkcoerce"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The tests run a real SDK server and client over in-memory transports; the
// SDK validates typed tools' arguments as it does in production.

type args struct {
	Tags       []string       `json:"tags"`
	Config     map[string]any `json:"config"`
	Limit      int            `json:"limit"`
	PathParams string         `json:"path_params"`
}

// brokenArgs are what LLM hosts send for args; coercedArgs is what they meant.
var (
	brokenArgs = map[string]any{
		"tags":        `["a"]`,
		"config":      `{"k":1}`,
		"limit":       "5",
		"path_params": map[string]any{"channel_id": "1458059302022549698"},
	}
	coercedArgs = args{
		Tags:       []string{"a"},
		Config:     map[string]any{"k": 1.0},
		Limit:      5,
		PathParams: `{"channel_id":"1458059302022549698"}`,
	}
)

// connect connects a client to server and returns its session.
func connect(t *testing.T, server *mcp.Server) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test-client"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func newServer() *mcp.Server {
	return mcp.NewServer(&mcp.Implementation{Name: "test-server"}, nil)
}

// addEcho registers a typed tool, with coercion when reg is not nil, and
// returns the channel on which its handler reports what it received.
func addEcho(t *testing.T, reg *gosdkcoerce.Registry, server *mcp.Server, name string) <-chan args {
	t.Helper()
	got := make(chan args, 100)
	handler := func(ctx context.Context, req *mcp.CallToolRequest, in args) (*mcp.CallToolResult, any, error) {
		got <- in
		return nil, nil, nil
	}
	tool := &mcp.Tool{Name: name}
	defer func() {
		if r := recover(); r != nil {
			t.Errorf("AddTool(%s): %v", name, r) // not Fatal: may run off the test goroutine
		}
	}()
	if reg == nil {
		mcp.AddTool(server, tool, handler)
	} else {
		gosdkcoerce.AddTool(reg, server, tool, handler)
	}
	return got
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

func TestTypedToolWithoutCoercionIsRejected(t *testing.T) {
	server := newServer()
	got := addEcho(t, nil, server, "echo")
	res := call(t, connect(t, server), "echo", brokenArgs)
	// The SDK reports a validation failure as a tool error, not a Go error,
	// and stops at the first invalid property it meets, in map order.
	const prefix = `validating "arguments": validating root: validating /properties/`
	if text := resultText(res); !res.IsError || !strings.HasPrefix(text, prefix) {
		t.Errorf("got IsError=%v %q, want IsError=true and %q...", res.IsError, text, prefix)
	}
	if len(got) != 0 {
		t.Errorf("handler ran with %+v", <-got)
	}
}

func TestTypedToolWithCoercion(t *testing.T) {
	var reg gosdkcoerce.Registry
	reg.OnError = func(ctx context.Context, req *mcp.CallToolRequest, err error) {
		t.Errorf("OnError(%s): %v", req.Params.Name, err)
	}
	server := newServer()
	server.AddReceivingMiddleware(reg.Middleware())
	got := addEcho(t, &reg, server, "echo")
	res := call(t, connect(t, server), "echo", brokenArgs)
	if res.IsError {
		t.Fatalf("tool error: %s", resultText(res))
	}
	if in := <-got; !reflect.DeepEqual(in, coercedArgs) {
		t.Errorf("handler got %#v\nwant %#v", in, coercedArgs)
	}
}

// AddTool must publish the same input schema mcp.AddTool infers, whatever
// the kind of In.
func TestAddToolInfersTheSDKSchema(t *testing.T) {
	var reg gosdkcoerce.Registry
	plain, coerced := newServer(), newServer()
	mcp.AddTool(plain, &mcp.Tool{Name: "struct"}, handlerFor[args])
	mcp.AddTool(plain, &mcp.Tool{Name: "pointer"}, handlerFor[*args])
	mcp.AddTool(plain, &mcp.Tool{Name: "map"}, handlerFor[map[string]int])
	mcp.AddTool(plain, &mcp.Tool{Name: "any"}, handlerFor[any])
	gosdkcoerce.AddTool(&reg, coerced, &mcp.Tool{Name: "struct"}, handlerFor[args])
	gosdkcoerce.AddTool(&reg, coerced, &mcp.Tool{Name: "pointer"}, handlerFor[*args])
	gosdkcoerce.AddTool(&reg, coerced, &mcp.Tool{Name: "map"}, handlerFor[map[string]int])
	gosdkcoerce.AddTool(&reg, coerced, &mcp.Tool{Name: "any"}, handlerFor[any])

	list := func(server *mcp.Server) map[string]string {
		res, err := connect(t, server).ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		schemas := map[string]string{}
		for _, tool := range res.Tools {
			text, _ := json.Marshal(tool.InputSchema)
			schemas[tool.Name] = string(text)
		}
		return schemas
	}
	want, got := list(plain), list(coerced)
	if len(want) != 4 || !reflect.DeepEqual(got, want) {
		t.Errorf("input schemas\n got %v\nwant %v", got, want)
	}
	for name := range want {
		if _, ok := reg.Schema(name); !ok {
			t.Errorf("Schema(%s) not found", name)
		}
	}
}

func handlerFor[In any](ctx context.Context, req *mcp.CallToolRequest, in In) (*mcp.CallToolResult, any, error) {
	return nil, nil, nil
}

// probe returns a middleware that records the arguments of each tool call.
func probe(record *[]json.RawMessage, mu *sync.Mutex) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if call, ok := req.(*mcp.CallToolRequest); ok {
				mu.Lock()
				*record = append(*record, call.Params.Arguments)
				mu.Unlock()
			}
			return next(ctx, method, req)
		}
	}
}

// The middleware must hand correct arguments on byte for byte, and must not
// change the request that outer middleware holds.
func TestMiddlewareOrderAndPassThrough(t *testing.T) {
	var (
		mu            sync.Mutex
		before, after []json.RawMessage
		reg           gosdkcoerce.Registry
	)
	server := newServer()
	// The middleware added last runs first.
	server.AddReceivingMiddleware(probe(&after, &mu))
	server.AddReceivingMiddleware(reg.Middleware())
	server.AddReceivingMiddleware(probe(&before, &mu))
	got := addEcho(t, &reg, server, "echo")
	cs := connect(t, server)

	// Already correct, in an unusual key order, with JSON text declared
	// string that must stay text.
	correct := json.RawMessage(`{"path_params":"{\"channel_id\":\"1458059302022549698\"}","limit":5,"tags":["a"],"config":{"k":1}}`)
	if res := call(t, cs, "echo", correct); res.IsError {
		t.Fatalf("tool error: %s", resultText(res))
	}
	if in := <-got; !reflect.DeepEqual(in, coercedArgs) {
		t.Errorf("handler got %#v\nwant %#v", in, coercedArgs)
	}
	if res := call(t, cs, "echo", brokenArgs); res.IsError {
		t.Fatalf("tool error: %s", resultText(res))
	}
	<-got

	mu.Lock()
	defer mu.Unlock()
	if len(before) != 2 || len(after) != 2 {
		t.Fatalf("probes saw %d and %d calls, want 2 each", len(before), len(after))
	}
	if !bytes.Equal(before[0], correct) {
		t.Errorf("client sent %s, want %s", before[0], correct)
	}
	if !bytes.Equal(after[0], before[0]) {
		t.Errorf("correct arguments changed:\n%s\nbecame\n%s", before[0], after[0])
	}
	if bytes.Equal(after[1], before[1]) {
		t.Errorf("broken arguments reached the handler unchanged: %s", after[1])
	}
	var outer map[string]any
	if err := json.Unmarshal(before[1], &outer); err != nil || !reflect.DeepEqual(outer["limit"], "5") {
		t.Errorf("outer middleware saw %s after coercion, want the client's arguments", before[1])
	}
}

// Tools registered with Server.AddTool take a hand-written schema, often with
// type arrays or anyOf for optional values; the SDK does not validate their
// arguments, so the handler sees exactly what coercion made.
func TestRawToolWithExplicitSchema(t *testing.T) {
	const schemaText = `{
		"type": "object",
		"properties": {
			"ids":    {"type": ["null", "array"], "items": {"type": "integer"}},
			"filter": {"type": ["null", "object"]},
			"mode":   {"anyOf": [{"type": "string"}, {"type": "null"}]},
			"limit":  {"type": ["integer", "null"]}
		}
	}`
	var asMap map[string]any
	if err := json.Unmarshal([]byte(schemaText), &asMap); err != nil {
		t.Fatal(err)
	}
	var asSchema *jsonschema.Schema
	if err := json.Unmarshal([]byte(schemaText), &asSchema); err != nil {
		t.Fatal(err)
	}
	for name, inputSchema := range map[string]any{
		"raw_message": json.RawMessage(schemaText),
		"map":         asMap,
		"jsonschema":  asSchema,
	} {
		t.Run(name, func(t *testing.T) {
			var reg gosdkcoerce.Registry
			server := newServer()
			server.AddReceivingMiddleware(reg.Middleware())
			got := make(chan json.RawMessage, 1)
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Fatalf("Registry.AddTool: %v", r)
					}
				}()
				reg.AddTool(server, &mcp.Tool{Name: "raw", InputSchema: inputSchema},
					func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
						got <- req.Params.Arguments
						return &mcp.CallToolResult{}, nil
					})
			}()
			call(t, connect(t, server), "raw", map[string]any{
				"ids":    "[1, 2]",
				"filter": `{"k":"v"}`,
				"mode":   map[string]any{"fast": true},
				"limit":  "10",
				"extra":  "[1]", // not in the schema: passes through
			})
			var received map[string]any
			raw := <-got
			if err := json.Unmarshal(raw, &received); err != nil {
				t.Fatalf("handler got %s: %v", raw, err)
			}
			want := map[string]any{
				"ids":    []any{1.0, 2.0},
				"filter": map[string]any{"k": "v"},
				"mode":   `{"fast":true}`,
				"limit":  10.0,
				"extra":  "[1]",
			}
			if !reflect.DeepEqual(received, want) {
				t.Errorf("handler got %s, want %v", raw, want)
			}
		})
	}
}

// Arguments that cannot be coerced reach the validator as the client sent
// them, so the client gets the SDK's own message; OnError sees why.
func TestCoercionErrorIsReportedAndLeftToTheValidator(t *testing.T) {
	var (
		mu      sync.Mutex
		reports []error
		reg     gosdkcoerce.Registry
	)
	reg.OnError = func(ctx context.Context, req *mcp.CallToolRequest, err error) {
		mu.Lock()
		defer mu.Unlock()
		reports = append(reports, err)
	}
	server := newServer()
	server.AddReceivingMiddleware(reg.Middleware())
	got := addEcho(t, &reg, server, "echo")
	arguments := map[string]any{"tags": `["a"]`, "config": `{"k":1}`, "limit": "five", "path_params": "x"}
	res := call(t, connect(t, server), "echo", arguments)

	const want = `validating "arguments": validating root: validating /properties/limit: ` +
		`type: five has type "string", want "integer"`
	if !res.IsError || resultText(res) != want {
		t.Errorf("got IsError=%v %q, want IsError=true %q", res.IsError, resultText(res), want)
	}
	if len(got) != 0 {
		t.Errorf("handler ran with %+v", <-got)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(reports) != 1 {
		t.Fatalf("OnError called %d times, want 1: %v", len(reports), reports)
	}
	var cerr *coerce.Error
	if !errors.As(reports[0], &cerr) || cerr.Path != "/limit" || cerr.Value != "five" {
		t.Errorf("OnError got %v, want a *coerce.Error for \"five\" at /limit", reports[0])
	}
}

// The SDK reads "arguments": null as no arguments; so does the middleware,
// without reporting an error.
func TestNullArguments(t *testing.T) {
	var reg gosdkcoerce.Registry
	reg.OnError = func(ctx context.Context, req *mcp.CallToolRequest, err error) {
		t.Errorf("OnError(%s): %v", req.Params.Name, err)
	}
	server := newServer()
	server.AddReceivingMiddleware(reg.Middleware())
	type optional struct {
		Tags []string `json:"tags,omitempty"`
	}
	gosdkcoerce.AddTool(&reg, server, &mcp.Tool{Name: "optional"},
		func(ctx context.Context, req *mcp.CallToolRequest, in optional) (*mcp.CallToolResult, any, error) {
			return nil, nil, nil
		})
	if res := call(t, connect(t, server), "optional", json.RawMessage("null")); res.IsError {
		t.Errorf("tool error: %s", resultText(res))
	}
}

// Tools the registry does not know, and tools removed from it, are left to
// the SDK as they are.
func TestUnregisteredAndRemovedTools(t *testing.T) {
	var reg gosdkcoerce.Registry
	server := newServer()
	server.AddReceivingMiddleware(reg.Middleware())
	addEcho(t, nil, server, "plain")
	addEcho(t, &reg, server, "removed")
	reg.RemoveTools(server, "removed")
	if _, ok := reg.Schema("removed"); ok {
		t.Error("Schema(removed) still found after RemoveTools")
	}
	addEcho(t, nil, server, "removed") // same name, now without coercion

	cs := connect(t, server)
	for _, name := range []string{"plain", "removed"} {
		if res := call(t, cs, name, brokenArgs); !res.IsError {
			t.Errorf("%s: broken arguments were accepted", name)
		}
	}
}

// Calls run concurrently with each other and with registration.
func TestConcurrentCalls(t *testing.T) {
	var reg gosdkcoerce.Registry
	server := newServer()
	server.AddReceivingMiddleware(reg.Middleware())
	got := addEcho(t, &reg, server, "echo")
	go func() {
		for range got {
		}
	}()
	cs := connect(t, server)

	var wg sync.WaitGroup
	for i := range 4 {
		wg.Go(func() {
			for j := range 10 {
				name := fmt.Sprintf("tool%d_%d", i, j)
				addEcho(t, &reg, server, name)
				for _, tool := range []string{"echo", name} {
					res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: brokenArgs})
					if err != nil {
						t.Errorf("%s: %v", tool, err)
						return
					}
					if res.IsError {
						t.Errorf("%s: %s", tool, resultText(res))
						return
					}
				}
				reg.RemoveTools(server, name)
			}
		})
	}
	wg.Wait()
}
