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
	"io"
	"log/slog"
	"os"
	"runtime/debug"
	"sync/atomic"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"
	"github.com/hajimehoshi/ebiten/v2/text/v2"

	"vimpclient/assets"
	"vimpclient/gameloop"
	"vimpclient/gamemap"
	"vimpclient/hud"
	"vimpclient/hud/settingsmenu"
	hudview "vimpclient/hud/view"
	"vimpclient/input"
	"vimpclient/input/ebiteninput"
	"vimpclient/internal/memtrim"
	"vimpclient/netgraph"
	netview "vimpclient/netgraph/view"
	"vimpclient/render"
	"vimpclient/settings"
	"vimpclient/world/canvas"
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
	// the start, once the game is in play and its images are loaded (at the
	// latest a minute later), then closes the window.
	Screenshot      string
	ScreenshotAfter time.Duration
	// ScreenshotWhen, if set, decides instead when the screenshot is ready
	// (a test waits for what it will check, or pictures the loading bar).
	ScreenshotWhen func() bool
	Log            *slog.Logger
	// Clock is the loop's clock (nil: time.Now).
	Clock func() time.Time
	// Settings are the player's settings at the start (nil: the
	// defaults); the settings overlay (F10) changes them, and Fullscreen,
	// NoVsync and NetGraph above win over them for this run.
	Settings *settings.Settings
	// SettingsPath and BindingsPath are where the overlay saves the
	// settings and the key bindings ("": not saved).
	SettingsPath, BindingsPath string
	// Games are the games whose keys the start screen's Settings binds
	// (each read from and saved to BindingsPath); a match binds its own.
	Games []settingsmenu.OfferedGame
	// Sound takes the overlay's volumes (nil: none).
	Sound Volumes
	// Summary, if set, gets the window's report when it closes (see
	// gameloop.SummarizeWindow): the last match's latency figures.
	Summary io.Writer
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
	// covered are the boxes the last frame's HUD covered the game with, in
	// the screen's pixels; keepClear the same in logical px, handed to the
	// world before the next tick so the player is kept out from under them.
	covered   []hud.Rect
	keepClear []canvas.Rect
	trim
	loadingCover
	screenshots
	start time.Time
	dpr   float64
	quit  bool
	err   error
	geom  settings.Geometry // the window's size and position at the last Update
	// The settings overlay (settings.go), the HUD's size, the controller
	// the overlay last took the game's commands from, and the gamepad
	// layout with the player's bindings.
	menu     *settingsmenu.Menu
	hudScale float64
	menuCtl  *input.Controller
	padMap   input.PadMap
	padGen   int // counts padMap's changes
	// The server browser and its matches (lobby.go; nil: a window for
	// one host, or a start screen with no browser open), the start
	// screen and what it opened (home.go; nil: none), and the window's
	// size in logical px.
	lobby      *lobbyScreen
	home       *homeScreen
	outW, outH float64
	// updateCost is what the last Update took, for the frame time the
	// next Draw hands the loop.
	updateCost time.Duration
	memory     *memoryWatch
}

// trim hands freed memory back to the system: the C heap's free pages (a
// software GL driver's freed textures) and the Go heap's, trimFrames
// frames after a new match began, once the last match's images are gone
// (trimIn counts down to it); and the C heap's every trimEvery, since a
// match frees and makes textures as it goes (ground marks' pages come and
// go with the fighting, map chunks with the camera) and glibc keeps what
// they freed scattered among live blocks.
type trim struct {
	trimmer  *memtrim.Trimmer
	trimIn   int
	lastTrim time.Time
	trimming atomic.Bool // a trim is running
}

// loadingCover is the loading bar: what it says, and the new map whose
// first frames it covers until its chunks in view are baked (at most
// until coverUntil).
type loadingCover struct {
	coverMap   *gamemap.Map
	coverUntil time.Time
	// loadingShown is whether the last frame drew the loading bar over
	// the game: a -screenshot waits for a frame that does not.
	loadingShown bool
	loadBar      *ebiten.Image
	loadOf       assets.Progress // what loadText says
	loadText     string
	loadOp       text.DrawOptions
}

// screenshots are the -screenshot that ends a run and the F12 ones.
type screenshots struct {
	shotDone bool
	pending  string // screenshot path to write at the end of the next Draw
	// toast is the line saying where the last F12 screenshot went, shown
	// until toastUntil.
	toast      string
	toastUntil time.Time
	// lastLatency is the match's latency figures read as the -screenshot
	// that ends the run is taken, before its encoding (megabytes of
	// allocation) would count in them; nil: read when the window closes.
	lastLatency *gameloop.LatencySummary
}

