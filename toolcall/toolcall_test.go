package toolcall

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"testing"

	"github.com/coerce-go/coerce"
)

func textLogger(buf *bytes.Buffer, level slog.Level) *slog.Logger {
	return slog.New(slog.NewTextHandler(buf, &slog.HandlerOptions{Level: level, ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
		if a.Key == slog.TimeKey && len(groups) == 0 {
			return slog.Attr{}
		}
		return a
	}}))
}

// Repaired hands each change to every listener, in order, with the call's
// context, tool and client, and logs it at debug level.
func TestRepaired(t *testing.T) {
	type key struct{}
	ctx := context.WithValue(context.Background(), key{}, "call-7")
	var got []string
	var buf bytes.Buffer
	l := Listeners{
		Inner: func(c coerce.Change) { got = append(got, "inner "+c.Path) },
		OnChange: func(ctx context.Context, tool string, c coerce.Change) {
			name, version, _ := Client(ctx)
			got = append(got, fmt.Sprintf("report %s %s %v %s/%s", tool, c.Path, ctx.Value(key{}), name, version))
		},
		Logger: textLogger(&buf, slog.LevelDebug),
		Client: func(context.Context) (string, string) { return "host", "1.0" },
	}
	if !l.Hears(ctx) {
		t.Error("Hears is false with listeners")
	}
	l.Repaired(ctx, "search", []coerce.Change{{Path: "/n", Declared: "integer", Found: coerce.String, Preview: "5", Rule: coerce.NumberFromText}})
	if want := []string{"inner /n", "report search /n call-7 host/1.0"}; !slices.Equal(got, want) {
		t.Errorf("listeners heard %q, want %q", got, want)
	}
	const log = `level=DEBUG msg="coerce: argument repaired" tool=search client.name=host client.version=1.0 change.path=/n change.declared=integer change.found=string change.preview=5 change.rule=number-from-text` + "\n"
	if buf.String() != log {
		t.Errorf("log:\n%s\nwant:\n%s", buf.String(), log)
	}
}

// Nobody hears of repairs with no listener and a logger above debug level.
func TestHears(t *testing.T) {
	var buf bytes.Buffer
	if (Listeners{Logger: textLogger(&buf, slog.LevelInfo)}).Hears(context.Background()) {
		t.Error("a quiet logger hears")
	}
	o, changes := Collect(coerce.Options{OnChange: func(coerce.Change) {}}, false)
	if changes != nil || o.OnChange != nil {
		t.Error("Collect(false) collects")
	}
	o, changes = Collect(coerce.Options{}, true)
	if _, err := o.ToDeclared("5", "int"); err != nil || len(*changes) != 1 {
		t.Errorf("Collect(true) collected %v, %v", changes, err)
	}
}

// Rejected hands the error to OnError and logs each failure at warn level
// with the same names as a repair's.
func TestRejected(t *testing.T) {
	var buf bytes.Buffer
	var heard error
	l := Listeners{OnError: func(_ context.Context, _ string, err error) { heard = err }, Logger: textLogger(&buf, slog.LevelWarn)}
	s, err := coerce.SchemaFromTypes(map[string]string{"n": "int", "tags": "list[str]"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Coerce(map[string]any{"n": "ten", "tags": strings.Repeat("a, ", 100)})
	l.Rejected(context.Background(), "search", err)
	l.Rejected(context.Background(), "search", nil)
	if heard != err {
		t.Errorf("OnError heard %v", heard)
	}
	want := `level=WARN msg="coerce: argument rejected" tool=search rejection.path=/n rejection.declared=integer rejection.found=string rejection.preview=ten rejection.rule=syntax
level=WARN msg="coerce: argument rejected" tool=search rejection.path=/tags rejection.declared=list[string] rejection.found=string rejection.preview="a, a, a, a, a, a, a, a, a, a, a, a, a, a" rejection.rule=kind
`
	if buf.String() != want {
		t.Errorf("log:\n%s\nwant:\n%s", buf.String(), want)
	}
	buf.Reset()
	l.Rejected(context.Background(), "search", errors.New("schema does not compile"))
	if !strings.Contains(buf.String(), `msg="coerce: arguments not coerced" tool=search rejection.rule=other`) {
		t.Errorf("log: %s", buf.String())
	}
}

func TestReason(t *testing.T) {
	for _, sentinel := range []error{coerce.ErrSyntax, coerce.ErrKind, coerce.ErrPrecision, coerce.ErrUnknownType,
		coerce.ErrLimit, coerce.ErrUnknownName, coerce.ErrMissing, coerce.ErrEnum, errors.New("x")} {
		r := Reason(&coerce.Error{Err: sentinel})
		if !slices.Contains(Reasons, r) {
			t.Errorf("Reason(%v) = %q, not in Reasons", sentinel, r)
		}
	}
	if Arguments(errors.New("x")) || Arguments(nil) || !Arguments(&coerce.Error{Err: coerce.ErrKind}) {
		t.Error("Arguments misjudges")
	}
}

// ReportChanges hands each change to every listener set, in order, with
// the call's context and tool; with none that would hear, it is nil.
func TestReportChanges(t *testing.T) {
	type key struct{}
	ctx := context.WithValue(context.Background(), key{}, "call-7")
	var got []string
	inner := func(c coerce.Change) { got = append(got, "inner "+c.Path) }
	report := func(ctx context.Context, tool string, c coerce.Change) {
		got = append(got, fmt.Sprintf("report %s %s %v", tool, c.Path, ctx.Value(key{})))
	}
	var buf bytes.Buffer
	debug, quiet := textLogger(&buf, slog.LevelDebug), textLogger(&buf, slog.LevelInfo)
	if f := ReportChanges(ctx, "search", nil, nil, quiet); f != nil {
		t.Error("ReportChanges with nobody listening is not nil")
	}
	ReportChanges(ctx, "search", inner, report, debug)(coerce.Change{Path: "/n", Rule: coerce.NumberFromText})
	if want := []string{"inner /n", "report search /n call-7"}; !slices.Equal(got, want) {
		t.Errorf("listeners heard %q, want %q", got, want)
	}
	if log := buf.String(); !strings.Contains(log, "tool=search") || !strings.Contains(log, "change.path=/n") {
		t.Errorf("log %q lacks the tool or the path", log)
	}
	got = nil
	ReportChanges(ctx, "search", nil, report, quiet)(coerce.Change{Path: "/m"})
	if want := []string{"report search /m call-7"}; !slices.Equal(got, want) {
		t.Errorf("listeners heard %q, want %q", got, want)
	}
}

// A preview is at most coerce.PreviewLen bytes, cut at a character.
func TestPreviewLen(t *testing.T) {
	if p := Preview(strings.Repeat("é", 100)); len(p) > coerce.PreviewLen {
		t.Errorf("preview of %d bytes", len(p))
	}
}
