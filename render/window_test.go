package render

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"

	"vimpclient/assets"
	"vimpclient/clientcore"
	"vimpclient/gamemap"
	"vimpclient/parts"
	"vimpclient/protocol"
	"vimpclient/registry"
	"vimpclient/testkit/capturetest"
	"vimpclient/world"
)

func sharedPath(t testing.TB, rel string) string {
	p := filepath.Join(capturetest.SharedDir(t), rel)
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("test data %s: %v", rel, err)
	}
	return p
}

// tanksConfig builds a CONFIG_DATA like the tanks host sends (the canvas
// and parts sections of the tanks game's CONFIG_DATA, the schema from conformance).
func tanksConfig(t testing.TB) []byte {
	b, err := os.ReadFile(sharedPath(t, "conformance/schemas/tanks.json"))
	if err != nil {
		t.Fatal(err)
	}
	var schema struct {
		Keys json.RawMessage `json:"keys"`
	}
	if err := json.Unmarshal(b, &schema); err != nil {
		t.Fatal(err)
	}
	return tanksConfigWith(schema.Keys)
}

// tanksConfigWith is the tanks CONFIG_DATA with the snapshot keys given.
func tanksConfigWith(keys []byte) []byte {
	return []byte(`{"modules":{"canvasManager":{
	  "dynamicCamera":{"lookAheadFactor":30,"zoomOutFactor":0.5,"maxZoomOut":0.6,"smoothnessPosition":0.008,"smoothnessZoom":0.005,"smoothnessVelocity":0.15},
	  "canvases":{"vimp":{"width":960,"height":600,"aspectRatio":"16:9","baseScale":"5:1","dynamicCamera":true,"shakeCamera":true},
	              "radar":{"width":150,"height":150,"fixSize":"150","baseScale":"1:8"}}}},
	 "parts":{"gameSets":{"c1":["Map","MapRadar"],"c2":["Map"],"m1":["Tank","TankRadar","Smoke","Tracks"],"w1":["ShotEffect"],"w2":["Bomb"],"w2e":["ExplosionEffect"]},
	   "entitiesOnCanvas":{"Map":"vimp","MapRadar":"radar","TankRadar":"radar","Tank":"vimp","ShotEffect":"vimp","Bomb":"vimp","ExplosionEffect":"vimp","Smoke":"vimp","Tracks":"vimp"}},
	 "snapshot":` + string(keys) + `}`)
}

var (
	floorRGB = color.RGBA{0x3a, 0x6e, 0x2a, 255}
	wallRGB  = color.RGBA{0x70, 0x70, 0x78, 255}
)

// tileSheet is a 5-frame 32 px sheet: 0 floor, 1 wall, 2..4 variants.
func tileSheet() []byte {
	img := image.NewRGBA(image.Rect(0, 0, 160, 32))
	cols := []color.RGBA{floorRGB, wallRGB, floorRGB, {0x20, 0x50, 0x90, 255}, floorRGB}
	for i, c := range cols {
		for y := range 32 {
			for x := range 32 {
				img.SetRGBA(i*32+x, y, c)
			}
		}
	}
	var buf writerBuf
	_ = png.Encode(&buf, img)
	return buf
}

type writerBuf []byte

func (w *writerBuf) Write(p []byte) (int, error) { *w = append(*w, p...); return len(p), nil }

// testMap is a 60×40 grid of floor with a wall border and a few crates.
func testMap(crates int) []byte {
	var grid [40][60]int
	for y := range 40 {
		for x := range 60 {
			if x == 0 || y == 0 || x == 59 || y == 39 {
				grid[y][x] = 1
			}
		}
	}
	g, _ := json.Marshal(grid)
	dyn := "["
	for i := range crates {
		if i > 0 {
			dyn += ","
		}
		dyn += fmt.Sprintf(`{"position":[%d,%d],"angle":0,"width":32,"height":32,"img":"b1.png","layer":3}`, 200+(i%8)*90, 200+(i/8)*90)
	}
	dyn += "]"
	return []byte(`{"setId":"c1","scale":0.6,"step":32,"map":` + string(g) + `,"layers":{"1":[0,2,4],"2":[1],"4":[3]},
	 "spriteSheet":{"img":"tiles.png","frames":[[0,0,32,32],[32,0,32,32],[64,0,32,32],[96,0,32,32],[128,0,32,32]]},
	 "physicsStatic":[1],"physicsDynamic":` + dyn + `}`)
}

