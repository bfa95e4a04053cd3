// Package window is the client's window: an Ebiten game whose Update runs
// one tick of the game loop with the keyboard and pointer as its input, and
// whose Draw draws the loop's world, then the HUD and the net graph above it.
// Window chores live here too: fullscreen (F11, Alt+Enter), screenshots
// (F12, or once after a delay), the net graph toggle (F3), the device scale
// factor, and the loading bar while a game's images and sounds download.
package window

import (
	"context"
	"errors"
	"fmt"
	"image/color"
	"log/slog"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"
	"github.com/hajimehoshi/ebiten/v2/text/v2"

	"vimpclient/assets"
	"vimpclient/gameloop"
	hudview "vimpclient/hud/view"
	"vimpclient/input"
	"vimpclient/input/ebiteninput"
	netview "vimpclient/netgraph/view"
	"vimpclient/render"
)

// Options configure a window.
type Options struct {
	Title         string
	Width, Height int // initial size in logical px (default 1280×720)
	Fullscreen    bool
	NoVsync       bool
	// NetGraph shows the net graph from the start (F3 toggles it).
	NetGraph bool
	// Screenshot, if set, writes a PNG of the window ScreenshotAfter after
	// the start, then closes the window.
	Screenshot      string
	ScreenshotAfter time.Duration
	Log             *slog.Logger
	// Clock is the loop's clock (nil: time.Now).
	Clock func() time.Time
}

// Window is the ebiten.Game of the client. Build it with New; Run opens it.
type Window struct {
	ctx      context.Context
	opts     Options
	play     play
	renderer *render.Renderer
	hud      *hudview.View
	graph    *netview.View
	graphOf  *gameloop.Loop // the loop graph shows
	reader   ebiteninput.Reader
	start    time.Time
	dpr      float64
	shotDone bool
	quit     bool
	err      error
	pending  string // screenshot path to write at the end of the next Draw
	loadBar  *ebiten.Image
	loadOf   assets.Progress // what loadText says
	loadText string
	loadOp   text.DrawOptions
}

// play is what a window plays: a live game loop, or a demo whose loop is
// rebuilt when it seeks back.
type play interface {
	Loop() *gameloop.Loop
	Tick(now time.Time)
	// Controls reads the play's own keys (a demo's pause and seek) before
	// the tick.
	Controls(w *Window)
	// Overlay draws above the HUD (a demo's timeline).
	Overlay(w *Window, screen *ebiten.Image)
}

// live plays a game loop, with the keyboard and pointer as its input.
type live struct{ loop *gameloop.Loop }

func (l live) Loop() *gameloop.Loop           { return l.loop }
func (l live) Tick(now time.Time)             { l.loop.Tick(now) }
func (l live) Controls(*Window)               {}
func (l live) Overlay(*Window, *ebiten.Image) {}

// New builds the window for loop, drawing with renderer (whose textures the
// loop's world must use).
func New(ctx context.Context, loop *gameloop.Loop, renderer *render.Renderer, o Options) (*Window, error) {
	w, err := newWindow(ctx, live{loop}, renderer, o)
	if err != nil {
		return nil, err
	}
	loop.SetInput(&keyboard{w: w})
	return w, nil
}

func newWindow(ctx context.Context, p play, renderer *render.Renderer, o Options) (*Window, error) {
	if o.Log == nil {
		o.Log = slog.Default()
	}
	if o.Clock == nil {
		o.Clock = time.Now
	}
	hv, err := hudview.New()
	if err != nil {
		return nil, fmt.Errorf("window: %w", err)
	}
	w := &Window{ctx: ctx, opts: o, play: p, renderer: renderer, hud: hv,
		graph: netview.New(p.Loop().NetGraph(), o.NetGraph), graphOf: p.Loop(), start: o.Clock(), dpr: 1}
	return w, nil
}

