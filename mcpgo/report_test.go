package mcpgocoerce_test

import (
	"bytes"
	"context"
	"log/slog"
	"slices"
	"strings"
	"testing"

	"github.com/coerce-go/coerce"
	"github.com/coerce-go/coerce/mcpgo"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// repairs are the changes coercion makes to brokenArgs, in path order.
var repairs = []coerce.Change{
	{Path: "/count", Declared: "integer", Found: coerce.String, Preview: "5", Rule: coerce.NumberFromText},
	{Path: "/filter", Declared: "string", Found: coerce.Object, Preview: `{"channel_id":"1458059302022549698"}`, Rule: coerce.ToJSONText},
	{Path: "/meta", Declared: "object", Found: coerce.String, Preview: `{"k":1}`, Rule: coerce.JSONText},
	{Path: "/tags", Declared: "list[string]", Found: coerce.String, Preview: `["a"]`, Rule: coerce.JSONText},
}

type requestKey struct{}

// OnChange gets each repair with the request's context and the tool's name.
func TestOnChangeReceivesEachRepair(t *testing.T) {
	var reps reports
	s := newServer(reps.options().Install)
	s.AddTool(echoTool(), echo)
	c := connect(t, s)

	var req mcp.CallToolRequest
	req.Params.Name = "echo"
	req.Params.Arguments = brokenArgs()
	ctx := context.WithValue(t.Context(), requestKey{}, "this call")
	res, err := c.CallTool(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	succeeded(t, res)

	changes := reps.changed()
	var got []coerce.Change
	for _, c := range changes {
		if c.tool != "echo" {
			t.Errorf("%s: tool %q, want echo", c.Path, c.tool)
		}
		if c.ctx.Value(requestKey{}) != "this call" {
			t.Errorf("%s: OnChange did not get the request's context", c.Path)
		}
		if server.ClientSessionFromContext(c.ctx) == nil {
			t.Errorf("%s: OnChange got a context without the client's session", c.Path)
		}
		got = append(got, c.Change)
	}
	equal(t, "changes", got, repairs)
	if errs := reps.errors(); errs != nil {
		t.Errorf("OnError called: %v", errs)
	}
}

// Logger logs each repair at debug level, with the tool's name.
func TestLoggerLogsEachRepair(t *testing.T) {
	var reps reports
	s := newServer(reps.options().Install)
	s.AddTool(echoTool(), echo)
	succeeded(t, call(t, connect(t, s), "echo", brokenArgs()))

	records := reps.logged(t)
	if len(records) != len(repairs) {
		t.Fatalf("logged %d records, want %d: %v", len(records), len(repairs), records)
	}
	for i, rec := range records {
		want := repairs[i]
		change, _ := rec["change"].(map[string]any)
		if rec["level"] != "DEBUG" || rec["tool"] != "echo" || change["path"] != want.Path ||
			change["declared"] != want.Declared || change["found"] != want.Found.String() ||
			change["preview"] != want.Preview || change["rule"] != want.Rule.String() {
			t.Errorf("record %d: %v, want a debug record for tool echo and %+v", i, rec, want)
		}
	}
}

// A logger that does not log debug records is not asked to.
func TestLoggerAboveDebugLevelLogsNothing(t *testing.T) {
	var log bytes.Buffer
	s := newServer(mcpgocoerce.Options{
		Logger: slog.New(slog.NewJSONHandler(&log, &slog.HandlerOptions{Level: slog.LevelInfo})),
	}.Install)
	var rec recorder
	s.AddTool(echoTool(), rec.handle)
	succeeded(t, call(t, connect(t, s), "echo", brokenArgs()))
	equal(t, "GetArguments()", rec.last(t).GetArguments(), received())
	if log.Len() != 0 {
		t.Errorf("logged %s", log.Bytes())
	}
}

// Coerce.OnChange hears of the same repairs as OnChange.
func TestCoerceOnChangeReceivesEachRepair(t *testing.T) {
	var got []coerce.Change
	s := newServer(mcpgocoerce.Options{
		Coerce: coerce.Options{OnChange: func(c coerce.Change) { got = append(got, c) }},
	}.Install)
	s.AddTool(echoTool(), echo)
	succeeded(t, call(t, connect(t, s), "echo", brokenArgs()))
	equal(t, "changes", sortedByPath(got), repairs)
}

func sortedByPath(changes []coerce.Change) []coerce.Change {
	return slices.SortedFunc(slices.Values(changes), func(a, b coerce.Change) int {
		return strings.Compare(a.Path, b.Path)
	})
}
