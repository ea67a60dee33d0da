package anthropiccoerce

import (
	"encoding/json"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/coerce-go/coerce"
)

// ReplayToolUse returns block as the next request sends it back
// (block.ToParam()), with an input fit to replay: valid JSON, as
// [coerce.ReplayArgs] makes it. A block built from the text of a call
// cut off (a stream broken inside the input, the input_json_delta text a
// program gathered itself) holds {"query": "go", "lim, and block.ToParam()
// hands that text on as a json.RawMessage, which the SDK then fails to
// marshal: the next request is never sent. ReplayToolUse sends {} in its
// place, never the input closed into one the model did not write; a
// complete input stays as it is. Answer the block with the feedback of the
// error Unmarshal gave it, or of [Tools.Finished].
//
// message.ToParam() needs no such help for a message the SDK decoded or
// gathered with Message.Accumulate: anthropic-sdk-go v1.84.0 builds each
// block's param from the block's JSON, whose input is always valid (a
// cut-off input becomes {}).
func ReplayToolUse(block anthropic.ToolUseBlock) anthropic.ToolUseBlockParam {
	p := block.ToParam()
	p.Input = replayInput(p.Input)
	return p
}

// ReplayBetaToolUse is [ReplayToolUse] for a beta tool_use block.
func ReplayBetaToolUse(block anthropic.BetaToolUseBlock) anthropic.BetaToolUseBlockParam {
	p := block.ToParam()
	p.Input = replayInput(p.Input)
	return p
}

// replayInput returns the input of a tool_use param as valid JSON: text
// through coerce.ReplayArgs, any other value as it is if it marshals, and
// {} if it does not.
func replayInput(in any) any {
	switch v := in.(type) {
	case json.RawMessage:
		out, _ := coerce.ReplayArgs(v)
		return json.RawMessage(out)
	case []byte:
		out, _ := coerce.ReplayArgs(v)
		return json.RawMessage(out)
	case string:
		// An input is a JSON object: a string is text that should hold one.
		out, _ := coerce.ReplayArgs([]byte(v))
		return json.RawMessage(out)
	case nil:
		return json.RawMessage("{}")
	}
	if _, err := json.Marshal(in); err != nil {
		return json.RawMessage("{}")
	}
	return in
}
