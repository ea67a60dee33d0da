// Command releasecheck proves, before the modules are tagged, that what a
// user's go get will fetch builds and passes its tests.
//
// It serves the core module and each integration module of the workspace
// (every module go.work lists, except the examples and internal tooling) from a file-system module
// proxy, at the version the integrations require of the core, as the go
// command will receive them once tagged: one zip per module, made from the
// files of the working tree that git does not ignore, without the nested
// modules. Then, for the core and for each integration, it makes a fresh module
// outside the repository from the files in testdata/<name> (a user's code: a
// main_test.go, for the core also a main.go) and runs there what a user runs:
//
//	go get <module>@<version>
//	go mod tidy
//	                               (the versions its build selects are those
//	                               the workspace tests it with: sameVersions)
//	go build ./...                 (when there is more than tests)
//	go vet ./...
//	go test ./...
//	go test <module>/...           (the module's own tests, as a dependency)
//
// A module whose root package is a command (cmd/coerce) is checked as a user
// installs and runs it instead: from testdata/<name>/run.json, which names
// the arguments of one run and the output it must print,
//
//	go install <module>@<version>
//	<the installed command> <arguments>
//
// Its own tests need the repository (they build it, and install the npm
// packages of its testdata), so they are not run from the module cache.
//
// With -race (make test), the build, vet and test commands of each
// integration's module run with -race: make test's vet and race steps have
// compiled the integrations' dependencies with -race, and -trimpath lets
// the build cache serve them here, where a plain build compiled them all
// once more. A plain build would also prove that the files a build with
// -race leaves out (those constrained by !race) compile, in the
// integrations and in their dependencies: of ours only mcpgo has one, a
// test's, which make test compiles in the workspace (vet, allocs). The
// core's module has no dependency to share, and its tests take seconds
// plain but minutes with -race, so it is always checked plain; so is the
// command, installed as users install it.
//
// The go.work plays no part (GOWORK=off). The modules served here are exempt
// from the checksum database (GONOSUMDB), which does not know them yet; every
// other module is checked against it as usual.
//
// The go commands run with a module cache of their own, made afresh for each
// run: the user's module cache may hold a copy of a served module left by an
// earlier run, or by a concurrent one from another working tree, which the go
// command would use as it is since a version never changes; and the build
// cache indexes the files of a module in the module cache by its directory.
// Third-party modules still come from the user's module cache when it has
// them, read as a module proxy, and only otherwise from GOPROXY
// (proxy.golang.org by default); -trimpath lets the build cache serve their
// compiled packages again from one run to the next, whatever the directory.
//
// Run it from inside the repository:
//
//	go run ./internal/releasecheck [-keep] [-race] [-p n]
//
// With -serve (make release-serve) it only builds the proxy, keeps it, and
// prints the environment a tester sets to go get each module from it in a
// module of their own, outside the repository, with the go command's own
// module cache untouched:
//
//	go run ./internal/releasecheck -serve
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log"
	"os"
	"os/exec"
	"os/signal"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"time"
)

func main() {
	keep := flag.Bool("keep", false, "keep the proxy and the scratch modules, to rerun a failing command by hand")
	serveOnly := flag.Bool("serve", false, "only build the module proxy, keep it, and print how to go get each module from it")
	race := flag.Bool("race", false, "build, vet and test the integrations' modules with -race, to reuse what go test -race compiled")
	parallel := flag.Int("p", 1, "check up to `n` modules at once (their output is printed in order, each once done)")
	flag.Parse()
	log.SetFlags(0)
	log.SetPrefix("releasecheck: ")
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, *keep, *serveOnly, *race, max(*parallel, 1))
	stop()
	if err != nil {
		log.Fatal(err)
	}
}

// A target is a module checked from a user's module.
type target struct {
	name     string // "core", or the integration's path below the core, such as "mcpgo"
	mod      module
	testdata string // the user's code for it, testdata/<name>
	command  bool   // its root package is a main package, which users install
}

