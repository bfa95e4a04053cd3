package world

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"vimpclient/clientcore"
	"vimpclient/gamemap"
)

// emptyMap is a map of cols×rows empty 32-unit cells.
func emptyMap(t *testing.T, cols, rows int) *gamemap.Map {
	t.Helper()
	row := "[" + strings.TrimSuffix(strings.Repeat("0,", cols), ",") + "]"
	grid := strings.TrimSuffix(strings.Repeat(row+",", rows), ",")
	m, err := gamemap.Parse(fmt.Appendf(nil, `{"step":32,"scale":1,"map":[%s],"layers":{"1":[0]}}`, grid))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// cameraWorld is a tanks world at 1920×1080 (5 px a unit: 384×216 units
// shown) on map m, driven by the hot camera of core.
func cameraWorld(t *testing.T, m *gamemap.Map) (*World, *fakeCore) {
	t.Helper()
	cfg, pg := tanksConfig(t)
	core := &fakeCore{}
	w := New(Options{Rand: func() float64 { return 0.5 }, Width: 1920, Height: 1080})
	if err := w.Configure(cfg, pg); err != nil {
		t.Fatal(err)
	}
	w.SetMap(m)
	w.SetCore(core)
	return w, core
}

func (c *fakeCore) point(x, y float64) {
	c.hot = clientcore.Hot{Flags: clientcore.HotCamera, Camera: [2]float32{float32(x), float32(y)}}
}

// centre is the world point at the centre of the main canvas.
func centre(t *testing.T, w *World) (float64, float64) {
	t.Helper()
	x, y, ok := w.ScreenToWorld(960, 540)
	if !ok {
		t.Fatal("no stage")
	}
	return x, y
}

// A camera near a map's corner shows the corner, not the void past it.
func TestCameraKeepsTheVoidOffScreen(t *testing.T) {
	w, core := cameraWorld(t, emptyMap(t, 20, 10)) // 640×320 units
	core.point(10, 10)
	w.Tick(16, 16)
	if x, y, _ := w.ScreenToWorld(0, 0); math.Abs(x) > 1e-6 || math.Abs(y) > 1e-6 {
		t.Fatalf("top-left corner of the screen shows (%v, %v), want the map's corner (0, 0)", x, y)
	}
	core.point(635, 315)
	for i := 0; i < 5; i++ {
		w.Tick(16, 16)
	}
	if x, y, _ := w.ScreenToWorld(1920, 1080); math.Abs(x-640) > 1e-6 || math.Abs(y-320) > 1e-6 {
		t.Fatalf("bottom-right corner of the screen shows (%v, %v), want the map's corner (640, 320)", x, y)
	}
	// The radar is not held inside the map: it stays on the player.
	if r := w.Canvases()[1].Stage; math.Abs(r.X-(75-635*0.13)) > 1e-3 {
		t.Fatalf("radar stage %+v moved off the player", r)
	}
}

// A map smaller than the screen is centred on it whatever the camera.
func TestCameraCentresASmallMap(t *testing.T) {
	w, core := cameraWorld(t, emptyMap(t, 8, 4)) // 256×128 units
	for _, p := range [][2]float64{{0, 0}, {250, 120}, {-40, 900}} {
		core.point(p[0], p[1])
		w.Tick(16, 16)
		if x, y := centre(t, w); math.Abs(x-128) > 1e-6 || math.Abs(y-64) > 1e-6 {
			t.Fatalf("camera at %v: centre (%v, %v), want the map's centre (128, 64)", p, x, y)
		}
	}
}

// Driving east at full speed, the look-ahead never shows the void past the
// east edge; after the stop the view eases back onto the player without
// passing it, starting at once.
func TestLookAheadRespectsTheEdgeAndEasesBack(t *testing.T) {
	w, core := cameraWorld(t, emptyMap(t, 20, 10))
	x := 200.0
	core.point(x, 160)
	w.Tick(16, 16)
	for x < 400 {
		x += 2
		core.point(x, 160)
		w.Tick(16, 16)
		if right, _, _ := w.ScreenToWorld(1920, 540); right > 640+1e-6 {
			t.Fatalf("at x %v the screen's right edge shows x %v, past the map (640)", x, right)
		}
	}
	prev, _ := centre(t, w)
	for i := 0; i < 600; i++ {
		w.Tick(16, 16)
		c, _ := centre(t, w)
		if c > prev+1e-9 || c < x-1e-9 {
			t.Fatalf("call %d after the stop: centre %v after %v, want it easing back to %v without passing it", i, c, prev, x)
		}
		if i == 5 && !(c < prev) {
			t.Fatalf("the view still holds at %v five calls after the stop", c)
		}
		prev = c
	}
	if prev-x > 1 {
		t.Fatalf("centre %v ten seconds after the stop, want within 1 unit of %v", prev, x)
	}
}

// The actor the camera shows is the one at the camera point, found again
// when the camera moves to another; a camera kept where nobody stands
// shows nobody.
func TestWatchedIsTheActorAtTheCamera(t *testing.T) {
	w, core := cameraWorld(t, emptyMap(t, 20, 10))
	m1 := w.scene.Schema().Key("m1")
	if m1 == nil {
		t.Fatal("no m1 key")
	}
	tank := func(id uint32, x, y float32) clientcore.Record {
		f := make([]float32, len(m1.Fields))
		for i, fd := range m1.Fields {
			switch fd.Name {
			case "x":
				f[i] = x
			case "y":
				f[i] = y
			}
		}
		return clientcore.Record{Schema: m1, ID: id, Fields: f}
	}
	for _, c := range []struct {
		cam  [2]float32
		want uint32
	}{{[2]float32{100, 100}, 3}, {[2]float32{300.4, 50}, 5}, {[2]float32{200, 200}, 0}} {
		core.hot = clientcore.Hot{Flags: clientcore.HotCamera | clientcore.HotGame, Camera: c.cam,
			Actors: []clientcore.Record{tank(3, 100, 100), tank(5, 300, 50)}}
		w.Tick(16, 16)
		a, ok := w.Watched()
		if got := map[bool]uint32{true: a.ID}[ok]; got != c.want || ok && a.Key != "m1" {
			t.Errorf("camera %v: watched %+v %v, want m1 %d", c.cam, a, ok, c.want)
		}
	}
}

// A game's look-ahead bound holds the view's centre that close to the
// point, however fast it moves: a snake boosting (8.2 units per update at
// 60 updates a second) on an arena far larger than the view. Without the
// bound the engine's look-ahead runs past it.
func TestLookAheadBoundOfTheGame(t *testing.T) {
	run := func(bound float64) (maxAhead float64) {
		cfg, pg := tanksConfig(t)
		g := *pg
		g.MaxLookAhead = bound
		core := &fakeCore{}
		w := New(Options{Rand: func() float64 { return 0.5 }, Width: 1920, Height: 1080})
		if err := w.Configure(cfg, &g); err != nil {
			t.Fatal(err)
		}
		w.SetMap(emptyMap(t, 300, 300)) // 9600 units a side
		w.SetCore(core)
		x := 1000.0
		for i := 0; i < 1200; i++ {
			x += 8.2
			core.point(x, 4800)
			w.Tick(16, 16)
			c, _ := centre(t, w)
			maxAhead = max(maxAhead, c-x)
		}
		return maxAhead
	}
	if got := run(130); got > 130+1e-3 {
		t.Fatalf("the view ran %.1f units ahead, the bound is 130", got)
	}
	if got := run(0); got <= 130 {
		t.Fatalf("without a bound the look-ahead reached only %.1f: the test does not test the bound", got)
	}
}

// A game whose view follows past the map's edges (snakes: a disc arena in
// a square map narrower than the widest view) keeps the point at the
// view's centre at the map's corner, where the map clamp holds the tanks
// view half a view inside.
func TestPastMapEdgeFollowsThePoint(t *testing.T) {
	for _, past := range []bool{false, true} {
		cfg, pg := tanksConfig(t)
		g := *pg
		g.PastMapEdge = past
		core := &fakeCore{}
		w := New(Options{Rand: func() float64 { return 0.5 }, Width: 1920, Height: 1080})
		if err := w.Configure(cfg, &g); err != nil {
			t.Fatal(err)
		}
		w.SetMap(emptyMap(t, 20, 10)) // 640×320 units, smaller than the view
		w.SetCore(core)
		core.point(10, 10)
		w.Tick(16, 16)
		x, y := centre(t, w)
		at := math.Abs(x-10) < 1 && math.Abs(y-10) < 1 // the look-ahead of the first move aside
		if at != past {
			t.Fatalf("past the edge %v: the view's centre is at (%v, %v) for the point (10, 10)", past, x, y)
		}
	}
}
