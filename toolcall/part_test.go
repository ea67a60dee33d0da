package toolcall

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"

	"github.com/coerce-go/coerce"
)

// The logs name the part of the call a repair or a rejection is about, and
// the listeners can tell it from the context.
func TestParts(t *testing.T) {
	for _, c := range []struct {
		part             Part
		repaired, reject string
	}{
		{PartArguments, "coerce: argument repaired", "coerce: argument rejected"},
		{PartResult, "coerce: result repaired", "coerce: result rejected"},
		{PartElicited, "coerce: elicited value repaired", "coerce: elicited value rejected"},
	} {
		var buf bytes.Buffer
		var heard []Part
		l := Listeners{
			Logger:   textLogger(&buf, slog.LevelDebug),
			OnChange: func(ctx context.Context, _ string, _ coerce.Change) { heard = append(heard, PartOf(ctx)) },
			OnError:  func(ctx context.Context, _ string, _ error) { heard = append(heard, PartOf(ctx)) },
		}
		ctx := context.Background()
		if c.part != PartArguments {
			ctx = WithPart(ctx, c.part)
		}
		l.Repaired(ctx, "t", []coerce.Change{{Path: "/n", Rule: coerce.NumberFromText}})
		l.Rejected(ctx, "t", &coerce.Error{Path: "/n", Err: coerce.ErrKind})
		log := buf.String()
		if !strings.Contains(log, `msg="`+c.repaired+`"`) || !strings.Contains(log, `msg="`+c.reject+`"`) {
			t.Errorf("%s: log\n%s\nwant %q and %q", c.part, log, c.repaired, c.reject)
		}
		if len(heard) != 2 || heard[0] != c.part || heard[1] != c.part {
			t.Errorf("%s: listeners heard %v", c.part, heard)
		}
	}
}
