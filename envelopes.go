package coerce

import "github.com/coerce-go/coerce/internal/jsonwire"

// The rule of envelopes: an argument object whose one key is one that
// frameworks wrap arguments in (kwargs, arguments, input, params,
// parameters, args), which the schema does not declare, and whose value
// is an object (or JSON text of one), is that object, when the object
// conforms to the schema (it coerces, and Check finds nothing) where the
// envelope does not (the schema requires a name, or allows no other).
// A schema that declares the key keeps it; a second key, and nothing is
// unwrapped. It is a rule of names: ExactNames turns it off. It unwraps
// once: an envelope inside the envelope stays.

// envelopeNames are the keys models and frameworks wrap arguments in.
var envelopeNames = [...]string{"kwargs", "arguments", "input", "params", "parameters", "args"}

func isEnvelopeName[S ~string | ~[]byte](key S) bool {
	for _, n := range envelopeNames {
		if n == string(key) {
			return true
		}
	}
	return false
}

// mayUnwrap reports whether an argument object whose one key is key may
// be an envelope: key is an envelope's that params does not know, the
// rule of names is on, and params refuses the envelope as it stands.
func mayUnwrap[S ~string | ~[]byte](o *Options, params *Type, key S) bool {
	return o.stage&unwrapped == 0 && o.renames(params) && isEnvelopeName(key) &&
		(len(params.required) > 0 || params.closed) && !params.known(string(key))
}

// envelopeContent is the object an envelope's value holds: v itself, or
// the object its JSON text holds.
func envelopeContent(v any, maxDepth int) (map[string]any, bool) {
	switch x := v.(type) {
	case map[string]any:
		return x, true
	case string:
		d, err := decodeJSON(x, false, maxDepth)
		m, ok := d.(map[string]any)
		return m, err == nil && ok
	}
	return nil, false
}

// unwrapped is the Change of an envelope removed.
func unwrappedChange(key string) Change {
	return Change{Declared: "object", Found: Object, Preview: preview(key), Rule: Unwrapped}
}

// unwrapText is the rule of envelopes on argument text, the object at
// data[start] whose one member's key is an envelope's (fitArgs said so):
// the content coerced, when it conforms to t; ok false otherwise.
func unwrapText(o *Options, data []byte, start int, t *Type, args bool) (out []byte, changes []Change, ok bool) {
	maxDepth := o.maxDepth()
	i, _, _ := jsonwire.Open(data, start, 0, maxDepth)
	ks, ke, escaped, next, err := jsonwire.Key(data, i)
	if err != nil {
		return nil, nil, false
	}
	lo := jsonwire.Space(data, next)
	end, err := jsonwire.Skip(data, lo, 1, maxDepth)
	if err != nil {
		return nil, nil, false
	}
	inner := data[lo:end]
	if inner[0] == '"' {
		s, _ := jsonwire.DecodeScalar(inner, false).(string)
		inner = []byte(s)
	}
	if _, isObject := argsObject(inner); !isObject {
		return nil, nil, false
	}
	n := *o
	n.stage |= unwrapped
	out, changes, cerr := coerceText(&n, inner, t, args, nil)
	if cerr != nil {
		return nil, nil, false
	}
	v, derr := decodeJSON(out, true, maxDepth)
	m, isMap := v.(map[string]any)
	if derr != nil || !isMap || findings(o, t, m, 0, workPerByte*len(out)) != nil {
		return nil, nil, false
	}
	if o.OnChange != nil {
		key := string(data[ks:ke])
		if escaped {
			key = jsonwire.Unescape(data[ks:ke])
		}
		changes = append([]Change{unwrappedChange(key)}, changes...)
	}
	return out, changes, true
}

// unwrapValue is the rule of envelopes on arguments as a map: args, whose
// one key is key, holds the object v; the object coerced, when it
// conforms, and true.
func (s *Schema) unwrapValue(key string, v any) (map[string]any, bool) {
	inner, ok := envelopeContent(v, s.opts.maxDepth())
	if !ok {
		return nil, false
	}
	next := *s
	next.opts.stage |= unwrapped
	var heard *collector
	if s.opts.OnChange != nil {
		heard = new(collector)
		next.opts.OnChange = heard.add
	}
	// Checked below, whatever the options: the content must pass Check.
	out, _, err := next.coerce(inner, false)
	if err != nil || findings(&s.opts, s.params, out, 0, 0) != nil {
		return nil, false
	}
	if heard != nil {
		s.opts.deliver(append([]Change{unwrappedChange(key)}, heard.list...))
	}
	return out, true
}

// envelopeAt reports whether the one member of the argument object at
// data[start] has the key of an envelope the rule of envelopes may remove
// (mayUnwrap): one no property of params claims. It reads the key again,
// once per call, rather than ask of every key as fitArgs reads it.
func (f *fitter) envelopeAt(data []byte, start int, params *Type) bool {
	i, _, _ := jsonwire.Open(data, start, 0, f.maxDepth)
	keyStart, keyEnd, escaped, _, err := jsonwire.Key(data, i)
	return err == nil && !escaped && params != nil && rawField(params, data[keyStart:keyEnd], false) == params.rest &&
		mayUnwrap(f.keyRules, params, data[keyStart:keyEnd])
}
