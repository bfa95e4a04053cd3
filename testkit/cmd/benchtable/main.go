// Command benchtable runs the project's headline benchmarks (decode,
// sample, tick, draw, bake, mix, replay, join) and prints one Markdown
// table: ns/op as the range over -count runs, allocs/op, the benchmark's
// own metrics, and instructions per op where the machine can count them.
//
// Instructions are counted on a test binary built once per package, run
// in the package's directory for a large and a small fixed number of ops;
// the difference divided by the ops' difference leaves set-up out. They
// come from the hardware counter (perf stat) when the kernel exposes one,
// else from valgrind's callgrind for the benchmarks that draw nothing and
// open no socket (an emulated CPU is too slow for a GPU driver or a
// network round trip); "—" where neither applies. Callgrind runs the
// binary on one P with the collector off, so the runtime's background
// threads neither spin nor mark beside the ops, and counts the
// instructions inside the function an op calls (named by its row), or the
// whole run's for a row that names none: callgrind follows calls by the
// stack pointer, and an op that parks a goroutine or grows its stack loses
// it the function's exit, which flips its collection on and off at the
// wrong places.
//
// It parses go test's benchmark lines itself: the format is a stable
// one-line record and the project needs three of its columns, which does
// not warrant a module dependency.
//
// Usage (from the repository root; make bench runs it under a virtual
// display for the drawing benchmarks):
//
//	go run ./testkit/cmd/benchtable [-count 5] [-instr auto|perf|callgrind|none] [-only decode,sample]
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// row is one line of the table: a benchmark and how to count its
// instructions.
type row struct {
	name  string
	pkg   string
	bench string // -bench pattern, anchored
	// ops is the op count of the large instruction run (0: never count).
	ops int
	// emulable says callgrind may run it: no GPU, no sockets.
	emulable bool
	// fn is the function an op calls, as the symbol table names it:
	// callgrind counts the instructions inside it ("": the whole run's).
	fn string
}

var rows = []row{
	{"decode", "./clientcore", "^BenchmarkDecodeHeavyTanks$", 4000, true, "vimpclient/clientcore.(*Decoder).Decode"},
	{"sample", "./clientcore", "^BenchmarkSampleHeavyTanks$", 4000, true, "vimpclient/clientcore.(*Core).Sample"},
	{"sample adaptive", "./clientcore", "^BenchmarkSampleHeavyTanksAdaptive$", 4000, true, "vimpclient/clientcore.(*Core).Sample"},
	{"tick", "./gameloop", "^BenchmarkLoopTickHeavy$", 300, true, ""}, // a tick parks goroutines: see the package doc
	{"draw", "./render", "^BenchmarkDrawHeavyScene$", 0, false, ""},
	{"bake", "./render", "^BenchmarkBake$/^canopy$", 0, false, ""},
	{"mix", "./audio/mix", "^BenchmarkMix30Voices$", 300, true, "vimpclient/audio/mix.(*Mixer).Mix"},
	{"mix ITD", "./audio/mix", "^BenchmarkMix30VoicesITD$", 300, true, "vimpclient/audio/mix.(*Mixer).Mix"},
	{"replay", "./games/tanks/tankclient", "^BenchmarkReplay250ms$", 300, true, "vimpclient/games/tanks/tankclient.(*Game).OnServerState"},
	{"join", "./session/rtc", "^BenchmarkJoinToConfig$", 0, false, ""},
}

func main() {
	count := flag.Int("count", 5, "runs of each benchmark (ns/op is given as their range)")
	instr := flag.String("instr", "auto", "how to count instructions: auto, perf, callgrind or none")
	only := flag.String("only", "", "comma-separated row names to run (default all)")
	flag.Parse()
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	if err := run(context.Background(), os.Stdout, log, *count, *instr, *only); err != nil {
		log.Error("benchtable", "err", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, w io.Writer, log *slog.Logger, count int, instr, only string) error {
	selected, err := selectRows(rows, only)
	if err != nil {
		return err
	}
	counter, err := newCounter(ctx, instr)
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "benchtable")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	var lines []tableLine
	for _, r := range selected {
		log.Info("bench", "row", r.name, "pkg", r.pkg, "bench", r.bench)
		out, err := goTest(ctx, r, count)
		if err != nil {
			return fmt.Errorf("%s: %w", r.name, err)
		}
		results := parseResults(out)
		if len(results) == 0 {
			return fmt.Errorf("%s: no benchmark results in the output of go test:\n%s", r.name, out)
		}
		tl := tableLine{row: r, results: results, instr: "—"}
		if n, ok, err := counter.perOp(ctx, r, tmp); err != nil {
			log.Warn("instructions not counted", "row", r.name, "err", err)
		} else if ok {
			tl.instr = fmt.Sprintf("%.0f", n)
		}
		lines = append(lines, tl)
	}
	_, err = io.WriteString(w, formatTable(lines, count, counter.name()))
	return err
}

func selectRows(all []row, only string) ([]row, error) {
	if only == "" {
		return all, nil
	}
	var out []row
	for _, name := range strings.Split(only, ",") {
		found := false
		for _, r := range all {
			if r.name == strings.TrimSpace(name) {
				out, found = append(out, r), true
			}
		}
		if !found {
			return nil, fmt.Errorf("no row named %q", name)
		}
	}
	return out, nil
}

// goTest runs the row's benchmark count times with -benchmem and returns
// go test's output.
func goTest(ctx context.Context, r row, count int) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "go", "test", "-run", "^$", "-bench", r.bench, "-benchmem",
		"-count", fmt.Sprint(count), r.pkg)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return out.Bytes(), fmt.Errorf("go test: %w\n%s", err, out.Bytes())
	}
	return out.Bytes(), nil
}