func run(ctx context.Context, keep, serveOnly, race bool, parallel int) error {
	start := time.Now()
	env, err := goEnv(ctx)
	if err != nil {
		return err
	}
	if env.GOWORK == "" || env.GOWORK == "off" {
		return errors.New("no go.work: run it from inside the repository, with GOWORK unset")
	}
	root := filepath.Dir(env.GOWORK)
	targets, err := plan(ctx, root, env.GOWORK)
	if err != nil {
		return err
	}
	files, err := gitFiles(ctx, root)
	if err != nil {
		return err
	}

	tmp, err := os.MkdirTemp("", "coerce-releasecheck-")
	if err != nil {
		return err
	}
	defer func() {
		if serveOnly {
			return // serveInstructions says where it is
		}
		if keep {
			fmt.Printf("kept %s\n", tmp)
			return
		}
		if err := os.RemoveAll(tmp); err != nil {
			log.Print(err)
		}
	}()

	// The proxy serves every module, whether or not it has testdata: an
	// integration may need another.
	proxy := filepath.Join(tmp, "proxy")
	for _, t := range targets {
		rel, err := filepath.Rel(root, t.mod.Dir)
		if err != nil {
			return err
		}
		mfiles, err := moduleFiles(t.mod.Dir, below(files, filepath.ToSlash(rel)))
		if err != nil {
			return fmt.Errorf("%s: %v", t.mod.Path, err)
		}
		sum, err := writeModule(proxy, t.mod, mfiles)
		if err != nil {
			return err
		}
		// The sum is the one the checksum database will record if the tag
		// holds the same files.
		fmt.Printf("serve %s@%s %s (%d files)\n", t.mod.Path, t.mod.Version, sum, len(mfiles))
	}

	c := &checker{env: userEnv(tmp, env, targets[0].mod.Path), race: race}
	if serveOnly {
		fmt.Print(serveInstructions(tmp, c.env, targets))
		return nil
	}
	for _, t := range targets {
		c.width = max(c.width, len(t.name))
	}
	if keep {
		var quoted []string
		for _, kv := range c.env {
			k, v, _ := strings.Cut(kv, "=")
			quoted = append(quoted, k+"='"+v+"'")
		}
		defer fmt.Printf("to run a go command in a scratch module: cd %s/<name> && env %s go ...\n", tmp, strings.Join(quoted, " "))
	}
	// Up to parallel targets are checked at once, in order, each into a
	// buffer of its own; the buffers are printed in order, each once its
	// target is done. A machine with more cores than one go command keeps
	// busy (a link, a test that waits, a module's last package compiling
	// alone) checks the next module meanwhile.
	type outcome struct {
		out     bytes.Buffer
		err     error
		skipped bool
		done    chan struct{}
	}
	outcomes := make([]*outcome, len(targets))
	for i := range outcomes {
		outcomes[i] = &outcome{done: make(chan struct{})}
	}
	go func() {
		slots := make(chan struct{}, parallel)
		for i, t := range targets {
			o := outcomes[i]
			if _, err := os.Stat(t.testdata); err != nil {
				rel, _ := filepath.Rel(root, t.testdata)
				fmt.Fprintf(&o.out, "skip  %s: no %s (a user's main_test.go for %s)\n", t.name, filepath.ToSlash(rel)+"/", t.mod.Path)
				o.skipped = true
				close(o.done)
				continue
			}
			slots <- struct{}{}
			if ctx.Err() != nil {
				o.err = ctx.Err()
				<-slots
				close(o.done)
				continue
			}
			check := c.check
			if t.command {
				check = c.install
			}
			go func() {
				defer func() { <-slots; close(o.done) }()
				o.err = check(ctx, t, filepath.Join(tmp, t.name), &o.out)
			}()
		}
	}()
	var failed, skipped []string
	for i, t := range targets {
		o := outcomes[i]
		<-o.done
		os.Stdout.Write(o.out.Bytes())
		switch {
		case o.skipped:
			skipped = append(skipped, t.name)
		case o.err != nil:
			fmt.Printf("FAIL  %s: %v\n", t.name, o.err)
			failed = append(failed, t.name)
		}
	}
	if len(failed) > 0 {
		hint := ""
		if !keep {
			hint = " (run with -keep to keep the scratch modules)"
		}
		return fmt.Errorf("failed: %s%s", strings.Join(failed, ", "), hint)
	}
	fmt.Printf("release check passed in %.0fs", time.Since(start).Seconds())
	if len(skipped) > 0 {
		fmt.Printf(" (skipped for want of testdata: %s)", strings.Join(skipped, ", "))
	}
	fmt.Println()
	return nil
}

