package doccheck

import (
	"encoding/json"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// integrationModules returns the folders, relative to the repository's root
// and slash-separated, of the integration modules: those the root go.work
// uses, and the workspaces of their own beside it (genkit/go.work), except
// the core, the examples and the repository's tooling under internal/, as
// internal/releasecheck counts them, and the commands under cmd/, which a
// user installs rather than imports into a program built on an SDK.
func integrationModules(t *testing.T, root string) []string {
	t.Helper()
	works, err := filepath.Glob(filepath.Join(root, "*", "go.work"))
	if err != nil {
		t.Fatal(err)
	}
	works = append([]string{filepath.Join(root, "go.work")}, works...)
	var mods []string
	for _, w := range works {
		out, err := exec.Command("go", "work", "edit", "-json", w).Output()
		if err != nil {
			t.Fatalf("go work edit -json %s: %v", w, err)
		}
		var work struct{ Use []struct{ DiskPath string } }
		if err := json.Unmarshal(out, &work); err != nil {
			t.Fatal(err)
		}
		for _, u := range work.Use {
			rel, err := filepath.Rel(root, filepath.Join(filepath.Dir(w), u.DiskPath))
			if err != nil {
				t.Fatal(err)
			}
			rel = path.Clean(filepath.ToSlash(rel))
			if rel == "." || strings.HasPrefix(rel, "examples/") || strings.HasPrefix(rel, "internal/") || strings.HasPrefix(rel, "cmd/") {
				continue
			}
			mods = append(mods, rel)
		}
	}
	slices.Sort(mods)
	return slices.Compact(mods)
}

// TestIntegrationsTableListsEveryModule checks that the table of
// integrations by capability (README.md, "By capability") has one row per
// integration module of the workspaces, no more and no fewer, so that a new
// module is added to it and a removed one leaves it.
func TestIntegrationsTableListsEveryModule(t *testing.T) {
	if os.Getenv("DOCCHECK_WORKSPACE") != "" {
		t.Skip("reads every go.work itself: run once, in the root workspace")
	}
	root := filepath.Join("..", "..")
	md, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	// A row of the table starts with its module, as [`name`](link).
	row := regexp.MustCompile("(?m)^\\|\\s*\\[`([^`]+)`\\]\\(([^)]+)\\)\\s*\\|")
	var listed []string
	for _, m := range row.FindAllStringSubmatch(string(md), -1) {
		listed = append(listed, m[1])
		if want := m[1]; m[2] != want {
			t.Errorf("the row of %s links to %s, want %s", m[1], m[2], want)
		}
	}
	if len(listed) == 0 {
		t.Fatal("README.md has no row of the form | [`module`](module) |")
	}
	sorted := slices.Clone(listed)
	slices.Sort(sorted)
	for i := 1; i < len(sorted); i++ {
		if sorted[i] == sorted[i-1] {
			t.Errorf("README.md lists %s twice", sorted[i])
		}
	}
	want := integrationModules(t, root)
	for _, m := range want {
		if !slices.Contains(listed, m) {
			t.Errorf("%s is an integration module of the workspace, but README.md's table by capability has no row for it", m)
		}
	}
	for _, m := range listed {
		if !slices.Contains(want, m) {
			t.Errorf("README.md has a row for %s, which no go.work uses as an integration module", m)
		}
	}
}
