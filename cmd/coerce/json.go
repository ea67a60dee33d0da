package main

import (
	"fmt"
	"io"

	"github.com/coerce-go/coerce"
)

const jsonSynopsis = `--schema FILE [--tool NAME] [flags] < ARGS.json > COERCED.json

Reads one JSON object of arguments on stdin and writes it on stdout with each
value converted to its declared type, every byte of what needs no change
copied as it came (arguments that fit come out byte for byte). Each
conversion is reported on stderr. Arguments that cannot be made to fit print
the feedback a model would get on stderr, with status 1, and nothing on
stdout.`

func runJSON(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("json", jsonSynopsis, stderr)
	schemaPath := fs.String("schema", "", "the JSON Schema, MCP tool or tools/list `FILE`")
	tool := fs.String("tool", "", "the tool `NAME`, when FILE is a tools/list result")
	check := fs.Bool("check", false, "also fail (status 1) on what a validator refuses: a required argument missing, an unknown name where none are allowed, a value outside an enum")
	quiet := fs.Bool("q", false, "do not report conversions on stderr")
	var opts coerce.Options
	optionFlags(fs, &opts)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q: the arguments are read from stdin", fs.Arg(0))
	}
	var changes []coerce.Change
	if !*quiet {
		opts.OnChange = func(c coerce.Change) { changes = append(changes, c) }
	}
	s, err := loadSchema(*schemaPath, *tool, opts)
	if err != nil {
		return err
	}
	in, err := io.ReadAll(stdin)
	if err != nil {
		return fmt.Errorf("reading stdin: %v", err)
	}
	out, err := s.CoerceJSON(in)
	if err != nil {
		return &failError{s.Feedback(err)}
	}
	if *check {
		if err := s.CheckJSON(out); err != nil {
			return &failError{s.Feedback(err)}
		}
	}
	reportChanges(stderr, changes)
	_, err = stdout.Write(out)
	return err
}
