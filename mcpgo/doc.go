// Package mcpgocoerce repairs the tool arguments that LLM clients send to a
// github.com/mark3labs/mcp-go server in the wrong shape, before the server
// validates them: "[\"a\"]" for an array, "5" for an integer, "true" for a
// boolean, an object for a string that holds JSON text. Each argument is
// converted to the type the tool's input schema declares, by the rules of
// package [coerce]; arguments that already conform are left exactly as the
// client sent them.
//
// One line installs it, before the server starts serving:
//
//	s := server.NewMCPServer("demo", "1.0.0", server.WithInputSchemaValidation())
//	mcpgocoerce.Install(s)
//
// # Where it runs
//
// mcp-go validates a call's arguments ([server.WithInputSchemaValidation])
// inside its tools/call dispatch, before any tool handler middleware runs,
// so a middleware would come too late. [Install] adds a BeforeCallTool hook
// to the server's hooks ([server.Hooks]) instead, after those already there.
// For each call it finds the tool the server will dispatch to (a session's
// own tool first, as [server.SessionWithTools] provides, then the server's),
// and takes the schema the validator checks: the tool's RawInputSchema if
// set, else its InputSchema. Each schema is compiled once and cached under
// the tool's name, up to eight per name, so that sessions exposing one name
// with different schemas each keep theirs, and a tool registered again with
// another schema is compiled again.
//
// # What it rewrites
//
// mcp-go holds a call's arguments twice: Params.RawArguments, the client's
// exact bytes, which [mcp.CallToolRequest.BindArguments] and so typed
// handlers read; and Params.Arguments, decoded with every number a float64,
// which the validator and [mcp.CallToolRequest.GetArguments] read. The hook
// coerces the raw bytes with [coerce.Schema.CoerceJSON], so that an integer
// beyond 2^53 keeps its digits, and stores the result in both fields. When
// nothing needs converting, the request is not touched, and coercion
// allocates nothing.
//
// # What it reports
//
// [Options.OnChange] receives each repair as a [coerce.Change], with the
// request's context and the tool's name, for metrics; [Options.Logger] logs
// each at debug level, and each rejected argument at warn level.
//
// # When a call cannot be fixed
//
// When an argument cannot be converted (for example "ten" for an integer),
// the call is answered as MCP's SEP-1303 asks: a tool result with isError
// set, whose text ([coerce.Schema.Feedback]) names the argument, the type
// declared, what was found and a valid example, so that the model corrects
// its call; the handler does not run. The hook cannot fail a call, so it
// marks it, and a tool handler middleware that [Install] adds answers it;
// with [server.WithInputSchemaValidation], the validator answers first, and
// an AfterCallTool hook puts the feedback in place of its words, as it does
// when the validator refuses a call for a required argument missing, a name
// the schema does not declare or a value outside an enum
// ([coerce.Schema.Check]). [Options.OnError] receives the [*coerce.Error]s
// saying where and why, with the client's name and version in the context:
// those the request's _meta names (MCP 2026-07-28, SEP-2575), else the
// session's.
// [Options.KeepSDKErrors] leaves such calls to mcp-go, and
// [Options.NoticeRepairs] tells the model how a repaired call was repaired.
//
// # Results
//
// The tool handler middleware also coerces a result's structuredContent
// that does not conform to the tool's output schema (any JSON Schema,
// SEP-2106) as arguments are, before WithOutputSchemaValidation reads it;
// null where an array that does not admit null is declared, as Go writes a
// nil slice, becomes []. It reads the JSON the client would receive, and a
// text content that held the same JSON holds the repaired JSON. A result
// that conforms is sent as the handler returned it. One that cannot be
// fixed is sent without structuredContent, its text content kept (or made
// of its JSON), and reported as a rejection of the result
// (toolcall.PartOf(ctx) is toolcall.PartResult). Results with isError set
// are left alone; [Options].KeepResults turns it off.
//
// Task tools (AddTaskTool) are not coerced: mcp-go offers no way to look up
// their schemas, and does not validate their arguments either.
//
// # Clients and gateways
//
// A host or gateway that forwards a model's calls to a server it does not
// own cannot install anything there. [WrapClient] coerces on the client
// side instead: its [Client] is a client.MCPClient whose CallTool converts
// the arguments to the input schema the server listed in tools/list, then
// sends the call. It lists the tools again when the server sends
// notifications/tools/list_changed, when a call names a tool it did not
// list, once the listing's ttlMs runs out (0: before every call) and after
// a call the server refused with -32020, which is sent once more; a slow
// listing holds no call past its context:
//
//	tools := mcpgocoerce.WrapClient(c) // c a started, initialized *client.Client
//	res, err := tools.CallTool(ctx, req)
//
// [ElicitationHandler] wraps the client's own elicitation handler: the
// content of an accepted answer is coerced to the schema the server
// requested ("42" to 42, "red" to ["red"] for a multiple choice, a title to
// its value) before it is sent.
package mcpgocoerce
