// Package mcpgocoerce installs github.com/coerce-go/coerce on a
// github.com/mark3labs/mcp-go server, so that tool arguments a client sent in
// the wrong shape ("[\"a\"]" for an array, "5" for an integer, an object for
// a string that holds JSON text) arrive as the tool's input schema declares.
//
//	s := server.NewMCPServer("demo", "1.0.0", server.WithInputSchemaValidation())
//	mcpgocoerce.Install(s)
//
// Coercion runs in a BeforeCallTool hook because that is the only place mcp-go
// lets us touch the arguments before its input schema validation: the
// validator runs inside the tools/call dispatch, before any tool handler
// middleware.
package mcpgocoerce
