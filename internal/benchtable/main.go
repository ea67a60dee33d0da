// Command benchtable runs the benchmarks behind BENCHMARKS.md's performance
// tables and prints those tables, as `make bench` does.
//
//	go run ./internal/benchtable [-rounds 8] [-benchtime 100ms] [-raw bench.txt]
//	go run ./internal/benchtable -from bench.txt
//
// With -from it runs nothing and prints the tables of a run saved with -raw.
//
// These machines are shared and noisy, so the implementations compared in a
// row are measured alike: in the same process (each row's benchmarks come
// from one test binary, on the same bytes), and in alternation. Every round
// runs each benchmark once, each implementation right after the others, and
// the rounds repeat; a row's figure is the median over the rounds, and its
// ratio is the median of the ratios measured round by round, with their
// range, so that a burst of load spoils one round, not a row. The tables'
// preamble notes the machine and its load average at the start and end of
// the run (and its highest at the start of a round), read from
// /proc/loadavg; the raw output saved with -raw ends with that line.
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
)

// A bin is a test binary and the benchmarks run from it.
type bin struct {
	name, dir string
	benches   []string // top-level benchmark names, without "Benchmark"
}

// The rows that set coerce beside encoding/json and the fast libraries
// (typed decode, parsing, encoding, pass-through and repair) come from
// examples/compare, the module that may depend on them; the root's
// BenchmarkParse, BenchmarkToString and BenchmarkUnmarshal measure the same
// against encoding/json alone, for bench-base, and are not run here.
var bins = []bin{
	{"root", ".", []string{"NotJSON", "SchemaCoerce", "SchemaCoerceJSON", "ParseFloor", "ChangeReport", "CallCheck", "Depth", "EncodeSize", "Hostile"}},
	{"compare", "examples/compare", []string{"PassThrough", "RepairArgsJSON", "RepairArgs", "Unmarshal", "ParseAny", "Encode", "Stream"}},
	{"proxy", "cmd/coerce", []string{"ToolsCall", "ProxyMessage"}},
}

// A measurement of one benchmark in one round.
type sample struct {
	ns, bytes, allocs float64
	out               float64 // bytes of output, where a benchmark reports them (out-B/op)
	parsed            float64 // bytes parsed, where a benchmark reports them (parsed-B/op)
}

func main() {
	rounds := flag.Int("rounds", 8, "rounds of every benchmark, alternating")
	benchtime := flag.String("benchtime", "100ms", "-test.benchtime of each run")
	raw := flag.String("raw", "", "also write the benchmark output to this file")
	from := flag.String("from", "", "print the tables of the output saved in this file, running nothing")
	flag.Parse()
	var err error
	if *from != "" {
		err = reprint(*from, os.Stdout)
	} else {
		err = run(*rounds, *benchtime, *raw, os.Stdout)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchtable:", err)
		os.Exit(1)
	}
}

func run(rounds int, benchtime, rawPath string, out io.Writer) error {
	tmp, err := os.MkdirTemp("", "benchtable")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	for _, b := range bins {
		fmt.Fprintf(os.Stderr, "building %s benchmarks\n", b.name)
		cmd := exec.Command("go", "test", "-c", "-o", filepath.Join(tmp, b.name+".test"), ".")
		cmd.Dir, cmd.Stderr = b.dir, os.Stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("building %s: %v", b.name, err)
		}
	}
	var rawOut bytes.Buffer
	results := map[string][]sample{} // by benchmark name, one sample a round
	var load []string                // the load average at the start of each round, and at the end
	for r := 1; r <= rounds; r++ {
		load = append(load, loadAverage())
		fmt.Fprintf(os.Stderr, "round %d of %d, load average %s\n", r, rounds, load[len(load)-1])
		for _, b := range bins {
			pattern := "^Benchmark(" + strings.Join(b.benches, "|") + ")$"
			abs, _ := filepath.Abs(filepath.Join(tmp, b.name+".test"))
			cmd := exec.Command(abs, "-test.run", "^$", "-test.bench", pattern, "-test.benchmem",
				"-test.benchtime", benchtime, "-test.count", "1")
			cmd.Dir, cmd.Stderr = b.dir, os.Stderr
			text, err := cmd.Output()
			if err != nil {
				return fmt.Errorf("running %s benchmarks: %v", b.name, err)
			}
			rawOut.Write(text)
			for name, s := range parse(text) {
				results[b.name+":"+name] = append(results[b.name+":"+name], s)
			}
		}
	}
	load = append(load, loadAverage())
	machine := machineLine(rawOut.Bytes(), load)
	if rawPath != "" {
		// Last, after every binary's output, so that reprint's chunks stay
		// in the order of bins. benchstat ignores the line.
		fmt.Fprintf(&rawOut, "\n%s\n", machine)
		if err := os.WriteFile(rawPath, rawOut.Bytes(), 0o644); err != nil {
			return err
		}
	}
	t := tables{results: results, rounds: rounds, machine: machine}
	t.print(out)
	return t.missing()
}

// loadAverage is the one-minute load average, from /proc/loadavg.
func loadAverage() string {
	text, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(text)); err == nil && len(f) > 0 {
		return f[0]
	}
	return "?"
}

// machinePrefix begins the line that notes the machine and its load.
const machinePrefix = "Load average "

