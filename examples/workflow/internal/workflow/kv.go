package workflow

import (
	"encoding/json"
	"fmt"
	"sync"
)

// StringKV is a Store that loses types the way an execution state kept in
// a key-value bucket does: each output field that is not already a string
// is marshaled to JSON text and stored as a string, so what comes back is
// "[{\"id\":\"t1\",...}]" where a list of tasks went in, and "3" where 3
// went in. With Double set, the text of objects and arrays is encoded once more,
// the double escaping seen on json.RawMessage fields during marshal -> store
// -> load cycles.
//
// It stands in for a real bucket in the demo and the tests; an engine that
// coerces at its nodes runs the same on it as on a store that keeps types.
type StringKV struct {
	Double bool

	mu      sync.Mutex
	records map[string][]byte
}

func (kv *StringKV) Put(step string, output map[string]any) error {
	rec := make(map[string]string, len(output))
	for k, v := range output {
		if s, ok := v.(string); ok {
			rec[k] = s
			continue
		}
		text, err := json.Marshal(v)
		if err != nil {
			return fmt.Errorf("store %s.%s: %w", step, k, err)
		}
		if kv.Double && (text[0] == '{' || text[0] == '[') {
			text, _ = json.Marshal(string(text))
		}
		rec[k] = string(text)
	}
	data, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	kv.mu.Lock()
	defer kv.mu.Unlock()
	if kv.records == nil {
		kv.records = map[string][]byte{}
	}
	kv.records[step] = data
	return nil
}

func (kv *StringKV) Get(step string) (map[string]any, error) {
	kv.mu.Lock()
	data, ok := kv.records[step]
	kv.mu.Unlock()
	if !ok {
		return nil, fmt.Errorf("store: no output for step %q", step)
	}
	var rec map[string]string
	if err := json.Unmarshal(data, &rec); err != nil {
		return nil, err
	}
	out := make(map[string]any, len(rec))
	for k, v := range rec {
		out[k] = v
	}
	return out, nil
}
