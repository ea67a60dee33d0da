package mcpgocoerce_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/coerce-go/coerce"
	"github.com/coerce-go/coerce/mcpgo"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// brokenArgs are the echo tool's arguments as LLM hosts really send them.
func brokenArgs() map[string]any {
	return map[string]any{
		"tags":   `["a"]`,
		"meta":   `{"k":1}`,
		"count":  "5",
		"filter": map[string]any{"channel_id": "1458059302022549698"},
	}
}

// correctArgs are the same arguments in their declared shapes.
func correctArgs() map[string]any {
	return map[string]any{
		"tags":   []any{"a"},
		"meta":   map[string]any{"k": 1},
		"count":  5,
		"filter": `{"channel_id":"1458059302022549698"}`,
	}
}

// received is correctArgs as a handler sees them through
// CallToolRequest.GetArguments: mcp-go decodes every JSON number to float64.
func received() map[string]any {
	return map[string]any{
		"tags":   []any{"a"},
		"meta":   map[string]any{"k": float64(1)},
		"count":  float64(5),
		"filter": `{"channel_id":"1458059302022549698"}`,
	}
}

// recorder is a tool handler that keeps the requests it was called with.
type recorder struct {
	mu   sync.Mutex
	reqs []mcp.CallToolRequest
}

func (r *recorder) handle(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	r.mu.Lock()
	r.reqs = append(r.reqs, req)
	r.mu.Unlock()
	return echo(ctx, req)
}

// last returns the latest request, failing the test if there was none.
func (r *recorder) last(t *testing.T) mcp.CallToolRequest {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.reqs) == 0 {
		t.Fatal("the tool handler was not called")
	}
	return r.reqs[len(r.reqs)-1]
}

func (r *recorder) calls() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.reqs)
}

// newServer returns a server with validation on; install, if not nil,
// installs coercion on it before any tool is registered.
func newServer(install func(*server.MCPServer)) *server.MCPServer {
	s := server.NewMCPServer("test", "0.0.0", server.WithInputSchemaValidation())
	if install != nil {
		install(s)
	}
	return s
}

// connect returns an initialized client of s over mcp-go's in-process
// transport, which sends each request through the server as JSON text.
func connect(t *testing.T, s *server.MCPServer) *client.Client {
	t.Helper()
	c, err := client.NewInProcessClient(s)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	initialize(t, c)
	return c
}

func initialize(t *testing.T, c *client.Client) {
	t.Helper()
	ctx := t.Context()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	var req mcp.InitializeRequest
	req.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	req.Params.ClientInfo = mcp.Implementation{Name: "mcpgocoerce-test", Version: "0.0.0"}
	if _, err := c.Initialize(ctx, req); err != nil {
		t.Fatal(err)
	}
}

func call(t *testing.T, c *client.Client, tool string, args any) *mcp.CallToolResult {
	t.Helper()
	var req mcp.CallToolRequest
	req.Params.Name = tool
	req.Params.Arguments = args
	res, err := c.CallTool(t.Context(), req)
	if err != nil {
		t.Fatalf("CallTool(%s): %v", tool, err)
	}
	return res
}

func text(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	if len(res.Content) != 1 {
		t.Fatalf("want one content item, got %#v", res.Content)
	}
	tc, ok := mcp.AsTextContent(res.Content[0])
	if !ok {
		t.Fatalf("want text content, got %#v", res.Content[0])
	}
	return tc.Text
}

// succeeded fails the test if the call came back as a tool error.
func succeeded(t *testing.T, res *mcp.CallToolResult) {
	t.Helper()
	if res.IsError {
		t.Fatalf("call failed: %s", text(t, res))
	}
}

// exact decodes raw arguments keeping numbers as their JSON text, to check
// what typed handlers (BindArguments) will read, digit for digit.
func exact(t *testing.T, raw json.RawMessage) map[string]any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		t.Fatalf("RawArguments %q: %v", raw, err)
	}
	return m
}

