package gosdkcoerce_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/coerce-go/coerce"
	"github.com/coerce-go/coerce/gosdk"
	"github.com/coerce-go/coerce/toolcall"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The elicitation tests run a server whose tool asks the user through the
// client (an input request, which the SDK sends as elicitation/create to a
// client of an older protocol, and the client of 2026-07-28 fulfils itself)
// and the SDK's client, whose handler answers as a form does: strings.

// formSchema is a form as MCP's elicitation asks for one: an integer, a
// multiple choice and a titled single choice.
const formSchema = `{"type":"object","properties":{
	"age":{"type":"integer"},
	"colors":{"type":"array","items":{"type":"string","enum":["red","green"]}},
	"size":{"type":"string","oneOf":[{"const":"s","title":"Small"},{"const":"m","title":"Medium"}]}
},"required":["age"]}`

// askServer is a server with a tool "ask" that elicits the form and
// answers with the action and content it received, as JSON text.
func askServer() *mcp.Server {
	server := newServer(nil)
	server.AddTool(&mcp.Tool{Name: "ask", InputSchema: json.RawMessage(`{"type":"object"}`)}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		got, ok := req.Params.InputResponses["form"].(*mcp.ElicitResult)
		if !ok {
			return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{
				"form": &mcp.ElicitParams{Message: "About you", RequestedSchema: json.RawMessage(formSchema)},
			}}, nil
		}
		text, err := json.Marshal(map[string]any{"action": got.Action, "content": got.Content})
		if err != nil {
			return nil, err
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(text)}}}, nil
	})
	return server
}

// answer is an elicitation handler that answers with action and content.
func answer(action string, content map[string]any) func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	return func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		return &mcp.ElicitResult{Action: action, Content: content}, nil
	}
}

// The user's "42" reaches the server as 42, "red" for a multiple choice
// as ["red"] and the title "Small" as its value "s", on the protocol of
// 2026-07-28 and on an older one; without the wrapper the SDK refuses the
// answer.
func TestElicitationRoundTrip(t *testing.T) {
	form := map[string]any{"age": "42", "colors": "red", "size": "Small"}
	for _, protocol := range []string{"", "2025-06-18"} {
		t.Run("protocol "+protocol, func(t *testing.T) {
			c := client{opts: &mcp.ClientOptions{ElicitationHandler: gosdkcoerce.ElicitationHandler(answer("accept", form))}}
			if protocol != "" {
				c.session = &mcp.ClientSessionOptions{ProtocolVersion: protocol}
			}
			cs := connect(t, askServer(), c)
			res := call(t, cs, "ask", map[string]any{})
			if want := `{"action":"accept","content":{"age":42,"colors":["red"],"size":"s"}}`; resultText(res) != want {
				t.Errorf("the server got %s, want %s", resultText(res), want)
			}

			c.opts = &mcp.ClientOptions{ElicitationHandler: answer("accept", form)}
			cs = connect(t, askServer(), c)
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "ask", Arguments: map[string]any{}})
			if err == nil && !res.IsError {
				t.Errorf("without the wrapper the server got %s", resultText(res))
			}
		})
	}
}

// Declined and cancelled answers, and their content, reach the server as
// the user gave them.
func TestElicitationDeclinedUntouched(t *testing.T) {
	for _, action := range []string{"decline", "cancel"} {
		c := client{opts: &mcp.ClientOptions{ElicitationHandler: gosdkcoerce.ElicitationHandler(answer(action, nil))}}
		res := call(t, connect(t, askServer(), c), "ask", map[string]any{})
		if want := `{"action":"` + action + `","content":null}`; resultText(res) != want {
			t.Errorf("the server got %s, want %s", resultText(res), want)
		}
	}
}

// The handler returns next's own result for what it leaves alone: an
// answer declined or cancelled (content and all), content that conforms,
// an error.
func TestElicitationHandlerLeavesAlone(t *testing.T) {
	req := &mcp.ElicitRequest{Params: &mcp.ElicitParams{Message: "m", RequestedSchema: json.RawMessage(formSchema)}}
	for _, res := range []*mcp.ElicitResult{
		{Action: "decline", Content: map[string]any{"age": "42"}},
		{Action: "cancel", Content: map[string]any{"age": "42"}},
		{Action: "accept", Content: map[string]any{"age": 42, "colors": []any{"red"}, "size": "s"}},
	} {
		got, err := gosdkcoerce.ElicitationHandler(func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) { return res, nil })(context.Background(), req)
		if err != nil || got != res {
			t.Errorf("%s: got %+v, %v; want %+v", res.Action, got, err, res)
		}
	}
	failing := func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) { return nil, context.Canceled }
	if got, err := gosdkcoerce.ElicitationHandler(failing)(context.Background(), req); got != nil || err != context.Canceled {
		t.Errorf("an error of next came back as %v, %v", got, err)
	}
}

// Repairs and rejections of elicited content are reported as such.
func TestElicitationReports(t *testing.T) {
	var mu sync.Mutex
	var heard []string
	opts := gosdkcoerce.Options{
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
	}
	req := &mcp.ElicitRequest{Params: &mcp.ElicitParams{Message: "m", RequestedSchema: json.RawMessage(formSchema)}}
	res, err := opts.ElicitationHandler(answer("accept", map[string]any{"age": "ten", "size": "Medium"}))(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Content; got["age"] != "ten" || got["size"] != "m" {
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
