package coerce

import "testing"

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
