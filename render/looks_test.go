package render

import (
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"

	"vimpclient/clientcore"
)

// The looks scene: a tanks host of the newer dialect (the m1 row with its
// height, level, vertical speed, pitch and roll; the c1 row with its state
// byte), seen by a player who joins mid-round: some props are already
// damaged or destroyed, one tank is already a wreck, two tanks stand
// tilted on the ground.

// looksKeys is the snapshot schema of the newer dialect: m1 with 16 fields
// (z and level by their roles at indices 3 and 4, then vz, pitch and roll
// after the fields of the old row), c1 with its state byte.
const looksKeys = `{"version":5,"port":5,"keys":{
 "m1":{"id":1,"kind":"indexed8","class":"hot","fields":[
  {"name":"x","ty":"f32","interp":"lerp"},{"name":"y","ty":"f32","interp":"lerp"},{"name":"angle","ty":"f32","interp":"lerpAngle"},
  {"name":"z","ty":"f32","interp":"lerp","role":"z"},{"name":"level","ty":"u8","role":"level"},
  {"name":"gunRotation","ty":"f32","interp":"lerpAngle"},{"name":"vx","ty":"f32","interp":"lerp"},{"name":"vy","ty":"f32","interp":"lerp"},
  {"name":"engineLoad","ty":"f32","interp":"lerp"},{"name":"condition","ty":"u8"},{"name":"size","ty":"u8"},{"name":"team","ty":"u8"},
  {"name":"angvel","ty":"f32","interp":"lerp"},{"name":"vz","ty":"f32"},{"name":"pitch","ty":"f32","interp":"lerp"},{"name":"roll","ty":"f32","interp":"lerp"}]},
 "w1":{"id":2,"kind":"list16","class":"event","fields":[{"name":"startX","ty":"f32"},{"name":"startY","ty":"f32"},{"name":"endX","ty":"f32"},{"name":"endY","ty":"f32"},{"name":"bodyX","ty":"f32"},{"name":"bodyY","ty":"f32"},{"name":"wasHit","ty":"u8"},{"name":"shooterId","ty":"u8"}]},
 "w2":{"id":3,"kind":"indexed32","class":"event","fields":[{"name":"x","ty":"f32"},{"name":"y","ty":"f32"},{"name":"angle","ty":"f32"},{"name":"size","ty":"u8"},{"name":"time","ty":"u16"},{"name":"ownerId","ty":"u8"}]},
 "w2e":{"id":4,"kind":"list16","class":"event","fields":[{"name":"x","ty":"f32"},{"name":"y","ty":"f32"},{"name":"radius","ty":"f32"}]},
 "c1":{"id":5,"kind":"indexedNoNull8","class":"hot","optionalFrom":6,"fields":[
  {"name":"x","ty":"f32","interp":"lerp"},{"name":"y","ty":"f32","interp":"lerp"},{"name":"angle","ty":"f32","interp":"lerpAngle"},
  {"name":"z","ty":"f32","interp":"lerp","role":"z"},{"name":"level","ty":"u8","role":"level"},{"name":"state","ty":"u8","role":"state"},
  {"name":"vx","ty":"f32","interp":"lerp"},{"name":"vy","ty":"f32","interp":"lerp"},{"name":"angvel","ty":"f32","interp":"lerp"}]}}}`

// looksTank is an m1 row of the newer dialect on the ground.
func looksTank(x, y, angle, gun, load, cond, team, pitch, roll float32) []float32 {
	return []float32{x, y, angle, 0, 0, gun, 0, 0, load, cond, 3, team, 0, 0, pitch, roll}
}

// looksProp is one prop of the looks map: where it lies (source pixels)
// and whether it has its own damaged and destroyed images.
type looksProp struct {
	x, y, angle int
	images      bool
}

// looksProps are the props of the looks map, in row order.
var looksProps = []looksProp{
	{x: 420, y: 300}, {x: 490, y: 300, images: true}, {x: 560, y: 300, angle: 30},
	{x: 630, y: 300, images: true, angle: 15}, {x: 420, y: 380}, {x: 490, y: 380, images: true},
}

// looksStates are the props' state bytes on the first frame the player
// sees: intact, damaged, destroyed, with and without their own images.
var looksStates = []float32{0, 1, 2, 2, 1, 0}

