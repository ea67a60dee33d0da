package coerce

import (
	"encoding/json"
	"strconv"
)

// CoerceJSON is Coerce on the JSON text of an argument object, for SDKs
// that hand arguments over as json.RawMessage. The bytes of every value
// that needs no change are copied verbatim (key order, number text and
// spacing inside them survive); only the values that need converting are
// rewritten, as compact JSON. When nothing needs converting, CoerceJSON
// returns args itself and allocates nothing. Failures are per parameter, as
// in Coerce. JSON null passes as no arguments; other text that is not a
// JSON object is returned unchanged with an error.
//
// Unlike Coerce, which is handed values already decoded, CoerceJSON reads
// the whole text, so all of it must be valid JSON within MaxDepth and
// MaxSize, values of undeclared parameters included: with a MaxDepth lower
// than the default, a deep value that Coerce would pass through untouched
// fails here with ErrLimit.
func (s *Schema) CoerceJSON(args []byte) ([]byte, error) {
	w := newWalker(s.opts)
	maxDepth := w.chk.maxDepth
	if s.opts.MaxSize > 0 && len(args) > s.opts.MaxSize {
		return args, &Error{Declared: "object", Value: json.RawMessage(args), Err: ErrLimit,
			Detail: "arguments longer than " + strconv.Itoa(s.opts.MaxSize) + " bytes"}
	}
	start := skipSpaceBytes(args, 0)
	if string(trimSpace(args)) == "null" {
		return args, nil // no arguments: absence is a validator's business
	}
	if start == len(args) || args[start] != '{' {
		end, err := skipValue(args, start, maxDepth)
		if err == nil {
			err = trailing(args, end)
		}
		if err != nil {
			return args, w.rawFail(args, err)
		}
		return args, &Error{Declared: "object", Value: json.RawMessage(args), Err: ErrKind}
	}
	// First pass: validate, and see whether any known parameter needs work.
	need := false
	end, err := scanMembers(args, start, maxDepth, true, func(key []byte, valStart, valEnd int) {
		if !need && s.params != nil {
			t := fieldBytes(s.params, key)
			need = !w.chk.rawConforms(args[valStart:valEnd], t, 1)
		}
	})
	if err == nil {
		err = trailing(args, end)
	}
	if err != nil {
		return args, w.rawFail(args, err)
	}
	if !need {
		return args, nil
	}

	// Second pass: copy, rewriting only what does not conform.
	out := make([]byte, 0, len(args)+len(args)/4+16)
	out = append(out, args[:start]...)
	out = w.rawObject(out, args[start:end], s.params, 0)
	out = append(out, args[end:]...)
	w.report()
	return out, w.errs.err()
}

// rawFail completes an error about the argument text as a whole.
func (w *walker) rawFail(args []byte, err error) error {
	e := err.(*Error)
	e.Value = json.RawMessage(args)
	return e
}

// rawCoerce appends the JSON value val, converted to t, to dst. Objects and
// arrays whose type constrains their members are rewritten member by
// member, so that the members that conform keep their bytes.
func (w *walker) rawCoerce(dst, val []byte, t *Type, depth int) []byte {
	maxDepth := w.chk.maxDepth
	if w.chk.rawConforms(val, t, depth) {
		return append(dst, val...)
	}
	switch {
	case depth >= maxDepth:
	case t.kind == typeObject && val[0] == '{':
		return w.rawObject(dst, val, t, depth)
	case t.kind == typeArray && val[0] == '[':
		last := 0
		scanElements(val, func(i, valStart, valEnd int) {
			et := t.item(i)
			if et.isAny() {
				return
			}
			dst = append(dst, val[last:valStart]...)
			mark, before, cmark := len(dst), w.errs.len(), len(w.changes)
			dst = w.rawCoerce(dst, val[valStart:valEnd], et, depth+1)
			if w.errs.len() > before {
				w.errs.prefix(before, "/"+strconv.Itoa(i))
				dst = append(dst[:mark], val[valStart:valEnd]...)
				w.dropChanges(cmark)
			} else if len(w.changes) > cmark {
				w.prefixChanges(cmark, "/"+strconv.Itoa(i))
			}
			last = valEnd
		})
		return append(dst, val[last:]...)
	}
	before := w.errs.len()
	out, _ := parse(w, json.RawMessage(val), val, t, depth)
	if w.errs.len() > before {
		return append(dst, val...)
	}
	text, err := appendJSON(dst, out, maxDepth-depth)
	if err != nil {
		w.failWith(out, t, err)
		return append(dst, val...)
	}
	return text
}