// play is what a window plays: a live game loop, or a demo whose loop is
// rebuilt when it seeks back. A window opened on the server browser has
// none until a match is on screen.
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
	loop.SetSettingsEntry(true)
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
	w := &Window{ctx: ctx, opts: o, play: p, renderer: renderer, hud: hv, start: o.Clock(), dpr: 1, memory: newMemoryWatch()}
	// Before the graphics driver starts its threads: their C heap is
	// shared in a few arenas, so what one match frees the next reuses.
	w.trimmer = memtrim.New()
	w.trimmer.LimitArenas(windowArenas)
	if p != nil {
		w.graph, w.graphOf = netview.New(p.Loop().NetGraph(), o.NetGraph), p.Loop()
	} else {
		w.graph = netview.New(netgraph.New(), o.NetGraph) // until a match is shown
	}
	w.newMenu()
	return w, nil
}

// Run opens the window and plays until ctx ends, the window closes or the
// screenshot is written.
func (w *Window) Run() error {
	o := w.opts
	last := w.menu.S.Window
	if o.Width <= 0 || o.Height <= 0 {
		o.Width, o.Height = 1280, 720
		if last != nil && last.Valid() {
			o.Width, o.Height = last.W, last.H
		}
	}
	if o.Title == "" {
		o.Title = "vimp"
	}
	ebiten.SetWindowTitle(o.Title)
	ebiten.SetWindowSize(o.Width, o.Height)
	if last != nil && last.Valid() {
		ebiten.SetWindowPosition(last.X, last.Y)
	}
	ebiten.SetWindowResizingMode(ebiten.WindowResizingModeEnabled)
	ebiten.SetVsyncEnabled(w.menu.S.Vsync)
	ebiten.SetFullscreen(w.menu.S.Fullscreen)
	ebiten.SetTPS(ebiten.SyncWithFPS) // one tick per displayed frame
	ebiten.SetRunnableOnUnfocused(true)
	stopWatch := w.watchDisplay()
	err := ebiten.RunGameWithOptions(w, &ebiten.RunGameOptions{})
	stopWatch()
	if w.home != nil {
		w.home.stopAll(w)
	}
	if w.lobby != nil {
		w.lobby.stopAll()
	}
	w.saveGeometry()
	if o.Summary != nil {
		s := gameloop.SummarizeWindow(w.graphOf)
		if w.lastLatency != nil {
			s.Latency = w.lastLatency
		}
		s.Memory = w.memory.summary()
		if err := gameloop.WriteWindowSummary(o.Summary, s); err != nil {
			w.opts.Log.Warn("no summary", "err", err)
		}
	}
	if err != nil {
		return fmt.Errorf("window: %w", err)
	}
	if errors.Is(context.Cause(w.ctx), errDisplayLost) {
		return fmt.Errorf("window: %w", errDisplayLost)
	}
	return w.err
}

// displayStuck is how long a window whose display went away may take to
// close before the process leaves without it.
const displayStuck = 5 * time.Second

// watchDisplay watches the X server the window is on, if it is on one:
// when the server goes, the window's context ends with errDisplayLost and
// the window closes on its next frame. A window that is still open
// displayStuck later (its loop blocked on the dead connection) ends the
// process: nothing can be shown, and nobody is left to close it. The
// returned function stops the watch.
func (w *Window) watchDisplay() (stop func()) {
	ctx, cancel := context.WithCancelCause(w.ctx)
	w.ctx = ctx
	display := os.Getenv("DISPLAY")
	if !watchesX() || display == "" {
		return func() { cancel(nil) }
	}
	var stuck *time.Timer
	done := make(chan struct{})
	go func() {
		defer close(done)
		newDisplayWatch(display).run(ctx, func() {
			w.opts.Log.Error("the display went away; closing the window", "display", display)
			stuck = time.AfterFunc(displayStuck, func() {
				w.opts.Log.Error("the window did not close without its display; leaving")
				os.Exit(1)
			})
			cancel(errDisplayLost)
		})
	}()
	return func() {
		if !errors.Is(context.Cause(ctx), errDisplayLost) {
			cancel(nil)
		}
		<-done
		if stuck != nil {
			stuck.Stop()
		}
	}
}

