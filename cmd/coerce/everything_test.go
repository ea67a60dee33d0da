//lint:file-ignore SA1019 the reference server still offers sampling, deprecated by MCP 2026-07-28 (SEP-2577), and the proxy must relay it as it does everything else.

package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The reference server, @modelcontextprotocol/server-everything, behind the
// proxy and driven by go-sdk's client: what needs repair is repaired, and
// everything else it offers behaves as it does without the proxy.

func TestEverythingRepairs(t *testing.T) {
	direct := connect(t, everythingCmd(t, false), nil)
	proxied := connect(t, everythingCmd(t, true), nil)
	for _, tc := range []struct {
		tool       string
		args       map[string]any
		want       string // through the proxy
		directFail bool   // the server refuses it without the proxy
	}{
		{"get-sum", map[string]any{"a": "5", "b": 2}, "The sum of 5 and 2 is 7.", true},
		{"echo", map[string]any{"message": map[string]any{"x": []int{1, 2}}}, `Echo: {"x":[1,2]}`, true},
		{"get-sum", map[string]any{"a": 1, "b": 2}, "The sum of 1 and 2 is 3.", false},
	} {
		got, isErr := callText(t, proxied, tc.tool, tc.args)
		if isErr || got != tc.want {
			t.Errorf("through the proxy, %s(%v) = %q (isError %v), want %q", tc.tool, tc.args, got, isErr, tc.want)
		}
		if _, isErr := callText(t, direct, tc.tool, tc.args); isErr != tc.directFail {
			t.Errorf("without the proxy, %s(%v): isError %v, want %v", tc.tool, tc.args, isErr, tc.directFail)
		}
	}
	got, isErr := callText(t, proxied, "get-sum", map[string]any{"a": "five", "b": 2})
	want := "Invalid arguments: 1 problem. Correct it and send the call again.\n- /a: expected a number; found the string \"five\", which is not valid (not a number). Example: 1.5"
	if !isErr || got != want {
		t.Errorf("unfixable call: isError %v, text\n%s\nwant\n%s", isErr, got, want)
	}
}

func TestEverythingUnchanged(t *testing.T) {
	cs, obs := connectEverything(t, false)
	direct := exercise(t, cs, obs)
	cs, obs = connectEverything(t, true)
	proxied := exercise(t, cs, obs)
	// Each feature must work, or the comparison would show nothing.
	for what, v := range direct {
		if s, ok := v.(string); ok && strings.HasPrefix(s, "error: ") {
			t.Errorf("without the proxy, %s failed: %s", what, s)
		}
	}
	for _, what := range []string{"progress notifications", "sampling requests", "elicitation requests"} {
		if direct[what] == int32(0) {
			t.Errorf("without the proxy, no %s", what)
		}
	}
	if direct["cancelled"] != true {
		t.Errorf("the long call was not cancelled")
	}
	if diff := cmp.Diff(direct, proxied); diff != "" {
		t.Errorf("through the proxy, the server behaved otherwise (-direct +proxied):\n%s", diff)
	}
}

// observer is what the client saw come from the server unasked.
type observer struct {
	progress    atomic.Int32
	sampled     atomic.Int32
	elicited    atomic.Int32
	listChanged atomic.Int32
}

func connectEverything(t *testing.T, proxied bool) (*mcp.ClientSession, *observer) {
	return connectWith(t, func(opts *mcp.ClientOptions) *mcp.ClientSession { return connect(t, everythingCmd(t, proxied), opts) })
}

