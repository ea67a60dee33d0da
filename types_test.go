package coerce

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
)

// The names and aliases of the README's "Type names", by the kind they
// declare.
var typeNameKinds = map[string]string{
	"string": "string", "str": "string",
	"object": "object", "dict": "object", "map": "object", "mapping": "object",
	"array": "array", "list": "array", "tuple": "array", "set": "array",
	"integer": "integer", "int": "integer",
	"number": "number", "float": "number", "double": "number",
	"boolean": "boolean", "bool": "boolean",
	"null": "null", "none": "null", "nil": "null",
	"any": "any",
	// Go's names, for types declared from Go code.
	"int8": "integer", "int16": "integer", "int32": "integer", "int64": "integer",
	"uint": "integer", "uint8": "integer", "uint16": "integer", "uint32": "integer", "uint64": "integer",
	"float32": "number", "float64": "number",
	"interface{}": "any",
}

func TestParseTypeNames(t *testing.T) {
	for name, kind := range typeNameKinds {
		// Case-insensitive, spaces ignored.
		for _, expr := range []string{name, strings.ToUpper(name), strings.ToUpper(name[:1]) + name[1:], " " + name + " ", "\t" + name} {
			typ, err := ParseType(expr)
			if err != nil {
				t.Errorf("ParseType(%q): %v", expr, err)
				continue
			}
			if got := typ.Kind().String(); got != kind {
				t.Errorf("ParseType(%q).Kind() = %q, want %q", expr, got, kind)
			}
			if got := typ.String(); got != kind {
				t.Errorf("ParseType(%q).String() = %q, want %q", expr, got, kind)
			}
			if typ.Members() != nil {
				t.Errorf("ParseType(%q).Members() = %v, want nil", expr, typ.Members())
			}
		}
	}
}

// The empty declaration passes everything through.
func TestParseTypeEmpty(t *testing.T) {
	for _, expr := range []string{"", " ", "\t \n"} {
		typ, err := ParseType(expr)
		if err != nil {
			t.Errorf("ParseType(%q): %v", expr, err)
			continue
		}
		if typ.Kind() != Any || typ.String() != "any" {
			t.Errorf("ParseType(%q) = %s (%s), want any", expr, typ, typ.Kind())
		}
	}
}

var genericTypes = []struct {
	expr, want, kind string
	members          []string // of a union, canonical
}{
	{"list[int]", "list[integer]", "array", nil},
	{"List[int]", "list[integer]", "array", nil},
	{"LIST[INT]", "list[integer]", "array", nil},
	{" list [ int ] ", "list[integer]", "array", nil},
	{"[]int", "list[integer]", "array", nil},
	{"[]int64", "list[integer]", "array", nil},
	{"[][]string", "list[list[string]]", "array", nil},
	{"list[list[int]]", "list[list[integer]]", "array", nil},
	{"set[int]", "list[integer]", "array", nil},
	{"tuple[int, ...]", "list[integer]", "array", nil},
	{"tuple[int, str]", "tuple[integer, string]", "array", nil},
	{"tuple[int,str,bool]", "tuple[integer, string, boolean]", "array", nil},
	{"list[dict]", "list[object]", "array", nil},
	{"list[any]", "array", "array", nil},
	{"[]interface{}", "array", "array", nil},
	{"dict[str, int]", "dict[string, integer]", "object", nil},
	{"Dict[str, int]", "dict[string, integer]", "object", nil},
	{"dict[string,int]", "dict[string, integer]", "object", nil},
	{"dict [ str , list[int] ]", "dict[string, list[integer]]", "object", nil},
	{"map[string]int", "dict[string, integer]", "object", nil},
	{"map[string][]string", "dict[string, list[string]]", "object", nil},
	{"map[string]interface{}", "object", "object", nil},
	{"dict[str, Any]", "object", "object", nil},
	{"Optional[int]", "integer | null", "union", []string{"integer", "null"}},
	{"optional[list[int]]", "list[integer] | null", "union", []string{"list[integer]", "null"}},
	{"Optional[Dict[str, Any]]", "object | null", "union", []string{"object", "null"}},
	{"Union[int, str]", "integer | string", "union", []string{"integer", "string"}},
	{"Union[int, str, None]", "integer | string | null", "union", []string{"integer", "string", "null"}},
	{"int | str", "integer | string", "union", []string{"integer", "string"}},
	{"int|str", "integer | string", "union", []string{"integer", "string"}},
	{"dict|str", "object | string", "union", []string{"object", "string"}},
	{"integer|null", "integer | null", "union", []string{"integer", "null"}},
	{"str | None", "string | null", "union", []string{"string", "null"}},
	{"list[dict] | str", "list[object] | string", "union", []string{"list[object]", "string"}},
	{"list[int | str]", "list[integer | string]", "array", nil},
	{"dict[str, Optional[int]]", "dict[string, integer | null]", "object", nil},
	{"Optional[Union[int, str]]", "integer | string | null", "union", []string{"integer", "string", "null"}},
}

