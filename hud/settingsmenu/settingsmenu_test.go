package settingsmenu

import (
	"slices"
	"strings"
	"testing"

	"vimpclient/hud/geom"
	"vimpclient/input"
	"vimpclient/settings"
)

// tanksKeys is the tanks game's controls: the spectator set, then the
// player set.
func tanksKeys() input.Config {
	return input.Config{
		KeySets: []map[int]string{
			{78: "nextPlayer", 80: "prevPlayer"},
			{87: "forward", 83: "back", 65: "left", 68: "right", 74: "fire", 75: "gunLeft", 76: "gunRight", 85: "gunCenter", 78: "nextWeapon", 80: "prevWeapon"},
		},
		Modes: map[int]input.Mode{9: input.ModeStat, 67: input.ModeChat, 77: input.ModeVote},
		Cmds:  map[int]input.Cmd{13: input.CmdEnter, 27: input.CmdEscape},
	}
}

func openMenu(t *testing.T) *Menu {
	t.Helper()
	m := New(settings.Default(), map[int]string{114: "net graph", 121: "settings"})
	m.SetGame("tanks", tanksKeys(), nil)
	m.Toggle()
	if !m.Open || m.Rows[m.Focus].Label != "Master volume" {
		t.Fatalf("opened on %+v", m.Rows[m.Focus])
	}
	return m
}

// focus moves the focus to the row labelled label (its first, with kind).
func focus(t *testing.T, m *Menu, kind RowKind, label string) *Row {
	t.Helper()
	for range len(m.Rows) {
		if r := &m.Rows[m.Focus]; r.Kind == kind && r.Label == label {
			return r
		}
		m.Key(keyDown)
	}
	t.Fatalf("no %v row %q", kind, label)
	return nil
}

func TestSettingsSlidersAndToggles(t *testing.T) {
	m := openMenu(t)
	m.Key(keyLeft)
	m.Key(keyLeft)
	if m.S.MasterVolume != 0.9 || m.TakeChanges() != ChangeVolume || m.TakeChanges() != 0 {
		t.Fatalf("master %v", m.S.MasterVolume)
	}
	if r := m.Rows[m.Focus]; r.Value != "90 %" || r.Fraction != 0.9 {
		t.Fatalf("row %+v", r)
	}
	for range 30 {
		m.Key(keyRight)
	}
	if m.S.MasterVolume != 1 {
		t.Fatalf("master past its end: %v", m.S.MasterVolume)
	}
	m.TakeChanges()
	m.Key(keyRight) // at the end: nothing changes
	if c := m.TakeChanges(); c != 0 {
		t.Fatalf("changes %b at the end of the slider", c)
	}
	// Up from the first row wraps to the last, skipping headings.
	m.Key(keyUp)
	if m.Rows[m.Focus].Kind != RowPad {
		t.Fatalf("wrapped to %+v", m.Rows[m.Focus])
	}
	focus(t, m, RowToggle, "Fullscreen")
	m.Key(keyEnter)
	focus(t, m, RowToggle, "Reduced motion")
	m.Key(keySpace)
	focus(t, m, RowSlider, "HUD scale")
	m.Key(keyRight)
	focus(t, m, RowChoice, "Team colours")
	m.Key(keyRight)
	if c := m.TakeChanges(); c != ChangeFullscreen|ChangeMotion|ChangeHUDScale|ChangePalette {
		t.Fatalf("changes %b", c)
	}
	if !m.S.Fullscreen || !m.S.ReducedMotion || m.S.HUDScale != 0.75 || m.S.Palette != settings.PaletteColorBlind {
		t.Fatalf("settings %+v", m.S)
	}
	if r := m.Rows[m.Focus]; r.Value != "Colour-blind safe" {
		t.Fatalf("palette row %+v", r)
	}
	m.Key(keyEscape)
	if m.Open {
		t.Fatal("Escape did not close")
	}
	// F3 and F11 change the window behind the overlay's back: it follows.
	m.SyncWindow(false, true)
	if m.S.Fullscreen || !m.S.NetGraph || m.TakeChanges() != 0 {
		t.Fatalf("after sync %+v", m.S)
	}
}

