package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// writeTree writes files (slash-separated path to content) below dir.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func TestModuleFiles(t *testing.T) {
	dir := t.TempDir()
	tree := map[string]string{
		"go.mod":                        "module example.com/m\n\ngo 1.24\n",
		"m.go":                          "package m\n",
		"LICENSE":                       "license\n",
		"testdata/case.json":            "{}",
		"internal/x/x.go":               "package x\n",
		"nested/go.mod":                 "module example.com/m/nested\n",
		"nested/n.go":                   "package nested\n",
		"nested/deeper/d.go":            "package deeper\n",
		"examples/demo/go.mod":          "module example.com/m/examples/demo\n",
		"examples/demo/main.go":         "package main\n",
		"examples/plain/main.go":        "package main\n",
		"vendor/modules.txt":            "# example.com/dep\n",
		"vendor/example.com/dep/dep.go": "package dep\n",
		"pkg/vendor/vendor.go":          "package vendor\n",
	}
	writeTree(t, dir, tree)
	if runtime.GOOS != "windows" {
		if err := os.Symlink("m.go", filepath.Join(dir, "link.go")); err != nil {
			t.Fatal(err)
		}
	}
	listed := append(keys(tree), "link.go", "deleted.go")
	got, err := moduleFiles(dir, listed)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"LICENSE",
		"examples/plain/main.go",
		"go.mod",
		"internal/x/x.go",
		"m.go",
		"pkg/vendor/vendor.go", // a package named vendor, not a vendored one, since go1.24
		"testdata/case.json",
	}
	if !slices.Equal(got, want) {
		t.Errorf("moduleFiles =\n%q\nwant\n%q", got, want)
	}
}

func TestModuleFilesRejects(t *testing.T) {
	for _, tc := range []struct {
		files []string
		err   string
	}{
		{[]string{"a:b.go"}, "invalid character ':'"},
		{[]string{"doc/what?.md"}, "invalid character '?'"},
		{[]string{"aux.go"}, "reserved on Windows"},
		{[]string{"dir./a.go"}, "invalid path element"},
		{[]string{"a/../b.go"}, "not clean"},
		{[]string{"../a.go"}, `invalid path element ".."`},
		{[]string{"Go.mod"}, "lower case"},
		{[]string{"README.md", "readme.md"}, "collides with README.md"},
		{[]string{"Pkg/a.go", "pkg/b.go"}, "pkg/ collides with Pkg/"},
	} {
		// Only files that pass the checks of names need to exist. Some file
		// systems refuse the others, or fold case: that is fine too.
		dir := t.TempDir()
		for _, f := range tc.files {
			p := filepath.Join(dir, filepath.FromSlash(f))
			os.MkdirAll(filepath.Dir(p), 0o755)
			os.WriteFile(p, []byte("x"), 0o644)
		}
		_, err := moduleFiles(dir, tc.files)
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("moduleFiles(%q): error %v, want one containing %q", tc.files, err, tc.err)
		}
	}
}

// goCmd runs the go command in dir against the file proxy alone, with its own
// module cache, so that the test needs no network and leaves no trace.
func goCmd(t *testing.T, dir, proxy, modcache string, args ...string) ([]byte, error) {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(),
		"GOPROXY=file://"+filepath.ToSlash(proxy),
		"GOMODCACHE="+modcache,
		"GOFLAGS=-modcacherw -mod=mod",
		"GONOSUMDB=example.com",
		"GONOPROXY=",
		"GOPRIVATE=",
		"GOSUMDB=off",
		"GOWORK=off",
		"GOTOOLCHAIN=local",
	)
	return cmd.CombinedOutput()
}