// userEnv returns the settings of the go commands run against the proxy in
// dir/proxy for the modules below core, given the machine's.
func userEnv(dir string, env goEnvironment, core string) []string {
	goproxy := fileURL(filepath.Join(dir, "proxy"))
	if env.GOMODCACHE != "" {
		goproxy += "," + fileURL(filepath.Join(env.GOMODCACHE, "cache", "download"))
	}
	if env.GOPROXY != "" {
		goproxy += "," + env.GOPROXY
	}
	flags := strings.Fields(env.GOFLAGS)
	for _, f := range []string{"-mod=mod", "-modcacherw", "-trimpath"} {
		if !slices.Contains(flags, f) {
			flags = append(flags, f)
		}
	}
	return []string{
		"GOWORK=off",
		"GOMODCACHE=" + filepath.Join(dir, "modcache"),
		"GOFLAGS=" + strings.Join(flags, " "),
		"GOPROXY=" + goproxy,
		"GONOSUMDB=" + strings.Trim(core+","+env.GONOSUMDB, ","),
	}
}

// serveInstructions tells a tester how to go get the modules served from
// dir/proxy: the environment of the check (env: its own module cache in
// dir, the proxy before the machine's module cache and GOPROXY, the served
// modules exempt from the checksum database, no workspace) as one line to
// paste into a shell, and a go get per module, or a go install for a
// command. The line's GOFLAGS has no -mod flag, which go install with a
// version refuses; go get needs none.
func serveInstructions(dir string, env []string, targets []target) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\nThe module proxy is in %s/proxy; its module cache, for the commands below, in %s/modcache.\n", dir, dir)
	b.WriteString("In a module of your own, outside this repository, set in the shell:\n\n\texport")
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		if k == "GOFLAGS" {
			v = strings.Join(slices.DeleteFunc(strings.Fields(v), func(f string) bool { return strings.HasPrefix(f, "-mod=") }), " ")
		}
		b.WriteString(" " + k + "=" + shellQuote(v))
	}
	b.WriteString("\n\nand go get any of the modules (go install the commands):\n\n")
	for _, t := range targets {
		verb := "get"
		if t.command {
			verb = "install"
		}
		fmt.Fprintf(&b, "\tgo %s %s@%s\n", verb, t.mod.Path, t.mod.Version)
	}
	fmt.Fprintf(&b, "\nThe proxy holds the working tree as it is now; run make release-serve again after a change\n"+
		"(a version never changes in a module cache, so a new run uses a new directory).\n"+
		"Remove it when done: rm -rf %s\n", shellQuote(dir))
	return b.String()
}

// shellQuote quotes s for a POSIX shell when it holds anything but letters,
// digits and the punctuation of paths and URLs.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/:.,_-+=@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// goEnvironment holds what the check reads of the go command's settings.
type goEnvironment struct {
	GOWORK, GOMODCACHE, GOFLAGS, GOPROXY, GONOSUMDB string
}

func goEnv(ctx context.Context) (goEnvironment, error) {
	var e goEnvironment
	out, err := exec.CommandContext(ctx, "go", "env", "-json", "GOWORK", "GOMODCACHE", "GOFLAGS", "GOPROXY", "GONOSUMDB").Output()
	if err != nil {
		return e, fmt.Errorf("go env: %v", err)
	}
	return e, json.Unmarshal(out, &e)
}

