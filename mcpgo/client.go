package mcpgocoerce

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"

	"github.com/coerce-go/coerce"
	"github.com/coerce-go/coerce/internal/adapter"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// A Client is an mcp-go client whose CallTool coerces the arguments to the
// input schema the server listed for the tool before it sends the call. It
// is for hosts and gateways that forward a model's tool calls to servers
// they do not own and cannot fix: the server's validator then sees
// arguments of the types it declared.
//
// A Client is itself a [client.MCPClient]: every other method is the
// wrapped client's own. It is safe for concurrent use if the wrapped client
// is, as mcp-go's [client.Client] is.
type Client struct {
	client.MCPClient

	opts  Options
	tools clientTools
}

// WrapClient is Options{}.WrapClient: it coerces with coerce's defaults and
// reports nothing.
func WrapClient(c client.MCPClient) *Client { return Options{}.WrapClient(c) }

// WrapClient returns c with a CallTool that coerces the arguments of each
// call to the input schema of the tool, as the server lists it in
// tools/list. The tools are listed (every page) at the first call, and again
// after the server sends notifications/tools/list_changed, or when a call
// names a tool the last listing did not hold. Each input schema is compiled
// once, and again only when the server lists another schema under the
// tool's name.
//
// WrapClient registers a notification handler on c with OnNotification,
// beside those c already has, and mcp-go cannot remove one: wrap a client
// once, and share the wrapper. A *client.Client hands notifications to its
// handlers once Start has been called (NewStdioMCPClient starts only the
// transport); on the protocol of 2026-07-28, a server that has a
// subscriptions/listen stream open sends list_changed only if it asked for
// it (Client.Listen with ToolsListChanged). Without the notification a
// changed schema is seen at the next listing, which a call to a tool the
// last listing lacked makes.
//
// OnChange and Logger hear of each repair with the call's context and the
// tool's name; OnError, and Logger at warn level, of the arguments that
// could not be repaired, and of a listing or schema that could not be read.
// The call is sent regardless, with those arguments as the caller gave them:
// the server's answer is then the one it would give without coercion.
func (o Options) WrapClient(c client.MCPClient) *Client {
	w := &Client{MCPClient: c, opts: o}
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method == mcp.MethodNotificationToolsListChanged {
			w.tools.notified.Add(1)
		}
	})
	return w
}

// CallTool coerces the arguments of request to the input schema of the
// named tool, then calls the tool as the wrapped client does. The arguments
// coerced are those mcp-go sends: Params.RawArguments when set, otherwise
// Params.Arguments, whatever Go value it holds (a map[string]any is
// coerced as a map; JSON text, a struct or a typed map becomes the repaired
// json.RawMessage). Arguments that conform are sent as given, and the
// caller's maps are never modified. A tool the server does not list is
// called as given, so that the server answers for it.
func (c *Client) CallTool(ctx context.Context, request mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	p := &request.Params
	switch {
	case len(p.RawArguments) > 0:
		p.RawArguments = c.coerce(ctx, p.Name, p.RawArguments).(json.RawMessage)
	case p.Arguments != nil:
		p.Arguments = c.coerce(ctx, p.Name, p.Arguments)
	}
	return c.MCPClient.CallTool(ctx, request)
}

// coerce returns args coerced to the input schema of tool: args itself when
// they conform, or cannot be coerced at all. JSON text comes back as JSON
// text.
func (c *Client) coerce(ctx context.Context, tool string, args any) any {
	s, err := c.tools.lookup(ctx, tool, c.listTools)
	if err != nil {
		c.fail(ctx, tool, err)
		return args
	}
	if s == nil {
		return args // not a tool of the server, or no schema: it answers
	}
	schema, err := s.schema(c.opts.Coerce)
	if err != nil {
		c.fail(ctx, tool, err)
		return args
	}
	schema = c.perCall(ctx, tool, schema)
	switch a := args.(type) {
	case map[string]any:
		out, err := schema.Coerce(a) // a itself when it conforms
		if err != nil {
			c.failArguments(ctx, tool, err)
		}
		return out
	case json.RawMessage:
		out, err := schema.CoerceJSON(a)
		if err != nil {
			c.failArguments(ctx, tool, err)
		}
		return json.RawMessage(out)
	}
	// A struct, a typed map, a pointer: the server gets its JSON form, so
	// that is what is coerced. Only a changed form replaces the value, so a
	// conforming value is sent as the caller built it.
	text, err := json.Marshal(args)
	if err != nil {
		c.fail(ctx, tool, fmt.Errorf("mcpgocoerce: arguments of %q: %w", tool, err))
		return args
	}
	out, err := schema.CoerceJSON(text)
	if err != nil {
		c.failArguments(ctx, tool, err)
	}
	if sameBytes(out, text) {
		return args
	}
	return json.RawMessage(out)
}

// perCall returns schema with an OnChange that brings the call's context
// and tool to Options.OnChange and Options.Logger, or schema itself when
// nobody listens.
func (c *Client) perCall(ctx context.Context, tool string, schema *coerce.Schema) *coerce.Schema {
	o := c.opts.Coerce
	if o.OnChange = adapter.ReportChanges(ctx, tool, o.OnChange, c.opts.OnChange, c.opts.Logger); o.OnChange == nil {
		return schema
	}
	return schema.WithOptions(o)
}

// fail reports what kept the call from being coerced at all: the tools
// could not be listed, the schema could not be read, the arguments could
// not be written as JSON.
func (c *Client) fail(ctx context.Context, tool string, err error) {
	if c.opts.OnError != nil {
		c.opts.OnError(ctx, tool, err)
	}
	if l := c.opts.Logger; l != nil && l.Enabled(ctx, slog.LevelWarn) {
		l.WarnContext(ctx, "coerce: arguments not repaired", slog.String("tool", tool), slog.Any("err", err))
	}
}

