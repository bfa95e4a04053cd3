package render

import (
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"vimpclient/clientcore"
)

// benchGame configures its scene on the first Update and otherwise leaves
// the window alone: the benchmark ticks and draws the world itself, once a
// frame, into an offscreen image.
type benchGame struct {
	sc    *scene
	ready bool
}

func (g *benchGame) Update() error {
	if !g.ready {
		g.ready = true
		g.sc.err = g.sc.configure()
	}
	return nil
}

func (g *benchGame) Draw(*ebiten.Image) {}

func (g *benchGame) LayoutF(w, h float64) (float64, float64) {
	if ww, wh := g.sc.w.Size(); ww != w || wh != h {
		g.sc.w.Resize(w, h)
	}
	return w, h
}

// BenchmarkDrawHeavyScene measures one render tick plus the draw of the
// heavy scene at 1920×1080 into an offscreen image: the CPU time of the
// tick and of building Ebiten's command list (cpu-ms/frame, the median
// frame's CPU time on the window's thread, and wall-ms/frame, its wall
// time, which a loaded machine inflates; the GPU work happens when Ebiten
// flushes, after the frame), the
// Ebiten drawing calls the renderer makes (draws/frame), and the
// allocations made by the project's own code (project-allocs/frame, from a
// memory profile of every allocation) beside all allocations of the frame,
// Ebiten's included (allocs/frame).
func BenchmarkDrawHeavyScene(b *testing.B) {
	sc, core := heavyScene(b)
	benchDraw(b, sc, core)
}

// BenchmarkDrawHeavySceneNewer is the heavy scene of a newer host, measured
// as BenchmarkDrawHeavyScene is: its tanks' rows carry pitch and roll
// (tilted, lit hulls and their exhaust), the quarter of them that are
// wrecks die in view (burning through the measured frames), and a quarter
// of the crates lie destroyed.
func BenchmarkDrawHeavySceneNewer(b *testing.B) {
	sc, core := heavySceneNewer(b)
	benchDraw(b, sc, core)
}

// benchDraw measures the frames of a scene for the benchmarks above.
func benchDraw(b *testing.B, sc *scene, core *fakeCore) { benchFrames(b, sc, core, 200) }

// benchFrames measures the frames of a scene that stages at least
// minDrawables entries on its main canvas.
func benchFrames(b *testing.B, sc *scene, core *fakeCore, minDrawables int) {
	g := &benchGame{sc: sc}
	off := ebiten.NewImage(1920, 1080)
	// Warm up: 240 ticks reach the steady state of smoke and track marks
	// (their lifetimes are a few seconds), then 10 drawn frames size the
	// batches' buffers.
	const ticks, warm = 240, 10
	// The timed frames run first with no profile; the memory profile,
	// which unwinds the stack of every allocation and would inflate the CPU
	// figure, counts the project's allocations over the frames after them.
	n := b.N
	profiled := min(n, 50)
	spent := make([]time.Duration, 0, n) // wall time per frame
	cpu := make([]time.Duration, 0, n)   // the thread's CPU time per frame
	draws, verts := 0, 0
	var ms runtime.MemStats
	var mallocs uint64
	var prof allocProfile
	j := &job{g: g, frames: warm + n + profiled, w: 1920, h: 1080, done: make(chan struct{})}
	j.each = func(_ *ebiten.Image, frame int) {
		core.hot.Flags |= clientcore.HotGame
		if frame == 0 {
			for range ticks {
				sc.now += 16.7
				sc.w.Tick(sc.now, 16.7)
			}
		}
		if frame == warm {
			b.ResetTimer()
		}
		if frame == warm+n {
			b.StopTimer()
			prof.start()
		}
		timed := frame >= warm && frame < warm+n
		if timed {
			runtime.ReadMemStats(&ms)
			mallocs -= ms.Mallocs
		}
		runtime.LockOSThread() // both CPU readings on one thread
		c0, _ := threadCPU()
		t0 := time.Now()
		sc.now += 16.7
		sc.w.Tick(sc.now, 16.7)
		sc.r.Draw(off, sc.w, 1)
		d := time.Since(t0)
		c1, cok := threadCPU()
		runtime.UnlockOSThread()
		if timed {
			runtime.ReadMemStats(&ms)
			mallocs += ms.Mallocs
			spent = append(spent, d)
			if cok {
				cpu = append(cpu, c1-c0)
			}
			draws += sc.r.Draws()
			verts += sc.r.Vertices()
		}
	}
	theDriver.jobs <- j
	<-j.done
	project := prof.stop()
	if sc.err != nil {
		b.Fatal(sc.err)
	}
	if len(spent) > 0 {
		f := float64(len(spent))
		b.ReportMetric(median(spent), "wall-ms/frame")
		if len(cpu) == len(spent) {
			b.ReportMetric(median(cpu), "cpu-ms/frame")
		}
		b.ReportMetric(float64(draws)/f, "draws/frame")
		b.ReportMetric(float64(verts)/f, "vertices/frame")
		b.ReportMetric(float64(mallocs)/f, "allocs/frame")
		b.ReportMetric(float64(project)/float64(profiled), "project-allocs/frame")
	}
	if stages := sc.w.Stage("vimp").Len(); stages < minDrawables {
		b.Fatalf("the scene has only %d drawables", stages)
	}
}

