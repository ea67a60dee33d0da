package fantasycoerce_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"sort"
	"strings"
	"sync"
	"testing"

	"charm.land/fantasy"
	fantasycoerce "github.com/coerce-go/coerce/fantasy"
)

// scriptedModel is a fantasy.LanguageModel that answers from a script, in
// process: each turn of the script is the content of one response, usually
// tool calls with their input as a model wrote it. When the script is done
// it replies with the text "done" and stops. It records each call the agent
// makes, so that a test can read the tools offered and the tool results the
// agent sent back.
type scriptedModel struct {
	mu    sync.Mutex
	turns [][]fantasy.Content
	calls []fantasy.Call
}

func newModel(turns ...[]fantasy.Content) *scriptedModel {
	return &scriptedModel{turns: turns}
}

// toolCall is one tool call as the model writes it.
func toolCall(id, tool, input string) fantasy.Content {
	return fantasy.ToolCallContent{ToolCallID: id, ToolName: tool, Input: input}
}

func (m *scriptedModel) Generate(_ context.Context, call fantasy.Call) (*fantasy.Response, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	turn := len(m.calls)
	m.calls = append(m.calls, call)
	if turn < len(m.turns) {
		return &fantasy.Response{Content: m.turns[turn], FinishReason: fantasy.FinishReasonToolCalls}, nil
	}
	return &fantasy.Response{Content: []fantasy.Content{fantasy.TextContent{Text: "done"}}, FinishReason: fantasy.FinishReasonStop}, nil
}

// Stream streams the same response, part by part, as a provider does.
func (m *scriptedModel) Stream(ctx context.Context, call fantasy.Call) (fantasy.StreamResponse, error) {
	resp, err := m.Generate(ctx, call)
	if err != nil {
		return nil, err
	}
	return func(yield func(fantasy.StreamPart) bool) {
		for i, c := range resp.Content {
			var parts []fantasy.StreamPart
			switch c := c.(type) {
			case fantasy.ToolCallContent:
				parts = []fantasy.StreamPart{
					{Type: fantasy.StreamPartTypeToolInputStart, ID: c.ToolCallID, ToolCallName: c.ToolName},
					{Type: fantasy.StreamPartTypeToolInputDelta, ID: c.ToolCallID, Delta: c.Input},
					{Type: fantasy.StreamPartTypeToolInputEnd, ID: c.ToolCallID},
					{Type: fantasy.StreamPartTypeToolCall, ID: c.ToolCallID, ToolCallName: c.ToolName, ToolCallInput: c.Input},
				}
			case fantasy.TextContent:
				id := fmt.Sprint("text-", i)
				parts = []fantasy.StreamPart{
					{Type: fantasy.StreamPartTypeTextStart, ID: id},
					{Type: fantasy.StreamPartTypeTextDelta, ID: id, Delta: c.Text},
					{Type: fantasy.StreamPartTypeTextEnd, ID: id},
				}
			}
			for _, p := range parts {
				if !yield(p) {
					return
				}
			}
		}
		yield(fantasy.StreamPart{Type: fantasy.StreamPartTypeFinish, FinishReason: resp.FinishReason})
	}, nil
}

func (m *scriptedModel) GenerateObject(context.Context, fantasy.ObjectCall) (*fantasy.ObjectResponse, error) {
	return nil, errors.New("scripted model: no objects")
}

func (m *scriptedModel) StreamObject(context.Context, fantasy.ObjectCall) (fantasy.ObjectStreamResponse, error) {
	return nil, errors.New("scripted model: no objects")
}

func (m *scriptedModel) Provider() string { return "scripted" }
func (m *scriptedModel) Model() string    { return "scripted" }

// offered returns the input schema the model was offered for the named
// tool in its first call, as JSON text.
func (m *scriptedModel) offered(t *testing.T, name string) []byte {
	t.Helper()
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.calls) == 0 {
		t.Fatal("the model was not called")
	}
	for _, tool := range m.calls[0].Tools {
		if ft, ok := tool.(fantasy.FunctionTool); ok && ft.Name == name {
			return mustJSON(t, ft.InputSchema)
		}
	}
	t.Fatalf("tool %s was not offered", name)
	return nil
}

// results returns the tool results the agent sent back to the model, by
// tool call ID: the text of each, or "error: " and the error's message.
func results(res *fantasy.AgentResult) map[string]string {
	out := map[string]string{}
	for _, step := range res.Steps {
		for _, r := range step.Content.ToolResults() {
			switch o := r.Result.(type) {
			case fantasy.ToolResultOutputContentText:
				out[r.ToolCallID] = o.Text
			case fantasy.ToolResultOutputContentError:
				out[r.ToolCallID] = "error: " + o.Error.Error()
			default:
				out[r.ToolCallID] = fmt.Sprintf("%T", o)
			}
		}
	}
	return out
}

// run runs an agent over the model, with Generate or, if stream, Stream.
func run(t *testing.T, stream bool, model fantasy.LanguageModel, opts ...fantasy.AgentOption) *fantasy.AgentResult {
	t.Helper()
	return runWithHook(t, stream, model, nil, opts...)
}