// machineLine notes the load averages of a run (read before each round,
// then at the end): the first, the last and the highest; the CPUs; and the
// Go version, platform and CPU model (the cpu line of the benchmark output).
func machineLine(output []byte, load []string) string {
	most := load[0]
	for _, l := range load {
		if a, err := strconv.ParseFloat(l, 64); err == nil {
			if b, err := strconv.ParseFloat(most, 64); err != nil || a > b {
				most = l
			}
		}
	}
	cpu := "an unnamed CPU"
	sc := bufio.NewScanner(bytes.NewReader(output))
	for sc.Scan() {
		if name, ok := strings.CutPrefix(sc.Text(), "cpu: "); ok {
			cpu = strings.TrimSpace(name)
			break
		}
	}
	return fmt.Sprintf("%s%s at start, %s at end, at most %s (read before each round and at the end); %d CPUs; %s %s/%s, %s.",
		machinePrefix, load[0], load[len(load)-1], most, runtime.NumCPU(), runtime.Version(), runtime.GOOS, runtime.GOARCH, cpu)
}

// reprint prints the tables of a run saved with -raw. The saved output is
// each round's output of each binary in turn, each beginning with its goos
// line, in the order of bins.
func reprint(path string, out io.Writer) error {
	text, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	results := map[string][]sample{}
	machine := "Load average not noted (a run saved before benchtable noted it)."
	sc := bufio.NewScanner(bytes.NewReader(text))
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), machinePrefix) {
			machine = sc.Text()
		}
	}
	chunks := bytes.Split(text, []byte("\ngoos:"))
	for i, c := range chunks {
		b := bins[i%len(bins)]
		for name, s := range parse(c) {
			results[b.name+":"+name] = append(results[b.name+":"+name], s)
		}
	}
	t := tables{results: results, rounds: len(chunks) / len(bins), machine: machine}
	t.print(out)
	return t.missing()
}

// parse reads `go test -bench` output: name-N iterations ns/op ... B/op allocs/op.
func parse(text []byte) map[string]sample {
	got := map[string]sample{}
	sc := bufio.NewScanner(bytes.NewReader(text))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 4 || !strings.HasPrefix(f[0], "Benchmark") {
			continue
		}
		name := strings.TrimPrefix(f[0], "Benchmark")
		if i := strings.LastIndexByte(name, '-'); i > 0 {
			name = name[:i]
		}
		var s sample
		for i := 2; i+1 < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				continue
			}
			switch f[i+1] {
			case "ns/op":
				s.ns = v
			case "B/op":
				s.bytes = v
			case "allocs/op":
				s.allocs = v
			case "out-B/op":
				s.out = v
			case "parsed-B/op":
				s.parsed = v
			}
		}
		got[name] = s
	}
	return got
}

type tables struct {
	results map[string][]sample
	rounds  int
	machine string   // the machine and its load (machineLine)
	absent  []string // results the tables need and the run lacks
	pending []string // results of optional rows that the run lacks
}

func (t *tables) get(binName, name string) []sample {
	s, ok := t.results[binName+":"+name]
	if !ok {
		t.absent = append(t.absent, binName+":"+name)
	}
	return s
}

// has reports whether the run has a result, without requiring it.
func (t *tables) has(binName, name string) bool {
	_, ok := t.results[binName+":"+name]
	return ok
}

// missing fails when a result the tables need is absent, and names on
// stderr the optional rows printed as "—".
func (t *tables) missing() error {
	if len(t.pending) > 0 {
		fmt.Fprintf(os.Stderr, "benchtable: no result for %s: printed as —\n", strings.Join(t.pending, ", "))
	}
	if len(t.absent) > 0 {
		return fmt.Errorf("no result for %s", strings.Join(t.absent, ", "))
	}
	return nil
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if n := len(s); n%2 == 1 {
		return s[n/2]
	} else {
		return (s[n/2-1] + s[n/2]) / 2
	}
}

func field(ss []sample, f func(sample) float64) []float64 {
	xs := make([]float64, len(ss))
	for i, s := range ss {
		xs[i] = f(s)
	}
	return xs
}

func ns(s sample) float64 { return s.ns }

// duration formats nanoseconds as Go prints durations, to three figures.
func duration(v float64) string {
	switch {
	case math.IsNaN(v):
		return "?"
	case v >= 1e9:
		return trim(v/1e9) + " s"
	case v >= 1e6:
		return trim(v/1e6) + " ms"
	case v >= 1e3:
		return trim(v/1e3) + " µs"
	}
	return trim(v) + " ns"
}

func trim(v float64) string {
	switch {
	case v >= 100:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case v >= 10:
		return strconv.FormatFloat(v, 'f', 1, 64)
	}
	return strconv.FormatFloat(v, 'f', 2, 64)
}

// ratio is the median of the per-round ratios a/b, with their range.
func ratio(a, b []sample) string {
	var rs []float64
	for i := range min(len(a), len(b)) {
		if b[i].ns > 0 {
			rs = append(rs, a[i].ns/b[i].ns)
		}
	}
	if len(rs) == 0 {
		return "?"
	}
	return fmt.Sprintf("%.2f× (%.2f–%.2f)", median(rs), slices.Min(rs), slices.Max(rs))
}

func allocs(s []sample) string {
	return fmt.Sprintf("%.0f", median(field(s, func(s sample) float64 { return s.allocs })))
}
