package gosdkcoerce

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"slices"

	"github.com/coerce-go/coerce"
	"github.com/coerce-go/coerce/toolcall"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Options configures coercion on a server. The zero value gives coerce's
// defaults and reports nothing; Install is Options{}.Install.
type Options struct {
	// Coerce compiles each tool's input schema and converts its arguments
	// (see coerce.Options). Coerce.OnChange, if set, is called too, before
	// the OnChange below.
	Coerce coerce.Options

	// OnError, if set, is called with what coercion could not fix in a call
	// of tool: err joins one *coerce.Error per argument that failed (its
	// Path is the JSON Pointer of the argument; names the schema does not
	// declare, required arguments missing and values outside an enum are
	// among them, see coerce.Schema.Check), or says why no argument of the
	// call could be coerced (the tool's input schema could not be read, or
	// the server's tools/list answer could not be had). The context carries
	// the client's name and version (clientInfo), for attribution.
	// What could not be fixed in a tool's result (see KeepResults) comes
	// with a context for which toolcall.PartOf is toolcall.PartResult, and
	// so do the result's repairs to OnChange.
	OnError func(ctx context.Context, tool string, err error)

	// KeepSDKErrors lets a call whose arguments cannot be fixed go on to
	// the SDK, whose validator rejects it in its own words. By default
	// such a call is answered, as MCP's SEP-1303 asks, with a tool result
	// with isError set whose text is coerce.Schema.Feedback: per failing
	// argument its path, the type declared, what was found and a valid
	// example, so that the model corrects its call; the handler does not
	// run.
	KeepSDKErrors bool

	// NoticeRepairs appends to the result of a repaired call a text saying
	// how each argument was repaired (coerce.Notice), so that the model
	// sends it as declared next time.
	NoticeRepairs bool

	// KeepResults leaves tool results as the handlers return them. By
	// default, a result's structuredContent that does not conform to the
	// tool's output schema (any JSON Schema, SEP-2106) is coerced to it
	// (toolcall.Output: what coercion repairs in arguments, and a nil
	// slice's null made [] for an array), a text content that held the
	// same JSON then holding the coerced JSON; a conforming one is sent as
	// it is. A structuredContent that cannot be fixed is dropped, the text
	// content kept (or, if there is none, the JSON text the handler gave
	// made one), so that the client never sees a result its schema
	// refuses; OnError and Logger hear of it as a rejection of the result
	// (toolcall.PartOf(ctx) is toolcall.PartResult, paths are from the
	// result's root). Results with isError set are left alone.
	KeepResults bool

	// OnChange, if set, is called for each repair made to the arguments of
	// a call of tool, with the call's context, in the order of the
	// arguments' paths and before the call goes on: count them, or trace
	// them, to see how clients break which tools. Nil costs nothing.
	OnChange func(ctx context.Context, tool string, c coerce.Change)

	// Logger, if set, logs each repair at debug level and each rejected
	// argument at warn level, with the tool and client names and the
	// argument's path, declared type, kind and preview found, and rule.
	// A logger that does not log debug records costs only the check.
	Logger *slog.Logger
}

// Install is Options{}.Install: it installs coercion with coerce's defaults
// on s.
func Install(s *mcp.Server) { Options{}.Install(s) }

// Install installs coercion on s: from then on, the arguments of each
// tools/call request that s receives are converted to the types the
// tool's input schema declares before the tool's handler, and the SDK's
// validator in it, see them. Tools need no change: Install reads each
// tool's input schema from s itself (see the package documentation).
// Install it once per server, before s serves requests.
//
// Install adds a receiving middleware, so where it sits among other
// receiving middleware depends on when it is called: the SDK runs the
// middleware added last first. Installed first, right after
// mcp.NewServer, it runs last, directly in front of the SDK: the other
// middleware sees the arguments as the client sent them, and the tools/list
// requests by which coercion learns the schemas go straight to the SDK.
// Middleware added before Install sees the coerced arguments, and those
// tools/list requests too. Install also adds a sending middleware, which
// only watches for notifications/tools/list_changed.
func (o Options) Install(s *mcp.Server) {
	// What a validator would refuse (a required argument missing, a name
	// a closed schema does not declare, a value outside an enum) is
	// answered before the handler too, whether or not the tool validates
	// (Server.AddTool does not), in the same pass as coercion: a call that
	// passes is read once (coerce.Options.Check).
	o.Coerce.Check = o.Coerce.Check || !o.KeepSDKErrors
	c := &coercer{opts: o}
	installed.register(s, c)
	s.AddSendingMiddleware(c.watch)
	s.AddReceivingMiddleware(c.middleware)
}

// A coercer is coercion installed on one server.
type coercer struct {
	opts  Options
	tools toolCache
}

// watch is the sending middleware that sees the server tell its clients
// that its tools changed.
func (c *coercer) watch(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method == methodToolListChanged {
			// Before the notification leaves, so that a client that calls a
			// tool as soon as it learns of the change gets the new schema.
			c.tools.invalidate()
		}
		return next(ctx, method, req)
	}
}