// saveGeometry remembers the window's last size and position in the
// settings file, for the next start. A -screenshot run (a test, a script)
// leaves the player's window as it was.
func (w *Window) saveGeometry() {
	g := w.geom
	if w.opts.SettingsPath == "" || w.opts.Screenshot != "" || !g.Valid() {
		return
	}
	if last := w.menu.S.Window; last != nil && *last == g {
		return
	}
	s := w.menu.S
	s.Window = &g
	if err := settings.Save(w.opts.SettingsPath, s); err != nil {
		w.opts.Log.Warn("window size not remembered", "err", err)
		return
	}
	w.menu.S.Window = &g
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
	codes  []int
	inMenu bool // the settings overlay has the input
	padGen int  // the window's padMap generation pad was built from
}

func (k *keyboard) Configure(input.Config) error { return nil }

// Feed implements gameloop.Input. Everything it needs of the game comes in
// t: the controller, the HUD's open screens and modes, the world's size.
// What it reads besides is the window's own: its menu, its scale, the
// gamepad layout followGame took from the loop after the last tick.
func (k *keyboard) Feed(t *gameloop.InputTick) {
	r := &k.w.reader
	r.Scale = k.w.dpr
	if k.w.menu.Open {
		k.menuInput(t.Controller, t.Width, t.Height, t.NowMs)
		return
	}
	k.inMenu = false
	if t.HUD.Reconnect.Shown || t.HUD.HostChange.Shown {
		// The connection is down, or the room's host changes: only the
		// give-up key means anything.
		k.codes = r.JustPressed(k.codes[:0])
		for _, code := range k.codes {
			if !t.HUD.ReconnectKey(code) {
				t.HUD.HostChangeKey(code)
			}
		}
		return
	}
	if t.HUD.AuthOpen() {
		// The form is drawn at the HUD's scale: clicks are read at it too.
		r.Scale = k.w.hudDPR()
		r.UpdateForm(t.HUD, t.Width/k.w.hudScaleOr1(), t.Height/k.w.hudScaleOr1())
		return
	}
	c := t.Controller
	if c == nil {
		return
	}
	r.Update(c, t.Modes, t.HUD, t.NowMs)
	if c != k.padCtl || k.padGen != k.w.padGen {
		// A new game, or the player rebound a control: a fresh pad state,
		// with what the old one held let go.
		if k.padCtl == c {
			k.pad.Release(c, t.Width, t.Height, t.NowMs)
		}
		k.padCtl, k.padGen, k.pad = c, k.w.padGen, input.Pad{Map: k.w.padMap}
	}
	switch has := k.pads.Read(&k.state); {
	case has:
		k.pad.Update(c, &k.state, t.Width, t.Height, t.NowMs)
	case k.hadPad:
		k.pad.Release(c, t.Width, t.Height, t.NowMs) // unplugged: let go of what it held
	}
	k.hadPad = k.pads.Connected()
}

// Update implements ebiten.Game: the window's own keys, then one tick (or
// the server browser's frame).
func (w *Window) Update() error {
	defer w.costUpdate(time.Now())
	if w.quit || w.ctx.Err() != nil || (w.home == nil && w.lobby == nil && w.play.Loop().GaveUp()) {
		return ebiten.Termination
	}
	if !ebiten.IsFullscreen() {
		// Kept each frame: once the window has closed it can no longer
		// be asked.
		sw, sh := ebiten.WindowSize()
		x, y := ebiten.WindowPosition()
		w.geom = settings.Geometry{W: sw, H: sh, X: x, Y: y}
	}
	alt := ebiten.IsKeyPressed(ebiten.KeyAlt)
	if inpututil.IsKeyJustPressed(ebiten.KeyF11) || (alt && inpututil.IsKeyJustPressed(ebiten.KeyEnter)) {
		ebiten.SetFullscreen(!ebiten.IsFullscreen())
	}
	if inpututil.IsKeyJustPressed(ebiten.KeyF10) || (w.play != nil && w.play.Loop().SettingsAsked()) {
		w.toggleMenu()
	}
	if inpututil.IsKeyJustPressed(ebiten.KeyF12) {
		if p, err := ScreenshotPath(time.Now()); err == nil {
			w.pending = p
		} else {
			w.opts.Log.Warn("no screenshot folder", "err", err)
		}
	}
	now := w.opts.Clock()
	screenOnly := false // a screen of its own is up: nothing plays
	switch {
	case w.home != nil:
		screenOnly = w.homeUpdate(now)
	case w.lobby != nil:
		screenOnly = w.lobbyUpdate(now)
	}
	if screenOnly {
		w.applyMenu()
		w.shoot(now)
		return nil
	}
	if !w.menu.Open {
		w.play.Controls(w)
	}
	w.keepPlayerClear()
	w.play.Tick(now)
	w.followGame()
	w.trimAfterMatch(now)
	w.applyMenu()
	if l := w.play.Loop(); l != w.graphOf {
		// A demo that seeked back plays on a new loop: graph its network,
		// give it the player's settings.
		w.graph, w.graphOf = netview.New(l.NetGraph(), w.graph.Visible), l
		w.applyLoop(l)
	}
	if !w.menu.Open {
		w.graph.Update()
	}
	w.renderer.Poll()
	w.shoot(now)
	return nil
}

