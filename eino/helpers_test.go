package einocoerce_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/components/tool/utils"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"
)

// searchInput is the typed input of the tools built with eino's helpers,
// whose schema utils.InferTool and its siblings infer from it.
type searchInput struct {
	Query      string         `json:"query"`
	Limit      int            `json:"limit"`
	ID         int64          `json:"id"`
	Tags       []string       `json:"tags"`
	Config     map[string]any `json:"config"`
	Filter     filter         `json:"filter"`
	Verbose    bool           `json:"verbose"`
	Ratio      float64        `json:"ratio"`
	PathParams string         `json:"path_params"`
}

type filter struct {
	Lang     string `json:"lang"`
	MinStars int    `json:"min_stars"`
}

// validSearch is a valid argument set for searchInput. Its id is beyond
// 2^53, so that a float64 anywhere on the way would show.
func validSearch() map[string]any {
	return map[string]any{
		"query":       "go generics",
		"limit":       5,
		"id":          int64(9007199254740993),
		"tags":        []any{"go", "generics"},
		"config":      map[string]any{"depth": 2.0},
		"filter":      map[string]any{"lang": "go", "min_stars": 10},
		"verbose":     true,
		"ratio":       0.5,
		"path_params": `{"channel_id":"1458059302022549698"}`,
	}
}

// received records what a tool was called with, by tool call ID, which the
// ToolsNode puts in the context of each call.
type received[T any] struct {
	mu     sync.Mutex
	byCall map[string]T
}

func (r *received[T]) put(ctx context.Context, v T) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.byCall == nil {
		r.byCall = map[string]T{}
	}
	r.byCall[compose.GetToolCallID(ctx)] = v
}

func (r *received[T]) get(callID string) (T, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	v, ok := r.byCall[callID]
	return v, ok
}

// searchTools builds one search tool of each of eino's four kinds with
// eino's own helpers, all recording their decoded input in rec.
func searchTools(t *testing.T, rec *received[searchInput]) map[string]tool.BaseTool {
	t.Helper()
	text := func(s string) *schema.ToolResult {
		return &schema.ToolResult{Parts: []schema.ToolOutputPart{{Type: schema.ToolPartTypeText, Text: s}}}
	}
	invokable, err := utils.InferTool("search", "Search the index.",
		func(ctx context.Context, in searchInput) (string, error) {
			rec.put(ctx, in)
			return "ok", nil
		})
	if err != nil {
		t.Fatal(err)
	}
	streamable, err := utils.InferStreamTool("search_stream", "Search the index, streaming.",
		func(ctx context.Context, in searchInput) (*schema.StreamReader[string], error) {
			rec.put(ctx, in)
			return schema.StreamReaderFromArray([]string{"o", "k"}), nil
		})
	if err != nil {
		t.Fatal(err)
	}
	enhanced, err := utils.InferEnhancedTool("search_enhanced", "Search the index, multimodal.",
		func(ctx context.Context, in searchInput) (*schema.ToolResult, error) {
			rec.put(ctx, in)
			return text("ok"), nil
		})
	if err != nil {
		t.Fatal(err)
	}
	enhancedStream, err := utils.InferEnhancedStreamTool("search_enhanced_stream", "Search the index, multimodal, streaming.",
		func(ctx context.Context, in searchInput) (*schema.StreamReader[*schema.ToolResult], error) {
			rec.put(ctx, in)
			return schema.StreamReaderFromArray([]*schema.ToolResult{text("ok")}), nil
		})
	if err != nil {
		t.Fatal(err)
	}
	return map[string]tool.BaseTool{
		"search":                 invokable,
		"search_stream":          streamable,
		"search_enhanced":        enhanced,
		"search_enhanced_stream": enhancedStream,
	}
}

// jobInput is the input of scheduleTool, written by hand: its schema is a
// ParamsOneOf of eino ParameterInfos, and it decodes its arguments with
// encoding/json, strictly.
type jobInput struct {
	IDs     []int64 `json:"ids"`
	Options struct {
		Mode    string `json:"mode"`
		Retries int    `json:"retries"`
	} `json:"options"`
	DryRun bool    `json:"dry_run"`
	Count  int     `json:"count"`
	Note   string  `json:"note"`
	Weight float64 `json:"weight"`
}

func validJob() map[string]any {
	return map[string]any{
		"ids":     []any{int64(9007199254740993), 2},
		"options": map[string]any{"mode": "fast", "retries": 3},
		"dry_run": false,
		"count":   7,
		"note":    "42",
		"weight":  1.5,
	}
}

// scheduleTool is an InvokableTool written by hand, as a tool wrapping an
// API would be.
type scheduleTool struct {
	rec *received[jobInput]

	mu    sync.Mutex
	infos int // calls of Info
}

