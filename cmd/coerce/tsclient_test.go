package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The TypeScript SDK's client (testdata/npm/client.mjs) before the proxy
// before the reference server: the same repairs, the same rejection, and
// progress, sampling, prompts and resources as usual.
func TestTypeScriptClient(t *testing.T) {
	dir := nodeModules(t)
	// Node resolves packages from the script's directory: it runs beside
	// node_modules.
	script, err := os.ReadFile(filepath.Join("testdata", "npm", "client.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	scriptPath := filepath.Join(dir, "client-"+filepath.Base(t.TempDir())+".mjs")
	if err := os.WriteFile(scriptPath, script, 0o644); err != nil {
		t.Fatal(err)
	}
	defer os.Remove(scriptPath)

	server := filepath.Join(dir, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js")
	cmd := exec.Command("node", scriptPath, coerceBin, "mcp", "-log", filepath.Join(t.TempDir(), "proxy.log"), "--", "node", server, "stdio")
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node client.mjs: %v\n%s", err, out)
	}
	type callResult struct {
		IsError bool   `json:"isError"`
		Text    string `json:"text"`
		Error   string `json:"error"`
	}
	var got struct {
		StringNumber, ObjectForString, Unfixable, Fits, LongRunning, Sampling callResult
		Progress, PromptMessages, Resources                                   int
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	for _, c := range []struct {
		name string
		got  callResult
		want string
	}{
		{"a string for a number", got.StringNumber, "The sum of 5 and 2 is 7."},
		{"an object for a string", got.ObjectForString, `Echo: {"x":[1,2]}`},
		{"a call that fits", got.Fits, "The sum of 1 and 2 is 3."},
	} {
		if c.got.IsError || c.got.Error != "" || c.got.Text != c.want {
			t.Errorf("%s: %+v, want %q", c.name, c.got, c.want)
		}
	}
	if !got.Unfixable.IsError || !strings.Contains(got.Unfixable.Text, "/a: expected a number") {
		t.Errorf("unfixable call: %+v", got.Unfixable)
	}
	// The client stops listening for progress when the result comes, and
	// the server sends the last step's beside it: 2 or 3 arrive, with the
	// proxy or without.
	if got.LongRunning.IsError || got.Progress < 2 {
		t.Errorf("long-running operation: %+v, %d progress notifications, want 2 or 3", got.LongRunning, got.Progress)
	}
	if !strings.Contains(got.Sampling.Text, "sampled") {
		t.Errorf("sampling: %+v", got.Sampling)
	}
	if got.PromptMessages == 0 || got.Resources == 0 {
		t.Errorf("prompt messages %d, resources %d", got.PromptMessages, got.Resources)
	}
}
