package mcpgocoerce

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// connectHTTP returns an initialized client of s over mcp-go's streamable
// HTTP transport, whose sessions hold tools of their own
// (server.SessionWithTools), and the ID of its session.
func connectHTTP(t *testing.T, s *server.MCPServer) (*client.Client, string) {
	t.Helper()
	ts := httptest.NewServer(server.NewStreamableHTTPServer(s))
	t.Cleanup(ts.Close)
	c, err := client.NewStreamableHttpClient(ts.URL + "/mcp")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	ctx := t.Context()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	var req mcp.InitializeRequest
	req.Params.ProtocolVersion = mcp.LATEST_LEGACY_PROTOCOL_VERSION
	req.Params.ClientInfo = mcp.Implementation{Name: "mcpgocoerce-test", Version: "0.0.0"}
	if _, err := c.Initialize(ctx, req); err != nil {
		t.Fatal(err)
	}
	id := c.GetSessionId()
	if id == "" {
		t.Fatal("no session")
	}
	return c, id
}

// toolX declares one parameter, x, of the given JSON Schema type.
func toolX(typ string) mcp.Tool {
	return mcp.NewTool("t", mcp.WithRawInputSchema(json.RawMessage(
		`{"type":"object","properties":{"x":{"type":"`+typ+`"}}}`)))
}

// callX calls tool t with x and returns what its handler got for x, as
// reported in the result's text.
func callX(t *testing.T, c *client.Client, x any) string {
	t.Helper()
	var req mcp.CallToolRequest
	req.Params.Name = "t"
	req.Params.Arguments = map[string]any{"x": x}
	res, err := c.CallTool(t.Context(), req)
	if err != nil {
		t.Fatal(err)
	}
	tc, ok := mcp.AsTextContent(res.Content[0])
	if !ok || res.IsError {
		t.Fatalf("call failed: %#v", res)
	}
	return tc.Text
}

// reportX answers with x as its handler got it, in Go syntax.
func reportX(who string) server.ToolHandlerFunc {
	return func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText(who + ": " + fmt.Sprintf("%#v", req.GetArguments()["x"])), nil
	}
}

// A session's own tool shadows the server's tool of the same name, in
// dispatch and validation, so it must in coercion too.
func TestSessionToolIsCoercedToItsOwnSchema(t *testing.T) {
	s := server.NewMCPServer("test", "0.0.0", server.WithInputSchemaValidation())
	Install(s)
	s.AddTool(toolX("integer"), reportX("server"))
	c, id := connectHTTP(t, s)
	if err := s.AddSessionTool(id, toolX("string"), reportX("session")); err != nil {
		t.Fatal(err)
	}
	if got, want := callX(t, c, 5), `session: "5"`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

// Two sessions exposing one tool name with different schemas: calls that
// alternate between them reuse both compilations.
func TestSchemasOfOneNameAreCachedSideBySide(t *testing.T) {
	s := server.NewMCPServer("test", "0.0.0", server.WithInputSchemaValidation())
	c := Options{}.install(s)
	var clients []*client.Client
	for _, typ := range []string{"integer", "string"} {
		cl, id := connectHTTP(t, s)
		if err := s.AddSessionTool(id, toolX(typ), reportX(typ)); err != nil {
			t.Fatal(err)
		}
		clients = append(clients, cl)
	}

	var first []*compiled
	for round := range 3 {
		if got, want := callX(t, clients[0], "5"), "integer: 5"; got != want {
			t.Errorf("round %d: got %s, want %s", round, got, want)
		}
		if got, want := callX(t, clients[1], 5), `string: "5"`; got != want {
			t.Errorf("round %d: got %s, want %s", round, got, want)
		}
		v, _ := c.schemas.Load("t")
		cached := v.([]*compiled)
		switch {
		case round == 0:
			first = cached
			if len(first) != 2 {
				t.Fatalf("%d schemas cached, want 2", len(first))
			}
		case !slices.Equal(cached, first):
			t.Errorf("round %d: schemas compiled again", round)
		}
	}
}
