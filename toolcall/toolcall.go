// Package toolcall is what an integration of coerce does around one tool
// call, the same way in every framework: hand each repair and each
// rejection to the user's listeners and logger, with the same log
// attributes everywhere; carry the MCP client's name and version in the
// call's context; label each failure by its rule; and tell whether an
// error is the model's to fix. Beyond a call's arguments, it coerces what
// else crosses an MCP boundary: a tool's structured result against the
// tool's output schema (Output), and a user's answer to a server's
// elicitation against the schema requested (Elicited); Part tells the
// listeners which of these a report is about. The integration modules of
// this repository (mcpgo, gosdk, eino, genkit, fantasy, openai, anthropic,
// otel) use it,
// and an integration written elsewhere can too: it is the core's public
// API, versioned with it, so that an integration built against one
// version of the core builds against every later one.
//
//	l := toolcall.Listeners{OnChange: opts.OnChange, OnError: opts.OnError, Logger: opts.Logger}
//	o, changes := toolcall.Collect(opts.Coerce, l.Hears(ctx))
//	out, err := schema.WithOptions(o).CoerceJSON(args)
//	if err != nil {
//		l.Rejected(ctx, tool, err)
//	}
//	if changes != nil {
//		l.Repaired(ctx, tool, *changes)
//	}
package toolcall

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"

	"github.com/coerce-go/coerce"
)

// Listeners are the reporting options every integration offers: Inner is
// the OnChange of its coerce.Options, OnChange, OnError and Logger its own.
// Client, if set, names the client of a call; it is asked only when there
// is something to report.
type Listeners struct {
	Inner    func(coerce.Change)
	OnChange func(ctx context.Context, tool string, c coerce.Change)
	OnError  func(ctx context.Context, tool string, err error)
	Logger   *slog.Logger
	Client   func(ctx context.Context) (name, version string)
}

// Hears reports whether anyone would hear of a repair made in a call with
// ctx: a listener, or a logger enabled for debug records. When nobody
// does, changes need not be collected, which keeps conforming calls free.
func (l Listeners) Hears(ctx context.Context) bool {
	return l.Inner != nil || l.OnChange != nil || (l.Logger != nil && l.Logger.Enabled(ctx, slog.LevelDebug))
}

// Collect returns o with an OnChange that appends each change to the
// slice returned, when collect is true; o itself and nil otherwise.
func Collect(o coerce.Options, collect bool) (coerce.Options, *[]coerce.Change) {
	if !collect {
		o.OnChange = nil
		return o, nil
	}
	changes := new([]coerce.Change)
	o.OnChange = func(c coerce.Change) { *changes = append(*changes, c) }
	return o, changes
}

// Repaired hands each change of a call that goes on to the listeners and
// logs it at debug level, as a repair of the part of the call ctx says
// (PartOf: the arguments unless WithPart said otherwise).
func (l Listeners) Repaired(ctx context.Context, tool string, changes []coerce.Change) {
	if len(changes) == 0 {
		return
	}
	ctx = l.withClient(ctx)
	debug := l.Logger != nil && l.Logger.Enabled(ctx, slog.LevelDebug)
	for _, c := range changes {
		if l.Inner != nil {
			l.Inner(c)
		}
		if l.OnChange != nil {
			l.OnChange(ctx, tool, c)
		}
		if debug {
			l.Logger.LogAttrs(ctx, slog.LevelDebug, message(&repairedMessage, ctx), l.attrs(ctx, tool, slog.Any("change", c))...)
		}
	}
}

// Rejected hands err, what could not be fixed in a call, to OnError, and
// logs each failure at warn level: its path, the type declared, the kind
// and a preview of what was found, and the rule (the sentinel's label), as
// a rejection of the part of the call ctx says (PartOf).
func (l Listeners) Rejected(ctx context.Context, tool string, err error) {
	if err == nil {
		return
	}
	ctx = l.withClient(ctx)
	if l.OnError != nil {
		l.OnError(ctx, tool, err)
	}
	if l.Logger == nil || !l.Logger.Enabled(ctx, slog.LevelWarn) {
		return
	}
	for _, e := range Errors(err) {
		var ce *coerce.Error
		if !errors.As(e, &ce) {
			l.Logger.LogAttrs(ctx, slog.LevelWarn, message(&notReadMessage, ctx), l.attrs(ctx, tool,
				slog.Group("rejection", slog.String("rule", Reason(e)), slog.String("error", e.Error())))...)
			continue
		}
		l.Logger.LogAttrs(ctx, slog.LevelWarn, message(&rejectedMessage, ctx), l.attrs(ctx, tool, slog.Group("rejection",
			slog.String("path", ce.Path),
			slog.String("declared", ce.Declared),
			slog.String("found", Found(ce.Value)),
			slog.String("preview", Preview(ce.Value)),
			slog.String("rule", Reason(ce)),
		))...)
	}
}

