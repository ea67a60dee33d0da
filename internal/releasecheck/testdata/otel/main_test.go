// Package main is the whole of a scratch module that tests the released otel module as a user gets it.
package main

import (
	"context"
	"testing"

	"github.com/coerce-go/coerce"
	"github.com/coerce-go/coerce/otel"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
)

// A repair made by the core, reported through the counters' OnChange as
// an integration reports it, is counted under its tool and rule.
func TestRepairIsCounted(t *testing.T) {
	reader := sdkmetric.NewManualReader()
	m, err := otelcoerce.New(sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader)))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	opts := coerce.Options{OnChange: func(c coerce.Change) { m.OnChange(ctx, "search", c) }}
	if _, err := opts.ToDeclared(`["a", "b"]`, "list[str]"); err != nil {
		t.Fatal(err)
	}
	var rm metricdata.ResourceMetrics
	if err := reader.Collect(ctx, &rm); err != nil {
		t.Fatal(err)
	}
	dp := rm.ScopeMetrics[0].Metrics[0].Data.(metricdata.Sum[int64]).DataPoints[0]
	rule, _ := dp.Attributes.Value(otelcoerce.RuleKey)
	if rm.ScopeMetrics[0].Metrics[0].Name != otelcoerce.RepairsName || rule.AsString() != "json-text" || dp.Value != 1 {
		t.Errorf("got %s %v = %d", rm.ScopeMetrics[0].Metrics[0].Name, dp.Attributes.ToSlice(), dp.Value)
	}
}
