package toolcall

import (
	"errors"
	"strconv"
	"testing"

	"github.com/coerce-go/coerce"
)

func TestCutOffCalls(t *testing.T) {
	var s CutOffCalls
	if _, ok := s.Reason("a", "", ""); ok {
		t.Fatal("an empty set knows a call")
	}
	s.Add("a", "search", `{"q":"x"`, "length")
	s.Add("", "search", `{"q":"y"}`, "max_tokens")
	if r, ok := s.Reason("a", "other", "{}"); !ok || r != "length" {
		t.Errorf("by id: %q, %v", r, ok)
	}
	if r, ok := s.Reason("", "search", `{"q":"y"}`); !ok || r != "max_tokens" {
		t.Errorf("by name and arguments: %q, %v", r, ok)
	}
	if _, ok := s.Reason("", "search", `{"q":"x"`); ok {
		t.Error("a call with an id found without it")
	}
	for i := range maxCutOffs {
		s.Add(strconv.Itoa(i), "", "", "length")
	}
	if _, ok := s.Reason("a", "", ""); ok || len(s.calls) != maxCutOffs {
		t.Errorf("the oldest kept: %d calls", len(s.calls))
	}
	if err := CutOff("finish_reason: length"); !errors.Is(err, coerce.ErrTruncated) {
		t.Errorf("CutOff: %v", err)
	}
}