// median is the median of ds in milliseconds (ds is sorted).
func median(ds []time.Duration) float64 {
	slices.Sort(ds)
	return float64(ds[len(ds)/2].Microseconds()) / 1000
}

// allocProfile counts the allocations the project's own code makes between
// start and stop: every allocation is recorded (MemProfileRate 1), and an
// allocation counts when the innermost function that is not the Go
// runtime's belongs to a vimpclient package. Allocations inside Ebiten or
// the standard library called from the project are theirs.
type allocProfile struct {
	rate   int
	before map[[32]uintptr]int64
}

func (p *allocProfile) start() {
	p.rate = runtime.MemProfileRate
	runtime.MemProfileRate = 1
	p.before = projectAllocs()
}

func (p *allocProfile) stop() int64 {
	after := projectAllocs()
	runtime.MemProfileRate = p.rate
	var n int64
	for k, v := range after {
		n += v - p.before[k]
		if d := v - p.before[k]; d > 0 && os.Getenv("RENDER_ALLOC_SITES") != "" {
			fr := runtime.CallersFrames(k[:])
			var sb strings.Builder
			for range 6 {
				f, more := fr.Next()
				fmt.Fprintf(&sb, " %s:%d", f.Function, f.Line)
				if !more {
					break
				}
			}
			fmt.Println("alloc", d, sb.String())
		}
	}
	return n
}

func projectAllocs() map[[32]uintptr]int64 {
	runtime.GC()
	runtime.GC() // the profile is published a cycle late
	var recs []runtime.MemProfileRecord
	for {
		n, ok := runtime.MemProfile(recs, true)
		if ok {
			recs = recs[:n]
			break
		}
		recs = make([]runtime.MemProfileRecord, n+64)
	}
	out := map[[32]uintptr]int64{}
	for i := range recs {
		r := &recs[i]
		if slices.ContainsFunc(r.Stack(), isProfiler) {
			continue // the profile's own bookkeeping
		}
		frames := runtime.CallersFrames(r.Stack())
		for {
			f, more := frames.Next()
			if !strings.HasPrefix(f.Function, "runtime.") {
				if strings.HasPrefix(f.Function, "vimpclient/") && !strings.Contains(f.Function, ".Benchmark") && !strings.Contains(f.Function, ".benchDraw") {
					out[r.Stack0] += r.AllocObjects
				}
				break
			}
			if !more {
				break
			}
		}
	}
	return out
}

// isProfiler reports whether a program counter lies in the allocation
// profile's own functions.
func isProfiler(pc uintptr) bool {
	f := runtime.FuncForPC(pc)
	return f != nil && (strings.HasSuffix(f.Name(), ".projectAllocs") || strings.Contains(f.Name(), ".(*allocProfile)."))
}
