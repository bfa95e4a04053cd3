// Package settingsmenu holds the settings overlay's model (F10, or
// Settings in the M menu): volumes, the window, the HUD, the team colours,
// and the key and gamepad bindings of a game.
//
// The overlay outlives connections, so the window owns it rather than the
// per-connection HUD: feed it keys (Key), gamepad presses (Pad) and clicks
// (Click) while it is Open, apply what TakeChanges reports at once, save S
// with settings.Save and Bindings with input.SaveBindings, and draw it last
// with the hud/view package's DrawSettings, from Layout.
package settingsmenu

import (
	"maps"
	"math"
	"slices"
	"strconv"

	"vimpclient/hud/geom"
	"vimpclient/input"
	"vimpclient/settings"
)

// RowKind tells what a settings row holds and how it is changed.
type RowKind uint8

const (
	RowHeading RowKind = iota // a section title, never focused
	RowSlider                 // a number stepped with ←/→
	RowToggle                 // on or off
	RowChoice                 // one of a few names
	RowKey                    // a command's keyboard keys: Enter, then a key
	RowPad                    // a command's gamepad controls: Enter, then a control
)

// settingID names the setting a slider, toggle or choice row changes.
type settingID uint8

const (
	setNone settingID = iota
	setMaster
	setEffects
	setFullscreen
	setVsync
	setNetGraph
	setMotion
	setNames
	setLighting
	setMouseAim
	setHUDScale
	setPalette
	setGame
)

// Change says what the wiring must apply after a key or click.
type Change uint16

const (
	ChangeVolume     Change = 1 << iota // master or effects volume
	ChangeFullscreen                    // the window's fullscreen
	ChangeVsync
	ChangeNetGraph
	ChangeMotion   // reduced motion
	ChangeNames    // the players' names in the world
	ChangeHUDScale // the HUD's size
	ChangePalette  // the team colours
	ChangeKeys     // the game's key bindings (Bindings)
	ChangePads     // the game's gamepad bindings (the settings' Pads)
	ChangeMouseAim // the gun following the pointer
	ChangeLighting // a night map's lighting
)

// Capture is what the overlay waits for after Enter on a binding row.
type Capture uint8

const (
	CaptureNone Capture = iota
	CaptureKey          // the next key binds the focused command
	CapturePad          // the next gamepad control binds it
)

// Row is one line of the overlay.
type Row struct {
	Kind     RowKind
	Label    string
	Value    string  // what is shown right: "80 %", "On", "W, Up"
	Fraction float64 // a slider's position, 0..1
	Conflict string  // a binding's clash, drawn in the error colour
	id       settingID
	command  string
}

// Slider ranges and steps (steps per unit: 5 % and 0.25×).
const (
	volumeSteps   = 20
	hudScaleMin   = 0.75
	hudScaleMax   = 2
	hudScaleSteps = 4
	// hudScaleStops is the HUD scale slider's stops past Auto, its first:
	// 0.75× to 2× by 0.25×.
	hudScaleStops = (hudScaleMax-hudScaleMin)*hudScaleSteps + 1
	// autoScaleWidth is the window width the Auto HUD scale draws at 1×.
	autoScaleWidth = 1280
)

// HUDScaleAuto is the HUD scale setting that follows the window.
const HUDScaleAuto = settings.HUDScaleAuto

// HUDScaleFor is the HUD scale drawn in a window w logical px wide for the
// setting scale: the setting itself, or for Auto (0) the window's width
// over 1280 (1× in the default window, 1.5× at 1920, as the game canvas
// grows against its 1920 reference), held to 0.75×..2×.
func HUDScaleFor(scale, w float64) float64 {
	if scale > 0 {
		return scale
	}
	if !(w > 0) {
		return 1
	}
	return math.Max(hudScaleMin, math.Min(hudScaleMax, w/autoScaleWidth))
}

