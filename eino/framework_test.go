package einocoerce_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/callbacks"
	"github.com/cloudwego/eino/components"
	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/components/tool/utils"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/flow/agent/react"
	"github.com/cloudwego/eino/schema"
	"github.com/coerce-go/coerce/eino"
	"github.com/google/go-cmp/cmp"
)

// The run methods of eino's four tool interfaces, one type each, to build
// tools of every combination a Go type can have.
type (
	runInvokable          struct{}
	runStreamable         struct{}
	runEnhancedInvokable  struct{}
	runEnhancedStreamable struct{}
)

func (runInvokable) InvokableRun(context.Context, string, ...tool.Option) (string, error) {
	return "", nil
}

func (runStreamable) StreamableRun(context.Context, string, ...tool.Option) (*schema.StreamReader[string], error) {
	return nil, nil
}

func (runEnhancedInvokable) InvokableRun(context.Context, *schema.ToolArgument, ...tool.Option) (*schema.ToolResult, error) {
	return nil, nil
}

func (runEnhancedStreamable) StreamableRun(context.Context, *schema.ToolArgument, ...tool.Option) (*schema.StreamReader[*schema.ToolResult], error) {
	return nil, nil
}

type infoOnly struct{}

func (infoOnly) Info(context.Context) (*schema.ToolInfo, error) {
	return &schema.ToolInfo{Name: "t", ParamsOneOf: echoParams}, nil
}

// typedChecked is a tool that names its own type and runs its own callbacks.
type typedChecked struct {
	infoOnly
	runInvokable
}

func (typedChecked) GetType() string          { return "Custom" }
func (typedChecked) IsCallbacksEnabled() bool { return true }

// interfaces lists the eino interfaces v implements.
func interfaces(v any) []string {
	var out []string
	if _, ok := v.(tool.InvokableTool); ok {
		out = append(out, "InvokableTool")
	}
	if _, ok := v.(tool.StreamableTool); ok {
		out = append(out, "StreamableTool")
	}
	if _, ok := v.(tool.EnhancedInvokableTool); ok {
		out = append(out, "EnhancedInvokableTool")
	}
	if _, ok := v.(tool.EnhancedStreamableTool); ok {
		out = append(out, "EnhancedStreamableTool")
	}
	return out
}

// A wrapped tool has exactly the run interfaces of the tool, so that a
// ToolsNode picks the same endpoints, and reports its type name and
// callback behavior.
func TestWrapKeepsTheToolsInterfaces(t *testing.T) {
	tests := []struct {
		name     string
		tool     tool.BaseTool
		typeName string
		checked  bool
	}{
		{"invokable", struct {
			infoOnly
			runInvokable
		}{}, "", false},
		{"streamable", struct {
			infoOnly
			runStreamable
		}{}, "", false},
		{"invokable+streamable", struct {
			infoOnly
			runInvokable
			runStreamable
		}{}, "", false},
		{"enhanced invokable", struct {
			infoOnly
			runEnhancedInvokable
		}{}, "", false},
		{"enhanced streamable", struct {
			infoOnly
			runEnhancedStreamable
		}{}, "", false},
		{"enhanced invokable+enhanced streamable", struct {
			infoOnly
			runEnhancedInvokable
			runEnhancedStreamable
		}{}, "", false},
		{"invokable+enhanced streamable", struct {
			infoOnly
			runInvokable
			runEnhancedStreamable
		}{}, "", false},
		{"enhanced invokable+streamable", struct {
			infoOnly
			runEnhancedInvokable
			runStreamable
		}{}, "", false},
		{"named type", &scheduleTool{}, "scheduleTool", false},
		{"Typer and Checker", typedChecked{}, "Custom", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := einocoerce.Wrap(tt.tool)
			if diff := cmp.Diff(interfaces(tt.tool), interfaces(w)); diff != "" {
				t.Errorf("interfaces (-tool +wrapped):\n%s", diff)
			}
			if typ, _ := components.GetType(w); typ != tt.typeName {
				t.Errorf("GetType = %q, want %q", typ, tt.typeName)
			}
			if got := components.IsCallbacksEnabled(w); got != tt.checked {
				t.Errorf("IsCallbacksEnabled = %v, want %v", got, tt.checked)
			}
		})
	}
	if w := einocoerce.Wrap(infoOnly{}); w != (infoOnly{}) {
		t.Errorf("a tool without run methods came back as %T, want it unwrapped", w)
	}
}

