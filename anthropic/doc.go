// Package anthropiccoerce repairs the input that Claude sends with its
// tool_use blocks through github.com/anthropics/anthropic-sdk-go, before a
// tool decodes it: "[\"a\"]" for an array, "5" for an integer, "true" for a
// boolean, an object for a string that holds JSON text. Each parameter is
// converted to the type the tool's input schema declares, by the rules of
// package [coerce]; input that already conforms keeps the bytes the model
// sent.
//
// The SDK hands a tool_use block's input to json.Unmarshal as it came, and
// leaves validation to "a validator library of [your] choosing". This
// package is the repair that goes before it, in two forms.
//
// # The tool runner
//
// For client.Beta.Messages.NewToolRunner (and NewToolRunnerStreaming),
// [WrapTools] wraps the tools the runner is given. A wrapped tool keeps the
// name, description and input schema of the one it wraps, so the model sees
// the same tool; its Execute repairs the input against that schema, compiled
// once, and then runs the tool:
//
//	runner := client.Beta.Messages.NewToolRunner(anthropiccoerce.WrapTools(search, lookup), params)
//
// What cannot be converted reaches the tool as the model sent it, so the
// tool fails as it would have without coercion and the runner sends the
// model its error; [Options.OnError] hears where and why.
//
// The runner re-encodes a block's input from a Go value whose numbers are
// float64s before any tool sees it (SDK v1.84.0), so an integer beyond 2^53
// reaches a tool already rounded, wrapped or not; a tool that takes such ids
// must declare them strings, or handle the blocks itself with [BetaTools].
//
// # Handling tool_use blocks yourself
//
// [NewTools] builds a registry from the []anthropic.ToolUnionParam a
// Messages request declared, and [NewBetaTools] from the beta API's
// []anthropic.BetaToolUnionParam. Each compiles every custom tool's input
// schema once, and is read-only and safe for concurrent use afterwards:
//
//	tools, err := anthropiccoerce.NewTools(params.Tools)
//	...
//	for _, block := range message.Content {
//		if use, ok := block.AsAny().(anthropic.ToolUseBlock); ok {
//			var in SearchArgs
//			err := tools.Unmarshal(ctx, use, &in)
//			...
//		}
//	}
//
// Input returns the repaired input text; Unmarshal decodes it into a Go value
// as json.Unmarshal would, after a second pass by [coerce.Unmarshal] against
// the value's Go type, which repairs what the schema leaves open. Both read
// the input as the API sent it, so integers beyond 2^53 keep every digit.
// An input that cannot be converted is an error joining one [*coerce.Error]
// per parameter, with its JSON Pointer path, meant to be read: a program can
// send it back as the tool_result, with is_error, so that the model calls
// again with input that fits. A block naming a tool the registry does not
// know is passed through unchanged.
//
// # Stop reasons
//
// A message its output limit cut off (stop_reason "max_tokens" or
// "model_context_window_exceeded") runs none of its tools, even one whose
// input parses: [Tools.Finished] and [BetaTools.Finished] return an error
// wrapping [coerce.ErrTruncated], whose feedback each tool_result carries.
// The tool runner runs no tool of such a message by itself. A tool_use block
// built from the text of a cut-off call is sent back with [ReplayToolUse]
// or [ReplayBetaToolUse], whose input is always valid JSON
// ([coerce.ReplayArgs]).
//
// # Streams
//
// [Tools.Stream] and [BetaTools.Stream] read the tool_use blocks of a
// streamed message as their input_json_delta events arrive, one
// [coerce.Stream] per block, keyed by its index in the content. Add each
// event, beside Message.Accumulate; [Options.OnPreview] is shown each
// block's [coerce.Partial] after each delta, for a UI. Close, once the
// stream has ended, decodes every block strictly: none of a message the
// output limit cut off, the others as Input decodes the same text, errors
// included; [Stream.Unmarshal] decodes a closed block into a Go value. No
// tool may run before Close, since the stop reason comes after the last
// block.
//
// [Options.OnChange] and [Options.Logger] hear each repair, and
// [Options.OnError] each failure, with the call's context and the tool's
// name.
package anthropiccoerce
