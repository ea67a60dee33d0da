package mcpgocoerce_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/coerce-go/coerce/internal/feedbacktest"
	"github.com/coerce-go/coerce/mcpgo"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// issues is the loops' tool, with feedbacktest.Schema as its input
// schema; its handler sends the arguments it gets to got.
func issues(s *server.MCPServer) <-chan map[string]any {
	got := make(chan map[string]any, 100)
	tool := mcp.NewToolWithRawSchema("list_issues", "List issues.", json.RawMessage(feedbacktest.Schema))
	s.AddTool(tool, func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		got <- req.GetArguments()
		return mcp.NewToolResultText("ok"), nil
	})
	return got
}

// A scripted model calls the tool with each class of broken call, reads
// the feedback, and sends the call it says; the second turn succeeds, and
// only it reaches the handler. With the server's validator and without
// it, the answer is the same.
func TestModelLoop(t *testing.T) {
	for _, validation := range []bool{true, false} {
		var opts []server.ServerOption
		if validation {
			opts = append(opts, server.WithInputSchemaValidation())
		}
		s := server.NewMCPServer("test", "0.0.0", opts...)
		mcpgocoerce.Install(s)
		got := issues(s)
		c := connect(t, s)
		for _, tc := range feedbacktest.Cases {
			name := tc.Name
			if !validation {
				name += " without validation"
			}
			t.Run(name, func(t *testing.T) {
				var args map[string]any
				if err := json.Unmarshal([]byte(tc.Call), &args); err != nil {
					t.Fatal(err)
				}
				res := call(t, c, "list_issues", args)
				if !res.IsError {
					t.Fatalf("turn 1 succeeded: %s", text(t, res))
				}
				if len(got) != 0 {
					t.Fatalf("turn 1 reached the handler with %v", <-got)
				}
				fixed, err := feedbacktest.Follow(args, text(t, res))
				if err != nil {
					t.Fatalf("the model cannot act on the feedback: %v\n%s", err, text(t, res))
				}
				succeeded(t, call(t, c, "list_issues", fixed))
				var want map[string]any
				if err := json.Unmarshal([]byte(tc.Fixed), &want); err != nil {
					t.Fatal(err)
				}
				if in := <-got; !reflect.DeepEqual(in, want) {
					t.Errorf("turn 2: handler got %v, want %v", in, want)
				}
			})
		}
	}
}

// {"limit": "ten"} for an integer is answered with a tool result with
// isError set whose text is the feedback, in place of the validator's
// words, and nothing reaches the handler; {"limit": "10"} reaches it
// repaired. The rejection is logged at warn level, with the client.
func TestUnfixableCallGetsFeedback(t *testing.T) {
	var log bytes.Buffer
	var mu sync.Mutex
	var errs []error
	s := newServer(mcpgocoerce.Options{
		Logger: slog.New(slog.NewTextHandler(&log, &slog.HandlerOptions{ReplaceAttr: dropTime})),
		OnError: func(_ context.Context, _ string, err error) {
			mu.Lock()
			defer mu.Unlock()
			errs = append(errs, err)
		},
	}.Install)
	got := make(chan map[string]any, 10)
	s.AddTool(mcp.NewTool("list", mcp.WithInteger("limit")), func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		got <- req.GetArguments()
		return mcp.NewToolResultText("ok"), nil
	})
	c := connect(t, s)

	res := call(t, c, "list", map[string]any{"limit": "ten"})
	want := "Invalid arguments: 1 problem. Correct it and send the call again.\n" +
		`- /limit: expected an integer; found the string "ten", which is not valid (not a number). Example: 1`
	if !res.IsError || text(t, res) != want {
		t.Errorf("got IsError=%v %q, want IsError=true %q", res.IsError, text(t, res), want)
	}
	if len(got) != 0 {
		t.Errorf("the handler got %v", <-got)
	}
	succeeded(t, call(t, c, "list", map[string]any{"limit": "10"}))
	if in := <-got; !reflect.DeepEqual(in, map[string]any{"limit": 10.0}) {
		t.Errorf("the handler got %v", in)
	}
	mu.Lock()
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "/limit") {
		t.Errorf("OnError got %v", errs)
	}
	mu.Unlock()
	const logged = `level=WARN msg="coerce: argument rejected" tool=list client.name=mcpgocoerce-test client.version=0.0.0 rejection.path=/limit rejection.declared=integer rejection.found=string rejection.preview=ten rejection.rule=syntax` + "\n"
	if log.String() != logged {
		t.Errorf("log:\n%s\nwant:\n%s", log.String(), logged)
	}

	// Without the server's validator, the middleware answers it the same.
	plain := server.NewMCPServer("test", "0.0.0")
	mcpgocoerce.Install(plain)
	plain.AddTool(mcp.NewTool("list", mcp.WithInteger("limit")), func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		got <- req.GetArguments()
		return mcp.NewToolResultText("ok"), nil
	})
	res = call(t, connect(t, plain), "list", map[string]any{"limit": "ten"})
	if !res.IsError || text(t, res) != want || len(got) != 0 {
		t.Errorf("without validation: got IsError=%v %q, handler called %d times", res.IsError, text(t, res), len(got))
	}
}

// NoticeRepairs appends to a repaired call's result how its arguments
// were repaired; a call that needed none gets the handler's result alone.
func TestNoticeRepairs(t *testing.T) {
	s := newServer(mcpgocoerce.Options{NoticeRepairs: true}.Install)
	got := issues(s)
	c := connect(t, s)
	res := call(t, c, "list_issues", map[string]any{"owner": "octo", "labels": `["bug"]`, "perPage": "5"})
	<-got
	want := []string{"ok", "Note: the arguments were repaired before the tool ran. Send them as declared next time:\n" +
		"- `labels` arrived as JSON text in a string; send a JSON array.\n" +
		"- `perPage` arrived as a string; send an integer, without quotes."}
	var texts []string
	for _, part := range res.Content {
		if tc, ok := mcp.AsTextContent(part); ok {
			texts = append(texts, tc.Text)
		}
	}
	if res.IsError || !reflect.DeepEqual(texts, want) {
		t.Errorf("got %q, want %q", texts, want)
	}
	res = call(t, c, "list_issues", map[string]any{"owner": "octo"})
	<-got
	if text(t, res) != "ok" {
		t.Errorf("a call that needed no repair got %q", text(t, res))
	}
}

func dropTime(groups []string, a slog.Attr) slog.Attr {
	if a.Key == slog.TimeKey && len(groups) == 0 {
		return slog.Attr{}
	}
	return a
}
