package render

import (
	"context"
	"image"
	"math"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"vimpclient/parts"
	"vimpclient/world/canvas"
)

// strokeGame draws what draw says through the canvas's gfx into a 200×100
// transparent image at one device pixel per world unit, frames times, and
// records the last frame's drawing calls, vertices and pixels.
type strokeGame struct {
	r      *Renderer
	draw   func(g *gfx)
	off    *ebiten.Image
	calls  int
	verts  int
	px     *image.RGBA
	frames []int // drawing calls of each frame
}

func (g *strokeGame) Update() error                           { return nil }
func (g *strokeGame) LayoutF(w, h float64) (float64, float64) { return w, h }

func (g *strokeGame) Draw(*ebiten.Image) {
	if g.off == nil {
		g.off = ebiten.NewImage(200, 100)
	}
	g.r.d.reset()
	g.r.gfx.newFrame()
	g.off.Clear()
	g.r.gfx.begin(g.off, canvas.Stage{S: 1}, 1, 200, 100)
	g.draw(g.r.gfx)
	g.r.gfx.end()
	g.calls, g.verts = g.r.d.calls, g.r.d.verts
	g.frames = append(g.frames, g.calls)
	g.px = image.NewRGBA(image.Rect(0, 0, 200, 100))
	g.off.ReadPixels(g.px.Pix)
}

func drawStrokes(t *testing.T, o Options, frames int, draw func(g *gfx)) (*strokeGame, *Renderer) {
	t.Helper()
	r := New(context.Background(), o)
	g := &strokeGame{r: r, draw: draw}
	if err := run(t, g, frames, nil); err != nil {
		t.Fatal(err)
	}
	return g, r
}

// A translucent polyline that runs back over itself is blended once: where
// its two segments and its joins overlap it is no more opaque than where
// the line is single. An opaque one is drawn in the batch, in one call.
func TestTranslucentPolylineBlendsOnce(t *testing.T) {
	there := []parts.Vec{{X: 20, Y: 50}, {X: 180, Y: 50}, {X: 100, Y: 50}}
	single := []parts.Vec{{X: 20, Y: 80}, {X: 180, Y: 80}}
	g, r := drawStrokes(t, Options{}, 1, func(g *gfx) {
		g.Polyline(there, 10, parts.Color{R: 1, A: 0.5})
		g.Polyline(single, 10, parts.Color{R: 1, A: 0.5})
	})
	for _, p := range []image.Point{{60, 50}, {140, 50}, {180, 50}, {100, 50}, {60, 80}} {
		// Red at alpha 0.5 over nothing, premultiplied: R 128, A 128.
		if c := g.px.RGBAAt(p.X, p.Y); absDiff(c.A, 128) > 3 || absDiff(c.R, 128) > 3 || c.G != 0 {
			t.Errorf("pixel %v: %v, want R 128 A 128 (blended once)", p, c)
		}
	}
	if s := r.Shed(); s.Strokes != 0 {
		t.Errorf("%d strokes shed, want none", s.Strokes)
	}

	g, _ = drawStrokes(t, Options{}, 1, func(g *gfx) {
		for i := range 50 {
			y := float64(2 * i)
			g.Polyline([]parts.Vec{{X: 10, Y: y}, {X: 190, Y: y}}, 1.5, parts.White())
			g.Ring(100, 50, float64(i), 0.5, parts.White())
		}
	})
	if g.calls != 1 {
		t.Errorf("50 opaque polylines and 50 rings took %d drawing calls, want 1", g.calls)
	}
}

// A translucent stroke over what is already drawn blends as a canvas's
// source-over does (the games' strokes are canvas strokes with an alpha):
// colour·alpha + under·(1 − alpha), for a ring and for a polyline alike.
func TestTranslucentStrokesBlendSourceOver(t *testing.T) {
	under := parts.Color{G: 0.75, B: 0.35, A: 1}
	over := parts.Color{R: 0.93, G: 0.93, B: 0.4, A: 0.25}
	g, _ := drawStrokes(t, Options{}, 1, func(g *gfx) {
		g.Disc(100, 50, 48, under)
		g.Ring(100, 50, 30, 8, over)
		g.Polyline([]parts.Vec{{X: 90, Y: 35}, {X: 110, Y: 35}}, 6, over)
	})
	blend := func(c, u float32) uint8 { return uint8(math.Round(float64(255 * (c*over.A + u*(1-over.A))))) }
	want := [3]uint8{blend(over.R, under.R), blend(over.G, under.G), blend(over.B, under.B)}
	for _, p := range []image.Point{{130, 50}, {100, 35}} {
		c := g.px.RGBAAt(p.X, p.Y)
		if absDiff(c.R, want[0]) > 3 || absDiff(c.G, want[1]) > 3 || absDiff(c.B, want[2]) > 3 || c.A != 255 {
			t.Errorf("pixel %v: %v, want %v", p, c, want)
		}
	}
}

