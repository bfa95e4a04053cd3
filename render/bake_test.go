package render

import (
	"image"
	"os"
	"path/filepath"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"

	"vimpclient/gamemap"
)

// steps runs a scene one frame per step: each step acts after its frame
// was drawn (the picture of the frame is in screen).
func steps(t *testing.T, sc *scene, w, h float64, acts ...func(screen *ebiten.Image)) {
	t.Helper()
	j := &job{g: sc, frames: len(acts), w: w, h: h, done: make(chan struct{})}
	j.each = func(screen *ebiten.Image, frame int) { acts[frame](screen) }
	theDriver.jobs <- j
	<-j.done
	if sc.err != nil {
		t.Fatal(sc.err)
	}
}

func repeat(n int, f func(*ebiten.Image)) []func(*ebiten.Image) {
	out := make([]func(*ebiten.Image), n)
	for i := range out {
		out[i] = f
	}
	return out
}

// The chunks are baked once per map, tile set and scale: a steady view bakes
// nothing after its first frames, and each of a new map, a new sheet image
// and a window resize bakes again through Rebake, once.
func TestRebakeOnMapTileSetAndScale(t *testing.T) {
	sc := layersScene(t, 300, 200)
	// Baking is spread over frames by a CPU budget: the view is settled
	// once frames in a row bake nothing, however many that takes.
	runUntil(t, sc, 600, nil, func() bool { return sc.r.gfx.cache.idle >= 3 })
	if sc.err != nil {
		t.Fatal(sc.err)
	}
	var baked, rebakes int
	var acts []func(*ebiten.Image)
	note := func(*ebiten.Image) { baked, _, rebakes = sc.r.BakeStats() }
	acts = append(acts, repeat(12, func(*ebiten.Image) {})...)
	acts = append(acts, note)
	acts = append(acts, repeat(20, func(*ebiten.Image) {})...)
	acts = append(acts, func(*ebiten.Image) {
		b, _, rb := sc.r.BakeStats()
		if rb != rebakes || b != baked || rebakes != 1 || baked == 0 {
			t.Errorf("steady view: %d chunks baked then %d, rebakes %d then %d", baked, b, rebakes, rb)
		}
		m, err := gamemap.Parse(layersMap())
		if err != nil {
			t.Fatal(err)
		}
		sc.w.SetMap(m) // the same map again: a new MAP_DATA
	})
	acts = append(acts, func(*ebiten.Image) {
		if _, _, rb := sc.r.BakeStats(); rb != 2 {
			t.Errorf("after a map change %d rebakes, want 2", rb)
		}
		sc.r.SetAsset("tiles.png", refSheet()) // a new tile-set image
	})
	acts = append(acts, repeat(2, func(*ebiten.Image) {})...)
	acts = append(acts, func(*ebiten.Image) {
		if _, _, rb := sc.r.BakeStats(); rb != 3 {
			t.Errorf("after a tile-set change %d rebakes, want 3", rb)
		}
	})
	steps(t, sc, 960, 540, acts...)
	// A resize changes the canvases' scale.
	steps(t, sc, 1280, 720, repeat(3, func(*ebiten.Image) {})...)
	if _, _, rb := sc.r.BakeStats(); rb != 4 {
		t.Errorf("after a resize %d rebakes, want 4", rb)
	}
}

// A budget of chunks bounds their memory whatever the map: a camera
// sweeping a map far larger than the budget keeps at most the budget's
// chunks (and the few pooled for reuse), and the view is drawn all along.
func TestChunkBudgetBoundsMemory(t *testing.T) {
	sc := layersScene(t, 300, 200)
	sc.r.gfx.cache.budget = 6
	core := sc.core.(*fakeCore)
	x := float32(100)
	var px = make([]byte, winW*winH*4)
	acts := repeat(40, func(screen *ebiten.Image) {
		x += 20
		core.hot.Camera = [2]float32{x, 300}
		if _, bytes, _ := sc.r.BakeStats(); bytes > (6+chunkPool)*chunkPx*chunkPx*4 {
			t.Fatalf("chunks hold %d bytes over a budget of 6", bytes)
		}
	})
	acts = append(acts, func(screen *ebiten.Image) { screen.ReadPixels(px) })
	steps(t, sc, winW, winH, acts...)
	baked, _, _ := sc.r.BakeStats()
	if baked <= 6 {
		t.Errorf("the sweep baked only %d chunks", baked)
	}
	// The floor shows under the view's centre: the camera still sees the map.
	if c := pixel(px, winW/2+40, winH/2+40); c.A == 0 || (c.R == 0x22 && c.G == 0x22) {
		t.Errorf("centre pixel %v: no map drawn", c)
	}
}

