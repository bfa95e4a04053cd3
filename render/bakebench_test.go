package render

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"vimpclient/clientcore"
)

// benchMapSpec is a map the size and layout of a reference map: its grid,
// cell, and layers (tile 0 floor, 1 wall, 2 grass, 3 canopy).
type benchMapSpec struct {
	name       string
	cols, rows int
	scale      float64
	layers     string
}

// The reference maps, by size: the tanks maps pool mini (the default, the
// size of the embedded host's maps), garden and canopy, the largest.
var benchMaps = []benchMapSpec{
	{"pool-mini", 54, 40, 0.6, `{"1":[0,2],"2":[1],"4":[3]}`},
	{"garden", 120, 120, 0.3, `{"1":[0,1,2],"4":[3]}`},
	{"canopy", 210, 150, 0.2, `{"1":[0,1,2],"4":[3]}`},
}

// benchMap builds a map of the spec: walls around and in short runs inside,
// grass spots and canopy patches, from a fixed seed.
func benchMap(s benchMapSpec) []byte {
	rng := rand.New(rand.NewPCG(uint64(s.cols), uint64(s.rows)))
	grid := make([][]int, s.rows)
	for y := range grid {
		grid[y] = make([]int, s.cols)
		for x := range grid[y] {
			switch {
			case x == 0 || y == 0 || x == s.cols-1 || y == s.rows-1:
				grid[y][x] = 1
			case rng.IntN(9) == 0:
				grid[y][x] = 2
			}
		}
	}
	for range s.cols * s.rows / 100 {
		x, y, n := 1+rng.IntN(s.cols-2), 1+rng.IntN(s.rows-2), 2+rng.IntN(6)
		for k := range n {
			if rng.IntN(2) == 0 && x+k < s.cols-1 {
				grid[y][x+k] = 1
			} else if y+k < s.rows-1 {
				grid[y+k][x] = 1
			}
		}
	}
	for range s.cols * s.rows / 400 {
		x, y := 1+rng.IntN(s.cols-5), 1+rng.IntN(s.rows-4)
		for yy := y; yy < y+3; yy++ {
			for xx := x; xx < x+4; xx++ {
				grid[yy][xx] = 3
			}
		}
	}
	g, _ := json.Marshal(grid)
	return []byte(fmt.Sprintf(`{"setId":"c1","scale":%g,"step":32,"map":%s,"layers":%s,
	 "spriteSheet":{"img":"tiles.png","frames":[[0,0,32,32],[32,0,32,32],[64,0,32,32],[96,0,32,32]]},
	 "physicsStatic":[1],"physicsDynamic":[]}`, s.scale, g, s.layers))
}