// reports collects what Options reports: errors, changes, and the log.
type reports struct {
	mu      sync.Mutex
	errs    []error
	changes []change
	log     bytes.Buffer
}

// change is a coerce.Change as OnChange received it.
type change struct {
	tool string
	coerce.Change
	ctx context.Context
}

// options reports everything to r, logging at debug level.
func (r *reports) options() mcpgocoerce.Options {
	return mcpgocoerce.Options{
		OnError: func(_ context.Context, tool string, err error) {
			r.mu.Lock()
			defer r.mu.Unlock()
			r.errs = append(r.errs, fmt.Errorf("tool %s: %w", tool, err))
		},
		OnChange: func(ctx context.Context, tool string, c coerce.Change) {
			r.mu.Lock()
			defer r.mu.Unlock()
			r.changes = append(r.changes, change{tool, c, ctx})
		},
		Logger: slog.New(slog.NewJSONHandler(r, &slog.HandlerOptions{Level: slog.LevelDebug})),
	}
}

// Write is the log's output.
func (r *reports) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.log.Write(p)
}

func (r *reports) errors() []error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.errs
}

// changed returns the changes reported, in the order of their paths.
func (r *reports) changed() []change {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.SortedFunc(slices.Values(r.changes), func(a, b change) int {
		return strings.Compare(a.Path, b.Path)
	})
}

// logged returns the log records, decoded.
func (r *reports) logged(t *testing.T) []map[string]any {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	var records []map[string]any
	dec := json.NewDecoder(bytes.NewReader(r.log.Bytes()))
	for dec.More() {
		var rec map[string]any
		if err := dec.Decode(&rec); err != nil {
			t.Fatalf("log %q: %v", r.log.Bytes(), err)
		}
		records = append(records, rec)
	}
	return records
}

// nothing fails the test if r holds any report.
func (r *reports) nothing(t *testing.T) {
	t.Helper()
	if errs := r.errors(); errs != nil {
		t.Errorf("OnError called: %v", errs)
	}
	if changes := r.changed(); changes != nil {
		t.Errorf("OnChange called: %v", changes)
	}
	if log := r.logged(t); log != nil {
		t.Errorf("Logger logged: %v", log)
	}
}

func equal(t *testing.T, what string, got, want any) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s:\n got %#v\nwant %#v", what, got, want)
	}
}

func TestBrokenArgumentsFailValidationWithoutCoercion(t *testing.T) {
	s := newServer(nil)
	var rec recorder
	s.AddTool(echoTool(), rec.handle)
	res := call(t, connect(t, s), "echo", brokenArgs())

	if !res.IsError {
		t.Fatalf("want a validation error, got %q", text(t, res))
	}
	// mcp-go lists the failures in map order, so check each one.
	msg := text(t, res)
	for _, want := range []string{
		"/tags: &{Got:string Want:[array]}",
		"/meta: &{Got:string Want:[object]}",
		"/count: &{Got:string Want:[integer]}",
		"/filter: &{Got:object Want:[string]}",
	} {
		if !strings.HasPrefix(msg, "input schema validation failed: ") || !strings.Contains(msg, want) {
			t.Errorf("validation error %q does not report %q", msg, want)
		}
	}
	if n := rec.calls(); n != 0 {
		t.Errorf("handler called %d times, want 0", n)
	}
}

func TestBrokenArgumentsArriveCoerced(t *testing.T) {
	var reps reports
	s := newServer(reps.options().Install)
	var rec recorder
	s.AddTool(echoTool(), rec.handle)
	res := call(t, connect(t, s), "echo", brokenArgs())

	succeeded(t, res)
	req := rec.last(t)
	equal(t, "GetArguments()", req.GetArguments(), received())
	equal(t, "RawArguments", exact(t, req.Params.RawArguments), map[string]any{
		"tags":   []any{"a"},
		"meta":   map[string]any{"k": json.Number("1")},
		"count":  json.Number("5"),
		"filter": `{"channel_id":"1458059302022549698"}`,
	})
	equal(t, "echo", text(t, res), describe(received()))
	if errs := reps.errors(); errs != nil {
		t.Errorf("OnError called: %v", errs)
	}
}