// hudScaleStop is the slider stop of a HUD scale: 0 for Auto, then one a
// step from 0.75×.
func hudScaleStop(v float64) float64 {
	if v <= 0 {
		return 0
	}
	return 1 + math.Round((v-hudScaleMin)*hudScaleSteps)
}

// hudScaleAt is the HUD scale at a slider stop (0: Auto).
func hudScaleAt(stop float64) float64 {
	stop = math.Max(0, math.Min(hudScaleStops, stop))
	if stop == 0 {
		return HUDScaleAuto
	}
	return hudScaleMin + (stop-1)/hudScaleSteps
}

func hudScaleLabel(v float64) string {
	if v <= 0 {
		return "Auto"
	}
	return strconv.FormatFloat(v, 'g', -1, 64) + "×"
}

// Menu is the settings overlay (F10, or Settings in the M menu):
// volumes, the window, the HUD, the team colours, and the game's key and
// gamepad bindings. It is plain Go: the wiring feeds it keys, gamepad
// controls and clicks, applies what TakeChanges reports at once, and saves
// S and Bindings. It outlives connections (the window owns it, not the
// per-connection HUD).
type Menu struct {
	Open    bool
	S       settings.Settings
	Rows    []Row
	Focus   int // index into Rows; never a heading
	Capture Capture
	// Status is the last thing the overlay has to say ("fire: Space", "Tab
	// opens the scoreboard: not bound").
	Status string

	game     string
	games    []OfferedGame                   // the games whose keys can be bound without playing them
	load     func(game string) input.Binding // reads the player's bindings of one
	choosing bool                            // the Game row chooses among games (no match gives its own)
	cfg      input.Config                    // the game's keys as the host sent them
	keys     input.Binding                   // the player's bindings for game
	reserved map[int]string
	pads     input.PadMap // the layout derived from cfg
	changed  Change
	top      int // first row shown when the rows do not fit
	geom     []RowGeom
}

// New makes the overlay for s. reserved are the keys the
// window keeps for itself (code → what they do, "the net graph"), which
// are never bound to a command.
func New(s settings.Settings, reserved map[int]string) *Menu {
	m := &Menu{S: s, reserved: maps.Clone(reserved)}
	m.rebuild()
	return m
}

// SetGame gives the overlay the game's keys (from CONFIG_DATA, before any
// binding) and the player's bindings for it; without a game the binding
// sections say so.
func (m *Menu) SetGame(game string, cfg input.Config, keys input.Binding) {
	m.game, m.cfg = game, cfg
	m.choosing = false // a match's game, or pickGame sets it again
	m.keys = input.Binding{}
	for c, codes := range keys {
		m.keys[c] = append([]int(nil), codes...)
	}
	m.pads = input.DefaultPadMap(cfg)
	m.Capture = CaptureNone
	m.rebuild()
}

// OfferedGame is a game whose keys the overlay can bind before it is
// played: its id, its name and its keys as its CONFIG_DATA gives them.
type OfferedGame struct {
	ID, Title string
	Keys      input.Config
}

// OfferGames gives the overlay games whose keys it can bind with no match
// running, and load, which reads the player's saved bindings of one (nil:
// none saved). ChooseGame shows them.
func (m *Menu) OfferGames(games []OfferedGame, load func(game string) input.Binding) {
	m.games, m.load = slices.Clone(games), load
}

// ChooseGame makes the overlay bind the keys of one of the offered games,
// chosen on its Game row (the start screen's Settings: no match gives its
// game): the game it edited last if offered, else the first.
func (m *Menu) ChooseGame() {
	if len(m.games) == 0 {
		return
	}
	i := slices.IndexFunc(m.games, func(g OfferedGame) bool { return g.ID == m.game })
	m.pickGame(max(i, 0))
}

// pickGame edits the bindings of offered game i.
func (m *Menu) pickGame(i int) {
	g := m.games[i]
	var b input.Binding
	if m.load != nil {
		b = m.load(g.ID)
	}
	m.SetGame(g.ID, g.Keys, b)
	m.choosing = true
	m.rebuild()
}

