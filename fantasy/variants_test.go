package fantasycoerce_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"charm.land/fantasy"
	"github.com/coerce-go/coerce"
	"github.com/coerce-go/coerce/coercetest"
	fantasycoerce "github.com/coerce-go/coerce/fantasy"
)

// validSearch is a conforming call of the typed search tool, with an
// integer beyond 2^53 in an int64 field and JSON text in a string.
var validSearch = map[string]any{
	"query":   "go generics",
	"limit":   10,
	"tags":    []any{"go", "generics"},
	"verbose": true,
	"score":   0.5,
	"tasks":   []any{map[string]any{"id": json.Number("9007199254740993"), "title": "x"}},
	"config":  `{"channel_id":"1458059302022549698"}`,
	"owner":   map[string]any{"id": 1, "title": "me"},
}

// offeredSchema compiles the input schema fantasy offers the model for the
// named tool, as the model received it.
func offeredSchema(t *testing.T, tool fantasy.AgentTool) *coerce.Schema {
	t.Helper()
	model := newModel()
	run(t, false, model, fantasy.WithTools(tool))
	schema, err := coerce.ParseSchema(model.offered(t, tool.Info().Name))
	if err != nil {
		t.Fatal(err)
	}
	return schema
}

// Every broken form coercetest makes of a conforming call of a typed tool,
// written by the model as the call's input: without fantasycoerce, fantasy
// hands each to the tool, which fails to decode it; with it, each arrives
// as the conforming call would, under Generate and Stream alike.
func TestTypedToolRepairsEveryVariant(t *testing.T) {
	probe, _ := typedTool[searchInput]("search", false)
	schema := offeredSchema(t, probe)
	coercetest.AssertRepairsJSON(t, schema, mustJSON(t, validSearch))
	variants := coercetest.Variants(schema, validSearch)
	if len(variants) < 30 {
		t.Fatalf("only %d variants", len(variants))
	}
	t.Logf("%d variants", len(variants))
	var calls []fantasy.Content
	for i, v := range variants {
		calls = append(calls, toolCall(fmt.Sprint(i), "search", string(mustJSON(t, v.Args))))
	}

	t.Run("without", func(t *testing.T) {
		search, _ := typedTool[searchInput]("search", false)
		r := results(run(t, false, newModel(calls), fantasy.WithTools(search)))
		for i, v := range variants {
			if res := r[fmt.Sprint(i)]; res == "ok" {
				t.Errorf("%s: the tool took it without coercion", v.Name)
			}
		}
	})
	for _, mode := range modes {
		t.Run(mode.name, func(t *testing.T) {
			search, got := typedTool[searchInput]("search", mode.stream)
			r := results(runCoerced(t, mode.stream, newModel(calls), fantasycoerce.Options{}, search))
			for i, v := range variants {
				id := fmt.Sprint(i)
				if r[id] != "ok" {
					t.Errorf("%s: %s", v.Name, r[id])
					continue
				}
				var want searchInput
				if err := json.Unmarshal(mustJSON(t, v.Want), &want); err != nil {
					t.Fatal(err)
				}
				if in, _ := got.get(id); !reflect.DeepEqual(in, want) {
					t.Errorf("%s: tool got %+v, want %+v", v.Name, in, want)
				}
			}
		})
	}
}

// rawParameters are the parameters of a tool with a hand-written schema, as
// an MCP bridge passes them on: type arrays for optional values (fantasy
// rewrites them as anyOf for the model), anyOf, a nested object, a string
// parameter that holds JSON text.
const rawParameters = `{
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
}`

var validRaw = map[string]any{
	"ids":         []any{1, json.Number("9007199254740993")},
	"filter":      map[string]any{"tags": []any{"a"}, "min": 0.5, "deep": map[string]any{"on": true}},
	"limit":       10,
	"mode":        "fast",
	"path_params": `{"channel_id":1458059302022549698}`,
}

// The same for a tool with a hand-written schema, which gets the input
// text: it receives exactly what coercion made, integers beyond 2^53 with
// every digit.
func TestRawToolRepairsEveryVariant(t *testing.T) {
	schema := offeredSchema(t, newRawTool("raw", rawParameters))
	coercetest.AssertRepairsJSON(t, schema, mustJSON(t, validRaw))
	variants := coercetest.Variants(schema, validRaw)
	if len(variants) < 30 {
		t.Fatalf("only %d variants", len(variants))
	}
	t.Logf("%d variants", len(variants))
	var calls []fantasy.Content
	for i, v := range variants {
		calls = append(calls, toolCall(fmt.Sprint(i), "raw", string(mustJSON(t, v.Args))))
	}
	for _, mode := range modes {
		t.Run(mode.name, func(t *testing.T) {
			raw := newRawTool("raw", rawParameters)
			runCoerced(t, mode.stream, newModel(calls), fantasycoerce.Options{}, raw)
			for i, v := range variants {
				in, ok := raw.rec.get(fmt.Sprint(i))
				if !ok {
					t.Errorf("%s: the tool did not run", v.Name)
					continue
				}
				if diff := diffJSON(mustJSON(t, v.Want), []byte(in)); diff != "" {
					t.Errorf("%s: sent %s, tool got %s:\n%s", v.Name, mustJSON(t, v.Args), in, diff)
				}
			}
		})
	}
}

// Integers beyond 2^53 keep their digits all the way to the tool: fantasy
// checks the input by decoding it into map[string]any (float64 numbers),
// but hands the tool the text, and coerce rewrites only the values that
// need it. A typed tool then decodes them with encoding/json, exactly into
// int64, uint64 and json.Number fields, rounded into float64 and any.
func TestIntegersBeyond2To53(t *testing.T) {
	type bigInput struct {
		ID     int64       `json:"id"`
		U      uint64      `json:"u"`
		N      json.Number `json:"n"`
		Text   string      `json:"text"`
		IDs    []int64     `json:"ids"`
		AsF    float64     `json:"as_f"`
		Opaque any         `json:"opaque,omitempty"`
	}
	for _, mode := range modes {
		t.Run(mode.name, func(t *testing.T) {
			tool, got := typedTool[bigInput]("big", mode.stream)
			model := newModel([]fantasy.Content{
				toolCall("strings", "big", `{"id": "9007199254740993", "u": "18446744073709551615", "n": 9007199254740993,
					"text": {"channel_id": 1458059302022549698}, "ids": "[9007199254740993, \"9007199254740995\"]", "as_f": "9007199254740993"}`),
				// The whole input double-encoded: the repair hook unwraps it
				// keeping each number's text.
				toolCall("hook", "big", `"{\"id\": 9007199254740993, \"u\": 1, \"n\": 9007199254740993, \"text\": \"\", \"ids\": [], \"as_f\": 1}"`),
			})
			runCoerced(t, mode.stream, model, fantasycoerce.Options{}, tool)
			want := bigInput{ID: 9007199254740993, U: 18446744073709551615, N: "9007199254740993",
				Text: `{"channel_id":1458059302022549698}`, IDs: []int64{9007199254740993, 9007199254740995}, AsF: 9007199254740992}
			if in, _ := got.get("strings"); !reflect.DeepEqual(in, want) {
				t.Errorf("tool got %+v, want %+v", in, want)
			}
			want = bigInput{ID: 9007199254740993, U: 1, N: "9007199254740993", IDs: []int64{}, AsF: 1}
			if in, _ := got.get("hook"); !reflect.DeepEqual(in, want) {
				t.Errorf("tool got %+v, want %+v", in, want)
			}
		})
	}
}
