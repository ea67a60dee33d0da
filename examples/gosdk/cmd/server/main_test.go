package main

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// brokenArgs are the arguments LLM hosts really send for EchoArgs: JSON text
// for the array and the object, a numeric string for the integer, and an
// object where the schema wants JSON text.
var brokenArgs = map[string]any{
	"tags":        `["a"]`,
	"config":      `{"k":1}`,
	"limit":       "5",
	"path_params": map[string]any{"channel_id": "1458059302022549698"},
}

// wantEcho is what the handler receives from brokenArgs once coerced, in
// its own Go syntax.
const wantEcho = `Tags:       []string{"a"}
Config:     map[string]interface {}{"k":1}
Limit:      5
PathParams: "{\"channel_id\":\"1458059302022549698\"}"
`

// lockedBuffer collects the server's log, written on the server's goroutines.
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

// connect starts the demo server in process and connects the SDK's client to
// it; the log collects the server's warnings.
func connect(t *testing.T, withCoercion bool) (*mcp.ClientSession, *lockedBuffer) {
	t.Helper()
	log := new(lockedBuffer)
	var server *mcp.Server
	func() {
		defer func() {
			if r := recover(); r != nil {
				t.Fatalf("newServer: %v", r)
			}
		}()
		server = newServer(withCoercion, slog.New(slog.NewTextHandler(log, nil)))
	}()
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
	return cs, log
}

func callEcho(t *testing.T, cs *mcp.ClientSession, arguments any) (text string, isError bool) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "echo", Arguments: arguments})
	if err != nil {
		t.Fatalf("CallTool: %v", err)
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String(), res.IsError
}

// Without coercion the SDK rejects each broken argument on its own, as a
// tool error (IsError), not as a protocol error.
func TestWithoutCoercionTheSDKRejects(t *testing.T) {
	cs, _ := connect(t, false)
	correct := map[string]any{"tags": []string{"a"}, "config": map[string]any{"k": 1}, "limit": 5, "path_params": "x"}
	if text, isError := callEcho(t, cs, correct); isError {
		t.Fatalf("correct arguments rejected: %s", text)
	}
	for param, want := range map[string]string{
		"tags":        `validating /properties/tags: type: ["a"] has type "string", want one of "null, array"`,
		"config":      `validating /properties/config: type: {"k":1} has type "string", want "object"`,
		"limit":       `validating /properties/limit: type: 5 has type "string", want "integer"`,
		"path_params": `validating /properties/path_params: type: map[channel_id:1458059302022549698] has type "object", want "string"`,
	} {
		arguments := map[string]any{}
		for k, v := range correct {
			arguments[k] = v
		}
		arguments[param] = brokenArgs[param]
		text, isError := callEcho(t, cs, arguments)
		want = `validating "arguments": validating root: ` + want
		if !isError || text != want {
			t.Errorf("%s: got IsError=%v %q\nwant IsError=true %q", param, isError, text, want)
		}
	}
}

func TestWithCoercionTheHandlerGetsDeclaredTypes(t *testing.T) {
	cs, log := connect(t, true)
	if text, isError := callEcho(t, cs, brokenArgs); isError || text != wantEcho {
		t.Errorf("got IsError=%v\n%s\nwant\n%s", isError, text, wantEcho)
	}

	// Arguments that cannot be coerced get the SDK's message, and the server
	// logs why coercion failed.
	text, isError := callEcho(t, cs, map[string]any{"tags": "a", "config": "{}", "limit": 5, "path_params": "x"})
	if want := `validating /properties/tags: type: a has type "string"`; !isError || !strings.Contains(text, want) {
		t.Errorf("got IsError=%v %q, want a tool error containing %q", isError, text, want)
	}
	if got := log.String(); !strings.Contains(got, "arguments not coerced") || !strings.Contains(got, "/tags") {
		t.Errorf("log = %q, want a warning about /tags", got)
	}
}

// An integer beyond 2^53 inside an object that becomes text keeps every
// digit (DESIGN.md, "Nothing lost"): Discord-style snowflake IDs are such
// numbers. The arguments go as raw JSON so that the client cannot round it.
func TestWithCoercionBigIntegersStayExact(t *testing.T) {
	cs, _ := connect(t, true)
	arguments := json.RawMessage(`{"tags":"[]","config":"{}","limit":"1e3","path_params":{"channel_id":1458059302022549698}}`)
	want := "Tags:       []string{}\nConfig:     map[string]interface {}{}\nLimit:      1000\n" +
		`PathParams: "{\"channel_id\":1458059302022549698}"` + "\n"
	if text, isError := callEcho(t, cs, arguments); isError || text != want {
		t.Errorf("got IsError=%v\n%s\nwant\n%s", isError, text, want)
	}
}

// The demo server as users run it: a separate process on stdio, driven by
// the SDK's client.
func TestStdioServerProcess(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go not on PATH")
	}
	bin := filepath.Join(t.TempDir(), "server")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	build := exec.Command(goTool, "build", "-o", bin, ".")
	// The module cache has everything the build needs; never the network.
	build.Env = append(build.Environ(), "GOPROXY=off", "GOFLAGS=-mod=readonly")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var stderr lockedBuffer
	cmd := exec.Command(bin)
	cmd.Stderr = &stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "test-client"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v\nserver stderr:\n%s", err, stderr.String())
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: brokenArgs})
	if err != nil {
		t.Fatalf("CallTool: %v\nserver stderr:\n%s", err, stderr.String())
	}
	if err := cs.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
	if len(res.Content) != 1 {
		t.Fatalf("got %d content blocks, want 1", len(res.Content))
	}
	text, _ := res.Content[0].(*mcp.TextContent)
	if res.IsError || text == nil || text.Text != wantEcho {
		t.Errorf("got IsError=%v %#v\nwant\n%s\nserver stderr:\n%s", res.IsError, res.Content[0], wantEcho, stderr.String())
	}
	// The structured echo crosses the wire as JSON.
	got, _ := json.Marshal(res.StructuredContent)
	const wantJSON = `{"config":{"k":1},"limit":5,"path_params":"{\"channel_id\":\"1458059302022549698\"}","tags":["a"]}`
	if string(got) != wantJSON {
		t.Errorf("structured content %s, want %s", got, wantJSON)
	}
}
