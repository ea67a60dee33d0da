package gosdkcoerce

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"

	"github.com/coerce-go/coerce"
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
	// Path is the JSON Pointer of the argument), or says why no argument of
	// the call could be coerced (the tool's input schema could not be read,
	// or the server's tools/list answer could not be had). The call goes on
	// regardless, with the arguments that converted converted and the
	// failing ones exactly as the client sent them: the SDK's validator then
	// rejects it with its usual message, so the client sees the error it
	// would see without coercion, naming the argument it got wrong, rather
	// than a message about coercion it cannot act on.
	OnError func(ctx context.Context, tool string, err error)

	// OnChange, if set, is called for each repair made to the arguments of
	// a call of tool, with the call's context, in the order of the
	// arguments' paths and before the call goes on: count them, or trace
	// them, to see how clients break which tools. Nil costs nothing.
	OnChange func(ctx context.Context, tool string, c coerce.Change)

	// Logger, if set, logs each repair at debug level with the tool name
	// (see coerce.LogChanges). A logger that does not log debug records
	// costs only the check.
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
	c := &coercer{opts: o}
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
				req = c.coerce(ctx, call, next)
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

// coerce returns call with its arguments coerced, or call itself when they
// need no change. It changes a copy, never call, so that middleware that
// ran before it still holds what the client sent.
func (c *coercer) coerce(ctx context.Context, call *mcp.CallToolRequest, next mcp.MethodHandler) *mcp.CallToolRequest {
	if call.Params == nil || noArguments(call.Params.Arguments) {
		return call
	}
	tool := call.Params.Name
	t, err := c.tools.lookup(ctx, tool, func(ctx context.Context) ([]*mcp.Tool, error) {
		return listTools(ctx, call, next)
	})
	if t == nil || err != nil {
		if err != nil {
			c.report(ctx, tool, err)
		}
		return call // not a tool of this server: the SDK says so
	}
	schema, err := t.schema(c.opts.Coerce)
	if err != nil {
		c.report(ctx, tool, err)
		return call
	}
	args, err := c.perCall(ctx, tool, schema).CoerceJSON(call.Params.Arguments)
	if err != nil {
		c.report(ctx, tool, err)
	}
	if sameBytes(args, call.Params.Arguments) {
		return call
	}
	params := *call.Params
	params.Arguments = args
	out := *call
	out.Params = &params
	return &out
}

// perCall returns schema with the options of one call of tool: an
// OnChange that brings the call's context and the tool's name to
// Options.OnChange and Options.Logger. Without either, it returns schema
// as it is, at no cost.
func (c *coercer) perCall(ctx context.Context, tool string, schema *coerce.Schema) *coerce.Schema {
	o := c.opts.Coerce
	if c.opts.OnChange == nil && c.opts.Logger == nil {
		return schema
	}
	if o.OnChange = coerce.ReportChanges(ctx, tool, o.OnChange, c.opts.OnChange, c.opts.Logger); o.OnChange == nil {
		return schema
	}
	return schema.WithOptions(o)
}

func (c *coercer) report(ctx context.Context, tool string, err error) {
	if c.opts.OnError != nil {
		c.opts.OnError(ctx, tool, err)
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