func TestSettingsKeyBindings(t *testing.T) {
	m := openMenu(t)
	r := focus(t, m, RowKey, "Fire")
	if r.Value != "J" || r.Conflict != "" {
		t.Fatalf("fire row %+v", r)
	}
	m.Key(keyEnter)
	if m.Capture != CaptureKey {
		t.Fatal("not waiting for a key")
	}
	m.Key(87) // W: forward's key
	if got := m.Bindings(); len(got["fire"]) != 1 || got["fire"][0] != 87 || m.TakeChanges() != ChangeKeys {
		t.Fatalf("bindings %v", got)
	}
	if r := m.Rows[m.Focus]; r.Value != "W" || r.Conflict != "W also Forward" || !strings.Contains(m.Status, "W also Forward") {
		t.Fatalf("fire row %+v, status %q", r, m.Status)
	}
	fwd := focus(t, m, RowKey, "Forward")
	if fwd.Conflict != "W also Fire" {
		t.Fatalf("forward row %+v", fwd)
	}
	// Engine and window keys are refused; Escape cancels.
	for _, code := range []int{9, 13, 121} {
		m.Key(keyEnter)
		m.Key(code)
		if m.Capture != CaptureNone || !strings.HasSuffix(m.Status, "not bound") {
			t.Fatalf("key %d: capture %v status %q", code, m.Capture, m.Status)
		}
	}
	m.Key(keyEnter)
	m.Key(keyEscape)
	if m.Capture != CaptureNone || !m.Open || m.TakeChanges() != 0 {
		t.Fatal("Escape while waiting for a key")
	}
	// Delete gives fire its own key back; binding a command to its own
	// single key needs no binding either.
	focus(t, m, RowKey, "Fire")
	m.Key(keyDelete)
	m.Key(keyEnter)
	m.Key(74)
	if b := m.Bindings(); len(b) != 0 {
		t.Fatalf("bindings %v", b)
	}
	// The spectator's commands are listed, and say so.
	focus(t, m, RowKey, "Watch next player (spectating)")
	// What was saved comes back with SetGame.
	m.SetGame("tanks", tanksKeys(), input.Binding{"fire": {32}})
	if r := focus(t, m, RowKey, "Fire"); r.Value != "Space" {
		t.Fatalf("loaded binding %+v", r)
	}
}

func TestSettingsPadBindings(t *testing.T) {
	m := openMenu(t)
	r := focus(t, m, RowPad, "Fire")
	if r.Value != "A button, Right trigger" {
		t.Fatalf("fire row %+v", r)
	}
	m.Key(keyEnter)
	if m.Capture != CapturePad {
		t.Fatal("not waiting for a gamepad control")
	}
	m.Key(78) // a key does not bind a gamepad row
	if m.Capture != CapturePad {
		t.Fatal("a key ended the gamepad capture")
	}
	m.Pad(input.PadRB) // nextWeapon's, and nextPlayer's when spectating
	if m.TakeChanges() != ChangePads || m.Status != "Right bumper: Fire (was Next weapon)" {
		t.Fatalf("status %q", m.Status)
	}
	pm := m.PadMap()
	if got := strings.Join(pm[input.PadRB], " "); got != "fire nextPlayer" {
		t.Fatalf("rb carries %q", got)
	}
	if got := m.S.Pads["tanks"]["rb"]; strings.Join(got, " ") != "fire nextPlayer" {
		t.Fatalf("saved %v", got)
	}
	if r := focus(t, m, RowPad, "Next weapon"); r.Value != "—" {
		t.Fatalf("nextWeapon row %+v", r)
	}
	// Start and Back keep opening the menu and the scoreboard; Back cancels.
	focus(t, m, RowPad, "Fire")
	m.Key(keyEnter)
	m.Pad(input.PadStart)
	if !strings.HasSuffix(m.Status, "not bound") {
		t.Fatalf("start: %q", m.Status)
	}
	m.Key(keyEnter)
	m.Pad(input.PadBack)
	if m.Capture != CaptureNone || m.TakeChanges() != 0 {
		t.Fatal("Back while waiting")
	}
	m.Key(keyDelete)
	if m.S.Pads != nil || m.TakeChanges() != ChangePads {
		t.Fatalf("after reset %v", m.S.Pads)
	}
	// The gamepad moves through the overlay too.
	at := m.Focus
	m.Pad(input.PadDown)
	m.Pad(input.PadUp)
	m.Pad(input.PadB)
	if m.Focus != at || m.Open {
		t.Fatalf("pad navigation: focus %d (was %d), open %v", m.Focus, at, m.Open)
	}
}

