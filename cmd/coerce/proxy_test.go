package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// recordCmd returns the command of the recording server, behind the proxy
// or not, and the file its stdin is recorded in.
func recordCmd(t testing.TB, proxied bool, extraEnv ...string) (*exec.Cmd, string) {
	t.Helper()
	dir := t.TempDir()
	rec := filepath.Join(dir, "server-stdin")
	var cmd *exec.Cmd
	if proxied {
		cmd = exec.Command(coerceBin, "mcp", "-log", filepath.Join(dir, "proxy.log"), "--", os.Args[0])
	} else {
		cmd = exec.Command(os.Args[0])
	}
	cmd.Env = append(append(os.Environ(), recordServerEnv+"="+rec), extraEnv...)
	cmd.Stderr = os.Stderr
	return cmd, rec
}

func connect(t testing.TB, cmd *exec.Cmd, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "coerce-test", Version: "1"}, opts).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func callText(t testing.TB, cs *mcp.ClientSession, name string, args any) (string, bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("tools/call %s: %v", name, err)
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String(), res.IsError
}

// The arguments reach the server repaired, with go-sdk's client: without
// listing the tools first (the proxy lists them, every page, itself), and
// after a tool added later (list_changed).
func TestProxyRepairsGoSDK(t *testing.T) {
	cmd, rec := recordCmd(t, true)
	cs := connect(t, cmd, nil)
	for _, tc := range []struct {
		tool string
		args any
		want string
	}{
		{"record", map[string]any{"tags": `["a","b"]`}, `{"tags":["a","b"]}`},
		{"record", map[string]any{"name": map[string]any{"k": 1}}, `{"name":"{\"k\":1}"}`},
		{"record", map[string]any{"limit": "5"}, `{"limit":5}`},
		{"record", map[string]any{"filter": `{"since": "2026"}`}, `{"filter":{"since":"2026"}}`},
		{"record", json.RawMessage(`{"limit":"5","tags":["kept"]}`), `{"limit":5,"tags":["kept"]}`},
	} {
		got, isErr := callText(t, cs, tc.tool, tc.args)
		if isErr || got != tc.want {
			t.Errorf("%s(%v): server received %s (isError %v), want %s", tc.tool, tc.args, got, isErr, tc.want)
		}
	}

	// An unfixable call is answered by the proxy, and the server sees nothing.
	got, isErr := callText(t, cs, "record", map[string]any{"limit": "five", "tags": "[\"never-sent\"]"})
	if !isErr || !strings.HasPrefix(got, "Invalid arguments: 1 problem.") || !strings.Contains(got, "/limit: expected an integer") {
		t.Errorf("unfixable call: isError %v, text %q", isErr, got)
	}
	if data, _ := os.ReadFile(rec); bytes.Contains(data, []byte("never-sent")) {
		t.Errorf("the server received the unfixable call")
	}

	// A tool added after the listing.
	if got, _ := callText(t, cs, "add-late", map[string]any{}); got != "added" {
		t.Fatalf("add-late: %q", got)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		got, _ := callText(t, cs, "late", map[string]any{"n": "7"})
		if got == `{"n":7}` {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("late: server received %s, want {\"n\":7}", got)
		}
		time.Sleep(50 * time.Millisecond) // the SDK tells of the change after ~10ms
	}
}

// rawClient speaks newline-delimited JSON-RPC to a process itself, so that
// the bytes sent are exactly those written.
type rawClient struct {
	t    *testing.T
	in   io.WriteCloser
	out  *bufio.Reader
	sent bytes.Buffer
	cmd  *exec.Cmd
}

func startRaw(t *testing.T, cmd *exec.Cmd) *rawClient {
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return &rawClient{t: t, in: in, out: bufio.NewReader(out), cmd: cmd}
}

func (c *rawClient) send(line string) {
	c.t.Helper()
	c.sent.WriteString(line + "\n")
	if _, err := io.WriteString(c.in, line+"\n"); err != nil {
		c.t.Fatal(err)
	}
}

// await returns the next message with the id, skipping notifications.
func (c *rawClient) await(id string) string {
	c.t.Helper()
	for {
		line, err := c.out.ReadString('\n')
		if err != nil {
			c.t.Fatalf("waiting for id %s: %v", id, err)
		}
		var env envelope
		if json.Unmarshal([]byte(line), &env) == nil && idKey(env.ID) == id && env.Method == "" {
			return strings.TrimSuffix(line, "\n")
		}
	}
}

