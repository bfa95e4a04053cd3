package gameloop

import (
	"testing"

	"vimpclient/hud"
	"vimpclient/input"
)

// The game's keys are kept as CONFIG_DATA gives them; the controller gets
// them with the player's bindings, before and after a rebind.
func TestDisplayKeepsTheGameKeysUnbound(t *testing.T) {
	game := input.Config{KeySets: []map[int]string{{}, {87: "forward", 17: "fire"}}}
	d := display{bindings: input.Binding{"fire": {32}}}
	if _, _, ok := d.rebind(d.bindings); ok {
		t.Fatal("rebound before a game gave its keys")
	}
	bound, problems := d.configured(game)
	if len(problems) != 0 || bound.KeySets[1][32] != "fire" || bound.KeySets[1][17] != "" {
		t.Fatalf("bound %v, problems %v", bound.KeySets, problems)
	}
	if d.keys.KeySets[1][17] != "fire" || !d.haveKeys {
		t.Fatalf("kept %v", d.keys.KeySets)
	}
	bound, _, ok := d.rebind(input.Binding{"forward": {38}})
	if !ok || bound.KeySets[1][38] != "forward" || bound.KeySets[1][17] != "fire" {
		t.Fatalf("rebound %v", bound.KeySets)
	}
}

// A new HUD gets the settings, and a chosen menu entry is reported once.
func TestDisplayAppliesAndReportsOnce(t *testing.T) {
	d := display{reduced: true, palette: hud.PaletteColorBlind, settingsEntry: true}
	h := hud.New("h", "g", nil)
	d.apply(h)
	if !h.Panel.ReducedMotion || h.Palette() != hud.PaletteColorBlind {
		t.Fatalf("reduced %v, palette %q", h.Panel.ReducedMotion, h.Palette())
	}
	d.sent(hud.Out{Kind: hud.OutBrowser})
	if take(&d.settingsAsked) || !take(&d.browserAsked) || take(&d.browserAsked) {
		t.Fatal("menu entries not reported once each")
	}
}
