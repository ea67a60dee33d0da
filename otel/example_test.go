package otelcoerce_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"

	"github.com/coerce-go/coerce/gosdk"
	"github.com/coerce-go/coerce/otel"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
)

type ListArgs struct {
	Limit int      `json:"limit"`
	Tags  []string `json:"tags"`
}

// A go-sdk server counts the repairs and rejections of its calls; a
// client calls it twice, once with a repairable call and once with one
// that cannot be fixed.
func Example() {
	reader := sdkmetric.NewManualReader() // in production: a periodic reader and an exporter
	m, err := otelcoerce.New(sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader)))
	if err != nil {
		log.Fatal(err)
	}
	server := mcp.NewServer(&mcp.Implementation{Name: "issues"}, nil)
	gosdkcoerce.Options{OnChange: m.OnChange, OnError: m.OnError}.Install(server)
	mcp.AddTool(server, &mcp.Tool{Name: "list"}, func(context.Context, *mcp.CallToolRequest, ListArgs) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{}, nil, nil
	})

	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, st, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "host", Version: "1.0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer cs.Close()
	for _, args := range []string{`{"limit": "10", "tags": "[\"bug\"]"}`, `{"limit": "ten", "tags": []}`} {
		if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "list", Arguments: json.RawMessage(args)}); err != nil {
			log.Fatal(err)
		}
	}

	var rm metricdata.ResourceMetrics
	if err := reader.Collect(ctx, &rm); err != nil {
		log.Fatal(err)
	}
	for _, metric := range rm.ScopeMetrics[0].Metrics {
		for _, dp := range metric.Data.(metricdata.Sum[int64]).DataPoints {
			rule, _ := dp.Attributes.Value(otelcoerce.RuleKey)
			fmt.Println(metric.Name, rule.String(), dp.Value)
		}
	}
	// Unordered output:
	// coerce.repairs number-from-text 1
	// coerce.repairs json-text 1
	// coerce.rejected_calls  1
	// coerce.rejections syntax 1
}
