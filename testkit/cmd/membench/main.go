// Command membench measures how much memory the client's window holds,
// side by side with an empty Ebiten window of the same size in the same
// run: under a software GL driver (Mesa's llvmpipe) a window's textures
// live in the process's memory, so what the client costs is the difference
// between the two. For each case it runs a fresh process -runs times and
// reads its peak resident set from the kernel (getrusage's ru_maxrss), then
// prints one Markdown table: the case, the peak's range and median, and
// the median's difference from the empty window's.
//
// The cases: an empty Ebiten window; the start screen; a match against the
// embedded host speaking tanks 0.13 (5 bots); downtown at night against
// the embedded host playing the real tanks 0.22 data (5 bots). Each window
// is 1280×720 and runs for -for before its -screenshot ends it.
//
// Usage (from the repository root, with a display; make membench runs it):
//
//	go run ./testkit/cmd/membench -bin bin/vimpclient [-runs 5] [-for 12s]
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
)

func main() {
	bin := flag.String("bin", "bin/vimpclient", "the client to measure")
	runs := flag.Int("runs", 5, "runs per case")
	dur := flag.Duration("for", 12*time.Second, "how long each window runs")
	empty := flag.Duration("empty-window", 0, "run as the empty window for this long (the parent starts it so)")
	flag.Parse()
	if *empty > 0 {
		if err := emptyWindow(*empty); err != nil {
			fmt.Fprintf(os.Stderr, "membench: %v\n", err)
			os.Exit(1)
		}
		return
	}
	if err := run(*bin, *runs, *dur); err != nil {
		fmt.Fprintf(os.Stderr, "membench: %v\n", err)
		os.Exit(1)
	}
}

// blank is an Ebiten game that draws nothing and ends at its deadline.
type blank struct{ until time.Time }

func (b *blank) Update() error {
	if time.Now().After(b.until) {
		return ebiten.Termination
	}
	return nil
}
func (*blank) Draw(*ebiten.Image)         {}
func (*blank) Layout(w, h int) (int, int) { return w, h }

// emptyWindow opens a 1280×720 window that draws nothing, for d.
func emptyWindow(d time.Duration) error {
	ebiten.SetWindowSize(1280, 720)
	ebiten.SetWindowTitle("membench empty window")
	return ebiten.RunGame(&blank{until: time.Now().Add(d)})
}

// benchCase is one row of the table: how to start its window, and a host
// it plays against (nil: none).
type benchCase struct {
	name   string
	window func(home, url string) *exec.Cmd
	host   []string // serve's arguments, the address added
}

func run(bin string, runs int, dur time.Duration) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	after := strconv.Itoa(int(dur/time.Millisecond)) + "ms"
	client := func(extra ...string) func(home, url string) *exec.Cmd {
		return func(home, url string) *exec.Cmd {
			args := append([]string{"-window", "1280x720", "-screenshot", filepath.Join(home, "shot.png"), "-screenshot-after", after}, extra...)
			if url != "" {
				args = append(args, url)
			}
			return exec.Command(bin, args...)
		}
	}
	cases := []benchCase{
		{name: "empty Ebiten window", window: func(string, string) *exec.Cmd {
			return exec.Command(self, "-empty-window", dur.String())
		}},
		{name: "start screen", window: client()},
		{name: "tanks 0.13 match, 5 bots", window: client("-nick", "Bench", "-team", "team1"),
			host: []string{"-dialect", "0.13", "-bots", "5"}},
		{name: "downtown at night (tanks 0.22), 5 bots", window: client("-nick", "Bench", "-team", "team1"),
			host: []string{"-data", "testdata/captures/real-tanks-0.22", "-map", "downtown", "-bots", "5"}},
	}
	peaks := make([][]peak, len(cases))
	// The cases take turns, so a drift of the machine's load over the run
	// touches each alike.
	for r := 0; r < runs; r++ {
		for i, c := range cases {
			p, err := measure(bin, c)
			if err != nil {
				return fmt.Errorf("%s: %w", c.name, err)
			}
			peaks[i] = append(peaks[i], p)
			fmt.Fprintf(os.Stderr, "run %d, %s: %.1f MB (anonymous %.1f)\n", r+1, c.name, p.rss, p.anon)
		}
	}
	printTable(os.Stdout, cases, peaks, runs, dur)
	return nil
}

