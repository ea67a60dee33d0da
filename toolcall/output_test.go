package toolcall

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/coerce-go/coerce"
)

// Output.Coerce, rule by rule: each case is a schema, a result's text, and
// the text the client gets, or the paths of what makes it unfixable.
func TestOutputCoerce(t *testing.T) {
	const items = `{"type":"object","properties":{"items":{"type":"array","items":{"type":"string"}},"n":{"type":"integer"},"note":{"type":"string"}},"required":["items"]}`
	const closed = `{"type":"object","properties":{"color":{"enum":["red","green"]},"at":{"type":"string"}},"required":["at"],"additionalProperties":false}`
	const twoObjects = `{"anyOf":[{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]},{"type":"object","properties":{"b":{"type":"integer"}},"required":["b"]}]}`
	for _, c := range []struct {
		name, schema, text string
		want               string   // "": the text itself
		fails              []string // the paths of the errors; nil: none
		changes            string   // path:rule of each change, space-separated
	}{
		// What coerce repairs in arguments, in a result.
		{name: "conforming", schema: items, text: `{"items": ["a"], "n": 5}`},
		{name: "numeric string", schema: items, text: `{"items":[],"n":"5"}`, want: `{"items":[],"n":5}`, changes: "/n:number-from-text"},
		{name: "object for JSON text", schema: items, text: `{"items":[],"note":{"a":1}}`, want: `{"items":[],"note":"{\"a\":1}"}`, changes: "/note:to-json-text"},
		{name: "JSON text for an array", schema: items, text: `{"items":"[\"a\"]"}`, want: `{"items":["a"]}`, changes: "/items:json-text"},
		{name: "null for an optional string", schema: items, text: `{"items":[],"note":null}`, want: `{"items":[]}`, changes: "/note:null-removed"},

		// A nil slice, as encoding/json writes it.
		{name: "nil slice, required", schema: items, text: `{"items":null,"n":1}`, want: `{"items":[],"n":1}`, changes: "/items:null-removed"},
		{name: "nil slice, optional", schema: `{"type":"object","properties":{"items":{"type":"array"}}}`, text: `{"items":null}`, want: `{"items":[]}`, changes: "/items:null-removed"},
		{name: "nil slices in a list", schema: `{"type":"object","properties":{"rows":{"type":"array","items":{"type":"array","items":{"type":"integer"}}}}}`, text: `{"rows":[[1],null,null]}`, want: `{"rows":[[1],[],[]]}`, changes: "/rows/1:null-removed /rows/2:null-removed"},
		{name: "nullable array keeps null", schema: `{"type":"object","properties":{"items":{"type":["array","null"]}},"required":["items"]}`, text: `{"items":null}`},
		{name: "null in a string, untouched", schema: items, text: `{"items":["null"],"note":"null"}`},

		// What cannot be fixed.
		{name: "required missing", schema: items, text: `{"n":1}`, fails: []string{"/items"}},
		{name: "outside the enum", schema: closed, text: `{"at":"x","color":"blue"}`, fails: []string{"/color"}},
		{name: "undeclared name", schema: closed, text: `{"at":"x","colour":"red"}`, fails: []string{"/colour"}},
		{name: "does not convert", schema: items, text: `{"items":[],"n":"five"}`, fails: []string{"/n"}},
		{name: "null where a string is required", schema: closed, text: `{"at":null}`, fails: []string{"/at"}},
		{name: "null for an object", schema: items, text: `null`, fails: []string{""}},
		{name: "an array for an object", schema: items, text: `[1]`, fails: []string{""}},

		// SEP-2106: any schema at the root.
		{name: "array root, conforming", schema: `{"type":"array","items":{"type":"integer"}}`, text: ` [1, 2] `},
		{name: "array root, numeric strings", schema: `{"type":"array","items":{"type":"integer"}}`, text: `[1,"2"]`, want: `[1,2]`, changes: "/1:number-from-text"},
		{name: "array root, nil slice", schema: `{"type":"array","items":{"type":"integer"}}`, text: `null`, want: `[]`, changes: ":null-removed"},
		{name: "array root, JSON text", schema: `{"type":"array","items":{"type":"integer"}}`, text: `"[1]"`, want: `[1]`, changes: ":json-text"},
		{name: "array root, unfixable element", schema: `{"type":"array","items":{"type":"integer"}}`, text: `[1,"x",3]`, fails: []string{"/1"}},
		{name: "string root, a number", schema: `{"type":"string"}`, text: `5`, want: `"5"`, changes: ":number-to-text"},
		{name: "string root, an object", schema: `{"type":"string"}`, text: `{"a":1}`, want: `"{\"a\":1}"`, changes: ":to-json-text"},
		{name: "integer root", schema: `{"type":"integer"}`, text: `"7"`, want: `7`, changes: ":number-from-text"},
		{name: "integer root, null", schema: `{"type":"integer"}`, text: `null`, fails: []string{""}},
		{name: "union root", schema: `{"anyOf":[{"type":"array","items":{"type":"integer"}},{"type":"boolean"}]}`, text: `["1"]`, want: `[1]`, changes: "/0:number-from-text"},
		{name: "object root, JSON text of the object", schema: items, text: `"{\"items\":[]}"`, want: `{"items":[]}`, changes: ":json-text"},
		{name: "$ref root", schema: `{"$ref":"#/$defs/list","$defs":{"list":{"type":"array","items":{"$ref":"#/$defs/n"}},"n":{"type":"integer"}}}`, text: `["3"]`, want: `[3]`, changes: "/0:number-from-text"},
		{name: "recursive root", schema: `{"type":"array","items":{"anyOf":[{"type":"integer"},{"$ref":"#"}]}}`, text: `[1,[2,["3"]]]`, want: `[1,[2,[3]]]`, changes: "/1/1/0:number-from-text"},
		{name: "$id root", schema: `{"$id":"https://example.com/out","type":"array","items":{"$ref":"https://example.com/out#/$defs/n"},"$defs":{"n":{"type":"integer"}}}`, text: `["4"]`, want: `[4]`, changes: "/0:number-from-text"},
		{name: "enum data is not rebased", schema: `{"type":"array","items":{"enum":[{"$ref":"#"}]}}`, text: `[{"$ref":"#"}]`},
		{name: "any", schema: `{}`, text: `{"whatever": null}`},

		// Nulls that unions meet: measured by the members, as any value is.
		{name: "null in one of two object members", schema: twoObjects, text: `{"a":null}`, fails: []string{"/a"}},
		{name: "null another member leaves undeclared", schema: twoObjects, text: `{"a":"x","b":null}`},
		{name: "null where a union's member takes it", schema: `{"anyOf":[{"type":"object","properties":{"a":{"type":["string","null"]}},"required":["a"]},{"type":"string"}]}`, text: `{"a":null}`},
		{name: "null for a union of an array and a string", schema: `{"type":"object","properties":{"v":{"anyOf":[{"type":"array"},{"type":"string"}]}},"required":["v"]}`, text: `{"v":null}`, want: `{"v":[]}`, changes: "/v:null-removed"},
		{name: "null in an array of a union's member", schema: `{"anyOf":[{"type":"object","properties":{"xs":{"type":"array","items":{"type":"integer"}}}},{"type":"string"}]}`, text: `{"xs":[1,null]}`, fails: []string{"/xs/1"}},
		{name: "null items of a union", schema: `{"type":"array","items":{"anyOf":[{"type":"array","items":{"type":"integer"}},{"type":"boolean"}]}}`, text: `[true,null]`, want: `[true,[]]`, changes: "/1:null-removed"},
		{name: "null for a union of scalars", schema: `{"type":"array","items":{"anyOf":[{"type":"integer"},{"type":"boolean"}]}}`, text: `[1,null]`, fails: []string{"/1"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, err := CompileOutput(coerce.Options{}, []byte(c.schema))
			if err != nil {
				t.Fatal(err)
			}
			var changes []string
			text := []byte(c.text)
			got, err := out.Coerce(text, func(ch coerce.Change) { changes = append(changes, ch.Path+":"+ch.Rule.String()) })
			var paths []string
			for _, e := range Errors(err) {
				var ce *coerce.Error
				if !errors.As(e, &ce) {
					t.Fatalf("error %v is not a *coerce.Error", e)
				}
				paths = append(paths, ce.Path)
			}
			switch {
			case c.fails != nil:
				if err == nil {
					t.Fatalf("Coerce(%s) = %s, want errors at %q", c.text, got, c.fails)
				}
				if !slices.Equal(paths, c.fails) {
					t.Errorf("errors at %q, want %q: %v", paths, c.fails, err)
				}
				if !sameBytes(got, text) {
					t.Errorf("an unfixable result came back as %s, want the text as it came", got)
				}
				return
			case err != nil:
				t.Fatalf("Coerce(%s): %v", c.text, err)
			case c.want == "":
				if !sameBytes(got, text) {
					t.Errorf("Coerce(%s) = %s, want the text itself", c.text, got)
				}
			case string(got) != c.want:
				t.Errorf("Coerce(%s) = %s, want %s", c.text, got, c.want)
			}
			if strings.Join(changes, " ") != c.changes {
				t.Errorf("changes %q, want %q", changes, c.changes)
			}
		})
	}
}