func (l Listeners) attrs(ctx context.Context, tool string, a slog.Attr) []slog.Attr {
	out := []slog.Attr{slog.String("tool", tool)}
	if name, version, ok := Client(ctx); ok {
		if version == "" {
			out = append(out, slog.Group("client", slog.String("name", name)))
		} else {
			out = append(out, slog.Group("client", slog.String("name", name), slog.String("version", version)))
		}
	}
	return append(out, a)
}

func (l Listeners) withClient(ctx context.Context) context.Context {
	if l.Client == nil {
		return ctx
	}
	if _, _, ok := Client(ctx); ok {
		return ctx
	}
	name, version := l.Client(ctx)
	if name == "" && version == "" {
		return ctx
	}
	return WithClient(ctx, name, version)
}

type clientKey struct{}

type client struct{ name, version string }

// WithClient returns ctx carrying the name and version of the MCP client
// that made a call (its clientInfo), for the listeners to attribute it.
func WithClient(ctx context.Context, name, version string) context.Context {
	return context.WithValue(ctx, clientKey{}, client{name, version})
}

// Client returns the name and version of the client of the call whose
// context ctx is, as an integration put them there.
func Client(ctx context.Context) (name, version string, ok bool) {
	c, ok := ctx.Value(clientKey{}).(client)
	return c.name, c.version, ok
}

// Errors lists the errors joined in err.
func Errors(err error) []error {
	var out []error
	var walk func(error)
	walk = func(err error) {
		if j, ok := err.(interface{ Unwrap() []error }); ok {
			for _, e := range j.Unwrap() {
				walk(e)
			}
			return
		}
		if err != nil {
			out = append(out, err)
		}
	}
	walk(err)
	return out
}

// Reasons are the labels Reason gives: a closed set, fit for a metric.
var Reasons = []string{"syntax", "truncated", "kind", "precision", "unknown-type", "limit", "unknown-name", "missing", "enum", "other"}

// Reason labels one failure by its sentinel; "other" for an error that
// is not coercion's (a schema that does not compile, a lookup that failed).
func Reason(err error) string {
	switch {
	case errors.Is(err, coerce.ErrSyntax):
		return "syntax"
	case errors.Is(err, coerce.ErrTruncated):
		return "truncated"
	case errors.Is(err, coerce.ErrKind):
		return "kind"
	case errors.Is(err, coerce.ErrPrecision):
		return "precision"
	case errors.Is(err, coerce.ErrUnknownType):
		return "unknown-type"
	case errors.Is(err, coerce.ErrLimit):
		return "limit"
	case errors.Is(err, coerce.ErrUnknownName):
		return "unknown-name"
	case errors.Is(err, coerce.ErrMissing):
		return "missing"
	case errors.Is(err, coerce.ErrEnum):
		return "enum"
	}
	return "other"
}

// Arguments reports whether err is about the arguments of a call (a
// model can fix it) rather than about the tool (its schema).
func Arguments(err error) bool {
	for _, e := range Errors(err) {
		var ce *coerce.Error
		if !errors.As(e, &ce) || errors.Is(e, coerce.ErrUnknownType) {
			return false
		}
	}
	return err != nil
}

// Found names the JSON kind of a value found.
func Found(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "string"
	case bool:
		return "boolean"
	case map[string]any:
		return "object"
	case []any:
		return "array"
	case json.RawMessage:
		return "json-text"
	case json.Number, float64, float32, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		return "number"
	}
	return "other"
}

// Preview is the beginning of a value found, as coerce.Preview gives it:
// at most coerce.PreviewLen bytes, read from the value's beginning.
func Preview(v any) string { return coerce.Preview(v) }

// ReportChanges returns the coerce.Options.OnChange of one call of a tool,
// for an integration that reports each change to inner (the OnChange of
// its coerce.Options), to report with the call's context and the tool's
// name, and to l at debug level with the same, skipping those that are
// nil. It returns nil when nobody would hear of a change (l counts only if
// it logs debug records for ctx), so that such calls cost nothing. It was
// coerce.ReportChanges; the integrations that report a call's changes
// once the call goes on use Listeners.Repaired instead.
func ReportChanges(ctx context.Context, tool string, inner func(coerce.Change), report func(context.Context, string, coerce.Change), l *slog.Logger) func(coerce.Change) {
	if l != nil && !l.Enabled(ctx, slog.LevelDebug) {
		l = nil
	}
	switch {
	case report == nil && l == nil:
		return inner
	case inner == nil && l == nil:
		return func(c coerce.Change) { report(ctx, tool, c) }
	}
	return func(c coerce.Change) {
		if inner != nil {
			inner(c)
		}
		if report != nil {
			report(ctx, tool, c)
		}
		if l != nil {
			l.LogAttrs(ctx, slog.LevelDebug, "coerce: argument repaired", slog.String("tool", tool), slog.Any("change", c))
		}
	}
}