// fakeCore is a hand-built core output: one event frame (with a camera
// reset) on the first sample, then the same hot data every tick.
type fakeCore struct {
	frames []clientcore.EventFrame
	hot    clientcore.Hot
	my     uint8
}

func (c *fakeCore) Sample(float64) *clientcore.Hot {
	if len(c.frames) > 0 {
		c.hot.Flags |= clientcore.HotFrames
	} else {
		c.hot.Flags &^= clientcore.HotFrames
	}
	return &c.hot
}

func (c *fakeCore) TakeFramesUpTo(int, int) []clientcore.EventFrame {
	f := c.frames
	c.frames = nil
	return f
}

func (c *fakeCore) MyGameID() (uint8, bool) { return c.my, true }

// scene is a world configured from a CONFIG_DATA and a MAP_DATA on its
// first Update, sampling core every tick, drawn by a renderer: the render
// path of the client without a session.
type scene struct {
	config, mapJSON []byte
	gameID          string
	core            world.Core
	w               *world.World
	r               *Renderer
	done            bool
	err             error
	now             float64
	step            float64 // ms per tick (default 16.7)
	lastMap         *gamemap.Map
}

type sceneOptions struct {
	config, mapJSON []byte
	gameID          string // the announced game ("" = recognised from CONFIG_DATA)
	core            world.Core
	assetsBase      string
	noAntiAlias     bool
	rand            func() float64
	onCamera        func(x, y, zoom float64)
}

func newScene(t testing.TB, o sceneOptions) *scene {
	t.Helper()
	r := New(context.Background(), Options{Assets: testAssets(t, o.assetsBase), NoAntiAlias: o.noAntiAlias})
	if o.rand == nil {
		o.rand = func() float64 { return 0.5 }
	}
	w := world.New(world.Options{Rand: o.rand, Textures: r.Textures(), OnCamera: o.onCamera, Width: winW, Height: winH})
	return &scene{config: o.config, mapJSON: o.mapJSON, gameID: o.gameID, core: o.core, w: w, r: r, step: 16.7}
}

// configure applies the config and the map the way the game loop does.
func (s *scene) configure() error {
	cfg, err := protocol.ParseConfig(s.config)
	if err != nil {
		return err
	}
	schema, err := clientcore.ParseSchema(cfg.Snapshot)
	if err != nil {
		return err
	}
	specs, tune, pointer, err := world.ParseCanvasManager(cfg.CanvasManager)
	if err != nil {
		return err
	}
	pc, err := parts.ParsePartsConfig(cfg.Parts)
	if err != nil {
		return err
	}
	_, pg, _ := registry.Default().Pick(s.gameID, pc, s.w.Rand())
	if err := s.w.Configure(&world.Config{Schema: schema, Canvases: specs, Camera: tune, PointerCanvas: pointer, Parts: pc}, pg); err != nil {
		return err
	}
	s.w.AwaitTextures() // the pictures are of a game whose textures are in
	if s.mapJSON != nil {
		m, err := gamemap.Parse(s.mapJSON)
		if err != nil {
			return err
		}
		s.lastMap = m
		s.w.SetMap(m)
		s.mapJSON = nil // parsed once, as the client does
	}
	s.w.SetCore(s.core)
	return nil
}

func (s *scene) Update() error {
	if !s.done {
		s.done = true
		s.err = s.configure()
	}
	s.r.Poll()
	s.now += s.step
	s.w.Tick(s.now, s.step)
	return nil
}

func (s *scene) Draw(screen *ebiten.Image) {
	screen.Fill(color.Black)
	s.r.Draw(screen, s.w, 1)
}

