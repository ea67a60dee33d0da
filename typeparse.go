package coerce

import (
	"strings"
	"sync"
	"sync/atomic"
)

// ParseType parses a declared type. Names are case-insensitive and spaces
// are ignored:
//
//	string, str                      integer, int (and Go's int8 ... uint64)
//	object, dict, map, mapping       number, float, double (and float32, float64)
//	array, list, tuple, set          boolean, bool
//	null, none, nil                  any, interface{} (and the empty string)
//
// Generic forms: list[T] (also set[T], tuple[T, ...], array[T]),
// tuple[A, B], []T, dict[str, T] (also mapping[str, T], map[str, T]),
// map[string]T, Optional[T], Union[A, B], A | B. Object keys are strings:
// another key type is an error, as are unknown names and malformed syntax.
// The error is an *Error wrapping ErrUnknownType or ErrSyntax.
func ParseType(expr string) (*Type, error) {
	if strings.TrimSpace(expr) == "" {
		return anyType, nil // no declaration: pass through
	}
	p := typeParser{src: expr}
	t := p.unionAt(0)
	if p.err == nil && p.peek() != 0 {
		p.fail(ErrSyntax, "unexpected "+p.rest())
	}
	if p.err != nil {
		return nil, p.err
	}
	return t, nil
}

// MustParseType is like ParseType but panics on error; it is meant for
// package-level variables initialised from constant expressions.
func MustParseType(expr string) *Type {
	t, err := ParseType(expr)
	if err != nil {
		panic(err)
	}
	return t
}

type typeParser struct {
	src string
	pos int
	err *Error
}

func (p *typeParser) fail(sentinel error, detail string) {
	if p.err == nil {
		if src := excerpt(p.src); detail != quote(src) {
			detail += " in " + quote(src)
		}
		p.err = &Error{Err: sentinel, Detail: detail}
	}
}

func quote(s string) string { return "\"" + s + "\"" }

// excerpt keeps error messages short however long the declaration.
func excerpt(s string) string {
	const max = 80
	if len(s) <= max {
		return s
	}
	return s[:max] + "..."
}

func (p *typeParser) skipSpace() {
	for p.pos < len(p.src) && (p.src[p.pos] == ' ' || p.src[p.pos] == '\t' || p.src[p.pos] == '\n' || p.src[p.pos] == '\r') {
		p.pos++
	}
}

// peek returns the next non-space byte, or 0 at the end.
func (p *typeParser) peek() byte {
	p.skipSpace()
	if p.pos < len(p.src) {
		return p.src[p.pos]
	}
	return 0
}

func (p *typeParser) rest() string {
	if p.pos >= len(p.src) {
		return "end"
	}
	return quote(excerpt(p.src[p.pos:]))
}

func (p *typeParser) accept(c byte) bool {
	if p.peek() == c {
		p.pos++
		return true
	}
	return false
}

func (p *typeParser) expect(c byte) {
	if !p.accept(c) {
		p.fail(ErrSyntax, "want "+quote(string(c))+", found "+p.rest())
	}
}

// ident reads a name, lowercased; "interface{}" counts as one name.
func (p *typeParser) ident() string {
	p.skipSpace()
	start := p.pos
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '.' || p.pos > start && c >= '0' && c <= '9' {
			p.pos++
			continue
		}
		break
	}
	name := strings.ToLower(p.src[start:p.pos])
	if name == "interface" && strings.HasPrefix(p.src[p.pos:], "{}") {
		p.pos += 2
		name = "any"
	}
	return strings.TrimPrefix(name, "typing.")
}

const maxTypeDepth = 100

func (p *typeParser) unionAt(depth int) *Type {
	alts := []*Type{p.term(depth)}
	for p.err == nil && p.accept('|') {
		alts = append(alts, p.term(depth))
	}
	if p.err != nil {
		return nil
	}
	return newUnion(alts)
}

// args parses "[A, B, ...]" after a generic name.
func (p *typeParser) args(depth int) []*Type {
	var list []*Type
	for p.err == nil {
		if p.peek() == '.' && strings.HasPrefix(p.src[p.pos:], "...") {
			p.pos += 3
			list = append(list, nil) // tuple[T, ...]
		} else {
			list = append(list, p.unionAt(depth+1))
		}
		if !p.accept(',') {
			break
		}
	}
	p.expect(']')
	return list
}

var simpleTypes = map[string]*Type{
	"string": stringType, "str": stringType,
	"object": objectType, "dict": objectType, "map": objectType, "mapping": objectType,
	"array": arrayType, "list": arrayType, "tuple": arrayType, "set": arrayType,
	"integer": integerType, "int": integerType,
	"int8": integerType, "int16": integerType, "int32": integerType, "int64": integerType,
	"uint": integerType, "uint8": integerType, "uint16": integerType, "uint32": integerType, "uint64": integerType,
	"number": numberType, "float": numberType, "double": numberType, "float32": numberType, "float64": numberType,
	"boolean": booleanType, "bool": booleanType,
	"null": nullType, "none": nullType, "nil": nullType,
	"any": anyType,
}