func TestParseTypeGeneric(t *testing.T) {
	for _, c := range genericTypes {
		typ, err := ParseType(c.expr)
		if err != nil {
			t.Errorf("ParseType(%q): %v", c.expr, err)
			continue
		}
		if got := typ.String(); got != c.want {
			t.Errorf("ParseType(%q).String() = %q, want %q", c.expr, got, c.want)
		}
		if got := typ.Kind().String(); got != c.kind {
			t.Errorf("ParseType(%q).Kind() = %q, want %q", c.expr, got, c.kind)
		}
		var members []string
		for _, m := range typ.Members() {
			members = append(members, m.String())
		}
		if d := diff(c.members, members); d != "" {
			t.Errorf("ParseType(%q).Members() (-want +got):\n%s", c.expr, d)
		}
	}
}

// String is canonical: it parses back to a type with the same String, and
// spellings of the same type share one.
func TestTypeStringRoundTrip(t *testing.T) {
	var exprs []string
	for name := range typeNameKinds {
		exprs = append(exprs, name)
	}
	for _, c := range genericTypes {
		exprs = append(exprs, c.expr)
	}
	for _, expr := range exprs {
		typ, err := ParseType(expr)
		if err != nil {
			t.Errorf("ParseType(%q): %v", expr, err)
			continue
		}
		again, err := ParseType(typ.String())
		if err != nil {
			t.Errorf("ParseType(%q) = %q, which does not parse: %v", expr, typ, err)
			continue
		}
		if again.String() != typ.String() || again.Kind() != typ.Kind() {
			t.Errorf("ParseType(%q) = %q (%s), which parses to %q (%s)", expr, typ, typ.Kind(), again, again.Kind())
		}
	}
	for _, same := range [][]string{
		{"list[int]", "List[int]", "[]int", "list[integer]", "set[int]", "tuple[int, ...]", "array[int]"},
		{"dict[str, int]", "Dict[str, int]", "map[string]int", "dict[string, integer]", "mapping[str, int]"},
		{"Optional[int]", "int | null", "int|None", "Union[int, None]", "integer | nil"},
		{"dict", "object", "map", "mapping", "dict[str, any]", "map[string]interface{}", "Dict[str, Any]"},
		{"list", "array", "tuple", "set", "list[any]", "[]interface{}"},
	} {
		first := MustParseType(same[0]).String()
		for _, expr := range same[1:] {
			typ, err := ParseType(expr)
			if err != nil {
				t.Errorf("ParseType(%q): %v", expr, err)
			} else if typ.String() != first {
				t.Errorf("ParseType(%q) = %q, want %q as for %q", expr, typ, first, same[0])
			}
		}
	}
}