// Run opens the window and plays until ctx ends, the window closes or the
// screenshot is written.
func (w *Window) Run() error {
	o := w.opts
	if o.Width <= 0 || o.Height <= 0 {
		o.Width, o.Height = 1280, 720
	}
	if o.Title == "" {
		o.Title = "vimp"
	}
	ebiten.SetWindowTitle(o.Title)
	ebiten.SetWindowSize(o.Width, o.Height)
	ebiten.SetWindowResizingMode(ebiten.WindowResizingModeEnabled)
	ebiten.SetVsyncEnabled(!o.NoVsync)
	ebiten.SetFullscreen(o.Fullscreen)
	ebiten.SetTPS(ebiten.SyncWithFPS) // one tick per displayed frame
	ebiten.SetRunnableOnUnfocused(true)
	if err := ebiten.RunGameWithOptions(w, &ebiten.RunGameOptions{}); err != nil {
		return fmt.Errorf("window: %w", err)
	}
	return w.err
}

// keyboard is the window's game loop input: Ebiten's keys, text, pointer,
// touches and the first standard gamepad, through the same controller a key
// script feeds.
type keyboard struct {
	w      *Window
	pads   ebiteninput.PadReader
	pad    input.Pad
	padCtl *input.Controller // the controller pad's map was derived for
	state  input.PadState
	hadPad bool
}

func (k *keyboard) Configure(input.Config) error { return nil }

func (k *keyboard) Feed(t *gameloop.InputTick) {
	r := &k.w.reader
	r.Scale = k.w.dpr
	if t.HUD.AuthOpen() {
		ww, wh := k.w.play.Loop().World().Size()
		r.UpdateForm(t.HUD, ww, wh)
		return
	}
	c := t.Controller
	if c == nil {
		return
	}
	r.Update(c, t.HUD, t.NowMs)
	if c != k.padCtl {
		k.padCtl, k.pad = c, input.Pad{Map: input.DefaultPadMap(c.Config())}
	}
	ww, wh := k.w.play.Loop().World().Size()
	switch has := k.pads.Read(&k.state); {
	case has:
		k.pad.Update(c, &k.state, ww, wh, t.NowMs)
	case k.hadPad:
		k.pad.Release(c, ww, wh, t.NowMs) // unplugged: let go of what it held
	}
	k.hadPad = k.pads.Connected()
}

// Update implements ebiten.Game: the window's own keys, then one tick.
func (w *Window) Update() error {
	if w.quit || w.ctx.Err() != nil {
		return ebiten.Termination
	}
	alt := ebiten.IsKeyPressed(ebiten.KeyAlt)
	if inpututil.IsKeyJustPressed(ebiten.KeyF11) || (alt && inpututil.IsKeyJustPressed(ebiten.KeyEnter)) {
		ebiten.SetFullscreen(!ebiten.IsFullscreen())
	}
	if inpututil.IsKeyJustPressed(ebiten.KeyF12) {
		if p, err := ScreenshotPath(time.Now()); err == nil {
			w.pending = p
		} else {
			w.opts.Log.Warn("no screenshot folder", "err", err)
		}
	}
	now := w.opts.Clock()
	w.play.Controls(w)
	w.play.Tick(now)
	if l := w.play.Loop(); l != w.graphOf {
		// A demo that seeked back plays on a new loop: graph its network.
		w.graph, w.graphOf = netview.New(l.NetGraph(), w.graph.Visible), l
	}
	w.graph.Update()
	w.renderer.Poll()
	if w.opts.Screenshot != "" && !w.shotDone && now.Sub(w.start) >= w.opts.ScreenshotAfter {
		w.pending = w.opts.Screenshot
		w.shotDone = true
	}
	return nil
}

