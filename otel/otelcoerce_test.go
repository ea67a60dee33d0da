package otelcoerce_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/coerce-go/coerce"
	"github.com/coerce-go/coerce/gosdk"
	"github.com/coerce-go/coerce/otel"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
)

// counts reads every counter of reader as "name attr=value,... = n" lines,
// sorted.
func counts(t *testing.T, reader sdkmetric.Reader) []string {
	t.Helper()
	var rm metricdata.ResourceMetrics
	if err := reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			sum, ok := m.Data.(metricdata.Sum[int64])
			if !ok {
				t.Fatalf("%s is %T, want a sum of int64", m.Name, m.Data)
			}
			for _, dp := range sum.DataPoints {
				var attrs []string
				for _, kv := range dp.Attributes.ToSlice() {
					attrs = append(attrs, string(kv.Key)+"="+kv.Value.String())
				}
				out = append(out, fmt.Sprintf("%s %s = %d", m.Name, strings.Join(attrs, ","), dp.Value))
			}
		}
	}
	slices.Sort(out)
	return out
}

type countArgs struct {
	N    int      `json:"n"`
	Tags []string `json:"tags"`
}

// The counters of a go-sdk server with coercion installed, called by a
// real client: repairs by rule, rejections by rule, rejected calls, each
// by tool and client.
func TestCountersWithGoSDK(t *testing.T) {
	reader := sdkmetric.NewManualReader()
	m, err := otelcoerce.New(sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader)))
	if err != nil {
		t.Fatal(err)
	}
	server := mcp.NewServer(&mcp.Implementation{Name: "s"}, nil)
	gosdkcoerce.Options{OnChange: m.OnChange, OnError: m.OnError}.Install(server)
	mcp.AddTool(server, &mcp.Tool{Name: "count"}, func(context.Context, *mcp.CallToolRequest, countArgs) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{}, nil, nil
	})
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "claude-code", Version: "2.1.0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	for _, args := range []string{
		`{"n": "5", "tags": "[\"a\"]"}`, // two repairs
		`{"n": "6", "tags": []}`,        // one
		`{"n": "ten", "tags": "a, b"}`,  // rejected: two arguments
		`{"n": 1, "tags": [], "x": 1}`,  // rejected by the SDK's validator: an unknown name
		`{"n": 1, "tags": []}`,          // nothing to count
	} {
		if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "count", Arguments: json.RawMessage(args)}); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{
		"coerce.rejected_calls client.name=claude-code,client.version=2.1.0,gen_ai.tool.name=count = 2",
		"coerce.rejections client.name=claude-code,client.version=2.1.0,coerce.rule=kind,gen_ai.tool.name=count = 1",
		"coerce.rejections client.name=claude-code,client.version=2.1.0,coerce.rule=syntax,gen_ai.tool.name=count = 1",
		"coerce.rejections client.name=claude-code,client.version=2.1.0,coerce.rule=unknown-name,gen_ai.tool.name=count = 1",
		"coerce.repairs client.name=claude-code,client.version=2.1.0,coerce.rule=json-text,gen_ai.tool.name=count = 1",
		"coerce.repairs client.name=claude-code,client.version=2.1.0,coerce.rule=number-from-text,gen_ai.tool.name=count = 2",
	}
	if got := counts(t, reader); !slices.Equal(got, want) {
		t.Errorf("counters:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// Client names are bounded: after MaxClients pairs, others count as one.
func TestClientsBounded(t *testing.T) {
	reader := sdkmetric.NewManualReader()
	m, err := otelcoerce.New(sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader)))
	if err != nil {
		t.Fatal(err)
	}
	server := mcp.NewServer(&mcp.Implementation{Name: "s"}, nil)
	gosdkcoerce.Options{OnChange: m.OnChange}.Install(server)
	mcp.AddTool(server, &mcp.Tool{Name: "count"}, func(context.Context, *mcp.CallToolRequest, countArgs) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{}, nil, nil
	})
	ctx := context.Background()
	for i := range otelcoerce.MaxClients + 5 {
		st, ct := mcp.NewInMemoryTransports()
		ss, err := server.Connect(ctx, st, nil)
		if err != nil {
			t.Fatal(err)
		}
		cs, err := mcp.NewClient(&mcp.Implementation{Name: fmt.Sprintf("client-%03d-%s", i, strings.Repeat("x", 100)), Version: "1"}, nil).Connect(ctx, ct, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "count", Arguments: json.RawMessage(`{"n": "1", "tags": []}`)}); err != nil {
			t.Fatal(err)
		}
		cs.Close()
		ss.Close()
	}
	got := counts(t, reader)
	if len(got) != otelcoerce.MaxClients+1 {
		t.Errorf("%d series, want %d", len(got), otelcoerce.MaxClients+1)
	}
	if last := got[len(got)-1]; !strings.Contains(last, "client.name=other") || !strings.HasSuffix(last, "= 5") {
		t.Errorf("last series %q, want the other clients' 5 repairs", last)
	}
	for _, s := range got {
		if strings.Contains(s, strings.Repeat("x", 65)) {
			t.Errorf("client name not cut: %s", s)
		}
	}
}