// The overlay scrolls to keep the focus in view and takes clicks.
func TestSettingsLayoutAndClicks(t *testing.T) {
	m := openMenu(t)
	g := m.Layout(1280, 480)
	if len(g.Rows) >= len(m.Rows) || !g.More[1] || g.More[0] {
		t.Fatalf("%d of %d rows shown, more %v", len(g.Rows), len(m.Rows), g.More)
	}
	focus(t, m, RowPad, "Turn right")
	g = m.Layout(1280, 480)
	if last := g.Rows[len(g.Rows)-1]; last.Index != m.Focus || !g.More[0] {
		t.Fatalf("focus %d not the last shown row %d", m.Focus, last.Index)
	}
	for _, rg := range g.Rows {
		if !g.Card.Contains(rg.Row.X, rg.Row.Y) || rg.Row.Y+rg.Row.H > g.Footer.Y+0.5 {
			t.Fatalf("row %+v outside the card %+v", rg.Row, g.Card)
		}
	}
	m.Focus = 1
	g = m.Layout(1280, 720)
	row := func(label string) geom.Rect {
		for _, rg := range g.Rows {
			if m.Rows[rg.Index].Label == label {
				return rg.Row
			}
		}
		t.Fatalf("%q not shown", label)
		return geom.Rect{}
	}
	vs := row("Vsync")
	m.Click(1280, 720, vs.X+5, vs.Y+5)
	if m.S.Vsync || m.TakeChanges() != ChangeVsync {
		t.Fatal("a click on Vsync did not turn it off")
	}
	bar := SliderBar(row("Effects volume"))
	m.Click(1280, 720, bar.X+bar.W*0.25, bar.Y+2)
	if m.S.EffectsVolume != 0.25 || m.TakeChanges() != ChangeVolume {
		t.Fatalf("effects %v", m.S.EffectsVolume)
	}
	m.Click(1280, 720, 2, 2)
	if m.Open {
		t.Fatal("a click outside the card did not close it")
	}
}

// Without a game there is nothing to bind, and the overlay says so.
func TestSettingsWithoutGame(t *testing.T) {
	m := New(settings.Default(), nil)
	m.Toggle()
	last := m.Rows[len(m.Rows)-1]
	if last.Kind != RowHeading || !strings.Contains(last.Label, "join a game") {
		t.Fatalf("last row %+v", last)
	}
	for range 20 {
		m.Key(keyDown)
		if m.Rows[m.Focus].Kind == RowHeading {
			t.Fatal("focus on a heading")
		}
	}
}

// The HUD scale starts at Auto, the slider's first stop: right goes to
// 0.75×, left from there back to Auto; Auto follows the window's width.
func TestHUDScaleAuto(t *testing.T) {
	m := openMenu(t)
	focus(t, m, RowSlider, "HUD scale")
	if r := m.Rows[m.Focus]; r.Value != "Auto" || r.Fraction != 0 {
		t.Fatalf("default HUD scale row %+v, want Auto at the slider's start", r)
	}
	m.Key(keyRight)
	if m.S.HUDScale != 0.75 || m.Rows[m.Focus].Value != "0.75×" {
		t.Fatalf("right of Auto: %v %q", m.S.HUDScale, m.Rows[m.Focus].Value)
	}
	m.Key(keyLeft)
	if m.S.HUDScale != HUDScaleAuto || m.TakeChanges()&ChangeHUDScale == 0 {
		t.Fatalf("left of 0.75×: %v", m.S.HUDScale)
	}
	for _, c := range []struct{ set, w, want float64 }{
		{HUDScaleAuto, 1280, 1}, {HUDScaleAuto, 1920, 1.5}, {HUDScaleAuto, 800, 0.75}, {HUDScaleAuto, 3840, 2},
		{HUDScaleAuto, 0, 1}, {1.25, 1920, 1.25},
	} {
		if got := HUDScaleFor(c.set, c.w); got != c.want {
			t.Errorf("HUDScaleFor(%v, %v) = %v, want %v", c.set, c.w, got, c.want)
		}
	}
}