// plan returns the core and the integrations, from the modules go.work
// lists and those of the workspaces of their own beside it (genkit/go.work:
// see the root go.work), each once.
func plan(ctx context.Context, root, gowork string) ([]target, error) {
	var work struct{ Use []struct{ DiskPath string } }
	if err := goJSON(ctx, &work, "work", "edit", "-json", gowork); err != nil {
		return nil, err
	}
	others, _ := filepath.Glob(filepath.Join(root, "*", "go.work"))
	for _, w := range others {
		var more struct{ Use []struct{ DiskPath string } }
		if err := goJSON(ctx, &more, "work", "edit", "-json", w); err != nil {
			return nil, err
		}
		for _, u := range more.Use {
			dir := u.DiskPath
			if !filepath.IsAbs(dir) {
				dir = filepath.Join(filepath.Dir(w), dir)
			}
			rel, err := filepath.Rel(root, dir)
			if err != nil {
				return nil, err
			}
			if !slices.ContainsFunc(work.Use, func(v struct{ DiskPath string }) bool {
				return filepath.Clean(filepath.Join(root, v.DiskPath)) == filepath.Clean(dir)
			}) {
				work.Use = append(work.Use, struct{ DiskPath string }{"./" + filepath.ToSlash(rel)})
			}
		}
	}
	type goMod struct {
		Module  struct{ Path string }
		Require []struct{ Path, Version string }
		Replace []any
	}
	var core *target
	var integrations []target
	mods := make(map[string]goMod)
	for _, u := range work.Use {
		dir := u.DiskPath
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(root, dir)
		}
		var gm goMod
		if err := goJSON(ctx, &gm, "mod", "edit", "-json", filepath.Join(dir, "go.mod")); err != nil {
			return nil, err
		}
		rel := filepath.ToSlash(u.DiskPath)
		switch {
		case dir == root:
			core = &target{name: "core", mod: module{Path: gm.Module.Path, Dir: dir}}
		case strings.HasPrefix(path.Clean(rel)+"/", "examples/"):
			// Demos, never published as modules of their own.
		case strings.HasPrefix(path.Clean(rel)+"/", "internal/"):
			// The repository's own tooling (doccheck), never published.
		default:
			integrations = append(integrations, target{mod: module{Path: gm.Module.Path, Dir: dir}})
			mods[gm.Module.Path] = gm
		}
	}
	if core == nil {
		return nil, fmt.Errorf("%s does not use the module at %s", gowork, root)
	}
	if len(integrations) == 0 {
		return nil, fmt.Errorf("%s lists no integration, so nothing says which version of the core to check", gowork)
	}

	// The core is served at the version the integrations require; they are
	// tagged with it.
	slices.SortFunc(integrations, func(a, b target) int { return strings.Compare(a.mod.Path, b.mod.Path) })
	// A release or pre-release version, not a pseudo-version: a user's
	// go get must find it tagged.
	release := regexp.MustCompile(`^v[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$`)
	pseudo := regexp.MustCompile(`[0-9]{14}-[0-9a-f]{12}$`)
	for i := range integrations {
		t := &integrations[i]
		gm := mods[t.mod.Path]
		name, ok := strings.CutPrefix(t.mod.Path, core.mod.Path+"/")
		if !ok {
			return nil, fmt.Errorf("%s: module %s is not below %s", t.mod.Dir, t.mod.Path, core.mod.Path)
		}
		if len(gm.Replace) > 0 {
			return nil, fmt.Errorf("%s: go.mod has replace directives, which users' builds ignore; go.work serves the core during development", t.mod.Path)
		}
		j := slices.IndexFunc(gm.Require, func(r struct{ Path, Version string }) bool { return r.Path == core.mod.Path })
		if j < 0 {
			return nil, fmt.Errorf("%s: go.mod does not require %s", t.mod.Path, core.mod.Path)
		}
		v := gm.Require[j].Version
		if !release.MatchString(v) || pseudo.MatchString(v) || v == "v0.0.0" {
			return nil, fmt.Errorf("%s: requires %s %s, which is not a release version", t.mod.Path, core.mod.Path, v)
		}
		if core.mod.Version != "" && v != core.mod.Version {
			return nil, fmt.Errorf("%s requires %s %s, but another integration requires %s", t.mod.Path, core.mod.Path, v, core.mod.Version)
		}
		core.mod.Version = v
		t.name = name
		isCmd, err := isCommand(t.mod.Dir)
		if err != nil {
			return nil, err
		}
		t.command = isCmd
	}
	targets := append([]target{*core}, integrations...)
	for i := range targets {
		targets[i].mod.Version = core.mod.Version
		targets[i].testdata = filepath.Join(root, "internal", "releasecheck", "testdata", filepath.FromSlash(targets[i].name))
	}
	return targets, nil
}

// isCommand reports whether the package at the root of a module's
// directory is a main package.
func isCommand(dir string) (bool, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return false, err
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			return false, err
		}
		pkg := regexp.MustCompile(`(?m)^package\s+(\w+)`).FindSubmatch(data)
		return pkg != nil && string(pkg[1]) == "main", nil
	}
	return false, nil
}

func goJSON(ctx context.Context, v any, args ...string) error {
	out, err := exec.CommandContext(ctx, "go", args...).Output()
	if err != nil {
		return fmt.Errorf("go %s: %v", strings.Join(args, " "), stderr(err))
	}
	return json.Unmarshal(out, v)
}