// Game is the game whose bindings the overlay edits ("" before one).
func (m *Menu) Game() string { return m.game }

// Bindings are the player's key bindings for the game (a copy).
func (m *Menu) Bindings() input.Binding {
	out := input.Binding{}
	for c, codes := range m.keys {
		out[c] = append([]int(nil), codes...)
	}
	return out
}

// PadMap is the game's gamepad layout with the player's bindings applied.
func (m *Menu) PadMap() input.PadMap {
	pm, _ := m.pads.WithOverrides(m.cfg, m.S.Pads[m.game])
	return pm
}

// Toggle opens or closes the overlay.
func (m *Menu) Toggle() {
	if m.Open {
		m.Close()
		return
	}
	m.Open, m.Status = true, ""
	m.rebuild()
	if m.Focus <= 0 || m.Focus >= len(m.Rows) || m.Rows[m.Focus].Kind == RowHeading {
		m.Focus = m.next(-1, 1)
	}
}

// Close closes the overlay, dropping a binding it waited for.
func (m *Menu) Close() { m.Open, m.Capture = false, CaptureNone }

// SyncWindow takes the window's own state changed by its keys (F11, F3),
// so the overlay shows it; nothing is reported as changed.
func (m *Menu) SyncWindow(fullscreen, netGraph bool) {
	if m.S.Fullscreen != fullscreen || m.S.NetGraph != netGraph {
		m.S.Fullscreen, m.S.NetGraph = fullscreen, netGraph
		m.rebuild()
	}
}

// TakeChanges reports what changed since the last call and forgets it.
func (m *Menu) TakeChanges() Change {
	c := m.changed
	m.changed = 0
	return c
}

// next is the first focusable row after from in direction dir, wrapping.
func (m *Menu) next(from, dir int) int {
	n := len(m.Rows)
	for i := 1; i <= n; i++ {
		k := ((from+dir*i)%n + n) % n
		if m.Rows[k].Kind != RowHeading {
			return k
		}
	}
	return 0
}

// DOM key codes the overlay reads.
const (
	keyBackspace = 8
	keyEnter     = 13
	keyEscape    = 27
	keySpace     = 32
	keyPageUp    = 33
	keyPageDown  = 34
	keyLeft      = 37
	keyUp        = 38
	keyRight     = 39
	keyDown      = 40
	keyDelete    = 46
)

// Key handles a key press (DOM code) while the overlay is open: the arrows
// choose and change, Enter and Space toggle or start a binding, Delete
// gives a binding back to the game's default, Escape cancels a binding or
// closes. While a key binding waits, the key binds (Escape cancels).
func (m *Menu) Key(code int) {
	if !m.Open || len(m.Rows) == 0 {
		return
	}
	switch m.Capture {
	case CaptureKey:
		m.Capture = CaptureNone
		if code == keyEscape {
			m.Status = "not changed"
			return
		}
		m.bindKey(m.Rows[m.Focus].command, code)
		return
	case CapturePad:
		if code == keyEscape {
			m.Capture, m.Status = CaptureNone, "not changed"
		}
		return
	}
	switch code {
	case keyUp:
		m.Focus = m.next(m.Focus, -1)
	case keyDown:
		m.Focus = m.next(m.Focus, 1)
	case keyPageUp, keyPageDown:
		dir := 1
		if code == keyPageUp {
			dir = -1
		}
		for range 8 {
			m.Focus = m.next(m.Focus, dir)
		}
	case keyLeft:
		m.adjust(-1)
	case keyRight:
		m.adjust(1)
	case keyEnter, keySpace:
		m.activate()
	case keyDelete, keyBackspace:
		m.reset()
	case keyEscape:
		m.Close()
	}
}

