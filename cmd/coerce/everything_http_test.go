package main

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coerce-go/coerce"
	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The reference server over Streamable HTTP, behind the HTTP proxy.

// everythingHTTP starts the reference server's Streamable HTTP transport on
// a free port and returns its endpoint.
func everythingHTTP(t *testing.T) string {
	t.Helper()
	dir := nodeModules(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	cmd := exec.Command("node", filepath.Join(dir, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js"), "streamableHttp")
	cmd.Env = append(cmd.Environ(), fmt.Sprintf("PORT=%d", port))
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	ready := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if strings.Contains(sc.Text(), "listening on port") {
				close(ready)
				break
			}
		}
		for sc.Scan() {
		}
	}()
	select {
	case <-ready:
	case <-time.After(30 * time.Second):
		t.Fatal("the reference server did not start")
	}
	return fmt.Sprintf("http://127.0.0.1:%d/mcp", port)
}

func httpProxyFor(t *testing.T, upstream string) string {
	t.Helper()
	p, err := newHTTPProxy(upstream, coerce.Options{UseNumber: true}, nil, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(p)
	t.Cleanup(srv.Close)
	return srv.URL + "/mcp"
}

func dialHTTP(t *testing.T, endpoint string) func(*mcp.ClientOptions) *mcp.ClientSession {
	return func(opts *mcp.ClientOptions) *mcp.ClientSession {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "coerce-test", Version: "1"}, opts).
			Connect(ctx, &mcp.StreamableClientTransport{Endpoint: endpoint}, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cs.Close() })
		return cs
	}
}

func TestEverythingHTTP(t *testing.T) {
	upstream := everythingHTTP(t)
	proxied := httpProxyFor(t, upstream)

	start := time.Now()
	cs, _ := connectWith(t, dialHTTP(t, proxied))
	// The reference server's GET stream says nothing at first: the proxy
	// must pass its headers on at once, or go-sdk's client waits 15 s for it.
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("connecting through the proxy took %v", d)
	}
	for _, tc := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"get-sum", map[string]any{"a": "5", "b": 2}, "The sum of 5 and 2 is 7."},
		{"echo", map[string]any{"message": map[string]any{"x": []int{1, 2}}}, `Echo: {"x":[1,2]}`},
	} {
		if got, isErr := callText(t, cs, tc.tool, tc.args); isErr || got != tc.want {
			t.Errorf("through the proxy, %s(%v) = %q (isError %v), want %q", tc.tool, tc.args, got, isErr, tc.want)
		}
	}
	if got, isErr := callText(t, cs, "get-sum", map[string]any{"a": "five", "b": 2}); !isErr || !strings.Contains(got, "/a: expected a number") {
		t.Errorf("unfixable call: %q (isError %v)", got, isErr)
	}

	cs, obs := connectWith(t, dialHTTP(t, upstream))
	direct := exercise(t, cs, obs)
	cs, obs = connectWith(t, dialHTTP(t, proxied))
	through := exercise(t, cs, obs)
	if diff := cmp.Diff(direct, through); diff != "" {
		t.Errorf("through the HTTP proxy, the server behaved otherwise (-direct +proxied):\n%s", diff)
	}
}