func (p *typeParser) term(depth int) *Type {
	if depth > maxTypeDepth {
		p.fail(ErrLimit, "nested too deeply")
		return nil
	}
	if p.accept('[') { // []T
		p.expect(']')
		if p.err != nil {
			return nil
		}
		elem := p.term(depth + 1)
		if p.err != nil {
			return nil
		}
		return newList(elem)
	}
	name := p.ident()
	if name == "" {
		p.fail(ErrSyntax, "want a type name, found "+p.rest())
		return nil
	}
	simple, known := simpleTypes[name]
	if !p.accept('[') {
		if !known {
			if _, generic := genericArity[name]; generic {
				p.fail(ErrSyntax, name+" needs type arguments")
			} else {
				p.fail(ErrUnknownType, quote(excerpt(name)))
			}
			return nil
		}
		return simple
	}
	if name == "map" && p.peek() != ']' && p.goMapAhead() { // map[string]T
		key := p.unionAt(depth + 1)
		p.expect(']')
		val := p.term(depth + 1)
		if p.err != nil {
			return nil
		}
		if key.kind != typeString {
			p.fail(ErrUnknownType, "object keys must be strings, not "+key.name)
			return nil
		}
		return newDict(val)
	}
	args := p.args(depth)
	if p.err != nil {
		return nil
	}
	want, generic := genericArity[name]
	if !generic {
		if known {
			p.fail(ErrSyntax, name+" takes no type arguments")
		} else {
			p.fail(ErrUnknownType, quote(excerpt(name)))
		}
		return nil
	}
	for i, a := range args {
		if a == nil && !(name == "tuple" && i == 1 && len(args) == 2) {
			p.fail(ErrSyntax, "\"...\" only as tuple[T, ...]")
			return nil
		}
	}
	if want > 0 && len(args) != want {
		p.fail(ErrSyntax, name+" takes "+[]string{"", "one type argument", "two type arguments"}[want])
		return nil
	}
	if base, ok := genericBase[name]; ok {
		simple = base
	}
	switch simple {
	case arrayType:
		if name == "tuple" {
			if len(args) == 2 && args[1] == nil {
				return newList(args[0])
			}
			return newTuple(args, nil)
		}
		return newList(args[0])
	case objectType:
		if args[0].kind != typeString {
			p.fail(ErrUnknownType, "object keys must be strings, not "+args[0].name)
			return nil
		}
		return newDict(args[1])
	}
	if name == "optional" {
		return newUnion([]*Type{args[0], nullType})
	}
	return newUnion(args) // union
}

// genericBase gives the kind of the generic names that are not type names
// on their own: the collection types of Python's typing module.
var genericBase = map[string]*Type{
	"frozenset": arrayType, "sequence": arrayType, "iterable": arrayType, "collection": arrayType,
	"mutablesequence": arrayType, "abstractset": arrayType, "mutableset": arrayType,
	"mutablemapping": objectType,
}

// genericArity: the names that take type arguments, and how many (0: any
// number, at least one).
var genericArity = map[string]int{
	"list": 1, "set": 1, "array": 1, "frozenset": 1, "sequence": 1, "tuple": 0,
	"iterable": 1, "collection": 1, "mutablesequence": 1, "abstractset": 1, "mutableset": 1,
	"dict": 2, "mapping": 2, "map": 2, "object": 2, "mutablemapping": 2,
	"optional": 1, "union": 0,
}

// goMapAhead tells map[K]V (Go) from map[K, V] (Python-like): a Go map's
// key is followed by ']' and then a value type.
func (p *typeParser) goMapAhead() bool {
	depth := 0
	for i := p.pos; i < len(p.src); i++ {
		switch p.src[i] {
		case '[':
			depth++
		case ']':
			if depth == 0 {
				rest := strings.TrimSpace(p.src[i+1:])
				return rest != "" && rest[0] != '|' && rest[0] != ',' && rest[0] != ']'
			}
			depth--
		case ',':
			if depth == 0 {
				return false
			}
		}
	}
	return false
}

var typeCache struct {
	m            sync.Map // string → *Type
	count, bytes atomic.Int64
}

func cachedType(expr string) (*Type, error) {
	if t, ok := typeCache.m.Load(expr); ok {
		return t.(*Type), nil
	}
	t, err := ParseType(expr)
	if err != nil {
		return nil, err
	}
	// Reserve room first, so that concurrent misses cannot overshoot.
	n, size := typeCache.count.Add(1), typeCache.bytes.Add(int64(len(expr)))
	if n > maxCachedTypes || size > maxCachedTypeBytes {
		typeCache.count.Add(-1)
		typeCache.bytes.Add(-int64(len(expr)))
		return t, nil
	}
	if _, loaded := typeCache.m.LoadOrStore(strings.Clone(expr), t); loaded {
		typeCache.count.Add(-1)
		typeCache.bytes.Add(-int64(len(expr)))
	}
	return t, nil
}

// The cache of declared types for ToDeclared. Declarations come from code
// and configuration, so a program has few of them; but they may also come
// from input, so the cache is bounded by what it keeps alive: at most
// maxCachedTypes declarations of at most maxCachedTypeBytes bytes in all.
// A parsed Type is about as large as its declaration, so bounding the text
// bounds the memory. Beyond the bounds, declarations are parsed on every
// call. It only grows, which is what sync.Map is for.
const (
	maxCachedTypes     = 4096
	maxCachedTypeBytes = 1 << 20
)
