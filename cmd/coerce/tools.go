package main

import (
	"encoding/json"
	"sync"
	"time"

	"github.com/coerce-go/coerce"
)

// A registry holds the input schema of each tool the server listed, learnt
// from the tools/list results that pass through the proxy (the client's
// own, every page of them) and from listings of the proxy's own, made when
// a call names a tool it does not know.
//
// A schema is compiled on the tool's first call, not when listed: a server
// may list hundreds of tools of which a session calls three.
type registry struct {
	opts coerce.Options
	now  func() time.Time

	mu    sync.Mutex
	tools map[string]*toolSchema
	// stale says that the server's tools may have changed since the proxy
	// last listed them all: it has not yet, notifications/tools/list_changed
	// came, or a listing's ttlMs ran out. A call to a tool not known is then
	// worth a listing; otherwise it is passed on as it is, for the server to
	// answer that no such tool exists.
	stale bool
}

type toolSchema struct {
	raw     json.RawMessage
	expires time.Time // zero: until the tools change

	once    sync.Once
	schema  *coerce.Schema
	headers []headerParam // parameters mirrored into Mcp-Param-* headers (SEP-2243)
	err     error
}

func newRegistry(opts coerce.Options) *registry {
	return &registry{opts: opts, now: time.Now, tools: map[string]*toolSchema{}, stale: true}
}

// listResult is what the proxy reads of a tools/list result.
type listResult struct {
	Tools []struct {
		Name        string          `json:"name"`
		InputSchema json.RawMessage `json:"inputSchema"`
	} `json:"tools"`
	NextCursor string `json:"nextCursor"`
	TTLMs      *int64 `json:"ttlMs"` // SEP-2549: how long the list may be cached
}

// learn records the tools of one page of a tools/list result, and returns
// the cursor of the next page ("" for the last).
func (r *registry) learn(result json.RawMessage) (next string, err error) {
	var lr listResult
	if err := json.Unmarshal(result, &lr); err != nil {
		return "", err
	}
	var expires time.Time
	if lr.TTLMs != nil {
		expires = r.now().Add(time.Duration(*lr.TTLMs) * time.Millisecond)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, t := range lr.Tools {
		if len(t.InputSchema) == 0 || t.Name == "" {
			continue
		}
		r.tools[t.Name] = &toolSchema{raw: t.InputSchema, expires: expires}
	}
	return lr.NextCursor, nil
}

// listed records that the proxy listed every page: what it did not find is
// not there.
func (r *registry) listed() {
	r.mu.Lock()
	r.stale = false
	r.mu.Unlock()
}

// changed forgets every schema, on notifications/tools/list_changed: a tool
// may have been removed or replaced under its name with another schema, and
// coercing to an old schema would break a call that fits the new one.
func (r *registry) changed() {
	r.mu.Lock()
	clear(r.tools)
	r.stale = true
	r.mu.Unlock()
}

// lookup returns the compiled schema of a tool, or nil; list says that a
// listing is worth making first (the tool is unknown or its listing has
// expired, and the tools may have changed since the last full listing).
func (r *registry) lookup(name string) (ts *toolSchema, list bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	ts = r.tools[name]
	if ts != nil && !ts.expires.IsZero() && r.now().After(ts.expires) {
		delete(r.tools, name)
		r.stale = true
		ts = nil
	}
	if ts == nil {
		return nil, r.stale
	}
	return ts, false
}

// compiled returns the tool's schema, compiling it on first use.
func (ts *toolSchema) compiled(opts coerce.Options) (*coerce.Schema, error) {
	ts.once.Do(func() {
		ts.schema, ts.err = opts.ParseSchema(ts.raw)
		if ts.err == nil {
			ts.headers = headerParams(ts.raw)
		}
	})
	return ts.schema, ts.err
}