func (s *scene) LayoutF(w, h float64) (float64, float64) {
	if ww, wh := s.w.Size(); ww != w || wh != h {
		s.w.Resize(w, h)
	}
	return w, h
}

func tankFields(x, y, angle float32, team float32) []float32 {
	return []float32{x, y, angle, 0, 0, 0, 0, 3, 2, team, 0}
}

// testAssets is a downloader for base over plain HTTP with no disk cache
// (nil when base is "").
func testAssets(t testing.TB, base string) *assets.Downloader {
	t.Helper()
	if base == "" {
		return nil
	}
	d, err := assets.New(assets.Options{Client: http.DefaultClient, Base: base})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func assetServer(t testing.TB) string {
	sheet := tileSheet()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/games/tanks/img/tiles.png" {
			w.Write(sheet)
			return
		}
		http.NotFound(w, r) // b1.png missing: crates use their fallback
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/games/tanks/"
}

func near(c color.RGBA, r, g, b uint8, tol int) bool {
	d := func(a, b uint8) int { return int(math.Abs(float64(int(a) - int(b)))) }
	return d(c.R, r) <= tol && d(c.G, g) <= tol && d(c.B, b) <= tol
}

// around reports whether a pixel within r of (x, y) satisfies ok.
func around(px []byte, x, y, r int, ok func(color.RGBA) bool) bool {
	for dy := -r; dy <= r; dy++ {
		for dx := -r; dx <= r; dx++ {
			if ok(pixel(px, x+dx, y+dy)) {
				return true
			}
		}
	}
	return false
}

func pixel(px []byte, x, y int) color.RGBA {
	i := (y*winW + x) * 4
	return color.RGBA{px[i], px[i+1], px[i+2], px[i+3]}
}