// A curved polyline of many points, as a snake's body is, covers every
// pixel within its half-width of the line: its joins leave no crack, on
// either side of a turn, opaque or through the scratch image.
func TestCurvedPolylineHasNoCracks(t *testing.T) {
	pts := make([]parts.Vec, 61)
	for k := range pts {
		x := 20 + 160*float64(k)/60
		pts[k] = parts.Vec{X: x, Y: 50 + 25*math.Sin(x/13)}
	}
	const hw = 10
	for _, c := range []parts.Color{parts.White(), parts.White().WithAlpha(0.5)} {
		g, _ := drawStrokes(t, Options{}, 1, func(g *gfx) { g.Polyline(pts, 2*hw, c) })
		want := uint8(math.Round(255 * float64(c.A)))
		cracks := 0
		for y := range 100 {
			for x := range 200 {
				d := math.Inf(1)
				px, py := float64(x)+0.5, float64(y)+0.5
				for k := 1; k < len(pts); k++ {
					d = math.Min(d, segDist(px, py, pts[k-1], pts[k]))
				}
				if d < hw-1 && absDiff(g.px.RGBAAt(x, y).A, want) > 2 {
					cracks++
				}
			}
		}
		if cracks != 0 {
			t.Errorf("alpha %.1f: %d pixels inside the stroke not covered", c.A, cracks)
		}
	}
}

// segDist is the distance from (x, y) to the segment a–b.
func segDist(x, y float64, a, b parts.Vec) float64 {
	dx, dy := b.X-a.X, b.Y-a.Y
	t := 0.0
	if l := dx*dx + dy*dy; l > 0 {
		t = min(max(((x-a.X)*dx+(y-a.Y)*dy)/l, 0), 1)
	}
	return math.Hypot(x-(a.X+t*dx), y-(a.Y+t*dy))
}

// A ring's edges fade over one device pixel: the pixel across its outer
// edge is partly covered, the next one not at all; with anti-aliasing off
// the edge is hard.
func TestRingEdgeIsAntiAliased(t *testing.T) {
	// The ring's outer edge is at 32.25 px from its centre: its fade runs
	// from 31.75 to 32.75, and the centre of pixel 132 is 32.5 out.
	ring := func(g *gfx) { g.Ring(100, 50, 30.25, 4, parts.White()) }
	g, _ := drawStrokes(t, Options{}, 1, ring)
	a := func(x int) uint8 { return g.px.RGBAAt(x, 50).A }
	if a(130) < 250 || a(131) < 250 {
		t.Errorf("inside the ring: alpha %d, %d, want 255", a(130), a(131))
	}
	if edge := a(132); edge < 40 || edge > 90 {
		t.Errorf("across the edge: alpha %d, want about 64 (a quarter covered)", edge)
	}
	if a(133) != 0 || a(100) != 0 {
		t.Errorf("outside the ring: alpha %d, centre %d, want 0", a(133), a(100))
	}
	g, _ = drawStrokes(t, Options{NoAntiAlias: true}, 1, ring)
	if edge := a(132); edge != 0 && edge != 255 {
		t.Errorf("without anti-aliasing the edge pixel has alpha %d, want 0 or 255", edge)
	}
}