// gitFiles returns the files of the working tree that a commit would hold:
// tracked, and untracked but not ignored, relative to root.
func gitFiles(ctx context.Context, root string) ([]string, error) {
	cmd := exec.CommandContext(ctx, "git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git ls-files: %v", stderr(err))
	}
	if len(out) == 0 {
		return nil, nil
	}
	files := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	slices.Sort(files)
	return slices.Compact(files), nil // a file with a merge conflict is listed once per stage
}

// below returns the files below dir (slash-separated, "." for all),
// relative to it.
func below(files []string, dir string) []string {
	if dir == "." {
		return files
	}
	var out []string
	for _, f := range files {
		if rest, ok := strings.CutPrefix(f, dir+"/"); ok {
			out = append(out, rest)
		}
	}
	return out
}

func stderr(err error) error {
	if ee, ok := err.(*exec.ExitError); ok && len(ee.Stderr) > 0 {
		return fmt.Errorf("%v\n%s", err, bytes.TrimSpace(ee.Stderr))
	}
	return err
}

// A checker runs the go commands of a user's module.
type checker struct {
	env   []string // added to the environment
	race  bool     // build, vet and test the integrations with -race
	width int      // of the names printed
}

// check makes the user's module for t in dir and runs a user's commands in
// it, printing a line for each that passes.
func (c *checker) check(ctx context.Context, t target, dir string, w io.Writer) error {
	if err := copyDir(dir, t.testdata); err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
		if err := c.run(ctx, t, dir, w, "mod", "init", "example.com/user/"+path.Base(t.name)); err != nil {
			return err
		}
	}
	// -race for an integration: see the package comment.
	var race []string
	if c.race && t.name != "core" {
		race = []string{"-race"}
	}
	for _, args := range [][]string{{"get", t.mod.Path + "@" + t.mod.Version}, {"mod", "tidy"}} {
		if err := c.run(ctx, t, dir, w, args...); err != nil {
			return err
		}
	}
	if t.name != "core" {
		if err := c.sameVersions(ctx, t, dir, w); err != nil {
			return err
		}
	}
	steps := [][]string{
		slices.Concat([]string{"build"}, race, []string{"./..."}),
		slices.Concat([]string{"vet"}, race, []string{"./..."}),
		slices.Concat([]string{"test"}, race, []string{"./..."}),
		slices.Concat([]string{"test"}, race, []string{t.mod.Path + "/..."}),
	}
	if !hasNonTestGo(dir) {
		steps = slices.DeleteFunc(steps, func(s []string) bool { return s[0] == "build" }) // "no packages to build"
	}
	for _, args := range steps {
		if err := c.run(ctx, t, dir, w, args...); err != nil {
			return err
		}
	}
	return nil
}

// sameVersions checks that a user's build of t, in dir, selects the
// versions of its dependencies the workspace tests t with: those of the
// modules whose packages t's packages and their tests build. A module of
// ours requires what we test it with, so a user gets that; and the build
// cache then serves here the packages make test's vet and race steps
// compiled, where a version apart (a module's go.mod lagging behind what
// another module of the workspace requires) had this check compile the
// dependency, and each one that imports it, again: anthropic-sdk-go with
// -race, for an older gjson, took 160s of a fresh machine's make test.
func (c *checker) sameVersions(ctx context.Context, t target, dir string, w io.Writer) error {
	list := func(dir string, env []string, pattern string) (map[string]string, error) {
		// -buildvcs=false: go list stamps a main package (a test's among
		// them) with its module's version from git, and in the workspace
		// looking up that pseudo-version writes it into the machine's
		// module cache, which must hold none of ours (make test's
		// no-trace); a GOFLAGS in the environment replaces the
		// -buildvcs=false of a go env file.
		cmd := exec.CommandContext(ctx, "go", "list", "-buildvcs=false", "-deps", "-test", "-f", "{{with .Module}}{{.Path}} {{.Version}}{{end}}", pattern)
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.Output()
		if err != nil {
			return nil, fmt.Errorf("go list -deps -test %s (in %s): %v", pattern, dir, stderr(err))
		}
		versions := make(map[string]string)
		for line := range strings.Lines(string(out)) {
			if p, v, ok := strings.Cut(strings.TrimSpace(line), " "); ok && v != "" {
				versions[p] = v
			}
		}
		return versions, nil
	}
	start := time.Now()
	tested, err := list(t.mod.Dir, os.Environ(), "./...") // in its workspace
	if err != nil {
		return err
	}
	got, err := list(dir, append(os.Environ(), c.env...), t.mod.Path+"/...")
	if err != nil {
		return err
	}
	var apart []string
	for p, v := range got {
		if want, ok := tested[p]; ok && want != v {
			apart = append(apart, fmt.Sprintf("%s %s (tested with %s)", p, v, want))
		}
	}
	if len(apart) > 0 {
		slices.Sort(apart)
		return fmt.Errorf("a user's build of %s selects versions the workspace does not test it with:\n\t%s\nrequire the tested ones in %s/go.mod",
			t.mod.Path, strings.Join(apart, "\n\t"), t.name)
	}
	fmt.Fprintf(w, "ok    %-*s  the versions of the %d modules it builds are those tested (%.1fs)\n", c.width, t.name, len(got), time.Since(start).Seconds())
	return nil
}

