// Command netbench measures how smoothly the client draws the world over a
// bad network. It starts the embedded host (tanks, -bots bots) on
// 127.0.0.1 and, for every condition of the matrix and every render clock
// asked for, plays -runs headless runs of -for each through a netsim proxy
// with the driving key script, then prints one Markdown table of the
// summaries' figures: the own tank's prediction error p95 and snaps, the
// time and episodes the world stood frozen past the newest frame (and
// those over 100 ms), render time's steps back (and the largest), the late
// frames, the delay's median and largest and the time extrapolated. Each
// cell is the range over the runs.
//
// The conditions, each way: direct (no proxy); 100 ms ± 40 ms; 150 ms with
// a 300 ms stall every 2 s towards the client; 250 ms ± 100 ms; 50 ms with
// 32 KB/s towards the client. Jitter keeps the order of the bytes, as TCP
// does.
//
// Usage (from the repository root; make netbench runs it):
//
//	go run ./testkit/cmd/netbench [-runs 2] [-for 30s] [-interp adaptive,fixed] [-only direct,stall]
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"time"

	"vimpclient/gameloop"
	"vimpclient/host"
	"vimpclient/play"
	"vimpclient/testkit/netsim"
)

// condition is one row of the matrix: the links of the proxy, or none.
type condition struct {
	name, label string
	direct      bool
	down, up    netsim.Link
}

const ms = time.Millisecond

var conditions = []condition{
	{name: "direct", label: "direct", direct: true},
	{name: "jitter", label: "100 ms ± 40 ms", down: netsim.Link{Delay: 100 * ms, Jitter: 40 * ms}, up: netsim.Link{Delay: 100 * ms, Jitter: 40 * ms}},
	{name: "stall", label: "150 ms + 300 ms stall / 2 s", down: netsim.Link{Delay: 150 * ms, StallEvery: 2000 * ms, Stall: 300 * ms, StallPhase: 1000 * ms},
		up: netsim.Link{Delay: 150 * ms}},
	{name: "bad", label: "250 ms ± 100 ms", down: netsim.Link{Delay: 250 * ms, Jitter: 100 * ms}, up: netsim.Link{Delay: 250 * ms, Jitter: 100 * ms}},
	// A thin line: 50 ms each way and 32 KB/s towards the client, about
	// what a busy match's frames take, so bursts queue behind each other.
	{name: "thin", label: "50 ms, 32 KB/s down", down: netsim.Link{Delay: 50 * ms, BytesPerSec: 32 << 10}, up: netsim.Link{Delay: 50 * ms}},
}

func main() {
	runs := flag.Int("runs", 2, "runs per condition and render clock")
	dur := flag.Duration("for", 30*time.Second, "length of each run")
	interps := flag.String("interp", "adaptive,fixed", "the render clocks to measure, comma separated: adaptive, fixed")
	only := flag.String("only", "", "the conditions to run, comma separated: direct, jitter, stall, bad, thin (default all)")
	bots := flag.Int("bots", 5, "bots in the embedded host's match")
	script := flag.String("script", "testdata/scripts/drive.txt", "the key script of every run")
	verbose := flag.Bool("v", false, "log each run's summary to stderr")
	flag.Parse()
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	if err := run(log, *runs, *dur, *interps, *only, *bots, *script, *verbose); err != nil {
		fmt.Fprintf(os.Stderr, "netbench: %v\n", err)
		os.Exit(1)
	}
}

// row is the summaries of one condition with one render clock.
type row struct {
	cond   string
	interp string
	sums   []gameloop.Summary
}

func run(log *slog.Logger, runs int, dur time.Duration, interps, only string, bots int, script string, verbose bool) error {
	var rows []row
	for _, c := range conditions {
		if only != "" && !contains(only, c.name) {
			continue
		}
		for _, mode := range strings.Split(interps, ",") {
			var in play.Interp
			if err := in.Set(strings.TrimSpace(mode)); err != nil {
				return err
			}
			r := row{cond: c.label, interp: in.String()}
			for i := 0; i < runs; i++ {
				s, err := once(log, c, in, dur, bots, script, uint64(i+1))
				if err != nil {
					return fmt.Errorf("%s, %s, run %d: %w", c.name, in.String(), i+1, err)
				}
				if verbose {
					b, _ := json.Marshal(s)
					log.Info("run", "condition", c.name, "interp", in.String(), "summary", string(b))
				}
				r.sums = append(r.sums, s)
			}
			rows = append(rows, r)
		}
	}
	printTable(os.Stdout, rows, runs, dur, bots)
	return nil
}

func contains(list, name string) bool {
	for _, s := range strings.Split(list, ",") {
		if strings.TrimSpace(s) == name {
			return true
		}
	}
	return false
}

