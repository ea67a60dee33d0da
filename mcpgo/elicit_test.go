package mcpgocoerce_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/coerce-go/coerce"
	"github.com/coerce-go/coerce/mcpgo"
	"github.com/coerce-go/coerce/toolcall"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// The elicitation tests run a server whose tool asks the user through the
// client with elicitation/create (RequestElicitation, on a protocol before
// 2026-07-28, which has it), and mcp-go's client in process, whose handler
// answers as a form does: strings.

// formSchema is a form as MCP's elicitation asks for one: an integer, a
// multiple choice and a titled single choice.
const formSchema = `{"type":"object","properties":{
	"age":{"type":"integer"},
	"colors":{"type":"array","items":{"type":"string","enum":["red","green"]}},
	"size":{"type":"string","oneOf":[{"const":"s","title":"Small"},{"const":"m","title":"Medium"}]}
},"required":["age"]}`

// askServer is a server with a tool "ask" that elicits the form and
// answers with the action and content it received, as JSON text.
func askServer() *server.MCPServer {
	s := server.NewMCPServer("ask", "1.0.0", server.WithElicitation())
	s.AddTool(mcp.NewTool("ask"), func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var schema map[string]any
		if err := json.Unmarshal([]byte(formSchema), &schema); err != nil {
			return nil, err
		}
		got, err := s.RequestElicitation(ctx, mcp.ElicitationRequest{Params: mcp.ElicitationParams{Message: "About you", RequestedSchema: schema}})
		if err != nil {
			return nil, err
		}
		text, err := json.Marshal(map[string]any{"action": got.Action, "content": got.Content})
		if err != nil {
			return nil, err
		}
		return mcp.NewToolResultText(string(text)), nil
	})
	return s
}

// answer is an elicitation handler that answers with action and content.
type answer struct {
	action  mcp.ElicitationResponseAction
	content any
}

func (a answer) Elicit(context.Context, mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: a.action, Content: a.content}}, nil
}

func askWith(t *testing.T, h client.ElicitationHandler) string {
	t.Helper()
	c := startClientAt(t, askServer(), "2025-06-18", client.WithElicitationHandler(h))
	res, err := c.CallTool(context.Background(), callRequest("ask", map[string]any{}))
	if err != nil {
		t.Fatal(err)
	}
	text, _ := outcome(res, nil)
	return text
}

// The user's "42" reaches the server as 42, "red" for a multiple choice
// as ["red"] and the title "Small" as its value "s"; content given as a
// Go struct too. Without the wrapper the server gets the strings (mcp-go
// validates elicited content nowhere).
func TestElicitationRoundTrip(t *testing.T) {
	form := map[string]any{"age": "42", "colors": "red", "size": "Small"}
	type formStruct struct {
		Age    string `json:"age"`
		Colors string `json:"colors"`
		Size   string `json:"size"`
	}
	const want = `{"action":"accept","content":{"age":42,"colors":["red"],"size":"s"}}`
	for name, content := range map[string]any{"map": form, "struct": formStruct{"42", "red", "Small"}} {
		if got := askWith(t, mcpgocoerce.ElicitationHandler(answer{mcp.ElicitationResponseActionAccept, content})); got != want {
			t.Errorf("%s: the server got %s, want %s", name, got, want)
		}
	}
	if got := askWith(t, answer{mcp.ElicitationResponseActionAccept, form}); got != `{"action":"accept","content":{"age":"42","colors":"red","size":"Small"}}` {
		t.Errorf("without the wrapper the server got %s", got)
	}
}

// Declined and cancelled answers, content and all, and content that
// conforms, reach the server as the handler gave them: the same result.
func TestElicitationLeftAlone(t *testing.T) {
	req := mcp.ElicitationRequest{Params: mcp.ElicitationParams{Message: "m", RequestedSchema: json.RawMessage(formSchema)}}
	for _, a := range []answer{
		{mcp.ElicitationResponseActionDecline, map[string]any{"age": "42"}},
		{mcp.ElicitationResponseActionCancel, map[string]any{"age": "42"}},
		{mcp.ElicitationResponseActionAccept, map[string]any{"age": 42, "colors": []any{"red"}, "size": "s"}},
	} {
		res, _ := a.Elicit(context.Background(), req)
		h := mcpgocoerce.ElicitationHandler(fixed{res})
		if got, err := h.Elicit(context.Background(), req); err != nil || got != res {
			t.Errorf("%s: got %+v, %v; want the handler's own result", a.action, got, err)
		}
	}
	for _, action := range []mcp.ElicitationResponseAction{mcp.ElicitationResponseActionDecline, mcp.ElicitationResponseActionCancel} {
		if got, want := askWith(t, mcpgocoerce.ElicitationHandler(answer{action, nil})), `{"action":"`+string(action)+`","content":null}`; got != want {
			t.Errorf("the server got %s, want %s", got, want)
		}
	}
}

type fixed struct{ res *mcp.ElicitationResult }

func (f fixed) Elicit(context.Context, mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	return f.res, nil
}

// Repairs and rejections of elicited content are reported as such.
func TestElicitationReports(t *testing.T) {
	var mu sync.Mutex
	var heard []string
	h := mcpgocoerce.Options{
		OnChange: func(ctx context.Context, tool string, c coerce.Change) {
			mu.Lock()
			defer mu.Unlock()
			heard = append(heard, fmt.Sprintf("%q %s change %s %s", tool, toolcall.PartOf(ctx), c.Path, c.Rule))
		},
		OnError: func(ctx context.Context, tool string, err error) {
			mu.Lock()
			defer mu.Unlock()
			heard = append(heard, fmt.Sprintf("%q %s error %v", tool, toolcall.PartOf(ctx), err))
		},
	}.ElicitationHandler(answer{mcp.ElicitationResponseActionAccept, map[string]any{"age": "ten", "size": "Medium"}})
	req := mcp.ElicitationRequest{Params: mcp.ElicitationParams{Message: "m", RequestedSchema: json.RawMessage(formSchema)}}
	res, err := h.Elicit(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Content.(map[string]any); got["age"] != "ten" || got["size"] != "m" {
		t.Errorf("content %v, want age as given and size m", got)
	}
	want := []string{
		`"" elicited error coerce: /age: want integer, found string "ten": invalid syntax: not a number`,
		`"" elicited change /size enum-case`,
	}
	mu.Lock()
	defer mu.Unlock()
	if strings.Join(heard, "\n") != strings.Join(want, "\n") {
		t.Errorf("heard:\n%s\nwant:\n%s", strings.Join(heard, "\n"), strings.Join(want, "\n"))
	}
}
