package gosdkcoerce_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/coerce-go/coerce/coercetest"
	"github.com/coerce-go/coerce/examples/gosdk/gosdkcoerce"
)

// Every way coercetest knows that clients break the echo tool's arguments,
// sent through the SDK's own client and server, which validate the typed
// tool's input: each must reach the handler as the valid arguments would.
func TestEveryClientBreakageReachesTheHandlerRepaired(t *testing.T) {
	var reg gosdkcoerce.Registry
	server := newServer()
	server.AddReceivingMiddleware(reg.Middleware())
	got := addEcho(t, &reg, server, "echo")
	cs := connect(t, server)

	schema, ok := reg.Schema("echo")
	if !ok {
		t.Fatal("echo is not in the registry")
	}
	valid := map[string]any{
		"tags":        []any{"a", "b"},
		"config":      map[string]any{"k": 1.0},
		"limit":       5,
		"path_params": `{"channel_id":"1458059302022549698"}`,
	}
	coercetest.AssertRepairsJSON(t, schema, mustJSON(t, valid)) // the schema alone, first

	variants := coercetest.Variants(schema, valid)
	t.Logf("%d variants", len(variants))
	if len(variants) < 10 {
		t.Fatalf("only %d variants", len(variants))
	}
	for _, v := range variants {
		res := call(t, cs, "echo", v.Args)
		if res.IsError {
			t.Errorf("%s: call failed: %s", v.Name, resultText(res))
			continue
		}
		var want args
		if err := json.Unmarshal(mustJSON(t, v.Want), &want); err != nil {
			t.Fatal(err)
		}
		if in := <-got; !reflect.DeepEqual(in, want) {
			t.Errorf("%s: handler got %#v, want %#v", v.Name, in, want)
		}
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	text, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return text
}