// Pad handles a gamepad control going down while the overlay is open: it
// binds when a gamepad binding waits (Back cancels), else the d-pad and
// stick choose and change, A acts as Enter and B as Escape.
func (m *Menu) Pad(ctl input.PadControl) {
	if !m.Open {
		return
	}
	if m.Capture == CapturePad {
		m.Capture = CaptureNone
		if ctl == input.PadBack {
			m.Status = "not changed"
			return
		}
		m.bindPad(m.Rows[m.Focus].command, ctl)
		return
	}
	if m.Capture == CaptureKey {
		return
	}
	switch ctl {
	case input.PadUp, input.PadStickUp:
		m.Key(keyUp)
	case input.PadDown, input.PadStickDown:
		m.Key(keyDown)
	case input.PadLeft, input.PadStickLeft:
		m.Key(keyLeft)
	case input.PadRight, input.PadStickRight:
		m.Key(keyRight)
	case input.PadA:
		m.Key(keyEnter)
	case input.PadB:
		m.Key(keyEscape)
	case input.PadY:
		m.Key(keyDelete)
	}
}

// adjust steps the focused slider, toggle or choice by dir.
func (m *Menu) adjust(dir int) {
	r := &m.Rows[m.Focus]
	s := &m.S
	// Values are counted in whole steps (perUnit of them in 1), so 95 %
	// is 19/20 exactly and not 1 − 0.05.
	step := func(v *float64, lo, hi, perUnit float64) bool {
		nv := (math.Round(*v*perUnit) + float64(dir)) / perUnit
		nv = math.Max(lo, math.Min(hi, nv))
		if nv == *v {
			return false
		}
		*v = nv
		return true
	}
	switch r.id {
	case setMaster:
		if step(&s.MasterVolume, 0, 1, volumeSteps) {
			m.changed |= ChangeVolume
		}
	case setEffects:
		if step(&s.EffectsVolume, 0, 1, volumeSteps) {
			m.changed |= ChangeVolume
		}
	case setHUDScale:
		if nv := hudScaleAt(hudScaleStop(s.HUDScale) + float64(dir)); nv != s.HUDScale {
			s.HUDScale = nv
			m.changed |= ChangeHUDScale
		}
	case setFullscreen, setVsync, setNetGraph, setMotion, setNames, setLighting, setMouseAim, setPalette:
		m.activate()
		return
	case setGame:
		m.nextGame(dir)
		return
	}
	m.rebuild()
}

// nextGame steps the Game row by dir through the offered games.
func (m *Menu) nextGame(dir int) {
	n := len(m.games)
	if n == 0 {
		return
	}
	i := slices.IndexFunc(m.games, func(g OfferedGame) bool { return g.ID == m.game })
	j := ((i+dir)%n + n) % n
	m.pickGame(j)
	m.Status = "binding the keys of " + m.games[j].Title
}

// activate toggles the focused toggle or choice, or starts a binding.
func (m *Menu) activate() {
	r := &m.Rows[m.Focus]
	s := &m.S
	switch r.Kind {
	case RowKey:
		m.Capture, m.Status = CaptureKey, "press a key for "+r.command+" (Esc: cancel)"
		return
	case RowPad:
		m.Capture, m.Status = CapturePad, "press a gamepad button for "+r.command+" (Back or Esc: cancel)"
		return
	}
	switch r.id {
	case setFullscreen:
		s.Fullscreen = !s.Fullscreen
		m.changed |= ChangeFullscreen
	case setVsync:
		s.Vsync = !s.Vsync
		m.changed |= ChangeVsync
	case setNetGraph:
		s.NetGraph = !s.NetGraph
		m.changed |= ChangeNetGraph
	case setMotion:
		s.ReducedMotion = !s.ReducedMotion
		m.changed |= ChangeMotion
	case setNames:
		s.Names = !s.Names
		m.changed |= ChangeNames
	case setLighting:
		s.Lighting = !s.Lighting
		m.changed |= ChangeLighting
	case setMouseAim:
		s.MouseAim = !s.MouseAim
		m.changed |= ChangeMouseAim
	case setPalette:
		if s.Palette == settings.PaletteColorBlind {
			s.Palette = settings.PaletteStandard
		} else {
			s.Palette = settings.PaletteColorBlind
		}
		m.changed |= ChangePalette
	case setGame:
		m.nextGame(1)
		return
	case setMaster, setEffects, setHUDScale:
		return
	}
	m.rebuild()
}