// However many strokes and labels a frame holds, its drawing calls stay
// few: opaque strokes and rings join the batch, translucent polylines take
// their detour through the scratch image only up to the frame's allowance
// (the rest are counted as shed), new label texts likewise; the next frame
// has its allowance again. Strokes and labels off the canvas send nothing.
func TestStrokeAndLabelFloodIsBounded(t *testing.T) {
	const n = 3000
	var labels [n]string
	for i := range labels {
		labels[i] = "entity:" + strconv.Itoa(i)
	}
	g, r := drawStrokes(t, Options{}, 2, func(g *gfx) {
		for i := range n {
			x, y := float64(i%200), float64(i/200*6)
			g.Polyline([]parts.Vec{{X: x, Y: y}, {X: x + 3, Y: y + 2}}, 1, parts.Color{G: 1, A: 0.5})
			g.Polyline([]parts.Vec{{X: x, Y: y}, {X: x, Y: y + 4}}, 1, parts.White())
			g.Ring(x, y, 3, 1, parts.Color{B: 1, A: 0.3})
			g.Label(labels[i], x, y, 4, parts.White())
		}
	})
	// Per detour: the batch's flush, the scratch's clear, its triangles and
	// the composite; per new label: the flush and the text.
	limit := 4*maxScratchStrokes + 2*maxNewLabels + 16
	for f, calls := range g.frames {
		if calls > limit {
			t.Errorf("frame %d made %d drawing calls, want at most %d", f, calls, limit)
		}
	}
	s := r.Shed()
	if want := uint64(2 * (n - maxScratchStrokes)); s.Strokes != want {
		t.Errorf("%d strokes shed over two frames, want %d", s.Strokes, want)
	}
	if want := uint64(2 * (n - maxNewLabels)); s.Labels < want-2*maxLabels || s.Labels > want {
		t.Errorf("%d labels shed over two frames, want about %d", s.Labels, want)
	}

	g, r = drawStrokes(t, Options{}, 1, func(g *gfx) {
		for i := range n {
			x := -1000 - float64(i)
			g.Polyline([]parts.Vec{{X: x, Y: 50}, {X: x + 3, Y: 52}}, 1, parts.Color{G: 1, A: 0.5})
			g.Ring(x, 50, 3, 1, parts.White())
			g.Label(labels[i], 100, 500+float64(i), 4, parts.White())
		}
	})
	if g.verts != 0 || r.Shed() != (Shed{}) {
		t.Errorf("strokes and labels off the canvas sent %d vertices, shed %+v; want none", g.verts, r.Shed())
	}
}

// Strokes far wider than the canvas (a host's lie about a snake's radius)
// cover the canvas once each join: a frame draws them only up to its fill
// allowance, and counts the rest.
func TestHugeStrokesAreBounded(t *testing.T) {
	pts := make([]parts.Vec, 61)
	for i := range pts {
		pts[i] = parts.Vec{X: float64(3 * i), Y: 50}
	}
	const n = 200
	g, r := drawStrokes(t, Options{}, 1, func(g *gfx) {
		for range n {
			g.Polyline(pts, 1e5, parts.White())
			g.Ring(100, 50, 1e5, 1e5, parts.White())
		}
	})
	// Each polyline has 61 joins covering the canvas: at most a canvas's
	// worth of strokes fit 32 times.
	if s := r.Shed(); s.Strokes < 2*n-strokeFillCanvases {
		t.Errorf("%d of %d huge strokes shed, want all but about %d", s.Strokes, 2*n, strokeFillCanvases)
	}
	if g.verts > strokeFillCanvases*4*maxRingSegments {
		t.Errorf("%d vertices sent for the huge strokes", g.verts)
	}
	// A small stroke still fits the frame.
	g, r = drawStrokes(t, Options{}, 1, func(g *gfx) {
		g.Polyline(pts[:10], 4, parts.White())
	})
	if r.Shed().Strokes != 0 || g.px.RGBAAt(10, 50).A != 255 {
		t.Errorf("a small stroke was shed (%+v) or not drawn (%v)", r.Shed(), g.px.RGBAAt(10, 50))
	}
}

