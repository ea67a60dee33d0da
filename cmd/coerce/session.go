package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"sync"

	"github.com/coerce-go/coerce"
)

// A session is the proxy's view of one client's conversation with one
// server, whatever carries it (stdio or HTTP): it learns tool schemas from
// what the server sends and coerces the arguments of what the client calls.
// Every message it has no reason to change is passed on as the very bytes
// that came.
type session struct {
	reg  *registry
	opts coerce.Options
	log  *slog.Logger // nil: no logs

	mu sync.Mutex
	// lists holds the ids of the client's tools/list requests whose results
	// have not come yet: their results teach the proxy the schemas.
	lists map[string]bool
	// own holds the proxy's own requests awaiting their responses, by id.
	own    map[string]chan envelope
	nextID int
	closed bool
}

func newSession(reg *registry, opts coerce.Options, log *slog.Logger) *session {
	return &session{reg: reg, opts: opts, log: log, lists: map[string]bool{}, own: map[string]chan envelope{}}
}

// A lister lists the server's tools with requests of the proxy's own, every
// page, for a call that names a tool the proxy does not know. meta is the
// call's _meta, which a stateless server (MCP 2026-07-28) needs on every
// request to know the client and the protocol version.
type lister func(ctx context.Context, meta json.RawMessage) error

// A callOutcome is what became of one message from the client.
type callOutcome struct {
	forward []byte // to the server; nil: nothing
	reply   []byte // to the client from the proxy; nil: nothing
	// For a tools/call passed on: the tool's parameters mirrored in
	// headers, and the arguments as forwarded, for HTTP to recompute them.
	headers []headerParam
	args    []byte
	changed bool
}

// fromClient handles one message (or batch) from the client.
func (s *session) fromClient(ctx context.Context, msg []byte, list lister) callOutcome {
	// Every method the proxy acts on starts with "tools" (the "/" may be
	// escaped): the rest is passed on without being parsed.
	if !bytes.Contains(msg, []byte("tools")) {
		return callOutcome{forward: msg}
	}
	parts, isBatch := splitBatch(msg)
	if !isBatch {
		return s.clientMessage(ctx, msg, list)
	}
	// Batches (JSON-RPC 2.0; MCP before 2025-06-18): each message is handled
	// alone. The batch is rebuilt only if one changed or was answered here,
	// keeping the bytes of each message.
	var fwd, replies [][]byte
	rebuilt := false
	for _, p := range parts {
		o := s.clientMessage(ctx, p, list)
		if o.forward != nil {
			fwd = append(fwd, o.forward)
		}
		if o.reply != nil {
			replies = append(replies, o.reply)
		}
		rebuilt = rebuilt || o.changed || o.reply != nil
	}
	var out callOutcome
	if !rebuilt {
		out.forward = msg
	} else if len(fwd) > 0 {
		out.forward = joinBatch(fwd)
		out.changed = true
	}
	if len(replies) > 0 {
		out.reply = joinBatch(replies)
	}
	return out
}

func (s *session) clientMessage(ctx context.Context, msg []byte, list lister) callOutcome {
	var env envelope
	if json.Unmarshal(msg, &env) != nil || !env.isRequest() {
		return callOutcome{forward: msg}
	}
	switch env.Method {
	case "tools/list":
		s.mu.Lock()
		s.lists[idKey(env.ID)] = true
		s.mu.Unlock()
	case "tools/call":
		return s.coerceCall(ctx, msg, &env, list)
	}
	return callOutcome{forward: msg}
}

