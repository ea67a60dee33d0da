package main

import (
	"context"
	"io"
	"log/slog"
	"os"
	"time"

	"github.com/coerce-go/coerce"
)

const mcpSynopsis = `[flags] -- COMMAND [ARGS...]
       coerce mcp [flags] --upstream URL --listen ADDR

Runs an MCP server behind a proxy that coerces the arguments of each
tools/call to the tool's input schema, learnt from the server's tools/list
results, and relays every other message as it came. A call that cannot be
fixed is answered with an isError result holding the feedback, and never
reaches the server.

The first form starts COMMAND and speaks MCP over stdio, for a host's
configuration; it exits with COMMAND's status. The second relays Streamable
HTTP from ADDR to the server at URL.

Repairs and rejections are logged to stderr, or to the file -log names;
never to stdout, which carries the protocol.`

func runMCP(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("mcp", mcpSynopsis, stderr)
	logPath := fs.String("log", "", "append repair and rejection logs to `FILE` instead of stderr")
	quiet := fs.Bool("q", false, "log nothing")
	upstream := fs.String("upstream", "", "the Streamable HTTP `URL` of the MCP server")
	listen := fs.String("listen", "", "the `ADDR` to serve Streamable HTTP on, such as localhost:8080")
	listTimeout := fs.Duration("list-timeout", 10*time.Second, "how long to wait for the server to list its tools, for a call to a tool not yet listed")
	var opts coerce.Options
	optionFlags(fs, &opts)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	log, closeLog, err := openLog(*logPath, *quiet, stderr)
	if err != nil {
		return err
	}
	defer closeLog()
	sess := newSession(newRegistry(opts), opts, log)

	ctx := context.Background()
	switch {
	case *upstream != "" || *listen != "":
		if *upstream == "" || *listen == "" {
			return usagef("--upstream and --listen go together")
		}
		if fs.NArg() > 0 {
			return usagef("a COMMAND and --upstream: choose one")
		}
		return runHTTP(ctx, *upstream, *listen, opts, log, *listTimeout, stderr)
	case fs.NArg() == 0:
		return usagef("no server: give -- COMMAND [ARGS...], or --upstream URL --listen ADDR")
	}
	p := &stdioProxy{sess: sess, listTimeout: *listTimeout, grace: 5 * time.Second}
	return p.run(ctx, fs.Args(), stdin, stdout, stderr)
}

// openLog returns the logger of repairs and rejections.
func openLog(path string, quiet bool, stderr io.Writer) (*slog.Logger, func(), error) {
	switch {
	case quiet:
		return nil, func() {}, nil
	case path == "":
		return slog.New(slog.NewTextHandler(stderr, nil)).With("component", "coerce"), func() {}, nil
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, nil, usagef("-log: %v", err)
	}
	return slog.New(slog.NewTextHandler(f, nil)), func() { f.Close() }, nil
}
