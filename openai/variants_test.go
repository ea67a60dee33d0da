package openaicoerce_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/coerce-go/coerce"
	"github.com/coerce-go/coerce/coercetest"
	"github.com/coerce-go/coerce/openai"
)

// validSearch is a call to search_messages that conforms to searchParams,
// with integers beyond 2^53 in a string that holds JSON text and in an
// integer parameter.
var validSearch = map[string]any{
	"channel":      `{"guild_id":1458059302022549698,"name":"general"}`,
	"tags":         []any{"deploy", "rollback"},
	"limit":        25,
	"author_id":    json.Number("1458059302022549699"),
	"include_bots": false,
	"window":       map[string]any{"from": "2025-10-01", "days": 7},
}

// Every broken form coercetest knows of the valid call, sent as the
// arguments of a recorded reply of each API and decoded with the SDK:
// encoding/json refuses each or decodes another value; Unmarshal decodes
// each into what the valid call means, and the text Arguments repairs
// decodes so with encoding/json alone.
func TestEveryVariant(t *testing.T) {
	schema, err := coerce.ParseSchema([]byte(searchParams))
	if err != nil {
		t.Fatal(err)
	}
	coercetest.AssertRepairsJSON(t, schema, mustJSON(t, validSearch))
	variants := coercetest.Variants(schema, validSearch)
	if len(variants) < 30 {
		t.Fatalf("only %d variants", len(variants))
	}
	t.Logf("%d variants", len(variants))

	chat, err := openaicoerce.NewChatTools(chatTools(t))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := openaicoerce.NewResponseTools(responseTools(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range variants {
		sent := string(mustJSON(t, v.Args))
		var want searchArgs
		if err := json.Unmarshal(mustJSON(t, v.Want), &want); err != nil {
			t.Fatal(err)
		}
		var plain searchArgs
		if err := json.Unmarshal([]byte(sent), &plain); err == nil && reflect.DeepEqual(plain, want) {
			t.Errorf("%s: encoding/json decodes %s as is", v.Name, sent)
		}

		chatCall := chatCall(t, recorded(t, "testdata/chat_completion.json", sent))
		respCall := responseCalls(t, recorded(t, "testdata/response.json", sent))[0]
		for api, got := range map[string]func(*searchArgs) error{
			"chat Unmarshal":     func(in *searchArgs) error { return chat.Unmarshal(t.Context(), chatCall, in) },
			"response Unmarshal": func(in *searchArgs) error { return resp.Unmarshal(t.Context(), respCall, in) },
			"chat Arguments": func(in *searchArgs) error {
				raw, err := chat.Arguments(t.Context(), chatCall)
				if err != nil {
					return err
				}
				return json.Unmarshal(raw, in)
			},
			"response Arguments": func(in *searchArgs) error {
				raw, err := resp.Arguments(t.Context(), respCall)
				if err != nil {
					return err
				}
				return json.Unmarshal(raw, in)
			},
		} {
			var in searchArgs
			if err := got(&in); err != nil {
				t.Errorf("%s, %s: %v\n\tsent %s", v.Name, api, err, sent)
			} else if !reflect.DeepEqual(in, want) {
				t.Errorf("%s, %s: got %+v, want %+v\n\tsent %s", v.Name, api, in, want, sent)
			}
		}
	}
}