// bridgeMap is the embedded host's layered map.
func bridgeMap(t testing.TB) []byte {
	b, err := os.ReadFile(filepath.Join("..", "host", "match", "maps", "bridge.json"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// mapScene is a map alone (no entities), the camera at (x, y).
func mapScene(t testing.TB, mapJSON []byte, x, y float32) (*scene, *fakeCore) {
	cfg := tanksConfig(t)
	core := &fakeCore{my: 1}
	core.frames = []clientcore.EventFrame{{HasCamera: true, Camera: clientcore.FrameCamera{X: x, Y: y, ForceReset: true}}}
	core.hot.Flags = clientcore.HotCamera
	core.hot.Camera = [2]float32{x, y}
	sc := newScene(t, sceneOptions{config: cfg, mapJSON: mapJSON, core: core, gameID: "tanks"})
	sc.r.SetAsset("tiles.png", refSheet())
	return sc, core
}

// BenchmarkBake bakes every chunk of every static layer of a map at once
// (its tile layers at 1920×1080 and the radar's map), the GPU work
// included (a read-back waits for it). Each op draws the view twice, once
// plainly and once baking the whole map first: ms/map is the difference,
// what baking the map again costs (a Rebake, the textures of the last bake
// reused), first-ms/map the same for the first op, whose textures are all
// new, and frame-ms the plain frame. chunks and MB are what it bakes; a
// view needs only those around it.
func BenchmarkBake(b *testing.B) {
	maps := map[string][]byte{"bridge": bridgeMap(b)}
	names := []string{}
	for _, s := range benchMaps {
		maps[s.name] = benchMap(s)
		names = append(names, s.name)
	}
	names = append(names, "bridge")
	for _, name := range names {
		b.Run(name, func(b *testing.B) {
			sc, _ := mapScene(b, maps[name], 300, 200)
			g := &benchGame{sc: sc}
			off := ebiten.NewImage(1920, 1080)
			probe := ebiten.NewImage(1, 1)
			px := make([]byte, 4)
			n := b.N
			var spent, plain, first time.Duration
			chunks := 0
			j := &job{g: g, frames: 2 + n, w: 1920, h: 1080, done: make(chan struct{})}
			j.each = func(_ *ebiten.Image, frame int) {
				if frame < 2 { // the world is laid out and drawn once
					sc.now += 16.7
					sc.w.Tick(sc.now, 16.7)
					sc.r.Draw(off, sc.w, 1)
					return
				}
				if frame == 2 {
					b.ResetTimer()
				}
				t0 := time.Now()
				sc.r.Draw(off, sc.w, 1)
				probe.DrawImage(off, nil)
				probe.ReadPixels(px)
				plain += time.Since(t0)
				sc.r.Rebake()
				sc.r.gfx.cache.whole = true
				t0 = time.Now()
				sc.r.Draw(off, sc.w, 1)
				probe.DrawImage(off, nil)
				probe.ReadPixels(px) // waits for the GPU
				spent += time.Since(t0)
				if frame == 2 {
					first = spent - plain
				}
				sc.r.gfx.cache.whole = false
				chunks, _, _ = sc.r.BakeStats()
			}
			theDriver.jobs <- j
			<-j.done
			b.StopTimer()
			if sc.err != nil {
				b.Fatal(sc.err)
			}
			_, bytes, _ := sc.r.BakeStats()
			b.ReportMetric(float64((spent-plain).Microseconds())/1000/float64(n), "ms/map")
			b.ReportMetric(float64(plain.Microseconds())/1000/float64(n), "frame-ms")
			b.ReportMetric(float64(first.Microseconds())/1000, "first-ms/map")
			b.ReportMetric(float64(chunks), "chunks")

			b.ReportMetric(float64(bytes)/(1<<20), "MB")
		})
	}
}

// BenchmarkBakeWhileMoving sweeps the camera over the largest reference
// map at 3,000 units a second at 1920×1080, so that chunks must be baked
// all the time, and reports the frames' intervals (wall time from one
// frame's end to the next, the GPU's work of the frame included): their
// median, the 99th percentile and the longest; the CPU time the tick and
// draw take on the window's thread (median and longest), and the chunks
// baked per frame. BAKE_STILL=1 keeps the camera still, for the frames'
// cost without baking.
func BenchmarkBakeWhileMoving(b *testing.B) {
	spec := benchMaps[len(benchMaps)-1]
	sc, core := mapScene(b, benchMap(spec), 200, 480)
	g := &benchGame{sc: sc}
	off := ebiten.NewImage(1920, 1080)
	probe := ebiten.NewImage(1, 1)
	px := make([]byte, 4)
	n := b.N
	const warm = 5
	var frames, cpu []time.Duration
	var last time.Time
	x := float32(200)
	speed := float32(50)
	if os.Getenv("BAKE_STILL") != "" {
		speed = 0
	}
	j := &job{g: g, frames: warm + n, w: 1920, h: 1080, done: make(chan struct{})}
	j.each = func(_ *ebiten.Image, frame int) {
		x += speed
		if x > 1200 {
			x = 200
		}
		core.hot.Camera = [2]float32{x, 480}
		runtime.LockOSThread() // both CPU readings on one thread
		c0, _ := threadCPU()
		sc.now += 16.7
		sc.w.Tick(sc.now, 16.7)
		sc.r.Draw(off, sc.w, 1)
		c1, cok := threadCPU()
		runtime.UnlockOSThread()
		probe.DrawImage(off, nil)
		probe.ReadPixels(px) // the frame's GPU work is done
		now := time.Now()
		if frame == warm {
			b.ResetTimer()
		}
		if frame > warm {
			frames = append(frames, now.Sub(last))
			if cok {
				cpu = append(cpu, c1-c0)
			}
		}
		last = now
	}
	theDriver.jobs <- j
	<-j.done
	b.StopTimer()
	if sc.err != nil {
		b.Fatal(sc.err)
	}
	if len(frames) == 0 {
		return
	}
	baked, _, _ := sc.r.BakeStats()
	slices.Sort(frames)
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	b.ReportMetric(ms(frames[len(frames)/2]), "p50-frame-ms")
	b.ReportMetric(ms(frames[len(frames)*99/100]), "p99-frame-ms")
	b.ReportMetric(ms(frames[len(frames)-1]), "max-frame-ms")
	b.ReportMetric(float64(baked)/float64(warm+n), "chunks/frame")
	if len(cpu) > 0 {
		slices.Sort(cpu)
		b.ReportMetric(ms(cpu[len(cpu)/2]), "p50-cpu-ms")
		b.ReportMetric(ms(cpu[len(cpu)-1]), "max-cpu-ms")
	}
}
