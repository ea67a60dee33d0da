// Package doccheck type-checks the Go code blocks of the repository's
// Markdown files, so that a snippet in a README can no longer drift from the
// API it shows: `go test ./internal/doccheck` fails when one stops compiling.
//
// It is a module of its own, never published, because the READMEs show every
// integration and so need every framework: the core must not depend on them.
//
// A block is checked when its fence's info string is exactly "go". One whose
// info string is "go no-check" is skipped; the README must say why beside it
// (code for a library this machine cannot fetch, say). A checked block is
//   - a whole file, if it starts with a package clause;
//   - package-level declarations, if it parses as such (after its own import
//     declarations, if any);
//   - otherwise statements, checked as the body of a function without
//     results.
//
// Each block is checked as a package of its own, together with a prelude the
// test gives for its file: the variables a reader is meant to have at hand
// (a server, a tool, a context), declared with their real types. The imports
// the test lists are added to every block, and the errors that only say a
// fragment is a fragment are ignored: an import or a variable not used. ":="
// declaring nothing new is an error, unless the file's Env allows it: a block
// that declares err three times shows alternatives one under another, which
// a reader who pastes it cannot compile; a README shows them as such, in
// blocks of their own.
// Every other error, an undefined name, a wrong type or argument count,
// fails the test with the block's line in the Markdown file.
package doccheck

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/scanner"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
)

// A Block is one fenced Go code block of a Markdown file.
type Block struct {
	Line int    // line of the first line of code, counted from 1
	Info string // the fence's info string, "go" or "go no-check"
	Code string
}

// Blocks returns the fenced code blocks of md whose info string starts with
// the word "go".
func Blocks(md []byte) []Block {
	var blocks []Block
	var cur *Block
	var code strings.Builder
	for i, line := range strings.Split(string(md), "\n") {
		trimmed := strings.TrimSpace(line)
		if cur != nil {
			if trimmed == "```" {
				cur.Code = code.String()
				blocks = append(blocks, *cur)
				cur = nil
				continue
			}
			code.WriteString(line)
			code.WriteByte('\n')
			continue
		}
		if info, ok := strings.CutPrefix(trimmed, "```"); ok {
			info = strings.TrimSpace(info)
			if info == "go" || strings.HasPrefix(info, "go ") {
				cur = &Block{Line: i + 2, Info: info}
				code.Reset()
			}
		}
	}
	return blocks
}

// An Env is what the blocks of one Markdown file are checked with.
type Env struct {
	// Imports are the packages every block may use without importing
	// them: import paths, each with "name=" in front where the package
	// must be imported under another name.
	Imports []string
	// Prelude is Go source of package-level declarations (without package
	// clause or imports) that every block may refer to.
	Prelude string
	// Redeclare lets ":=" declare nothing new, for a file whose blocks
	// still show alternatives one under another.
	Redeclare bool
}

// A Checker type-checks blocks, with export data from the go command for
// the packages they import, built in its module.
type Checker struct {
	fset    *token.FileSet
	exports map[string]string // import path → export data file
	imp     types.Importer
}

// NewChecker builds (or finds in the build cache) the export data of paths
// and everything they import, from the module in the current directory.
func NewChecker(paths ...string) (*Checker, error) {
	args := []string{"list", "-export", "-deps", "-json=ImportPath,Export,Error"}
	for _, p := range paths {
		_, path, ok := strings.Cut(p, "=")
		if !ok {
			path = p
		}
		args = append(args, path)
	}
	cmd := exec.Command("go", args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list: %v\n%s", err, stderr.Bytes())
	}
	c := &Checker{fset: token.NewFileSet(), exports: make(map[string]string)}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p struct {
			ImportPath, Export string
			Error              *struct{ Err string }
		}
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			return nil, err
		}
		if p.Error != nil {
			return nil, fmt.Errorf("go list %s: %s", p.ImportPath, p.Error.Err)
		}
		c.exports[p.ImportPath] = p.Export
	}
	c.imp = importer.ForCompiler(c.fset, "gc", func(path string) (io.ReadCloser, error) {
		f, ok := c.exports[path]
		if !ok || f == "" {
			return nil, fmt.Errorf("no export data for %q: add it to the imports the test lists", path)
		}
		return os.Open(f)
	})
	return c, nil
}

