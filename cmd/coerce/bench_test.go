package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"testing"

	"github.com/coerce-go/coerce"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkToolsCall is one tools/call round trip from go-sdk's client to a
// go-sdk server over stdio, direct and through the proxy, with arguments
// that fit and with arguments the proxy repairs (sent as they are to the
// direct server, which does not validate them): the difference between the
// rows is the proxy's cost per call, two more pipe hops included.
func BenchmarkToolsCall(b *testing.B) {
	calls := []struct {
		name string
		args json.RawMessage
	}{
		{"conforming", json.RawMessage(`{"tags":["a","b"],"limit":5,"name":"n","filter":{"since":"2026"}}`)},
		{"repaired", json.RawMessage(`{"tags":"[\"a\",\"b\"]","limit":"5","name":{"k":1},"filter":"{\"since\":\"2026\"}"}`)},
	}
	for _, path := range []string{"direct", "proxy"} {
		for _, call := range calls {
			b.Run("path="+path+"/args="+call.name, func(b *testing.B) {
				var cmd *exec.Cmd
				if path == "proxy" {
					cmd = exec.Command(coerceBin, "mcp", "-q", "--", os.Args[0])
				} else {
					cmd = exec.Command(os.Args[0])
				}
				cmd.Env = append(os.Environ(), recordServerEnv+"="+os.DevNull)
				cs := connect(b, cmd, nil)
				ctx := context.Background()
				params := &mcp.CallToolParams{Name: "record", Arguments: call.args}
				if _, err := cs.CallTool(ctx, params); err != nil { // the proxy learns the schema
					b.Fatal(err)
				}
				b.ReportAllocs()
				for b.Loop() {
					if _, err := cs.CallTool(ctx, params); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkProxyMessage is the proxy's own work on one tools/call message
// from the client, in process, the schema known: what it adds to a call
// beside the pipe hops BenchmarkToolsCall measures.
func BenchmarkProxyMessage(b *testing.B) {
	for _, tc := range []struct{ name, msg string }{
		{"conforming", `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"record","arguments":{"tags":["a","b"],"limit":5,"name":"n","filter":{"since":"2026"}}}}`},
		{"repaired", `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"record","arguments":{"tags":"[\"a\",\"b\"]","limit":"5","name":{"k":1},"filter":"{\"since\":\"2026\"}"}}}`},
		{"other", `{"jsonrpc":"2.0","id":8,"method":"resources/read","params":{"uri":"demo://resource/static/document/architecture.md"}}`},
	} {
		b.Run("args="+tc.name, func(b *testing.B) {
			reg := newRegistry(coerce.Options{UseNumber: true})
			if _, err := reg.learn(json.RawMessage(`{"tools":[{"name":"record","inputSchema":` + recordSchema + `}]}`)); err != nil {
				b.Fatal(err)
			}
			s := newSession(reg, coerce.Options{UseNumber: true}, nil)
			msg := []byte(tc.msg)
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				if o := s.fromClient(ctx, msg, nil); o.forward == nil {
					b.Fatal("nothing forwarded")
				}
			}
		})
	}
}
