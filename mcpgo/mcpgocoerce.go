package mcpgocoerce

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"
	"sync"

	"github.com/coerce-go/coerce"
	"github.com/coerce-go/coerce/toolcall"
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

	// Logger, if set, logs each repair at debug level and each rejected
	// argument at warn level, with the tool's and the client's names and
	// the argument's path, declared type, kind and preview found, and rule.
	// A logger not enabled for debug level costs nothing on a call that
	// goes through.
	Logger *slog.Logger

	// OnError, if set, observes what coercion could not fix: arguments that
	// do not convert (err joins one *coerce.Error per failing parameter,
	// each with its JSON Pointer path; names the schema does not declare,
	// required ones missing and values outside an enum among them, see
	// coerce.Schema.Check) and input schemas that do not compile. Its
	// context carries the client's name and version (clientInfo), for
	// attribution. It is called from the request goroutine and must be
	// safe for concurrent use.
	// What could not be fixed in a tool's result (see KeepResults) comes
	// with a context for which toolcall.PartOf is toolcall.PartResult, and
	// so do the result's repairs to OnChange.
	OnError func(ctx context.Context, tool string, err error)

	// KeepSDKErrors leaves a call whose arguments cannot be fixed to
	// mcp-go: the failing parameters stay as the client sent them, and
	// the server's validator (WithInputSchemaValidation) rejects the call
	// in its own words, or, without it, the handler gets them. By default
	// such a call is answered, as MCP's SEP-1303 asks, with a tool result
	// with isError set whose text is coerce.Schema.Feedback: per failing
	// argument its path, the type declared, what was found and a valid
	// example, so that the model corrects its call; the handler does not
	// run.
	KeepSDKErrors bool

	// NoticeRepairs appends to the result of a repaired call a text saying
	// how its arguments were repaired (coerce.Notice), so that the model
	// sends them as declared next time.
	NoticeRepairs bool

	// KeepResults leaves tool results as the handlers return them. By
	// default, a result's structuredContent that does not conform to the
	// tool's output schema (RawOutputSchema, else OutputSchema, as mcp-go's
	// WithOutputSchemaValidation reads it; any JSON Schema, SEP-2106) is
	// coerced to it (toolcall.Output: what coercion repairs in arguments,
	// and a nil slice's null made [] for an array), a text content that
	// held the same JSON (mcp.NewToolResultStructuredOnly and the
	// structured handlers write it) then holding the coerced JSON; a
	// conforming one is sent as it is. A structuredContent that cannot be
	// fixed is dropped, the text content kept (or, if there is none, the
	// JSON text the handler gave made one), so that the client never sees
	// a result its schema refuses, and WithOutputSchemaValidation does not
	// answer an error instead; OnError and Logger hear of it as a
	// rejection of the result (toolcall.PartOf(ctx) is toolcall.PartResult,
	// paths are from the result's root). Results with isError set, and of
	// task tools, are left alone.
	KeepResults bool
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
	// What a validator would refuse (a required argument missing, a name
	// a closed schema does not declare, a value outside an enum) is
	// answered before the handler too, whether or not the server
	// validates, in the same pass as coercion: a call that passes is read
	// once (coerce.Options.Check).
	o.Coerce.Check = o.Coerce.Check || !o.KeepSDKErrors
	c := &coercer{server: s, opts: o}
	hooks.AddBeforeCallTool(c.beforeCallTool)
	hooks.AddAfterCallTool(c.afterCallTool)
	s.Use(c.middleware)
	return c
}

type coercer struct {
	server  *server.MCPServer
	opts    Options
	schemas sync.Map // tool name → []*compiled, most recently compiled first
	outputs sync.Map // tool name → []*compiledOutput, most recently compiled first
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
	l := c.listeners()
	schema, err := c.schemaFor(ctx, name)
	if err != nil {
		l.Rejected(ctx, name, fmt.Errorf("mcpgocoerce: input schema of tool %q: %w", name, err))
		return
	}
	if schema == nil {
		return // unknown tool or no schema: the server answers for it
	}

	o, changes := toolcall.Collect(c.opts.Coerce, c.opts.NoticeRepairs || l.Hears(ctx))
	s := schema
	if changes != nil {
		s = schema.WithOptions(o)
	}
	p := req.Params
	err = c.coerce(s, &p)
	if err != nil {
		l.Rejected(ctx, name, err)
		if !c.opts.KeepSDKErrors && toolcall.Arguments(err) {
			// The request is left as it came, marked: the middleware
			// answers it, or, if the server's validator answers first,
			// afterCallTool puts the feedback in its place.
			mark(req, &callState{reject: schema.Feedback(err)})
			return
		}
	}
	req.Params = p
	if changes != nil && len(*changes) > 0 {
		l.Repaired(ctx, name, *changes)
		if c.opts.NoticeRepairs {
			if notice := coerce.Notice(*changes); notice != "" {
				mark(req, &callState{notice: notice})
			}
		}
	}
}