// rawObject appends the valid JSON object val with each member converted to
// its declared type; members that need nothing, and members that fail, keep
// their bytes. Of a key given twice only the last member counts, as in
// every decoder, so the others are copied as they are.
func (w *walker) rawObject(dst, val []byte, t *Type, depth int) []byte {
	maxDepth := w.chk.maxDepth
	last := lastOccurrence(val, maxDepth)
	copied, n := 0, 0
	scanMembers(val, 0, maxDepth, false, func(key []byte, valStart, valEnd int) {
		i := n
		n++
		ft := fieldBytes(t, key)
		if ft.isAny() || last != nil && last[keyString(key)] != i {
			return
		}
		dst = append(dst, val[copied:valStart]...)
		mark, before, cmark := len(dst), w.errs.len(), len(w.changes)
		dst = w.rawCoerce(dst, val[valStart:valEnd], ft, depth+1)
		if w.errs.len() > before {
			w.errs.prefix(before, pointerToken(keyString(key)))
			dst = append(dst[:mark], val[valStart:valEnd]...)
			w.dropChanges(cmark)
		} else if len(w.changes) > cmark {
			w.prefixChanges(cmark, pointerToken(keyString(key)))
		}
		copied = valEnd
	})
	return append(dst, val[copied:]...)
}

// lastOccurrence maps the keys of the valid JSON object val to the index of
// their last member when some key occurs twice, and is nil when keys are
// unique, the usual case.
func lastOccurrence(val []byte, maxDepth int) map[string]int {
	index := map[string]int{}
	dup, n := false, 0
	scanMembers(val, 0, maxDepth, false, func(key []byte, _, _ int) {
		k := keyString(key)
		_, seen := index[k]
		dup = dup || seen
		index[k] = n
		n++
	})
	if !dup {
		return nil
	}
	return index
}

// rawConforms is conforms for JSON text known to be valid: val is one
// value, without surrounding whitespace. It allocates nothing (until the
// union memo starts, see checker).
func (c *checker) rawConforms(val []byte, t *Type, depth int) bool {
	if t.isAny() || val[0] == 'n' {
		return true
	}
	switch t.kind {
	case typeUnion:
		for _, m := range t.members {
			c.trials++
			if c.rawConforms(val, m, depth) {
				return true
			}
		}
		return false
	case typeString:
		return val[0] == '"'
	case typeBoolean:
		return val[0] == 't' || val[0] == 'f'
	case typeNumber:
		return val[0] == '-' || isDigit(val[0])
	case typeInteger:
		if val[0] != '-' && !isDigit(val[0]) {
			return false
		}
		n, _ := scanNumeral(string(val))
		return n.whole()
	case typeObject, typeArray:
		open := byte('[')
		if t.kind == typeObject {
			open = '{'
		}
		if val[0] != open {
			return false
		}
		if t.props == nil && t.rest.isAny() && len(t.prefix) == 0 && t.elem.isAny() {
			return true
		}
		if depth >= c.maxDepth || c.failed != nil && c.failedBefore(val, t, true) {
			return false
		}
		ok := true
		if t.kind == typeObject {
			scanMembers(val, 0, c.maxDepth, false, func(key []byte, valStart, valEnd int) {
				ok = ok && c.rawConforms(val[valStart:valEnd], fieldBytes(t, key), depth+1)
			})
		} else {
			scanElements(val, func(i, valStart, valEnd int) {
				ok = ok && c.rawConforms(val[valStart:valEnd], t.item(i), depth+1)
			})
		}
		if !ok && c.trials >= memoAfter {
			c.noteFailure(val, t, true)
		}
		return ok
	}
	return false
}

