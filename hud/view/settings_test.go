package view

import (
	"testing"

	"github.com/hajimehoshi/ebiten/v2"

	"vimpclient/hud"
	"vimpclient/hud/settingsmenu"
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

// TestSettingsOverlayScreenshot draws the overlay over the busy scene with
// fire bound onto forward's key: the card with its rows inside it, the
// focused row highlighted, the clash in the error colour, the game dimmed
// around the card.
func TestSettingsOverlayScreenshot(t *testing.T) {
	v := systemView(t)
	h := scene(t)
	m := settingsmenu.New(settings.Default(), nil)
	m.SetGame("tanks", tanksKeys(), input.Binding{"fire": {87}})
	m.Toggle()
	m.Key(39) // master volume 100 % → stays; effects next
	m.Key(40)
	m.Key(37)
	m.Key(37) // effects 90 %
	var g settingsmenu.Geom
	bare := renderWith(t, "settings-bare", v, h, 8000, winW, winH, 1, nil)
	img := renderWith(t, "settings-overlay", v, h, 8000, winW, winH, 1, func(img *ebiten.Image) {
		v.DrawSettings(img, m, 8000, 1)
		g = m.Layout(winW, winH)
	})
	if n := count(img, g.Card, colCmdBorder, 20); n < 500 {
		t.Fatalf("card border: %d px", n)
	}
	// Outside the card the game shows through, darker.
	for _, p := range [][2]int{{5, 5}, {winW - 5, winH - 5}, {int(g.Card.X) - 10, int(g.Card.Y + g.Card.H/2)}} {
		a, b := px(img, p[0], p[1]), px(bare, p[0], p[1])
		if luminance(a) >= luminance(b) && luminance(b) > 0.001 {
			t.Errorf("at %v the game is not dimmed: %v over %v", p, a, b)
		}
	}
	var focus, fire hud.Rect
	for _, rg := range g.Rows {
		if rg.Index == m.Focus {
			focus = rg.Row
		}
		if r := m.Rows[rg.Index]; r.Kind == settingsmenu.RowKey && r.Label == "Fire" {
			fire = rg.Row
		}
		if !g.Card.Contains(rg.Row.X, rg.Row.Y) || rg.Row.X+rg.Row.W > g.Card.X+g.Card.W {
			t.Fatalf("row %+v leaves the card %+v", rg.Row, g.Card)
		}
	}
	if m.Rows[m.Focus].Label != "Effects volume" || m.S.EffectsVolume != 0.9 {
		t.Fatalf("focus %+v, effects %v", m.Rows[m.Focus], m.S.EffectsVolume)
	}
	// The focused slider: its bar filled to 90 %, the row highlighted.
	bar := settingsmenu.SliderBar(focus)
	if n := count(img, hud.Rect{X: bar.X, Y: bar.Y, W: bar.W * 0.85, H: bar.H}, colSliderFill, 10); n < int(bar.W*0.85*bar.H*0.9) {
		t.Fatalf("slider fill: %d px", n)
	}
	if n := count(img, hud.Rect{X: bar.X + bar.W*0.93, Y: bar.Y, W: bar.W * 0.05, H: bar.H}, colEmpty, 10); n == 0 {
		t.Fatal("the slider's empty end")
	}
	if fire.W == 0 {
		t.Fatal("fire's key row is not shown")
	}
	if n := count(img, fire, colError, 40); n < 40 {
		t.Fatalf("fire's clash with forward: %d px in the error colour", n)
	}
}

// The open overlay draws without allocating, as the HUD does.
func TestSteadySettingsDrawAllocatesNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not kept under the race detector")
	}
	v := systemView(t)
	h := scene(t)
	m := settingsmenu.New(settings.Default(), nil)
	m.SetGame("tanks", tanksKeys(), input.Binding{"fire": {87}})
	m.Toggle()
	for range 12 { // a binding row, waiting for a key: the pulsing value
		m.Key(40)
	}
	m.Key(13)
	a, _ := drawAllocsWith(func(img *ebiten.Image) {
		v.Draw(img, h, 8000, 1)
		v.DrawSettings(img, m, 8000, 1)
	}, 30, nil)
	if a >= 0.5 {
		t.Fatalf("%.2f allocations per draw", a)
	}
}
