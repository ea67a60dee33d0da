package compare

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the AJV benchmark's inputs in ajv/testdata")

// ajvDir holds the inputs of the Node benchmark in ajv/ (bench.mjs): the
// schemas and calls of BenchmarkRepairArgsJSON, named by its cases, and
// coerce's output for each, which bench.mjs checks its own against.
const ajvDir = "ajv/testdata"

// TestAJVInputsAreCurrent keeps ajv/testdata equal to what
// BenchmarkRepairArgsJSON runs on, so that the Node figures in the README
// are for the same bytes as the Go ones. With -update it writes them.
func TestAJVInputsAreCurrent(t *testing.T) {
	want := map[string][]byte{}
	for _, c := range []struct{ name, schema, call string }{
		{"mcp-call", quickstartSchema, quickstartCall},
		{"numeric-call", numericSchema, numericCall},
	} {
		out, err := mustSchema(t, c.schema).CoerceJSON([]byte(c.call))
		if err != nil {
			t.Fatal(err)
		}
		want[filepath.Join(c.name, "schema.json")] = []byte(c.schema)
		want[filepath.Join(c.name, "call.json")] = []byte(c.call)
		want[filepath.Join(c.name, "coerce_out.json")] = out
	}
	if *update {
		if err := os.RemoveAll(ajvDir); err != nil {
			t.Fatal(err)
		}
		for name, data := range want {
			path := filepath.Join(ajvDir, name)
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return
	}
	const regen = "; regenerate with `go test -run TestAJVInputsAreCurrent -update` in examples/compare"
	var have []string
	err := filepath.WalkDir(ajvDir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(ajvDir, path)
		have = append(have, rel)
		return err
	})
	if err != nil {
		t.Fatalf("%v%s", err, regen)
	}
	for name, data := range want {
		got, err := os.ReadFile(filepath.Join(ajvDir, name))
		if err != nil {
			t.Errorf("%v%s", err, regen)
		} else if !bytes.Equal(got, data) {
			t.Errorf("%s differs from what BenchmarkRepairArgsJSON runs on%s", filepath.Join(ajvDir, name), regen)
		}
	}
	for _, name := range have {
		if _, ok := want[name]; !ok {
			t.Errorf("%s is no input of BenchmarkRepairArgsJSON%s", filepath.Join(ajvDir, name), regen)
		}
	}
}
