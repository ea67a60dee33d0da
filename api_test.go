package coerce

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The integrations are versioned apart from the core: a user may upgrade
// one and not the other. So their code uses the core's public API only
// (package coerce, and toolcall for what they share), which keeps its
// promises from one version to the next, never an internal package, which
// may change under them: an integration built against one core builds
// against every later one. Their tests may use the internal test helpers
// (internal/feedbacktest): tests run against the core of the tree.
func TestIntegrationsUsePublicAPIOnly(t *testing.T) {
	if _, err := os.Stat(filepath.Join("genkit", "go.mod")); err != nil {
		t.Skip("no integrations beside the core: it is tested alone, as the release check tests a module from its zip")
	}
	for _, mod := range integrationModules(t) {
		files, _ := filepath.Glob(filepath.Join(mod, "*.go"))
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			parsed, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, imp := range parsed.Imports {
				path, _ := strconv.Unquote(imp.Path.Value)
				if strings.HasPrefix(path, "github.com/coerce-go/coerce/internal/") {
					t.Errorf("%s imports %s: an integration uses the core's public API only", f, path)
				}
			}
		}
	}
}

// integrationModules lists the folders of the modules go.work (and
// genkit's go.work) uses, but the core, the examples and internal/.
func integrationModules(t *testing.T) []string {
	var mods []string
	for _, work := range []string{"go.work", filepath.Join("genkit", "go.work")} {
		data, err := os.ReadFile(work)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(data), "\n") {
			dir := strings.TrimSpace(line)
			if !strings.HasPrefix(dir, "./") && !strings.HasPrefix(dir, "../") {
				continue
			}
			dir = filepath.Clean(filepath.Join(filepath.Dir(work), strings.Fields(dir)[0]))
			if dir == "." || strings.HasPrefix(dir, "examples") || strings.HasPrefix(dir, "internal") {
				continue
			}
			if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil && !contains(mods, dir) {
				mods = append(mods, dir)
			}
		}
	}
	if len(mods) < 8 {
		t.Fatalf("found the integration modules %v in go.work: too few", mods)
	}
	return mods
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
