package render

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"testing"

	"vimpclient/clientcore"
	"vimpclient/host/art"
	"vimpclient/testkit/capturetest"
)

// The night scene is the real tanks 0.22 game on its night map, downtown,
// drawn at 1920×1080: the camera over the elevated road (level 1) and the
// street lamps beside it, the own tank on the ground south of it, an enemy
// tank on the ground north of it and one on the bridge.
const (
	nightCX, nightCY = 467.2, 300.8 // cell (36, 23) of 12.8 world units
	nightW, nightH   = 1920, 1080
)

// nightTankRow is a 0.22 m1 row (sixteen fields): a healthy tank of team
// at (x, y) facing angle, on level at height z (levels).
func nightTankRow(x, y, angle, team, z, level float32) []float32 {
	return []float32{x, y, angle, 0, 0, 0, 0, 3, 2, team, 0, z, level, 0, 0, 0}
}

// nightTanks are the night scene's tanks by id: 1 is the own.
func nightTanks() map[uint32][]float32 {
	return map[uint32][]float32{
		1: nightTankRow(384, 384, -1.2, 1, 0, 0),
		2: nightTankRow(576, 217.6, 2.6, 2, 0, 0),
		3: nightTankRow(512, 300.8, 3.1, 2, 1, 1),
	}
}

// downtownScene is the night scene's world: the real CONFIG_DATA and
// MAP_DATA of tanks 0.22 with the embedded host's art (the city sheet), the
// camera at rest at (cx, cy) and the given m1 rows.
func downtownScene(t testing.TB, cx, cy float32, tanks map[uint32][]float32) (*scene, *fakeCore) {
	dir := filepath.Join(capturetest.SharedDir(t), "captures", "real-tanks-0.22")
	cfg, err := os.ReadFile(filepath.Join(dir, "config-data.json"))
	if err != nil {
		t.Fatal(err)
	}
	mapJSON, err := os.ReadFile(filepath.Join(dir, "maps", "downtown.json"))
	if err != nil {
		t.Fatal(err)
	}
	schema := mustSchema(t, cfg)
	m1 := schema.Key("m1")
	core := &fakeCore{my: 1}
	var rows []clientcore.Row
	for id := uint32(1); id <= uint32(len(tanks)); id++ {
		r, ok := tanks[id]
		if !ok {
			continue
		}
		rows = append(rows, clientcore.Row{ID: id, Fields: r})
		core.hot.Actors = append(core.hot.Actors, clientcore.Record{Schema: m1, ID: id, Fields: r})
	}
	core.frames = []clientcore.EventFrame{{Blocks: []clientcore.Block{{Schema: m1, Rows: rows}},
		HasCamera: true, Camera: clientcore.FrameCamera{X: cx, Y: cy, ForceReset: true}}}
	core.hot.Flags = clientcore.HotGame | clientcore.HotCamera
	core.hot.Camera = [2]float32{cx, cy}
	sc := newScene(t, sceneOptions{config: cfg, mapJSON: mapJSON, core: core, gameID: "tanks", rand: func() float64 { return 0.37 }})
	sc.r.gfx.cache.whole = true // every layer baked before it is drawn: the same picture every run
	imgs, err := art.Images()
	if err != nil {
		t.Fatal(err)
	}
	for name, b := range imgs {
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		sc.r.SetAsset(name, img)
	}
	return sc, core
}

// nightShot draws the night scene and returns its last frame.
func nightShot(t *testing.T, name string, each func(frame int)) *image.RGBA {
	sc, _ := downtownScene(t, nightCX, nightCY, nightTanks())
	return shoot(t, sc, name, each)
}

// TestWriteNightReference writes the night scene's reference picture when
// RENDER_WRITE_NIGHT_REF is set. The reference was drawn so by the
// renderer as it was before the night maps were lit: the picture of what
// the lighting must leave alone (the radar) and what it must change.
func TestWriteNightReference(t *testing.T) {
	if os.Getenv("RENDER_WRITE_NIGHT_REF") == "" {
		t.Skip("RENDER_WRITE_NIGHT_REF not set")
	}
	img := nightShot(t, "night-before", nil)
	writeRGBA(t, img, filepath.Join("testdata", "reference", "night-before-1920x1080.png"))
}

