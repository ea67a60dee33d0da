package main

import (
	"flag"

	"github.com/coerce-go/coerce"
)

// optionFlags registers the flags that set coerce.Options, with the names
// of its fields, so that the command and the library are read the same way.
// UseNumber is always on: the command writes JSON text, and an integer read
// from text must keep its digits.
func optionFlags(fs *flag.FlagSet, o *coerce.Options) {
	o.UseNumber = true
	fs.BoolVar(&o.StructuredOnly, "structured-only", o.StructuredOnly, "convert only JSON text to objects and arrays and back, no scalars (Options.StructuredOnly)")
	fs.BoolVar(&o.StrictJSON, "strict-json", o.StrictJSON, "do not repair near-JSON text such as single quotes or trailing commas (Options.StrictJSON)")
	fs.BoolVar(&o.ExactNames, "exact-names", o.ExactNames, "do not rename maxResults to a declared max_results (Options.ExactNames)")
	fs.BoolVar(&o.ExactEnums, "exact-enums", o.ExactEnums, "do not respell \"ASC\" as a declared \"asc\" (Options.ExactEnums)")
	fs.BoolVar(&o.KeepNulls, "keep-nulls", o.KeepNulls, "keep a null given for an optional, non-nullable parameter (Options.KeepNulls)")
	fs.BoolVar(&o.WrapScalars, "wrap-scalars", o.WrapScalars, "make a single value declared array a one-element array (Options.WrapScalars)")
}
