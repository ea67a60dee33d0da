package coerce

import (
	"maps"
	"slices"
	"strings"

	"github.com/coerce-go/coerce/internal/jsonwire"
)

// The rules of names and nulls, for the parameters of an argument set:
//
//   - Renamed: a key the schema does not declare becomes the declared
//     property it spells but for case and word separators (maxResults,
//     max-results and MaxResults for max_results), or that declares it in
//     x-aliases, when exactly one property matches, that property is not
//     given, and no other key becomes it. Only ASCII letters fold; a key
//     given in both spellings renames nothing.
//   - NullRemoved: null for a parameter that is neither required nor
//     nullable is removed: it means "not given" (OpenAI's strict mode makes
//     every optional parameter required and nullable, and models then send
//     null where the tool's own schema has no null).
//
// Each acts only where the value could not conform otherwise, and is a
// Change of its own. They apply to the parameters (the top-level keys of
// Coerce, CoerceJSON and Unmarshal), where a model names them.

// A nameIndex gives the declared property of another spelling of its name.
type nameIndex struct {
	folded  map[string]string // fold(name) → name; "" where two names fold alike
	aliases map[string]string // x-aliases: alias → name
}

// newNameIndex indexes the other spellings of the property names of t, or
// returns nil when there are none to index. It is the one definition of
// which key becomes which property, and it refuses where two readings
// exist: a spelling two properties fold to, an alias two properties
// declare, an alias that folds to another property's name. Such a key is
// renamed to nothing. An alias that is a property's own name is that
// property, and no alias. (Keys a property or a pattern claims are never
// looked up here: keyEdits and editsKey ask first.)
func newNameIndex(t *Type) *nameIndex {
	ix := &nameIndex{folded: make(map[string]string, len(t.props))}
	for _, name := range slices.Sorted(maps.Keys(t.props)) {
		f := fold(name)
		if other, ok := ix.folded[f]; ok && other != name {
			ix.folded[f] = "" // two properties spelled alike: neither is guessed
			continue
		}
		ix.folded[f] = name
	}
	for alias, name := range t.aliases {
		if _, own := t.props[alias]; own {
			continue
		}
		if ix.aliases == nil {
			ix.aliases = make(map[string]string, len(t.aliases))
		}
		if other, ok := ix.folded[fold(alias)]; ok && other != name {
			name = "" // the alias of one property, the spelling of another
		}
		ix.aliases[alias] = name
	}
	return ix
}

// fold is a name without case and word separators: ASCII letters in lower
// case, '_', '-' and ' ' dropped, every other byte kept.
func fold(name string) string {
	var buf [64]byte
	return string(foldInto(buf[:0], name))
}

func foldInto[S ~string | ~[]byte](b []byte, name S) []byte {
	for i := 0; i < len(name); i++ {
		switch c := name[i]; {
		case c == '_' || c == '-' || c == ' ':
		case 'A' <= c && c <= 'Z':
			b = append(b, c+'a'-'A')
		default:
			b = append(b, c)
		}
	}
	return b
}

// renamesTo is the property t declares that key, which t does not
// declare, stands for by the rule of names, or "".
func renamesTo[S ~string | ~[]byte](t *Type, key S) string {
	p := nameOf(t.names, key)
	if p != "" && t.goStruct && strings.EqualFold(string(key), p) {
		return "" // encoding/json takes it as it is
	}
	return p
}

// nameOf is the declared property that key, which t does not declare,
// stands for by spelling or alias, or "": key as a string or as the bytes
// of JSON text (without escapes), without allocating.
func nameOf[S ~string | ~[]byte](ix *nameIndex, key S) string {
	if ix == nil {
		return ""
	}
	if p, ok := ix.aliases[string(key)]; ok {
		return p
	}
	var buf [64]byte
	return ix.folded[string(foldInto(buf[:0], key))]
}

// takesNull reports whether t declares null among its values (or
// declares nothing).
func (t *Type) takesNull() bool {
	switch t.kind {
	case typeAny, typeNull:
		return true
	case typeUnion:
		return slices.ContainsFunc(t.members, func(m *Type) bool { return m.kind == typeNull })
	}
	return false
}

