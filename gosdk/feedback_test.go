package gosdkcoerce_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/coerce-go/coerce/gosdk"
	"github.com/coerce-go/coerce/internal/feedbacktest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// issueArgs is the input of the loops' tool; its schema is
// feedbacktest.Schema, which mcp.AddTool validates against.
type issueArgs struct {
	Owner   string   `json:"owner"`
	State   string   `json:"state,omitempty"`
	PerPage int      `json:"perPage,omitempty"`
	Labels  []string `json:"labels,omitempty"`
}

func addIssues(server *mcp.Server) <-chan issueArgs {
	got := make(chan issueArgs, 100)
	tool := &mcp.Tool{Name: "list_issues", InputSchema: json.RawMessage(feedbacktest.Schema)}
	mcp.AddTool(server, tool, func(ctx context.Context, req *mcp.CallToolRequest, in issueArgs) (*mcp.CallToolResult, any, error) {
		got <- in
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil, nil
	})
	return got
}

// A scripted model calls the tool with each class of broken call, reads
// the feedback, and sends the call it says; the second turn succeeds, and
// only it reaches the handler.
func TestModelLoop(t *testing.T) {
	server := newServer(nil)
	gosdkcoerce.Install(server)
	got := addIssues(server)
	cs := connect(t, server, client{})
	for _, tc := range feedbacktest.Cases {
		t.Run(tc.Name, func(t *testing.T) {
			var args map[string]any
			if err := json.Unmarshal([]byte(tc.Call), &args); err != nil {
				t.Fatal(err)
			}
			res := call(t, cs, "list_issues", args)
			if !res.IsError {
				t.Fatalf("turn 1 succeeded: %s", resultText(res))
			}
			if len(got) != 0 {
				t.Fatalf("turn 1 reached the handler with %+v", <-got)
			}
			fixed, err := feedbacktest.Follow(args, resultText(res))
			if err != nil {
				t.Fatalf("the model cannot act on the feedback: %v\n%s", err, resultText(res))
			}
			res = call(t, cs, "list_issues", fixed)
			if res.IsError {
				t.Fatalf("turn 2 failed: %s", resultText(res))
			}
			var want issueArgs
			if err := json.Unmarshal([]byte(tc.Fixed), &want); err != nil {
				t.Fatal(err)
			}
			if in := <-got; !equalIssue(in, want) {
				t.Errorf("turn 2: handler got %+v, want %+v", in, want)
			}
		})
	}
}

func equalIssue(a, b issueArgs) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return string(ja) == string(jb)
}

// An argument coercion cannot fix is answered, before the SDK's validator
// and the handler, with a tool result with isError set whose text is the
// feedback; a fixable call reaches the handler repaired; KeepSDKErrors
// lets the SDK answer in its own words.
func TestUnfixableCallGetsFeedback(t *testing.T) {
	var (
		mu     sync.Mutex
		errs   []string
		logBuf lockedBuffer
	)
	server := newServer(nil)
	gosdkcoerce.Options{
		OnError: func(ctx context.Context, tool string, err error) {
			mu.Lock()
			defer mu.Unlock()
			errs = append(errs, tool+": "+err.Error())
		},
		Logger: slog.New(slog.NewTextHandler(&logBuf, &slog.HandlerOptions{ReplaceAttr: dropTime})),
	}.Install(server)
	got := addTyped[countArgs](server, "count")
	cs := connect(t, server, client{})

	res := call(t, cs, "count", map[string]any{"n": "ten"})
	want := "Invalid arguments: 1 problem. Correct it and send the call again.\n" +
		`- /n: expected an integer; found the string "ten", which is not valid (not a number). Example: 1`
	if !res.IsError || resultText(res) != want {
		t.Errorf("got IsError=%v %q, want IsError=true %q", res.IsError, resultText(res), want)
	}
	if len(got) != 0 {
		t.Errorf("handler ran with %+v", <-got)
	}
	if res := call(t, cs, "count", map[string]any{"n": "10"}); res.IsError {
		t.Errorf("fixable call: %s", resultText(res))
	} else if in := <-got; in.N != 10 {
		t.Errorf("handler got %+v", in)
	}
	mu.Lock()
	if len(errs) != 1 || !strings.Contains(errs[0], "count: coerce: /n:") {
		t.Errorf("OnError heard %q", errs)
	}
	mu.Unlock()
	const logged = `level=WARN msg="coerce: argument rejected" tool=count client.name=test-client rejection.path=/n rejection.declared=integer rejection.found=string rejection.preview=ten rejection.rule=syntax` + "\n"
	if g := logBuf.String(); g != logged {
		t.Errorf("log:\n%s\nwant:\n%s", g, logged)
	}

	kept := newServer(nil)
	gosdkcoerce.Options{KeepSDKErrors: true}.Install(kept)
	addTyped[countArgs](kept, "count")
	res = call(t, connect(t, kept, client{}), "count", map[string]any{"n": "ten"})
	if !res.IsError || !strings.HasPrefix(resultText(res), `validating "arguments"`) {
		t.Errorf("KeepSDKErrors: got %q, want the SDK's message", resultText(res))
	}
}

// NoticeRepairs appends to a repaired call's result how its arguments
// were repaired.
func TestNoticeRepairs(t *testing.T) {
	server := newServer(nil)
	gosdkcoerce.Options{NoticeRepairs: true}.Install(server)
	got := addIssues(server)
	cs := connect(t, server, client{})
	res := call(t, cs, "list_issues", map[string]any{"owner": "octo", "labels": `["bug"]`, "perPage": "5"})
	<-got
	want := "ok" + "Note: the arguments were repaired before the tool ran. Send them as declared next time:\n" +
		"- `labels` arrived as JSON text in a string; send a JSON array.\n" +
		"- `perPage` arrived as a string; send an integer, without quotes."
	if res.IsError || resultText(res) != want || len(res.Content) != 2 {
		t.Errorf("got %d parts %q, want the result and the notice %q", len(res.Content), resultText(res), want)
	}
	res = call(t, cs, "list_issues", map[string]any{"owner": "octo"})
	<-got
	if resultText(res) != "ok" {
		t.Errorf("a call that needed no repair got %q", resultText(res))
	}
}

func dropTime(groups []string, a slog.Attr) slog.Attr {
	if a.Key == slog.TimeKey && len(groups) == 0 {
		return slog.Attr{}
	}
	return a
}