// echoArgs binds the echo tool's arguments, plus an id, the way a typed
// handler does: from RawArguments.
type echoArgs struct {
	Tags   []string       `json:"tags"`
	Meta   map[string]any `json:"meta"`
	Count  int            `json:"count"`
	Filter string         `json:"filter"`
	ID     int64          `json:"id"`
}

func TestTypedHandlerReceivesCoercedArguments(t *testing.T) {
	tool := echoTool()
	tool.Name = "typed"
	tool.InputSchema.Properties["id"] = map[string]any{"type": "integer"}

	s := newServer(mcpgocoerce.Install)
	got := make(chan echoArgs, 1)
	s.AddTool(tool, mcp.NewTypedToolHandler(func(_ context.Context, _ mcp.CallToolRequest, args echoArgs) (*mcp.CallToolResult, error) {
		got <- args
		return mcp.NewToolResultText("ok"), nil
	}))

	args := brokenArgs()
	args["id"] = "9007199254740993" // 2^53+1: no float64 holds it
	succeeded(t, call(t, connect(t, s), "typed", args))
	equal(t, "typed arguments", <-got, echoArgs{
		Tags:   []string{"a"},
		Meta:   map[string]any{"k": float64(1)},
		Count:  5,
		Filter: `{"channel_id":"1458059302022549698"}`,
		ID:     9007199254740993,
	})
}

// A snowflake sent as a JSON number inside an object that should have been
// JSON text: mcp-go's Arguments already holds it as a rounded float64, so
// only coercing the raw bytes keeps its digits.
func TestLargeIntegerInsideObjectKeepsItsDigits(t *testing.T) {
	s := newServer(mcpgocoerce.Install)
	var rec recorder
	s.AddTool(echoTool(), rec.handle)
	succeeded(t, call(t, connect(t, s), "echo", map[string]any{
		"filter": json.RawMessage(`{"channel_id":1458059302022549698}`),
	}))
	equal(t, "filter", rec.last(t).GetArguments()["filter"], `{"channel_id":1458059302022549698}`)
}

func TestCorrectArgumentsPassThroughUntouched(t *testing.T) {
	var reps reports
	s := newServer(reps.options().Install)
	var rec recorder
	s.AddTool(echoTool(), rec.handle)
	sent, err := json.Marshal(correctArgs())
	if err != nil {
		t.Fatal(err)
	}
	succeeded(t, call(t, connect(t, s), "echo", json.RawMessage(sent)))

	req := rec.last(t)
	if !bytes.Equal(req.Params.RawArguments, sent) {
		t.Errorf("RawArguments changed:\n got %s\nwant %s", req.Params.RawArguments, sent)
	}
	equal(t, "GetArguments()", req.GetArguments(), received())
	reps.nothing(t)
}

// With KeepSDKErrors, what cannot be converted is left for the validator
// to reject, with its own message, and reported to OnError with the
// parameter's path.
func TestUnconvertibleArgumentIsReportedAndRejected(t *testing.T) {
	var reps reports
	o := reps.options()
	o.KeepSDKErrors = true
	s := newServer(o.Install)
	var rec recorder
	s.AddTool(echoTool(), rec.handle)
	res := call(t, connect(t, s), "echo", map[string]any{"tags": "a, b", "count": "5"})

	if !res.IsError {
		t.Fatalf("want a validation error, got %q", text(t, res))
	}
	if want := "input schema validation failed: /tags: &{Got:string Want:[array]}"; text(t, res) != want {
		t.Errorf("got %q, want %q (count converted, tags left as sent)", text(t, res), want)
	}
	errs := reps.errors()
	if len(errs) != 1 {
		t.Fatalf("OnError got %v, want one error", errs)
	}
	var ce *coerce.Error
	if !strings.HasPrefix(errs[0].Error(), "tool echo: ") || !errors.As(errs[0], &ce) ||
		ce.Path != "/tags" || !reflect.DeepEqual(ce.Value, "a, b") {
		t.Errorf("OnError got %v, want a *coerce.Error for tool echo, /tags, holding %q", errs[0], "a, b")
	}
	if changes := reps.changed(); len(changes) != 1 || changes[0].Path != "/count" {
		t.Errorf("OnChange got %v, want the repair of /count alone", changes)
	}
}