// fieldBytes is Type.field for a raw key (the text between the quotes).
// The conversion in the map index does not allocate; a key with escapes is
// decoded first.
func fieldBytes(t *Type, key []byte) *Type {
	for _, c := range key {
		if c == '\\' {
			return t.field(keyString(key))
		}
	}
	if f, ok := t.props[string(key)]; ok {
		return f
	}
	return t.rest
}

// keyString decodes a raw key (the text between the quotes).
func keyString(key []byte) string {
	for _, c := range key {
		if c == '\\' {
			quoted := make([]byte, 0, len(key)+2)
			quoted = append(append(append(quoted, '"'), key...), '"')
			if s, err := decodeJSON(quoted, false, 1); err == nil {
				return s.(string)
			}
			break
		}
	}
	return string(key)
}

// trailing reports anything but whitespace after the value that ends at
// data[end].
func trailing(data []byte, end int) error {
	if skipSpaceBytes(data, end) != len(data) {
		return &Error{Err: ErrSyntax, Detail: "trailing data at offset " + strconv.Itoa(end)}
	}
	return nil
}

func skipSpaceBytes(data []byte, i int) int {
	for i < len(data) && isSpace(data[i]) {
		i++
	}
	return i
}

// scanMembers calls visit for each member of the object that starts at
// data[i] with its raw key and the bounds of its value, and returns the
// index past the object. With validate, keys and values are checked with
// skipValue and the structure with it; without, data must be valid JSON.
func scanMembers(data []byte, i, maxDepth int, validate bool, visit func(key []byte, valStart, valEnd int)) (int, error) {
	i = skipSpaceBytes(data, i+1) // past '{'
	if i < len(data) && data[i] == '}' {
		return i + 1, nil
	}
	for {
		if i >= len(data) || data[i] != '"' {
			return i, syntaxAt(data, i, "want a string key")
		}
		keyStart := i
		keyEnd, err := skip(data, i, 1, validate)
		if err != nil {
			return i, err
		}
		i = skipSpaceBytes(data, keyEnd)
		if i >= len(data) || data[i] != ':' {
			return i, syntaxAt(data, i, "want ':'")
		}
		valStart := skipSpaceBytes(data, i+1)
		valEnd, err := skip(data, valStart, maxDepth-1, validate)
		if err != nil {
			return valStart, err
		}
		visit(data[keyStart+1:keyEnd-1], valStart, valEnd)
		i = skipSpaceBytes(data, valEnd)
		if i < len(data) && data[i] == ',' {
			i = skipSpaceBytes(data, i+1)
			continue
		}
		if i < len(data) && data[i] == '}' {
			return i + 1, nil
		}
		return i, syntaxAt(data, i, "want ',' or '}'")
	}
}

// scanElements calls visit for each element of the valid JSON array data.
func scanElements(data []byte, visit func(i, valStart, valEnd int)) {
	i := skipSpaceBytes(data, 1)
	for n := 0; i < len(data) && data[i] != ']'; n++ {
		end := skipValid(data, i)
		visit(n, i, end)
		i = skipSpaceBytes(data, end)
		if i < len(data) && data[i] == ',' {
			i = skipSpaceBytes(data, i+1)
		}
	}
}

func skip(data []byte, i, maxDepth int, validate bool) (int, error) {
	if validate {
		return skipValue(data, i, maxDepth)
	}
	return skipValid(data, i), nil
}

func syntaxAt(data []byte, i int, want string) error {
	if i >= len(data) {
		return &Error{Err: ErrSyntax, Detail: "unexpected end of JSON input"}
	}
	return &Error{Err: ErrSyntax, Detail: want + " at offset " + strconv.Itoa(i)}
}

// skipValid returns the index past the JSON value at data[i], which must be
// valid: it only matches quotes and brackets.
func skipValid(data []byte, i int) int {
	switch data[i] {
	case '"':
		return skipStringValid(data, i)
	case '{', '[':
		depth := 0
		for ; i < len(data); i++ {
			switch data[i] {
			case '"':
				i = skipStringValid(data, i) - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
		}
		return i
	}
	for i < len(data) && !isSpace(data[i]) && data[i] != ',' && data[i] != '}' && data[i] != ']' {
		i++
	}
	return i
}

func skipStringValid(data []byte, i int) int {
	for i++; i < len(data); i++ {
		switch data[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return i
}
