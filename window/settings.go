package window

import (
	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"

	"vimpclient/gameloop"
	"vimpclient/hud/settingsmenu"
	"vimpclient/input"
	"vimpclient/settings"
)

// The settings overlay in the window: F10 (or Settings in the M menu)
// opens it over the game; while it is open it takes the keyboard, the
// gamepad and the mouse, and every change is applied at once (the sound,
// the window, the HUD, the team colours, the bindings) and saved.

// Volumes is what the overlay's volume sliders drive (*audio.Manager).
type Volumes interface {
	SetMasterVolume(v float64)
	SetEffectsVolume(v float64)
}

// reservedKeys are the window's own keys: never bound to a game command.
var reservedKeys = map[int]string{114: "net graph", 121: "settings", 122: "fullscreen", 123: "screenshot"}

// keyF10 is F10's DOM code, which the window handles itself.
const keyF10 = 121

// newMenu builds the overlay from the settings the window starts with and
// applies the settings that need no window (the sound, the HUD).
func (w *Window) newMenu() {
	s := settings.Default()
	if w.opts.Settings != nil {
		s = *w.opts.Settings
	}
	// The flags of this run win over the saved settings.
	s.Fullscreen = s.Fullscreen || w.opts.Fullscreen
	s.NetGraph = s.NetGraph || w.opts.NetGraph
	s.Vsync = s.Vsync && !w.opts.NoVsync
	w.menu = settingsmenu.New(s, reservedKeys)
	w.menu.OfferGames(w.opts.Games, w.savedBindings)
	w.hudScale = s.HUDScale
	w.graph.Visible = s.NetGraph
	if w.play != nil {
		w.applyLoop(w.play.Loop())
	}
	if v := w.opts.Sound; v != nil {
		v.SetMasterVolume(s.MasterVolume)
		v.SetEffectsVolume(s.EffectsVolume)
	}
}

// savedBindings reads the player's saved bindings of a game, for the
// start screen's Settings.
func (w *Window) savedBindings(game string) input.Binding {
	if w.opts.BindingsPath == "" {
		return nil
	}
	b, err := input.LoadBindings(w.opts.BindingsPath, game)
	if err != nil {
		w.opts.Log.Warn("key bindings not read in full: the lines that could be read are used", "game", game, "err", err)
	}
	return b
}

// applyLoop gives a loop the settings it keeps (a demo's loop is new after
// a seek back).
func (w *Window) applyLoop(l *gameloop.Loop) {
	s := &w.menu.S
	l.SetReducedMotion(s.ReducedMotion)
	l.SetNames(s.Names)
	l.SetMouseAim(s.MouseAim)
	l.SetPalette(s.Palette)
}

// toggleMenu opens or closes the overlay, showing the window's state as it
// is now (F11 and F3 change it behind the overlay's back); opened with no
// match or demo on screen, it binds the keys of a game the player chooses.
func (w *Window) toggleMenu() {
	if !w.menu.Open && w.play == nil {
		w.menu.ChooseGame() // no match gives a game: the player picks one to bind
	}
	w.menu.SyncWindow(ebiten.IsFullscreen(), w.graph.Visible)
	w.menu.Toggle()
}

// followGame gives the overlay the current game's commands when a new
// controller appears (a new CONFIG_DATA). Update calls it after the tick,
// so the keyboard's next Feed finds the pad layout of the game it plays.
func (w *Window) followGame() {
	l := w.play.Loop()
	c := l.Controller()
	if c == nil || c == w.menuCtl {
		return
	}
	w.menuCtl = c
	w.trimIn = trimFrames // a new match: the last one's textures go back once freed
	if keys, ok := l.GameKeys(); ok {
		w.menu.SetGame(l.GameID(), keys, l.Bindings())
		w.padMap = w.menu.PadMap()
		w.padGen++
	}
}

// applyMenu applies and saves what the overlay changed.
func (w *Window) applyMenu() {
	ch := w.menu.TakeChanges()
	if ch == 0 {
		return
	}
	s := &w.menu.S
	var l *gameloop.Loop // nil while the server browser is shown
	if w.play != nil {
		l = w.play.Loop()
	}
	if v := w.opts.Sound; v != nil && ch&settingsmenu.ChangeVolume != 0 {
		v.SetMasterVolume(s.MasterVolume)
		v.SetEffectsVolume(s.EffectsVolume)
	}
	if ch&settingsmenu.ChangeFullscreen != 0 {
		ebiten.SetFullscreen(s.Fullscreen)
	}
	if ch&settingsmenu.ChangeVsync != 0 {
		ebiten.SetVsyncEnabled(s.Vsync)
	}
	if ch&settingsmenu.ChangeNetGraph != 0 {
		w.graph.Visible = s.NetGraph
	}
	if ch&settingsmenu.ChangeHUDScale != 0 {
		w.hudScale = s.HUDScale
	}
	if ch&(settingsmenu.ChangeMotion|settingsmenu.ChangeNames|settingsmenu.ChangeMouseAim|settingsmenu.ChangePalette) != 0 && l != nil {
		w.applyLoop(l)
	}
	if ch&settingsmenu.ChangePads != 0 {
		w.padMap = w.menu.PadMap()
		w.padGen++
	}
	if ch&settingsmenu.ChangeKeys != 0 {
		b := w.menu.Bindings()
		if l != nil {
			l.SetBindings(b)
		}
		if p := w.opts.BindingsPath; p != "" && w.menu.Game() != "" {
			if err := input.SaveBindings(p, w.menu.Game(), b); err != nil {
				w.opts.Log.Warn("key bindings not saved", "err", err)
				w.menu.Status = "key bindings not saved: " + err.Error()
			}
		}
	}
	if ch&^settingsmenu.ChangeKeys != 0 && w.opts.SettingsPath != "" {
		if err := settings.Save(w.opts.SettingsPath, *s); err != nil {
			w.opts.Log.Warn("settings not saved", "err", err)
			w.menu.Status = "settings not saved: " + err.Error()
		}
	}
}

// menuInput feeds the open overlay this frame's keys, gamepad presses and
// clicks; the game gets none of them (what it held was released when the
// overlay opened).
func (k *keyboard) menuInput(c *input.Controller, ww, wh, now float64) {
	w := k.w
	if !k.inMenu {
		k.inMenu = true
		if c != nil {
			c.FocusLost(now)
			k.pad.Release(c, ww, wh, now)
		}
	}
	k.codes = k.w.reader.JustPressed(k.codes[:0])
	for _, code := range k.codes {
		if code != keyF10 { // the window's own toggle
			w.menu.Key(code)
		}
	}
	prev := k.state
	k.pads.Read(&k.state)
	for ctl := input.PadControl(1); ctl < input.PadControl(len(k.state.Down)); ctl++ {
		if k.state.Down[ctl] && !prev.Down[ctl] {
			w.menu.Pad(ctl)
		}
	}
	if inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonLeft) {
		s := w.hudDPR()
		x, y := ebiten.CursorPosition()
		w.menu.Click(w.outW/w.hudScaleOr1(), w.outH/w.hudScaleOr1(), float64(x)/s, float64(y)/s)
	}
}

// hudDPR is the scale the HUD is drawn at: device pixels per HUD pixel.
func (w *Window) hudDPR() float64 { return w.dpr * w.hudScaleOr1() }