// once plays one headless run against a fresh embedded host, through a
// proxy unless the condition is direct, and returns its summary.
func once(log *slog.Logger, c condition, in play.Interp, dur time.Duration, bots int, script string, seed uint64) (gameloop.Summary, error) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	srv, err := host.Start(ctx, host.Config{Addr: "127.0.0.1:0", Bots: bots, Seed: seed, Log: quiet})
	if err != nil {
		return gameloop.Summary{}, fmt.Errorf("embedded host: %w", err)
	}
	defer func() {
		cancel()
		<-srv.Done()
	}()
	addr := srv.URL()
	if !c.direct {
		p, err := netsim.Start(ctx, netsim.Config{Target: strings.TrimPrefix(srv.URL(), "http://"), Down: c.down, Up: c.up, Seed: seed, Log: log})
		if err != nil {
			return gameloop.Summary{}, err
		}
		defer func() { cancel(); p.Wait() }() // before the host's: its relays end with ctx
		addr = "http://" + p.Addr()
	}
	cfg := play.Config{Headless: true, For: dur, Summary: true, Team: "team1", Script: script, Nick: "Probe",
		Origin: srv.URL(), AssetCache: "-", Set: play.Values{}, Interp: in}
	var out, errs bytes.Buffer
	code := play.Headless(ctx, &cfg, addr, &out, &errs)
	var s gameloop.Summary
	if err := json.Unmarshal(out.Bytes(), &s); err != nil {
		return s, fmt.Errorf("exit %d, no summary (%v): %s", code, err, tail(errs.String()))
	}
	if s.Interp == nil || s.Prediction == nil {
		return s, fmt.Errorf("exit %d, the run never played: %s", code, tail(errs.String()))
	}
	return s, nil
}

func tail(s string) string {
	if len(s) > 400 {
		return "…" + s[len(s)-400:]
	}
	return s
}

// printTable writes the matrix as Markdown, each cell the range over the
// runs.
func printTable(w io.Writer, rows []row, runs int, dur time.Duration, bots int) {
	fmt.Fprintf(w, "%d × %v headless runs per row, embedded host with %d bots, testdata/scripts/drive.txt\n\n", runs, dur, bots)
	fmt.Fprintln(w, "| condition | clock | own-tank error p95 / snaps | frozen ms (% of run) | freezes (> 100 ms) | back steps (max ms) | largest step ms | late frames | delay ms p50 / max | extrapolated ms | remote jumps (max frames) |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|---|")
	for _, r := range rows {
		f := func(get func(s *gameloop.Summary) float64, prec int) string { return span(r.sums, get, prec) }
		fmt.Fprintf(w, "| %s | %s | %s / %s | %s (%s %%) | %s (%s) | %s (%s) | %s | %s | %s / %s | %s | %s (%s) |\n", r.cond, r.interp,
			f(func(s *gameloop.Summary) float64 { return s.Prediction.ErrorP95 }, 2),
			f(func(s *gameloop.Summary) float64 { return float64(s.Prediction.Snaps) }, 0),
			f(func(s *gameloop.Summary) float64 { return s.Interp.FrozenMs }, 0),
			f(func(s *gameloop.Summary) float64 { return 100 * s.Interp.FrozenMs / max(1, float64(s.DurationMs)) }, 1),
			f(func(s *gameloop.Summary) float64 { return float64(s.Interp.Freezes) }, 0),
			f(func(s *gameloop.Summary) float64 { return float64(s.Interp.FreezesOver100ms) }, 0),
			f(func(s *gameloop.Summary) float64 { return float64(s.Interp.BackSteps) }, 0),
			f(func(s *gameloop.Summary) float64 { return s.Interp.MaxBackStepMs }, 0),
			f(func(s *gameloop.Summary) float64 { return s.Interp.MaxStepMs }, 1),
			f(func(s *gameloop.Summary) float64 { return float64(s.Interp.LateFrames) }, 0),
			f(func(s *gameloop.Summary) float64 { return s.Interp.DelayMsP50 }, 0),
			f(func(s *gameloop.Summary) float64 { return s.Interp.DelayMsMax }, 0),
			f(func(s *gameloop.Summary) float64 { return s.Interp.ExtrapolatedMs }, 0),
			f(func(s *gameloop.Summary) float64 { return float64(s.Interp.Jumps) }, 0),
			f(func(s *gameloop.Summary) float64 { return s.Interp.MaxJumpFrames }, 1))
	}
}

// span is "lo–hi" of the figure over the summaries ("v" when they agree).
func span(sums []gameloop.Summary, get func(s *gameloop.Summary) float64, prec int) string {
	if len(sums) == 0 {
		return "—"
	}
	lo, hi := get(&sums[0]), get(&sums[0])
	for i := range sums[1:] {
		v := get(&sums[i+1])
		lo, hi = min(lo, v), max(hi, v)
	}
	a, b := fmt.Sprintf("%.*f", prec, lo), fmt.Sprintf("%.*f", prec, hi)
	if a == b {
		return a
	}
	return a + "–" + b
}
