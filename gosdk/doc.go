// Package gosdkcoerce installs [coerce] on a server built with the official
// MCP Go SDK ([github.com/modelcontextprotocol/go-sdk/mcp]), so that the
// loosely typed arguments that LLM hosts send reach each tool as the types
// its input schema declares.
//
// Hosts send "[\"a\",\"b\"]" for an array, "{\"k\":1}" for an object, "5"
// for an integer, "true" for a boolean, and an object where the tool wants
// JSON text. A tool added with [mcp.AddTool] validates its arguments against
// its input schema and rejects such a call with a tool error the model
// must work around:
//
//	validating "arguments": validating root: validating /properties/tags: type: ["a"] has type "string", want one of "null, array"
//
// and a tool added with [mcp.Server.AddTool] receives the arguments as they
// came. One line fixes both, with no change to how tools are registered:
//
//	server := mcp.NewServer(&mcp.Implementation{Name: "search"}, nil)
//	gosdkcoerce.Install(server)
//	mcp.AddTool(server, &mcp.Tool{Name: "search"}, search)
//
// # Where it hooks in
//
// The SDK validates arguments inside the handler that mcp.AddTool
// generates, after every receiving middleware has run, and hands that
// middleware the arguments as the raw bytes the client sent
// ([mcp.CallToolParamsRaw].Arguments). So Install adds a receiving
// middleware that rewrites those bytes with [coerce.Schema.CoerceJSON]
// before the validator reads them. Only the values that need converting are
// rewritten; every other byte is copied as sent, and arguments that already
// conform are handed on as the very same bytes. Converted values follow the
// rules of package coerce: a string declared string is never parsed, 5.5
// never becomes an integer, and an integer beyond 2^53 keeps every digit.
//
// The SDK has no public way to look a tool up by name, so the middleware
// asks the server itself: when it meets a tool it does not know, it lists
// the server's tools with tools/list requests of its own (for the session
// of the call, down the rest of the middleware chain, every page), compiles
// the input schema of each tool on its first call, and keeps it. Tools
// added with mcp.AddTool and with Server.AddTool, before or after Install,
// are found alike. After that, a call costs a map lookup, however many
// tools the server has.
//
// The tools are listed again when a call names a tool that was not there
// at the last listing, when a client starts (initialize, server/discover),
// and when the server sends notifications/tools/list_changed, which the
// SDK does about 10 ms after a change, to each client connected that
// subscribed to tool changes or speaks a protocol older than 2026-07-28,
// unless the server's capabilities turn it off. A tool removed and added
// again under its name is compiled anew. The SDK tells nothing else, so
// one case is left: a tool replaced under its name by one with another
// schema while no connected client is told of it (or in the 10 ms before
// they are) is coerced to its old schema until one of those events.
//
// # What the SDK then does
//
// Parameters are matched by their exact names, as the SDK matches them. A
// key that differs from a parameter only in case ("Limit" for "limit") is
// not that parameter and is left as sent: the SDK's validator rejects it
// when the schema allows no other properties, as the schema that
// mcp.AddTool infers from a struct does ("unexpected additional
// properties"), and otherwise the handler gets it as it came.
//
// A call with an argument that cannot be converted ("five" for an integer)
// is answered by the middleware, as MCP's SEP-1303 asks: a tool result with
// isError set whose text ([coerce.Schema.Feedback]) names the argument, the
// type declared, what was found and a valid example, so that the model
// corrects its call; neither the SDK's validator nor the handler sees it.
// When the SDK's validator refuses a call for a required argument missing,
// a name the schema does not declare or a value outside an enum
// ([coerce.Schema.Check]), its words are replaced the same way.
// [Options].KeepSDKErrors keeps the SDK's answers; [Options].NoticeRepairs
// appends to a repaired call's result how it was repaired. [Options].OnError
// sees what could not be fixed and [Options].Logger logs it at warn level,
// with the client's clientInfo in the context; [Options].OnChange and
// Logger (at debug level) see each repair. The client is the one the
// request's _meta names (MCP 2026-07-28, SEP-2575), else the session's
// initialize.
//
// Tools added with Server.AddTool are not validated by the SDK: their
// handlers get coerced arguments, and must still check them. Tools added
// with mcp.AddTool get their arguments from the SDK after it has decoded
// them to apply defaults, with numbers as float64: an integer parameter
// beyond 2^53 reaches such a handler rounded, coerced or not, while JSON
// text in a string parameter keeps every digit.
//
// # Results
//
// A result's structuredContent that does not conform to the tool's output
// schema (any JSON Schema, SEP-2106) is coerced to it as arguments are, and
// null where an array that does not admit null is declared, as Go writes a
// nil slice, becomes []; the coercion reads the JSON the client would
// receive, and a text content that held the same JSON holds the repaired
// JSON. A result that conforms is sent as the handler returned it. One that
// cannot be fixed is sent without structuredContent, its text content kept
// (or made of its JSON), and reported as a rejection of the result
// (toolcall.PartOf(ctx) is toolcall.PartResult). Results with isError set
// are left alone; [Options].KeepResults turns it off. mcp.AddTool validates
// a typed handler's output itself, before any middleware sees the result:
// register such tools with [AddTool], which coerces the output first.
//
// # Clients and gateways
//
// A host or gateway that forwards a model's calls to a server it does not
// own cannot install anything there. [WrapClient] coerces on the client
// side instead: its [ClientSession] is an [mcp.ClientSession] whose
// CallTool converts the arguments to the input schema the server listed in
// tools/list, then sends the call. [RefreshSchemas], as the client's
// ToolListChangedHandler, keeps the schemas current and still runs a
// handler of your own. On MCP 2026-07-28 the tools are listed again once
// the listing's ttlMs runs out (0: before every call) and after a call the
// server refused with -32020, which is sent once more; a slow listing holds
// no call past its context:
//
//	client := mcp.NewClient(impl, &mcp.ClientOptions{ToolListChangedHandler: gosdkcoerce.RefreshSchemas(nil)})
//	session, err := client.Connect(ctx, transport, nil)
//	...
//	res, err := gosdkcoerce.WrapClient(session).CallTool(ctx, &mcp.CallToolParams{Name: "search", Arguments: args})
//
// [ElicitationHandler] wraps the client's own elicitation handler: the
// content of an accepted answer is coerced to the schema the server
// requested ("42" to 42, "red" to ["red"] for a multiple choice, a title to
// its value) before the SDK validates and sends it.
package gosdkcoerce