// TestWriteNightLitReference writes the lit night scene's reference
// picture when RENDER_WRITE_NIGHT_LIT_REF is set. The reference was drawn
// so by the renderer as it was before the tanks' headlights stopped at
// walls: the picture of what that change must leave alone.
func TestWriteNightLitReference(t *testing.T) {
	if os.Getenv("RENDER_WRITE_NIGHT_LIT_REF") == "" {
		t.Skip("RENDER_WRITE_NIGHT_LIT_REF not set")
	}
	img := nightShot(t, "night-lit-before", nil)
	writeRGBA(t, img, filepath.Join("testdata", "reference", "night-lit-before-1920x1080.png"))
}

// lum is a pixel's luminance (0..255).
func lum(c color.RGBA) float64 {
	return 0.2126*float64(c.R) + 0.7152*float64(c.G) + 0.0722*float64(c.B)
}

// canvasRect is where canvas id lies on the screen, in pixels.
func canvasRect(t *testing.T, sc *scene, id string) image.Rectangle {
	for _, c := range sc.w.Canvases() {
		if c.Spec.ID == id {
			r := c.Rect
			return image.Rect(int(r.Left), int(r.Top), int(r.Left+r.W), int(r.Top+r.H))
		}
	}
	t.Fatalf("no canvas %q", id)
	return image.Rectangle{}
}

// differing is the share of pixels of r where a and b differ by more than
// tol in a channel.
func differing(a, b *image.RGBA, r image.Rectangle, tol int) float64 {
	n, bad := 0, 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			n++
			p, q := a.RGBAAt(x, y), b.RGBAAt(x, y)
			if absDiff(p.R, q.R) > tol || absDiff(p.G, q.G) > tol || absDiff(p.B, q.B) > tol {
				bad++
			}
		}
	}
	return float64(bad) / float64(max(n, 1))
}

// TestNightSceneIsLit draws the night scene lit and compares it with the
// reference the renderer drew before night maps were lit. What must stay:
// the radar. What must change: the top of a raised layer
// is the reference times the map's ambient colour (0x3a4260); a
// bridge lamp's pool stays near its day brightness and its head is drawn
// in the road; an enemy tank in the dark keeps at least half its day
// brightness (its glow).
func TestNightSceneIsLit(t *testing.T) {
	ref := readReference(t, "night-before-1920x1080")
	sc, _ := downtownScene(t, nightCX, nightCY, nightTanks())
	lit := shoot(t, sc, "night-lit", nil)
	// The radar's own picture is unchanged; its background lets a little
	// of the world under it through, which is darker now.
	rr := canvasRect(t, sc, "radar")
	c, rad := rr.Min.Add(rr.Max).Div(2), rr.Dx()/2-3 // the radar is round: its corners are the world
	for y := rr.Min.Y; y < rr.Max.Y; y++ {
		for x := rr.Min.X; x < rr.Max.X; x++ {
			if (x-c.X)*(x-c.X)+(y-c.Y)*(y-c.Y) > rad*rad {
				continue
			}
			if p, q := lit.RGBAAt(x, y), ref.RGBAAt(x, y); absDiff(p.R, q.R) > 8 || absDiff(p.G, q.G) > 8 || absDiff(p.B, q.B) > 8 {
				t.Fatalf("the radar changed at (%d, %d): %v, was %v", x, y, p, q)
			}
		}
	}
	// The top of the bridge's railings (a raised layer of level 1): ambient
	// only, the lamps on the deck do not reach up onto it.
	for _, p := range []image.Point{{400, 290}, {1700, 780}} {
		r, l := ref.RGBAAt(p.X, p.Y), lit.RGBAAt(p.X, p.Y)
		want := [3]float64{float64(r.R) * 0x3a / 255, float64(r.G) * 0x42 / 255, float64(r.B) * 0x60 / 255}
		got := [3]float64{float64(l.R), float64(l.G), float64(l.B)}
		for i := range want {
			if math.Abs(got[i]-want[i]) > 3 {
				t.Errorf("railing top at %v: %v, want the reference %v times the ambient (%.0f)", p, l, r, want)
				break
			}
		}
	}
	ratio := func(p image.Point) float64 { return lum(lit.RGBAAt(p.X, p.Y)) / max(1, lum(ref.RGBAAt(p.X, p.Y))) }
	pool, between := image.Pt(863, 600), image.Pt(1115, 700)
	if k := ratio(pool); k < 0.7 {
		t.Errorf("beside the bridge lamp the deck keeps %.2f of its day brightness, want ≥ 0.7", k)
	}
	if k := ratio(between); k > ratio(pool)-0.3 {
		t.Errorf("between the bridge lamps the deck keeps %.2f of its day brightness, beside one %.2f: want 0.3 less", k, ratio(pool))
	}
	if c := lit.RGBAAt(803, 539); c.R < 230 || c.G < 230 || c.B < 210 {
		t.Errorf("the bridge lamp's head at (803, 539) is %v, want near white", c)
	}
	if k := ratio(image.Pt(1504, 124)); k < 0.5 {
		t.Errorf("the enemy tank keeps %.2f of its day brightness, want ≥ 0.5", k)
	}
}

