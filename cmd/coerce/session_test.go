package main

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/coerce-go/coerce"
)

func testSession(t *testing.T, list string) (*session, *time.Time) {
	t.Helper()
	now := time.Unix(1e9, 0)
	reg := newRegistry(coerce.Options{UseNumber: true})
	reg.now = func() time.Time { return now }
	if list != "" {
		if _, err := reg.learn(json.RawMessage(list)); err != nil {
			t.Fatal(err)
		}
	}
	return newSession(reg, coerce.Options{UseNumber: true}, nil), &now
}

const oneTool = `{"tools":[{"name":"record","inputSchema":` + recordSchema + `}]}`

// What the proxy does to each message from the client, byte for byte.
func TestFromClient(t *testing.T) {
	for _, tc := range []struct {
		name, in       string
		forward, reply string // "" for nil
	}{
		{"fits",
			`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"record","arguments":{"limit":5}}}`,
			`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"record","arguments":{"limit":5}}}`, ""},
		{"repaired, the rest kept",
			`{"id":1, "params":{"_meta":{"progressToken":1},"arguments":{"limit":"5", "name" :"x"},"name":"record"},"method":"tools/call","jsonrpc":"2.0","x":[]}`,
			`{"id":1, "params":{"_meta":{"progressToken":1},"arguments":{"limit":5, "name" :"x"},"name":"record"},"method":"tools/call","jsonrpc":"2.0","x":[]}`, ""},
		{"the last arguments key counts, as in encoding/json",
			`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"record","arguments":{"limit":"x"},"arguments":{"limit":"5"}}}`,
			`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"record","arguments":{"limit":"x"},"arguments":{"limit":5}}}`, ""},
		{"refused",
			`{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"record","arguments":{"limit":"five"}}}`,
			"", `{"jsonrpc":"2.0","id":"a","result":{"content":[{"type":"text","text":"Invalid arguments: 1 problem. Correct it and send the call again.\n- /limit: expected an integer; found the string \"five\", which is not valid (not a number). Example: 1"}],"isError":true}}`},
		{"a notification named tools/call is not a call",
			`{"jsonrpc":"2.0","method":"tools/call","params":{"name":"record","arguments":{"limit":"five"}}}`,
			`{"jsonrpc":"2.0","method":"tools/call","params":{"name":"record","arguments":{"limit":"five"}}}`, ""},
		{"unknown tool",
			`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"other","arguments":{"limit":"5"}}}`,
			`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"other","arguments":{"limit":"5"}}}`, ""},
		{"not JSON", `{"jsonrpc":"2.0","id":1,"method":"tools/call",`, `{"jsonrpc":"2.0","id":1,"method":"tools/call",`, ""},
		{"other methods", `{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"x"}}`,
			`{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"x"}}`, ""},
		{"batch",
			`[{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"record","arguments":{"limit":"5"}}}, {"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"record","arguments":{"limit":"five"}}}, {"jsonrpc":"2.0","method":"notifications/progress"}]`,
			`[{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"record","arguments":{"limit":5}}},{"jsonrpc":"2.0","method":"notifications/progress"}]`,
			`[{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"Invalid arguments: 1 problem. Correct it and send the call again.\n- /limit: expected an integer; found the string \"five\", which is not valid (not a number). Example: 1"}],"isError":true}}]`},
		{"batch that fits", `[ {"jsonrpc":"2.0","id":1,"method":"tools/list"} ]`, `[ {"jsonrpc":"2.0","id":1,"method":"tools/list"} ]`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, _ := testSession(t, oneTool)
			o := s.fromClient(context.Background(), []byte(tc.in), nil)
			if string(o.forward) != tc.forward {
				t.Errorf("forwarded\n%s\nwant\n%s", o.forward, tc.forward)
			}
			if string(o.reply) != tc.reply {
				t.Errorf("answered\n%s\nwant\n%s", o.reply, tc.reply)
			}
		})
	}
}

// Schemas expire with a positive ttlMs, and are forgotten on list_changed
// and on -32020.
func TestSchemaRefresh(t *testing.T) {
	s, now := testSession(t, `{"tools":[{"name":"a","inputSchema":{"type":"object"}}],"ttlMs":1000}`)
	if s.reg.lookup("a") == nil {
		t.Fatal("a not known")
	}
	*now = now.Add(1001 * time.Millisecond)
	if s.reg.lookup("a") != nil {
		t.Error("a known after its ttlMs")
	}

	s, now = testSession(t, `{"tools":[{"name":"a","inputSchema":{"type":"object"}}],"ttlMs":0}`)
	*now = now.Add(time.Hour)
	if s.reg.lookup("a") == nil {
		t.Error("ttlMs 0 expired a")
	}

	for _, msg := range []string{
		`{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`,
		`{"jsonrpc":"2.0","id":3,"error":{"code":-32020,"message":"header mismatch"}}`,
	} {
		s, _ := testSession(t, oneTool)
		if out := s.fromServer([]byte(msg)); string(out) != msg {
			t.Errorf("%s passed on as %s", msg, out)
		}
		if s.reg.lookup("record") != nil {
			t.Errorf("after %s, the schema is still known", msg)
		}
	}
}

// A client's tools/list result teaches the schemas, whichever page.
func TestLearnFromClientListing(t *testing.T) {
	s, _ := testSession(t, "")
	s.fromClient(context.Background(), []byte(`{"jsonrpc":"2.0","id":"l2","method":"tools/list","params":{"cursor":"c"}}`), nil)
	resp := `{"jsonrpc":"2.0","id":"l2","result":{"tools":[{"name":"record","inputSchema":` + recordSchema + `}]}}`
	if out := s.fromServer([]byte(resp)); string(out) != resp {
		t.Errorf("the result passed on as %s", out)
	}
	o := s.fromClient(context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"record","arguments":{"limit":"5"}}}`), nil)
	if want := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"record","arguments":{"limit":5}}}`; string(o.forward) != want {
		t.Errorf("forwarded %s, want %s", o.forward, want)
	}
}
