package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/coerce-go/coerce"
)

// httpProxy relays MCP's Streamable HTTP transport to an upstream server:
// POST bodies (coerced as the stdio proxy coerces them), their JSON or SSE
// responses, the GET stream of server messages and the DELETE that ends a
// session, with every header but the hop-by-hop ones, Mcp-Session-Id and
// MCP-Protocol-Version among them. Whatever path it is reached at, it
// reaches the upstream URL, MCP's single endpoint.
type httpProxy struct {
	upstream    *url.URL
	client      *http.Client
	opts        coerce.Options
	log         *slog.Logger
	listTimeout time.Duration

	mu sync.Mutex
	// sessions holds what the proxy knows of each MCP session, by
	// Mcp-Session-Id ("" for a stateless server): servers may offer each
	// client other tools (the reference server adds tools by the client's
	// capabilities).
	sessions map[string]*session
}

// maxBody bounds a POST body the proxy reads whole to coerce it.
const maxBody = 64 << 20

func newHTTPProxy(upstream string, opts coerce.Options, log *slog.Logger, listTimeout time.Duration) (*httpProxy, error) {
	u, err := url.Parse(upstream)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, usagef("--upstream %q is not an http or https URL", upstream)
	}
	return &httpProxy{
		upstream:    u,
		client:      &http.Client{}, // no timeout: an SSE stream lasts the session
		opts:        opts,
		log:         log,
		listTimeout: listTimeout,
		sessions:    map[string]*session{},
	}, nil
}

func runHTTP(ctx context.Context, upstream, listen string, opts coerce.Options, log *slog.Logger, listTimeout time.Duration, stderr io.Writer) error {
	p, err := newHTTPProxy(upstream, opts, log, listTimeout)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		return usagef("--listen: %v", err)
	}
	fmt.Fprintf(stderr, "coerce mcp: relaying http://%s to %s\n", ln.Addr(), upstream)
	srv := &http.Server{Handler: p, ReadHeaderTimeout: 30 * time.Second}
	return srv.Serve(ln)
}

func (p *httpProxy) session(id string) *session {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := p.sessions[id]
	if s == nil {
		s = newSession(newRegistry(p.opts), p.opts, p.log)
		p.sessions[id] = s
	}
	return s
}

func (p *httpProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	sid := r.Header.Get("Mcp-Session-Id")
	sess := p.session(sid)
	var body, extra []byte
	out := r.Header.Clone()
	if r.Method == http.MethodPost {
		var err error
		body, err = io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
		if err != nil {
			http.Error(w, err.Error(), http.StatusRequestEntityTooLarge)
			return
		}
		list := func(ctx context.Context, meta json.RawMessage) error {
			ctx, cancel := context.WithTimeout(ctx, p.listTimeout)
			defer cancel()
			return sess.listAll(ctx, meta, func(msg []byte) error { return p.ownPost(ctx, r.Header, sess, msg) })
		}
		o := sess.fromClient(r.Context(), body, list)
		if o.forward == nil {
			// Every call in it was refused here: the answer is the proxy's.
			w.Header().Set("Content-Type", "application/json")
			w.Write(o.reply)
			return
		}
		// SEP-2243: the headers that mirror parameters must equal the
		// arguments the server receives, not those the client sent.
		if o.changed && len(o.headers) > 0 {
			setParamHeaders(out, o.headers, o.args)
		}
		// A batch (before MCP 2025-06-18) of which some calls were refused:
		// the proxy's answers are added to the server's.
		body, extra = o.forward, o.reply
	}
	p.relay(w, r, out, body, sess, extra)
	if r.Method == http.MethodDelete {
		p.mu.Lock()
		delete(p.sessions, sid)
		p.mu.Unlock()
	}
}

// hopByHop are the headers of one connection, which a proxy does not pass
// on (RFC 9110, section 7.6.1).
var hopByHop = []string{"Connection", "Keep-Alive", "Proxy-Connection", "Proxy-Authenticate", "Proxy-Authorization", "Te", "Trailer", "Transfer-Encoding", "Upgrade", "Content-Length", "Host"}

func (p *httpProxy) newRequest(ctx context.Context, method string, h http.Header, body []byte, rawQuery string) (*http.Request, error) {
	u := *p.upstream
	if rawQuery != "" {
		u.RawQuery = rawQuery
	}
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, u.String(), rd)
	if err != nil {
		return nil, err
	}
	req.Header = h
	for _, k := range hopByHop {
		req.Header.Del(k)
	}
	return req, nil
}

