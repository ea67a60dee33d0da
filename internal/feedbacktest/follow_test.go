package feedbacktest

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/coerce-go/coerce"
)

// Each case's call fails with feedback Follow can act on, and Follow
// makes of it the case's fixed call, which passes.
func TestFollowCases(t *testing.T) {
	s, err := coerce.ParseSchema([]byte(Schema))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range Cases {
		var args, want map[string]any
		if err := json.Unmarshal([]byte(tc.Call), &args); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(tc.Fixed), &want); err != nil {
			t.Fatal(err)
		}
		out, err := s.Coerce(args)
		err = errors.Join(err, s.Check(out))
		if err == nil {
			t.Fatalf("%s: the call passes", tc.Name)
		}
		fixed, ferr := Follow(args, s.Feedback(err))
		if ferr != nil {
			t.Fatalf("%s: %v", tc.Name, ferr)
		}
		if !reflect.DeepEqual(fixed, want) {
			t.Errorf("%s: fixed %v, want %v", tc.Name, fixed, want)
		}
		if out, err := s.Coerce(fixed); err != nil || s.Check(out) != nil {
			t.Errorf("%s: the fixed call fails: %v", tc.Name, err)
		}
	}
	if _, err := Follow(nil, "some error"); err == nil {
		t.Error("Follow acted on text that is not feedback")
	}
}
