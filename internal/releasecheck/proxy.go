package main

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"go/version"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// The limits the go command enforces when it extracts a module zip: a module
// over them cannot be downloaded at all.
const (
	maxZipFile = 500 << 20 // the zip, and the files in it uncompressed
	maxGoMod   = 16 << 20
	maxLicense = 16 << 20
)

// A module is one module of the repository as a release would publish it.
type module struct {
	Path    string // module path, such as github.com/coerce-go/coerce/mcpgo
	Dir     string // its directory on disk
	Version string // the version it is served at, such as v0.1.0
}

// moduleFiles returns the paths, relative to dir and slash-separated, of the
// files a zip of the module in dir holds. files lists the candidates, relative
// to dir (the working tree's files, without what git ignores). It applies the
// go command's rules for module zips: files of nested modules (directories
// with their own go.mod) and of vendored packages are left out, and so are
// symbolic links and other irregular files; a path the go command would
// reject, a case-insensitive collision or a size over its limits is an error.
// Files listed but missing on disk (deleted, not yet committed) are skipped.
func moduleFiles(dir string, files []string) ([]string, error) {
	nested := make(map[string]bool) // "a/b/" for a/b/go.mod
	goVersion := ""
	for _, f := range files {
		d, base := path.Split(f)
		if !strings.EqualFold(base, "go.mod") {
			continue
		}
		if info, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(f))); err != nil || !info.Mode().IsRegular() {
			continue
		}
		if d != "" {
			nested[d] = true
		} else if data, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil {
			goVersion = goDirective(data)
		}
	}
	inNested := func(f string) bool {
		for d := path.Dir(f); d != "."; d = path.Dir(d) {
			if nested[d+"/"] {
				return true
			}
		}
		return false
	}

	var kept []string
	var total int64
	seen := make(map[string]string) // lower-cased path of each file and directory kept
	for _, f := range files {
		if f != path.Clean(f) || path.IsAbs(f) {
			return nil, fmt.Errorf("%s: path is not clean and relative", f)
		}
		if isVendored(f, goVersion) || inNested(f) || f == ".hg_archival.txt" {
			continue
		}
		if err := checkFilePath(f); err != nil {
			return nil, fmt.Errorf("%s: %v", f, err)
		}
		if strings.ToLower(f) == "go.mod" && f != "go.mod" {
			return nil, fmt.Errorf("%s: go.mod must be spelled in lower case", f)
		}
		info, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(f)))
		if errors.Is(err, os.ErrNotExist) {
			continue
		} else if err != nil {
			return nil, err
		}
		if !info.Mode().IsRegular() {
			continue
		}
		if err := checkCollision(seen, f); err != nil {
			return nil, err
		}
		total += info.Size()
		switch {
		case total > maxZipFile:
			return nil, fmt.Errorf("module too large: over %d bytes uncompressed", maxZipFile)
		case f == "go.mod" && info.Size() > maxGoMod:
			return nil, fmt.Errorf("go.mod too large: over %d bytes", maxGoMod)
		case f == "LICENSE" && info.Size() > maxLicense:
			return nil, fmt.Errorf("LICENSE too large: over %d bytes", maxLicense)
		}
		kept = append(kept, f)
	}
	slices.Sort(kept)
	return kept, nil
}

// goDirective returns the go version a go.mod declares, as "go1.24", or "".
func goDirective(gomod []byte) string {
	for line := range strings.Lines(string(gomod)) {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "go" {
			return "go" + f[1]
		}
	}
	return ""
}

// isVendored reports whether f belongs to a vendored package, which module
// zips leave out. The rule changed with go1.24, so it depends on the go
// version of the module.
func isVendored(f, goVersion string) bool {
	since124 := version.Compare(goVersion, "go1.24") >= 0
	if since124 && f == "vendor/modules.txt" {
		return true
	}
	var i int
	if strings.HasPrefix(f, "vendor/") {
		i = len("vendor/")
	} else if j := strings.Index(f, "/vendor/"); j >= 0 {
		i = len("/vendor/")
		if since124 {
			i += j
		}
	} else {
		return false
	}
	return strings.Contains(f[i:], "/")
}