// runCoerced runs an agent with the tools coerced by o, as a user sets it
// up: o.WithTools for the agent, and for Stream o.RepairToolCall on the
// call too, since fantasy v0.41.2's Stream reads the repair hook from the
// call only.
func runCoerced(t *testing.T, stream bool, model fantasy.LanguageModel, o fantasycoerce.Options, tools ...fantasy.AgentTool) *fantasy.AgentResult {
	t.Helper()
	return runWithHook(t, stream, model, o.RepairToolCall(nil), o.WithTools(tools...))
}

func runWithHook(t *testing.T, stream bool, model fantasy.LanguageModel, hook fantasy.RepairToolCallFunction, opts ...fantasy.AgentOption) *fantasy.AgentResult {
	t.Helper()
	agent := fantasy.NewAgent(model, opts...)
	var res *fantasy.AgentResult
	var err error
	if stream {
		res, err = agent.Stream(t.Context(), fantasy.AgentStreamCall{Prompt: "go", RepairToolCall: hook})
	} else {
		res, err = agent.Generate(t.Context(), fantasy.AgentCall{Prompt: "go"})
	}
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// recorder keeps what a tool received, by tool call ID.
type recorder[T any] struct {
	mu  sync.Mutex
	got map[string]T
}

func (r *recorder[T]) put(id string, v T) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.got == nil {
		r.got = map[string]T{}
	}
	r.got[id] = v
}

func (r *recorder[T]) get(id string) (T, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	v, ok := r.got[id]
	return v, ok
}

// typedTool is a tool made by fantasy.NewAgentTool, which decodes its input
// into T with encoding/json; it records each input it decoded.
func typedTool[T any](name string, parallel bool) (fantasy.AgentTool, *recorder[T]) {
	rec := &recorder[T]{}
	fn := func(_ context.Context, in T, call fantasy.ToolCall) (fantasy.ToolResponse, error) {
		rec.put(call.ID, in)
		return fantasy.NewTextResponse("ok"), nil
	}
	if parallel {
		return fantasy.NewParallelAgentTool(name, "A typed tool.", fn), rec
	}
	return fantasy.NewAgentTool(name, "A typed tool.", fn), rec
}

// rawTool is an AgentTool with a hand-written schema, as an MCP bridge
// makes them; it records the input text it was handed.
type rawTool struct {
	info fantasy.ToolInfo
	rec  recorder[string]
	opts fantasy.ProviderOptions
}

func newRawTool(name, parameters string, required ...string) *rawTool {
	var params map[string]any
	if err := json.Unmarshal([]byte(parameters), &params); err != nil {
		panic(err)
	}
	if required == nil {
		required = []string{}
	}
	return &rawTool{info: fantasy.ToolInfo{Name: name, Description: "A raw tool.", Parameters: params, Required: required}}
}

func (r *rawTool) Info() fantasy.ToolInfo                       { return r.info }
func (r *rawTool) ProviderOptions() fantasy.ProviderOptions     { return r.opts }
func (r *rawTool) SetProviderOptions(o fantasy.ProviderOptions) { r.opts = o }
func (r *rawTool) Run(_ context.Context, call fantasy.ToolCall) (fantasy.ToolResponse, error) {
	r.rec.put(call.ID, call.Input)
	return fantasy.NewTextResponse("ok"), nil
}

func mustJSON(t testing.TB, v any) []byte {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// diffJSON compares two JSON texts as values, numbers by exact decimal
// value, and returns the differences by JSON Pointer, or "".
func diffJSON(want, got []byte) string {
	var w, g any
	if err := decodeExact(want, &w); err != nil {
		return "want: " + err.Error()
	}
	if err := decodeExact(got, &g); err != nil {
		return "got: " + err.Error()
	}
	var diffs []string
	diffValues("", w, g, &diffs)
	sort.Strings(diffs)
	return strings.Join(diffs, "\n")
}

func decodeExact(b []byte, v *any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	return dec.Decode(v)
}

func diffValues(path string, w, g any, diffs *[]string) {
	switch w := w.(type) {
	case map[string]any:
		gm, ok := g.(map[string]any)
		if !ok {
			break
		}
		keys := map[string]bool{}
		for k := range w {
			keys[k] = true
		}
		for k := range gm {
			keys[k] = true
		}
		for k := range keys {
			diffValues(path+"/"+k, w[k], gm[k], diffs)
		}
		return
	case []any:
		ga, ok := g.([]any)
		if !ok || len(ga) != len(w) {
			break
		}
		for i := range w {
			diffValues(fmt.Sprint(path, "/", i), w[i], ga[i], diffs)
		}
		return
	case json.Number:
		if gn, ok := g.(json.Number); ok {
			wr, ok1 := new(big.Rat).SetString(string(w))
			gr, ok2 := new(big.Rat).SetString(string(gn))
			if ok1 && ok2 && wr.Cmp(gr) == 0 {
				return
			}
		}
	default:
		if fmt.Sprintf("%#v", w) == fmt.Sprintf("%#v", g) {
			return
		}
	}
	*diffs = append(*diffs, fmt.Sprintf("%s: want %s, got %s", path, show(w), show(g)))
}

func show(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