func TestWindowTanksScene(t *testing.T) {
	cfg := tanksConfig(t)
	schema := mustSchema(t, cfg)
	m1 := schema.Key("m1")
	core := &fakeCore{my: 3}
	core.frames = []clientcore.EventFrame{{
		Blocks:    []clientcore.Block{{Schema: m1, Rows: []clientcore.Row{{ID: 3, Fields: []float32{300, 200, 0.3, 0, 0, 0, 0, 3, 2, 1, 0}}}}},
		HasCamera: true, Camera: clientcore.FrameCamera{X: 300, Y: 200, ForceReset: true},
	}}
	core.hot = clientcore.Hot{Flags: clientcore.HotGame | clientcore.HotCamera | clientcore.HotPredicted, Camera: [2]float32{300, 200},
		Actors: []clientcore.Record{{Schema: m1, ID: 7, Fields: tankFields(340, 200, 0, 2)}},
		Tail:   []clientcore.Record{{Schema: m1, ID: 3, Fields: tankFields(300, 200, 0.3, 1)}}}
	sc := newScene(t, sceneOptions{config: cfg, mapJSON: testMap(4), core: core, gameID: "tanks", assetsBase: assetServer(t)})
	px := make([]byte, winW*winH*4)
	loaded := 0
	runUntil(t, sc, 600, func(screen *ebiten.Image, frame int) {
		if _, loading := sc.r.Loading(); loading {
			return // the sheet is still downloading
		}
		if loaded++; loaded == 30 {
			screen.ReadPixels(px)
			if d := os.Getenv("RENDER_SHOT_DIR"); d != "" {
				writeTestPNG(t, screen, filepath.Join(d, "tanks-window.png"))
			}
		}
	}, func() bool { return loaded >= 30 })
	if sc.err != nil {
		t.Fatal(sc.err)
	}
	if loaded < 30 {
		t.Fatalf("assets never finished loading (%d frames after)", loaded)
	}
	if sc.w.GameID() != "tanks" || len(sc.w.Fallbacks()) != 0 {
		t.Fatalf("game %q fallbacks %v", sc.w.GameID(), sc.w.Fallbacks())
	}
	// The local tank is at the camera point: the canvas centre shows its turret in the team 1 colour.
	if !around(px, winW/2, winH/2, 2, func(c color.RGBA) bool { return near(c, 0x55, 0x22, 0x22, 10) }) {
		t.Errorf("centre pixel %v, want team 1 turret 552222 within 2 px", pixel(px, winW/2, winH/2))
	}
	// The other tank (team 2) is 40 u to the right: 100 px at scale 2.5.
	if !around(px, winW/2+100, winH/2, 2, func(c color.RGBA) bool { return near(c, 0x22, 0x55, 0x22, 10) }) {
		t.Errorf("second tank pixel %v, want team 2 turret 225522", pixel(px, winW/2+100, winH/2))
	}
	// Its hull (light grey, 8×6 u = 20×15 px) surrounds the turret.
	if c := pixel(px, winW/2+100-8, winH/2+5); !(c.R > 0x90 && c.R == c.G) {
		t.Errorf("team 2 hull pixel %v, want light grey", c)
	}
	// Map tiles fill the view: every corner shows the floor tile, never the #222 canvas or black.
	for _, p := range [][2]int{{20, 20}, {winW - 20, 20}, {20, winH - 20}, {winW - 20, winH - 20}, {200, 300}} {
		if c := pixel(px, p[0], p[1]); !near(c, floorRGB.R, floorRGB.G, floorRGB.B, 6) {
			t.Errorf("pixel %v = %v, want floor tile %v", p, c, floorRGB)
		}
	}
	// The radar sits top-right (right 1 %, top 35 px), 150 px, clipped to a circle.
	rx, ry := int(math.Floor(float64(winW)-float64(winW)*0.01-75)), 35+75
	if c := pixel(px, rx, ry); !near(c, 0x55, 0x22, 0x22, 30) {
		t.Errorf("radar centre %v, want the local tank's dot", c)
	}
	if c := pixel(px, rx+40, ry+10); !(c.G > 110 && c.G > c.R+60 && c.G > c.B+30) {
		t.Errorf("radar background %v, want translucent green", c)
	}
	if c := pixel(px, rx-73, ry-73); !near(c, floorRGB.R, floorRGB.G, floorRGB.B, 8) {
		t.Errorf("radar corner %v, want clipped (the map shows through)", c)
	}
	// Screen -> world at the centre is the camera point (the camera is at rest).
	if x, y, ok := sc.w.ScreenToWorld(winW/2, winH/2); !ok || math.Abs(x-300) > 1e-6 || math.Abs(y-200) > 1e-6 {
		t.Errorf("centre maps to %v,%v,%v", x, y, ok)
	}
}

func mustPNG(b []byte) image.Image {
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		panic(err)
	}
	return img
}

func snakesConfig(t testing.TB) []byte {
	b, err := os.ReadFile(sharedPath(t, "conformance/schemas/snakes.json"))
	if err != nil {
		t.Fatal(err)
	}
	var schema struct {
		Keys json.RawMessage `json:"keys"`
	}
	if err := json.Unmarshal(b, &schema); err != nil {
		t.Fatal(err)
	}
	return []byte(`{"modules":{"canvasManager":{
	  "dynamicCamera":{"lookAheadFactor":30,"zoomOutFactor":0.5,"maxZoomOut":0.6,"smoothnessPosition":0.008,"smoothnessZoom":0.005,"smoothnessVelocity":0.15},
	  "canvases":{"vimp":{"width":960,"height":600,"aspectRatio":"16:10","baseScale":"1:1","dynamicCamera":true}}}},
	 "parts":{"gameSets":{"s1":["Snake"],"cr":["Crystal"],"c1":["Arena"]},"entitiesOnCanvas":{"Arena":"vimp","Snake":"vimp","Crystal":"vimp"}},
	 "snapshot":` + string(schema.Keys) + `}`)
}

