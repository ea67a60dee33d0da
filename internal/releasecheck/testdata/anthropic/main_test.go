// Release check: a tool for anthropic-sdk-go's tool runner wrapped with github.com/coerce-go/coerce/anthropic, as a user's module builds it.
package main

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/toolrunner"
	"github.com/coerce-go/coerce/anthropic"
)

type searchArgs struct {
	Tags  []string `json:"tags" jsonschema:"required"`
	Limit int      `json:"limit" jsonschema:"required"`
}

// The runner calls Execute with the tool_use block's input: an array as
// JSON text and an integer as a string reach the tool repaired.
func TestBrokenCallIsRepaired(t *testing.T) {
	got := make(chan searchArgs, 1)
	tool, err := toolrunner.NewBetaToolFromJSONSchema("search", "Search.", func(_ context.Context, in searchArgs) (anthropic.BetaToolResultBlockParamContentUnion, error) {
		got <- in
		return anthropic.BetaToolResultBlockParamContentUnion{OfText: &anthropic.BetaTextBlockParam{Text: "ok"}}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := anthropiccoerce.WrapTool(tool).Execute(t.Context(), json.RawMessage(`{"tags": "[\"a\", \"b\"]", "limit": "5"}`)); err != nil {
		t.Fatal(err)
	}
	if in, want := <-got, (searchArgs{Tags: []string{"a", "b"}, Limit: 5}); !reflect.DeepEqual(in, want) {
		t.Errorf("the tool got %+v, want %+v", in, want)
	}
}
