// Package fantasycoerce repairs the tool calls of a charm.land/fantasy agent
// (the agent engine under Crush) before its tools decode them, with package
// [coerce]: "[\"a\"]" for an array, "5" for an integer, "true" for a
// boolean, an object for a string that holds JSON text, the whole input
// encoded once more as a JSON string or wrapped in a markdown fence. Each
// argument is converted to the type the tool's input schema declares;
// arguments that already conform reach the tool exactly as the model wrote
// them. It is tested with fantasy v0.41.2.
//
// One option, in place of fantasy.WithTools:
//
//	agent := fantasy.NewAgent(model, fantasycoerce.WithTools(search, fetch))
//
// For Agent.Stream, give the call the repair hook too (see below):
//
//	res, err := agent.Stream(ctx, fantasy.AgentStreamCall{
//		Prompt:         prompt,
//		RepairToolCall: fantasycoerce.Options{}.RepairToolCall(nil),
//	})
//
// # What fantasy checks, and where coerce acts
//
// fantasy v0.41.2 checks a model's tool call in one place (the agent's
// validateToolCall): the input must decode into a map[string]any, and hold
// every key the tool's Info().Required lists. Nothing looks at the types.
// A call that passes is handed to the tool's Run as the model's text
// (fantasy.ToolCall.Input), and a typed tool (fantasy.NewAgentTool) decodes
// it with encoding/json into its input type, which fails on "5" for an int:
// the model reads "invalid parameters: json: cannot unmarshal string into Go
// struct field ..." as the tool's result. A call that fails the check goes
// to the repair hook (fantasy.WithRepairToolCall), or, if there is none, to
// fantasy's jsonrepair package, which mends JSON syntax (unclosed brackets,
// trailing commas, quotes, fences; the hook below keeps it from closing a
// call cut off); if the result passes the check it runs,
// and otherwise fantasy marks the call invalid and answers the model with
// the check's error, without running the tool.
//
// So the repair hook alone cannot do the job: a call with "5" for an
// integer passes fantasy's check, and the hook never sees it. The one seam
// every call passes on its way to the tool is AgentTool.Run. [Options.Wrap]
// wraps each tool's Run: it coerces the input to the tool's schema with
// [coerce.Schema.CoerceJSON] and hands the result to the tool, before the
// tool decodes it, whichever way the agent runs (Generate, or Stream with
// tools run in parallel). The schema is the one fantasy offers the model:
// an object with the tool's Info().Parameters as properties. It is read and
// compiled at the tool's first call, once per wrapped tool.
//
// What fails the check needs the hook. [Options.RepairToolCall] is one that
// acts before fantasy's syntax repair: it asks coerce whether the input is
// an object sent whole as JSON text once more encoded, or in a markdown
// fence, and if so returns the object, numbers as written; otherwise it
// falls back to what fantasy does without a hook (jsonrepair), or to a hook
// of your own, except for an input cut off, which it refuses. [Options.WithTools] installs both, the wrapped tools and the
// hook. Note that fantasy v0.41.2 reads the hook from the agent's options in
// Generate but from the AgentStreamCall in Stream, so a Stream call needs
// RepairToolCall set on it as shown above; without it, Stream uses fantasy's
// own syntax repair, and the wrapped tools still coerce every call that
// reaches them.
//
// # What is left alone
//
// An argument coerce cannot repair ("five" for an integer) stays as the
// model sent it, next to the ones repaired, so fantasy and the tool answer
// the call as they would have: a typed tool answers "invalid parameters:
// ...", and the agent goes on to the model's next turn with that result.
// A call fantasy marks invalid (a required key missing, input no repair
// makes an object of) is answered with fantasy's validation error; coerce
// never invents keys. A conforming call reaches the tool byte for byte. The
// step's history (AgentResult.Steps) keeps the tool call as fantasy
// validated it, that is, as the model wrote it unless the hook unwrapped
// it: the wrapped tool's repairs are made to the copy it hands the tool.
//
// fantasy's schema.Generate writes a Go map[string]T as an object whose
// only property is "*"; such a schema is read as a map, every key a T, as
// the tool decodes it.
//
// # Stop reasons
//
// fantasy's agent runs every tool call of a step, whatever its finish
// reason. [WrapModel] wraps the agent's model so that no call of a
// response its output limit cut off (fantasy.FinishReasonLength) runs,
// even one whose input parses: Generate marks each such call invalid, with
// the feedback of [coerce.ErrTruncated] as its error, and Stream marks the
// calls for the tools [Options.Wrap] makes, which answer them with that
// feedback instead of running. The wrapped model also sends the history's
// tool calls back with inputs that are JSON ([coerce.ReplayArgs]). The
// repair hook refuses an input cut off rather than have jsonrepair close
// it.
//
// # Streams
//
// [Options.OnPreview], set on the options of [Options.WrapModel], is shown
// each tool call's input as the wrapped model streams it
// (StreamPartTypeToolInputDelta), a [coerce.Partial] read by a
// [coerce.Stream] of the input schema the model was offered: for a UI,
// never a call to run. fantasy runs the tools once the stream has ended,
// the wrapped tools decoding each call as Close of the same text would,
// and none of a response cut off.
//
// # Integers beyond 2^53
//
// fantasy decodes the input into map[string]any (float64 numbers) only to
// check it, and hands the tool the model's text, which CoerceJSON rewrites
// only where a value needs converting. So an integer beyond 2^53 keeps its
// digits up to the tool, repaired or not ("9007199254740993" for an integer
// becomes 9007199254740993), and the hook keeps the number text of an input
// it unwraps. What the tool then makes of it is its own decoding: a typed
// tool's encoding/json decodes it exactly into int64, uint64 and
// json.Number fields, and rounds it into float64 and interface fields.
//
// # Reporting
//
// [Options] says what to do besides converting: Coerce sets the conversions
// ([coerce.Options]); OnChange receives each repair and OnError what could
// not be repaired, both with the call's context and the tool's name; Logger
// logs each repair at debug level, as [coerce.LogChanges] does, and each
// value it could not repair at warn level with its path, declared type,
// kind found and rule.
package fantasycoerce