func TestWindowSnakesScene(t *testing.T) {
	cfg := snakesConfig(t)
	schema := mustSchema(t, cfg)
	s1 := schema.Key("s1")
	row := make([]float32, 37)
	for i := range 16 {
		row[2*i], row[2*i+1] = 1280-float32(i)*12, 1280
	}
	row[33], row[35] = 20, 0 // radius 20, colour 0 (ff4d4d)
	core := &fakeCore{my: 1, hot: clientcore.Hot{Flags: clientcore.HotGame | clientcore.HotCamera, Camera: [2]float32{1280, 1280},
		Actors: []clientcore.Record{{Schema: s1, ID: 1, Fields: row}}},
		frames: []clientcore.EventFrame{{HasCamera: true, Camera: clientcore.FrameCamera{X: 1280, Y: 1280, ForceReset: true}}}}
	var grid [20][20]int
	for y := range grid {
		for x := range grid[y] {
			grid[y][x] = 1
		}
	}
	gj, _ := json.Marshal(grid)
	g := newScene(t, sceneOptions{config: cfg, core: core, // recognised from CONFIG_DATA
		mapJSON: []byte(`{"setId":"c1","scale":1,"step":128,"physicsStatic":[],"physicsDynamic":[],"layers":{"1":[1]},"map":` + string(gj) + `}`)})
	px := make([]byte, winW*winH*4)
	run(t, g, 20, func(screen *ebiten.Image, frame int) {
		if frame == 19 {
			screen.ReadPixels(px)
		}
	})
	if g.err != nil || g.w.GameID() != "snakes" {
		t.Fatalf("game %q err %v", g.w.GameID(), g.err)
	}
	// 16:10 in 960×540: 864×540 centred, letterbox bars 48 px wide.
	if c := pixel(px, 10, winH/2); !near(c, 0, 0, 0, 2) {
		t.Errorf("letterbox %v, want black", c)
	}
	if !around(px, winW/2, winH/2, 1, func(c color.RGBA) bool { return near(c, 0xff, 0x4d, 0x4d, 10) }) {
		t.Errorf("head %v, want ff4d4d", pixel(px, winW/2, winH/2))
	}
	if c := pixel(px, winW/2+150, winH/2+100); !near(c, 0x14, 0x1c, 0x30, 4) {
		t.Errorf("arena floor %v, want 141c30", c)
	}
}

