// Command server is an MCP server on stdio exposing the demo tool "echo",
// with mcp-go's input schema validation on and coerce installed, so a person
// can see the declared shapes arrive even when a client sends them wrongly.
//
// Run it with -coerce=false to see the validation error clients get without
// coercion. Coercion failures are logged to stderr.
package main

import (
	"context"
	"flag"
	"log"

	"github.com/coerce-go/coerce/examples/mcpgo/internal/demo"
	"github.com/coerce-go/coerce/examples/mcpgo/mcpgocoerce"
	"github.com/mark3labs/mcp-go/server"
)

func main() {
	withCoercion := flag.Bool("coerce", true, "coerce tool arguments to their declared types before validation")
	flag.Parse()
	log.SetPrefix("coerce-mcpgo-demo: ")

	s := server.NewMCPServer("coerce-mcpgo-demo", "0.1.0", server.WithInputSchemaValidation())
	if *withCoercion {
		mcpgocoerce.Options{
			OnError: func(_ context.Context, tool string, err error) {
				log.Printf("tool %s: %v", tool, err)
			},
		}.Install(s)
	}
	s.AddTool(demo.Tool(), demo.Echo)

	// stdout carries the protocol; logs go to stderr.
	if err := server.ServeStdio(s); err != nil {
		log.Fatal(err)
	}
}
