// Package render is the Ebiten window and render loop: each tick it samples
// the client core, applies event frames, hot data and the camera in that
// order, then draws every canvas once (seed 002, clientcore.md §6.5).
package render

import (
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"

	"vimpclient/parts"
	"vimpclient/parts/snakes"
	"vimpclient/parts/tanks"
	"vimpclient/render/assets"
)

// Source is filled by the client wiring. Pump runs on the game loop at the
// start of every tick, before the core is sampled: there the wiring hands
// the host messages it queued since the last tick to the core (PushFrame,
// SetMap, Reset, Resync) and to the world (SetConfig, SetMap, Clear,
// SetCore), in arrival order. The core is owned by the game loop.
//
// A typical Pump, with q the wiring's queue of host messages:
//
//	for _, m := range q.drain() {
//		switch m.port {
//		case protocol.ConfigData: core = clientcore.New(schema, opts); w.SetConfig(m.raw); w.SetCore(core)
//		case protocol.MapData:    core.SetMap(); w.SetMap(m.raw)
//		case protocol.Clear:      w.Clear(keys, all); core.Reset()
//		case snapshot frame:      core.PushFrame(m.bytes, nowMs)
//		}
//	}
type Source interface {
	Pump(nowMs float64, w *World)
}

// Resyncer is implemented by a Source that wants to know about long render
// pauses: Resync is called (before Pump) when at least 3000 ms passed since
// the previous tick (minimised window, suspended process), so the wiring
// can call the core's Resync (clientcore.md §6.1).
type Resyncer interface {
	Resync()
}

// Options configure Run.
type Options struct {
	Title      string
	Width      int // initial window size, logical px (default 1280×720)
	Height     int
	GameID     string // manifest id of the room's game ("" = recognise from CONFIG_DATA)
	AssetsBase string // absolute URL of the game's assets ("" = no host images: fallbacks)
	CacheDir   string // image cache ("" = the user cache dir; "-" = none)
	NoVsync    bool
	Fullscreen bool
	Log        *slog.Logger
	// Sounds is the sound manager the parts play through (nil: silent).
	Sounds parts.Sounds
	// OnCamera receives every camera application: the raw point (the audio
	// listener) and the scene zoom for audio.
	OnCamera func(x, y, zoom float64)
	// AfterTick runs right after each render tick (frames, hot data,
	// camera applied): the place for the sound manager's per-tick update.
	AfterTick func(nowMs float64)
	// Overlay draws the UI layers above the world (chat, HUD, informers).
	Overlay func(screen *ebiten.Image)
	// Screenshot, if set, writes a PNG of the window after ScreenshotAfter
	// and ends Run.
	Screenshot      string
	ScreenshotAfter time.Duration
	// Rand seeds the world's randomness (nil = random).
	Rand func() float64
}

// Game is the ebiten.Game of the client window.
type Game struct {
	ctx      context.Context
	opts     Options
	src      Source
	world    *World
	start    time.Time
	last     float64
	dpr      float64
	shotDone bool
	quit     bool
	err      error
	pending  string // screenshot path to write at the end of the next Draw
	loadBar  *ebiten.Image
}

// NewGame builds the game; Run wraps it in a window.
func NewGame(ctx context.Context, o Options, src Source) (*Game, error) {
	if o.Log == nil {
		o.Log = slog.Default()
	}
	if o.Rand == nil {
		o.Rand = rand.Float64
	}
	var loader *assets.Loader
	if o.AssetsBase != "" {
		dir := o.CacheDir
		switch dir {
		case "-":
			dir = ""
		case "":
			d, err := assets.DefaultCacheDir()
			if err != nil {
				o.Log.Warn("no image cache", "err", err)
			}
			dir = d
		}
		l, err := assets.New(assets.Options{AssetsBase: o.AssetsBase, CacheDir: dir, Log: o.Log})
		if err != nil {
			return nil, fmt.Errorf("render: %w", err)
		}
		loader = l
	}
	tex := newTextures(ctx, loader)
	w := &World{
		log:      o.Log,
		games:    map[string]GameSet{"tanks": tanks.Game, "snakes": func(func() float64) *parts.Game { return snakes.Game() }},
		gameID:   o.GameID,
		rnd:      o.Rand,
		tex:      tex,
		gfx:      newGfx(tex),
		onCamera: o.OnCamera,
		sounds:   o.Sounds,
		winW:     float64(max(1, o.Width)),
		winH:     float64(max(1, o.Height)),
	}
	return &Game{ctx: ctx, opts: o, src: src, world: w, start: time.Now(), dpr: 1}, nil
}

// World returns the world (for tests and the wiring's pointer conversion).
func (g *Game) World() *World { return g.world }

// Run opens the window and runs the loop until ctx ends, the window closes
// or the screenshot is written.
func Run(ctx context.Context, o Options, src Source) error {
	if o.Width <= 0 || o.Height <= 0 {
		o.Width, o.Height = 1280, 720
	}
	if o.Title == "" {
		o.Title = "vimp"
	}
	g, err := NewGame(ctx, o, src)
	if err != nil {
		return err
	}
	ebiten.SetWindowTitle(o.Title)
	ebiten.SetWindowSize(o.Width, o.Height)
	ebiten.SetWindowResizingMode(ebiten.WindowResizingModeEnabled)
	ebiten.SetVsyncEnabled(!o.NoVsync)
	ebiten.SetFullscreen(o.Fullscreen)
	ebiten.SetTPS(ebiten.SyncWithFPS) // one tick per displayed frame
	if err := ebiten.RunGameWithOptions(g, &ebiten.RunGameOptions{}); err != nil {
		return fmt.Errorf("render: %w", err)
	}
	return g.err
}

