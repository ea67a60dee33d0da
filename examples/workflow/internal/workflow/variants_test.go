package workflow

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/coerce-go/coerce/coercetest"
)

// Every way coercetest knows that steps and clients break parameters, run
// through the engine into a node declared by type names: each must reach
// the node as the valid parameters would.
func TestEveryBreakageReachesTheNodeRepaired(t *testing.T) {
	var got map[string]any
	node := recorder(t, map[string]string{
		"server_name": "str", "path_params": "str", "items": "list[dict]",
		"limit": "int", "ratio": "float", "notify": "bool", "note": "Optional[str]",
	}, &got)
	e := &Engine{Nodes: map[string]*Node{"discord": node}}
	valid := map[string]any{
		"server_name": "discord",
		"path_params": `{"channel_id":"` + channelID + `"}`,
		"items":       []any{map[string]any{"id": 1.0}},
		"limit":       10.0,
		"ratio":       0.5,
		"notify":      true,
		"note":        nil,
	}
	coercetest.AssertRepairs(t, node.schema, valid) // the declarations alone, first

	variants := coercetest.Variants(node.schema, valid)
	t.Logf("%d variants", len(variants))
	if len(variants) < 10 {
		t.Fatalf("only %d variants", len(variants))
	}
	for _, v := range variants {
		if _, err := e.RunNode(context.Background(), "discord", v.Args); err != nil {
			t.Errorf("%s: %v", v.Name, err)
			continue
		}
		if !reflect.DeepEqual(viaJSON(t, got), viaJSON(t, v.Want)) {
			t.Errorf("%s: node got %#v, want %#v", v.Name, got, v.Want)
		}
	}
}

// The same for a node that takes a typed Go input, where a wrong shape
// used to fail in json.Unmarshal.
func TestEveryBreakageReachesTheTypedNodeRepaired(t *testing.T) {
	var got TaskReviewTrigger
	node := typedRecorder(t, &got)
	e := &Engine{Nodes: map[string]*Node{"reviewer": node}}
	valid := map[string]any{
		"slug":  "auth",
		"tasks": []any{map[string]any{"id": "t1", "title": "Add login", "priority": 2.0}},
	}
	variants := coercetest.Variants(node.schema, valid)
	t.Logf("%d variants", len(variants))
	if len(variants) < 5 {
		t.Fatalf("only %d variants", len(variants))
	}
	for _, v := range variants {
		got = TaskReviewTrigger{}
		if _, err := e.RunNode(context.Background(), "reviewer", v.Args); err != nil {
			t.Errorf("%s: %v", v.Name, err)
			continue
		}
		var want TaskReviewTrigger
		if err := json.Unmarshal(jsonOf(t, v.Want), &want); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: node got %+v, want %+v", v.Name, got, want)
		}
	}
}

func jsonOf(t *testing.T, v any) []byte {
	t.Helper()
	text, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return text
}

func viaJSON(t *testing.T, v any) any {
	t.Helper()
	var out any
	if err := json.Unmarshal(jsonOf(t, v), &out); err != nil {
		t.Fatal(err)
	}
	return out
}