// The methods that middleware sees, as the MCP specification names them.
const (
	methodCallTool        = "tools/call"
	methodListTools       = "tools/list"
	methodInitialize      = "initialize"
	methodDiscover        = "server/discover"
	methodToolListChanged = "notifications/tools/list_changed"
)

// middleware is the receiving middleware. next is the rest of the chain,
// down to the SDK, through which it also lists the server's tools.
func (c *coercer) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		switch method {
		case methodCallTool:
			if call, ok := req.(*mcp.CallToolRequest); ok {
				return c.call(ctx, call, next)
			}
		case methodInitialize, methodDiscover:
			// A client is starting. The tools may have changed while no
			// client was connected, when the SDK tells no one, so its
			// first call reads them afresh.
			c.tools.invalidate()
		}
		return next(ctx, method, req)
	}
}

// call coerces the arguments of call and passes it on, or answers it with
// feedback when they cannot be fixed; then it coerces the result.
func (c *coercer) call(ctx context.Context, call *mcp.CallToolRequest, next mcp.MethodHandler) (mcp.Result, error) {
	if call.Params == nil {
		return next(ctx, methodCallTool, call)
	}
	noArgs := noArguments(call.Params.Arguments)
	if noArgs && c.opts.KeepResults {
		return next(ctx, methodCallTool, call)
	}
	tool := call.Params.Name
	l := c.listeners(call)
	t, err := c.tools.lookup(ctx, tool, func(ctx context.Context) ([]*mcp.Tool, error) {
		return listTools(ctx, call, next)
	})
	if t == nil || err != nil {
		if err != nil {
			l.Rejected(ctx, tool, err)
		}
		return next(ctx, methodCallTool, call) // not a tool of this server: the SDK says so
	}
	var changes *[]coerce.Change
	if !noArgs {
		var answer *mcp.CallToolResult
		if call, changes, answer = c.arguments(ctx, l, t, call); answer != nil {
			return answer, nil
		}
	}
	res, err := next(ctx, methodCallTool, call)
	r, ok := res.(*mcp.CallToolResult)
	if err != nil || !ok || r == nil {
		return res, err
	}
	if !c.opts.KeepResults {
		r = c.result(ctx, l, t, r)
	}
	if c.opts.NoticeRepairs && changes != nil && !r.IsError {
		if notice := coerce.Notice(*changes); notice != "" {
			out := *r
			out.Content = append(slices.Clip(r.Content), &mcp.TextContent{Text: notice})
			return &out, nil
		}
	}
	return r, nil
}

// arguments coerces the arguments of call to the input schema of t. It
// returns the call to pass on (call itself, or a copy with the coerced
// arguments) and the changes made, if anyone hears of them; or the answer
// to a call whose arguments cannot be fixed.
func (c *coercer) arguments(ctx context.Context, l toolcall.Listeners, t *toolEntry, call *mcp.CallToolRequest) (*mcp.CallToolRequest, *[]coerce.Change, *mcp.CallToolResult) {
	tool := call.Params.Name
	schema, err := t.schema(c.opts.Coerce)
	if err != nil {
		l.Rejected(ctx, tool, err)
		return call, nil, nil
	}
	o, changes := toolcall.Collect(c.opts.Coerce, c.opts.NoticeRepairs || l.Hears(ctx))
	s := schema
	if changes != nil {
		s = schema.WithOptions(o)
	}
	args, err := s.CoerceJSON(call.Params.Arguments)
	if err != nil {
		l.Rejected(ctx, tool, err)
		if !c.opts.KeepSDKErrors && toolcall.Arguments(err) {
			return call, nil, feedback(schema, err)
		}
	}
	if changes != nil {
		l.Repaired(ctx, tool, *changes)
	}
	if !sameBytes(args, call.Params.Arguments) {
		// A copy, never call, so that middleware that ran before this
		// one still holds what the client sent.
		params := *call.Params
		params.Arguments = args
		out := *call
		out.Params = &params
		call = &out
	}
	return call, changes, nil
}

// feedback is the answer to a call whose arguments cannot be fixed: a
// tool result with isError set, as SEP-1303 asks, whose text tells the
// model what to send.
func feedback(schema *coerce.Schema, err error) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: schema.Feedback(err)}}}
}

// listeners are the options' listeners for one call, with the client's
// name and version: those the request's _meta names (MCP 2026-07-28,
// SEP-2575), else those of the session's initialize request.
func (c *coercer) listeners(call *mcp.CallToolRequest) toolcall.Listeners {
	return toolcall.Listeners{
		Inner:    c.opts.Coerce.OnChange,
		OnChange: c.opts.OnChange,
		OnError:  c.opts.OnError,
		Logger:   c.opts.Logger,
		Client: func(context.Context) (string, string) {
			if info := call.ClientInfo(); info != nil {
				return info.Name, info.Version
			}
			return "", ""
		},
	}
}

// noArguments reports whether a call has no arguments: absent, or JSON null,
// which the SDK reads as {} too. Coercion has nothing to do there, and an
// error about null would be noise.
func noArguments(args json.RawMessage) bool {
	return len(args) == 0 || string(bytes.TrimSpace(args)) == "null"
}

// sameBytes reports whether a and b are the same slice: CoerceJSON returns
// its argument itself when nothing changed.
func sameBytes(a, b []byte) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}
