package gosdkcoerce_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/coerce-go/coerce/coercetest"
	"github.com/coerce-go/coerce/gosdk"
)

// searchArgs is the input of a typed tool: a parameter of each kind that
// hosts get wrong, a nested object, and an optional one, whose inferred
// schema is {"type": ["null", "object"]}.
type searchArgs struct {
	Tags       []string       `json:"tags"`
	Config     map[string]any `json:"config"`
	Limit      int            `json:"limit"`
	Exact      bool           `json:"exact"`
	Score      float64        `json:"score"`
	PathParams string         `json:"path_params"`
	Filter     filter         `json:"filter"`
	Window     *window        `json:"window"`
}

type filter struct {
	IDs  []int  `json:"ids"`
	Mode string `json:"mode"`
}

type window struct {
	From int `json:"from"`
	To   int `json:"to"`
}

var validSearch = map[string]any{
	"tags":        []any{"a", "b"},
	"config":      map[string]any{"k": 1},
	"limit":       5,
	"exact":       true,
	"score":       0.5,
	"path_params": `{"channel_id":"1458059302022549698"}`,
	"filter":      map[string]any{"ids": []any{1, 2}, "mode": "any"},
	"window":      map[string]any{"from": 1, "to": 9},
}

// Every way coercetest knows that clients break a typed tool's arguments,
// sent by the SDK's client to the SDK's server, which validates them
// against the schema mcp.AddTool inferred: without coercion the SDK rejects
// each; with it, each reaches the handler as the valid arguments would.
func TestTypedToolRepairsEveryVariant(t *testing.T) {
	plain, coerced := newServer(nil), newServer(nil)
	gosdkcoerce.Install(coerced)
	addTyped[searchArgs](plain, "search")
	got := addTyped[searchArgs](coerced, "search")
	plainCS, cs := connect(t, plain, client{}), connect(t, coerced, client{})

	schema := listedSchema(t, cs, "search")
	coercetest.AssertRepairsJSON(t, schema, mustJSON(t, validSearch)) // the schema alone, first
	variants := coercetest.Variants(schema, validSearch)
	if len(variants) < 20 {
		t.Fatalf("only %d variants", len(variants))
	}
	t.Logf("%d variants", len(variants))

	for _, v := range variants {
		if res := call(t, plainCS, "search", v.Args); !res.IsError {
			t.Errorf("%s: accepted without coercion", v.Name)
		}
		res := call(t, cs, "search", v.Args)
		if res.IsError {
			t.Errorf("%s: %s", v.Name, resultText(res))
			continue
		}
		var want searchArgs
		if err := json.Unmarshal(mustJSON(t, v.Want), &want); err != nil {
			t.Fatal(err)
		}
		if in := <-got; !reflect.DeepEqual(in, want) {
			t.Errorf("%s: handler got %+v, want %+v", v.Name, in, want)
		}
	}
}

// rawSchema is a hand-written input schema of the kind tools added with
// Server.AddTool carry: type arrays for optional values, anyOf, a nested
// object, and a string parameter that holds JSON text.
const rawSchema = `{
	"type": "object",
	"properties": {
		"ids":         {"type": ["null", "array"], "items": {"type": "integer"}},
		"filter":      {
			"type": "object",
			"properties": {
				"tags": {"type": "array", "items": {"type": "string"}},
				"min":  {"type": "number"},
				"deep": {"type": "object", "properties": {"on": {"type": "boolean"}}}
			}
		},
		"limit":       {"type": ["integer", "null"]},
		"mode":        {"anyOf": [{"type": "string"}, {"type": "null"}]},
		"path_params": {"type": "string"}
	}
}`

// validRaw holds, in a string parameter, JSON text with an integer beyond
// 2^53: the variant that sends it as an object must come back as text with
// every digit.
var validRaw = map[string]any{
	"ids":         []any{1, 2},
	"filter":      map[string]any{"tags": []any{"a"}, "min": 0.5, "deep": map[string]any{"on": true}},
	"limit":       10,
	"mode":        "fast",
	"path_params": `{"channel_id":1458059302022549698}`,
}

// The same for a tool added with Server.AddTool, whose handler gets the raw
// bytes: the SDK does not validate them, so the handler sees exactly what
// coercion made.
func TestRawToolRepairsEveryVariant(t *testing.T) {
	server := newServer(nil)
	gosdkcoerce.Install(server)
	got := addRaw(server, "raw", json.RawMessage(rawSchema))
	cs := connect(t, server, client{})

	schema := listedSchema(t, cs, "raw")
	coercetest.AssertRepairsJSON(t, schema, mustJSON(t, validRaw))
	variants := coercetest.Variants(schema, validRaw)
	if len(variants) < 20 {
		t.Fatalf("only %d variants", len(variants))
	}
	t.Logf("%d variants", len(variants))
	for _, v := range variants {
		sent := mustJSON(t, v.Args)
		if res := call(t, cs, "raw", json.RawMessage(sent)); res.IsError {
			t.Fatalf("%s: %s", v.Name, resultText(res))
		}
		if diff := diffJSON(mustJSON(t, v.Want), <-got); diff != "" {
			t.Errorf("%s: sent %s, handler got (-want +got):\n%s", v.Name, sent, diff)
		}
	}
}
