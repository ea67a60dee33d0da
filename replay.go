package coerce

import "github.com/coerce-go/coerce/internal/jsonwire"

// ReplayArgs returns argument text fit to be written back into a model's
// conversation, as the arguments of the tool call it made: a provider
// refuses a request whose history holds a call with arguments that are
// not JSON (invalid_request_error), and an SDK fails to marshal it. The
// text returned is always valid JSON, as CoerceJSON reads it (UTF-8
// included): raw itself when it is (changed is false), else the repair of near-JSON text that has one reading, else
// {}, for text cut off or with no reading. A call cut off is never closed
// into arguments it did not have: its replay is {}.
func ReplayArgs(raw []byte) (out []byte, changed bool) {
	if jsonwire.Valid(raw, 0) {
		return raw, false
	}
	var o Options
	if fixed, _, ok, _ := o.repairNearJSON(raw); ok && jsonwire.Valid(fixed, 0) {
		return fixed, true
	}
	return []byte("{}"), true
}
