package einocoerce_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/compose"
	"github.com/coerce-go/coerce"
	"github.com/coerce-go/coerce/coercetest"
	"github.com/coerce-go/coerce/eino"
	"github.com/google/go-cmp/cmp"
)

// toolSchema compiles a tool's parameters as einocoerce does, for
// coercetest.Variants.
func toolSchema(t *testing.T, bt tool.BaseTool) *coerce.Schema {
	t.Helper()
	info, err := bt.Info(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	js, err := info.ParamsOneOf.ToJSONSchema()
	if err != nil {
		t.Fatal(err)
	}
	text, err := json.Marshal(js)
	if err != nil {
		t.Fatal(err)
	}
	s, err := coerce.ParseSchema(text)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Every broken form coercetest knows, sent as a model's tool call through a
// real ToolsNode to each of eino's four kinds of tool, built with eino's own
// helpers from a typed input: each must reach the tool's function as the
// valid arguments would, and none may fail.
func TestEveryBrokenFormReachesEachKindOfToolRepaired(t *testing.T) {
	var rec received[searchInput]
	tools := searchTools(t, &rec)
	var list []tool.BaseTool
	for _, bt := range tools {
		list = append(list, bt)
	}
	node := newNode(t, einocoerce.Install, list...)

	valid := validSearch()
	schema := toolSchema(t, tools["search"])
	coercetest.AssertRepairsJSON(t, schema, []byte(mustJSON(t, valid))) // the schema alone, first
	variants := coercetest.Variants(schema, valid)
	if len(variants) < 20 {
		t.Fatalf("only %d variants", len(variants))
	}
	t.Logf("%d variants", len(variants))

	for _, name := range []string{"search", "search_stream", "search_enhanced", "search_enhanced_stream"} {
		for _, stream := range []bool{false, true} {
			mode := "Invoke"
			if stream {
				mode = "Stream"
			}
			t.Run(name+"/"+mode, func(t *testing.T) {
				for i, v := range variants {
					id := name + "/" + mode + "/" + callID(i)
					_, err := runNode(context.Background(), node, stream, call{id, name, mustJSON(t, v.Args)})
					if err != nil {
						t.Errorf("%s: %v", v.Name, err)
						continue
					}
					got, ok := rec.get(id)
					if !ok {
						t.Errorf("%s: the tool was not called", v.Name)
						continue
					}
					if diff := cmp.Diff(decodeAs[searchInput](t, v.Want), got); diff != "" {
						t.Errorf("%s: the tool got (-want +got):\n%s", v.Name, diff)
					}
				}
			})
		}
	}
}

// The same for a tool written by hand, whose schema is a ParamsOneOf of
// ParameterInfos and which decodes its arguments strictly with
// encoding/json.
func TestEveryBrokenFormReachesAHandWrittenToolRepaired(t *testing.T) {
	var rec received[jobInput]
	st := &scheduleTool{rec: &rec}
	node := newNode(t, einocoerce.Install, st)

	valid := validJob()
	variants := coercetest.Variants(toolSchema(t, st), valid)
	if len(variants) < 10 {
		t.Fatalf("only %d variants", len(variants))
	}
	for i, v := range variants {
		id := callID(i)
		if _, err := runNode(context.Background(), node, false, call{id, "schedule", mustJSON(t, v.Args)}); err != nil {
			t.Errorf("%s: %v", v.Name, err)
			continue
		}
		got, _ := rec.get(id)
		if diff := cmp.Diff(decodeAs[jobInput](t, v.Want), got); diff != "" {
			t.Errorf("%s: the tool got (-want +got):\n%s", v.Name, diff)
		}
	}
}

// Without coercion, the same node fails on the broken forms: the test
// above tests something.
func TestWithoutCoercionTheBrokenFormsFail(t *testing.T) {
	var rec received[searchInput]
	tools := searchTools(t, &rec)
	node := newNode(t, func(*compose.ToolsNodeConfig) {}, tools["search"])
	failed := 0
	variants := coercetest.Variants(toolSchema(t, tools["search"]), validSearch())
	for i, v := range variants {
		if _, err := runNode(context.Background(), node, false, call{callID(i), "search", mustJSON(t, v.Args)}); err != nil {
			failed++
		}
	}
	if failed != len(variants) {
		t.Errorf("%d of %d broken forms fail without coercion, want all", failed, len(variants))
	}
}

// All the variants at once, as one assistant message calling the tool in
// parallel, as models do: the wrapped tool compiles its schema once, under
// concurrent first calls (run with -race).
func TestParallelToolCallsInOneMessage(t *testing.T) {
	var rec received[jobInput]
	st := &scheduleTool{rec: &rec}
	node := newNode(t, einocoerce.Install, st)
	variants := coercetest.Variants(toolSchema(t, st), validJob())
	before := st.infoCalls() // the node and toolSchema have called it
	var calls []call
	for i, v := range variants {
		calls = append(calls, call{callID(i), "schedule", mustJSON(t, v.Args)})
	}
	out, err := node.Invoke(context.Background(), assistant(calls...))
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != len(variants) {
		t.Fatalf("%d tool messages for %d calls", len(out), len(variants))
	}
	for i, v := range variants {
		got, _ := rec.get(callID(i))
		if diff := cmp.Diff(decodeAs[jobInput](t, v.Want), got); diff != "" {
			t.Errorf("%s: the tool got (-want +got):\n%s", v.Name, diff)
		}
	}
	if n := st.infoCalls() - before; n != 1 {
		t.Errorf("Info called %d times for %d calls, want once", n, len(variants))
	}
}