// failArguments reports the arguments that could not be repaired (err
// joins one *coerce.Error per argument) as every integration does: to
// OnError, and to the Logger at warn level with the attributes of
// internal/adapter.
func (c *Client) failArguments(ctx context.Context, tool string, err error) {
	adapter.Listeners{OnError: c.opts.OnError, Logger: c.opts.Logger}.Rejected(ctx, tool, err)
}

// sameBytes reports whether a and b are the same slice: CoerceJSON returns
// its argument itself when nothing changed.
func sameBytes(a, b []byte) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// listTools lists every tool of the server, page after page, by
// ListToolsByPage, so that a client.MCPClient whose ListTools returns one
// page is listed whole too.
func (c *Client) listTools(ctx context.Context) ([]mcp.Tool, error) {
	var tools []mcp.Tool
	var req mcp.ListToolsRequest
	seen := map[mcp.Cursor]bool{}
	for {
		res, err := c.MCPClient.ListToolsByPage(ctx, req)
		if err != nil {
			return nil, fmt.Errorf("mcpgocoerce: listing the tools: %w", err)
		}
		tools = append(tools, res.Tools...)
		if res.NextCursor == "" || seen[res.NextCursor] {
			return tools, nil
		}
		seen[res.NextCursor] = true
		req.Params.Cursor = res.NextCursor
	}
}

// clientTools knows the input schemas of the server's tools, as the server
// last listed them. A call finds its tool with two atomic loads and a map
// lookup; the tools are listed again only once they may be stale.
type clientTools struct {
	// notified counts the notifications/tools/list_changed received;
	// missed counts the calls that named a tool the listing did not hold.
	// A listing made before either last changed may be stale.
	notified atomic.Uint64
	missed   atomic.Uint64

	current atomic.Pointer[toolListing]

	// mu serializes listings, so that calls that find the listing stale at
	// once share one.
	mu sync.Mutex
}

// A toolListing is the tools as one listing found them; never modified
// once stored.
type toolListing struct {
	gen   uint64
	tools map[string]*clientSchema
}

// A clientSchema is the input schema of one tool: its JSON text, which is
// all a client knows of a tool's identity, and the schema compiled from it
// on the tool's first call. Listings share the entry of a tool whose text
// did not change.
type clientSchema struct {
	name    string
	text    []byte
	textErr error // writing the listed schema as text failed; set before the entry is shared

	// Written once, by the first call's compilation, which other calls
	// may be running beside: refresh reads only the fields above.
	once     sync.Once
	compiled *coerce.Schema
	err      error
}

func (t *clientTools) gen() uint64 { return t.notified.Load() + t.missed.Load() }

// lookup returns the schema of the named tool, or nil if the server does
// not list it (or lists it without an input schema), listing the tools
// first when the listing may be stale or does not hold the name.
func (t *clientTools) lookup(ctx context.Context, name string, list func(context.Context) ([]mcp.Tool, error)) (*clientSchema, error) {
	l := t.current.Load()
	if l != nil && l.gen == t.gen() {
		if s, ok := l.tools[name]; ok {
			return s, nil
		}
		// The server may have added the tool since, and its notice is on
		// its way, or was never sent.
		t.missed.Add(1)
	}
	l, err := t.refresh(ctx, list)
	if err != nil {
		return nil, err
	}
	return l.tools[name], nil
}

// refresh returns a listing made after the latest reason to list again,
// listing the tools unless another call did while this one waited.
func (t *clientTools) refresh(ctx context.Context, list func(context.Context) ([]mcp.Tool, error)) (*toolListing, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	old := t.current.Load()
	gen := t.gen()
	if old != nil && old.gen == gen {
		return old, nil
	}
	tools, err := list(ctx)
	if err != nil {
		return nil, err
	}
	l := &toolListing{gen: gen, tools: make(map[string]*clientSchema, len(tools))}
	for _, tool := range tools {
		text, ok, err := listedSchema(tool)
		if !ok {
			l.tools[tool.Name] = nil // listed, without a schema to coerce to
			continue
		}
		s := &clientSchema{name: tool.Name, text: text, textErr: err}
		if old != nil && err == nil {
			if prev := old.tools[tool.Name]; prev != nil && prev.textErr == nil && string(prev.text) == string(text) {
				s = prev
			}
		}
		l.tools[tool.Name] = s
	}
	t.current.Store(l)
	return l, nil
}

// listedSchema returns the JSON text of a listed tool's input schema, and
// false if it has none. mcp-go's client decodes the schema into
// ToolInputSchema, which keeps type, properties (each whole), required,
// additionalProperties and $defs: that is the schema coerced to.
func listedSchema(tool mcp.Tool) ([]byte, bool, error) {
	if len(tool.RawInputSchema) > 0 {
		return tool.RawInputSchema, true, nil
	}
	in := tool.InputSchema
	if in.Type == "" && len(in.Properties) == 0 && in.AdditionalProperties == nil && len(in.Defs) == 0 {
		return nil, false, nil
	}
	text, err := json.Marshal(in)
	return text, true, err
}

// schema returns the tool's input schema compiled with o, compiling it on
// first use. Changes are reported per call (see perCall), never by what is
// compiled.
func (s *clientSchema) schema(o coerce.Options) (*coerce.Schema, error) {
	s.once.Do(func() {
		if s.err = s.textErr; s.err == nil {
			o.OnChange = nil
			s.compiled, s.err = o.ParseSchema(s.text)
		}
		if s.err != nil {
			s.err = fmt.Errorf("mcpgocoerce: input schema of %q: %w", s.name, s.err)
		}
	})
	return s.compiled, s.err
}
