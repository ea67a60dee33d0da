package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
)

// Exit statuses, as Go's own commands use them.
const (
	exitOK        = 0
	exitFailure   = 1 // the input cannot be made to fit, or the work failed
	exitUsage     = 2 // the command line is wrong: a flag, an argument, a KEY
	exitInterrupt = 130
)

// A usageError is a mistake on the command line: it is reported with a hint
// to run -h, and the command exits with status 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{fmt.Sprintf(format, args...)}
}

// A failError is input that cannot be made to fit: its text (the library's
// feedback) is printed as it is, and the command exits with status 1.
type failError struct{ text string }

func (e *failError) Error() string { return e.text }

// An exitError carries a status decided elsewhere, such as the MCP server's
// own exit status, which coerce mcp passes on.
type exitError struct{ code int }

func (e *exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

const mainUsage = `usage: coerce <command> [arguments]

Commands:
	args   build a tool's arguments from KEY=VALUE pairs, each read as its declared type
	json   coerce argument JSON from stdin to a schema, to stdout
	value  convert one value to a declared type
	mcp    run an MCP server (or reach one over HTTP) behind a coercing proxy

Run 'coerce <command> -h' for a command's flags.
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run is the whole command, its streams given, so that the status it
// returns is decided in one place.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, mainUsage)
		return exitUsage
	}
	cmds := map[string]func([]string, io.Reader, io.Writer, io.Writer) error{
		"args":  runArgs,
		"json":  runJSON,
		"value": runValue,
		"mcp":   runMCP,
	}
	name := args[0]
	if name == "-h" || name == "-help" || name == "--help" || name == "help" {
		fmt.Fprint(stderr, mainUsage)
		return exitOK
	}
	cmd, ok := cmds[name]
	if !ok {
		fmt.Fprintf(stderr, "coerce: unknown command %q\n%s", name, mainUsage)
		return exitUsage
	}
	err := cmd(args[1:], stdin, stdout, stderr)
	var (
		ue *usageError
		fe *failError
		ee *exitError
	)
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, flag.ErrHelp):
		return exitOK
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "coerce %s: %s\nRun 'coerce %s -h' for usage.\n", name, ue.msg, name)
		return exitUsage
	case errors.As(err, &fe):
		fmt.Fprint(stderr, ensureNewline(fe.text))
		return exitFailure
	case errors.As(err, &ee):
		return ee.code
	default:
		fmt.Fprintf(stderr, "coerce %s: %v\n", name, err)
		return exitFailure
	}
}

func ensureNewline(s string) string {
	if s == "" || s[len(s)-1] == '\n' {
		return s
	}
	return s + "\n"
}

// newFlagSet makes a command's flag set: errors are returned, not fatal, and
// the usage goes to stderr, with the synopsis first, as go's commands do.
func newFlagSet(name, synopsis string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("coerce "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: coerce %s %s\n\nFlags:\n", name, synopsis)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses args, turning the flag package's error (already printed
// with the usage) into a usage error of ours that prints nothing more.
func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return &exitError{exitUsage}
	}
	return nil
}
