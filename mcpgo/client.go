package mcpgocoerce

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coerce-go/coerce"
	"github.com/coerce-go/coerce/toolcall"
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
// after the server sends notifications/tools/list_changed, when a call
// names a tool the last listing did not hold, once the ttlMs of the listing
// has run out (MCP 2026-07-28, SEP-2549: the earliest of its pages; 0, what
// mcp-go and go-sdk servers send unless told otherwise, means before every
// call), and after a call the server refused with -32020 (HeaderMismatch,
// SEP-2243), which is then sent once more. Each input schema is compiled
// once, and again only when the server lists another schema under the
// tool's name.
//
// Calls that need a listing at once share one, and each waits for it only
// until its own context is done: a slow tools/list holds no call past its
// deadline. The listing goes on for the calls still waiting, and is
// cancelled when none is.
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
	res, err := c.send(ctx, request)
	if mcp.IsHeaderMismatch(err) {
		// The server found the Mcp-Param-* headers of the call unlike its
		// arguments (SEP-2243): it checks them against the tool as it is
		// now, and both the headers (mcp-go's client makes them from its
		// last listing) and the coercion came from an older listing. The
		// server refuses such a call before any handler runs, so it is
		// sent once more, after listing the tools again.
		c.tools.mismatched.Add(1)
		res, err = c.send(ctx, request)
	}
	return res, err
}

