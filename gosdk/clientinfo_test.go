package gosdkcoerce_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"slices"
	"strings"
	"testing"

	"github.com/coerce-go/coerce"
	"github.com/coerce-go/coerce/gosdk"
	"github.com/coerce-go/coerce/toolcall"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A call is attributed to the client its _meta names, not to the one that
// opened the session: a gateway's one session carries the calls of many.
// Without a client in _meta (a legacy request), the session's initialize
// names it.
func TestCallAttributedToClientInMeta(t *testing.T) {
	for _, tt := range []struct {
		name, protocol string
		meta           mcp.Meta
		want           string
	}{
		{"meta names another client", "", mcp.Meta{mcp.MetaKeyClientInfo: &mcp.Implementation{Name: "agent-b", Version: "2.0"}}, "client.name=agent-b client.version=2.0"},
		{"meta names the session's client", "", nil, "client.name=test-client"},
		{"legacy, meta names another client", "2025-06-18", mcp.Meta{mcp.MetaKeyClientInfo: map[string]any{"name": "agent-c"}}, "client.name=agent-c"},
		{"legacy, no meta: the session's client", "2025-06-18", nil, "client.name=test-client"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var logs lockedBuffer
			var heard []string // the client each listener heard of, as the log writes it
			server := newServer(&mcp.ServerOptions{Logger: slog.New(slog.DiscardHandler)})
			gosdkcoerce.Options{
				Logger:   slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
				OnChange: func(ctx context.Context, _ string, _ coerce.Change) { heard = append(heard, "OnChange "+clientOf(ctx)) },
				OnError:  func(ctx context.Context, _ string, _ error) { heard = append(heard, "OnError "+clientOf(ctx)) },
			}.Install(server)
			got := addTyped[countArgs](server, "count")
			c := client{}
			if tt.protocol != "" {
				c.session = &mcp.ClientSessionOptions{ProtocolVersion: tt.protocol}
			}
			cs := connect(t, server, c)
			ctx := context.Background()
			for _, args := range []string{`{"n": "5"}`, `{"n": "five"}`} {
				if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Meta: tt.meta, Name: "count", Arguments: json.RawMessage(args)}); err != nil {
					t.Fatal(err)
				}
			}
			<-got
			log := logs.String()
			for _, msg := range []string{"coerce: argument repaired", "coerce: argument rejected"} {
				line := lineWith(log, msg)
				if !strings.Contains(line, "tool=count "+tt.want+" ") {
					t.Errorf("%q logged as\n%s\nwant %s", msg, line, tt.want)
				}
			}
			if want := []string{"OnChange " + tt.want, "OnError " + tt.want}; !slices.Equal(heard, want) {
				t.Errorf("the listeners heard of %q, want %q", heard, want)
			}
		})
	}
}

// clientOf is the client in a listener's context, as the log writes it.
func clientOf(ctx context.Context) string {
	name, version, _ := toolcall.Client(ctx)
	if version == "" {
		return "client.name=" + name
	}
	return "client.name=" + name + " client.version=" + version
}

func lineWith(log, s string) string {
	for line := range strings.Lines(log) {
		if strings.Contains(line, s) {
			return line
		}
	}
	return ""
}
