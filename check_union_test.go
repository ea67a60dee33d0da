package coerce

import (
	"fmt"
	"strings"
	"testing"
)

// Check looks into a union's one object member: go-sdk infers
// {"type": ["null", "object"]} for a pointer input, and its required names
// are Check's to judge (memberOfKind once left objects out).
func TestCheckLooksIntoTheObjectMemberOfAUnion(t *testing.T) {
	s := schemaOf(t, `{"type": ["null", "object"], "required": ["a"], "properties": {"a": {"type": "string"}}}`)
	if err := s.Check(map[string]any{"b": 1.0}); err == nil {
		t.Error("Check passed an object without its required name")
	}
	if err := s.CheckJSON([]byte(`{"b": 1}`)); err == nil {
		t.Error("CheckJSON passed an object without its required name")
	}
	if !s.checksParams {
		t.Error("check mode does not judge the object member as the parameters")
	}
	if err := s.CheckJSON([]byte(`{"a": "x"}`)); err != nil {
		t.Error(err)
	}
}

// The walk over text knows a union's member before it converts an object
// where the object's keys and scalar values choose it (keyedMember); it
// must choose as the value walk does (choose), whatever decides: a
// required name, a closed object, a const or enum read as it stands; and
// leave to the value walk what only conversion tells (a value that the
// rule of enums respells, a number in a string, a key given twice).
func TestKeysChooseTheMemberAsTheValueWalkDoes(t *testing.T) {
	schemas := []string{
		// Two closed objects, told apart by their names.
		`{"type":"object","properties":{"p":{"oneOf":[
			{"type":"object","properties":{"id":{"type":"integer"}},"required":["id"],"additionalProperties":false},
			{"type":"object","properties":{"name":{"type":"string"}},"required":["name"],"additionalProperties":false}]}}}`,
		// A const discriminator, a string member besides.
		`{"type":"object","properties":{"p":{"anyOf":[
			{"type":"object","properties":{"kind":{"const":"circle"},"r":{"type":"number"}},"required":["kind"]},
			{"type":"object","properties":{"kind":{"const":"square"},"side":{"type":"number"}},"required":["kind"]},
			{"type":"string"}]}}}`,
		// An integer enum discriminator, and an open object beside it.
		`{"type":"object","properties":{"p":{"anyOf":[
			{"type":"object","properties":{"v":{"enum":[1,2]},"n":{"type":"integer"}},"required":["v"]},
			{"type":"object","properties":{"n":{"type":"boolean"}}}]}}}`,
	}
	args := []string{
		`{"p":{"id":"5"}}`, `{"p":{"name":5}}`, `{"p":{"id":"5","name":"x"}}`, `{"p":{}}`, `{"p":{"id":"x"}}`,
		`{"p":{"kind":"circle","r":"2.5"}}`, `{"p":{"kind":"Circle","r":"2.5"}}`, `{"p":{"kind":"square","side":"1"}}`,
		`{"p":{"kind":"circle","kind":"square","r":"1"}}`, `{"p":{"kind":["circle"],"r":"1"}}`, `{"p":{"kind":"oval","r":"1"}}`,
		`{"p":{"v":1,"n":"3"}}`, `{"p":{"v":"1","n":"3"}}`, `{"p":{"v":3,"n":"3"}}`, `{"p":{"n":"3"}}`, `{"p":{"v":null,"n":"3"}}`,
		`{"p":{"r":{"deep":[{"kind":"circle"}]},"kind":"circle"}}`, `{"p":[{"kind":"circle"}]}`,
	}
	// More required names than the fitter's bitmap counts (64): unsure,
	// not unsatisfiable.
	var names, props, obj []string
	for i := range 65 {
		names = append(names, fmt.Sprintf(`"r%d"`, i))
		props = append(props, fmt.Sprintf(`"r%d":{"type":"integer"}`, i))
		obj = append(obj, fmt.Sprintf(`"r%d":"1"`, i))
	}
	schemas = append(schemas, `{"type":"object","properties":{"p":{"anyOf":[
		{"type":"object","properties":{`+strings.Join(props, ",")+`},"required":[`+strings.Join(names, ",")+`]},
		{"type":"object","properties":{"r0":{"type":"boolean"}}}]}}}`)
	args = append(args, `{"p":{`+strings.Join(obj, ",")+`}}`)
	for _, sc := range schemas {
		s := mustSchema(t, Options{}, sc)
		for _, a := range args {
			if d := oneAnswer(s, []byte(a)); d != "" {
				t.Errorf("%s\n%s", sc, d)
			}
		}
	}
}
