// Package genkitcoerce repairs the tool calls of a Firebase Genkit model
// before Genkit validates them, with package [coerce].
//
// In Genkit, a model asks for a tool with an [ai.ToolRequest], whose Input
// holds the tool's arguments as the model wrote them, decoded from JSON.
// Before the tool runs, Genkit checks that input against the tool's input
// JSON Schema, and models get the types wrong: they send an array or an
// object as JSON text ({"tags": "[\"go\"]"}), "5" for an integer, "true"
// for a boolean, a string parameter's JSON as an object. The tool call then
// fails:
//
//	tool "search" failed: error calling tool search: data did not match expected schema:
//	- limit: Invalid type. Expected: integer, given: string
//
// # One line
//
// [Middleware] is an [ai.ModelMiddleware]; give it to a generate call with
// [ai.WithMiddleware]:
//
//	resp, err := genkit.Generate(ctx, g,
//		ai.WithPrompt("Find Go articles about generics"),
//		ai.WithTools(searchTool, fetchTool),
//		ai.WithMiddleware(genkitcoerce.Middleware()))
//
// Genkit puts it around the model for every turn of the call, and hands it
// each response of the model before it looks at the tool requests in it.
// The middleware converts the input of each tool request to the input
// schema of its tool, as the request offered the tool to the model
// ([ai.ModelRequest].Tools, [ai.ToolDefinition].InputSchema), parameter by
// parameter with [coerce.Schema.Coerce]; Genkit then validates the input
// and runs the tool as usual. That covers every tool a generate call can
// invoke: typed (genkit.DefineTool) or given a schema ([ai.WithInputSchema]),
// registered or made for the call ([ai.NewTool]). Tool requests returned
// to the caller ([ai.WithReturnToolRequests]) and the conversation history
// carry the repaired input too, so a restart of an interrupted tool
// ([ai.WithToolRestarts]) starts from it.
//
// A prompt takes the middleware on Execute,
// prompt.Execute(ctx, ai.WithMiddleware(genkitcoerce.Middleware())): Genkit
// v1.4.0 ignores middleware given to genkit.DefinePrompt. Where other
// middleware reads tool requests, list this one after it: Genkit nests them
// in the order given, so the last one sees the model's response first.
//
// # What changes, and what does not
//
// An input that already conforms stays as it is, and a response in which
// nothing needs converting is handed on as the model made it; with neither
// OnChange nor Logger set, that costs no allocation. Otherwise the response
// is copied, never modified in place.
// Parameters Genkit would reject and coerce cannot repair ("five" for an
// integer) stay as the model sent them, next to the ones that were
// repaired, and Genkit's validation reports them as it would have. A tool
// request for a tool the request did not offer passes as it is, and so do
// the chunks a streaming callback receives: the middleware sees the whole
// response. An input sent whole as JSON text, as some models do, is parsed
// first.
//
// Each input schema is compiled once, the first time the model calls the
// tool, and kept for the process (up to a bound), so a middleware made for
// each call costs no more than one made once.
//
// # Integers beyond 2^53
//
// The middleware keeps integers exact: "9007199254740993" for an integer
// becomes json.Number("9007199254740993"). Genkit v1.4.0, however, decodes
// the input into float64 before the tool sees it (it copies the model's
// message through JSON, and decodes the tool's JSON input into any before
// validating it), so an integer beyond 2^53 reaches the tool rounded,
// whatever the middleware does, and one beyond the range of int64 fails
// there ("cannot convert ... to integer: not a whole number"). What a
// string parameter holds stays exact: an ID that a model sends as a number
// for a string parameter keeps every digit, provided the model plugin
// decoded it exactly; plugins that decode the provider's JSON into float64
// have rounded it already.
//
// # Reporting
//
// [Options] says what to do besides: Coerce sets the conversions
// ([coerce.Options]); OnError receives what could not be repaired, OnChange
// each repair, with the generate call's context and the tool's name, and
// Logger logs each repair at debug level and each rejection at warn.
//
// A tool request whose input cannot be repaired, or that Genkit's
// validation would refuse ([coerce.Schema.Check]: a required argument
// missing, a name the schema does not declare, a value outside an enum),
// would end the generate call. The middleware asks the model again
// instead, with a tool response whose output is [coerce.Schema.Feedback],
// at most three times; KeepSDKErrors leaves it to Genkit. NoticeRepairs
// tells the model, with the tool's response, how a request was repaired:
//
//	repair := genkitcoerce.Options{
//		Logger: slog.Default(),
//		OnError: func(ctx context.Context, tool string, err error) {
//			slog.WarnContext(ctx, "tool call not repaired", "tool", tool, "err", err)
//		},
//	}.Middleware()
//
// # Stop reasons
//
// A response its output limit cut off (ai.FinishReasonLength) runs none of
// its tool requests, even one whose input validates: the middleware asks
// the model again, with the feedback of [coerce.ErrTruncated] as each tool
// response, at most three times, then fails the generate call with an
// error wrapping it. KeepSDKErrors does not change this.
//
// # Google's Agent Development Kit
//
// adk-go offers the same hook: an llmagent.BeforeToolCallback receives the
// arguments the tool will run with, as a map it may edit in place, before
// the tool validates them. Compile each tool's schema once, from its Go
// input type with [coerce.SchemaFor] or from its JSON Schema with
// [coerce.ParseSchema], and the callback takes a few lines:
//
//	schemas := map[string]*coerce.Schema{"get_weather": weatherSchema}
//	cfg.BeforeToolCallbacks = append(cfg.BeforeToolCallbacks,
//		func(ctx tool.Context, t tool.Tool, args map[string]any) (map[string]any, error) {
//			if s := schemas[t.Name()]; s != nil {
//				fixed, _ := s.Coerce(args) // what fails is left to the tool's validation
//				maps.Copy(args, fixed)     // in place: a map returned would replace the tool's result
//			}
//			return nil, nil
//		})
//
// The type of the callback's first parameter depends on the adk-go release
// (tool.Context, later agent.Context); the body is the same. For reports,
// use s.WithOptions(coerce.Options{OnChange: coerce.LogChanges(logger,
// t.Name())}) inside the callback.
package genkitcoerce