// counter counts a benchmark's instructions per op.
type counter struct {
	tool string // "perf", "callgrind" or "" (none)
}

func (c *counter) name() string {
	if c.tool == "" {
		return "none"
	}
	return c.tool
}

// newCounter picks the tool: perf when its instruction counter works here,
// else callgrind when valgrind is installed.
func newCounter(ctx context.Context, mode string) (*counter, error) {
	switch mode {
	case "none":
		return &counter{}, nil
	case "perf", "callgrind":
		return &counter{tool: mode}, nil
	case "auto":
	default:
		return nil, fmt.Errorf("-instr %q is not auto, perf, callgrind or none", mode)
	}
	if _, err := exec.LookPath("perf"); err == nil {
		out, _ := exec.CommandContext(ctx, "perf", "stat", "-x,", "-e", "instructions:u", "true").CombinedOutput()
		if _, err := parsePerf(out); err == nil {
			return &counter{tool: "perf"}, nil
		}
	}
	if _, err := exec.LookPath("valgrind"); err == nil {
		return &counter{tool: "callgrind"}, nil
	}
	return &counter{}, nil
}

// perOp counts the row's instructions per op; ok is false when the row is
// not counted with this tool.
func (c *counter) perOp(ctx context.Context, r row, tmp string) (float64, bool, error) {
	if c.tool == "" || r.ops == 0 || (c.tool == "callgrind" && !r.emulable) {
		return 0, false, nil
	}
	dir, err := pkgDir(ctx, r.pkg)
	if err != nil {
		return 0, false, err
	}
	bin := filepath.Join(tmp, strings.NewReplacer("/", "_", ".", "_").Replace(r.pkg)+".test")
	if _, err := os.Stat(bin); errors.Is(err, os.ErrNotExist) {
		if out, err := exec.CommandContext(ctx, "go", "test", "-c", "-o", bin, r.pkg).CombinedOutput(); err != nil {
			return 0, false, fmt.Errorf("go test -c: %w\n%s", err, out)
		}
	}
	// The testing package runs a benchmark once with b.N = 1 and, for a
	// -benchtime of Nx with N > 1, once more with b.N = N: each run does
	// the benchmark's own set-up (a loop's warm-up ticks, say). Both runs
	// here have two runs, so the set-up is counted twice in both and the
	// difference is the ops alone.
	fn := r.fn
	const base = 2
	small, err := c.count(ctx, bin, dir, r.bench, fn, base)
	if err != nil {
		return 0, false, err
	}
	large, err := c.count(ctx, bin, dir, r.bench, fn, r.ops+base)
	if err != nil {
		return 0, false, err
	}
	if large <= small {
		return 0, false, fmt.Errorf("%s: %d instructions for %d ops, %d for %d", r.bench, large, r.ops+base, small, base)
	}
	return float64(large-small) / float64(r.ops), true, nil
}

// count runs the test binary for ops ops of the benchmark and returns the
// instructions retired: by the whole run under perf, inside the function
// fn (or the whole run, when fn is "") under callgrind.
func (c *counter) count(ctx context.Context, bin, dir, bench, fn string, ops int) (uint64, error) {
	args := []string{"-test.run", "^$", "-test.bench", bench, "-test.benchtime", fmt.Sprintf("%dx", ops)}
	var cmd *exec.Cmd
	switch c.tool {
	case "perf":
		cmd = exec.CommandContext(ctx, "perf", append([]string{"stat", "-x,", "-e", "instructions:u", "--", bin}, args...)...)
	default:
		vg := []string{"--tool=callgrind", "--callgrind-out-file=/dev/null"}
		if fn != "" {
			vg = append(vg, "--toggle-collect="+fn)
		}
		cmd = exec.CommandContext(ctx, "valgrind", append(append(vg, bin), args...)...)
		// Callgrind cannot follow the runtime's preemption signals, nor
		// emulate the RDTSCP the runtime reads its clock with where the CPU
		// has one. One P and no collector leave the runtime's own threads
		// idle, so two runs of the same ops count the same.
		cmd.Env = append(os.Environ(), "GODEBUG=asyncpreemptoff=1,cpu.rdtscp=off", "GOMAXPROCS=1", "GOGC=off")
	}
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		return 0, fmt.Errorf("%s: %w\n%s", c.tool, err, out)
	}
	if c.tool == "perf" {
		return parsePerf(out)
	}
	return parseCallgrind(out)
}

func pkgDir(ctx context.Context, pkg string) (string, error) {
	out, err := exec.CommandContext(ctx, "go", "list", "-f", "{{.Dir}}", pkg).Output()
	if err != nil {
		return "", fmt.Errorf("go list %s: %w", pkg, err)
	}
	return strings.TrimSpace(string(out)), nil
}
