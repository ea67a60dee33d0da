package anthropiccoerce_test

import (
	"encoding/json"
	"maps"
	"reflect"
	"testing"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/coerce-go/coerce"
	"github.com/coerce-go/coerce/anthropic"
	"github.com/coerce-go/coerce/coercetest"
)

// validSearch is an input of search_messages that conforms to
// searchParams, with integers beyond 2^53 in a string that holds JSON text
// and in an integer parameter.
var validSearch = map[string]any{
	"channel":      `{"guild_id":1458059302022549698,"name":"general"}`,
	"tags":         []any{"deploy", "rollback"},
	"limit":        25,
	"author_id":    json.Number("1458059302022549699"),
	"include_bots": false,
	"window":       map[string]any{"from": "2025-10-01", "days": 7},
}

func variants(t *testing.T, valid map[string]any) []coercetest.Variant {
	t.Helper()
	schema, err := coerce.ParseSchema([]byte(searchParams))
	if err != nil {
		t.Fatal(err)
	}
	coercetest.AssertRepairsJSON(t, schema, mustJSON(t, valid))
	vs := coercetest.Variants(schema, valid)
	if len(vs) < 30 {
		t.Fatalf("only %d variants", len(vs))
	}
	t.Logf("%d variants", len(vs))
	return vs
}

func want(t *testing.T, v coercetest.Variant) searchArgs {
	t.Helper()
	var w searchArgs
	if err := json.Unmarshal(mustJSON(t, v.Want), &w); err != nil {
		t.Fatal(err)
	}
	return w
}

// Every broken form coercetest knows of the valid input, as the input of
// the recorded tool_use block decoded with the SDK: encoding/json refuses
// each or decodes another value; Tools.Unmarshal and BetaTools.Unmarshal
// decode each into what the valid input means, and the text Input repairs
// decodes so with encoding/json alone.
func TestToolsEveryVariant(t *testing.T) {
	tools, err := anthropiccoerce.NewTools([]anthropic.ToolUnionParam{{OfTool: &anthropic.ToolParam{Name: "search_messages", InputSchema: inputSchema(t)}}})
	if err != nil {
		t.Fatal(err)
	}
	beta, err := anthropiccoerce.NewBetaTools([]anthropic.BetaToolUnionParam{{OfTool: &anthropic.BetaToolParam{Name: "search_messages", InputSchema: betaInputSchema(t)}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range variants(t, validSearch) {
		sent := json.RawMessage(mustJSON(t, v.Args))
		w := want(t, v)
		var plain searchArgs
		if err := json.Unmarshal(sent, &plain); err == nil && reflect.DeepEqual(plain, w) {
			t.Errorf("%s: encoding/json decodes %s as is", v.Name, sent)
		}
		body := recorded(t, sent)
		use, betaUse := toolUse(t, body), betaToolUse(t, body)
		for api, decode := range map[string]func(*searchArgs) error{
			"Tools.Unmarshal":     func(in *searchArgs) error { return tools.Unmarshal(t.Context(), use, in) },
			"BetaTools.Unmarshal": func(in *searchArgs) error { return beta.Unmarshal(t.Context(), betaUse, in) },
			"Tools.Input": func(in *searchArgs) error {
				raw, err := tools.Input(t.Context(), use)
				if err != nil {
					return err
				}
				return json.Unmarshal(raw, in)
			},
		} {
			var in searchArgs
			if err := decode(&in); err != nil {
				t.Errorf("%s, %s: %v\n\tsent %s", v.Name, api, err, sent)
			} else if !reflect.DeepEqual(in, w) {
				t.Errorf("%s, %s: got %+v, want %+v\n\tsent %s", v.Name, api, in, w, sent)
			}
		}
	}
}

// Every broken form, sent by the recorded API to the SDK's tool runner,
// reaches a wrapped tool as the valid input, and the runner sends back a
// successful tool_result. The integers stay below 2^53 here: the runner
// rounds larger ones that the model sends as numbers before any tool sees
// them (TestRunnerRoundsBigIntegers).
func TestRunnerEveryVariant(t *testing.T) {
	valid := maps.Clone(validSearch)
	valid["channel"] = `{"guild_id":1458059302,"name":"general"}`
	valid["author_id"] = 1458059302
	a := newAPI(t)
	got := make(chan searchArgs, 1)
	tools := anthropiccoerce.WrapTools(searchTool(t, got))
	for _, v := range variants(t, valid) {
		sent := json.RawMessage(mustJSON(t, v.Args))
		a.setInput(sent)
		results := a.run(t, tools)
		if len(results) != 1 || results[0]["is_error"] == true {
			t.Errorf("%s: the runner sent %v\n\tsent %s", v.Name, results, sent)
			continue
		}
		if in, w := <-got, want(t, v); !reflect.DeepEqual(in, w) {
			t.Errorf("%s: got %+v, want %+v\n\tsent %s", v.Name, in, w, sent)
		}
	}
}