// Install keeps the server's own hooks and runs after them. One of them may
// have replaced the arguments and cleared RawArguments (so that
// BindArguments marshals Arguments instead); coercion then works on
// Arguments.
func TestArgumentsWithoutRawBytesAreCoerced(t *testing.T) {
	hooks := &server.Hooks{}
	hooks.AddBeforeCallTool(func(_ context.Context, _ any, req *mcp.CallToolRequest) {
		req.Params.RawArguments = nil
	})
	s := server.NewMCPServer("test", "0.0.0", server.WithInputSchemaValidation(), server.WithHooks(hooks))
	mcpgocoerce.Install(s)
	var rec recorder
	s.AddTool(echoTool(), rec.handle)
	succeeded(t, call(t, connect(t, s), "echo", brokenArgs()))
	equal(t, "GetArguments()", rec.last(t).GetArguments(), received())
}

// A tool registered again under the same name with another schema is
// coerced to the new one.
func TestReregisteredToolIsCoercedToItsNewSchema(t *testing.T) {
	s := newServer(mcpgocoerce.Install)
	var rec recorder
	register := func(typ string) {
		s.AddTool(mcp.NewTool("t", mcp.WithRawInputSchema(json.RawMessage(
			`{"type":"object","properties":{"x":{"type":"`+typ+`"}}}`))), rec.handle)
	}
	c := connect(t, s)

	register("integer")
	succeeded(t, call(t, c, "t", map[string]any{"x": "5"}))
	equal(t, "x declared integer", rec.last(t).GetArguments()["x"], float64(5))

	register("string")
	succeeded(t, call(t, c, "t", map[string]any{"x": 5}))
	equal(t, "x declared string", rec.last(t).GetArguments()["x"], "5")
}

// Some clients send "arguments": null for a call without arguments; mcp-go
// accepts it, and it is not a coercion failure.
func TestNullArgumentsAreNoArguments(t *testing.T) {
	var reps reports
	s := newServer(reps.options().Install)
	var rec recorder
	s.AddTool(echoTool(), rec.handle)
	resp := s.HandleMessage(t.Context(), json.RawMessage(
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":null}}`))
	if r, ok := resp.(mcp.JSONRPCResponse); !ok {
		t.Fatalf("got %#v, want a response", resp)
	} else if res, ok := r.Result.(*mcp.CallToolResult); !ok || res.IsError {
		t.Fatalf("got %#v, want a successful call", r.Result)
	}
	equal(t, "RawArguments", string(rec.last(t).Params.RawArguments), "null")
	reps.nothing(t)
}

// Run with -race: calls and re-registrations at once share the schema cache.
func TestConcurrentCalls(t *testing.T) {
	s := newServer(mcpgocoerce.Install)
	var rec recorder
	s.AddTool(echoTool(), rec.handle)
	c := connect(t, s)

	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 10 {
				var req mcp.CallToolRequest
				req.Params.Name = "echo"
				req.Params.Arguments = brokenArgs()
				res, err := c.CallTool(t.Context(), req)
				if err != nil || res.IsError {
					t.Errorf("call failed: %v %+v", err, res)
					return
				}
			}
		})
	}
	wg.Go(func() {
		for range 20 {
			s.AddTool(echoTool(), rec.handle)
		}
	})
	wg.Wait()
}
