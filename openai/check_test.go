package openaicoerce_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/coerce-go/coerce"
	"github.com/coerce-go/coerce/openai"
	"github.com/openai/openai-go/v3"
)

// A misspelt name against a closed schema that requires the right one is
// an error, not a nil one, and the feedback for the model is one call
// away: what coercion leaves to a validator is checked before any tool
// runs.
func TestArgumentsCheckedBeforeTheToolRuns(t *testing.T) {
	tools, err := openaicoerce.NewChatTools([]openai.ChatCompletionToolUnionParam{
		openai.ChatCompletionFunctionTool(openai.FunctionDefinitionParam{
			Name: "search",
			Parameters: openai.FunctionParameters{
				"type": "object", "additionalProperties": false, "required": []string{"query"},
				"properties": map[string]any{"query": map[string]any{"type": "string"}, "order": map[string]any{"enum": []string{"asc", "desc"}}},
			},
		}),
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ args, want string }{
		{`{"qurey": "go"}`, "- /query: missing, and required: a string."},
		{`{"query": "go", "order": "sideways"}`, `- /order: expected one of: "asc", "desc"; found the string "sideways".`},
	} {
		f := openai.ChatCompletionMessageFunctionToolCallFunction{Name: "search", Arguments: tc.args}
		_, err := tools.FunctionArguments(t.Context(), f)
		var ae *openaicoerce.ArgumentsError
		if !errors.As(err, &ae) || ae.Function != "search" || !errors.Is(err, coerce.ErrMissing) && !errors.Is(err, coerce.ErrEnum) {
			t.Errorf("%s: got %v", tc.args, err)
			continue
		}
		if fb := openaicoerce.Feedback(err); !strings.Contains(fb, tc.want) {
			t.Errorf("%s: feedback\n%s\nwant it to hold %q", tc.args, fb, tc.want)
		}
	}
	if _, err := tools.FunctionArguments(t.Context(), openai.ChatCompletionMessageFunctionToolCallFunction{Name: "search", Arguments: `{"query": "go", "order": "ASC"}`}); err != nil {
		t.Errorf("a respelled enum value: %v", err)
	}
}
