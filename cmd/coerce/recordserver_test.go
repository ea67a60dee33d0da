package main

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"strconv"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The recording server is a go-sdk MCP server that the test binary runs
// when recordServerEnv names a file: it appends to that file every byte it
// reads on stdin, before the SDK parses it, so that a test can compare what
// reached the server with what the client sent, byte for byte. Its record
// tool answers with the raw arguments it received, as text.
const (
	recordServerEnv = "COERCE_TEST_RECORD_SERVER"
	// recordExitEnv is the status the server exits with when its stdin
	// closes, to show that the proxy passes it on.
	recordExitEnv = "COERCE_TEST_RECORD_EXIT"
)

// recordSchema declares a parameter of each kind the proxy repairs.
const recordSchema = `{
	"type": "object",
	"properties": {
		"tags": {"type": "array", "items": {"type": "string"}},
		"limit": {"type": "integer"},
		"name": {"type": "string"},
		"filter": {"type": "object", "properties": {"since": {"type": "string"}}}
	}
}`

func runRecordServer() int {
	f, err := os.OpenFile(os.Getenv(recordServerEnv), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return 1
	}
	defer f.Close()
	in := struct {
		io.Reader
		io.Closer
	}{io.TeeReader(os.Stdin, f), os.Stdin}

	// Pages of two tools, so that the proxy must follow cursors to learn
	// them all.
	s := mcp.NewServer(&mcp.Implementation{Name: "record", Version: "1"}, &mcp.ServerOptions{PageSize: 2})
	echoArgs := func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(req.Params.Arguments)}}}, nil
	}
	for _, name := range []string{"a1", "a2", "a3", "record"} {
		s.AddTool(&mcp.Tool{Name: name, InputSchema: json.RawMessage(recordSchema)}, echoArgs)
	}
	// add-late adds a tool after the client listed them: the SDK sends
	// notifications/tools/list_changed, and the proxy must learn it anew.
	s.AddTool(&mcp.Tool{Name: "add-late", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			s.AddTool(&mcp.Tool{Name: "late", InputSchema: json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"}}}`)}, echoArgs)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "added"}}}, nil
		})
	s.Run(context.Background(), &mcp.IOTransport{Reader: in, Writer: os.Stdout})
	code, _ := strconv.Atoi(os.Getenv(recordExitEnv))
	return code
}
