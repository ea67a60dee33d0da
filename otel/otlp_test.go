package otelcoerce_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/coerce-go/coerce"
	"github.com/coerce-go/coerce/gosdk"
	"github.com/coerce-go/coerce/otel"
	"github.com/coerce-go/coerce/toolcall"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetrichttp"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	collectormetrics "go.opentelemetry.io/proto/otlp/collector/metrics/v1"
	"google.golang.org/protobuf/proto"
)

// exportOTLP exports rm with OpenTelemetry's OTLP/HTTP exporter, whose
// protobuf encoding refuses a string that is not valid UTF-8, to a
// collector in process, and returns the string attributes it received, as
// "key=value".
func exportOTLP(t *testing.T, rm *metricdata.ResourceMetrics) ([]string, error) {
	t.Helper()
	var mu sync.Mutex
	var got []string
	collector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		var req collectormetrics.ExportMetricsServiceRequest
		if err == nil {
			err = proto.Unmarshal(body, &req)
		}
		if err != nil {
			t.Errorf("the collector could not read the request: %v", err)
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		mu.Lock()
		defer mu.Unlock()
		for _, res := range req.ResourceMetrics {
			for _, sm := range res.ScopeMetrics {
				for _, m := range sm.Metrics {
					for _, dp := range m.GetSum().GetDataPoints() {
						for _, kv := range dp.Attributes {
							got = append(got, kv.Key+"="+kv.Value.GetStringValue())
						}
					}
				}
			}
		}
		w.Header().Set("Content-Type", "application/x-protobuf")
	}))
	t.Cleanup(collector.Close)
	ctx := context.Background()
	exp, err := otlpmetrichttp.New(ctx, otlpmetrichttp.WithEndpointURL(collector.URL+"/v1/metrics"), otlpmetrichttp.WithRetry(otlpmetrichttp.RetryConfig{Enabled: false}))
	if err != nil {
		t.Fatal(err)
	}
	defer exp.Shutdown(ctx)
	err = exp.Export(ctx, rm)
	mu.Lock()
	defer mu.Unlock()
	slices.Sort(got)
	return slices.Compact(got), err
}

// A client's name is cut at 64 bytes, at a character's boundary: cut in
// the middle of a character, it was invalid UTF-8, which OTLP's protobuf
// encoding refuses, and the exporter dropped the whole batch. Here each
// name reaches the counters from a real go-sdk client calling a server
// with coercion installed, and the batch goes through OTLP's exporter.
func TestClientNameCutAtRuneBoundaryExportsOverOTLP(t *testing.T) {
	for _, tt := range []struct{ test, name, want string }{
		{"40 é", strings.Repeat("é", 40), strings.Repeat("é", 32)},                   // 80 bytes: byte 64 starts an é
		{"a and 40 é", "a" + strings.Repeat("é", 40), "a" + strings.Repeat("é", 31)}, // byte 64 is inside an é
		{"30 €", strings.Repeat("€", 30), strings.Repeat("€", 21)},                   // 3 bytes each: 63 kept
		{"20 emoji", strings.Repeat("😀", 20), strings.Repeat("😀", 16)},               // 4 bytes each: 64 kept
	} {
		t.Run(tt.test, func(t *testing.T) {
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
			cs, err := mcp.NewClient(&mcp.Implementation{Name: tt.name, Version: tt.name}, nil).Connect(ctx, ct, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			for _, args := range []string{`{"n": "5", "tags": []}`, `{"n": "five", "tags": []}`} {
				if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "count", Arguments: json.RawMessage(args)}); err != nil {
					t.Fatal(err)
				}
			}

			var rm metricdata.ResourceMetrics
			if err := reader.Collect(ctx, &rm); err != nil {
				t.Fatal(err)
			}
			got, err := exportOTLP(t, &rm)
			if err != nil {
				t.Fatalf("OTLP export: %v", err)
			}
			for _, want := range []string{"client.name=" + tt.want, "client.version=" + tt.want} {
				if !slices.Contains(got, want) {
					t.Errorf("the collector got %q, want %s", got, want)
				}
			}
		})
	}
}

// Names that are not valid UTF-8, which a JSON-RPC peer cannot send but an
// integration may be handed, are written valid (each stray byte as U+FFFD)
// and cut as the others; a tool's name too, at 128 bytes.
func TestInvalidUTF8NamesExportOverOTLP(t *testing.T) {
	reader := sdkmetric.NewManualReader()
	m, err := otelcoerce.New(sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader)))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ tool, name, version string }{
		{"count", "bad\xffname", "1.\xc3"},
		{"count", strings.Repeat("é", 31) + "\xc3\xa9\xe2", "\xed\xa0\x80"}, // a cut rune after 62 bytes; a UTF-16 surrogate
		{"co\xfeunt" + strings.Repeat("x", 200), "\x80\x80\x80", ""},
	} {
		ctx := toolcall.WithClient(context.Background(), c.name, c.version)
		m.OnChange(ctx, c.tool, coerce.Change{Rule: coerce.NumberFromText})
		m.OnError(ctx, c.tool, coerce.ErrKind)
	}
	var rm metricdata.ResourceMetrics
	if err := reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	got, err := exportOTLP(t, &rm)
	if err != nil {
		t.Fatalf("OTLP export: %v", err)
	}
	for _, kv := range got {
		if !utf8.ValidString(kv) {
			t.Errorf("invalid UTF-8 exported: %q", kv)
		}
	}
	for _, want := range []string{
		"client.name=bad\uFFFDname", "client.version=1.\uFFFD",
		"client.name=" + strings.Repeat("é", 32), "client.version=\uFFFD\uFFFD\uFFFD",
		"client.name=\uFFFD\uFFFD\uFFFD",
		"gen_ai.tool.name=co\uFFFDunt" + strings.Repeat("x", 128-len("co\uFFFDunt")),
	} {
		if !slices.Contains(got, want) {
			t.Errorf("the collector got %q, want %q", got, want)
		}
	}
}