// A callState is what beforeCallTool tells the middleware and
// afterCallTool about a call: the feedback that answers it, or the notice
// to append to its result. mcp-go passes hooks and middleware nothing in
// common but the request, so it travels in the request's _meta, and the
// middleware takes it out again before the handler sees the request.
type callState struct {
	original *mcp.Meta
	reject   string
	notice   string
}

// metaKey is the key of the callState in a request's _meta: no client
// can send a Go pointer under it.
const metaKey = "github.com/coerce-go/coerce/mcpgo"

func mark(req *mcp.CallToolRequest, st *callState) {
	st.original = req.Params.Meta
	meta := &mcp.Meta{AdditionalFields: map[string]any{metaKey: st}}
	if st.original != nil {
		meta.ProgressToken = st.original.ProgressToken
		for k, v := range st.original.AdditionalFields {
			meta.AdditionalFields[k] = v
		}
		meta.AdditionalFields[metaKey] = st
	}
	req.Params.Meta = meta
}

func marked(req *mcp.CallToolRequest) *callState {
	if req.Params.Meta == nil {
		return nil
	}
	st, _ := req.Params.Meta.AdditionalFields[metaKey].(*callState)
	return st
}

// middleware runs in front of the tool's handler: it answers a call marked
// rejected with its feedback, coerces the handler's result to the tool's
// output schema, and appends the notice of a repaired call to it.
func (c *coercer) middleware(next server.ToolHandlerFunc) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		st := marked(&req)
		if st != nil {
			req.Params.Meta = st.original
			if st.reject != "" {
				return mcp.NewToolResultError(st.reject), nil
			}
		}
		res, err := next(ctx, req)
		if err != nil || res == nil || res.IsError {
			return res, err
		}
		if !c.opts.KeepResults {
			res = c.result(ctx, req.Params.Name, res)
		}
		if st == nil || st.notice == "" {
			return res, nil
		}
		out := *res
		out.Content = append(slices.Clip(res.Content), mcp.NewTextContent(st.notice))
		return &out, nil
	}
}

// afterCallTool sees the result of every call, including the answer of
// the server's validator, which runs before any middleware: a call that
// was rejected (beforeCallTool) gets its feedback in place of the
// validator's words.
func (c *coercer) afterCallTool(ctx context.Context, _ any, req *mcp.CallToolRequest, result any) {
	r, ok := result.(*mcp.CallToolResult)
	if c.opts.KeepSDKErrors || !ok || r == nil || !r.IsError || req == nil {
		return
	}
	st := marked(req)
	if st == nil || st.reject == "" {
		return
	}
	r.Content = []mcp.Content{mcp.NewTextContent(st.reject)}
	r.StructuredContent = nil
}

// listeners are the options' listeners, with the client's name and
// version: those the request's _meta names (MCP 2026-07-28, SEP-2575),
// else the session's.
func (c *coercer) listeners() toolcall.Listeners {
	return toolcall.Listeners{
		Inner:    c.opts.Coerce.OnChange,
		OnChange: c.opts.OnChange,
		OnError:  c.opts.OnError,
		Logger:   c.opts.Logger,
		Client:   clientInfo,
	}
}

func clientInfo(ctx context.Context) (string, string) {
	if info := server.RequestProtocolInfoFromContext(ctx); info != nil && info.ClientInfo != nil {
		return info.ClientInfo.Name, info.ClientInfo.Version
	}
	if s, ok := server.ClientSessionFromContext(ctx).(server.SessionWithClientInfo); ok {
		info := s.GetClientInfo()
		return info.Name, info.Version
	}
	return "", ""
}

// coerce converts p's arguments to schema, in place.
func (c *coercer) coerce(schema *coerce.Schema, p *mcp.CallToolParams) error {
	// Prefer the raw JSON: mcp-go decodes Arguments into float64s, so an
	// integer beyond 2^53 is already rounded there (a Discord snowflake
	// inside an object sent for a string parameter would turn into the
	// wrong JSON text), while RawArguments holds the client's exact bytes.
	// Typed handlers (BindArguments) read RawArguments first, the validator
	// and GetArguments read Arguments: both must carry the coerced values.
	if len(p.RawArguments) > 0 {
		out, err := schema.CoerceJSON(p.RawArguments)
		if len(out) == 0 || bytes.Equal(out, p.RawArguments) {
			return err
		}
		var args any // decoded exactly as mcp-go decodes Params.Arguments
		if json.Unmarshal(out, &args) != nil {
			return err // never leave the two fields disagreeing
		}
		p.RawArguments, p.Arguments = out, args
		return err
	}
	// No raw bytes: the request was built in memory, or an earlier hook
	// replaced the arguments and cleared them.
	if args, ok := p.Arguments.(map[string]any); ok {
		out, err := schema.Coerce(args)
		p.Arguments = out
		return err
	}
	return nil
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