// An object result that conforms costs no allocation, nulls where they are
// admitted included (they are looked into), once its types have been met.
func TestOutputConformingAllocs(t *testing.T) {
	out, err := CompileOutput(coerce.Options{}, []byte(`{"type":"object","properties":{
		"items":{"type":"array","items":{"type":"object","properties":{"note":{"type":["string","null"]}}}},
		"n":{"type":"integer"}},"required":["items"]}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{`{"items":[],"n":5}`, `{"items":[{"note":null},{"note":"x"}],"n":5}`} {
		text := []byte(text)
		if n := testing.AllocsPerRun(100, func() {
			if got, err := out.Coerce(text, nil); err != nil || !sameBytes(got, text) {
				panic(fmt.Sprint(string(got), err))
			}
		}); n != 0 {
			t.Errorf("%s costs %v allocations", text, n)
		}
	}
}

// sameBytes reports whether a and b are the same slice.
func sameBytes(a, b []byte) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// BenchmarkOutputCoerce: a result of 100 items that conforms, the same
// with nulls where they are admitted, one whose nil slices need [], and an
// array at the root.
func BenchmarkOutputCoerce(b *testing.B) {
	const item = `{"type":"object","properties":{"id":{"type":"integer"},"name":{"type":"string"},"tags":{"type":"array","items":{"type":"string"}},"note":{"type":["string","null"]}},"required":["id","tags"]}`
	object, err := CompileOutput(coerce.Options{}, []byte(`{"type":"object","properties":{"items":{"type":"array","items":`+item+`}},"required":["items"]}`))
	if err != nil {
		b.Fatal(err)
	}
	array, err := CompileOutput(coerce.Options{}, []byte(`{"type":"array","items":`+item+`}`))
	if err != nil {
		b.Fatal(err)
	}
	list := func(elem string) string {
		return "[" + strings.TrimSuffix(strings.Repeat(elem+",", 100), ",") + "]"
	}
	for _, c := range []struct {
		name string
		out  *Output
		text string
	}{
		{"conforming", object, `{"items":` + list(`{"id":1,"name":"a name","tags":["x","y"]}`) + `}`},
		{"conforming with nulls", object, `{"items":` + list(`{"id":1,"name":"a name","tags":["x"],"note":null}`) + `}`},
		{"nil slices", object, `{"items":` + list(`{"id":1,"name":"a name","tags":null}`) + `}`},
		{"array root, conforming", array, list(`{"id":1,"name":"a name","tags":["x","y"]}`)},
	} {
		text := []byte(c.text)
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.out.Coerce(text, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