// A keyEdit is what the rules of names and nulls do to one parameter.
type keyEdit struct {
	key, to string // to: the property it becomes; "" if the key is removed
}

// keyEdits decides the renames and removals of an argument set, given its
// keys and what each says of its being given (absence: null, a
// placeholder), in the order given: none when nothing applies, the usual
// case.
func (o *Options) keyEdits(params *Type, keys []string, absent func(i int) absence) []keyEdit {
	var edits []keyEdit
	// A key given twice is one parameter, its last occurrence, the one
	// decoders keep: the rules see it once, as they see a decoded object.
	last := make(map[string]int, len(keys))
	for i, k := range keys {
		last[k] = i
	}
	if o.renames(params) {
		claims := map[string]int{} // property → how many keys would become it
		var cands []keyEdit
		for i, k := range keys {
			if params.known(k) || last[k] != i {
				continue // a property's or a pattern's: never renamed
			}
			p := renamesTo(params, k)
			if _, given := last[p]; p != "" && !given {
				claims[p]++
				cands = append(cands, keyEdit{key: k, to: p})
			}
		}
		for _, c := range cands {
			if claims[c.to] == 1 {
				edits = append(edits, c)
			}
		}
	}
	for i, k := range keys {
		if last[k] != i {
			continue
		}
		a := absent(i)
		if a == given {
			continue
		}
		name, renamed := k, -1
		for j, e := range edits {
			if e.key == k {
				name, renamed = e.to, j
			}
		}
		if pt, declared := params.prop(name); declared && o.dropsAbsent(params, name, pt, a) {
			if renamed >= 0 {
				edits[renamed] = keyEdit{key: k} // "not given", under any name
			} else {
				edits = append(edits, keyEdit{key: k})
			}
		}
	}
	// In the order of the paths of their changes, whatever the order of
	// the keys: a map's are sorted, a text's are as sent.
	slices.SortFunc(edits, func(a, b keyEdit) int { return strings.Compare(a.path(), b.path()) })
	return edits
}

// path is the name the change of an edit is reported at: the property a
// key becomes, or the key removed.
func (e keyEdit) path() string {
	if e.to != "" {
		return e.to
	}
	return e.key
}

// mapEdits is keyEdits for the keys of a map (sorted, so that the answer
// does not depend on Go's map order), by key, and in the order of their
// changes.
func (o *Options) mapEdits(params *Type, args map[string]any) (map[string]keyEdit, []keyEdit) {
	keys := slices.Sorted(maps.Keys(args))
	list := o.keyEdits(params, keys, func(i int) absence { return absenceOf(args[keys[i]]) })
	by := make(map[string]keyEdit, len(list))
	for _, e := range list {
		by[e.key] = e
	}
	return by, list
}

// editChange is the Change of edit e, for maps and text alike: a removal
// of what a says the value was, or a rename of a value of kind found.
func editChange(params *Type, e keyEdit, a absence, found Kind) Change {
	if e.to == "" {
		return removal(params, jsonwire.PointerToken(e.key), e.key, a)
	}
	return renaming(params, e, found)
}

// removal is the Change of a member key of object type obj, at path, that
// the rule of nulls or of placeholders removes, for maps and text alike.
func removal(obj *Type, path, key string, a absence) Change {
	c := Change{Path: path, Declared: obj.field(key).String(), Found: a.kind(), Rule: NullRemoved}
	if a != isNull {
		c.Rule = PlaceholderRemoved
	}
	return c
}

// renaming is the Change of the parameter e renames, whose value is of
// kind found, for maps and text alike: at the parameter's declared name,
// with the name given as its preview.
func renaming(params *Type, e keyEdit, found Kind) Change {
	return Change{Path: jsonwire.PointerToken(e.to), Declared: params.field(e.to).String(), Found: found, Preview: preview(e.key), Rule: Renamed}
}

