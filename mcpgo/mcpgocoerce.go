package mcpgocoerce

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"sync"

	"github.com/coerce-go/coerce"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// Options configures [Options.Install]. The zero value coerces with
// coerce's defaults, reports nothing and ignores what it cannot fix.
type Options struct {
	// Coerce configures the conversions (e.g. StructuredOnly, WrapScalars).
	// UseNumber makes no difference here: numbers keep their text in
	// RawArguments, and Arguments is decoded as mcp-go decodes it.
	// Coerce.OnChange, if set, receives the same changes as OnChange,
	// without the request's context and the tool's name.
	Coerce coerce.Options

	// OnChange, if set, receives each repair made to a call's arguments
	// (one [coerce.Change] per converted value, with its JSON Pointer path,
	// the kind found, the type declared and the rule applied), with the
	// request's context and the tool's name, for metrics. It is called
	// from the request goroutine once the repaired arguments are in the
	// request, before the server validates them and calls the tool's
	// handler, and must be safe for concurrent use. A call that needs no
	// repair does not call it.
	OnChange func(ctx context.Context, tool string, c coerce.Change)

	// Logger, if set, logs each repair at debug level with the tool's name,
	// as [coerce.LogChanges] does. A logger not enabled for debug level
	// costs nothing.
	Logger *slog.Logger

	// OnError, if set, observes what coercion could not fix: arguments that
	// do not convert (err joins one *coerce.Error per failing parameter,
	// each with its JSON Pointer path) and input schemas that do not
	// compile. It is called from the request goroutine and must be safe for
	// concurrent use.
	//
	// The call itself goes on: the parameters that converted are converted
	// and the failing ones stay as the client sent them, so the server's own
	// validator (WithInputSchemaValidation) rejects the call with the message
	// the client would have got without coercion, and a server without
	// validation behaves as it did before. A hook cannot fail a call in
	// mcp-go, and inventing a second error format would only confuse the
	// model reading it.
	OnError func(ctx context.Context, tool string, err error)
}

// Install coerces the arguments of every tools/call on s with coerce's
// default options. See [Options.Install].
func Install(s *server.MCPServer) { Options{}.Install(s) }

// Install coerces the arguments of every tools/call on s to the input schema
// of the tool being called, as registered on s when the call arrives (a
// session's own tools first, as the server dispatches). Each schema is
// compiled once and compiled again only if the tool is registered anew with a
// different schema.
//
// Install adds a BeforeCallTool hook to the server's hooks (creating them if
// the server has none), after any hooks already there. Like the server's
// options, it must be called before s starts serving. Task tools
// (AddTaskTool) are not coerced: mcp-go offers no way to look their schemas
// up, and it does not validate their arguments either.
func (o Options) Install(s *server.MCPServer) { o.install(s) }

func (o Options) install(s *server.MCPServer) *coercer {
	hooks := s.GetHooks()
	if hooks == nil {
		hooks = &server.Hooks{}
		server.WithHooks(hooks)(s)
	}
	c := &coercer{server: s, opts: o}
	hooks.AddBeforeCallTool(c.beforeCallTool)
	return c
}

type coercer struct {
	server  *server.MCPServer
	opts    Options
	schemas sync.Map // tool name → []*compiled, most recently compiled first
}

// compiled remembers the schema text it came from, so that a tool registered
// again under the same name with another schema is noticed: mcp-go tells
// nobody when tools change, and hands tools out by value, so the text is the
// only identity a tool has (mcp-go's own validator keys its cache the same
// way, and marshals InputSchema on every call as inputSchemaJSON does).
type compiled struct {
	source []byte
	schema *coerce.Schema
	err    error
}

// schemasPerTool bounds how many schemas are kept under one tool name. Two
// sessions may expose the same name with different schemas
// (SessionWithTools), and calls alternating between them must not compile
// on every call; a tool re-registered with ever new schemas must not grow
// the cache without end.
const schemasPerTool = 8