func (s *scheduleTool) Info(context.Context) (*schema.ToolInfo, error) {
	s.mu.Lock()
	s.infos++
	s.mu.Unlock()
	return &schema.ToolInfo{
		Name: "schedule",
		Desc: "Schedule jobs.",
		ParamsOneOf: schema.NewParamsOneOfByParams(map[string]*schema.ParameterInfo{
			"ids": {Type: schema.Array, ElemInfo: &schema.ParameterInfo{Type: schema.Integer}, Required: true},
			"options": {Type: schema.Object, SubParams: map[string]*schema.ParameterInfo{
				"mode":    {Type: schema.String},
				"retries": {Type: schema.Integer},
			}},
			"dry_run": {Type: schema.Boolean},
			"count":   {Type: schema.Integer},
			"note":    {Type: schema.String},
			"weight":  {Type: schema.Number},
		}),
	}, nil
}

func (s *scheduleTool) InvokableRun(ctx context.Context, argumentsInJSON string, _ ...tool.Option) (string, error) {
	dec := json.NewDecoder(strings.NewReader(argumentsInJSON))
	dec.DisallowUnknownFields()
	var in jobInput
	if err := dec.Decode(&in); err != nil {
		return "", err
	}
	if s.rec != nil {
		s.rec.put(ctx, in)
	}
	return "scheduled", nil
}

func (s *scheduleTool) infoCalls() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.infos
}

// echoTool returns the arguments it receives, byte for byte, so that a
// test sees exactly what reached the tool.
type echoTool struct {
	name   string
	params *schema.ParamsOneOf
}

func (e echoTool) Info(context.Context) (*schema.ToolInfo, error) {
	return &schema.ToolInfo{Name: e.name, Desc: "Echo the arguments.", ParamsOneOf: e.params}, nil
}

func (e echoTool) InvokableRun(_ context.Context, argumentsInJSON string, _ ...tool.Option) (string, error) {
	return argumentsInJSON, nil
}

// echoParams declares tags an array of strings, limit an integer and id an
// integer, as eino's ParameterInfo does.
var echoParams = schema.NewParamsOneOfByParams(map[string]*schema.ParameterInfo{
	"tags":  {Type: schema.Array, ElemInfo: &schema.ParameterInfo{Type: schema.String}},
	"limit": {Type: schema.Integer},
	"id":    {Type: schema.Integer},
})

// call is one tool call of an assistant message.
type call struct{ id, tool, args string }

// assistant is the message a chat model returns to call tools.
func assistant(calls ...call) *schema.Message {
	msg := &schema.Message{Role: schema.Assistant}
	for _, c := range calls {
		msg.ToolCalls = append(msg.ToolCalls, schema.ToolCall{
			ID: c.id, Type: "function",
			Function: schema.FunctionCall{Name: c.tool, Arguments: c.args},
		})
	}
	return msg
}

// newNode builds a ToolsNode over tools with coercion installed by opts.
func newNode(t *testing.T, install func(*compose.ToolsNodeConfig), tools ...tool.BaseTool) *compose.ToolsNode {
	t.Helper()
	conf := compose.ToolsNodeConfig{Tools: tools}
	install(&conf)
	node, err := compose.NewToolNode(context.Background(), &conf)
	if err != nil {
		t.Fatal(err)
	}
	return node
}

// runNode sends one tool call through the node, by Invoke or, with
// stream, by Stream (read to the end), and returns the tool messages'
// text.
func runNode(ctx context.Context, node *compose.ToolsNode, stream bool, c call) (string, error) {
	msg := assistant(c)
	if !stream {
		out, err := node.Invoke(ctx, msg)
		if err != nil {
			return "", err
		}
		return content(out), nil
	}
	sr, err := node.Stream(ctx, msg)
	if err != nil {
		return "", err
	}
	defer sr.Close()
	var chunks [][]*schema.Message
	for {
		chunk, err := sr.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return "", err
		}
		chunks = append(chunks, chunk)
	}
	var b strings.Builder
	for _, chunk := range chunks {
		b.WriteString(content(chunk))
	}
	return b.String(), nil
}

func content(msgs []*schema.Message) string {
	var b strings.Builder
	for _, m := range msgs {
		if m == nil {
			continue
		}
		b.WriteString(m.Content)
		for _, p := range m.UserInputMultiContent {
			b.WriteString(p.Text)
		}
	}
	return b.String()
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	text, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(text)
}

// decodeAs decodes the JSON form of v into a T, as the tool would decode
// the arguments v stands for.
func decodeAs[T any](t *testing.T, v any) T {
	t.Helper()
	var out T
	if err := json.Unmarshal([]byte(mustJSON(t, v)), &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func callID(i int) string { return "call_" + strconv.Itoa(i) }
