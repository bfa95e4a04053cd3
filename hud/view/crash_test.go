package view

import (
	"testing"

	"vimpclient/hud"
	"vimpclient/input"
	"vimpclient/protocol"
)

// The result card is drawn over the game once the panel says the player is
// out: the dimmed screen, the card, the figures in their colours and the
// button; without a crash nothing of it is drawn.
func TestCrashCardDrawn(t *testing.T) {
	v := systemView(t)
	cfg, err := protocol.ParseConfig([]byte(`{"modules":{"panel":{"keys":{"s":"score","d":"dead"},
	"fields":[{"name":"score","type":"value"},{"name":"dead","type":"value"}]},
	"controls":{"keySetList":[{},{"82":"respawn"}]}}}`))
	if err != nil {
		t.Fatal(err)
	}
	h := hud.New("h", "snakes", nil)
	h.Handle(cfg, 0)
	h.ModulesReady = true
	keys, _ := input.ConfigFrom(cfg)
	h.SetGameLook(hud.GameLook{HiddenCells: []string{"dead"}, Crash: &hud.CrashSpec{DeadField: "dead", ScoreField: "score",
		Title: "You crashed", Carried: "crystals", Total: "Total score", Respawn: "respawn"}}, keys)
	panel, err := protocol.ParsePanel([]byte(`["s:340","d:13"]`))
	if err != nil {
		t.Fatal(err)
	}
	alive := renderWith(t, "crash-none", v, h, 0, winW, winH, 1, nil)
	card, btn := v.CrashCardRect(&h.Crash, winW, winH)
	if n := count(alive, btn, colCrashButton, 8); n != 0 {
		t.Fatalf("button drawn while alive: %d px", n)
	}
	h.Handle(protocol.Panel(panel), 0)
	if !h.Crash.Shown || h.Crash.Carried != 12 || h.Crash.Key != "R" {
		t.Fatalf("card %+v", h.Crash)
	}
	img := renderWith(t, "crash-card", v, h, 0, winW, winH, 1, nil)
	card, btn = v.CrashCardRect(&h.Crash, winW, winH)
	if n := count(img, btn, colCrashButton, 8); float64(n) < 0.6*btn.W*btn.H {
		t.Fatalf("button: %d px of %v", n, btn)
	}
	if count(img, card, colCrashHaul, 40) < 50 || count(img, card, colCrashGold, 40) < 10 {
		t.Fatal("the haul or the total is not drawn in its colour")
	}
	// Outside the card, the world stand-in (0x222222) under the dim colour
	// at 62 %: about (17, 19, 25).
	if c := px(img, 4, int(hud.PanelH)+8); !near(c, rgb(17, 19, 25), 4) {
		t.Fatalf("screen around the card %v: not dimmed", c)
	}
	if card.W < crashMinW || card.X+card.W/2 != winW/2 {
		t.Fatalf("card %v: not centred or too narrow", card)
	}
}