// callbackTool runs its own callbacks, as components.Checker allows.
type callbackTool struct{ echoTool }

func (callbackTool) GetType() string          { return "Own" }
func (callbackTool) IsCallbacksEnabled() bool { return true }

func (c callbackTool) InvokableRun(ctx context.Context, args string, opts ...tool.Option) (string, error) {
	ctx = callbacks.OnStart(ctx, &tool.CallbackInput{ArgumentsInJSON: args})
	out, err := c.echoTool.InvokableRun(ctx, args, opts...)
	callbacks.OnEnd(ctx, &tool.CallbackOutput{Response: out})
	return out, err
}

// In a chain run with callbacks, each tool's callbacks run once, labeled
// with the tool's own type: the ToolsNode's around a tool that leaves
// them to it, seeing the arguments as the model sent them, and the tool's
// own, seeing them repaired.
func TestChainWithCallbacks(t *testing.T) {
	var rec received[searchInput]
	tools := searchTools(t, &rec)
	node := newNode(t, einocoerce.Install, tools["search"], callbackTool{echoTool{"own", echoParams}})
	chain, err := compose.NewChain[*schema.Message, []*schema.Message]().AppendToolsNode(node).Compile(context.Background())
	if err != nil {
		t.Fatal(err)
	}

	type start struct{ name, typ, args string }
	var mu sync.Mutex
	var starts []start
	handler := callbacks.NewHandlerBuilder().OnStartFn(
		func(ctx context.Context, info *callbacks.RunInfo, input callbacks.CallbackInput) context.Context {
			if info.Component == components.ComponentOfTool {
				mu.Lock()
				defer mu.Unlock()
				starts = append(starts, start{info.Name, info.Type, tool.ConvCallbackInput(input).ArgumentsInJSON})
			}
			return ctx
		}).Build()

	search := `{"query":"q","limit":"5","tags":"[\"go\"]"}`
	own := `{"limit":"5"}`
	out, err := chain.Invoke(context.Background(),
		assistant(call{"1", "search", search}, call{"2", "own", own}),
		compose.WithCallbacks(handler))
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 2 || out[1].Content != `{"limit":5}` {
		t.Errorf("tool messages %v, want two, the second {\"limit\":5}", out)
	}
	got, _ := rec.get("1")
	if got.Limit != 5 || !cmp.Equal(got.Tags, []string{"go"}) {
		t.Errorf("search got %+v, want limit 5 and tags [go]", got)
	}
	want := []start{{"search", "Search", search}, {"own", "Own", `{"limit":5}`}}
	sortByName := cmp.Transformer("sort", func(s []start) []start {
		out := append([]start(nil), s...)
		if len(out) == 2 && out[0].name > out[1].name {
			out[0], out[1] = out[1], out[0]
		}
		return out
	})
	if diff := cmp.Diff(want, starts, cmp.AllowUnexported(start{}), sortByName); diff != "" {
		t.Errorf("tool callbacks (-want +got):\n%s", diff)
	}
}

// scriptedModel is a chat model that calls the search tool with broken
// arguments, then answers with what the tool returned. It stands in for
// a model provider; the agent around it is eino's own.
type scriptedModel struct {
	args string
}

func (m scriptedModel) Generate(_ context.Context, input []*schema.Message, _ ...model.Option) (*schema.Message, error) {
	last := input[len(input)-1]
	if last.Role == schema.Tool {
		return schema.AssistantMessage("search said: "+last.Content, nil), nil
	}
	return schema.AssistantMessage("", []schema.ToolCall{{
		ID: "call_1", Type: "function",
		Function: schema.FunctionCall{Name: "search", Arguments: m.args},
	}}), nil
}

