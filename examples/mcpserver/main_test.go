package main

import (
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestMain runs main instead of the tests when the test binary is started
// as the server (by TestStdioServer): the binary then is this command.
func TestMain(m *testing.M) {
	if os.Getenv("MCPSERVER_RUN_MAIN") == "1" {
		main()
		return
	}
	os.Exit(m.Run())
}

// The call a client really sends: the array as JSON text, the integer as a
// string, the enum in another case, the object as JSON text, and "null"
// for the nested nullable integer.
var brokenCall = map[string]any{
	"query":  "generics",
	"tags":   `["go", "generics"]`,
	"limit":  "5",
	"sort":   "Newest",
	"filter": `{"author": "rsc", "published": {"after": "2024-01-01"}, "min_stars": "null"}`,
}

// What the handler must receive for it.
const want = `{"query":"generics","tags":["go","generics"],"limit":5,"sort":"newest",` +
	`"filter":{"author":"rsc","published":{"after":"2024-01-01"}}}`

// call sends args to search_posts over session and returns the answer's
// text and whether it is an error.
func call(t *testing.T, session *mcp.ClientSession, args any) (string, bool) {
	t.Helper()
	res, err := session.CallTool(t.Context(), &mcp.CallToolParams{Name: "search_posts", Arguments: args})
	if err != nil {
		t.Fatal(err)
	}
	var text strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			text.WriteString(tc.Text)
		}
	}
	return text.String(), res.IsError
}

// received returns the JSON the handler answered with, from its text.
func received(t *testing.T, text string) string {
	t.Helper()
	_, rest, ok := strings.Cut(text, "search_posts received ")
	if !ok {
		t.Fatalf("the handler did not answer: %q", text)
	}
	got, _, _ := strings.Cut(rest, " (no posts here")
	return got
}

// The command itself, started as a host starts it (a process speaking MCP
// on its stdin and stdout, through the SDK's CommandTransport), repairs a
// stringified array, "5" for the integer and the rest of the broken call.
func TestStdioServer(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "MCPSERVER_RUN_MAIN=1")
	cmd.Stderr = io.Discard // the repairs, logged at debug level
	client := mcp.NewClient(&mcp.Implementation{Name: "test-host", Version: "1.0.0"}, nil)
	session, err := client.Connect(t.Context(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer session.Close()

	tools, err := session.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(tools.Tools) != 1 || tools.Tools[0].Name != "search_posts" {
		t.Fatalf("tools: %v", tools.Tools)
	}
	text, isError := call(t, session, brokenCall)
	if isError {
		t.Fatalf("the broken call was refused: %s", text)
	}
	if got := received(t, text); !sameJSON(t, got, want) {
		t.Errorf("the handler received %s, want %s", got, want)
	}
	// NoticeRepairs: the model is told how its arguments were repaired.
	if !strings.Contains(text, "`tags` arrived as JSON text in a string") {
		t.Errorf("no notice of the repair of tags in %q", text)
	}
}

// In process, the same server: a conforming call reaches the handler as
// sent, the broken one repaired, "ten" for the integer is answered with
// feedback the model can act on, and without coerce the SDK refuses the
// broken call.
func TestInProcess(t *testing.T) {
	connect := func(t *testing.T, server *mcp.Server) *mcp.ClientSession {
		ct, st := mcp.NewInMemoryTransports()
		if _, err := server.Connect(t.Context(), st, nil); err != nil {
			t.Fatal(err)
		}
		session, err := mcp.NewClient(&mcp.Implementation{Name: "test-host"}, nil).Connect(t.Context(), ct, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { session.Close() })
		return session
	}
	server, err := newServer(slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	session := connect(t, server)

	text, isError := call(t, session, json.RawMessage(want))
	if isError || !sameJSON(t, received(t, text), want) {
		t.Errorf("conforming call: %s", text)
	}
	if strings.Contains(text, "arrived as") {
		t.Errorf("a conforming call was told of repairs: %s", text)
	}
	text, isError = call(t, session, brokenCall)
	if isError || !sameJSON(t, received(t, text), want) {
		t.Errorf("broken call: %s", text)
	}
	text, isError = call(t, session, map[string]any{"query": "x", "tags": `["go"]`, "limit": "ten"})
	if !isError || !strings.Contains(text, "/limit: expected an integer") {
		t.Errorf(`"ten" for the integer: got %q (isError %v), want the feedback`, text, isError)
	}

	// Without coerce: the same tool, the same call, refused by the SDK.
	plain := mcp.NewServer(&mcp.Implementation{Name: "plain"}, nil)
	schema := new(jsonschema.Schema)
	if err := json.Unmarshal([]byte(inputSchema), schema); err != nil {
		t.Fatal(err)
	}
	mcp.AddTool(plain, &mcp.Tool{Name: "search_posts", InputSchema: schema}, searchPosts)
	if text, isError := call(t, connect(t, plain), brokenCall); !isError {
		t.Errorf("without coerce the SDK accepted the broken call: %s", text)
	}
}

func sameJSON(t *testing.T, a, b string) bool {
	t.Helper()
	var va, vb any
	if err := json.Unmarshal([]byte(a), &va); err != nil {
		t.Fatalf("%s: %v", a, err)
	}
	if err := json.Unmarshal([]byte(b), &vb); err != nil {
		t.Fatal(err)
	}
	ja, _ := json.Marshal(va)
	jb, _ := json.Marshal(vb)
	return string(ja) == string(jb)
}

// The host configuration README.md gives is JSON a host reads, and runs
// this folder with go -C, as the claude mcp add line does.
func TestREADMEHostConfiguration(t *testing.T) {
	md, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(md), "```json\n")
	if !ok {
		t.Fatal("README.md has no json block")
	}
	block, _, _ := strings.Cut(rest, "```")
	var conf struct {
		MCPServers map[string]struct {
			Command string   `json:"command"`
			Args    []string `json:"args"`
		} `json:"mcpServers"`
	}
	dec := json.NewDecoder(strings.NewReader(block))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&conf); err != nil {
		t.Fatalf("the host configuration: %v\n%s", err, block)
	}
	server, ok := conf.MCPServers["coerce-demo"]
	if !ok || len(conf.MCPServers) != 1 {
		t.Fatalf("want one server, coerce-demo: %+v", conf.MCPServers)
	}
	line := server.Command + " " + strings.Join(server.Args, " ")
	if want := "go -C /path/to/coerce/examples/mcpserver run ."; line != want {
		t.Errorf("the configuration runs %q, want %q", line, want)
	}
	if !strings.Contains(string(md), "claude mcp add coerce-demo -- "+line+"\n") {
		t.Errorf("README.md's claude mcp add line does not run %q", line)
	}
}