// Draw implements ebiten.Game.
func (w *Window) Draw(screen *ebiten.Image) {
	screen.Fill(color.Black)
	loop := w.play.Loop()
	w.renderer.Draw(screen, loop.World(), w.dpr)
	w.hud.Draw(screen, loop.HUD(), loop.NowMs(), w.dpr)
	w.graph.DrawAt(screen, w.hud.Layout().NetGraph.X, w.hud.Layout().NetGraph.Y, w.dpr)
	w.play.Overlay(w, screen)
	if p, loading := w.renderer.Loading(); loading {
		w.drawLoading(screen, p)
	}
	if w.pending != "" {
		path := w.pending
		w.pending = ""
		if err := WritePNG(screen, path); err != nil {
			w.opts.Log.Error("screenshot failed", "err", err)
			if w.opts.Screenshot == path {
				w.err = err
			}
		} else {
			w.opts.Log.Info("screenshot written", "path", path)
		}
		if w.opts.Screenshot == path {
			w.quit = true
		}
	}
}

// drawLoading covers the world with a progress bar while the game's assets
// (images and sounds) download, the file count and percentage under it.
func (w *Window) drawLoading(screen *ebiten.Image, p assets.Progress) {
	if w.loadBar == nil {
		w.loadBar = ebiten.NewImage(1, 1)
		w.loadBar.Fill(color.White)
	}
	b := screen.Bounds()
	screen.Fill(color.Black)
	bw, bh := float64(b.Dx())*0.4, 8*w.dpr
	x, y := (float64(b.Dx())-bw)/2, float64(b.Dy())/2
	var op ebiten.DrawImageOptions
	op.GeoM.Scale(bw, bh)
	op.GeoM.Translate(x, y)
	op.ColorScale.Scale(0.25, 0.25, 0.25, 1)
	screen.DrawImage(w.loadBar, &op)
	op.GeoM.Reset()
	op.GeoM.Scale(bw*p.Fraction(), bh)
	op.GeoM.Translate(x, y)
	op.ColorScale.Reset()
	screen.DrawImage(w.loadBar, &op)

	if p != w.loadOf || w.loadText == "" {
		w.loadOf = p
		w.loadText = loadingText(p)
	}
	face := w.hud.Fonts().Face(false, 14*w.dpr)
	tw, _ := text.Measure(w.loadText, face, 0)
	w.loadOp.GeoM.Reset()
	w.loadOp.GeoM.Translate((float64(b.Dx())-tw)/2, y+bh+8*w.dpr)
	w.loadOp.ColorScale.Reset()
	w.loadOp.ColorScale.Scale(0.8, 0.8, 0.8, 1)
	text.Draw(screen, w.loadText, face, &w.loadOp)
}

// loadingText is the line under the loading bar: files done of the total,
// the percentage, and the failures if any.
func loadingText(p assets.Progress) string {
	s := fmt.Sprintf("Loading assets: %d / %d files (%d%%)", p.Done, p.Total, int(p.Fraction()*100))
	if p.Failed > 0 {
		s += fmt.Sprintf(", %d unavailable", p.Failed)
	}
	return s
}

// Layout implements ebiten.Game.
func (w *Window) Layout(outsideWidth, outsideHeight int) (int, int) {
	lw, lh := w.LayoutF(float64(outsideWidth), float64(outsideHeight))
	return int(lw), int(lh)
}

// LayoutF implements ebiten.LayoutFer: the world is laid out in logical px
// and drawn at device resolution (HiDPI).
func (w *Window) LayoutF(outsideWidth, outsideHeight float64) (float64, float64) {
	dpr := 1.0
	if m := ebiten.Monitor(); m != nil {
		dpr = m.DeviceScaleFactor()
	}
	if dpr <= 0 {
		dpr = 1
	}
	w.dpr = dpr
	wd := w.play.Loop().World()
	wd.SetDeviceScale(dpr)
	if ww, wh := wd.Size(); outsideWidth != ww || outsideHeight != wh {
		wd.Resize(outsideWidth, outsideHeight)
	}
	return outsideWidth * dpr, outsideHeight * dpr
}

// ErrNoDisplay is returned when no window can be opened.
var ErrNoDisplay = errors.New("no display (DISPLAY is not set); use -headless, or run under a desktop session or xvfb-run")