func (m scriptedModel) Stream(ctx context.Context, input []*schema.Message, opts ...model.Option) (*schema.StreamReader[*schema.Message], error) {
	msg, err := m.Generate(ctx, input, opts...)
	if err != nil {
		return nil, err
	}
	return schema.StreamReaderFromArray([]*schema.Message{msg}), nil
}

func (m scriptedModel) WithTools([]*schema.ToolInfo) (model.ToolCallingChatModel, error) {
	return m, nil
}

// searchEcho is the search tool of the agent tests: it returns the input
// it decoded, as JSON.
func searchEcho(t *testing.T) tool.InvokableTool {
	t.Helper()
	st, err := utils.InferTool("search", "Search the index.",
		func(_ context.Context, in searchInput) (searchInput, error) { return in, nil })
	if err != nil {
		t.Fatal(err)
	}
	return st
}

const brokenSearch = `{"query":"go","limit":"5","id":"9007199254740993","tags":"[\"go\",\"generics\"]",` +
	`"config":"{\"depth\":2}","filter":"{\"lang\":\"go\",\"min_stars\":\"10\"}","verbose":"yes","ratio":"0.5",` +
	`"path_params":{"channel_id":"1458059302022549698"}}`

var repairedSearch = searchInput{
	Query: "go", Limit: 5, ID: 9007199254740993, Tags: []string{"go", "generics"},
	Config: map[string]any{"depth": 2.0}, Filter: filter{Lang: "go", MinStars: 10}, Verbose: true, Ratio: 0.5,
	PathParams: `{"channel_id":"1458059302022549698"}`,
}

// checkAnswer checks that the agent's answer carries the tool's output for
// the repaired arguments.
func checkAnswer(t *testing.T, answer string) {
	t.Helper()
	text, ok := strings.CutPrefix(answer, "search said: ")
	if !ok {
		t.Fatalf("answer %q", answer)
	}
	var got searchInput
	if err := json.Unmarshal([]byte(text), &got); err != nil {
		t.Fatalf("tool output %q: %v", text, err)
	}
	if diff := cmp.Diff(repairedSearch, got); diff != "" {
		t.Errorf("the tool got (-want +got):\n%s", diff)
	}
}

// A ReAct agent (eino's flow/agent/react), with coercion installed on its
// tools config: the model's broken call reaches the tool repaired, and the
// model gets the tool's answer.
func TestReactAgent(t *testing.T) {
	ctx := context.Background()
	conf := &react.AgentConfig{
		ToolCallingModel: scriptedModel{brokenSearch},
		ToolsConfig:      compose.ToolsNodeConfig{Tools: []tool.BaseTool{searchEcho(t)}},
	}
	einocoerce.Install(&conf.ToolsConfig)
	agent, err := react.NewAgent(ctx, conf)
	if err != nil {
		t.Fatal(err)
	}
	answer, err := agent.Generate(ctx, []*schema.Message{schema.UserMessage("find go generics")})
	if err != nil {
		t.Fatal(err)
	}
	checkAnswer(t, answer.Content)
}

// The same with an ADK ChatModelAgent, whose ToolsConfig embeds the
// ToolsNodeConfig.
func TestADKChatModelAgent(t *testing.T) {
	ctx := context.Background()
	conf := &adk.ChatModelAgentConfig{
		Name:        "searcher",
		Description: "Searches the index.",
		Model:       scriptedModel{brokenSearch},
		ToolsConfig: adk.ToolsConfig{ToolsNodeConfig: compose.ToolsNodeConfig{Tools: []tool.BaseTool{searchEcho(t)}}},
	}
	einocoerce.Install(&conf.ToolsConfig.ToolsNodeConfig)
	agent, err := adk.NewChatModelAgent(ctx, conf)
	if err != nil {
		t.Fatal(err)
	}
	events := adk.NewRunner(ctx, adk.RunnerConfig{Agent: agent}).Query(ctx, "find go generics")
	var answer string
	for {
		event, ok := events.Next()
		if !ok {
			break
		}
		if event.Err != nil {
			t.Fatal(event.Err)
		}
		if mo := event.Output.MessageOutput; mo != nil && mo.Role == schema.Assistant && mo.Message != nil {
			answer = mo.Message.Content
		}
	}
	checkAnswer(t, answer)
}