// The cross-sections: a wide stroke has a core at full coverage between
// its edges' fades, a thin one peaks at the coverage its width gives, and
// a ring is drawn with as many sides as its size needs.
func TestStrokeProfiles(t *testing.T) {
	bs, n := profile(-3, 3, 0.5)
	if n != 4 || bs[0] != (band{-3.5, 0}) || bs[1] != (band{-2.5, 1}) || bs[3] != (band{3.5, 0}) {
		t.Errorf("wide: %v", bs[:n])
	}
	bs, n = profile(-0.25, 0.25, 0.5)
	if n != 3 || bs[1].r != 0 || math.Abs(float64(bs[1].cov)-0.5) > 1e-6 {
		t.Errorf("thin: %v", bs[:n])
	}
	bs, n = radial(3, 0.5)
	if n != 3 || bs[0] != (band{0, 1}) || bs[1] != (band{2.5, 1}) || bs[2] != (band{3.5, 0}) {
		t.Errorf("disc: %v", bs[:n])
	}
	if lo, hi := segments(2, 8, maxRingSegments), segments(500, 8, maxRingSegments); lo != 8 || hi < 90 || hi > maxRingSegments {
		t.Errorf("sides: %d for radius 2, %d for radius 500", lo, hi)
	}
}

func absDiff(a, b uint8) int {
	if a > b {
		return int(a - b)
	}
	return int(b - a)
}

// BenchmarkDrawStrokes draws a snakes arena's strokes into a 1280×720
// image a frame: 30 snakes of 61 points (the body opaque, its stripe and
// a boost halo translucent, so two scratch detours each), the arena's four
// rings, and 200 event rings. It reports the median frame's CPU time on
// the drawing thread (the GPU work happens when Ebiten flushes, after the
// frame), the drawing calls and vertices a frame, and the allocations of
// the frames, Ebiten's included.
func BenchmarkDrawStrokes(b *testing.B) {
	r := New(context.Background(), Options{})
	off := ebiten.NewImage(1280, 720)
	snakes := make([][]parts.Vec, 30)
	for i := range snakes {
		pts := make([]parts.Vec, 61)
		x0, y0 := float64(40+(i%6)*200), float64(60+(i/6)*130)
		for k := range pts {
			t := float64(k) / 60
			pts[k] = parts.Vec{X: x0 + 150*t, Y: y0 + 30*math.Sin(6*t+float64(i))}
		}
		snakes[i] = pts
	}
	colour, stripe, halo := parts.RGB(0x9bde3c), parts.RGB(0x557a21).WithAlpha(0.45), parts.RGB(0xffe98a).WithAlpha(0.22)
	const warm = 10
	n := b.N
	cpu := make([]time.Duration, 0, n)
	draws, verts := 0, 0
	var ms runtime.MemStats
	var mallocs uint64
	g := &strokeGame{r: r, draw: func(*gfx) {}}
	j := &job{g: g, frames: warm + n, w: 1280, h: 720, done: make(chan struct{})}
	j.each = func(_ *ebiten.Image, frame int) {
		if frame == warm {
			b.ResetTimer()
		}
		timed := frame >= warm
		if timed {
			runtime.ReadMemStats(&ms)
			mallocs -= ms.Mallocs
		}
		runtime.LockOSThread()
		c0, _ := threadCPU()
		r.d.reset()
		r.gfx.newFrame()
		r.gfx.begin(off, canvas.Stage{S: 1}, 1, 1280, 720)
		for i := range 4 {
			r.gfx.Ring(640, 360, 100*float64(i+1), 2, parts.RGB(0x1d2947).WithAlpha(0.5))
		}
		for _, s := range snakes {
			r.gfx.Polyline(s, 26, halo)
			r.gfx.Polyline(s, 20, colour)
			r.gfx.Polyline(s, 12.4, stripe)
		}
		for i := range 200 {
			r.gfx.Ring(float64(i%20*64), float64(i/20*72), 12, 3, parts.White().WithAlpha(0.5))
		}
		r.gfx.end()
		c1, cok := threadCPU()
		runtime.UnlockOSThread()
		if timed {
			runtime.ReadMemStats(&ms)
			mallocs += ms.Mallocs
			if cok {
				cpu = append(cpu, c1-c0)
			}
			draws += r.d.calls
			verts += r.d.verts
		}
	}
	theDriver.jobs <- j
	<-j.done
	b.StopTimer()
	if f := float64(n); n > 0 {
		if len(cpu) == n {
			b.ReportMetric(median(cpu), "cpu-ms/frame")
		}
		b.ReportMetric(float64(draws)/f, "draws/frame")
		b.ReportMetric(float64(verts)/f, "vertices/frame")
		b.ReportMetric(float64(mallocs)/f, "allocs/frame")
	}
	if s := r.Shed(); s != (Shed{}) {
		b.Errorf("the arena shed %+v", s)
	}
}