// looksMap is the layers map's ground and walls with the looks props (all
// of them with the crate image; the ones marked with their own damaged and
// destroyed images in their game data).
func looksMap() []byte {
	var grid [40][60]int
	for y := range 40 {
		for x := range 60 {
			switch {
			case x == 0 || y == 0 || x == 59 || y == 39:
				grid[y][x] = 1
			case (x*3+y*5)%11 == 0:
				grid[y][x] = 2
			}
		}
	}
	g, _ := json.Marshal(grid)
	dyn := "["
	for i, p := range looksProps {
		if i > 0 {
			dyn += ","
		}
		game := ""
		if p.images {
			game = `,"game":{"imgDamaged":"b1d.png","imgDestroyed":"b1x.png"}`
		}
		dyn += fmt.Sprintf(`{"position":[%d,%d],"angle":%d,"width":32,"height":32,"img":"b1.png","layer":3,"level":0%s}`, p.x, p.y, p.angle, game)
	}
	dyn += "]"
	return []byte(`{"setId":"c1","scale":0.6,"step":32,"map":` + string(g) + `,"layers":{"1":[0,2],"2":[1]},
	 "spriteSheet":{"img":"tiles.png","frames":[[0,0,32,32],[32,0,32,32],[64,0,32,32]]},
	 "physicsStatic":[1],"physicsDynamic":` + dyn + `}`)
}

// looksCrateDamaged and looksCrateDestroyed are the own images of a prop
// that has them: the crate cracked (a red diagonal cross) and its broken
// boards (three loose planks).
func looksCrateDamaged() image.Image {
	img := image.NewRGBA(image.Rect(0, 0, 32, 32))
	for y := range 32 {
		for x := range 32 {
			c := color.RGBA{0x90, 0x64, 0x2a, 255}
			if x < 3 || y < 3 || x > 28 || y > 28 || x == y || x == 31-y {
				c = color.RGBA{0x40, 0x20, 0x08, 255}
			}
			img.SetRGBA(x, y, c)
		}
	}
	return img
}

func looksCrateDestroyed() image.Image {
	img := image.NewRGBA(image.Rect(0, 0, 32, 32))
	for y := range 32 {
		for x := range 32 {
			if (y >= 4 && y < 9 && x > 2 && x < 26) || (y >= 14 && y < 19 && x > 6 && x < 30) || (y >= 24 && y < 29 && x > 1 && x < 20) {
				img.SetRGBA(x, y, color.RGBA{0x6a, 0x48, 0x20, 255})
			}
		}
	}
	return img
}

// looksCam is the looks scene's camera centre (world units).
const looksCamX, looksCamY = 300, 200

// looksScene is the looks map as a late joiner first sees it: the props
// in looksStates, tank 1 alive and level, tank 2 alive pitched nose up and
// rolled, tank 3 already a wreck.
func looksScene(t testing.TB) *scene { return looksSceneRand(t, func() float64 { return 0.37 }) }

// looksSceneRand is the looks scene drawn with the random source rnd.
func looksSceneRand(t testing.TB, rnd func() float64) *scene {
	cfg := tanksConfigWith([]byte(looksKeys))
	schema := mustSchema(t, cfg)
	m1, c1 := schema.Key("m1"), schema.Key("c1")
	core := &fakeCore{my: 1}
	const cx, cy = looksCamX, looksCamY
	core.frames = []clientcore.EventFrame{{HasCamera: true, Camera: clientcore.FrameCamera{X: cx, Y: cy, ForceReset: true}}}
	core.hot.Flags = clientcore.HotGame | clientcore.HotCamera
	core.hot.Camera = [2]float32{cx, cy}
	core.hot.Actors = []clientcore.Record{
		{Schema: m1, ID: 1, Fields: looksTank(cx-70, cy+70, 0.3, 0.4, 0, 3, 1, 0, 0)},
		{Schema: m1, ID: 2, Fields: looksTank(cx-20, cy+70, -0.5, 0, 0, 3, 2, 0.25, -0.2)},
		{Schema: m1, ID: 3, Fields: looksTank(cx+30, cy+70, 1.2, 0.6, 0, 0, 1, 0, 0)},
	}
	for i, p := range looksProps {
		core.hot.Dynamics = append(core.hot.Dynamics, clientcore.Record{Schema: c1, ID: uint32(i),
			Fields: []float32{float32(p.x) * 0.6, float32(p.y) * 0.6, float32(p.angle) * 3.14159265 / 180, 0, 0, looksStates[i]}})
	}
	sc := newScene(t, sceneOptions{config: cfg, mapJSON: looksMap(), core: core, gameID: "tanks", rand: rnd})
	sc.r.SetAsset("tiles.png", refSheet())
	sc.r.SetAsset("b1.png", refCrate())
	sc.r.SetAsset("b1d.png", looksCrateDamaged())
	sc.r.SetAsset("b1x.png", looksCrateDestroyed())
	return sc
}

