// Package otelcoerce exports, as OpenTelemetry metrics, how often the
// tool calls an integration of package coerce sees arrive broken: the
// arguments it repaired and those it could not, per tool and per rule,
// and per MCP client (its clientInfo name and version) where the SDK
// exposes it, so that a server sees which clients and tools send which
// mistakes, and which calls were still refused.
//
// [New] makes the counters with a meter provider; their OnChange and
// OnError methods are the listeners every integration's Options takes:
//
//	m, err := otelcoerce.New(otel.GetMeterProvider())
//	if err != nil {
//		return err
//	}
//	mcpgocoerce.Options{OnChange: m.OnChange, OnError: m.OnError}.Install(s)
//
// # The counters
//
//   - coerce.repairs: arguments repaired, with gen_ai.tool.name and
//     coerce.rule (json-text, double-encoded, fenced, number-from-text,
//     boolean-from-text, null-from-text, to-json-text, ...).
//   - coerce.rejections: arguments that could not be repaired or that break
//     the schema's other rules, with gen_ai.tool.name and coerce.rule
//     (syntax, kind, precision, unknown-type, limit, unknown-name, missing,
//     enum, other).
//   - coerce.rejected_calls: calls with at least one such argument, with
//     gen_ai.tool.name.
//
// Each also has client.name and client.version when the integration knows
// the client (mcpgo, gosdk): on MCP 2026-07-28, the one each request's
// _meta names; and coerce.part ([PartKey]) when what is counted is a tool
// result ("result") or elicited content ("elicited"), not arguments. The
// attribute values are a closed set: tool names are those
// the server registered, rules are the package's, and client pairs are cut
// to 64 bytes and to the first [MaxClients] seen; no argument's text is ever
// a value. Every value is valid UTF-8, cut at a character's boundary (a
// stray byte becomes U+FFFD), as OTLP's protobuf encoding requires.
// Prometheus users get the counters through OpenTelemetry's Prometheus
// exporter (as coerce_repairs_total, and so on).
package otelcoerce
