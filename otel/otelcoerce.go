package otelcoerce

import (
	"context"
	"errors"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/coerce-go/coerce"
	"github.com/coerce-go/coerce/toolcall"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
)

// The instruments, as an exporter names them.
const (
	// RepairsName counts the arguments coercion repaired, by tool, rule and
	// client.
	RepairsName = "coerce.repairs"
	// RejectionsName counts the arguments that could not be repaired (or
	// broke the schema's other rules), by tool, rule and client.
	RejectionsName = "coerce.rejections"
	// RejectedCallsName counts the calls with at least one such argument,
	// by tool and client.
	RejectedCallsName = "coerce.rejected_calls"
)

// The attribute keys of the counters. Their values come from a closed set
// (the tool names a server registered, the rules of package coerce) or are
// bounded (client names and versions, see MaxClients); no argument's text
// is ever a value.
const (
	ToolKey          = attribute.Key("gen_ai.tool.name")
	RuleKey          = attribute.Key("coerce.rule")
	ClientNameKey    = attribute.Key("client.name")
	ClientVersionKey = attribute.Key("client.version")
	// PartKey says what a repair or rejection is about when it is not a
	// call's arguments: "result" (a tool result's structuredContent, against
	// the tool's output schema) or "elicited" (what a user gave to a
	// server's elicitation), as toolcall.PartOf tells it. It is absent for
	// arguments.
	PartKey = attribute.Key("coerce.part")
)

// MaxClients bounds how many client name and version pairs the counters
// tell apart: clientInfo is whatever a client says, and a metric's
// attribute values must not grow without end. Later pairs count as
// client.name "other".
const MaxClients = 100

// maxClientLen bounds the length in bytes of a client's name or version
// kept; maxToolLen that of a tool's name (MCP asks tool names to be at most
// 128 characters).
const (
	maxClientLen = 64
	maxToolLen   = 128
)

// Metrics counts the repairs and rejections of an integration's calls as
// OpenTelemetry metrics. Its OnChange and OnError methods are the
// listeners every integration's Options takes; it is safe for concurrent
// use.
type Metrics struct {
	repairs, rejections, rejectedCalls metric.Int64Counter

	mu      sync.Mutex
	clients map[[2]string]bool
}

// New makes the counters with a meter of mp, named after this module.
func New(mp metric.MeterProvider) (*Metrics, error) {
	meter := mp.Meter("github.com/coerce-go/coerce/otel")
	m := &Metrics{clients: map[[2]string]bool{}}
	var err, e error
	m.repairs, e = meter.Int64Counter(RepairsName, metric.WithUnit("{argument}"),
		metric.WithDescription("Tool-call arguments repaired by coercion, by rule."))
	err = errors.Join(err, e)
	m.rejections, e = meter.Int64Counter(RejectionsName, metric.WithUnit("{argument}"),
		metric.WithDescription("Tool-call arguments that could not be repaired, by rule."))
	err = errors.Join(err, e)
	m.rejectedCalls, e = meter.Int64Counter(RejectedCallsName, metric.WithUnit("{call}"),
		metric.WithDescription("Tool calls rejected after coercion."))
	err = errors.Join(err, e)
	if err != nil {
		return nil, err
	}
	return m, nil
}

// OnChange counts one repair: coerce.repairs, by tool, rule (the
// coerce.Rule's name) and client.
func (m *Metrics) OnChange(ctx context.Context, tool string, c coerce.Change) {
	m.repairs.Add(ctx, 1, metric.WithAttributes(m.attrs(ctx, tool, RuleKey.String(c.Rule.String()))...))
}

// OnError counts one rejected call (coerce.rejected_calls) and each of its
// failing arguments (coerce.rejections, by the rule of its sentinel:
// syntax, kind, precision, unknown-type, limit, unknown-name, missing,
// enum, or other for an error that is not about the arguments, such as a
// schema that does not compile).
func (m *Metrics) OnError(ctx context.Context, tool string, err error) {
	if err == nil {
		return
	}
	m.rejectedCalls.Add(ctx, 1, metric.WithAttributes(m.attrs(ctx, tool)...))
	for _, e := range toolcall.Errors(err) {
		m.rejections.Add(ctx, 1, metric.WithAttributes(m.attrs(ctx, tool, RuleKey.String(toolcall.Reason(e)))...))
	}
}

func (m *Metrics) attrs(ctx context.Context, tool string, more ...attribute.KeyValue) []attribute.KeyValue {
	out := append([]attribute.KeyValue{ToolKey.String(cut(tool, maxToolLen))}, more...)
	if part := toolcall.PartOf(ctx); part != toolcall.PartArguments {
		out = append(out, PartKey.String(part.String()))
	}
	if name, version, ok := toolcall.Client(ctx); ok {
		name, version = m.client(name, version)
		out = append(out, ClientNameKey.String(name), ClientVersionKey.String(version))
	}
	return out
}

// client returns name and version, cut to maxClientLen, or "other" and ""
// once MaxClients pairs have been seen.
func (m *Metrics) client(name, version string) (string, string) {
	name, version = cut(name, maxClientLen), cut(version, maxClientLen)
	m.mu.Lock()
	defer m.mu.Unlock()
	key := [2]string{name, version}
	if m.clients[key] {
		return name, version
	}
	if len(m.clients) >= MaxClients {
		return "other", ""
	}
	m.clients[key] = true
	return name, version
}

// cut returns s as valid UTF-8 of at most n bytes: each byte that is not
// part of a valid UTF-8 sequence becomes U+FFFD, and s ends before the first
// character that would pass n. An attribute value must be valid UTF-8:
// OTLP's protobuf encoding refuses any other string, and the exporter drops
// the whole batch that holds it. Clients name themselves as they please.
func cut(s string, n int) string {
	if len(s) <= n && utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for _, r := range s { // an invalid byte is read as utf8.RuneError, U+FFFD
		if b.Len()+utf8.RuneLen(r) > n {
			break
		}
		b.WriteRune(r)
	}
	return b.String()
}