// connectWith makes a client with handlers that count what the server
// asks of it, and connects it with dial.
func connectWith(t *testing.T, dial func(*mcp.ClientOptions) *mcp.ClientSession) (*mcp.ClientSession, *observer) {
	obs := &observer{}
	opts := &mcp.ClientOptions{
		CreateMessageHandler: func(_ context.Context, req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			obs.sampled.Add(1)
			return &mcp.CreateMessageResult{Model: "test-model", Role: "assistant", Content: &mcp.TextContent{Text: "sampled: " + fmt.Sprint(len(req.Params.Messages))}}, nil
		},
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			obs.elicited.Add(1)
			return &mcp.ElicitResult{Action: "decline"}, nil
		},
		ProgressNotificationHandler: func(context.Context, *mcp.ProgressNotificationClientRequest) {
			obs.progress.Add(1)
		},
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) {
			obs.listChanged.Add(1)
		},
	}
	return dial(opts), obs
}

// exercise uses each feature of the reference server once and returns
// what it saw, to be compared with and without the proxy.
func exercise(t *testing.T, cs *mcp.ClientSession, obs *observer) map[string]any {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	seen := map[string]any{}
	record := func(what string, v any, err error) {
		if err != nil {
			seen[what] = "error: " + err.Error()
			return
		}
		b, _ := json.Marshal(v)
		var generic any
		json.Unmarshal(b, &generic)
		seen[what] = generic
	}

	var tools []*mcp.Tool
	for tool, err := range cs.Tools(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		tools = append(tools, tool)
	}
	slices.SortFunc(tools, func(a, b *mcp.Tool) int { return strings.Compare(a.Name, b.Name) })
	record("tools/list", tools, nil)

	prompts, err := cs.ListPrompts(ctx, nil)
	record("prompts/list", prompts, err)
	prompt, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "args-prompt", Arguments: map[string]string{"city": "Paris", "state": "TX"}})
	record("prompts/get", prompt, err)

	resources, err := cs.ListResources(ctx, nil)
	record("resources/list", resources, err)
	if err == nil && len(resources.Resources) > 0 {
		read, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: resources.Resources[0].URI})
		record("resources/read", read, err)
	}
	templates, err := cs.ListResourceTemplates(ctx, nil)
	record("resources/templates/list", templates, err)
	complete, err := cs.Complete(ctx, &mcp.CompleteParams{
		Ref:      &mcp.CompleteReference{Type: "ref/prompt", Name: "completable-prompt"},
		Argument: mcp.CompleteParamsArgument{Name: "department", Value: "E"},
	})
	record("completion/complete", complete, err)

	for _, call := range []struct {
		name string
		args map[string]any
	}{
		{"echo", map[string]any{"message": "hello"}},
		{"get-structured-content", map[string]any{"location": "Chicago"}},
		{"get-annotated-message", map[string]any{"messageType": "success", "includeImage": true}},
		{"get-tiny-image", map[string]any{}},
		{"trigger-sampling-request", map[string]any{"prompt": "hi", "maxTokens": 10}},
		{"trigger-elicitation-request", map[string]any{}},
	} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: call.name, Arguments: call.args})
		record("tools/call "+call.name, res, err)
	}

	// Progress: the server reports each step under the call's token.
	params := &mcp.CallToolParams{Name: "trigger-long-running-operation", Arguments: map[string]any{"duration": 0.4, "steps": 4}}
	params.SetProgressToken("progress-1")
	res, err := cs.CallTool(ctx, params)
	record("tools/call trigger-long-running-operation", res, err)
	deadline := time.Now().Add(5 * time.Second)
	for obs.progress.Load() < 4 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}

	// Cancellation: the client gives up (notifications/cancelled), and the
	// session goes on.
	short, stop := context.WithTimeout(ctx, 200*time.Millisecond)
	_, err = cs.CallTool(short, &mcp.CallToolParams{Name: "trigger-long-running-operation", Arguments: map[string]any{"duration": 5, "steps": 5}})
	stop()
	seen["cancelled"] = errors.Is(err, context.DeadlineExceeded)
	record("ping after cancel", "pong", cs.Ping(ctx, nil))

	seen["progress notifications"] = obs.progress.Load()
	seen["sampling requests"] = obs.sampled.Load()
	seen["elicitation requests"] = obs.elicited.Load()
	return seen
}