// measure runs one case once and returns its window's peaks in MB.
func measure(bin string, c benchCase) (peak, error) {
	home, err := os.MkdirTemp("", "membench")
	if err != nil {
		return peak{}, err
	}
	defer os.RemoveAll(home)
	url := ""
	if c.host != nil {
		ctx, cancel := context.WithCancel(context.Background())
		addr := "127.0.0.1:" + strconv.Itoa(freePort())
		srv := exec.CommandContext(ctx, bin, append([]string{"serve", "-addr", addr}, c.host...)...)
		srv.Stdout, srv.Stderr = io.Discard, io.Discard
		if err := srv.Start(); err != nil {
			cancel()
			return peak{}, err
		}
		defer func() { cancel(); srv.Wait() }() // the host is killed, then reaped
		url = "http://" + addr
		time.Sleep(1500 * time.Millisecond) // the host's listener; the client retries anyway
	}
	cmd := c.window(home, url)
	cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, "cfg"), "XDG_DATA_HOME="+filepath.Join(home, "data"))
	cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
	if err := cmd.Start(); err != nil {
		return peak{}, err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var anon float64
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case err := <-done:
			if err != nil {
				return peak{}, err
			}
			ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
			if !ok {
				return peak{}, fmt.Errorf("no resource usage")
			}
			return peak{rss: float64(ru.Maxrss) / 1024, anon: anon}, nil // ru_maxrss is in KB on Linux
		case <-tick.C:
			anon = max(anon, rssAnon(cmd.Process.Pid))
		}
	}
}

// peak is one run's peak resident set, and the peak of its anonymous part
// (what the process allocated: heaps, textures under a software GL driver,
// stacks), sampled every 50 ms. The rest of the resident set is mapped
// files, mostly the program's own code: on a kernel that keeps files in
// large folios (2 MiB), nearly all of a binary's code and read-only data
// is resident as soon as it runs, so a larger program has a larger
// resident set before it allocates anything.
type peak struct{ rss, anon float64 }

// rssAnon reads a process's resident anonymous memory in MB (0 when it
// cannot be read).
func rssAnon(pid int) float64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "RssAnon:"); ok {
			kb, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 64)
			if err != nil {
				return 0
			}
			return kb / 1024
		}
	}
	return 0
}

// freePort asks the kernel for a free loopback port.
func freePort() int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 3900
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// printTable writes the cases' peaks as Markdown.
func printTable(w io.Writer, cases []benchCase, peaks [][]peak, runs int, dur time.Duration) {
	fmt.Fprintf(w, "%d runs a case, each window 1280×720 for %v; peak resident set and its anonymous part (MB)\n\n", runs, dur)
	fmt.Fprintln(w, "| case | peak RSS min–max | median | median − empty window | peak anonymous median | − empty window |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|")
	rss := func(p peak) float64 { return p.rss }
	anon := func(p peak) float64 { return p.anon }
	base, baseAnon := median(peaks[0], rss), median(peaks[0], anon)
	for i, c := range cases {
		v := make([]float64, len(peaks[i]))
		for k, p := range peaks[i] {
			v[k] = p.rss
		}
		m, a := median(peaks[i], rss), median(peaks[i], anon)
		fmt.Fprintf(w, "| %s | %.1f–%.1f | %.1f | %+.1f | %.1f | %+.1f |\n", c.name, slices.Min(v), slices.Max(v), m, m-base, a, a-baseAnon)
	}
}

func median(ps []peak, of func(peak) float64) float64 {
	s := make([]float64, len(ps))
	for i, p := range ps {
		s[i] = of(p)
	}
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
