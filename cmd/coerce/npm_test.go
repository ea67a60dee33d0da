package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// The tests against real Node servers and clients install the versions
// pinned in testdata/npm (package.json and package-lock.json) with npm ci,
// once per lock file, into a directory of the user's cache named by the
// lock's hash: the working tree stays clean, and a second run installs
// nothing. Without node and npm those tests skip, and say so.

var (
	npmOnce sync.Once
	npmDir  string
	npmErr  error
	npmSkip string
)

// nodeModules returns the directory holding node_modules, installing it
// on first use.
func nodeModules(t testing.TB) string {
	t.Helper()
	npmOnce.Do(func() { npmDir, npmSkip, npmErr = installNPM() })
	if npmSkip != "" {
		t.Skip(npmSkip)
	}
	if npmErr != nil {
		t.Fatal(npmErr)
	}
	return npmDir
}

func installNPM() (dir, skip string, err error) {
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			return "", fmt.Sprintf("SKIP: %s not found: the tests against @modelcontextprotocol/server-everything and the TypeScript SDK's client need Node and npm", tool), nil
		}
	}
	lock, err := os.ReadFile(filepath.Join("testdata", "npm", "package-lock.json"))
	if err != nil {
		return "", "", err
	}
	pkg, err := os.ReadFile(filepath.Join("testdata", "npm", "package.json"))
	if err != nil {
		return "", "", err
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	sum := sha256.Sum256(append(lock, pkg...))
	dir = filepath.Join(cache, "coerce-cmd-test", "npm-"+hex.EncodeToString(sum[:8]))
	if _, err := os.Stat(filepath.Join(dir, "installed")); err == nil {
		return dir, "", nil
	}
	// Installed beside, then renamed into place, so that two test
	// processes at once (go test -race and go test) never see half of it.
	tmp, err := os.MkdirTemp(filepath.Dir(dir), "installing-")
	if err != nil {
		if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
			return "", "", err
		}
		if tmp, err = os.MkdirTemp(filepath.Dir(dir), "installing-"); err != nil {
			return "", "", err
		}
	}
	defer os.RemoveAll(tmp)
	for name, data := range map[string][]byte{"package.json": pkg, "package-lock.json": lock} {
		if err := os.WriteFile(filepath.Join(tmp, name), data, 0o644); err != nil {
			return "", "", err
		}
	}
	cmd := exec.Command("npm", "ci", "--no-audit", "--no-fund", "--loglevel=error")
	cmd.Dir = tmp
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", "", fmt.Errorf("npm ci (in a copy of testdata/npm): %v\n%s", err, out)
	}
	if err := os.WriteFile(filepath.Join(tmp, "installed"), nil, 0o644); err != nil {
		return "", "", err
	}
	if err := os.Rename(tmp, dir); err != nil {
		if _, statErr := os.Stat(filepath.Join(dir, "installed")); statErr != nil {
			return "", "", err
		}
	}
	return dir, "", nil
}

// everythingCmd is the command of @modelcontextprotocol/server-everything
// over stdio, behind the proxy or not.
func everythingCmd(t testing.TB, proxied bool) *exec.Cmd {
	t.Helper()
	server := []string{"node", filepath.Join(nodeModules(t), "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js"), "stdio"}
	if !proxied {
		return exec.Command(server[0], server[1:]...)
	}
	log := filepath.Join(t.TempDir(), "proxy.log")
	return exec.Command(coerceBin, append([]string{"mcp", "-log", log, "--"}, server...)...)
}