func serve(t *testing.T, proxy string, m module) string {
	t.Helper()
	var files []string
	filepath.WalkDir(m.Dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(m.Dir, p)
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	files, err := moduleFiles(m.Dir, files)
	if err != nil {
		t.Fatal(err)
	}
	s, err := writeModule(proxy, m, files)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// The go command accepts what the proxy serves, computes the same sum, and
// extracts the module without its nested module.
func TestProxyServesTheGoCommand(t *testing.T) {
	src, proxy, modcache := t.TempDir(), t.TempDir(), t.TempDir()
	writeTree(t, src, map[string]string{
		"go.mod":              "module example.com/Upper/m\n\ngo 1.22\n",
		"m.go":                "package m\n\nconst Hello = \"hello\"\n",
		"testdata/input.json": "{}",
		"sub/go.mod":          "module example.com/Upper/m/sub\n",
		"sub/sub.go":          "package sub\n",
	})
	m := module{Path: "example.com/Upper/m", Dir: src, Version: "v0.1.0"}
	want := serve(t, proxy, m)

	out, err := goCmd(t, t.TempDir(), proxy, modcache, "mod", "download", "-json", m.Path+"@"+m.Version)
	if err != nil {
		t.Fatalf("go mod download: %v\n%s", err, out)
	}
	var got struct{ Dir, Sum string }
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	if got.Sum != want {
		t.Errorf("go command's sum %s, want %s", got.Sum, want)
	}
	for name, present := range map[string]bool{"m.go": true, "testdata/input.json": true, "sub": false} {
		if _, err := os.Stat(filepath.Join(got.Dir, name)); (err == nil) != present {
			t.Errorf("%s in the module cache: %v, want present=%v", name, err, present)
		}
	}
}

// The line make release-serve prints is one a shell takes as it is: with it,
// go get in a module of one's own fetches the module served, from the proxy
// alone, into the module cache the line names.
func TestServeInstructions(t *testing.T) {
	// A directory whose name the shell must be given quoted.
	src, dir, user := t.TempDir(), filepath.Join(t.TempDir(), "it's a dir"), t.TempDir()
	writeTree(t, src, map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.22\n",
		"m.go":   "package m\n\nconst Hello = \"hello\"\n",
	})
	m := module{Path: "example.com/m", Dir: src, Version: "v0.1.0"}
	serve(t, filepath.Join(dir, "proxy"), m)
	writeTree(t, user, map[string]string{
		"go.mod":  "module example.com/user\n\ngo 1.22\n",
		"user.go": "package user\n\nimport \"example.com/m\"\n\nvar _ = m.Hello\n",
	})

	// No machine module cache and no GOPROXY beyond the file proxy: the test
	// needs no network. A GOFLAGS with a space, to be quoted.
	env := userEnv(dir, goEnvironment{GOFLAGS: "-buildvcs=false"}, m.Path)
	// And a command, which a tester installs with go install, refusing -mod.
	cmdSrc := t.TempDir()
	writeTree(t, cmdSrc, map[string]string{
		"go.mod":  "module example.com/cmd/tool\n\ngo 1.22\n",
		"main.go": "package main\n\nfunc main() { println(\"tool\") }\n",
	})
	cmd := module{Path: "example.com/cmd/tool", Dir: cmdSrc, Version: "v0.1.0"}
	serve(t, filepath.Join(dir, "proxy"), cmd)
	text := serveInstructions(dir, env, []target{{name: "m", mod: m}, {name: "cmd/tool", mod: cmd, command: true}})
	var export string
	for line := range strings.Lines(text) {
		if l := strings.TrimSpace(line); strings.HasPrefix(l, "export ") {
			export = l
		}
	}
	if export == "" {
		t.Fatalf("no export line in:\n%s", text)
	}
	if !strings.Contains(text, "go get example.com/m@v0.1.0") || !strings.Contains(text, "go install example.com/cmd/tool@v0.1.0") {
		t.Errorf("no go get line for the module, or no go install line for the command, in:\n%s", text)
	}
	sh := exec.Command("sh", "-c", export+` && go env GOFLAGS GOWORK && go get "$0" && go build ./... && GOBIN="$PWD/bin" go install "$1"`,
		m.Path+"@v0.1.0", cmd.Path+"@v0.1.0")
	sh.Dir = user
	sh.Env = append(os.Environ(), "GOSUMDB=off", "GONOPROXY=", "GOPRIVATE=", "GOTOOLCHAIN=local")
	out, err := sh.CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", export, err, out)
	}
	if !strings.HasPrefix(string(out), "-buildvcs=false -modcacherw -trimpath\noff\n") {
		t.Errorf("the shell did not set GOFLAGS and GOWORK as the line says: %s", out)
	}
	if _, err := os.Stat(filepath.Join(user, "bin", "tool")); err != nil {
		t.Errorf("the command was not installed: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "modcache", "cache", "download", "example.com")); err != nil {
		t.Errorf("the module was not fetched into the line's module cache: %v", err)
	}
}