// Calls that fit reach the server as the bytes the client sent: key order,
// spacing, number spelling, unknown fields, _meta and progress tokens; a
// repaired call differs only inside its arguments, where only the values
// that needed it changed.
func TestProxyBytesIdentical(t *testing.T) {
	cmd, rec := recordCmd(t, true)
	c := startRaw(t, cmd)
	c.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	c.await("1")
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	c.send(`{ "method" : "tools/list", "id" : "list-1" ,"jsonrpc":"2.0", "params": {}}`)
	c.await(`"list-1"`)
	fits := []string{
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"record","arguments":{ "tags" : [ "a" ] ,"limit":5.0e0,"name":"\u0041","x-unknown":{"deep":[1,2]}},"_meta":{"progressToken":"p-2"}}}`,
		`{"params":{"arguments":{"limit":12345678901234567890},"name":"record"},"method":"tools/call","id":"three","jsonrpc":"2.0"}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"record"}}`,
		`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"no-such-tool","arguments":{"limit":"5"}}}`,
		`{"jsonrpc":"2.0","id":6,"method":"ping"}`,
	}
	for i, line := range fits {
		c.send(line)
		c.await([]string{"2", `"three"`, "4", "5", "6"}[i])
	}
	sentFitting := c.sent.String()

	// A repaired call: only the values that needed it change.
	c.send(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"record","arguments":{"tags" : "[\"a\"]", "limit": 5,"name":"n"}}}`)
	c.await("7")
	// An unfixable one: answered here.
	c.send(`{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"record","arguments":{"limit":"five"}}}`)
	if got := c.await("8"); !strings.Contains(got, `"isError":true`) || !strings.Contains(got, `/limit: expected an integer`) {
		t.Errorf("unfixable call answered %s", got)
	}
	c.in.Close()
	if err := c.cmd.Wait(); err != nil {
		t.Fatalf("proxy exit: %v", err)
	}

	data, err := os.ReadFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	// The proxy's own tools/list requests, for the tools the client did not
	// list itself (it fetched the first page only), are its only additions.
	var own int
	data = bytes.Join(slices.DeleteFunc(bytes.SplitAfter(data, []byte("\n")), func(line []byte) bool {
		isOwn := bytes.HasPrefix(line, []byte(`{"jsonrpc":"2.0","id":"coerce-mcp-proxy-`)) && bytes.Contains(line, []byte(`"method":"tools/list"`))
		if isOwn {
			own++
		}
		return isOwn
	}), nil)
	if own == 0 {
		t.Errorf("the proxy listed no tools itself")
	}
	want := sentFitting + `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"record","arguments":{"tags" : ["a"], "limit": 5,"name":"n"}}}` + "\n"
	if string(data) != want {
		t.Errorf("the server received\n%s\nwant\n%s", data, want)
	}
}

// The proxy exits with the server's status, once the client has gone.
func TestProxyExitStatus(t *testing.T) {
	cmd, _ := recordCmd(t, true, recordExitEnv+"=3")
	c := startRaw(t, cmd)
	c.send(`{"jsonrpc":"2.0","id":1,"method":"ping"}`)
	c.await("1")
	c.in.Close()
	err := c.cmd.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 3 {
		t.Errorf("proxy exit: %v, want status 3", err)
	}
}

// A server that exits by itself ends the proxy with its status, and its
// stderr passes through, while the client is still connected.
func TestProxyServerExits(t *testing.T) {
	cmd := exec.Command(coerceBin, "mcp", "-q", "--", "sh", "-c", "echo from-the-server >&2; exit 7")
	in, err := cmd.StdinPipe() // held open: the client has not gone
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err = cmd.Run()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 7 {
		t.Errorf("proxy exit: %v, want status 7", err)
	}
	if !strings.Contains(stderr.String(), "from-the-server") {
		t.Errorf("stderr %q lacks the server's", stderr.String())
	}
}

// Repairs and rejections are logged to the -log file, not to stdout.
func TestProxyLog(t *testing.T) {
	dir := t.TempDir()
	logPath := filepath.Join(dir, "proxy.log")
	cmd := exec.Command(coerceBin, "mcp", "-log", logPath, "--", os.Args[0])
	cmd.Env = append(os.Environ(), recordServerEnv+"="+filepath.Join(dir, "server-stdin"))
	c := startRaw(t, cmd)
	c.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	c.await("1")
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	c.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"record","arguments":{"limit":"5"}}}`)
	c.await("2")
	c.send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"record","arguments":{"limit":"five"}}}`)
	c.await("3")
	c.in.Close()
	rest, _ := io.ReadAll(c.out)
	if err := c.cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	if len(rest) > 0 {
		t.Errorf("stdout had more than the protocol: %q", rest)
	}
	data, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`msg=repaired tool=record id=2 changes="/limit number-from-text"`, `msg=rejected tool=record id=3 feedback=`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("log lacks %q:\n%s", want, data)
		}
	}
}