// send coerces the arguments of request (a copy) and sends it.
func (c *Client) send(ctx context.Context, request mcp.CallToolRequest) (*mcp.CallToolResult, error) {
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
	if o.OnChange = toolcall.ReportChanges(ctx, tool, o.OnChange, c.opts.OnChange, c.opts.Logger); o.OnChange == nil {
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
// package toolcall.
func (c *Client) failArguments(ctx context.Context, tool string, err error) {
	toolcall.Listeners{OnError: c.opts.OnError, Logger: c.opts.Logger}.Rejected(ctx, tool, err)
}

// sameBytes reports whether a and b are the same slice: CoerceJSON returns
// its argument itself when nothing changed.
func sameBytes(a, b []byte) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// listTools lists every tool of the server, page after page, by
// ListToolsByPage, so that a client.MCPClient whose ListTools returns one
// page is listed whole too. It says until when the listing is fresh: the
// earliest end of the ttlMs of its pages (MCP 2026-07-28), or the zero
// time if none has one.
func (c *Client) listTools(ctx context.Context) ([]mcp.Tool, time.Time, error) {
	var tools []mcp.Tool
	var expires time.Time
	var req mcp.ListToolsRequest
	seen := map[mcp.Cursor]bool{}
	for {
		res, err := c.MCPClient.ListToolsByPage(ctx, req)
		if err != nil {
			return nil, time.Time{}, fmt.Errorf("mcpgocoerce: listing the tools: %w", err)
		}
		if ms, ok := res.TTL(); ok {
			end := time.Now().Add(time.Duration(max(ms, 0)) * time.Millisecond)
			if expires.IsZero() || end.Before(expires) {
				expires = end
			}
		}
		tools = append(tools, res.Tools...)
		if res.NextCursor == "" || seen[res.NextCursor] {
			return tools, expires, nil
		}
		seen[res.NextCursor] = true
		req.Params.Cursor = res.NextCursor
	}
}

// clientTools knows the input schemas of the server's tools, as the server
// last listed them. A call finds its tool with two atomic loads, a clock
// reading and a map lookup; the tools are listed again only once they may
// be stale.
type clientTools struct {
	// notified counts the notifications/tools/list_changed received;
	// missed counts the calls that named a tool the listing did not hold;
	// mismatched the calls the server refused with -32020 (HeaderMismatch).
	// A listing made before any of them last changed may be stale.
	notified   atomic.Uint64
	missed     atomic.Uint64
	mismatched atomic.Uint64

	current atomic.Pointer[toolListing]

	// mu guards flight, the listing under way. Calls that find the
	// listing stale at once share that one listing, and each waits for it
	// only as long as its own context allows.
	mu     sync.Mutex
	flight *listingFlight
}

// A toolListing is the tools as one listing found them; never modified
// once stored.
type toolListing struct {
	gen     uint64
	expires time.Time // the end of its ttlMs; zero when the server gave none
	tools   map[string]*clientSchema
}

// A listingFlight is one listing of the tools under way, shared by the
// calls that wait for it. It runs on a context of its own, cancelled once
// every call waiting for it has given up, so that one call's deadline
// neither ends the listing the others wait for nor holds them past theirs.
type listingFlight struct {
	gen     uint64
	done    chan struct{}
	cancel  context.CancelFunc
	waiters int // guarded by clientTools.mu

	// Set before done is closed.
	listing *toolListing
	err     error
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

func (t *clientTools) gen() uint64 {
	return t.notified.Load() + t.missed.Load() + t.mismatched.Load()
}

// fresh reports whether l may be used without listing again: no reason to
// list came after it began, and its ttlMs has not run out.
func (t *clientTools) fresh(l *toolListing, gen uint64) bool {
	return l != nil && l.gen == gen && (l.expires.IsZero() || time.Now().Before(l.expires))
}

// A listFunc lists the server's tools and says until when the listing is
// fresh (the zero time: until something says otherwise).
type listFunc func(context.Context) ([]mcp.Tool, time.Time, error)

// lookup returns the schema of the named tool, or nil if the server does
// not list it (or lists it without an input schema), listing the tools
// first when the listing may be stale or does not hold the name.
func (t *clientTools) lookup(ctx context.Context, name string, list listFunc) (*clientSchema, error) {
	l := t.current.Load()
	if t.fresh(l, t.gen()) {
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

// refresh returns a listing begun after the latest reason to list again:
// the current one if it is, or that of the listing under way for the same
// reasons, started if there is none. It waits for the listing only until
// ctx is done, and then returns ctx's error.
func (t *clientTools) refresh(ctx context.Context, list listFunc) (*toolListing, error) {
	t.mu.Lock()
	gen := t.gen()
	if l := t.current.Load(); t.fresh(l, gen) {
		t.mu.Unlock()
		return l, nil
	}
	f := t.flight
	if f == nil || f.gen != gen {
		// A listing begun before the latest reason to list may miss it:
		// start another. The older one goes on for those who wait for it.
		lctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
		f = &listingFlight{gen: gen, done: make(chan struct{}), cancel: cancel}
		t.flight = f
		go t.run(lctx, f, list)
	}
	f.waiters++
	t.mu.Unlock()

	select {
	case <-f.done:
		return f.listing, f.err
	case <-ctx.Done():
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	select {
	case <-f.done: // it ended meanwhile: the listing is as good as the error
		return f.listing, f.err
	default:
	}
	if f.waiters--; f.waiters == 0 {
		// Nobody waits for it any more: end it, and let the next call
		// start afresh.
		f.cancel()
		if t.flight == f {
			t.flight = nil
		}
	}
	return nil, fmt.Errorf("mcpgocoerce: listing the tools: %w", context.Cause(ctx))
}

// run lists the tools for flight f and stores the listing, unless a
// listing begun for later reasons was stored meanwhile.
func (t *clientTools) run(ctx context.Context, f *listingFlight, list listFunc) {
	defer f.cancel()
	tools, expires, err := list(ctx)
	var l *toolListing
	if err == nil {
		l = newListing(f.gen, expires, tools, t.current.Load())
	}
	t.mu.Lock()
	if l != nil {
		if old := t.current.Load(); old == nil || old.gen <= l.gen {
			t.current.Store(l)
		}
	}
	if t.flight == f {
		t.flight = nil
	}
	f.listing, f.err = l, err
	t.mu.Unlock()
	close(f.done)
}

// newListing makes the listing of tools, sharing with old the entry of each
// tool whose schema text did not change, and its compilation with it.
func newListing(gen uint64, expires time.Time, tools []mcp.Tool, old *toolListing) *toolListing {
	l := &toolListing{gen: gen, expires: expires, tools: make(map[string]*clientSchema, len(tools))}
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
	return l
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