func TestParseTypeErrors(t *testing.T) {
	for _, c := range []struct {
		expr string
		want error // errUnspecified: either sentinel is right, see below
	}{
		{"strng", ErrUnknownType},
		{"text", ErrUnknownType},
		{"list[strng]", ErrUnknownType},
		{"Optional[strng]", ErrUnknownType},
		{"int | strng", ErrUnknownType},
		{"foo[int]", ErrUnknownType},
		{"dict[int, str]", ErrUnknownType},
		{"Dict[bool, str]", ErrUnknownType},
		{"dict[list[str], int]", ErrUnknownType},
		{"map[int]string", ErrUnknownType},
		{"list[", ErrSyntax},
		{"list[int", ErrSyntax},
		{"int?", ErrSyntax},
		{"str?", ErrSyntax},
		{"list[]", ErrSyntax},
		{"dict[str]", ErrSyntax},
		{"dict[str, int, int]", ErrSyntax},
		{"list[int, str]", ErrSyntax},
		{"Optional[int, str]", ErrSyntax},
		{"Optional[]", ErrSyntax},
		{"Union[]", ErrSyntax},
		{"list[int]]", ErrSyntax},
		{"|int", ErrSyntax},
		{"int|", ErrSyntax},
		{"int||str", ErrSyntax},
		{"int str", ErrSyntax},
		{"[]", ErrSyntax},
		{"[int]", ErrSyntax},
		{"int[]", ErrSyntax},
		{"str()", ErrSyntax},
		{"tuple[...]", ErrSyntax},
		{"list[int, ...]", ErrSyntax},
		{"dict[str, int", ErrSyntax},
		{"map[string]", ErrSyntax},
		{",", ErrSyntax},
		// the README's own examples use placeholders, which are themselves
		// unknown names: either sentinel describes them truthfully.
		{"T?", errUnspecified},
		{"Optional[a, b]", errUnspecified},
		{"interface{", errUnspecified}, // "interface" alone is no name either
	} {
		typ, err := ParseType(c.expr)
		if err == nil {
			t.Errorf("ParseType(%q) = %s, want an error", c.expr, typ)
			continue
		}
		if typ != nil {
			t.Errorf("ParseType(%q) returned %s with its error, want nil", c.expr, typ)
		}
		switch c.want {
		case errUnspecified:
			if !errors.Is(err, ErrSyntax) && !errors.Is(err, ErrUnknownType) {
				t.Errorf("ParseType(%q): %v, want ErrSyntax or ErrUnknownType", c.expr, err)
			}
		default:
			if !errors.Is(err, c.want) {
				t.Errorf("ParseType(%q): %v, want errors.Is %v", c.expr, err, c.want)
			}
		}
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("ParseType(%q): %T is not an *Error", c.expr, err)
		}
		if !strings.HasPrefix(err.Error(), "coerce: ") {
			t.Errorf("ParseType(%q): message %q does not start with \"coerce: \"", c.expr, err)
		}

		// ToDeclared with the bad type: the value unchanged, same error.
		in := map[string]any{"a": "1"}
		got, derr := coerceCall(t, Options{}, in, c.expr)
		if derr == nil || !identical(got, in) {
			t.Errorf("ToDeclared(%v, %q) = %v, %v; want the input and an error", in, c.expr, got, derr)
		}
		if derr != nil && !errors.Is(derr, errors.Unwrap(err)) {
			t.Errorf("ToDeclared(_, %q): %v, want the sentinel of %v", c.expr, derr, err)
		}
	}
}

func TestMustParseType(t *testing.T) {
	if got := MustParseType("list[int]").String(); got != "list[integer]" {
		t.Errorf("MustParseType(\"list[int]\") = %q", got)
	}
	defer func() {
		if recover() == nil {
			t.Errorf("MustParseType(\"strng\") did not panic")
		}
	}()
	MustParseType("strng")
}

func TestTypeMembers(t *testing.T) {
	u := MustParseType("int | str | None")
	var got []string
	for _, m := range u.Members() {
		got = append(got, m.Kind().String()+":"+m.String())
	}
	if d := diff([]string{"integer:integer", "string:string", "null:null"}, got); d != "" {
		t.Errorf("Members (-want +got):\n%s", d)
	}
	for _, expr := range []string{"int", "list[int | str]", "any", "dict[str, int | None]"} {
		if m := MustParseType(expr).Members(); m != nil {
			t.Errorf("ParseType(%q).Members() = %v, want nil", expr, m)
		}
	}
}

