package mcpgocoerce

import (
	"context"
	"encoding/json"
	"strconv"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

type session struct {
	id    string
	tools map[string]server.ServerTool
}

func (*session) Initialize()                                         {}
func (*session) Initialized() bool                                   { return true }
func (*session) NotificationChannel() chan<- mcp.JSONRPCNotification { return nil }
func (s *session) SessionID() string                                 { return s.id }
func (s *session) GetSessionTools() map[string]server.ServerTool     { return s.tools }
func (s *session) SetSessionTools(t map[string]server.ServerTool)    { s.tools = t }

func tool(typ string) server.ServerTool {
	schema := `{"type":"object","properties":{"x":{"type":"` + typ + `"}}}`
	return server.ServerTool{Tool: mcp.NewTool("t", mcp.WithRawInputSchema(json.RawMessage(schema)))}
}

// Two sessions exposing one tool name with different schemas: calls that
// alternate between them reuse both compilations.
func TestSchemasOfOneNameAreCachedSideBySide(t *testing.T) {
	s := server.NewMCPServer("test", "0.0.0")
	c := &coercer{server: s}
	sessions := []context.Context{
		s.WithContext(t.Context(), &session{id: "a", tools: map[string]server.ServerTool{"t": tool("integer")}}),
		s.WithContext(t.Context(), &session{id: "b", tools: map[string]server.ServerTool{"t": tool("string")}}),
	}
	var first [2]any
	for round := range 3 {
		for i, ctx := range sessions {
			schema, err := c.schemaFor(ctx, "t")
			if err != nil || schema == nil {
				t.Fatalf("session %d: schemaFor = %v, %v", i, schema, err)
			}
			if round == 0 {
				first[i] = schema
			} else if any(schema) != first[i] {
				t.Errorf("round %d, session %d: schema compiled again", round, i)
			}
		}
	}
	if first[0] == first[1] {
		t.Error("both sessions got the same schema")
	}
}

// A tool registered again and again with new schemas keeps at most
// schemasPerTool compilations, the most recent ones.
func TestSchemaCacheIsBoundedPerTool(t *testing.T) {
	s := server.NewMCPServer("test", "0.0.0")
	c := &coercer{server: s}
	for i := range 3 * schemasPerTool {
		schema := `{"type":"object","properties":{"x` + strconv.Itoa(i) + `":{"type":"integer"}}}`
		s.AddTool(mcp.NewTool("t", mcp.WithRawInputSchema(json.RawMessage(schema))), nil)
		got, err := c.schemaFor(t.Context(), "t")
		if err != nil {
			t.Fatal(err)
		}
		if typ, _ := got.Lookup("x" + strconv.Itoa(i)); typ.String() != "integer" {
			t.Fatalf("registration %d: x%d declared %q, want integer", i, i, typ)
		}
		v, _ := c.schemas.Load("t")
		if n := len(v.([]*compiled)); n > schemasPerTool {
			t.Fatalf("registration %d: %d schemas cached, want at most %d", i, n, schemasPerTool)
		}
	}
}