// reset gives the focused binding back to the game's default.
func (m *Menu) reset() {
	r := &m.Rows[m.Focus]
	switch r.Kind {
	case RowKey:
		if _, ok := m.keys[r.command]; ok {
			delete(m.keys, r.command)
			m.changed |= ChangeKeys
		}
		m.Status = r.command + ": the game's keys"
	case RowPad:
		over := m.S.Pads[m.game]
		for name, cmds := range over {
			for _, c := range cmds {
				if c == r.command {
					m.setPads(name, nil, true)
					break
				}
			}
		}
		m.Status = r.command + ": the default gamepad layout"
	default:
		return
	}
	m.rebuild()
}

// rebuild lays out the rows from the settings and the game's commands.
func (m *Menu) rebuild() {
	s := &m.S
	onOff := func(on bool) string {
		if on {
			return "On"
		}
		return "Off"
	}
	pct := func(v float64) string { return strconv.Itoa(int(math.Round(v*100))) + " %" }
	palette := "Standard"
	if s.Palette == settings.PaletteColorBlind {
		palette = "Colour-blind safe"
	}
	rows := append(m.Rows[:0],
		Row{Kind: RowHeading, Label: "Sound"},
		Row{Kind: RowSlider, Label: "Master volume", Value: pct(s.MasterVolume), Fraction: s.MasterVolume, id: setMaster},
		Row{Kind: RowSlider, Label: "Effects volume", Value: pct(s.EffectsVolume), Fraction: s.EffectsVolume, id: setEffects},
		Row{Kind: RowHeading, Label: "Display"},
		Row{Kind: RowToggle, Label: "Fullscreen", Value: onOff(s.Fullscreen), id: setFullscreen},
		Row{Kind: RowToggle, Label: "Vsync", Value: onOff(s.Vsync), id: setVsync},
		Row{Kind: RowToggle, Label: "Net graph", Value: onOff(s.NetGraph), id: setNetGraph},
		Row{Kind: RowToggle, Label: "Reduced motion", Value: onOff(s.ReducedMotion), id: setMotion},
		Row{Kind: RowToggle, Label: "Player names", Value: onOff(s.Names), id: setNames},
		Row{Kind: RowToggle, Label: "Night lighting", Value: onOff(s.Lighting), id: setLighting},
		Row{Kind: RowToggle, Label: "Mouse aims the gun", Value: onOff(s.MouseAim), id: setMouseAim},
		Row{Kind: RowSlider, Label: "HUD scale", Value: hudScaleLabel(s.HUDScale),
			Fraction: hudScaleStop(s.HUDScale) / hudScaleStops, id: setHUDScale},
		Row{Kind: RowChoice, Label: "Team colours", Value: palette, id: setPalette},
	)
	if m.choosing {
		title := m.game
		if i := slices.IndexFunc(m.games, func(g OfferedGame) bool { return g.ID == m.game }); i >= 0 {
			title = m.games[i].Title
		}
		rows = append(rows, Row{Kind: RowHeading, Label: "Controls"},
			Row{Kind: RowChoice, Label: "Game", Value: title, id: setGame})
	}
	m.Rows = m.bindingRows(rows)
	if m.Focus >= len(m.Rows) {
		m.Focus = m.next(-1, 1)
	}
}

// Settings overlay metrics in logical pixels.
const (
	CardW   = 560
	RowH    = 24
	TitleH  = 40
	FooterH = 44
	Padding = 16
)

// Geom is the overlay's layout for one window size: the rows that
// fit, scrolled to keep the focus in view.
type Geom struct {
	Card, Title, Footer geom.Rect
	Rows                []RowGeom
	More                [2]bool // rows hidden above, below
}