// checkFilePath applies the go command's rules for file paths in a module:
// valid UTF-8, no empty or all-dots elements, no trailing dots, letters,
// digits, spaces and only some punctuation, and no names Windows reserves.
func checkFilePath(f string) error {
	if !utf8.ValidString(f) {
		return errors.New("invalid UTF-8")
	}
	for elem := range strings.SplitSeq(f, "/") {
		if elem == "" || strings.Count(elem, ".") == len(elem) || strings.HasSuffix(elem, ".") {
			return fmt.Errorf("invalid path element %q", elem)
		}
		for _, r := range elem {
			ok := unicode.IsLetter(r)
			if r < utf8.RuneSelf {
				ok = '0' <= r && r <= '9' || 'A' <= r && r <= 'Z' || 'a' <= r && r <= 'z' ||
					strings.ContainsRune("!#$%&()+,-.=@[]^_{}~ ", r)
			}
			if !ok {
				return fmt.Errorf("invalid character %q", r)
			}
		}
		short, _, _ := strings.Cut(elem, ".")
		for _, bad := range windowsReserved {
			if strings.EqualFold(short, bad) {
				return fmt.Errorf("%q is reserved on Windows", short)
			}
		}
	}
	return nil
}

var windowsReserved = []string{
	"CON", "PRN", "AUX", "NUL",
	"COM1", "COM2", "COM3", "COM4", "COM5", "COM6", "COM7", "COM8", "COM9",
	"LPT1", "LPT2", "LPT3", "LPT4", "LPT5", "LPT6", "LPT7", "LPT8", "LPT9",
}

// checkCollision records f and its parent directories in seen, which maps a
// lower-cased path to the path recorded (with a trailing slash for a
// directory), and reports a path that differs from one already recorded only
// in case: such a module cannot be extracted on macOS or Windows.
func checkCollision(seen map[string]string, f string) error {
	for p, suffix := f, ""; p != "."; p, suffix = path.Dir(p), "/" {
		key, this := strings.ToLower(p), p+suffix
		if prev, ok := seen[key]; ok {
			if prev == this && suffix == "/" {
				return nil // so are its parents
			}
			return fmt.Errorf("%s collides with %s when case is ignored", this, prev)
		}
		seen[key] = this
	}
	return nil
}

// writeModule adds m to the file-system module proxy at dir, in the layout
// of the GOPROXY protocol, from the files listed (relative to m.Dir, as
// moduleFiles returns them), and returns the hash of its zip that go.sum
// files will hold.
func writeModule(dir string, m module, files []string) (string, error) {
	esc, err := escapePath(m.Path)
	if err != nil {
		return "", err
	}
	vdir := filepath.Join(dir, filepath.FromSlash(esc), "@v")
	if err := os.MkdirAll(vdir, 0o755); err != nil {
		return "", err
	}
	gomod, err := os.ReadFile(filepath.Join(m.Dir, "go.mod"))
	if err != nil {
		return "", err
	}

	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	hashes := make([]string, 0, len(files)) // "sha256  name", as the h1 hash lists them
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(m.Dir, filepath.FromSlash(f)))
		if err != nil {
			return "", err
		}
		name := m.Path + "@" + m.Version + "/" + f
		w, err := zw.Create(name)
		if err != nil {
			return "", err
		}
		if _, err := w.Write(data); err != nil {
			return "", err
		}
		hashes = append(hashes, fmt.Sprintf("%x  %s\n", sha256.Sum256(data), name))
	}
	if err := zw.Close(); err != nil {
		return "", err
	}
	if buf.Len() > maxZipFile {
		return "", fmt.Errorf("%s: zip too large: over %d bytes", m.Path, maxZipFile)
	}

	info, err := json.Marshal(struct {
		Version string
		Time    time.Time
	}{m.Version, time.Now().UTC().Truncate(time.Second)})
	if err != nil {
		return "", err
	}
	for name, data := range map[string][]byte{
		"list":              []byte(m.Version + "\n"),
		m.Version + ".info": info,
		m.Version + ".mod":  gomod,
		m.Version + ".zip":  buf.Bytes(),
	} {
		if err := os.WriteFile(filepath.Join(vdir, name), data, 0o644); err != nil {
			return "", err
		}
	}
	return hash1(hashes), nil
}

// hash1 is the go command's h1 hash of a file tree, given one
// "sha256-in-hex  name\n" line per file.
func hash1(lines []string) string {
	slices.SortFunc(lines, func(a, b string) int {
		return strings.Compare(a[strings.Index(a, "  ")+2:], b[strings.Index(b, "  ")+2:])
	})
	h := sha256.New()
	for _, l := range lines {
		io.WriteString(h, l)
	}
	return "h1:" + base64.StdEncoding.EncodeToString(h.Sum(nil))
}

// escapePath escapes a module path as the module cache and proxies spell it
// on disk: each upper-case letter becomes "!" and its lower case.
func escapePath(p string) (string, error) {
	var b strings.Builder
	for _, r := range p {
		switch {
		case r == '!' || r >= utf8.RuneSelf:
			return "", fmt.Errorf("module path %q: invalid character %q", p, r)
		case 'A' <= r && r <= 'Z':
			b.WriteByte('!')
			b.WriteRune(unicode.ToLower(r))
		default:
			b.WriteRune(r)
		}
	}
	return b.String(), nil
}