// Conforms is the test for "already fits": deeply, Go's numeric types
// included, and nil for every type.
func TestTypeConforms(t *testing.T) {
	for _, c := range []struct {
		expr string
		v    any
		want bool
	}{
		{"int", 5.0, true},
		{"int", 5.5, false},
		{"int", "5", false},
		{"int", int64(5), true},
		{"int", nil, true},
		{"number", 5.5, true},
		{"number", float32(1.5), true},
		{"number", uint8(1), true},
		{"str", "{}", true},
		{"str", 5.0, false},
		{"bool", true, true},
		{"bool", "true", false},
		{"null", nil, true},
		{"null", "", false},
		{"list[int]", []any{1.0, 2.0}, true},
		{"list[int]", []any{1.0, "2"}, false},
		{"list[int]", []int{1}, true},
		{"dict[str, int]", map[string]any{"a": 1.0}, true},
		{"dict[str, int]", map[string]any{"a": "1"}, false},
		{"dict[str, int]", map[string]int{"a": 1}, true},
		{"object", map[string]any{"a": "x"}, true},
		{"object", "{}", false},
		{"array", []any{}, true},
		{"str | None", `{"x": 1}`, true},
		{"int | null", "", false},
		{"list[dict] | str", []any{map[string]any{}}, true},
		{"list[dict] | str", []any{"{}"}, false},
		{"any", func() {}, true},
	} {
		if got := MustParseType(c.expr).Conforms(c.v); got != c.want {
			t.Errorf("ParseType(%q).Conforms(%T %v) = %v, want %v", c.expr, c.v, short(c.v), got, c.want)
		}
	}
}

// The type cache of ToDeclared is shared by all goroutines.
func TestToDeclaredConcurrent(t *testing.T) {
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 50 {
				declared := fmt.Sprintf("dict[str, list[int]] | tuple[int, %d]", i%5)
				if i%2 == 0 {
					declared = "list[int]"
				}
				_, _ = ToDeclared([]any{"1", g}, declared)
			}
		}()
	}
	wg.Wait()
	got, err := ToDeclared([]any{"1"}, "list[int]")
	if err != nil || !equalNaN(got, []any{1.0}) {
		t.Errorf("after concurrent use: %v, %v", got, err)
	}
}

func TestAllocs(t *testing.T) {
	conforming := any(map[string]any{"a": 1.0, "b": []any{"x"}})
	plain := any("hello")
	elems := any([]any{1.0, 2.0, 3.0})
	for _, c := range []struct {
		name     string
		in       any
		declared string
		max      float64
	}{
		{"conforming map declared object", conforming, "object", 0},
		{"conforming map declared dict|str", conforming, "dict | str", 0},
		{"plain string declared object", plain, "object", 1},
		{"conforming list[int]", elems, "list[int]", 0},
	} {
		ToDeclared(c.in, c.declared) // the type is parsed once and cached
		allocs := testing.AllocsPerRun(100, func() { ToDeclared(c.in, c.declared) })
		if allocs > c.max {
			t.Errorf("%s: %v allocations, want at most %v", c.name, allocs, c.max)
		}
	}
	cachedType("Optional[Dict[str, list[int]]]")
	if allocs := testing.AllocsPerRun(100, func() { cachedType("Optional[Dict[str, list[int]]]") }); allocs != 0 {
		t.Errorf("cached type expression: %v allocations, want 0", allocs)
	}
}

func TestTypeAccessors(t *testing.T) {
	typ := MustParseType("tuple[int, list[str]]")
	if typ.Kind() != Array || typ.Item(0).Kind() != Integer || typ.Item(1).Elem().Kind() != String || typ.Item(2).Kind() != Any {
		t.Errorf("tuple accessors: %v %v %v %v", typ.Kind(), typ.Item(0), typ.Item(1).Elem(), typ.Item(2))
	}
	dict := MustParseType("dict[str, Optional[int]]")
	if dict.Elem().Kind() != Union || dict.Property("x") != dict.Elem() || len(dict.Elem().Members()) != 2 {
		t.Errorf("dict accessors: %v %v", dict.Elem(), dict.Property("x"))
	}
	s, err := ParseSchema([]byte(`{"type":"object","properties":{"a":{"type":"integer"}},
		"patternProperties":{"^x-":{"type":"boolean"}},"additionalProperties":{"type":"string"}}`))
	if err != nil {
		t.Fatal(err)
	}
	obj := s.Type()
	for name, want := range map[string]Kind{"a": Integer, "x-b": Boolean, "other": String} {
		if got := obj.Property(name).Kind(); got != want {
			t.Errorf("Property(%q) = %v, want %v", name, got, want)
		}
	}
	for _, other := range []*Type{MustParseType("str"), nil} {
		if other.Item(0).Kind() != Any || other.Elem().Kind() != Any || other.Property("a").Kind() != Any {
			t.Errorf("accessors of %v are not Any", other)
		}
	}
}

