// Package einocoerce repairs the arguments a model sends to tools of the
// eino agent framework (github.com/cloudwego/eino) before the tools decode
// them, so that each tool receives the types its schema declares.
//
// In eino a tool receives the model's tool call arguments as JSON text
// ([tool.InvokableTool]'s argumentsInJSON), and decodes it into its input:
// [utils.InferTool] and its siblings with a typed struct, hand-written tools
// with encoding/json. Models send arrays and objects as JSON text
// ({"tags": "[\"go\"]"}), integers and booleans as strings ("5", "true"), a
// parsed object where a string parameter holds JSON text; the decoding
// fails, and the call with it. [coerce] converts each such value to the type
// the tool's schema declares, and leaves every other value alone.
//
// # The one line
//
// [Install] puts coercion in front of every tool of a ToolsNode's config;
// call it once the tools are listed, before the node, or the agent that
// takes the config, is built:
//
//	conf := compose.ToolsNodeConfig{Tools: []tool.BaseTool{searchTool}}
//	einocoerce.Install(&conf)
//	node, err := compose.NewToolNode(ctx, &conf)
//
// The same line serves eino's agents, whose configs hold a
// [compose.ToolsNodeConfig]: einocoerce.Install(&conf.ToolsConfig) for a
// flow/agent/react AgentConfig, and
// einocoerce.Install(&conf.ToolsConfig.ToolsNodeConfig) for an adk
// ChatModelAgentConfig.
//
// [Wrap] does the same for one tool, for code that calls tools without a
// ToolsNode, and for tools passed to a run with [compose.WithToolList]:
//
//	search := einocoerce.Wrap(searchTool).(tool.InvokableTool)
//
// # How it works
//
// Coercion happens in the tool itself: [Install] replaces each tool with a
// wrapper ([Options.Wrap]) that converts the arguments of each call, then
// calls the tool. The wrapper has exactly the run interfaces of the tool
// ([tool.InvokableTool], [tool.StreamableTool], [tool.EnhancedInvokableTool],
// [tool.EnhancedStreamableTool]), and reports the tool's Info, type name and
// callback behavior, so the ToolsNode runs it as it ran the tool. The
// wrapper reads the tool's schema from Info(ctx).ParamsOneOf (a typed
// struct's inferred JSON Schema, or ParameterInfos) on the first call, and
// compiles it once with [coerce.Options.ParseSchema].
//
// Because coercion happens at the tool, what runs before the tool sees the
// arguments as the model sent them: the config's ToolArgumentsHandler, its
// ToolCallMiddlewares, and the callbacks the ToolsNode runs around a tool.
// A tool that runs its own callbacks ([components.Checker]) runs them with
// the repaired arguments.
//
// Each call's arguments go through [coerce.Schema.CoerceJSON], on the raw
// JSON text:
//
//   - Arguments that already conform reach the tool as the same string,
//     byte for byte, and cost one copy into a byte slice and one pass over
//     the text.
//   - Only the values that need converting are rewritten; the others keep
//     their bytes, integers beyond 2^53 included, and an integer sent as a
//     string ("9007199254740993") is written back with its exact digits.
//   - Keys match the schema's property names exactly, as JSON Schema does:
//     "Limit" is not "limit", even though encoding/json would decode it
//     into the same field.
//   - Empty arguments, and null, pass untouched.
//
// # When coercion fails
//
// A call with a value that cannot be converted ("many" for an integer) does
// not reach the tool: its output, which the ToolsNode hands back to the
// model, is [coerce.Schema.Feedback], naming the argument, the type
// declared, what was found and a valid example, so that the model corrects
// the call on its next turn. With [Options.Validate], so are calls with a
// required argument missing, a name the schema does not declare or a value
// outside an enum ([coerce.Schema.Check]). [Options.KeepSDKErrors] lets
// such calls reach the tool as sent, whose own decoding reports them as
// before. [Options.OnError] hears of each, with the *[coerce.Error] of
// each failing argument, and of a schema that could not be read or
// compiled; [Options.NoticeRepairs] appends to a repaired call's output how
// it was repaired.
//
// # Stop reasons
//
// No tool call of a reply the output limit cut off runs, even one whose
// arguments parse, when the model is wrapped with [WrapModel] and the
// tools with [Install]: the wrapped model marks the calls of a reply whose
// finish reason is a length reason, and a wrapped tool answers a marked
// call with the feedback of [coerce.ErrTruncated] instead of running. The
// wrapped model also sends each call of the history back with arguments
// that are JSON ([coerce.ReplayArgs]).
//
// # Options
//
// [Options] is a plain struct whose zero value is the default, with the
// package functions as methods:
//
//	einocoerce.Options{
//		OnChange: func(ctx context.Context, tool string, c coerce.Change) { ... },
//		OnError:  func(ctx context.Context, tool string, err error) { ... },
//		Logger:   slog.Default(),
//		Validate: true,
//	}.Install(&conf)
//
// OnChange hears of each repair with the call's context and the tool's
// name, Logger logs each at debug level and each rejection at warn, and Coerce
// sets how values convert ([coerce.Options]).
//
// [utils.InferTool]: https://pkg.go.dev/github.com/cloudwego/eino/components/tool/utils#InferTool
package einocoerce