func (c *coercer) beforeCallTool(ctx context.Context, _ any, req *mcp.CallToolRequest) {
	if req == nil {
		return
	}
	name := req.Params.Name
	schema, err := c.schemaFor(ctx, name)
	if err != nil {
		c.report(ctx, name, fmt.Errorf("mcpgocoerce: input schema of tool %q: %w", name, err))
		return
	}
	if schema == nil {
		return // unknown tool or no schema: the server answers for it
	}

	report := coerce.ReportChanges(ctx, name, c.opts.Coerce.OnChange, c.opts.OnChange, c.opts.Logger)
	if report == nil {
		// Nobody hears of the changes: the schema as compiled will do,
		// with nothing to allocate per call.
		c.coerce(ctx, schema, name, &req.Params)
		return
	}
	// The changes are collected and reported once they are in the request,
	// so that nobody hears of a repair the request does not carry.
	var changes []coerce.Change
	o := c.opts.Coerce
	o.OnChange = func(ch coerce.Change) { changes = append(changes, ch) }
	if c.coerce(ctx, schema.WithOptions(o), name, &req.Params) {
		for _, ch := range changes {
			report(ch)
		}
	}
}

// coerce converts p's arguments to schema and reports whether it stored the
// result in p.
func (c *coercer) coerce(ctx context.Context, schema *coerce.Schema, name string, p *mcp.CallToolParams) bool {
	// Prefer the raw JSON: mcp-go decodes Arguments into float64s, so an
	// integer beyond 2^53 is already rounded there (a Discord snowflake
	// inside an object sent for a string parameter would turn into the
	// wrong JSON text), while RawArguments holds the client's exact bytes.
	// Typed handlers (BindArguments) read RawArguments first, the validator
	// and GetArguments read Arguments: both must carry the coerced values.
	if len(p.RawArguments) > 0 {
		out, err := schema.CoerceJSON(p.RawArguments)
		if err != nil {
			c.report(ctx, name, err)
		}
		if len(out) == 0 || bytes.Equal(out, p.RawArguments) {
			return false
		}
		var args any // decoded exactly as mcp-go decodes Params.Arguments
		if json.Unmarshal(out, &args) != nil {
			return false // never leave the two fields disagreeing
		}
		p.RawArguments, p.Arguments = out, args
		return true
	}
	// No raw bytes: the request was built in memory, or an earlier hook
	// replaced the arguments and cleared them.
	if args, ok := p.Arguments.(map[string]any); ok {
		out, err := schema.Coerce(args)
		if err != nil {
			c.report(ctx, name, err)
		}
		p.Arguments = out
		return true
	}
	return false
}

// schemaFor returns the compiled input schema of the named tool, or nil if
// the tool is unknown or declares no schema.
func (c *coercer) schemaFor(ctx context.Context, name string) (*coerce.Schema, error) {
	tool, ok := c.lookup(ctx, name)
	if !ok {
		return nil, nil
	}
	source, ok := inputSchemaJSON(tool)
	if !ok {
		return nil, nil
	}
	var known []*compiled
	if v, ok := c.schemas.Load(name); ok {
		known = v.([]*compiled)
		for _, e := range known {
			if bytes.Equal(e.source, source) {
				return e.schema, e.err
			}
		}
	}
	// Concurrent misses may compile the same schema twice, and one of two
	// concurrent stores may be lost; both only cost a compilation later,
	// which is cheaper than a lock around every call.
	// Changes are reported per call (see beforeCallTool), never by the
	// compiled schema.
	o := c.opts.Coerce
	o.OnChange = nil
	schema, err := o.ParseSchema(source)
	e := &compiled{source: bytes.Clone(source), schema: schema, err: err}
	c.schemas.Store(name, append([]*compiled{e}, known[:min(len(known), schemasPerTool-1)]...))
	return schema, err
}

// lookup finds the tool the server will dispatch the call to.
func (c *coercer) lookup(ctx context.Context, name string) (mcp.Tool, bool) {
	if session, ok := server.ClientSessionFromContext(ctx).(server.SessionWithTools); ok {
		if t, ok := session.GetSessionTools()[name]; ok {
			return t.Tool, true
		}
	}
	if t := c.server.GetTool(name); t != nil {
		return t.Tool, true
	}
	return mcp.Tool{}, false
}

// inputSchemaJSON returns the schema the server's validator checks the call
// against, chosen the way mcp-go chooses it: RawInputSchema if set, else the
// structured InputSchema unless it is empty.
func inputSchemaJSON(tool mcp.Tool) ([]byte, bool) {
	if len(tool.RawInputSchema) > 0 {
		return tool.RawInputSchema, true
	}
	in := tool.InputSchema
	if in.Type == "" && len(in.Properties) == 0 && len(in.Required) == 0 && in.AdditionalProperties == nil {
		return nil, false
	}
	b, err := json.Marshal(in)
	return b, err == nil
}

func (c *coercer) report(ctx context.Context, tool string, err error) {
	if c.opts.OnError != nil {
		c.opts.OnError(ctx, tool, err)
	}
}