// With the lighting turned off (the player's setting) the night scene is
// drawn as the renderer drew it before night maps were lit, but for the
// map's sign, which is drawn by day too.
func TestNightSceneUnlitIsTheReference(t *testing.T) {
	ref := readReference(t, "night-before-1920x1080")
	sc, _ := downtownScene(t, nightCX, nightCY, nightTanks())
	sc.r.SetLighting(false)
	off := shoot(t, sc, "night-off", nil)
	// The map's neon sign HOTEL hangs over cell (40, 30) of the elevated
	// level, at the bottom edge: by day too it is drawn, and the picture
	// before had no signs.
	sign := image.Rect(1100, 960, 1450, 1080)
	for _, r := range []image.Rectangle{{Max: image.Pt(1920, sign.Min.Y)}, image.Rect(0, sign.Min.Y, sign.Min.X, 1080), image.Rect(sign.Max.X, sign.Min.Y, 1920, 1080)} {
		if d := differing(off, ref, r, 2); d > 0.001 {
			t.Errorf("%v: %.3f%% of the pixels differ from the reference, allowed 0.1%%", r, 100*d)
		}
	}
}

// nightCrowd is sixteen tanks around the night scene's camera, moving (they
// leave tracks): twelve on the ground, four on the bridge, both teams.
func nightCrowd() (rows map[uint32][]float32, moved map[uint32][]float32) {
	rows, moved = map[uint32][]float32{}, map[uint32][]float32{}
	for i := range 16 {
		x, y := float32(330+(i%4)*90), float32(210+(i/4)*60)
		z, level := float32(0), float32(0)
		if i/4 == 1 || i/4 == 2 { // rows at y 270 and 330: the bridge's deck spans 282–333
			if i%4 == 1 {
				y, z, level = 300, 1, 1
			}
		}
		r := nightTankRow(x, y, 0.4*float32(i), float32(1+i%2), z, level)
		rows[uint32(i+1)] = r
		m := append([]float32(nil), r...)
		m[0] += float32(i % 3)
		moved[uint32(i+1)] = m
	}
	return rows, moved
}

// BenchmarkDrawNightScene measures, as BenchmarkDrawHeavyScene does, a
// frame of downtown at night at 1920×1080 with sixteen tanks: each level's
// light map with the lamps in view, the tanks' glows and headlights.
func BenchmarkDrawNightScene(b *testing.B) { benchNight(b, true) }

// BenchmarkDrawNightSceneUnlit is the same scene with the lighting turned
// off: the difference is what the light maps cost.
func BenchmarkDrawNightSceneUnlit(b *testing.B) { benchNight(b, false) }

func benchNight(b *testing.B, lit bool) {
	rows, moved := nightCrowd()
	sc, core := downtownScene(b, nightCX, nightCY, rows)
	sc.r.gfx.cache.whole = false // baked as in play, a few chunks a frame
	m1 := core.hot.Actors[0].Schema
	core.hot.Actors = core.hot.Actors[:0]
	for id := uint32(1); id <= 16; id++ {
		core.hot.Actors = append(core.hot.Actors, clientcore.Record{Schema: m1, ID: id, Fields: moved[id]})
	}
	// A sheet holding every frame of the map's (a grey of one shade per
	// frame): the animated cells are drawn from it as in play.
	sheet := image.NewRGBA(image.Rect(0, 0, 512, 64))
	for i := range sheet.Pix {
		sheet.Pix[i] = uint8(64 + i/4%512/32*8)
	}
	sc.r.SetAsset("city.png", sheet)
	sc.r.SetLighting(lit)
	benchFrames(b, sc, core, 20)
}
