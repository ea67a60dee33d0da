package main

import (
	"encoding/json"
	"io"
	"strings"

	"github.com/coerce-go/coerce"
)

const valueSynopsis = `[flags] TYPE VALUE

Converts VALUE to TYPE, a type expression such as int, 'list[str]',
'dict[str, bool]' or 'Optional[List[int]]', and prints it as JSON. VALUE is
JSON text ('"[1,2]"' is a string that holds an array, '[1,2]' the array); a
VALUE that is not JSON is the string it spells, so that 'coerce value int 5'
and 'coerce value str hello' need no quotes.`

func runValue(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("value", valueSynopsis, stderr)
	var opts coerce.Options
	optionFlags(fs, &opts)
	verbose := fs.Bool("v", false, "report each conversion on stderr")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 2 {
		return usagef("want TYPE VALUE, got %d arguments", fs.NArg())
	}
	t, err := coerce.ParseType(fs.Arg(0))
	if err != nil {
		return usagef("%v", err)
	}
	var changes []coerce.Change
	if *verbose {
		opts.OnChange = func(c coerce.Change) { changes = append(changes, c) }
	}
	out, err := opts.ToType(readValue(fs.Arg(1)), t)
	if err != nil {
		return &failError{coerce.Feedback(err)}
	}
	reportChanges(stderr, changes)
	return writeJSON(stdout, out)
}

// readValue reads a VALUE: the JSON value it is, digits kept, or else the
// string it spells.
func readValue(text string) any {
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil || dec.More() {
		return text
	}
	return v
}
