package coerce

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// The helpers that the tests of this package share, each written once:
// reading test data, decoding JSON as a caller would, copying values to
// check later that they were not mutated, telling the same value from an
// equal one, and comparing results with what a test wants.

// loadCases reads every file that matches pattern (a filepath.Glob pattern
// in slash form, such as "testdata/conformance/*values.json"), each a JSON
// array of cases, and returns their cases in the order of the files. A
// pattern that matches no file fails the test: a folder that moved must not
// pass as a folder without cases.
func loadCases[T any](t testing.TB, pattern string) []T {
	t.Helper()
	files, err := filepath.Glob(filepath.FromSlash(pattern))
	if err != nil || len(files) == 0 {
		t.Fatalf("no %s: %v", pattern, err)
	}
	var all []T
	for _, f := range files {
		all = append(all, readJSON[[]T](t, f)...)
	}
	return all
}

// readJSON reads the file named by path and decodes it into a T with
// encoding/json, failing the test if either cannot be done.
func readJSON[T any](t testing.TB, path string) T {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var v T
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return v
}