// manyPropNames are more names than the index's multiplier tries can
// place without a collision: short ones and medium ones.
func manyPropNames() []string {
	var many []string
	for i := range 300 {
		many = append(many, fmt.Sprintf("p%d", i), fmt.Sprintf("long_name_%d", i))
	}
	return many
}

// propIndexOf is the property index of integer properties by these names.
func propIndexOf(names []string) (map[string]*Type, *propIndex) {
	props := map[string]*Type{}
	for i, n := range names {
		props[n] = &Type{kind: typeInteger, name: fmt.Sprint(i)}
	}
	return props, newPropIndex(props, nil)
}

// The short table of a property index finds every property whose name
// jsonwire.ShortKey can read, and nothing else, whatever the names and
// however many (the multiplier tries run out past a few dozen names).
func TestPropIndexShort(t *testing.T) {
	sets := [][]string{
		{"a"}, {""}, {"", "a", "ab"}, {"id", "title", "priority", "done"},
		{"s0", "k0", "s1", "k1", "s2", "k2", "s3", "k3", "s4", "k4"},
		{"é", "a\"b", `a\b`, "tab\t", "ninechars", "eightchr", "x"},
	}
	for _, names := range append(sets, manyPropNames()) {
		props, ix := propIndexOf(names)
		for _, n := range names {
			w, ok := shortWord(n)
			if want := len(n) <= 8 && !strings.ContainsAny(n, "\"\\\t") && n != "é"; ok != want {
				t.Fatalf("shortWord(%q) ok = %v", n, ok)
			}
			if !ok {
				continue
			}
			if got, found := ix.shortProp(w); !found || got != props[n] {
				t.Fatalf("%v: shortProp(%q) = %v, %v", names, n, got, found)
			}
		}
		for _, k := range []string{"zz", "p", "k5", "long_nam", "", "a"} {
			w, _ := shortWord(k)
			got, found := ix.shortProp(w)
			if want, has := props[k]; found != has || got != want {
				t.Fatalf("%v: shortProp(%q) = %v, %v", names, k, got, found)
			}
		}
	}
}

// The medium table of a property index finds every property whose name is
// nine to sixteen plain bytes, by its two words as fitShort reads them, and
// nothing else.
func TestPropIndexMedium(t *testing.T) {
	sets := [][]string{
		{"server_name", "path_params", "group_by", "limit"},
		{"ninechars", "sixteen_chars_xy", "seventeen_chars_x", "eightchr", "nine\\char", "ninechaé!"},
	}
	for _, names := range append(sets, manyPropNames()) {
		props, ix := propIndexOf(names)
		for _, n := range names {
			w, w2, ok := mediumWords(n)
			if want := len(n) > 8 && len(n) <= 16 && !strings.ContainsAny(n, "\"\\\t") && !strings.Contains(n, "é"); ok != want {
				t.Fatalf("mediumWords(%q) ok = %v", n, ok)
			}
			if !ok {
				continue
			}
			if got, _, found := ix.mediumProp(w, w2); !found || got != props[n] {
				t.Fatalf("%v: mediumProp(%q) = %v, %v", names, n, got, found)
			}
		}
		for _, k := range []string{"server_nam", "server_name2", "long_name_300", "ninechara", "long_name_1"} {
			w, w2, ok := mediumWords(k)
			if !ok {
				continue
			}
			got, _, found := ix.mediumProp(w, w2)
			if want, has := props[k]; found != has || got != want {
				t.Fatalf("%v: mediumProp(%q) = %v, %v", names, k, got, found)
			}
		}
	}
}