// An unknown game (the engine's mini-game fixture, from a real capture) is
// drawn by the generic renderer: entities as discs in their team colour,
// its map tiles procedurally.
func TestWindowGenericGame(t *testing.T) {
	f, err := os.Open(sharedPath(t, "captures/minigame-dedicated.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cfg, mp []byte
	dec := json.NewDecoder(f)
	for dec.More() && (cfg == nil || mp == nil) {
		var line struct {
			Dir     string          `json:"dir"`
			Port    *int            `json:"port"`
			Payload json.RawMessage `json:"payload"`
		}
		if err := dec.Decode(&line); err != nil {
			t.Fatal(err)
		}
		if line.Dir == "s2c" && line.Port != nil {
			switch *line.Port {
			case 0:
				cfg = line.Payload
			case 3:
				mp = line.Payload
			}
		}
	}
	schema := mustSchema(t, cfg)
	a1 := schema.Key("a1")
	core := &fakeCore{my: 1, hot: clientcore.Hot{Flags: clientcore.HotGame | clientcore.HotCamera, Camera: [2]float32{64, 64},
		Actors: []clientcore.Record{{Schema: a1, ID: 1, Fields: []float32{64, 64, 0, 1}}}},
		frames: []clientcore.EventFrame{{HasCamera: true, Camera: clientcore.FrameCamera{X: 64, Y: 64, ForceReset: true}}}}
	g := newScene(t, sceneOptions{config: cfg, mapJSON: mp, core: core, gameID: "miniGame", noAntiAlias: true})
	px := make([]byte, winW*winH*4)
	run(t, g, 20, func(screen *ebiten.Image, frame int) {
		if frame == 19 {
			screen.ReadPixels(px)
		}
	})
	if g.err != nil || g.w.GameID() != "generic" {
		t.Fatalf("game %q err %v", g.w.GameID(), g.err)
	}
	if !around(px, winW/2, winH/2, 4, func(c color.RGBA) bool { return near(c, 0x77, 0xee, 0xdd, 12) }) {
		t.Errorf("actor %v, want team colour 77eedd", pixel(px, winW/2, winH/2))
	}
	// The 4×4 map of 32 u cells (72 px at scale 2.25) is drawn with procedural
	// tiles where its one layer draws (tile 0, the floor); the wall ring is in
	// no layer, so the transparent canvas shows black there.
	if c := pixel(px, winW/2-108, winH/2-108); !near(c, 0, 0, 0, 2) {
		t.Errorf("wall cell %v, want undrawn", c)
	}
	if c := pixel(px, winW/2-30, winH/2-30); !near(c, 0x3d, 0x4a, 0x32, 6) {
		t.Errorf("floor tile %v, want procedural green", c)
	}
}

// Single parts drawn by the Ebiten backend, checked pixel by pixel with a
// tolerance: a bomb (white rim, dark fill), a wreck (dark greys), a radar
// dot, all on the #222 canvas with no map.
func TestWindowPartImages(t *testing.T) {
	cfg := tanksConfig(t)
	schema := mustSchema(t, cfg)
	m1, w2 := schema.Key("m1"), schema.Key("w2")
	core := &fakeCore{my: 9}
	core.frames = []clientcore.EventFrame{{
		Blocks: []clientcore.Block{
			{Schema: w2, Rows: []clientcore.Row{{ID: 1, Fields: []float32{40, 0, 0, 8, 300, 1}}}}, // label "0"
			{Schema: m1, Rows: []clientcore.Row{{ID: 2, Fields: []float32{-40, 0, 0, 0, 0, 0, 0, 0, 2, 1, 0}}}},
		},
		HasCamera: true, Camera: clientcore.FrameCamera{ForceReset: true},
	}}
	core.hot.Flags = clientcore.HotCamera
	g := newScene(t, sceneOptions{config: cfg, mapJSON: []byte(`{"setId":"c1","step":32,"map":[]}`), core: core, gameID: "tanks"})
	px := make([]byte, winW*winH*4)
	run(t, g, 5, func(screen *ebiten.Image, frame int) {
		if frame == 4 {
			screen.ReadPixels(px)
		}
	})
	// Scale 2.5 px/u: the 8 u bomb is 20 px wide, centred 100 px right of the centre.
	bx, by := winW/2+100, winH/2
	if c := pixel(px, bx-10, by); !(c.R > 150 && c.R == c.G && c.G == c.B) {
		t.Errorf("bomb rim %v, want white", c)
	}
	if c := pixel(px, bx-7, by); !near(c, 0x0f, 0x0f, 0x0f, 12) {
		t.Errorf("bomb fill %v, want 0f0f0f", c)
	}
	if !around(px, bx, by, 3, func(c color.RGBA) bool { return c.R > 200 && c.G > 200 }) {
		t.Errorf("bomb countdown digit missing at %v", pixel(px, bx, by))
	}
	if c := pixel(px, bx-40, by); !near(c, 0x22, 0x22, 0x22, 2) {
		t.Errorf("canvas %v, want #222", c)
	}
	// The wreck, 100 px left of the centre: dark greys, no team colour.
	wx := winW/2 - 100
	if c := pixel(px, wx, by); !(c.R < 0x40 && c.R == c.G && c.G == c.B) {
		t.Errorf("wreck %v, want dark grey", c)
	}
	// The radar shows the wreck as its grey cross, 40 u left of its centre (5 px at 0.13 px/u).
	rx, ry := int(math.Floor(float64(winW)*0.99-75)), 35+75
	if !around(px, rx-5, ry, 2, func(c color.RGBA) bool { return c.R < 0x50 && c.G < 0x60 }) {
		t.Errorf("radar cross %v, want dark", pixel(px, rx-5, ry))
	}
}

// writeTestPNG saves an image for a person to look at (RENDER_SHOT_DIR).
func writeTestPNG(t testing.TB, img *ebiten.Image, path string) {
	b := img.Bounds()
	rgba := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	img.ReadPixels(rgba.Pix)
	f, err := os.Create(path)
	if err != nil {
		t.Error(err)
		return
	}
	defer f.Close()
	if err := png.Encode(f, rgba); err != nil {
		t.Error(err)
	}
}