// costUpdate keeps what an Update that started at start took.
func (w *Window) costUpdate(start time.Time) { w.updateCost = time.Since(start) }

// shoot asks for the -screenshot once its time came and the game (or the
// server browser) is ready to be pictured.
func (w *Window) shoot(now time.Time) {
	if w.opts.Screenshot != "" && !w.shotDone && now.Sub(w.start) >= w.opts.ScreenshotAfter && w.shotReady(now) {
		w.pending = w.opts.Screenshot
		w.shotDone = true
	}
}

// shotWait is how long past ScreenshotAfter the -screenshot waits for the
// game to be in play with its images loaded before it is taken anyway.
const shotWait = time.Minute

// shotReady reports whether the -screenshot shows the game: the session
// reached play and no image is still downloading (a slow host or a cold
// cache would otherwise give a picture of the loading bar).
func (w *Window) shotReady(now time.Time) bool {
	if now.Sub(w.start) >= w.opts.ScreenshotAfter+shotWait {
		return true
	}
	if w.opts.ScreenshotWhen != nil {
		return w.opts.ScreenshotWhen()
	}
	if w.play == nil {
		return true // the start, connecting and browser screens have nothing to wait for
	}
	l := w.play.Loop()
	return !w.renderer.ImagesLoading() && !l.World().Preparing() && !l.Stats().PlayAt.IsZero() && !w.loadingShown
}

// Draw implements ebiten.Game. A match's frame is handed to its loop for
// the latency figures (Loop.Presented) with what this Draw and the Update
// before it took, the screenshot's encoding left out.
func (w *Window) Draw(screen *ebiten.Image) {
	start := time.Now()
	w.memory.frame()
	// Once, on the window's first frame (the start, connecting or
	// browser screen, or the first of a match opened at once): the
	// shaders and pipelines a match's first frame would otherwise build.
	w.renderer.Warm(screen)
	screen.Fill(color.Black)
	hs := w.hudDPR()
	if w.play == nil { // the start screen, a connecting screen or the server browser
		now := w.ms(w.opts.Clock())
		if !w.drawHome(screen, now, hs) {
			w.hud.DrawBrowser(screen, w.lobby.cfg.Browser, now, hs)
		}
		w.hud.DrawSettings(screen, w.menu, now, hs)
		w.writePending(screen)
		return
	}
	loop := w.play.Loop()
	w.renderer.SetLighting(w.menu.S.Lighting) // the F10 menu's, as it is now
	w.renderer.Draw(screen, loop.World(), w.dpr)
	w.hud.SetNetGraph(w.graph.Visible, netview.Width, netview.Height) // the view's, not the model's
	w.hud.Draw(screen, loop.HUD(), loop.NowMs(), hs)
	w.covered = w.hud.Covered(w.covered[:0])
	w.graph.DrawAt(screen, w.hud.Layout().NetGraph.X, w.hud.Layout().NetGraph.Y, hs)
	w.play.Overlay(w, screen)
	w.loadingShown = false
	if p, _ := w.renderer.Loading(); w.renderer.ImagesLoading() || loop.World().Preparing() || w.mapBaking(loop) {
		w.loadingShown = true
		w.drawLoading(screen, p)
	}
	w.hud.DrawSettings(screen, w.menu, loop.NowMs(), hs)
	loop.Presented(w.updateCost + time.Since(start))
	w.writePending(screen)
}

// toastFor is how long the line saying where a screenshot went stays.
const toastFor = 2 * time.Second