// looksReferenceNames are the looks scenes drawn as reference pictures.
var looksReferenceNames = []string{"looks-1280x720"}

// looksScale is the looks picture's pixels per world unit: the main
// canvas shows 384 world units across at 1280 px.
const looksScale = 1280.0 / 384

// looksRect is the picture's rectangle around a world point, r world units
// each way.
func looksRect(x, y, r float64) image.Rectangle {
	sx, sy := (x-looksCamX)*looksScale+640, (y-looksCamY)*looksScale+360
	d := r * looksScale
	return image.Rect(int(math.Floor(sx-d)), int(math.Floor(sy-d)), int(math.Ceil(sx+d)), int(math.Ceil(sy+d)))
}

// propRect is the rectangle around looks prop i, its scorch included.
func propRect(i int) image.Rectangle {
	p := looksProps[i]
	a := float64(p.angle) * math.Pi / 180
	c, s := math.Cos(a), math.Sin(a)
	const side = 32 * 0.6
	x, y := float64(p.x)*0.6+c*side/2-s*side/2, float64(p.y)*0.6+s*side/2+c*side/2
	return looksRect(x, y, side*0.72+1)
}

// differs is the share of pixels of r whose largest channel difference
// between a and b exceeds tol.
func differs(a, b *image.RGBA, r image.Rectangle, tol int) float64 {
	r = r.Intersect(a.Bounds())
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			i := a.PixOffset(x, y)
			for c := range 4 {
				if d := int(a.Pix[i+c]) - int(b.Pix[i+c]); d > tol || -d > tol {
					n++
					break
				}
			}
		}
	}
	return float64(n) / float64(max(1, r.Dx()*r.Dy()))
}

// TestLooksAgainstBefore draws the looks scene and compares it with the
// picture the parts drew before tanks and props got their newer looks
// (testdata/reference/looks-1280x720.png, README there). What the change
// must not touch stays: the ground, the radar, the intact props, a damaged
// prop without its own image, the wreck a late joiner sees. What it must
// change has changed: the props damaged or destroyed with their own images,
// the destroyed prop without one (a scorch now), the two live tanks of the
// newer row (lit, one tilted).
func TestLooksAgainstBefore(t *testing.T) {
	want := readReference(t, "looks-1280x720")
	got, _ := drawReference(t, "looks-1280x720")
	const tol = 24
	changed := []struct {
		what string
		r    image.Rectangle
		min  float64
	}{
		{"damaged prop with its image", propRect(1), 0.015}, // its cracks
		{"destroyed prop without an image", propRect(2), 0.2},
		{"destroyed prop with its image", propRect(3), 0.2},
		{"level tank", looksRect(looksCamX-70, looksCamY+70, 9), 0.03}, // its bevels
		{"tilted tank", looksRect(looksCamX-20, looksCamY+70, 9), 0.07},
	}
	mask := image.NewRGBA(got.Bounds())
	copy(mask.Pix, got.Pix)
	for _, c := range changed {
		share := differs(got, want, c.r, tol)
		t.Logf("%s: %.1f%% of %v changed", c.what, 100*share, c.r)
		if share < c.min {
			t.Errorf("%s: %.1f%% of its pixels changed, want at least %.0f%%", c.what, 100*share, 100*c.min)
		}
		draw.Draw(mask, c.r, want, c.r.Min, draw.Src) // judged above: left out below
	}
	for _, r := range []image.Rectangle{propRect(0), propRect(4), propRect(5), looksRect(looksCamX+30, looksCamY+70, 12)} {
		if share := differs(got, want, r, tol); share > 0.01 {
			t.Errorf("an unchanged thing at %v changed: %.1f%% of its pixels", r, 100*share)
		}
	}
	if share := differs(mask, want, mask.Bounds(), tol); share > 0.001 {
		if d := os.Getenv("RENDER_SHOT_DIR"); d != "" {
			writeRGBA(t, got, filepath.Join(d, "looks-1280x720.png"))
		}
		t.Errorf("%.3f%% of the pixels outside what changed differ from the picture before", 100*share)
	}
}

