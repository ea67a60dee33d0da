package coerce

import (
	"encoding/json"

	"github.com/coerce-go/coerce/internal/jsonwire"
)

// The pipeline over JSON text: CoerceJSON (the argument object of a
// Schema) and Unmarshal (one value of any kind, against its Go type's
// Type) run it alike, stage by stage:
//
//  1. limits: MaxSize on the text, before anything reads it;
//  2. read: one pass validates the text and fits it (fitArgs, fitRaw);
//  3. repair the text: near-JSON that does not parse is repaired, where it
//     has one reading, and the repair goes through the pipeline again;
//  4. edit keys: the rules of names and nulls decide which parameters
//     to rename and remove (textEdits);
//  5. convert: the walk over the text makes those edits as it meets the
//     parameters, writes what converts, and leaves out the nulls the rule
//     of nulls removes below the parameters (nulls.go); with no edits to
//     make, it begins at the first parameter that the read found not to
//     fit (fitter.misfit), and what fits before it is read once.
//
// The stages a call has passed are internal flags (stage), never the
// caller's options rewritten. The changes are collected and returned in
// the order the walk reports them (the parameters renamed and removed
// first, then what the walk changed, in path order); the caller delivers
// them. A call whose near-JSON repair fails returns the text as sent and
// no change.

// A stage is what the pipeline has done to a call's text, for the rules
// that must not act twice.
type stage uint8

const (
	unwrapped stage = 1 << iota // the rule of envelopes has acted (envelopes.go)
)

// coerceText runs the pipeline on data against t: the text (data itself
// when nothing converts), the changes made when o.OnChange is set, and the
// error. args is CoerceJSON's reading: data must be an object (or null),
// t is the parameters' type. With passed, the read is in check mode
// (fitter.check): *passed says that the text conformed as sent, so that
// Check has nothing to find.
func coerceText(o *Options, data []byte, t *Type, args bool, passed *bool) (out []byte, changes []Change, err error) {
	if o.MaxSize > 0 && len(data) > o.MaxSize {
		// The call's limit, like the work budget's (walker.limitError).
		return data, nil, wholeText(tooLong(o.MaxSize), data, t)
	}
	f := newFitter(o)
	f.check = passed != nil
	start, isObject := argsObject(data)
	if args && !isObject {
		if string(trimSpace(data)) == "null" {
			return data, nil, nil // no arguments: absence is a validator's business
		}
		end, werr := jsonwire.Skip(data, start, 0, f.maxDepth)
		if werr == nil {
			werr = jsonwire.End(data, end)
		}
		if werr != nil {
			return repairText(o, data, t, args, werr)
		}
		return data, nil, wholeText(&Error{Declared: "object", Err: ErrKind}, data, t)
	}
	object := isObject && (args || t.kind == typeObject)
	var end int
	var fits bool
	var werr *jsonwire.Error
	if object {
		if o.editsKeys(t) {
			f.keyRules = o
		}
		end, fits, werr = f.fitArgs(data, start, t)
	} else {
		end, fits, werr = f.fitRaw(data, start, t, 0)
	}
	if werr == nil {
		if werr = jsonwire.End(data, end); werr != nil && isObject {
			if again, ok := resent(data, start, end, f.maxDepth); ok {
				out, changes, err := coerceText(o, again, t, args, nil)
				if err == nil && o.OnChange != nil {
					changes = append([]Change{{Declared: "object", Found: Object, Rule: Resent}}, changes...)
				}
				if err != nil {
					return data, nil, err
				}
				return out, changes, nil
			}
		}
	}
	switch {
	case werr != nil:
		return repairText(o, data, t, args, werr)
	case fits:
		countWork(f.work + len(data))
		if passed != nil {
			*passed = true
		}
		return data, nil, nil
	case f.envelope:
		if out, changes, ok := unwrapText(o, data, start, t, args); ok {
			return out, changes, nil
		}
	}
	var edits []Change // the changes of the edits of the parameters, reported first
	var tw textWalk
	tw.start(o, f.work)
	if f.keyEdits {
		tw.edits, edits = o.textEdits(t, data, start)
	}
	w := &tw.walker
	defer w.release()
	w.budget += workPerByte * len(data)
	w.scanned += len(data)
	var heard *collector // made only for a listener
	if o.OnChange != nil {
		heard = new(collector)
		w.o.OnChange = heard.add
	}
	if object {
		if !f.keyEdits {
			// The members before the first that does not fit are left as
			// they are, read once: the walk begins at that one. (Edits
			// are made by the member's index, counted from the first.)
			tw.from = f.misfit
		}
		out, err = tw.rawArgs(data, start, end, t)
	} else {
		out, err = tw.rawValue(data, start, end, t)
	}
	if heard != nil {
		changes = heard.list
		if e, whole := err.(*Error); edits != nil && (!whole || e.Path != "") {
			changes = append(edits, changes...)
		}
	}
	return out, changes, err
}

