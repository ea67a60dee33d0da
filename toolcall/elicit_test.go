package toolcall

import (
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/coerce-go/coerce"
)

// A form as MCP's elicitation/create requests it: flat, of strings,
// numbers, booleans, and enums with and without titles.
const form = `{"type":"object","properties":{
	"age":{"type":"integer"},
	"ok":{"type":"boolean"},
	"name":{"type":"string"},
	"colors":{"type":"array","items":{"type":"string","enum":["red","green"]}},
	"size":{"type":"string","oneOf":[{"const":"s","title":"Small"},{"const":"m","title":"Medium"},{"const":"M","title":"Mega"}]},
	"hues":{"type":"array","items":{"anyOf":[{"const":"#F00","title":"Red"},{"const":"#0F0","title":"Green"}]}},
	"fruit":{"type":"string","enum":["a","b"],"enumNames":["Apple","Banana"]},
	"twin":{"type":"string","oneOf":[{"const":"x","title":"Same"},{"const":"y","title":"Same"}]},
	"tricky":{"type":"string","oneOf":[{"const":"Small","title":"Tiny"},{"const":"big","title":"Small"}]}
},"required":["age"]}`

// Elicited, rule by rule.
func TestElicited(t *testing.T) {
	for _, c := range []struct {
		name    string
		opts    coerce.Options
		content string
		want    string // "": content itself
		fails   []string
		changes string
	}{
		{name: "conforming", content: `{"age":42,"colors":["red"],"size":"s","hues":["#F00"]}`},
		{name: "numeric string", content: `{"age":"42"}`, want: `{"age":42}`, changes: "/age:number-from-text"},
		{name: "boolean text", content: `{"age":1,"ok":"yes"}`, want: `{"age":1,"ok":true}`, changes: "/ok:boolean-from-text"},
		{name: "one choice of several", content: `{"age":1,"colors":"red"}`, want: `{"age":1,"colors":["red"]}`, changes: "/colors:wrapped"},
		{name: "title", content: `{"age":1,"size":"Small"}`, want: `{"age":1,"size":"s"}`, changes: "/size:enum-case"},
		{name: "title but for case", content: `{"age":1,"size":"small"}`, want: `{"age":1,"size":"s"}`, changes: "/size:enum-case"},
		{name: "title but for case, ExactEnums", opts: coerce.Options{ExactEnums: true}, content: `{"age":1,"size":"small"}`, fails: []string{"/size"}},
		{name: "titles of several", content: `{"age":1,"hues":["Red","#0F0","Green"]}`, want: `{"age":1,"hues":["#F00","#0F0","#0F0"]}`, changes: "/hues/0:enum-case /hues/2:enum-case"},
		{name: "one title of several", content: `{"age":1,"hues":"Red"}`, want: `{"age":1,"hues":["#F00"]}`, changes: "/hues:wrapped /hues/0:enum-case"},
		{name: "legacy enumNames", content: `{"age":1,"fruit":"Banana"}`, want: `{"age":1,"fruit":"b"}`, changes: "/fruit:enum-case"},
		{name: "two values with the title", content: `{"age":1,"twin":"Same"}`, fails: []string{"/twin"}},
		{name: "a value is never respelled", content: `{"age":1,"tricky":"Small"}`},
		{name: "a title matching two values but for case", content: `{"age":1,"size":"MEGA"}`, want: `{"age":1,"size":"M"}`, changes: "/size:enum-case"},
		{name: "not a title", content: `{"age":1,"size":"Huge"}`, fails: []string{"/size"}},
		{name: "unfixable", content: `{"age":"ten","name":"x"}`, fails: []string{"/age"}},
		{name: "outside the enum", content: `{"age":1,"colors":["blue"]}`, fails: []string{"/colors/0"}},
		{name: "missing", content: `{"name":"x"}`, fails: []string{"/age"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var content map[string]any
			if err := json.Unmarshal([]byte(c.content), &content); err != nil {
				t.Fatal(err)
			}
			before, _ := json.Marshal(content)
			var changes []string
			o := c.opts
			o.OnChange = func(ch coerce.Change) { changes = append(changes, ch.Path+":"+ch.Rule.String()) }
			got, err := Elicited(o, []byte(form), content)
			if after, _ := json.Marshal(content); string(after) != string(before) {
				t.Errorf("the caller's content was modified: %s, was %s", after, before)
			}
			var paths []string
			for _, e := range Errors(err) {
				var ce *coerce.Error
				if errors.As(e, &ce) {
					paths = append(paths, ce.Path)
				}
			}
			if !slices.Equal(paths, c.fails) {
				t.Fatalf("errors at %q, want %q: %v", paths, c.fails, err)
			}
			if c.fails != nil {
				return
			}
			if c.want == "" {
				if reflect.ValueOf(got).UnsafePointer() != reflect.ValueOf(content).UnsafePointer() {
					t.Errorf("Elicited(%s) = %v, want the content itself", c.content, got)
				}
			} else if text, _ := json.Marshal(got); string(text) != c.want {
				t.Errorf("Elicited(%s) = %s, want %s", c.content, text, c.want)
			}
			if strings.Join(changes, " ") != c.changes {
				t.Errorf("changes %q, want %q", changes, c.changes)
			}
		})
	}
}

// Content that a handler builds in Go, a []string of titles among it.
func TestElicitedGoValues(t *testing.T) {
	content := map[string]any{"age": 3, "hues": []string{"Green"}}
	got, err := Elicited(coerce.Options{}, []byte(form), content)
	if err != nil {
		t.Fatal(err)
	}
	if text, _ := json.Marshal(got); string(text) != `{"age":3,"hues":["#0F0"]}` {
		t.Errorf("got %s", text)
	}
	if !slices.Equal(content["hues"].([]string), []string{"Green"}) {
		t.Errorf("the caller's slice was modified: %v", content["hues"])
	}
}
