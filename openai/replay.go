package openaicoerce

import (
	"github.com/coerce-go/coerce"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"
)

// ReplayMessage returns the assistant's message as the next request sends it
// back (msg.ToParam()), with the arguments of each function call fit to
// replay: valid JSON, as [coerce.ReplayArgs] makes them. The SDK copies a
// call's arguments as the model wrote them, and a call cut off by the output
// limit (finish_reason "length") holds them as far as they came
// ({"query": "go", "lim), which the API refuses in a later request's
// history. ReplayMessage sends {} in their place, never the arguments closed
// into ones the model did not write; arguments that are JSON stay as they
// are, and custom tool calls, whose input is free text, too.
//
// Append it before the tool messages that answer its calls: for a turn
// [ChatTools.Finished] refuses, each answer is Feedback of its error.
func ReplayMessage(msg openai.ChatCompletionMessage) openai.ChatCompletionMessageParamUnion {
	p := msg.ToParam()
	a := p.OfAssistant
	for _, call := range a.ToolCalls {
		if f := call.OfFunction; f != nil {
			f.Function.Arguments = replayArgs(f.Function.Arguments)
		}
	}
	return p
}

// ReplayFunctionCall returns a Responses API function call as an input item
// of the next request, with its arguments fit to replay, as [ReplayMessage]
// does for Chat Completions: the call's own param (call.ToParam()) when its
// arguments are JSON, otherwise the call with {} as its arguments. Use it for
// the output items of a response [ResponseTools.Finished] refuses, when the
// conversation is sent back as input rather than by previous_response_id.
func ReplayFunctionCall(call responses.ResponseFunctionToolCall) responses.ResponseInputItemUnionParam {
	if _, changed := coerce.ReplayArgs([]byte(call.Arguments)); !changed && call.RawJSON() != "" {
		p := call.ToParam()
		return responses.ResponseInputItemUnionParam{OfFunctionCall: &p}
	}
	p := responses.ResponseFunctionToolCallParam{
		Arguments: replayArgs(call.Arguments),
		CallID:    call.CallID,
		Name:      call.Name,
		Status:    call.Status,
	}
	if call.ID != "" {
		p.ID = openai.String(call.ID)
	}
	if call.Namespace != "" {
		p.Namespace = openai.String(call.Namespace)
	}
	if call.Async {
		p.Async = openai.Bool(true)
	}
	return responses.ResponseInputItemUnionParam{OfFunctionCall: &p}
}

func replayArgs(args string) string {
	out, changed := coerce.ReplayArgs([]byte(args))
	if !changed {
		return args
	}
	return string(out)
}
