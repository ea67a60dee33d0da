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
	return &registry{opts: opts, now: time.Now, tools: map[string]*toolSchema{}}
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
	// ttlMs 0 says "immediately stale" (SEP-2549), and go-sdk v1.8.0 sends
	// it on every list it answers: read to the letter, every call would cost
	// a listing first, doubling its round trips. A proxy can act only on a
	// positive ttlMs; list_changed and -32020 still refresh the schemas.
	var expires time.Time
	if lr.TTLMs != nil && *lr.TTLMs > 0 {
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

// changed forgets every schema, on notifications/tools/list_changed: a tool
// may have been removed or replaced under its name with another schema, and
// coercing to an old schema would break a call that fits the new one.
func (r *registry) changed() {
	r.mu.Lock()
	clear(r.tools)
	r.mu.Unlock()
}

// lookup returns the schema of a tool, or nil when the proxy does not know
// it, or its listing's ttlMs has run out: a listing is then worth making
// first. The rule is the gosdk adapter's: whatever made the tool unknown (a
// client that never listed, a page it did not fetch, a change the server
// told only to subscribers, as MCP 2026-07-28 does), a listing finds it;
// a call to a tool that does not exist costs a listing and then passes on
// for the server to answer.
func (r *registry) lookup(name string) *toolSchema {
	r.mu.Lock()
	defer r.mu.Unlock()
	ts := r.tools[name]
	if ts != nil && !ts.expires.IsZero() && r.now().After(ts.expires) {
		delete(r.tools, name)
		return nil
	}
	return ts
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
