// Package openaicoerce repairs the arguments that models send with their
// tool calls through github.com/openai/openai-go/v3, before a program decodes
// them: "[\"a\"]" for an array, "5" for an integer, "true" for a boolean, an
// object for a string that holds JSON text. Each argument is converted to the
// type the function's parameters declare, by the rules of package [coerce];
// arguments that already conform keep the bytes the model sent.
//
// A program that runs tools with the SDK hands the model's argument text
// straight to json.Unmarshal, and the SDK itself warns that "the model does
// not always generate valid JSON". One registry, built from the tools the
// request declared, replaces that line:
//
//	tools, err := openaicoerce.NewChatTools(params.Tools)
//	...
//	for _, call := range completion.Choices[0].Message.ToolCalls {
//		var in SearchArgs
//		if err := tools.Unmarshal(ctx, call, &in); err != nil {
//			// tell the model: err says which argument and why
//		}
//	}
//
// # Chat Completions and Responses
//
// [NewChatTools] takes the []openai.ChatCompletionToolUnionParam of a Chat
// Completions request, and its methods take the
// openai.ChatCompletionMessageToolCallUnion of a reply's ToolCalls, or, when
// streaming, the function part of the call that the SDK's
// ChatCompletionAccumulator.JustFinishedToolCall gives
// ([ChatTools.UnmarshalFunction]).
// [NewResponseTools] takes the []responses.ToolUnionParam of a Responses API
// request, functions inside namespace tools included, and its methods take a
// responses.ResponseFunctionToolCall (an output item's AsFunctionCall). Each
// compiles every function's parameter schema once; a registry is read-only
// afterwards and safe for concurrent use, so one built at start-up serves
// every request that sends the same tools.
//
// Arguments returns the repaired argument text, for a program that forwards
// it (to an MCP server, a queue, a log). Unmarshal decodes it into a Go value
// as json.Unmarshal would, after a second pass by [coerce.Unmarshal] against
// the value's Go type, which repairs what the schema leaves open. Integers
// beyond 2^53 keep every digit in both.
//
// # Errors
//
// An argument that cannot be converted ("a, b" for an array, "five" for an
// integer) is an error joining one [*coerce.Error] per parameter, with its
// JSON Pointer path; Arguments still converts the others and leaves those as
// sent, and Unmarshal writes nothing. The error's text is meant to be read,
// by a person or by the model, to which a program can return it as the tool's
// result so that it calls again with arguments that fit. [Options.OnError]
// hears every such error in one place, [Options.OnChange] and
// [Options.Logger] every repair, with the call's context and the function's
// name.
//
// A call to a function the registry does not know is passed through
// unchanged: the program's own dispatch answers for an unknown name.
//
// # Stop reasons
//
// A choice its output limit cut off (finish_reason "length"), or a response
// left incomplete at max_output_tokens, runs none of its calls, even one
// whose arguments parse: [ChatTools.Finished] and [ResponseTools.Finished]
// return an error wrapping [coerce.ErrTruncated], whose [Feedback] answers
// each call. [ReplayMessage] and [ReplayFunctionCall] send the model's turn
// back with each call's arguments valid JSON ([coerce.ReplayArgs]), which
// the SDK's ToParam does not ensure.
//
// # Streams
//
// [ChatTools.Stream] and [ResponseTools.Stream] read the function calls of
// a streamed reply as their arguments arrive, one [coerce.Stream] per call,
// keyed as the API keys them (choice and tool_calls[].index; the Responses
// API's item id). Add each chunk or event, beside the SDK's accumulator;
// [Options.OnPreview] is shown each call's [coerce.Partial] after each
// delta, for a UI. Close, once the stream has ended, decodes every call
// strictly: none of a turn cut off at the output limit, the others as
// Arguments decodes the same text, errors included; [ChatStream.Unmarshal]
// decodes a closed call into a Go value. No call may run before Close,
// since the finish reason comes last.
package openaicoerce
