package coercetest_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/coerce-go/coerce"
	"github.com/coerce-go/coerce/coercetest"
)

func TestCheckPasses(t *testing.T) {
	schema := realSchema(t, "gosdk-plan-tasks.json")
	valid := realSchemas[0].valid
	if err := coercetest.Check(schema, decodeArgs(t, valid)); err != nil {
		t.Errorf("Check: %v", err)
	}
	if err := coercetest.CheckJSON(schema, []byte(valid)); err != nil {
		t.Errorf("CheckJSON: %v", err)
	}
}

// TestCheckReportsWrongSchema: a schema that declares priority a string,
// where the tool takes an integer, makes coercion write the number as
// text, in the valid arguments and in every variant, those that break
// values inside tasks included. Check reports each, one error apiece,
// naming it.
func TestCheckReportsWrongSchema(t *testing.T) {
	text, err := os.ReadFile(filepath.Join("..", "testdata", "schemas", "gosdk-plan-tasks.json"))
	if err != nil {
		t.Fatal(err)
	}
	wrong := strings.Replace(string(text), `"priority": {
      "type": "integer",`, `"priority": {
      "type": "string",`, 1)
	if wrong == string(text) {
		t.Fatal("the schema's priority declaration was not found")
	}
	schema := mustSchema(t, wrong)
	valid := decodeArgs(t, `{"plan_id": "p", "tasks": [{"id": 1, "title": "t", "files": ["a.go"]}], "priority": 2}`)
	variants := coercetest.Variants(schema, valid)

	for _, tt := range []struct {
		via   string
		check func() error
	}{
		{"Coerce", func() error { return coercetest.Check(schema, valid) }},
		{"CoerceJSON", func() error { return coercetest.CheckJSON(schema, mustJSON(t, valid)) }},
	} {
		err := tt.check()
		if err == nil {
			t.Fatalf("%s: Check passed a wrong schema", tt.via)
		}
		joined, ok := err.(interface{ Unwrap() []error })
		if !ok {
			t.Fatalf("%s: error %T is not joined", tt.via, err)
		}
		errs := joined.Unwrap()
		if len(errs) != 1+len(variants) {
			t.Errorf("%s: %d errors, want one for the valid arguments and one for each of %d variants", tt.via, len(errs), len(variants))
			continue
		}
		for i, e := range errs {
			label := "valid arguments"
			if i > 0 {
				label = `variant "` + variants[i-1].Name + `"`
			}
			msg := e.Error()
			if !strings.HasPrefix(msg, "coercetest: "+label+" ("+tt.via+"):\n\targs: ") {
				t.Errorf("%s: error %d does not name %s:\n%s", tt.via, i, label, msg)
			}
			if !strings.Contains(msg, "coerced arguments differ:\n\t\t/priority: want 2, got \"2\"") {
				t.Errorf("%s: error %d does not show the diff of priority:\n%s", tt.via, i, msg)
			}
		}
		if !strings.Contains(err.Error(), `variant "tasks/0/id/integer-as-string"`) {
			t.Errorf("%s: no error for the nested variant tasks/0/id/integer-as-string:\n%s", tt.via, err)
		}
	}
}

func TestCheckInvalidArguments(t *testing.T) {
	schema, err := coerce.SchemaFromTypes(map[string]string{"x": "float"})
	if err != nil {
		t.Fatal(err)
	}
	if err := coercetest.Check(schema, map[string]any{"x": make(chan int)}); err == nil ||
		!strings.HasPrefix(err.Error(), "coercetest: valid arguments are not JSON") {
		t.Errorf("Check with a channel: %v", err)
	}
	if err := coercetest.CheckJSON(schema, []byte(`[1]`)); err == nil ||
		!strings.HasPrefix(err.Error(), "coercetest: valid arguments are not a JSON object") {
		t.Errorf("CheckJSON of an array: %v", err)
	}
}

// TestCheckConformanceVectors runs Check and CheckJSON over the results of
// the core's conformance vectors (testdata/conformance at the root of the
// repository), hundreds of them unions of objects told apart by their
// keywords: each result is a valid argument set, every variant of which
// coercion must repair.
func TestCheckConformanceVectors(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "testdata", "conformance", "*schemas.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no conformance vectors: %v", err)
	}
	sets, variants, nested := 0, 0, 0
	for _, file := range files {
		text, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var cases []struct {
			ID     string          `json:"id"`
			Schema json.RawMessage `json:"schema"`
			Want   json.RawMessage `json:"want"`
			Error  bool            `json:"error"`
		}
		if err := json.Unmarshal(text, &cases); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		for _, c := range cases {
			// {"$json": X} stands for any text that holds X: no one valid
			// argument set.
			if c.Error || strings.Contains(string(c.Want), `"$json"`) {
				continue
			}
			valid := decodeArgs(t, string(c.Want))
			schema := mustSchema(t, string(c.Schema))
			if !schema.Type().Conforms(valid) {
				t.Errorf("%s: result does not conform", c.ID)
				continue
			}
			sets++
			for _, v := range coercetest.Variants(schema, valid) {
				variants++
				if !strings.Contains(v.Name, "+") && strings.Count(v.Name, "/") > 1 {
					nested++
				}
			}
			if err := coercetest.Check(schema, valid); err != nil {
				t.Errorf("%s (%s): %v", c.ID, filepath.Base(file), err)
			}
			if err := coercetest.CheckJSON(schema, c.Want); err != nil {
				t.Errorf("%s (%s): %v", c.ID, filepath.Base(file), err)
			}
		}
	}
	if sets < 300 || nested < 500 {
		t.Errorf("%d argument sets, %d nested single variants: the vectors were not read", sets, nested)
	}
	t.Logf("%d argument sets, %d variants, %d of them single forms inside a parameter", sets, variants, nested)
}
