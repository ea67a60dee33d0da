package gosdkcoerce

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
	"weak"

	"github.com/coerce-go/coerce"
	"github.com/coerce-go/coerce/toolcall"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A ClientSession is an [mcp.ClientSession] whose CallTool coerces the
// arguments to the input schema the server listed for the tool before it
// sends the call. It is for hosts and gateways that forward a model's tool
// calls to servers they do not own and cannot fix: the server's validator
// then sees arguments of the types it declared.
//
// Every other method is the embedded session's own. A ClientSession is safe
// for concurrent use, as the session is.
type ClientSession struct {
	*mcp.ClientSession

	opts  Options
	tools clientTools
}

// WrapClient is Options{}.WrapClient: it coerces with coerce's defaults and
// reports nothing.
func WrapClient(session *mcp.ClientSession) *ClientSession {
	return Options{}.WrapClient(session)
}

// WrapClient returns session with a CallTool that coerces the arguments of
// each call to the input schema of the tool, as the server lists it in
// tools/list. The tools are listed (every page) at the first call, and again
// after the server announces notifications/tools/list_changed to a client
// whose ToolListChangedHandler is [RefreshSchemas], when a call names a
// tool the last listing did not hold, once the ttlMs of the listing has run
// out (MCP 2026-07-28, SEP-2549: the earliest of its pages; 0, what go-sdk
// and mcp-go servers send unless told otherwise, means before every call),
// and after a call the server refused with -32020 (HeaderMismatch, SEP-2243),
// which is then sent once more. Each input schema is compiled once, and
// again only when the server lists another schema under the tool's name.
//
// Calls that need a listing at once share one, and each waits for it only
// until its own context is done: a slow tools/list holds no call past its
// deadline. The listing goes on for the calls still waiting, and is
// cancelled when none is.
//
// OnChange and Logger hear of each repair with the call's context and the
// tool's name; OnError, and Logger at warn level, of the arguments that
// could not be repaired, and of a listing or schema that could not be read.
// The call is sent regardless, with those arguments as the caller gave them:
// the server's answer is then the one it would give without coercion.
func (o Options) WrapClient(session *mcp.ClientSession) *ClientSession {
	return &ClientSession{
		ClientSession: session,
		opts:          o,
		tools:         clientTools{notified: toolChanges(session)},
	}
}

// RefreshSchemas returns a ToolListChangedHandler for [mcp.ClientOptions]
// that makes the next CallTool of every ClientSession wrapping the notified
// session list the tools again, then calls next, the handler of your own (it
// may be nil):
//
//	client := mcp.NewClient(impl, &mcp.ClientOptions{
//		ToolListChangedHandler: gosdkcoerce.RefreshSchemas(onToolsChanged),
//	})
//
// The SDK subscribes to tool changes only for a client with such a handler,
// so without one a tool that changes its schema under the same name is
// coerced to the old schema until a call names a tool the listing lacks.
func RefreshSchemas(next func(context.Context, *mcp.ToolListChangedRequest)) func(context.Context, *mcp.ToolListChangedRequest) {
	return func(ctx context.Context, req *mcp.ToolListChangedRequest) {
		if s, ok := req.GetSession().(*mcp.ClientSession); ok && s != nil {
			toolChanges(s).Add(1)
		}
		if next != nil {
			next(ctx, req)
		}
	}
}

// changes counts, per session, the tools/list_changed notifications that
// RefreshSchemas saw. The handler is set on the mcp.Client before its
// sessions exist and is handed only the session, so the count is found by
// the session. Keys are weak, and a session's entry is deleted once the
// session is collected, so the map holds no session alive.
var changes sync.Map // weak.Pointer[mcp.ClientSession] → *atomic.Uint64

// toolChanges returns the notification count of s.
func toolChanges(s *mcp.ClientSession) *atomic.Uint64 {
	if s == nil {
		return new(atomic.Uint64)
	}
	key := weak.Make(s)
	if v, ok := changes.Load(key); ok {
		return v.(*atomic.Uint64)
	}
	v, loaded := changes.LoadOrStore(key, new(atomic.Uint64))
	if !loaded {
		runtime.AddCleanup(s, func(key weak.Pointer[mcp.ClientSession]) { changes.Delete(key) }, key)
	}
	return v.(*atomic.Uint64)
}

