package coerce

// How an object meets the discriminating keywords of object types
// (required, additionalProperties: false, const and enum on properties),
// which choose among the members of a union (choose, keyedChoice): the
// keys bits, and their reading from JSON text (rawKeys), for the fitter
// and the walk over text alike. The value walk reads them as it converts
// (cand.keys).

import (
	"encoding/json"

	"github.com/coerce-go/coerce/internal/jsonwire"
)

// keys says whether an object satisfies an object type's discriminating
// keywords (required, additionalProperties: false, const and enum on its
// properties), which choose among the members of a union.
type keys uint8

const (
	keysSat    keys = 1 << iota // after each property's own coercion
	keysAsIs                    // as the object is
	keysUnsure                  // telling needs coercion, which the fitter leaves to the walker

	// The same bits carry, in the walker's results, what a string's JSON
	// text holds (the union rule measures such a string by it): text of
	// an object or of an array, and whether that fits the type as it is.
	keysTextObject
	keysTextArray
	keysTextFit
)

// textKind is the kind the JSON text of a string holds, if it was parsed.
func (k keys) textKind() kind {
	switch {
	case k&keysTextObject != 0:
		return kindObject
	case k&keysTextArray != 0:
		return kindArray
	}
	return 0
}

// rawKeys tracks, while an object's members go by, how the object meets
// the discriminating keywords of the keyed object types of a set.
type rawKeys struct {
	on bool
	// enumKeys are the keys seen whose property has a const or enum: a
	// second occurrence makes every keyed type unsure, so that the walker,
	// which lets the last occurrence decide as a decoder does, chooses.
	enumKeys [4]rawChild // the first ones: no allocation for the usual one or two
	nEnum    int
	more     []rawChild // the others
	dup      bool
	seen     [maxSet]uint64 // per type: which of its required keys were seen (the first 64)
	lost     uint64         // types whose keywords the object cannot satisfy
	unsure   uint64         // types whose keywords it may satisfy after coercion
}

func (kt *rawKeys) start(ts []*Type, mask uint64) {
	for _, t := range ts {
		kt.on = kt.on || t.keyed
	}
}

func (kt *rawKeys) key(ts []*Type, key rawChild) {
	if !kt.on {
		return
	}
	for j, t := range ts {
		if !t.keyed {
			continue
		}
		if t.closed && !key.known(t) {
			kt.lost |= 1 << j
		}
		for r, req := range t.required[:min(len(t.required), 64)] {
			if key.is(req) {
				kt.seen[j] |= 1 << r
			}
		}
	}
}

// value compares the value of key with the const or enum of its property.
func (kt *rawKeys) value(ts []*Type, key rawChild, tok []byte) {
	noted := false
	for j, t := range ts {
		pt := key.prop(t)
		if !t.keyed || pt == nil || pt.enum == nil {
			continue
		}
		if !noted {
			if noted = true; !kt.noteEnumKey(key) {
				return
			}
		}
		v, ok := rawScalar(tok)
		switch {
		case !ok || !fitScalarOrNull(v, pt) || respellable(v, pt):
			kt.unsure |= 1 << j
		case !enumHas(pt.enum, v):
			kt.lost |= 1 << j
		}
	}
}

// noteEnumKey records key, whose property has a const or enum in some
// type, once per object; it reports false if it was seen before.
func (kt *rawKeys) noteEnumKey(key rawChild) bool {
	for _, k := range kt.enumKeys[:kt.nEnum] {
		if k.same(key) {
			kt.dup = true
			return false
		}
	}
	for _, k := range kt.more {
		if k.same(key) {
			kt.dup = true
			return false
		}
	}
	if kt.nEnum < len(kt.enumKeys) {
		kt.enumKeys[kt.nEnum] = key
		kt.nEnum++
	} else {
		kt.more = append(kt.more, key)
	}
	return true
}

func (kt *rawKeys) finish(ts []*Type, ks *[maxSet]keys) {
	if ks == nil {
		return
	}
	for j, t := range ts {
		switch {
		case t.kind != typeObject:
			ks[j] = 0
		case !t.keyed:
			ks[j] = keysSat | keysAsIs
		case kt.dup:
			ks[j] = keysUnsure
		case kt.lost&(1<<j) != 0:
			ks[j] = 0
		case len(t.required) > 64:
			ks[j] = keysUnsure // more required names than seen counts: the walker tells
		case kt.seen[j] != 1<<len(t.required)-1:
			ks[j] = 0
		case kt.unsure&(1<<j) != 0:
			ks[j] = keysUnsure
		default:
			ks[j] = keysSat | keysAsIs
		}
	}
}

// rawScalar decodes a scalar JSON value for comparison with an enum;
// ok is false for objects and arrays.
func rawScalar(tok []byte) (any, bool) {
	switch tokenKind(tok[0]) {
	case kindObject, kindArray:
		return nil, false
	case kindNull:
		return nil, true
	case kindBool:
		return tok[0] == 't', true
	case kindNumber:
		return json.Number(tok), true
	}
	return jsonwire.DecodeScalar(tok, false), true
}
