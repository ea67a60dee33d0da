package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coerce-go/coerce"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// bodyRecorder keeps the body of every POST that passes through it.
type bodyRecorder struct {
	next   http.Handler
	mu     sync.Mutex
	bodies []string
}

func (b *bodyRecorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodPost {
		data, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(data))
		b.mu.Lock()
		b.bodies = append(b.bodies, string(data))
		b.mu.Unlock()
	}
	b.next.ServeHTTP(w, r)
}

func (b *bodyRecorder) all() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.bodies...)
}

// headerSchema has a parameter mirrored in a header (SEP-2243) that the
// coercion changes: "yes" becomes true, so the header must become "true".
const headerSchema = `{
	"type": "object",
	"properties": {
		"verbose": {"type": "boolean", "x-mcp-header": "Verbose"},
		"region": {"type": "string", "x-mcp-header": "Region"},
		"limit": {"type": "integer"},
		"tags": {"type": "array", "items": {"type": "string"}}
	}
}`

// httpUpstream is a go-sdk Streamable HTTP server whose tool answers with
// the arguments it received and the Mcp-Param-Verbose header beside them,
// and the proxy before it.
func httpUpstream(t *testing.T) (proxyURL string, atProxy, atServer *bodyRecorder) {
	t.Helper()
	s := mcp.NewServer(&mcp.Implementation{Name: "headers", Version: "1"}, nil)
	s.AddTool(&mcp.Tool{Name: "report", InputSchema: json.RawMessage(headerSchema)},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			text := string(req.Params.Arguments) + " | Mcp-Param-Verbose: " + req.Extra.Header.Get("Mcp-Param-Verbose")
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil
		})
	atServer = &bodyRecorder{next: mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s },
		// Stateless: MCP 2026-07-28, whose requests carry the standard headers.
		&mcp.StreamableHTTPOptions{Stateless: true})}
	upstream := httptest.NewServer(atServer)
	t.Cleanup(upstream.Close)

	p, err := newHTTPProxy(upstream.URL, coerce.Options{UseNumber: true}, nil, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	atProxy = &bodyRecorder{next: p}
	proxy := httptest.NewServer(atProxy)
	t.Cleanup(proxy.Close)
	return proxy.URL, atProxy, atServer
}

func TestHTTPProxy(t *testing.T) {
	proxyURL, atProxy, atServer := httpUpstream(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "http-test", Version: "1"}, nil).
		Connect(ctx, &mcp.StreamableClientTransport{Endpoint: proxyURL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	// The client lists the tools, so that it mirrors the parameters in
	// headers as SEP-2243 asks.
	if _, err := cs.ListTools(ctx, nil); err != nil {
		t.Fatal(err)
	}

	// Calls that fit pass as the bytes the client sent.
	if got, isErr := callText(t, cs, "report", map[string]any{"verbose": true, "region": "eu", "limit": 5}); isErr ||
		got != `{"limit":5,"region":"eu","verbose":true} | Mcp-Param-Verbose: true` {
		t.Errorf("fitting call: %s (isError %v)", got, isErr)
	}
	if p, s := atProxy.all(), atServer.all(); strings.Join(p, "\n") != strings.Join(s, "\n") {
		t.Errorf("the server received other bodies than the client sent:\nclient: %q\nserver: %q", p, s)
	}

	// A repaired call: the body and the header that mirrors it agree.
	got, isErr := callText(t, cs, "report", map[string]any{"verbose": "yes", "limit": "5", "tags": `["a"]`})
	if want := `{"limit":5,"tags":["a"],"verbose":true} | Mcp-Param-Verbose: true`; isErr || got != want {
		t.Errorf("repaired call: server received %s (isError %v), want %s", got, isErr, want)
	}

	// An unfixable one never reaches the server.
	before := len(atServer.all())
	got, isErr = callText(t, cs, "report", map[string]any{"limit": "five"})
	if !isErr || !strings.Contains(got, "/limit: expected an integer") {
		t.Errorf("unfixable call: %s (isError %v)", got, isErr)
	}
	if after := atServer.all(); len(after) != before {
		t.Errorf("the server received %q", after[before:])
	}
}

// The headers of SEP-2243, as the proxy computes them from arguments.
func TestParamHeaders(t *testing.T) {
	params := headerParams(json.RawMessage(headerSchema))
	h := http.Header{}
	setParamHeaders(h, params, json.RawMessage(`{"verbose":true,"region":"  eu ","limit":5}`))
	if got := h.Get("Mcp-Param-Verbose"); got != "true" {
		t.Errorf("Mcp-Param-Verbose = %q, want true", got)
	}
	if got := h.Get("Mcp-Param-Region"); got != "=?base64?ICBldSA=?=" {
		t.Errorf("Mcp-Param-Region = %q, want Base64 for surrounding spaces", got)
	}
	setParamHeaders(h, params, json.RawMessage(`{}`))
	if h.Get("Mcp-Param-Verbose") != "" || h.Get("Mcp-Param-Region") != "" {
		t.Errorf("the headers of arguments no longer given stay: %v", h)
	}
}

// coerce mcp --upstream URL --listen ADDR, the built command: it says where
// it listens on stderr, and repairs a call over HTTP.
func TestHTTPProxyCommand(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "headers", Version: "1"}, nil)
	s.AddTool(&mcp.Tool{Name: "report", InputSchema: json.RawMessage(headerSchema)},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(req.Params.Arguments)}}}, nil
		})
	upstream := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
	defer upstream.Close()

	cmd := exec.Command(coerceBin, "mcp", "-q", "--upstream", upstream.URL, "--listen", "127.0.0.1:0")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	line, err := bufio.NewReader(stderr).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	// "coerce mcp: relaying http://ADDR to URL"
	fields := strings.Fields(line)
	if len(fields) < 4 || !strings.HasPrefix(fields[3], "http://") {
		t.Fatalf("stderr: %q", line)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "http-test", Version: "1"}, nil).
		Connect(ctx, &mcp.StreamableClientTransport{Endpoint: fields[3]}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if got, isErr := callText(t, cs, "report", map[string]any{"limit": "5"}); isErr || got != `{"limit":5}` {
		t.Errorf("server received %s (isError %v)", got, isErr)
	}
}