// eventsScene is the looks scene where things happen in view: after
// the first second tank 3 dies, props 2 and 3 break and a bomb goes off
// beside tank 1; tank 1 runs at full throttle, tank 2 stays pitched and
// rolled, in the air, throughout.
type eventsScene struct {
	sc      *scene
	core    *fakeCore
	before  int // ticks before the events
	after   int // ticks after them
	w, h    int
	off     *ebiten.Image
	ready   bool
	trigger func()
}

func (e *eventsScene) Update() error {
	if e.ready {
		return nil
	}
	e.ready = true
	if e.sc.err = e.sc.configure(); e.sc.err != nil {
		return nil
	}
	e.sc.w.Resize(float64(e.w), float64(e.h))
	for i := range e.before + e.after {
		if i == e.before {
			e.trigger()
		}
		e.core.hot.Flags |= clientcore.HotGame
		e.sc.now += e.sc.step
		e.sc.w.Tick(e.sc.now, e.sc.step)
	}
	return nil
}

func (e *eventsScene) Draw(*ebiten.Image) {
	if e.off == nil {
		e.off = ebiten.NewImage(e.w, e.h)
	}
	e.off.Fill(color.Black)
	e.sc.r.Draw(e.off, e.sc.w, 1)
}

func (e *eventsScene) LayoutF(w, h float64) (float64, float64) { return w, h }

// drawEvents draws the events scene after ms milliseconds of them at w×h.
func drawEvents(t testing.TB, ms float64, w, h int) *image.RGBA {
	t.Helper()
	// a fixed sequence, so that splinters and flames spread as they do in play
	seed := uint64(12345)
	sc := looksSceneRand(t, func() float64 {
		seed = seed*6364136223846793005 + 1442695040888963407
		return float64(seed>>11) / (1 << 53)
	})
	core := sc.core.(*fakeCore)
	schema := mustSchema(t, sc.config)
	w2e := schema.Key("w2e")
	for i := range core.hot.Dynamics { // every prop intact at first
		core.hot.Dynamics[i].Fields[5] = 0
	}
	core.hot.Actors[2].Fields[9] = 3   // tank 3 alive
	core.hot.Actors[0].Fields[8] = 1   // tank 1 at full throttle: its exhaust
	core.hot.Actors[1].Fields[13] = -2 // tank 2 coming down: its shadow
	e := &eventsScene{sc: sc, core: core, before: 60, after: int(ms / 16.7), w: w, h: h}
	e.trigger = func() {
		core.hot.Actors[2].Fields[9] = 0
		core.hot.Dynamics[2].Fields[5] = 2
		core.hot.Dynamics[3].Fields[5] = 2
		core.frames = append(core.frames, clientcore.EventFrame{Blocks: []clientcore.Block{
			{Schema: w2e, Rows: []clientcore.Row{{Fields: []float32{looksCamX - 95, looksCamY + 60, 30}}}},
		}})
	}
	var img *image.RGBA
	j := &job{g: e, frames: 8, w: float64(w), h: float64(h), done: make(chan struct{})}
	j.each = func(_ *ebiten.Image, frame int) {
		if frame == 7 {
			img = image.NewRGBA(image.Rect(0, 0, w, h))
			e.off.ReadPixels(img.Pix)
		}
	}
	theDriver.jobs <- j
	<-j.done
	if sc.err != nil {
		t.Fatal(sc.err)
	}
	return img
}

// TestWriteLooksShots writes pictures of the events scene into the
// directory RENDER_LOOKS_SHOTS names (skipped without it): at 1280×720 and
// 1920×1080, a quarter second after the events (the explosion, the
// splinters flying) and three seconds after (the wreck burning).
func TestWriteLooksShots(t *testing.T) {
	dir := os.Getenv("RENDER_LOOKS_SHOTS")
	if dir == "" {
		t.Skip("RENDER_LOOKS_SHOTS not set")
	}
	for _, size := range [][2]int{{1280, 720}, {1920, 1080}} {
		for _, ms := range []float64{250, 3000} {
			img := drawEvents(t, ms, size[0], size[1])
			writeRGBA(t, img, filepath.Join(dir, fmt.Sprintf("looks-%dms-%dx%d.png", int(ms), size[0], size[1])))
		}
	}
}