// A collector keeps the changes a walk reports, for the caller to deliver.
type collector struct{ list []Change }

func (c *collector) add(ch Change) {
	if c.list == nil {
		// A call that changes something mostly changes a few things:
		// room for them at once, rather than growing by doubling from one.
		c.list = make([]Change, 0, 8)
	}
	c.list = append(c.list, ch)
}

// resent reports the one object that argument text holds twice in a row,
// or after an empty object, as providers that re-send the whole object
// with each chunk of a stream write it: {"a":1}{"a":1}, {}{"a":1}. The
// first object is data[start:end]; two objects that differ, or a third,
// are no such text.
func resent(data []byte, start, end, maxDepth int) ([]byte, bool) {
	j := jsonwire.Space(data, end)
	if j >= len(data) || data[j] != '{' {
		return nil, false
	}
	k, err := jsonwire.Skip(data, j, 0, maxDepth)
	if err != nil || jsonwire.End(data, k) != nil {
		return nil, false
	}
	first := jsonwire.AppendCompact(nil, data[start:end])
	second := data[j:k]
	if string(first) != "{}" && string(first) != string(jsonwire.AppendCompact(nil, second)) {
		return nil, false
	}
	return second, true
}

// repairText is the stage of near-JSON: data does not parse (werr says
// why); where near-JSON repair gives it one reading (an object, for
// CoerceJSON), the repair goes through the pipeline, and the repair's
// changes come first. Otherwise, or if the repaired text fails, data
// comes back as sent, with no change.
func repairText(o *Options, data []byte, t *Type, args bool, werr *jsonwire.Error) ([]byte, []Change, error) {
	if werr.Kind != jsonwire.Syntax {
		return data, nil, rawFail(data, werr, t) // cut off, too deep, out of range: no repair
	}
	fixed, fixes, ok, cut := o.repairNearJSON(data)
	switch {
	case cut:
		return data, nil, wholeText(truncated(), data, t)
	case !ok:
		return data, nil, rawFail(data, werr, t)
	}
	if _, isObject := argsObject(fixed); args && !isObject {
		return data, nil, rawFail(data, werr, t)
	}
	out, inner, err := coerceText(o, fixed, t, args, nil)
	if err != nil {
		return data, nil, err
	}
	if o.OnChange == nil {
		return out, nil, nil
	}
	declared := "object"
	if !args {
		declared = t.String()
	}
	return out, append(nearJSONChanges(data, declared, fixes), inner...), nil
}

// rawValue is the walk of a value that is not an argument object (for
// Unmarshal into a slice, a map, a scalar): rawInto, as for a parameter.
func (w *textWalk) rawValue(data []byte, start, end int, t *Type) ([]byte, error) {
	w.ensure()
	w.data, w.dataStart, w.dataEnd = data, start, end
	w.superseded, w.superKnown = w.supersededKeys(data[:end], start), true
	_, r := w.rawInto(start, t, 0)
	if w.limit != nil {
		e := w.limitError(t, json.RawMessage(data), json.RawMessage(data))
		return data, &e
	}
	switch r.state {
	case failed:
		return data, render(w.failureOf(&r), "")
	case fits:
		return data, nil
	}
	out := data
	if w.out != nil {
		out = append(w.out, data[w.pos:]...)
	}
	r.chg.report(w.o.OnChange, "")
	return out, nil
}

// deliver hands changes to OnChange, in order.
func (o *Options) deliver(changes []Change) {
	for _, c := range changes {
		o.OnChange(c)
	}
}

// rawFail is the error of text read against t that is not valid JSON.
func rawFail(data []byte, err *jsonwire.Error, t *Type) error {
	return wholeText(textError(err, data), data, t)
}