// gapResync is the render pause after which the wiring should resync.
const gapResync = 3000

// Update implements ebiten.Game: input toggles, then one render tick.
func (g *Game) Update() error {
	if g.quit || g.ctx.Err() != nil {
		return ebiten.Termination
	}
	alt := ebiten.IsKeyPressed(ebiten.KeyAlt)
	if inpututil.IsKeyJustPressed(ebiten.KeyF11) || (alt && inpututil.IsKeyJustPressed(ebiten.KeyEnter)) {
		ebiten.SetFullscreen(!ebiten.IsFullscreen())
	}
	if inpututil.IsKeyJustPressed(ebiten.KeyF12) {
		if p, err := screenshotPath(); err == nil {
			g.pending = p
		} else {
			g.opts.Log.Warn("no screenshot folder", "err", err)
		}
	}
	now := float64(time.Since(g.start).Microseconds()) / 1000
	dt := now - g.last
	if g.last == 0 {
		dt = 0
	}
	g.last = now
	if r, ok := g.src.(Resyncer); ok && dt >= gapResync {
		r.Resync()
	}
	if g.src != nil {
		g.src.Pump(now, g.world)
	}
	g.world.tex.poll()
	g.world.Tick(now, min(dt, 100))
	if g.opts.AfterTick != nil {
		g.opts.AfterTick(now)
	}
	if g.opts.Screenshot != "" && !g.shotDone && time.Since(g.start) >= g.opts.ScreenshotAfter {
		g.pending = g.opts.Screenshot
		g.shotDone = true
	}
	return nil
}

// Draw implements ebiten.Game.
func (g *Game) Draw(screen *ebiten.Image) {
	screen.Fill(color.Black)
	w := g.world
	if w.scene != nil {
		w.Draw(screen, g.dpr)
	}
	if g.opts.Overlay != nil {
		g.opts.Overlay(screen)
	}
	if p, loading := w.tex.progress(); loading {
		g.drawLoading(screen, p)
	}
	if g.pending != "" {
		path := g.pending
		g.pending = ""
		if err := writePNG(screen, path); err != nil {
			g.opts.Log.Error("screenshot failed", "err", err)
			if g.opts.Screenshot == path {
				g.err = err
			}
		} else {
			g.opts.Log.Info("screenshot written", "path", path)
		}
		if g.opts.Screenshot == path {
			g.quit = true
		}
	}
}

// drawLoading covers the world with a progress bar while images download.
func (g *Game) drawLoading(screen *ebiten.Image, p float64) {
	if g.loadBar == nil {
		g.loadBar = ebiten.NewImage(1, 1)
		g.loadBar.Fill(color.White)
	}
	b := screen.Bounds()
	screen.Fill(color.Black)
	bw, bh := float64(b.Dx())*0.4, 8*g.dpr
	x, y := (float64(b.Dx())-bw)/2, float64(b.Dy())/2
	var op ebiten.DrawImageOptions
	op.GeoM.Scale(bw, bh)
	op.GeoM.Translate(x, y)
	op.ColorScale.Scale(0.25, 0.25, 0.25, 1)
	screen.DrawImage(g.loadBar, &op)
	op.GeoM.Reset()
	op.GeoM.Scale(bw*p, bh)
	op.GeoM.Translate(x, y)
	op.ColorScale.Reset()
	screen.DrawImage(g.loadBar, &op)
}

// Layout implements ebiten.Game.
func (g *Game) Layout(outsideWidth, outsideHeight int) (int, int) {
	w, h := g.LayoutF(float64(outsideWidth), float64(outsideHeight))
	return int(w), int(h)
}

// LayoutF implements ebiten.LayoutFer: the world is laid out in logical
// px and drawn at device resolution (HiDPI).
func (g *Game) LayoutF(outsideWidth, outsideHeight float64) (float64, float64) {
	dpr := 1.0
	if m := ebiten.Monitor(); m != nil {
		dpr = m.DeviceScaleFactor()
	}
	if dpr <= 0 {
		dpr = 1
	}
	g.dpr = dpr
	if outsideWidth != g.world.winW || outsideHeight != g.world.winH {
		g.world.resize(outsideWidth, outsideHeight)
	}
	return outsideWidth * dpr, outsideHeight * dpr
}

func writePNG(screen *ebiten.Image, path string) error {
	b := screen.Bounds()
	img := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	screen.ReadPixels(img.Pix)
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("screenshot: %w", err)
		}
	}
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("screenshot: %w", err)
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return fmt.Errorf("screenshot: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("screenshot: %w", err)
	}
	return nil
}

// screenshotPath picks a file under the user's pictures dir (XDG), else
// the user data dir.
func screenshotPath() (string, error) {
	name := "vimp-" + time.Now().Format("20060102-150405.000") + ".png"
	if d := os.Getenv("XDG_PICTURES_DIR"); d != "" {
		return filepath.Join(d, name), nil
	}
	if home, err := os.UserHomeDir(); err == nil {
		if st, err := os.Stat(filepath.Join(home, "Pictures")); err == nil && st.IsDir() {
			return filepath.Join(home, "Pictures", name), nil
		}
	}
	if d := os.Getenv("XDG_DATA_HOME"); d != "" {
		return filepath.Join(d, "vimpclient", "screenshots", name), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", errors.New("no home directory")
	}
	return filepath.Join(home, ".local", "share", "vimpclient", "screenshots", name), nil
}
