package mcpgocoerce_test

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/coerce-go/coerce"
	"github.com/coerce-go/coerce/coercetest"
	"github.com/coerce-go/coerce/mcpgo"
	"github.com/mark3labs/mcp-go/mcp"
)

// variantsSchema declares a parameter of each kind that clients break.
const variantsSchema = `{
	"type": "object",
	"properties": {
		"tags":    {"type": "array", "items": {"type": "string"}},
		"meta":    {"type": "object"},
		"count":   {"type": "integer"},
		"id":      {"type": "integer"},
		"ratio":   {"type": "number"},
		"verbose": {"type": "boolean"},
		"since":   {"type": ["integer", "null"]},
		"filter":  {"type": "string"},
		"code":    {"type": "string"}
	},
	"required": ["tags", "count"]
}`

// variantArgs are the arguments of variantsSchema as a typed handler binds
// them.
type variantArgs struct {
	Tags    []string       `json:"tags"`
	Meta    map[string]any `json:"meta"`
	Count   int            `json:"count"`
	ID      int64          `json:"id"`
	Ratio   float64        `json:"ratio"`
	Verbose bool           `json:"verbose"`
	Since   *int           `json:"since"`
	Filter  string         `json:"filter"`
	Code    string         `json:"code"`
}

func validVariantArgs() map[string]any {
	return map[string]any{
		"tags":    []any{"a", "b"},
		"meta":    map[string]any{"k": 1},
		"count":   5,
		"id":      int64(9007199254740993), // 2^53+1: no float64 holds it
		"ratio":   2.5,
		"verbose": true,
		"since":   nil,
		"filter":  `{"channel_id":"1458059302022549698"}`,
		"code":    "5",
	}
}

// Every way coercetest knows that clients break arguments, sent through
// mcp-go's own client and server with input validation on, reaches both
// kinds of handler repaired: one reading GetArguments (Params.Arguments) and
// a typed one binding Params.RawArguments.
func TestEveryClientBreakageReachesTheHandlerRepaired(t *testing.T) {
	schema, err := coerce.ParseSchema([]byte(variantsSchema))
	if err != nil {
		t.Fatal(err)
	}
	valid := validVariantArgs()
	coercetest.AssertRepairs(t, schema, valid) // the schema alone, first
	variants := coercetest.Variants(schema, valid)
	if len(variants) < 20 {
		t.Fatalf("only %d variants", len(variants))
	}

	s := newServer(mcpgocoerce.Install)
	var untyped recorder
	s.AddTool(mcp.NewTool("untyped", mcp.WithRawInputSchema(json.RawMessage(variantsSchema))), untyped.handle)
	typed := make(chan variantArgs, 1)
	s.AddTool(mcp.NewTool("typed", mcp.WithRawInputSchema(json.RawMessage(variantsSchema))),
		mcp.NewTypedToolHandler(func(_ context.Context, _ mcp.CallToolRequest, args variantArgs) (*mcp.CallToolResult, error) {
			typed <- args
			return mcp.NewToolResultText("ok"), nil
		}))
	c := connect(t, s)

	for _, v := range variants {
		if res := call(t, c, "untyped", v.Args); res.IsError {
			t.Errorf("%s: untyped call failed: %s", v.Name, text(t, res))
		} else if got, want := asDecoded(t, untyped.last(t).GetArguments()), asDecoded(t, v.Want); !reflect.DeepEqual(got, want) {
			// mcp-go decodes numbers to float64: compare through JSON.
			t.Errorf("%s: GetArguments() = %#v, want %#v", v.Name, got, want)
		}

		if res := call(t, c, "typed", v.Args); res.IsError {
			t.Errorf("%s: typed call failed: %s", v.Name, text(t, res))
		} else if got, want := <-typed, bound(t, v.Want); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: typed handler got %+v, want %+v", v.Name, got, want)
		}
	}
	t.Logf("%d variants", len(variants))
}

// asDecoded is v encoded as JSON and decoded again, as mcp-go decodes it.
func asDecoded(t *testing.T, v any) any {
	t.Helper()
	text, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(text, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// bound is args as a typed handler gets them.
func bound(t *testing.T, args map[string]any) variantArgs {
	t.Helper()
	text, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	var out variantArgs
	if err := json.Unmarshal(text, &out); err != nil {
		t.Fatal(err)
	}
	return out
}
