package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// The tests run the command as users do: built, in a process of its own,
// through its stdin, stdout, stderr and exit status. The test binary is
// also the MCP server they put behind the proxy (see recordserver_test.go).

var coerceBin string // the built command

func TestMain(m *testing.M) {
	if os.Getenv(recordServerEnv) != "" {
		os.Exit(runRecordServer())
	}
	dir, err := os.MkdirTemp("", "coerce-cmd-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	coerceBin = filepath.Join(dir, "coerce")
	// -buildvcs=false: stamping the main module's version from git writes a
	// pseudo-version of our own module into the module cache, which make
	// test must leave without any (no-trace).
	build := exec.Command("go", "build", "-buildvcs=false", "-o", coerceBin, ".")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building the command:", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// result is what one run of the command did.
type result struct {
	code           int
	stdout, stderr string
}

func runCoerce(t testing.TB, stdin string, args ...string) result {
	t.Helper()
	cmd := exec.Command(coerceBin, args...)
	cmd.Dir = "testdata"
	cmd.Stdin = bytes.NewBufferString(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return result{code, out.String(), errb.String()}
}
