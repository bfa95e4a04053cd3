package world

import (
	"context"
	"encoding/json"
	"image"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"vimpclient/clientcore"
	"vimpclient/parts"
	"vimpclient/registry"
	"vimpclient/testkit/capturetest"
)

// tanksConfig is the world's part of a tanks CONFIG_DATA: the two canvases
// with the tanks dynamic camera, the tanks parts, the engine's tanks schema.
func tanksConfig(t testing.TB) (*Config, *parts.Game) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(capturetest.SharedDir(t), "conformance", "schemas", "tanks.json"))
	if err != nil {
		t.Fatal(err)
	}
	schema, err := clientcore.ParseSchema(b)
	if err != nil {
		t.Fatal(err)
	}
	specs, tune, pointer, err := ParseCanvasManager(json.RawMessage(`{
	  "dynamicCamera":{"lookAheadFactor":30,"zoomOutFactor":0.5,"maxZoomOut":0.6,"smoothnessPosition":0.008,"smoothnessZoom":0.005,"smoothnessVelocity":0.15},
	  "canvases":{"vimp":{"width":960,"height":600,"aspectRatio":"16:9","baseScale":"5:1","dynamicCamera":true,"shakeCamera":true},
	              "radar":{"width":150,"height":150,"fixSize":"150","baseScale":"1:8"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	pc, err := parts.ParsePartsConfig(json.RawMessage(`{"gameSets":{"c1":["Map","MapRadar"],"c2":["Map"],"m1":["Tank","TankRadar","Smoke","Tracks"],"w1":["ShotEffect"],"w2":["Bomb"],"w2e":["ExplosionEffect"]},
	   "entitiesOnCanvas":{"Map":"vimp","MapRadar":"radar","TankRadar":"radar","Tank":"vimp","ShotEffect":"vimp","Bomb":"vimp","ExplosionEffect":"vimp","Smoke":"vimp","Tracks":"vimp"}}`))
	if err != nil {
		t.Fatal(err)
	}
	_, pg, ok := registry.Default().Pick("tanks", pc, func() float64 { return 0.5 })
	if !ok {
		t.Fatal("tanks parts not recognised")
	}
	return &Config{Schema: schema, Canvases: specs, Camera: tune, PointerCanvas: pointer, Parts: pc}, pg
}

type fakeCore struct {
	frames []clientcore.EventFrame
	hot    clientcore.Hot
	my     uint8 // the local player's game id, when known
	known  bool
}

func (c *fakeCore) Sample(float64) *clientcore.Hot {
	c.hot.Flags &^= clientcore.HotFrames
	if len(c.frames) > 0 {
		c.hot.Flags |= clientcore.HotFrames
	}
	return &c.hot
}

func (c *fakeCore) TakeFramesUpTo(int, int) []clientcore.EventFrame {
	f := c.frames
	c.frames = nil
	return f
}

func (c *fakeCore) MyGameID() (uint8, bool) { return c.my, c.known }

// Each tick hands the scene the local player's id as the core knows it
// then, before any part runs: a part reads it as data.
func TestTickTellsLocal(t *testing.T) {
	cfg, pg := tanksConfig(t)
	core := &fakeCore{}
	w := New(Options{Rand: func() float64 { return 0.5 }})
	if err := w.Configure(cfg, pg); err != nil {
		t.Fatal(err)
	}
	w.SetCore(core)
	w.Tick(16, 16)
	if l := w.Scene().Local(); l.Known {
		t.Fatalf("local %+v before the core knows the player", l)
	}
	core.my, core.known = 4, true
	w.Tick(32, 16)
	if l := w.Scene().Local(); l != (parts.Local{ID: 4, Known: true}) {
		t.Fatalf("local %+v, want 4", l)
	}
	core.known = false // a reset
	w.Tick(48, 16)
	if l := w.Scene().Local(); l.Is(4) {
		t.Fatal("the local player outlived the core's reset")
	}
}

// Each event frame's camera and then the hot camera are applied in that
// order, each advancing the camera smoothing by one step; the stage is
// computed once the tick is complete.
func TestTickCameraOrder(t *testing.T) {
	cfg, pg := tanksConfig(t)
	core := &fakeCore{}
	core.frames = []clientcore.EventFrame{
		{HasCamera: true, Camera: clientcore.FrameCamera{X: 0, Y: 0, ForceReset: true}},
		{HasCamera: true, Camera: clientcore.FrameCamera{X: 2, Y: 0}},
	}
	core.hot = clientcore.Hot{Flags: clientcore.HotCamera, Camera: [2]float32{4, 0}}
	var listener [][3]float64
	w := New(Options{Rand: func() float64 { return 0.5 },
		OnCamera: func(x, y, zoom float64) { listener = append(listener, [3]float64{x, y, zoom}) }})
	w.Resize(1920, 1080)
	if err := w.Configure(cfg, pg); err != nil {
		t.Fatal(err)
	}
	w.SetCore(core)
	w.Tick(16, 16)
	if len(listener) != 3 || listener[0][0] != 0 || listener[1][0] != 2 || listener[2][0] != 4 {
		t.Fatalf("camera applications %v, want frames then hot: x 0, 2, 4", listener)
	}
	// The same three updates on a bare camera give the same stage: the
	// camera's worked table, its first two ticks (x = 2, then 4).
	st := w.Canvases()[0].Stage
	if math.Abs(st.X-(960-4.204624*4.989331)) > 1e-3 || st.Y != 540 {
		t.Fatalf("stage %+v, want the worked table's tick-2 stage", st)
	}
	// The radar (no dynamic camera) centres on the raw point at 0.13 px/u.
	if r := w.Canvases()[1].Stage; math.Abs(r.X-(75-4*0.13)) > 1e-9 || r.S != 0.13 {
		t.Fatalf("radar stage %+v", r)
	}
	if x, y, ok := w.ScreenToWorld(960, 540); !ok || math.Abs(x-4.204624) > 1e-3 || y != 0 {
		t.Fatalf("centre -> %v,%v", x, y)
	}
	w.SetDeviceScale(2)
	if x, _, ok := w.CursorToWorld(1920, 1080); !ok || math.Abs(x-4.204624) > 1e-3 {
		t.Fatalf("device px centre -> %v", x)
	}
}

// A world with nothing configured ignores ticks, maps and clears.
func TestUnconfiguredWorld(t *testing.T) {
	w := New(Options{})
	w.SetCore(&fakeCore{})
	w.Tick(16, 16)
	w.SetMap(nil)
	w.Clear(nil, true)
	if w.Configured() || w.GameID() != "" || w.Stage("vimp") != nil {
		t.Fatal("an unconfigured world reports a game")
	}
	if _, _, ok := w.ScreenToWorld(1, 1); ok {
		t.Fatal("a world point without canvases")
	}
}

// bakeLog records what the world bakes.
type bakeLog struct {
	parts.NoTextures
	baked []map[string]*image.RGBA
}

func (b *bakeLog) Bake(imgs map[string]*image.RGBA) { b.baked = append(b.baked, imgs) }

// A palette change bakes the game's team textures again at once, and a
// later configuration bakes them in that palette too.
func TestSetPaletteRebakes(t *testing.T) {
	tex := &bakeLog{}
	w := New(Options{Textures: tex, Rand: func() float64 { return 0.5 }})
	w.SetPalette("colorblind") // before any game: remembered
	if len(tex.baked) != 0 {
		t.Fatalf("baked %d times with no game", len(tex.baked))
	}
	cfg, pg := tanksConfig(t)
	if err := w.Configure(cfg, pg); err != nil {
		t.Fatal(err)
	}
	w.AwaitTextures()
	gun := func(i int) color.RGBA { return tex.baked[i]["tank.gun.1"].RGBAAt(15, 11) }
	if len(tex.baked) != 1 || gun(0).R != 0x8a {
		t.Fatalf("configure: %d bakes", len(tex.baked))
	}
	w.SetPalette("standard")
	w.AwaitTextures()
	if len(tex.baked) != 2 || gun(1).R != 0x55 || len(tex.baked[1]) != 4 {
		t.Fatalf("palette change: %d bakes", len(tex.baked))
	}
	w.SetPalette("standard")
	if len(tex.baked) != 2 {
		t.Fatal("the same palette baked again")
	}
}

// countingGame wraps the tanks game's bakers with counters.
func countingGame(pg *parts.Game) (*parts.Game, *int, *int) {
	var bakes, teams int
	g := *pg
	bake, bakeTeams := g.Bake, g.BakeTeams
	g.Bake = func(rnd func() float64) map[string]*image.RGBA { bakes++; return bake(rnd) }
	g.BakeTeams = func(p string) map[string]*image.RGBA { teams++; return bakeTeams(p) }
	return &g, &bakes, &teams
}

// A game's textures are drawn once however often the host configures the
// world (every map change and reconnect), and once per palette; each
// configuration still hands them to the textures.
func TestBakesDrawnOncePerGameAndPalette(t *testing.T) {
	tex := &bakeLog{}
	w := New(Options{Textures: tex, Rand: func() float64 { return 0.5 }})
	cfg, pg := tanksConfig(t)
	g, bakes, teams := countingGame(pg)
	w.SetPalette("colorblind")
	for range 3 {
		if err := w.Configure(cfg, g); err != nil {
			t.Fatal(err)
		}
		w.AwaitTextures()
	}
	w.SetPalette("standard")
	w.AwaitTextures()
	w.SetPalette("colorblind")
	if w.Preparing() {
		t.Fatal("a palette drawn before is drawn again")
	}
	if *bakes != 1 || *teams != 2 {
		t.Fatalf("drawn: %d game bakes, %d team bakes; want 1 and 2", *bakes, *teams)
	}
	if len(tex.baked) != 5 {
		t.Fatalf("handed to the textures %d times, want 5 (3 configurations, 2 palette changes)", len(tex.baked))
	}
}

// A world whose textures draw nothing (headless) draws no textures at all.
func TestHeadlessWorldBakesNothing(t *testing.T) {
	w := New(Options{Rand: func() float64 { return 0.5 }})
	cfg, pg := tanksConfig(t)
	g, bakes, teams := countingGame(pg)
	w.SetPalette("colorblind")
	if err := w.Configure(cfg, g); err != nil {
		t.Fatal(err)
	}
	if *bakes != 0 || *teams != 0 {
		t.Fatalf("a headless world drew %d game and %d team bakes", *bakes, *teams)
	}
}

// gatedGame is the tanks game whose bakers draw only once gate is closed,
// each run saying on started that it began.
func gatedGame(pg *parts.Game, gate <-chan struct{}, started chan<- string) *parts.Game {
	g := *pg
	bake, bakeTeams := g.Bake, g.BakeTeams
	g.Bake = func(rnd func() float64) map[string]*image.RGBA {
		started <- "game"
		<-gate
		return bake(rnd)
	}
	g.BakeTeams = func(p string) map[string]*image.RGBA {
		started <- p
		<-gate
		return bakeTeams(p)
	}
	return &g
}

// Configure returns while the game's textures are still being drawn, and
// the ticks go on meanwhile: the textures are installed by the first tick
// after the bakers are done, the team colours over the game's own.
func TestConfigureDoesNotWaitForTheBake(t *testing.T) {
	tex := &bakeLog{}
	w := New(Options{Textures: tex, Rand: func() float64 { return 0.5 }})
	w.SetPalette("colorblind")
	cfg, pg := tanksConfig(t)
	gate, started := make(chan struct{}), make(chan string, 4)
	if err := w.Configure(cfg, gatedGame(pg, gate, started)); err != nil {
		t.Fatal(err)
	}
	if got := <-started; got != "game" {
		t.Fatalf("the bake began with %q", got)
	}
	for i := range 3 {
		w.Tick(float64(i)*16, 16)
	}
	if len(tex.baked) != 0 || !w.Preparing() {
		t.Fatalf("while the bakers draw: %d bakes installed, preparing %v", len(tex.baked), w.Preparing())
	}
	close(gate)
	w.AwaitTextures()
	if w.Preparing() || len(tex.baked) != 1 {
		t.Fatalf("once drawn: %d bakes installed, want the game's and its team colours in one; preparing %v", len(tex.baked), w.Preparing())
	}
	if _, ok := tex.baked[0]["funnel.0"]; !ok {
		t.Fatal("the game's own textures are not installed")
	}
	if c := tex.baked[0]["tank.gun.1"].RGBAAt(15, 11); c.R != 0x8a {
		t.Fatalf("team colours %v, not the colour-blind palette's over the game's own", c)
	}
}

// A configuration that arrives while the last one's textures are drawn
// supersedes it: the old bake stops after the step it was drawing, nothing
// of it is installed, and a palette chosen meanwhile is drawn once the new
// bake is in.
func TestReconfigureCancelsTheBake(t *testing.T) {
	tex := &bakeLog{}
	w := New(Options{Textures: tex, Rand: func() float64 { return 0.5 }})
	w.SetPalette("colorblind")
	cfg, pg := tanksConfig(t)
	oldGate, oldStarted := make(chan struct{}), make(chan string, 4)
	if err := w.Configure(cfg, gatedGame(pg, oldGate, oldStarted)); err != nil {
		t.Fatal(err)
	}
	<-oldStarted
	old := w.bake.job
	gate, started := make(chan struct{}), make(chan string, 4)
	if err := w.Configure(cfg, gatedGame(pg, gate, started)); err != nil {
		t.Fatal(err)
	}
	close(oldGate)
	<-old.done
	select {
	case got := <-oldStarted:
		t.Fatalf("the superseded bake went on to draw %q", got)
	default:
	}
	w.Tick(16, 16)
	if len(tex.baked) != 0 {
		t.Fatalf("%d bakes installed from the superseded bake", len(tex.baked))
	}
	w.SetPalette("standard") // during the bake: drawn after it
	close(gate)
	w.AwaitTextures()
	var order []string
	for len(started) > 0 {
		order = append(order, <-started)
	}
	if want := []string{"game", "colorblind", "standard"}; !slices.Equal(order, want) {
		t.Fatalf("drawn %v, want %v", order, want)
	}
	if len(tex.baked) != 2 || tex.baked[1]["tank.gun.1"].RGBAAt(15, 11).R != 0x55 {
		t.Fatalf("%d bakes installed, the last not the standard palette's", len(tex.baked))
	}
}

// When the world's context ends while its textures are drawn (the match
// is over), nothing of the bake is installed and nothing more is drawn.
func TestBakeEndsWithTheContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	tex := &bakeLog{}
	w := New(Options{Textures: tex, Rand: func() float64 { return 0.5 }, Context: ctx})
	w.SetPalette("colorblind")
	cfg, pg := tanksConfig(t)
	gate, started := make(chan struct{}), make(chan string, 4)
	if err := w.Configure(cfg, gatedGame(pg, gate, started)); err != nil {
		t.Fatal(err)
	}
	<-started
	cancel()
	close(gate)
	w.AwaitTextures()
	if len(tex.baked) != 0 || w.Preparing() {
		t.Fatalf("%d bakes installed after the context ended, preparing %v", len(tex.baked), w.Preparing())
	}
	if len(started) != 0 {
		t.Fatalf("the team colours were drawn after the context ended")
	}
}
