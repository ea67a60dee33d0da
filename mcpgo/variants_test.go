package mcpgocoerce_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/coerce-go/coerce"
	"github.com/coerce-go/coerce/coercetest"
	"github.com/coerce-go/coerce/mcpgo"
)

// Every way coercetest knows that clients break the echo tool's arguments,
// sent through mcp-go's own client and server with validation on: each must
// reach the handler as the valid arguments would.
func TestEveryClientBreakageReachesTheHandlerRepaired(t *testing.T) {
	tool := echoTool()
	schemaText, err := json.Marshal(tool.InputSchema)
	if err != nil {
		t.Fatal(err)
	}
	schema, err := coerce.ParseSchema(schemaText)
	if err != nil {
		t.Fatal(err)
	}
	coercetest.AssertRepairs(t, schema, correctArgs()) // the schema alone, first

	s := newServer(mcpgocoerce.Install)
	var rec recorder
	s.AddTool(tool, rec.handle)
	c := connect(t, s)
	variants := coercetest.Variants(schema, correctArgs())
	t.Logf("%d variants", len(variants))
	if len(variants) < 10 {
		t.Fatalf("only %d variants", len(variants))
	}
	for _, v := range variants {
		res := call(t, c, tool.Name, v.Args)
		if res.IsError {
			t.Errorf("%s: call failed: %s", v.Name, text(t, res))
			continue
		}
		// mcp-go hands the handler numbers as float64: compare through JSON.
		if got, want := asDecoded(t, rec.last(t).GetArguments()), asDecoded(t, v.Want); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: handler got %#v, want %#v", v.Name, got, want)
		}
	}
}

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
