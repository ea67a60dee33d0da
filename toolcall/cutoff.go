package toolcall

import (
	"sync"
	"sync/atomic"

	"github.com/coerce-go/coerce"
)

// CutOff is the error of a tool call of a turn that the model's output
// limit cut off: a *coerce.Error wrapping coerce.ErrTruncated, whose
// Detail names the stop reason as the provider gave it ("finish_reason:
// length", "stop_reason: max_tokens"). coerce.Feedback of it tells the
// model the call was cut off and nothing ran.
func CutOff(reason string) *coerce.Error {
	return &coerce.Error{Err: coerce.ErrTruncated, Detail: "the model's output stopped at its limit (" + reason + ")"}
}

// CutOffCalls remembers the tool calls of the turns a model's output limit
// cut off, for an integration whose framework hands the model's reply and
// the tools their calls apart (a tool learns of its call only its ID, its
// name and its arguments): a call is known by its ID, or, without one, by
// its tool's name and its arguments. It keeps the last 4096, far more
// than any run has waiting between a reply and its tools, and a call it
// refused stays known, so that a run resumed after an interrupt refuses
// it again. The zero value is ready; it is safe for concurrent use, and a
// lookup while it is empty takes no lock.
type CutOffCalls struct {
	n     atomic.Int32 // len(calls), read without the lock on every call
	mu    sync.Mutex
	calls map[callKey]string // the stop reason
	ring  []callKey          // in the order added; the oldest at next once full
	next  int
}

const maxCutOffs = 4096

type callKey struct{ id, name, args string }

func keyOf(id, name, args string) callKey {
	if id != "" {
		return callKey{id: id}
	}
	return callKey{name: name, args: args}
}

// Add records a call of a turn cut off, with the turn's stop reason.
func (s *CutOffCalls) Add(id, name, args, reason string) {
	k := keyOf(id, name, args)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.calls == nil {
		s.calls = map[callKey]string{}
	}
	if _, ok := s.calls[k]; !ok {
		if len(s.ring) < maxCutOffs {
			s.ring = append(s.ring, k)
		} else {
			delete(s.calls, s.ring[s.next])
			s.ring[s.next] = k
			s.next = (s.next + 1) % maxCutOffs
		}
	}
	s.calls[k] = reason
	s.n.Store(int32(len(s.calls)))
}

// Reason returns the stop reason of the turn that cut the call off, if
// Add recorded it: by id where id is not empty, else by name and args.
func (s *CutOffCalls) Reason(id, name, args string) (string, bool) {
	if s.n.Load() == 0 {
		return "", false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.calls[keyOf(id, name, args)]
	return r, ok
}