// The screen sizes the chunk budget: a camera sweeping a large map keeps
// the chunks a 960×540 view and its ring need with their margin, far fewer
// than the most the cache may hold, and the view is baked all along.
func TestChunkBudgetFollowsScreen(t *testing.T) {
	sc := layersScene(t, 300, 200)
	cache := sc.r.gfx.cache
	core := sc.core.(*fakeCore)
	x := float32(100)
	most := 0
	acts := repeat(60, func(screen *ebiten.Image) {
		x += 20
		core.hot.Camera = [2]float32{x, 300}
		if cache.screen > 0 && len(cache.live) > cache.limit() {
			t.Fatalf("%d chunks live over the screen's budget of %d", len(cache.live), cache.limit())
		}
		most = max(most, len(cache.live))
	})
	steps(t, sc, winW, winH, acts...)
	if cache.screen <= 0 || cache.screen >= defaultChunkBudget {
		t.Fatalf("screen budget %d, want one below %d", cache.screen, defaultChunkBudget)
	}
	if cache.screen < screenBudget(1) || most == 0 {
		t.Fatalf("screen budget %d, %d chunks held at most", cache.screen, most)
	}
}

// Chunks and cells drawn directly show the same picture: the first frame
// of a map, whose chunks are not baked yet, is the picture of a later one.
// At 1920×1080 a 32 px tile covers 96 px, so no pixel centre falls on a
// texel's edge, where nearest sampling ties would be decided by the last
// bit of either path's arithmetic.
func TestUnbakedChunksDrawTheSameCells(t *testing.T) {
	sc := layersScene(t, 300, 200)
	sc.r.gfx.cache.budget = 0 // nothing is ever baked: every frame draws cells
	direct := drawScene(t, sc)
	sc2 := layersScene(t, 300, 200)
	baked := drawScene(t, sc2)
	if n, _, _ := sc2.r.BakeStats(); n == 0 {
		t.Fatal("nothing baked")
	}
	if d := os.Getenv("RENDER_SHOT_DIR"); d != "" {
		writeRGBA(t, direct, filepath.Join(d, "cells.png"))
		writeRGBA(t, baked, filepath.Join(d, "chunks.png"))
	}
	share, maxDiff := diffStats(direct, baked, 24)
	if share > 0.0005 {
		t.Errorf("%.3f%% of pixels differ between cells and chunks (largest %d)", 100*share, maxDiff)
	}
}

// drawScene draws a scene at 1920×1080 for 12 frames and returns its last
// picture.
func drawScene(t *testing.T, sc *scene) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, 1920, 1080))
	acts := repeat(12, func(*ebiten.Image) {})
	acts = append(acts, func(screen *ebiten.Image) {
		screen.ReadPixels(img.Pix)
	})
	steps(t, sc, 1920, 1080, acts...)
	return img
}

// A new map's first frame draws its static layers from their cells (its
// chunks are not baked yet), and says so; once the chunks in view are
// baked, the frames say they are whole. A cache that bakes nothing says so
// every frame.
func TestMapUnbakedUntilTheChunksInView(t *testing.T) {
	sc := layersScene(t, 300, 200)
	var seen []bool
	steps(t, sc, 1920, 1080, repeat(40, func(*ebiten.Image) { seen = append(seen, sc.r.MapUnbaked()) })...)
	if !seen[0] {
		t.Fatal("the first frame of a new map was whole")
	}
	if seen[len(seen)-1] {
		t.Fatalf("still unbaked after %d frames: %v", len(seen), seen)
	}
	never := layersScene(t, 300, 200)
	never.r.gfx.cache.budget = 0
	seen = seen[:0]
	steps(t, never, 1920, 1080, repeat(5, func(*ebiten.Image) { seen = append(seen, never.r.MapUnbaked()) })...)
	for i, u := range seen {
		if !u {
			t.Fatalf("frame %d of a cache that bakes nothing was whole", i)
		}
	}
}