// coerceCall rewrites the arguments of one tools/call request, and only
// them, or answers it when they cannot be made to fit.
func (s *session) coerceCall(ctx context.Context, msg []byte, env *envelope, list lister) callOutcome {
	pass := callOutcome{forward: msg}
	var p struct {
		Name      string          `json:"name"`
		Meta      json.RawMessage `json:"_meta"`
		Arguments json.RawMessage `json:"arguments"`
	}
	if json.Unmarshal(env.Params, &p) != nil {
		return pass
	}
	ts := s.reg.lookup(p.Name)
	if ts == nil && list != nil {
		if err := list(ctx, p.Meta); err != nil {
			s.logf(slog.LevelWarn, "listing tools failed; the call is passed on as it came", "tool", p.Name, "err", err)
		}
		ts = s.reg.lookup(p.Name)
	}
	if ts == nil {
		return pass // the server will say that there is no such tool
	}
	schema, err := ts.compiled(s.opts)
	if err != nil {
		s.logf(slog.LevelWarn, "the tool's input schema does not compile; its calls are passed on as they come", "tool", p.Name, "err", err)
		return pass
	}
	if len(p.Arguments) == 0 {
		return pass // no arguments: nothing to coerce
	}
	pass.headers, pass.args = ts.headers, p.Arguments

	var changes []coerce.Change
	if s.log != nil {
		o := s.opts
		o.OnChange = func(c coerce.Change) { changes = append(changes, c) }
		schema = schema.WithOptions(o)
	}
	out, err := schema.CoerceJSON(p.Arguments)
	if err != nil {
		text := schema.Feedback(err)
		s.logf(slog.LevelWarn, "rejected", "tool", p.Name, "id", string(env.ID), "feedback", text)
		return callOutcome{reply: toolErrorResponse(env.ID, text)}
	}
	if sameBytes(out, p.Arguments) {
		return pass // the very bytes that came
	}
	// Only now is it worth finding where the arguments lie in the message,
	// to replace them and keep every other byte.
	start, end, err := argumentsSpan(msg)
	if err != nil || !bytes.Equal(msg[start:end], p.Arguments) {
		// Cannot happen for a message that decoded; never guess.
		return pass
	}
	if s.log != nil {
		s.logf(slog.LevelInfo, "repaired", "tool", p.Name, "id", string(env.ID), "changes", describeChanges(changes))
	}
	return callOutcome{forward: splice(msg, start, end, out), headers: ts.headers, args: out, changed: true}
}

// sameBytes reports whether CoerceJSON returned its input, which it does,
// without copying, when nothing needed converting.
func sameBytes(out, in []byte) bool {
	if len(out) != len(in) {
		return false
	}
	return len(in) == 0 || &out[0] == &in[0] || bytes.Equal(out, in)
}

// fromServer handles one message (or batch) from the server and returns
// what to pass on to the client: the message as it came, or nil for a
// response to a request of the proxy's own.
func (s *session) fromServer(msg []byte) []byte {
	s.mu.Lock()
	waiting := len(s.lists) > 0 || len(s.own) > 0
	s.mu.Unlock()
	if !waiting && !bytes.Contains(msg, []byte("list_changed")) && !bytes.Contains(msg, []byte("-32020")) {
		return msg
	}
	parts, isBatch := splitBatch(msg)
	if !isBatch {
		if s.serverMessage(msg) {
			return msg
		}
		return nil
	}
	var keep [][]byte
	for _, p := range parts {
		if s.serverMessage(p) {
			keep = append(keep, p)
		}
	}
	switch {
	case len(keep) == len(parts):
		return msg
	case len(keep) == 0:
		return nil
	}
	return joinBatch(keep)
}

// serverMessage learns what one message from the server teaches, and
// reports whether the client is to receive it.
func (s *session) serverMessage(msg []byte) bool {
	var env envelope
	if json.Unmarshal(msg, &env) != nil {
		return true
	}
	if env.isNotification() {
		if env.Method == "notifications/tools/list_changed" {
			s.reg.changed()
		}
		return true
	}
	if !env.isResponse() {
		return true
	}
	if headerMismatch(env.Error) {
		// -32020 (SEP-2243): the server found an Mcp-Param-* header unequal
		// to the body, which the proxy computed from a schema that may be
		// out of date: it lists the tools again before the next call.
		s.reg.changed()
	}
	key := idKey(env.ID)
	s.mu.Lock()
	ch, own := s.own[key]
	if own {
		delete(s.own, key)
	}
	isList := s.lists[key]
	delete(s.lists, key)
	s.mu.Unlock()
	if own {
		ch <- env // buffered
		return false
	}
	if isList && len(env.Result) > 0 {
		if _, err := s.reg.learn(env.Result); err != nil {
			s.logf(slog.LevelWarn, "unreadable tools/list result", "err", err)
		}
	}
	return true
}

