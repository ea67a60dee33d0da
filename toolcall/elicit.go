package toolcall

import (
	"errors"

	"github.com/coerce-go/coerce"
)

// Elicited returns content, what a user gave in answer to a server's
// elicitation (the content of an elicitation/create result whose action is
// accept), coerced to requestedSchema, the JSON text of the schema the
// server requested: content itself when it conforms, otherwise a copy (the
// caller's map is never modified).
//
// It repairs what coerce repairs in arguments ("42" for an integer, "yes"
// for a boolean, a choice given by its title where the schema titles its
// values: coerce's rule of enums), with o.WrapScalars on: a form's one
// choice, "red", for a multiple choice becomes ["red"].
//
// The error joins one *coerce.Error per value that could not be repaired,
// and per value coerce.Schema.Check refuses once repaired (a required one
// missing, one outside an enum); such values are returned as they came.
// o.OnChange, if set, receives each repair.
func Elicited(o coerce.Options, requestedSchema []byte, content map[string]any) (map[string]any, error) {
	o.WrapScalars = true
	schema, err := o.ParseSchema(requestedSchema)
	if err != nil {
		return content, err
	}
	coerced, err := schema.Coerce(content)
	if cerr := schema.Check(coerced); cerr != nil {
		err = errors.Join(err, cerr)
	}
	return coerced, err
}