// install installs a command as a user does, with go install at its
// version, into dir/bin, and runs it once as testdata/<name>/run.json says.
func (c *checker) install(ctx context.Context, t target, dir string, w io.Writer) error {
	var spec struct {
		Args   []string // the command's arguments
		Stdout string   // what it must print
	}
	data, err := os.ReadFile(filepath.Join(t.testdata, "run.json"))
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, &spec); err != nil {
		return fmt.Errorf("%s/run.json: %v", t.testdata, err)
	}
	bin := filepath.Join(dir, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		return err
	}
	// A go install with a version builds outside any module: -mod has no
	// meaning there and is refused.
	env := append(os.Environ(), c.env...)
	for i, kv := range env {
		if v, ok := strings.CutPrefix(kv, "GOFLAGS="); ok {
			env[i] = "GOFLAGS=" + strings.Join(slices.DeleteFunc(strings.Fields(v), func(f string) bool { return strings.HasPrefix(f, "-mod=") }), " ")
		}
	}
	start := time.Now()
	cmd := exec.CommandContext(ctx, "go", "install", t.mod.Path+"@"+t.mod.Version)
	cmd.Dir = dir
	cmd.Env = append(env, "GOBIN="+bin)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go install %s@%s: %v\n%s", t.mod.Path, t.mod.Version, err, indent(out))
	}
	fmt.Fprintf(w, "ok    %-*s  go install %s@%s (%.1fs)\n", c.width, t.name, t.mod.Path, t.mod.Version, time.Since(start).Seconds())

	name := path.Base(t.mod.Path)
	run := exec.CommandContext(ctx, filepath.Join(bin, name), spec.Args...)
	run.Dir = dir
	var stderr bytes.Buffer
	run.Stderr = &stderr
	out, err := run.Output()
	if err != nil {
		return fmt.Errorf("%s %s: %v\n%s", name, strings.Join(spec.Args, " "), err, indent(stderr.Bytes()))
	}
	if string(out) != spec.Stdout {
		return fmt.Errorf("%s %s printed %q, want %q", name, strings.Join(spec.Args, " "), out, spec.Stdout)
	}
	fmt.Fprintf(w, "ok    %-*s  %s %s\n", c.width, t.name, name, strings.Join(spec.Args, " "))
	return nil
}

func (c *checker) run(ctx context.Context, t target, dir string, w io.Writer, args ...string) error {
	start := time.Now()
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), c.env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("go %s (in %s): %v\n%s", strings.Join(args, " "), dir, err, indent(out))
	}
	fmt.Fprintf(w, "ok    %-*s  go %s (%.1fs)\n", c.width, t.name, strings.Join(args, " "), time.Since(start).Seconds())
	return nil
}

func indent(b []byte) string {
	return "\t" + strings.ReplaceAll(strings.TrimSpace(string(b)), "\n", "\n\t")
}

// copyDir copies the regular files below src into dst.
func copyDir(dst, src string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
}

// hasNonTestGo reports whether dir holds a Go file other than a test, which
// go build needs to have anything to build.
func hasNonTestGo(dir string) bool {
	found := false
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") {
			found = true
			return filepath.SkipAll
		}
		return nil
	})
	return found
}

func fileURL(p string) string {
	u := "file://" + filepath.ToSlash(p)
	if !strings.HasPrefix(u, "file:///") { // a Windows path, C:/...
		u = "file:///" + strings.TrimPrefix(u, "file://")
	}
	return u
}
