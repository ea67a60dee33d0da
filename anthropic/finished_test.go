package anthropiccoerce_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/coerce-go/coerce"
	"github.com/coerce-go/coerce/anthropic"
)

// A message cut off by max_tokens runs none of its tool_use blocks, not
// even one whose input parses: the recorded tool_use reply, its
// stop_reason made "max_tokens". The model gets the cut-off feedback.
func TestCutOffMessageRunsNoTool(t *testing.T) {
	tools, err := anthropiccoerce.NewTools([]anthropic.ToolUnionParam{{OfTool: &anthropic.ToolParam{Name: "search_messages", InputSchema: inputSchema(t)}}})
	if err != nil {
		t.Fatal(err)
	}
	body := strings.Replace(string(recorded(t)), `"stop_reason": "tool_use"`, `"stop_reason": "max_tokens"`, 1)
	var m anthropic.Message
	if err := json.Unmarshal([]byte(body), &m); err != nil {
		t.Fatal(err)
	}
	err = tools.Finished(&m)
	var ie *anthropiccoerce.InputError
	if !errors.As(err, &ie) || !errors.Is(err, coerce.ErrTruncated) {
		t.Fatalf("got %v, want an InputError wrapping ErrTruncated", err)
	}
	if fb := anthropiccoerce.Feedback(err); !strings.Contains(fb, "cut off before their end, so the tool did not run") {
		t.Errorf("feedback:\n%s", fb)
	}
	var done anthropic.Message
	if err := json.Unmarshal(recorded(t), &done); err != nil {
		t.Fatal(err)
	}
	if err := tools.Finished(&done); err != nil {
		t.Errorf("a complete message: %v", err)
	}
	var beta anthropic.BetaMessage
	if err := json.Unmarshal([]byte(body), &beta); err != nil {
		t.Fatal(err)
	}
	bt, err := anthropiccoerce.NewBetaTools([]anthropic.BetaToolUnionParam{{OfTool: &anthropic.BetaToolParam{Name: "search_messages", InputSchema: betaInputSchema(t)}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := bt.Finished(&beta); !errors.Is(err, coerce.ErrTruncated) {
		t.Errorf("beta: got %v", err)
	}
}