// With no match to give its game (the start screen), the overlay binds
// the keys of a game chosen on its Game row: the one edited last, ←/→ and
// Enter step through the offered games, each with its saved bindings; a
// match's game hides the row again.
func TestSettingsChooseGameToBind(t *testing.T) {
	snakes := input.Config{KeySets: []map[int]string{{}, {37: "left", 39: "right"}}}
	saved := map[string]input.Binding{"snakes": {"left": {65}}}
	var read []string
	m := New(settings.Default(), nil)
	m.OfferGames([]OfferedGame{{ID: "tanks", Title: "Tanks", Keys: tanksKeys()}, {ID: "snakes", Title: "Snakes", Keys: snakes}},
		func(game string) input.Binding { read = append(read, game); return saved[game] })
	m.ChooseGame()
	m.Toggle()
	r := focus(t, m, RowChoice, "Game")
	if m.Game() != "tanks" || r.Value != "Tanks" || len(read) != 1 {
		t.Fatalf("game %q, row %q, read %v", m.Game(), r.Value, read)
	}
	m.Key(keyRight)
	if m.Game() != "snakes" || m.Rows[m.Focus].Value != "Snakes" || read[len(read)-1] != "snakes" {
		t.Fatalf("after →: game %q, row %+v, read %v", m.Game(), m.Rows[m.Focus], read)
	}
	if r := focus(t, m, RowKey, "Turn left"); r.Value != "A" {
		t.Fatalf("snakes' saved left is %q, want A", r.Value)
	}
	m.Key(keyEnter)
	m.Key(90) // Z
	if b := m.Bindings(); len(b["left"]) != 1 || b["left"][0] != 90 || m.TakeChanges()&ChangeKeys == 0 {
		t.Fatalf("bindings %v", b)
	}
	focus(t, m, RowChoice, "Game")
	m.Key(keyEnter)
	if m.Game() != "tanks" {
		t.Fatalf("Enter stepped to %q", m.Game())
	}
	m.Toggle()
	m.ChooseGame() // opened again: the game edited last
	if m.Game() != "tanks" {
		t.Fatalf("reopened on %q", m.Game())
	}
	m.SetGame("snakes", snakes, nil) // a match's game
	for _, r := range m.Rows {
		if r.Kind == RowChoice && r.Label == "Game" {
			t.Fatal("the Game row stays while a match gives its game")
		}
	}
}

// The player names toggle starts on and turns the names off, saying so to
// the wiring.
func TestSettingsNamesToggle(t *testing.T) {
	m := openMenu(t)
	focus(t, m, RowToggle, "Player names")
	if r := m.Rows[m.Focus]; r.Value != "On" {
		t.Fatalf("row %+v: names start off", r)
	}
	m.Key(keyEnter)
	if c := m.TakeChanges(); c != ChangeNames || m.S.Names {
		t.Fatalf("changes %b, names %v", c, m.S.Names)
	}
	if r := m.Rows[m.Focus]; r.Value != "Off" {
		t.Fatalf("row %+v after the toggle", r)
	}
}

// The keyboard rows list a game's commands as a player reads them:
// moving, then aiming, then firing and weapons, opposites side by side,
// the spectator's last.
func TestSettingsKeyRowsInPlayersOrder(t *testing.T) {
	m := openMenu(t)
	var got []string
	for _, r := range m.Rows {
		if r.Kind == RowKey {
			got = append(got, r.Label)
		}
	}
	want := []string{"Forward", "Reverse", "Turn left", "Turn right", "Gun left", "Gun right", "Centre gun",
		"Fire", "Next weapon", "Previous weapon", "Watch next player (spectating)", "Watch previous player (spectating)"}
	if !slices.Equal(got, want) {
		t.Fatalf("key rows\n%q\nwant\n%q", got, want)
	}
}

// The night lighting toggle starts on and turns the lighting off, saying
// so to the wiring.
func TestSettingsLightingToggle(t *testing.T) {
	m := openMenu(t)
	focus(t, m, RowToggle, "Night lighting")
	if r := m.Rows[m.Focus]; r.Value != "On" {
		t.Fatalf("row %+v: lighting starts off", r)
	}
	m.Key(keyEnter)
	if c := m.TakeChanges(); c != ChangeLighting || m.S.Lighting {
		t.Fatalf("changes %b, lighting %v", c, m.S.Lighting)
	}
	if r := m.Rows[m.Focus]; r.Value != "Off" {
		t.Fatalf("row %+v after the toggle", r)
	}
}