// editsKey is the pre-screen of keyEdits for one parameter, a map's key
// or a key of JSON text (its bytes between the quotes, without escapes):
// whether the rules of names, nulls and placeholders may act on it, given
// the type ft that params gives it and what its value says of its being
// given. Only a key no property or pattern claims is renamed (ft is then
// params' rest), and only the null or placeholder of a declared property
// that is not required, and does not take it, is removed. keyEdits
// decides; this only says when to ask it.
func editsKey[S ~string | ~[]byte](o *Options, params, ft *Type, key S, a absence) bool {
	if a == given && ft != params.rest {
		return false // the common case, answered inline: a value given under a claimed name
	}
	return editsKeyRest(o, params, ft, key, a)
}

// editsKeyRest is editsKey past its common case.
func editsKeyRest[S ~string | ~[]byte](o *Options, params, ft *Type, key S, a absence) bool {
	if a == given {
		return o.renames(params) && renamesTo(params, key) != ""
	}
	if pt, declared := params.prop(string(key)); declared {
		return o.dropsAbsent(params, string(key), pt, a)
	}
	return ft == params.rest && o.renames(params) && renamesTo(params, key) != ""
}

// editsTextKey is editsKey for a key of JSON text, escapes and all.
func (o *Options) editsTextKey(params, ft *Type, key []byte, escaped bool, a absence) bool {
	if escaped {
		return editsKey(o, params, ft, jsonwire.Unescape(key), a)
	}
	return editsKey(o, params, ft, key, a)
}

// textEdits is keyEdits for argument text, the object at args[start]:
// the edits the walk over the text makes as it goes (textWalk.edits), and
// their changes (when o.OnChange is set); nil when nothing applies.
func (o *Options) textEdits(params *Type, args []byte, start int) (*argEdits, []Change) {
	type member struct {
		key   string
		valLo int // where its value starts
	}
	var members []member
	i, more, _ := jsonwire.Open(args, start, 0, 1<<30)
	for more {
		keyStart, keyEnd, escaped, next, _ := jsonwire.Key(args, i)
		k := string(args[keyStart:keyEnd])
		if escaped {
			k = jsonwire.Unescape(args[keyStart:keyEnd])
		}
		lo := jsonwire.Space(args, next)
		end, _ := jsonwire.Skip(args, lo, 0, 1<<30)
		members = append(members, member{k, lo})
		i, more, _ = jsonwire.Next(args, end, true)
	}
	keys := make([]string, len(members))
	for j, m := range members {
		keys[j] = m.key
	}
	edits := o.keyEdits(params, keys, func(j int) absence {
		return absenceOfText(args, members[j].valLo)
	})
	if len(edits) == 0 {
		return nil, nil
	}
	// Later occurrences of a key win, as decoders keep them: an edit acts
	// on the last one, and the others go.
	last := map[string]int{}
	for j, m := range members {
		last[m.key] = j
	}
	ae := &argEdits{at: map[int]keyEdit{}, keys: map[string]bool{}}
	var changes []Change
	for _, e := range edits {
		j := last[e.key]
		ae.at[j] = e
		ae.keys[e.key] = true
		if o.OnChange != nil {
			lo := members[j].valLo
			changes = append(changes, editChange(params, e, absenceOfText(args, lo), tokenKind(args[lo]).public()))
		}
	}
	return ae, changes
}

// argEdits are the edits of the parameters of argument text: by the
// index of the member each acts on, with the keys they edit, whose other
// occurrences go.
type argEdits struct {
	at   map[int]keyEdit
	keys map[string]bool
}

// of is the edit of the j-th member, whose key is key (its bytes between
// the quotes): the edit, and whether the member goes.
func (ae *argEdits) of(j int, key []byte, escaped bool) (e keyEdit, goes bool) {
	if e, ok := ae.at[j]; ok {
		return e, e.to == ""
	}
	k := string(key)
	if escaped {
		k = jsonwire.Unescape(key)
	}
	return keyEdit{}, ae.keys[k]
}