// CallTool coerces params.Arguments to the input schema of the named tool,
// then calls the tool as [mcp.ClientSession.CallTool] does. params is not
// modified, nor its Meta: the call is sent as a copy, whose Arguments, when
// repaired, is the repaired JSON object (a map[string]any for a
// map[string]any; a json.RawMessage for JSON text, a struct or a typed map).
// Arguments that already conform are sent as given, the same value. A tool
// the server does not list is called as given, so that the server answers
// for it.
func (c *ClientSession) CallTool(ctx context.Context, params *mcp.CallToolParams) (*mcp.CallToolResult, error) {
	if params == nil {
		return c.ClientSession.CallTool(ctx, params)
	}
	// A copy, always: the SDK writes into the params it is given and into
	// its Meta (request metadata, {} for nil arguments), and a gateway may
	// send one params value to several servers at once.
	res, err := c.send(ctx, params)
	if headerMismatch(err) {
		// The server found the Mcp-Param-* headers of the call unlike its
		// arguments (SEP-2243): it checks them against the tool as it is
		// now, and both the headers and the coercion came from an older
		// listing. The server refuses such a call before any handler
		// runs, so it is sent once more, after listing the tools again.
		c.tools.mismatched.Add(1)
		res, err = c.send(ctx, params)
	}
	return res, err
}

// send coerces a copy of params and sends it.
func (c *ClientSession) send(ctx context.Context, params *mcp.CallToolParams) (*mcp.CallToolResult, error) {
	p := *params
	if p.Meta != nil {
		p.Meta = maps.Clone(p.Meta)
	}
	if p.Arguments != nil {
		p.Arguments = c.coerce(ctx, p.Name, p.Arguments)
	}
	return c.ClientSession.CallTool(ctx, &p)
}

// headerMismatch reports whether err is the JSON-RPC error -32020
// (HeaderMismatch) of MCP 2026-07-28.
func headerMismatch(err error) bool {
	var e *jsonrpc.Error
	return errors.As(err, &e) && e.Code == mcp.CodeHeaderMismatch
}

