package gosdkcoerce

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/coerce-go/coerce"
	"github.com/coerce-go/coerce/toolcall"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A toolCache knows the tools of one server by name, as the server last
// listed them. A call looks its tool up with two atomic loads and a map
// lookup, whatever the number of tools; the server is listed again only
// after the cache has been invalidated, or for a name it does not hold.
//
// The SDK offers no public way to look a tool up by name, nor to learn
// that its tools changed other than the notifications/tools/list_changed it
// sends to some clients. So the cache is invalidated by that notification,
// by each client that starts (changes made while no client was connected
// are notified to no one), and by a call to a name it does not hold.
type toolCache struct {
	// gen counts invalidations. A snapshot whose gen is not the current one
	// may be stale.
	gen atomic.Uint64

	// current is the latest snapshot, nil before the first listing.
	current atomic.Pointer[snapshot]

	// mu serializes listings, so that the calls that find the cache stale
	// at once share one listing.
	mu sync.Mutex
}

// A snapshot is the server's tools as one listing found them. It is never
// modified once stored.
type snapshot struct {
	// gen is the value of toolCache.gen when the listing began: the
	// snapshot reflects every change invalidated up to it.
	gen   uint64
	tools map[string]*toolEntry
}

// A toolEntry is one tool as registered, and its compiled input schema.
// Snapshots share the entry of a tool that did not change between
// listings, so that each registered tool is compiled at most once, on its
// first call.
type toolEntry struct {
	// def is the tool as the server holds it. The SDK lists the *mcp.Tool
	// it keeps, a new one for each mcp.AddTool, and forbids changing a
	// tool once added, so an unchanged pointer is an unchanged schema, and
	// a tool removed and added again under its name is a new entry.
	def *mcp.Tool

	once     sync.Once
	compiled *coerce.Schema
	err      error

	// The output schema, compiled on the first result to coerce; nil
	// when the tool declares none.
	outputOnce sync.Once
	output     *toolcall.Output
	outputErr  error
}

// invalidate makes the next call list the tools again.
func (c *toolCache) invalidate() { c.gen.Add(1) }

// lookup returns the entry of the named tool, or nil if the server has
// no such tool. When the cache is stale, or does not hold name, it lists
// the tools with list first; an error from list is returned, with a nil
// entry.
func (c *toolCache) lookup(ctx context.Context, name string, list func(context.Context) ([]*mcp.Tool, error)) (*toolEntry, error) {
	s := c.current.Load()
	if s != nil && s.gen == c.gen.Load() {
		if t, ok := s.tools[name]; ok {
			return t, nil
		}
		// The tool may have been added since the listing, while no client
		// was told: a listing that began before this call cannot be
		// trusted to hold it.
		c.invalidate()
	}
	s, err := c.refresh(ctx, list)
	if err != nil {
		return nil, err
	}
	return s.tools[name], nil
}

// refresh returns a snapshot that began after the latest invalidation,
// listing the tools unless another call did so while this one waited.
func (c *toolCache) refresh(ctx context.Context, list func(context.Context) ([]*mcp.Tool, error)) (*snapshot, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	old := c.current.Load()
	gen := c.gen.Load()
	if old != nil && old.gen == gen {
		return old, nil
	}
	tools, err := list(ctx)
	if err != nil {
		return nil, err
	}
	s := &snapshot{gen: gen, tools: make(map[string]*toolEntry, len(tools))}
	for _, t := range tools {
		if t == nil {
			continue
		}
		e := &toolEntry{def: t}
		if old != nil {
			if prev, ok := old.tools[t.Name]; ok && prev.def == t {
				e = prev
			}
		}
		s.tools[t.Name] = e
	}
	c.current.Store(s)
	return s, nil
}

// schema returns the tool's input schema compiled with o, compiling it on
// the first call. Every call of a coercer passes the same o.
func (e *toolEntry) schema(o coerce.Options) (*coerce.Schema, error) {
	e.once.Do(func() {
		text, ok := e.def.InputSchema.(json.RawMessage)
		if !ok {
			var err error
			if text, err = json.Marshal(e.def.InputSchema); err != nil {
				e.err = fmt.Errorf("gosdkcoerce: input schema of %q: %w", e.def.Name, err)
				return
			}
		}
		if e.compiled, e.err = o.ParseSchema(text); e.err != nil {
			e.err = fmt.Errorf("gosdkcoerce: input schema of %q: %w", e.def.Name, e.err)
		}
	})
	return e.compiled, e.err
}

// outputSchema returns the tool's output schema compiled with o, compiling
// it on the first call, or nil if the tool declares none. Every call of a
// coercer passes the same o.
func (e *toolEntry) outputSchema(o coerce.Options) (*toolcall.Output, error) {
	e.outputOnce.Do(func() {
		e.output, e.outputErr = compileOutput(o, e.def.Name, e.def.OutputSchema)
	})
	return e.output, e.outputErr
}

// listTools lists the tools of the server that received call, by sending
// tools/list requests for call's session down the rest of the middleware
// chain, page after page.
func listTools(ctx context.Context, call *mcp.CallToolRequest, next mcp.MethodHandler) ([]*mcp.Tool, error) {
	var tools []*mcp.Tool
	cursor := ""
	for {
		req := &mcp.ListToolsRequest{Session: call.Session, Params: &mcp.ListToolsParams{Cursor: cursor}, Extra: call.Extra}
		res, err := next(ctx, methodListTools, req)
		if err != nil {
			return nil, fmt.Errorf("gosdkcoerce: listing the tools: %w", err)
		}
		page, ok := res.(*mcp.ListToolsResult)
		if !ok {
			return nil, fmt.Errorf("gosdkcoerce: listing the tools: got a %T", res)
		}
		tools = append(tools, page.Tools...)
		if page.NextCursor == "" || page.NextCursor == cursor {
			return tools, nil
		}
		cursor = page.NextCursor
	}
}