// relay sends the request on and streams the response back, feeding every
// message in it to the session (to learn tool schemas, and to see
// list_changed and -32020); extra, the proxy's own answers to part of a
// batch, is added to the response.
func (p *httpProxy) relay(w http.ResponseWriter, r *http.Request, h http.Header, body []byte, sess *session, extra []byte) {
	req, err := p.newRequest(r.Context(), r.Method, h, body, r.URL.RawQuery)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	resp, err := p.client.Do(req)
	if err != nil {
		http.Error(w, "coerce mcp: upstream: "+err.Error(), http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	for k, vs := range resp.Header {
		w.Header()[k] = vs
	}
	for _, k := range hopByHop {
		w.Header().Del(k)
	}
	ctype := resp.Header.Get("Content-Type")
	if strings.HasPrefix(ctype, "text/event-stream") {
		w.WriteHeader(resp.StatusCode)
		if extra != nil {
			fmt.Fprintf(w, "data: %s\n\n", extra)
		}
		// The headers go at once: a client waits for them to know that
		// the stream is open (go-sdk's waits 15 s for its GET stream
		// before it goes on), and a stream may stay silent for long.
		if f, ok := w.(http.Flusher); ok {
			f.Flush()
		}
		relaySSE(w, resp.Body, sess)
		return
	}
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		http.Error(w, "coerce mcp: upstream: "+err.Error(), http.StatusBadGateway)
		return
	}
	if strings.HasPrefix(ctype, "application/json") && len(bytes.TrimSpace(data)) > 0 {
		sess.fromServer(data)
		if extra != nil {
			data = mergeBatches(data, extra)
		}
	}
	w.WriteHeader(resp.StatusCode)
	w.Write(data)
}

// relaySSE copies an event stream as it comes, flushing each event, and
// feeds the data of each to the session.
func relaySSE(w http.ResponseWriter, body io.Reader, sess *session) {
	flusher, _ := w.(http.Flusher)
	rd := bufio.NewReaderSize(body, 64<<10)
	var data bytes.Buffer
	for {
		line, err := rd.ReadBytes('\n')
		if len(line) > 0 {
			w.Write(line)
			trimmed := bytes.TrimRight(line, "\r\n")
			switch {
			case len(trimmed) == 0: // the end of an event
				if data.Len() > 0 {
					sess.fromServer(bytes.Clone(data.Bytes()))
					data.Reset()
				}
				if flusher != nil {
					flusher.Flush()
				}
			case bytes.HasPrefix(trimmed, []byte("data:")):
				if data.Len() > 0 {
					data.WriteByte('\n')
				}
				data.Write(bytes.TrimPrefix(bytes.TrimPrefix(trimmed, []byte("data:")), []byte(" ")))
			}
		}
		if err != nil {
			if flusher != nil {
				flusher.Flush()
			}
			return
		}
	}
}

// mergeBatches adds the messages of the batch extra to the response data, a
// message or a batch.
func mergeBatches(data, extra []byte) []byte {
	var parts [][]byte
	if ps, ok := splitBatch(data); ok {
		for _, p := range ps {
			parts = append(parts, p)
		}
	} else {
		parts = append(parts, bytes.TrimSpace(data))
	}
	if ps, ok := splitBatch(extra); ok {
		for _, p := range ps {
			parts = append(parts, p)
		}
	}
	return joinBatch(parts)
}

// ownPost sends a request of the proxy's own (a tools/list) to the
// upstream with the headers of the client's request that made it (its
// session, protocol version and credentials), and hands the response to the
// session, which delivers it to the waiting listing.
func (p *httpProxy) ownPost(ctx context.Context, clientHeader http.Header, sess *session, msg []byte) error {
	h := clientHeader.Clone()
	for k := range h {
		if strings.HasPrefix(http.CanonicalHeaderKey(k), paramHeaderPrefix) {
			h.Del(k)
		}
	}
	h.Del("Mcp-Name")
	if h.Get("Mcp-Method") != "" {
		h.Set("Mcp-Method", "tools/list")
	}
	h.Set("Content-Type", "application/json")
	h.Set("Accept", "application/json, text/event-stream")
	req, err := p.newRequest(ctx, http.MethodPost, h, msg, "")
	if err != nil {
		return err
	}
	resp, err := p.client.Do(req)
	if err != nil {
		return err
	}
	// The response is read in the background: listAll waits for it.
	go func() {
		defer resp.Body.Close()
		if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
			relaySSE(discardWriter{}, resp.Body, sess)
			return
		}
		data, err := io.ReadAll(resp.Body)
		if err == nil {
			sess.fromServer(data)
		}
	}()
	if resp.StatusCode >= 300 && !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		return fmt.Errorf("tools/list: upstream answered %s", resp.Status)
	}
	return nil
}

// discardWriter is a ResponseWriter that keeps nothing: relaySSE reads a
// stream of the proxy's own with it.
type discardWriter struct{}

func (discardWriter) Header() http.Header         { return http.Header{} }
func (discardWriter) Write(b []byte) (int, error) { return len(b), nil }
func (discardWriter) WriteHeader(int)             {}