// Errors that are not about the arguments count as rule "other"; a nil
// error counts nothing.
func TestOnErrorRules(t *testing.T) {
	reader := sdkmetric.NewManualReader()
	m, err := otelcoerce.New(sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader)))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	m.OnError(ctx, "t", nil)
	m.OnError(ctx, "t", fmt.Errorf("schema: %w", coerce.ErrUnknownType))
	m.OnError(ctx, "t", fmt.Errorf("no schema"))
	m.OnChange(ctx, "t", coerce.Change{Rule: coerce.Fenced})
	want := []string{
		"coerce.rejected_calls gen_ai.tool.name=t = 2",
		"coerce.rejections coerce.rule=other,gen_ai.tool.name=t = 1",
		"coerce.rejections coerce.rule=unknown-type,gen_ai.tool.name=t = 1",
		"coerce.repairs coerce.rule=fenced,gen_ai.tool.name=t = 1",
	}
	if got := counts(t, reader); !slices.Equal(got, want) {
		t.Errorf("counters:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// On MCP 2026-07-28 each request names its client in _meta (SEP-2575): the
// counters count each call for the client its _meta names, not for the one
// that opened the session (a gateway's session carries many clients).
func TestCountersAttributeTheClientInMeta(t *testing.T) {
	reader := sdkmetric.NewManualReader()
	m, err := otelcoerce.New(sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader)))
	if err != nil {
		t.Fatal(err)
	}
	server := mcp.NewServer(&mcp.Implementation{Name: "s"}, nil)
	gosdkcoerce.Options{OnChange: m.OnChange, OnError: m.OnError}.Install(server)
	mcp.AddTool(server, &mcp.Tool{Name: "count"}, func(context.Context, *mcp.CallToolRequest, countArgs) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{}, nil, nil
	})
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "gateway", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	for _, c := range []struct {
		client *mcp.Implementation
		args   string
	}{
		{&mcp.Implementation{Name: "claude-code", Version: "2.1.0"}, `{"n": "5", "tags": []}`},
		{&mcp.Implementation{Name: "cursor", Version: "1.7"}, `{"n": "ten", "tags": []}`},
		{nil, `{"n": "6", "tags": []}`}, // the SDK's client names itself
	} {
		var meta mcp.Meta
		if c.client != nil {
			meta = mcp.Meta{mcp.MetaKeyClientInfo: c.client}
		}
		if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Meta: meta, Name: "count", Arguments: json.RawMessage(c.args)}); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{
		"coerce.rejected_calls client.name=cursor,client.version=1.7,gen_ai.tool.name=count = 1",
		"coerce.rejections client.name=cursor,client.version=1.7,coerce.rule=syntax,gen_ai.tool.name=count = 1",
		"coerce.repairs client.name=claude-code,client.version=2.1.0,coerce.rule=number-from-text,gen_ai.tool.name=count = 1",
		"coerce.repairs client.name=gateway,client.version=1,coerce.rule=number-from-text,gen_ai.tool.name=count = 1",
	}
	if got := counts(t, reader); !slices.Equal(got, want) {
		t.Errorf("counters:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// The repairs and rejections of tool results are counted apart from those
// of arguments, with coerce.part=result.
func TestCountersOfResults(t *testing.T) {
	reader := sdkmetric.NewManualReader()
	m, err := otelcoerce.New(sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader)))
	if err != nil {
		t.Fatal(err)
	}
	server := mcp.NewServer(&mcp.Implementation{Name: "s"}, nil)
	gosdkcoerce.Options{OnChange: m.OnChange, OnError: m.OnError}.Install(server)
	tool := &mcp.Tool{
		Name:         "count",
		InputSchema:  json.RawMessage(`{"type":"object","properties":{"n":{"type":"string"}}}`),
		OutputSchema: json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}`),
	}
	server.AddTool(tool, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var in struct{ N string }
		if err := json.Unmarshal(req.Params.Arguments, &in); err != nil {
			return nil, err
		}
		return &mcp.CallToolResult{StructuredContent: map[string]any{"n": in.N}}, nil
	})
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "claude-code", Version: "2.1.0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	for _, args := range []string{`{"n": 5}`, `{"n": "ten"}`} {
		if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "count", Arguments: json.RawMessage(args)}); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{
		"coerce.rejected_calls client.name=claude-code,client.version=2.1.0,coerce.part=result,gen_ai.tool.name=count = 1",
		"coerce.rejections client.name=claude-code,client.version=2.1.0,coerce.part=result,coerce.rule=syntax,gen_ai.tool.name=count = 1",
		"coerce.repairs client.name=claude-code,client.version=2.1.0,coerce.part=result,coerce.rule=number-from-text,gen_ai.tool.name=count = 1",
		"coerce.repairs client.name=claude-code,client.version=2.1.0,coerce.rule=number-to-text,gen_ai.tool.name=count = 1",
	}
	if got := counts(t, reader); !slices.Equal(got, want) {
		t.Errorf("counters:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