// ownRequest registers a request of the proxy's own and returns its bytes
// and the channel its response will come on. Its id is a string no client
// is likely to use, so that the response is told from theirs.
func (s *session) ownRequest(method string, params any) ([]byte, string, chan envelope, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, "", nil, errServerGone
	}
	s.nextID++
	id := strconv.Quote("coerce-mcp-proxy-" + strconv.Itoa(s.nextID))
	msg, err := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Method  string          `json:"method"`
		Params  any             `json:"params"`
	}{"2.0", json.RawMessage(id), method, params})
	if err != nil {
		return nil, "", nil, err
	}
	ch := make(chan envelope, 1)
	s.own[id] = ch
	return msg, id, ch, nil
}

// forget drops a request of the proxy's own that will not be waited for.
func (s *session) forget(id string) {
	s.mu.Lock()
	delete(s.own, id)
	s.mu.Unlock()
}

var errServerGone = errors.New("the server closed the connection")

// close fails the proxy's requests in flight: the server is gone.
func (s *session) close() {
	s.mu.Lock()
	s.closed = true
	for id, ch := range s.own {
		close(ch)
		delete(s.own, id)
	}
	s.mu.Unlock()
}

// listAll lists every page of the server's tools with requests of the
// proxy's own, sent by send and answered through fromServer.
func (s *session) listAll(ctx context.Context, meta json.RawMessage, send func([]byte) error) error {
	m := ownMeta(meta)
	cursor := ""
	for page := 0; ; page++ {
		if page == maxListPages {
			return fmt.Errorf("tools/list: more than %d pages", maxListPages)
		}
		params := map[string]any{}
		if m != nil {
			params["_meta"] = m
		}
		if cursor != "" {
			params["cursor"] = cursor
		}
		msg, id, ch, err := s.ownRequest("tools/list", params)
		if err != nil {
			return err
		}
		if err := send(msg); err != nil {
			s.forget(id)
			return err
		}
		var resp envelope
		var ok bool
		select {
		case resp, ok = <-ch:
			if !ok {
				return errServerGone
			}
		case <-ctx.Done():
			s.forget(id)
			return ctx.Err()
		}
		if len(resp.Error) > 0 {
			return fmt.Errorf("tools/list: %s", resp.Error)
		}
		if cursor, err = s.reg.learn(resp.Result); err != nil {
			return fmt.Errorf("tools/list: %v", err)
		}
		if cursor == "" {
			return nil
		}
	}
}

const maxListPages = 1000

// ownMeta is the _meta of the proxy's own tools/list: the call's, without
// its progress token, which belongs to the call (the server would report the
// listing's progress to the client under it).
func ownMeta(meta json.RawMessage) map[string]json.RawMessage {
	var m map[string]json.RawMessage
	if json.Unmarshal(meta, &m) != nil || len(m) == 0 {
		return nil
	}
	delete(m, "progressToken")
	if len(m) == 0 {
		return nil
	}
	return m
}

func (s *session) logf(level slog.Level, msg string, args ...any) {
	if s.log != nil {
		s.log.Log(context.Background(), level, msg, args...)
	}
}

// describeChanges writes changes on one line for a log: where and by which
// rule, "/a number-from-text, /tags json-text".
func describeChanges(changes []coerce.Change) string {
	var b []byte
	for i, c := range changes {
		if i > 0 {
			b = append(b, ", "...)
		}
		path := c.Path
		if path == "" {
			path = "/"
		}
		b = append(b, path...)
		b = append(b, ' ')
		b = append(b, c.Rule.String()...)
	}
	return string(b)
}

// headerMismatch reports whether a JSON-RPC error is -32020, HeaderMismatch.
func headerMismatch(raw json.RawMessage) bool {
	if len(raw) == 0 {
		return false
	}
	var e struct {
		Code int `json:"code"`
	}
	return json.Unmarshal(raw, &e) == nil && e.Code == codeHeaderMismatch
}

const codeHeaderMismatch = -32020