// writePending writes the screenshot asked for, if any, after drawing the
// line about the last one while it lasts (so a screenshot never shows its
// own line).
func (w *Window) writePending(screen *ebiten.Image) {
	if w.toast != "" && w.opts.Clock().Before(w.toastUntil) {
		w.hud.DrawToast(screen, w.toast, w.hudDPR())
	}
	if w.pending != "" {
		path := w.pending
		w.pending = ""
		if w.opts.Screenshot == path && w.graphOf != nil {
			w.lastLatency = w.graphOf.Latency()
		}
		if err := WritePNG(screen, path); err != nil {
			w.opts.Log.Error("screenshot failed", "err", err)
			if w.opts.Screenshot == path {
				w.err = err
			}
			w.toast, w.toastUntil = "Screenshot failed: "+err.Error(), w.opts.Clock().Add(toastFor)
		} else {
			w.opts.Log.Info("screenshot written", "path", path)
			w.toast, w.toastUntil = "Screenshot saved: "+path, w.opts.Clock().Add(toastFor)
		}
		if w.opts.Screenshot == path {
			w.quit = true
		}
	}
}

// drawLoading covers the world with a progress bar while the game's assets
// (images and sounds) download or its textures are drawn, the file count
// and percentage under it.
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
// the percentage, and the failures if any; with no file to load, the
// game's textures are being drawn.
func loadingText(p assets.Progress) string {
	if p.Total == 0 || (p.Done == p.Total && p.Failed == 0) {
		return "Preparing the game" // nothing to download, or all here: the map and textures are being made
	}
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
	w.outW, w.outH = outsideWidth, outsideHeight
	if w.play != nil {
		wd := w.play.Loop().World()
		wd.SetDeviceScale(dpr)
		wd.SetFixedScale(w.hudScaleOr1()) // the radar grows with the HUD
		if ww, wh := wd.Size(); outsideWidth != ww || outsideHeight != wh {
			wd.Resize(outsideWidth, outsideHeight)
		}
	}
	return outsideWidth * dpr, outsideHeight * dpr
}

// ErrNoDisplay is returned when no window can be opened.
var ErrNoDisplay = errors.New("no display (DISPLAY is not set); use -headless, or run under a desktop session or xvfb-run")

// keepPlayerClear hands the world the boxes the HUD drew over the game in
// the last frame, so that its camera keeps the player out from under them.
func (w *Window) keepPlayerClear() {
	w.keepClear = w.keepClear[:0]
	k := w.dpr
	if !(k > 0) {
		k = 1
	}
	for _, r := range w.covered {
		w.keepClear = append(w.keepClear, canvas.Rect{Left: r.X / k, Top: r.Y / k, W: r.W / k, H: r.H / k})
	}
	w.play.Loop().World().SetKeepClear(w.keepClear)
}

// windowArenas is how many C heap arenas a window's threads share (glibc
// makes up to eight a core); one serves a software driver's threads at no
// cost measured in frame times, and halves what reconnects leave behind.
const windowArenas = 1

// trimEvery is how often the C heap is trimmed while a window runs.
const trimEvery = 20 * time.Second

// trimFrames is how long after a new match begins the C heap is trimmed:
// by then the last match's images were disposed of and freed.
const trimFrames = 120

// trimAfterMatch counts down to the trim a new match asked for, and
// trims the C heap every trimEvery besides.
func (w *Window) trimAfterMatch(now time.Time) {
	if w.trimIn > 0 {
		if w.trimIn--; w.trimIn == 0 {
			w.trimC(now)
			// The Go heap's too: loading a match (the map's text, its
			// decoded sounds and images, the first bakes) leaves pages
			// the runtime would hand back only over minutes. Collected
			// on a goroutine of its own, so the frame does not wait.
			go debug.FreeOSMemory()
		}
		return
	}
	if w.lastTrim.IsZero() {
		w.lastTrim = now
	}
	if now.Sub(w.lastTrim) >= trimEvery {
		w.trimC(now)
	}
}

// trimC trims the C heap on a goroutine of its own (a few milliseconds
// the frame does not wait for), unless the last trim is still running.
func (w *Window) trimC(now time.Time) {
	w.lastTrim = now
	if !w.trimming.CompareAndSwap(false, true) {
		return
	}
	go func() {
		defer w.trimming.Store(false)
		w.trimmer.Trim()
	}()
}

// mapCoverFor bounds how long a new map's unbaked chunks keep the loading
// bar up: a view that never bakes whole (zoomed far out) shows after it.
const mapCoverFor = 3 * time.Second

// mapBaking reports whether the loading bar covers a new map whose chunks
// in view are not all baked yet: the frame would show part of the map
// drawn cell by cell, or not at all.
func (w *Window) mapBaking(l *gameloop.Loop) bool {
	m := l.World().Map()
	if m == nil {
		return false
	}
	now := w.opts.Clock()
	if m != w.coverMap {
		w.coverMap, w.coverUntil = m, now.Add(mapCoverFor)
	}
	return now.Before(w.coverUntil) && w.renderer.MapUnbaked()
}