// RowGeom is where one shown row goes.
type RowGeom struct {
	Index int // into Rows
	Row   geom.Rect
}

// Layout places the overlay in a w×h window (logical px). It keeps the
// scroll position between calls, moving it only to show the focus. The
// rows slice is the overlay's own, valid until the next Layout.
func (m *Menu) Layout(w, h float64) Geom {
	g := Geom{Rows: m.geom[:0]}
	defer func() { m.geom = g.Rows[:0] }()
	cw := math.Min(CardW, w-20)
	fit := max(3, int((h-40-TitleH-FooterH-2*Padding)/RowH))
	n := min(fit, len(m.Rows))
	ch := TitleH + float64(n)*RowH + FooterH + 2*Padding
	x, y := (w-cw)/2, math.Max(10, (h-ch)/2)
	g.Card = geom.Rect{X: x, Y: y, W: cw, H: ch}
	g.Title = geom.Rect{X: x + Padding, Y: y + Padding, W: cw - 2*Padding, H: TitleH}
	switch {
	case m.Focus < m.top:
		m.top = m.Focus
	case m.Focus >= m.top+n:
		m.top = m.Focus - n + 1
	}
	if m.top > 0 && m.Rows[m.top-1].Kind == RowHeading && m.Focus < m.top+n-1 {
		m.top-- // keep a section's title with its first row
	}
	m.top = max(0, min(m.top, len(m.Rows)-n))
	ry := g.Title.Y + TitleH
	for i := m.top; i < m.top+n; i++ {
		g.Rows = append(g.Rows, RowGeom{Index: i, Row: geom.Rect{X: x + Padding, Y: ry, W: cw - 2*Padding, H: RowH}})
		ry += RowH
	}
	g.More = [2]bool{m.top > 0, m.top+n < len(m.Rows)}
	g.Footer = geom.Rect{X: x + Padding, Y: ry, W: cw - 2*Padding, H: FooterH}
	return g
}

// Click handles a mouse press at (x, y) in a w×h window: a row is
// focused and, for a toggle, choice or binding, acted on; on a slider the
// press sets the value where it falls on the bar's right half. A press
// outside the card closes the overlay.
func (m *Menu) Click(w, h, x, y float64) {
	if !m.Open {
		return
	}
	g := m.Layout(w, h)
	if !g.Card.Contains(x, y) {
		m.Close()
		return
	}
	for _, rg := range g.Rows {
		if !rg.Row.Contains(x, y) {
			continue
		}
		r := &m.Rows[rg.Index]
		if r.Kind == RowHeading {
			return
		}
		m.Focus, m.Capture = rg.Index, CaptureNone
		if r.Kind != RowSlider {
			m.activate()
			return
		}
		bar := SliderBar(rg.Row)
		if bar.Contains(x, y) || (x >= bar.X && x < bar.X+bar.W) {
			f := math.Max(0, math.Min(1, (x-bar.X)/bar.W))
			m.setSlider(r.id, f)
		}
		return
	}
}

// SliderBar is where a slider row's bar is drawn (and clicked).
func SliderBar(row geom.Rect) geom.Rect {
	return geom.Rect{X: row.X + row.W*0.45, Y: row.Y + row.H/2 - 3, W: row.W*0.55 - 70, H: 6}
}

// setSlider sets a slider from a bar fraction, on its step.
func (m *Menu) setSlider(id settingID, f float64) {
	s := &m.S
	switch id {
	case setMaster, setEffects:
		v := math.Round(f*volumeSteps) / volumeSteps
		if id == setMaster {
			s.MasterVolume = v
		} else {
			s.EffectsVolume = v
		}
		m.changed |= ChangeVolume
	case setHUDScale:
		s.HUDScale = hudScaleAt(math.Round(f * hudScaleStops))
		m.changed |= ChangeHUDScale
	}
	m.rebuild()
}