// coerce returns args coerced to the input schema of tool: args itself when
// they conform, or cannot be coerced at all.
func (c *ClientSession) coerce(ctx context.Context, tool string, args any) any {
	e, err := c.tools.lookup(ctx, tool, c.listTools)
	if err != nil {
		c.fail(ctx, tool, err)
		return args
	}
	if e == nil {
		return args // not a tool of the server: it says so
	}
	schema, err := e.schema(c.opts.Coerce)
	if err != nil {
		c.fail(ctx, tool, err)
		return args
	}
	schema = c.perCall(ctx, tool, schema)
	switch a := args.(type) {
	case map[string]any:
		out, err := schema.Coerce(a)
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
	// conforming value reaches the SDK as the caller built it.
	text, err := json.Marshal(args)
	if err != nil {
		c.fail(ctx, tool, fmt.Errorf("gosdkcoerce: arguments of %q: %w", tool, err))
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

// perCall is the server's perCall: schema with an OnChange that brings the
// call's context and tool to Options.OnChange and Options.Logger.
func (c *ClientSession) perCall(ctx context.Context, tool string, schema *coerce.Schema) *coerce.Schema {
	o := c.opts.Coerce
	if c.opts.OnChange == nil && c.opts.Logger == nil {
		return schema
	}
	if o.OnChange = toolcall.ReportChanges(ctx, tool, o.OnChange, c.opts.OnChange, c.opts.Logger); o.OnChange == nil {
		return schema
	}
	return schema.WithOptions(o)
}

// fail reports what kept the call from being coerced at all: the tools
// could not be listed, the schema could not be read, the arguments could
// not be written as JSON.
func (c *ClientSession) fail(ctx context.Context, tool string, err error) {
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
func (c *ClientSession) failArguments(ctx context.Context, tool string, err error) {
	toolcall.Listeners{OnError: c.opts.OnError, Logger: c.opts.Logger}.Rejected(ctx, tool, err)
}

// protocolWithTTL is the first protocol version whose list results carry
// ttlMs (SEP-2549). The SDK decodes an absent ttlMs as 0, which on that
// protocol means "stale at once": on an older one it means nothing.
const protocolWithTTL = "2026-07-28"

// listTools lists every tool of the server, page after page, and says until
// when the listing is fresh: the earliest end of the ttlMs of its pages, or
// the zero time on a protocol whose results carry no ttlMs.
func (c *ClientSession) listTools(ctx context.Context) ([]*mcp.Tool, time.Time, error) {
	withTTL := false
	if r := c.ClientSession.InitializeResult(); r != nil && r.ProtocolVersion >= protocolWithTTL {
		withTTL = true
	}
	var tools []*mcp.Tool
	var expires time.Time
	params := &mcp.ListToolsParams{}
	seen := map[string]bool{}
	for {
		res, err := c.ClientSession.ListTools(ctx, params)
		if err != nil {
			return nil, time.Time{}, fmt.Errorf("gosdkcoerce: listing the tools: %w", err)
		}
		if withTTL {
			end := time.Now().Add(time.Duration(max(res.TTLMs, 0)) * time.Millisecond)
			if expires.IsZero() || end.Before(expires) {
				expires = end
			}
		}
		tools = append(tools, res.Tools...)
		if res.NextCursor == "" || seen[res.NextCursor] {
			return tools, expires, nil
		}
		seen[res.NextCursor] = true
		params = &mcp.ListToolsParams{Cursor: res.NextCursor}
	}
}

// clientTools knows the input schemas of the server's tools, as the server
// last listed them. A call finds its tool with two atomic loads, a clock
// reading and a map lookup; the tools are listed again only once they may
// be stale.
type clientTools struct {
	// notified counts the tools/list_changed notifications of the session
	// (see RefreshSchemas); missed counts the calls that named a tool the
	// listing did not hold; mismatched the calls the server refused with
	// -32020 (HeaderMismatch). A listing made before any of them last
	// changed may be stale.
	notified   *atomic.Uint64
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
	n := t.missed.Load() + t.mismatched.Load()
	if t.notified != nil { // nil in a ClientSession not made by WrapClient
		n += t.notified.Load()
	}
	return n
}

// fresh reports whether l may be used without listing again: no reason to
// list came after it began, and its ttlMs has not run out.
func (t *clientTools) fresh(l *toolListing, gen uint64) bool {
	return l != nil && l.gen == gen && (l.expires.IsZero() || time.Now().Before(l.expires))
}

// lookup returns the schema of the named tool, or nil if the server does
// not list it, listing the tools first when the listing may be stale or
// does not hold the name.
func (t *clientTools) lookup(ctx context.Context, name string, list listFunc) (*clientSchema, error) {
	l := t.current.Load()
	if t.fresh(l, t.gen()) {
		if s, ok := l.tools[name]; ok {
			return s, nil
		}
		// The server may have added the tool since, without telling this
		// client (it was not subscribed, or the notice is on its way).
		t.missed.Add(1)
	}
	l, err := t.refresh(ctx, list)
	if err != nil {
		return nil, err
	}
	return l.tools[name], nil
}

// A listFunc lists the server's tools and says until when the listing is
// fresh (the zero time: until something says otherwise).
type listFunc func(context.Context) ([]*mcp.Tool, time.Time, error)

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
	return nil, fmt.Errorf("gosdkcoerce: listing the tools: %w", context.Cause(ctx))
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
func newListing(gen uint64, expires time.Time, tools []*mcp.Tool, old *toolListing) *toolListing {
	l := &toolListing{gen: gen, expires: expires, tools: make(map[string]*clientSchema, len(tools))}
	for _, tool := range tools {
		if tool == nil {
			continue
		}
		text, err := schemaText(tool.InputSchema)
		s := &clientSchema{name: tool.Name, text: text, textErr: err}
		if old != nil && err == nil {
			if prev, ok := old.tools[tool.Name]; ok && prev.textErr == nil && string(prev.text) == string(text) {
				s = prev
			}
		}
		l.tools[tool.Name] = s
	}
	return l
}

// schemaText is the JSON text of an input schema as the SDK's client holds
// it after decoding the listing.
func schemaText(schema any) ([]byte, error) {
	if raw, ok := schema.(json.RawMessage); ok {
		return raw, nil
	}
	return json.Marshal(schema)
}

// schema returns the tool's input schema compiled with o, compiling it on
// first use. Changes are reported per call (see perCall), so o.OnChange is
// part of what every call passes, never of what is compiled.
func (s *clientSchema) schema(o coerce.Options) (*coerce.Schema, error) {
	s.once.Do(func() {
		if s.textErr != nil {
			s.err = fmt.Errorf("gosdkcoerce: input schema of %q: %w", s.name, s.textErr)
			return
		}
		if s.compiled, s.err = o.ParseSchema(s.text); s.err != nil {
			s.err = fmt.Errorf("gosdkcoerce: input schema of %q: %w", s.name, s.err)
		}
	})
	return s.compiled, s.err
}