// ignored reports whether a type error only says that a fragment is a
// fragment, or, with redeclare, that it declares nothing new with ":=".
func ignored(msg string, redeclare bool) bool {
	return strings.Contains(msg, "and not used") ||
		redeclare && strings.Contains(msg, "no new variables on left side of :=")
}

// Check type-checks block b of the file named name with env, and returns its
// errors, each with its line in that file.
func (c *Checker) Check(name string, b Block, env Env) []error {
	if b.Info != "go" {
		return nil
	}
	code := b.Code
	var src, head string
	lineShift := 0 // Markdown line of the source's line 1, minus 1
	switch {
	case strings.HasPrefix(strings.TrimSpace(code), "package "):
		src = code
		lineShift = b.Line - 1
	default:
		own, decls, rest := splitImports(code)
		code = rest
		head = "package snippet\n\n" + importDecl(env.Imports, own) + decls
		if _, err := parser.ParseFile(token.NewFileSet(), "", head+code, parser.SkipObjectResolution); err == nil {
			src = head + code
		} else {
			head += "func _() {\n"
			src = head + code + "}\n"
		}
		lineShift = b.Line - 1 - strings.Count(head, "\n")
	}

	var errs []error
	report := func(pos token.Position, msg string) {
		line := pos.Line + lineShift
		if pos.Filename != "snippet.go" {
			errs = append(errs, fmt.Errorf("%s:%d (prelude line %d): %s", name, b.Line, pos.Line, msg))
			return
		}
		errs = append(errs, fmt.Errorf("%s:%d: %s", name, line, msg))
	}
	files := []*ast.File{}
	f, err := parser.ParseFile(c.fset, "snippet.go", src, parser.SkipObjectResolution)
	if err != nil {
		var list scanner.ErrorList
		if errors.As(err, &list) {
			for _, e := range list {
				report(e.Pos, e.Msg)
			}
		} else {
			report(token.Position{Filename: "snippet.go"}, err.Error())
		}
		return errs
	}
	files = append(files, f)
	pkgName := f.Name.Name
	prelude := "package " + pkgName + "\n\n" + importDecl(env.Imports, nil) + env.Prelude
	pf, err := parser.ParseFile(c.fset, "prelude.go", prelude, parser.SkipObjectResolution)
	if err != nil {
		return []error{fmt.Errorf("%s: prelude: %v", name, err)}
	}
	if !strings.HasPrefix(strings.TrimSpace(code), "package ") {
		files = append(files, pf)
	}
	conf := types.Config{
		Importer: c.imp,
		Error: func(err error) {
			te := err.(types.Error)
			if !ignored(te.Msg, env.Redeclare) {
				report(c.fset.Position(te.Pos), te.Msg)
			}
		},
	}
	conf.Check("snippet", c.fset, files, nil)
	return errs
}

// splitImports separates the import declarations a block starts with from
// the rest: it returns their paths, their text, and the block with blank
// lines in their place, so that lines keep their numbers.
func splitImports(code string) (own map[string]bool, decls, rest string) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", "package p;"+code, parser.ImportsOnly)
	if err != nil || len(f.Decls) == 0 {
		return nil, "", code
	}
	end := fset.Position(f.Decls[len(f.Decls)-1].End()).Offset - len("package p;")
	own = make(map[string]bool)
	for _, s := range f.Imports {
		p, _ := strconv.Unquote(s.Path.Value)
		own[p] = true
	}
	decls = code[:end] + "\n"
	return own, decls, strings.Repeat("\n", strings.Count(code[:end], "\n")) + code[end:]
}

func importDecl(paths []string, except map[string]bool) string {
	var b strings.Builder
	b.WriteString("import (\n")
	for _, p := range paths {
		name, path, ok := strings.Cut(p, "=")
		if !ok {
			name, path = "", p
		}
		if !except[path] {
			b.WriteString("\t" + name + " " + strconv.Quote(path) + "\n")
		}
	}
	b.WriteString(")\n\n")
	return b.String()
}

// BlockImports returns the import paths a block declares itself.
func BlockImports(b Block) []string {
	code := b.Code
	if !strings.HasPrefix(strings.TrimSpace(code), "package ") {
		code = "package p\n" + code
	}
	f, err := parser.ParseFile(token.NewFileSet(), "", code, parser.ImportsOnly)
	if err != nil {
		return nil
	}
	var paths []string
	for _, s := range f.Imports {
		p, _ := strconv.Unquote(s.Path.Value)
		paths = append(paths, p)
	}
	return paths
}
