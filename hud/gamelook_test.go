package hud

import (
	"encoding/json"
	"testing"

	"vimpclient/input"
	"vimpclient/protocol"
)

// The snakes panel as the game declares it (modules.panel of its client
// config): three cells the player reads and four the game's style hides.
func snakesHUD(t *testing.T) *HUD {
	t.Helper()
	cfg, err := protocol.ParseConfig(json.RawMessage(`{"modules":{"panel":{"keys":{"e":"eaten","k":"kills","s":"score","c":"crystals","d":"dead","wa":"mode","t":"time"},
	"fields":[{"name":"eaten","type":"value"},{"name":"kills","type":"value"},{"name":"score","type":"value"},{"name":"crystals","type":"value"},
	{"name":"dead","type":"value"},{"name":"mode","type":"weapon"},{"name":"time","type":"time"}]},
	"controls":{"keySetList":[{"78":"nextPlayer"},{"65":"left","68":"right","87":"boost","82":"respawn"}]}}}`))
	if err != nil {
		t.Fatal(err)
	}
	h := New("h", "snakes", nil)
	h.Handle(cfg, 0)
	keys, _ := input.ConfigFrom(cfg)
	h.SetGameLook(GameLook{HiddenCells: []string{"crystals", "dead", "mode", "time"},
		Crash: &CrashSpec{DeadField: "dead", ScoreField: "score", Title: "You crashed", Carried: "crystals", Total: "Total score", Respawn: "respawn"}}, keys)
	return h
}

func shownCells(p *Panel) map[string]string {
	m := map[string]string{}
	for _, c := range p.Cells {
		if c.Shown {
			m[c.Field.Name] = c.Label
		}
	}
	return m
}

// Hidden cells stay hidden whatever arrives for them; the shown ones read
// as numbers.
func TestPanelHiddenCells(t *testing.T) {
	h := snakesHUD(t)
	h.Handle(protocol.Panel(pcells(t, `["e:12","k:1","s:40","c:9","d:0","wa:CRUISE","t:3599"]`)), 0)
	got := shownCells(h.Panel)
	if len(got) != 3 || got["eaten"] != "EATEN: 12" || got["kills"] != "KILLS: 1" || got["score"] != "SCORE: 40" {
		t.Fatalf("shown %v: want eaten, kills and score", got)
	}
	// The same panel without the game's look shows them all, the mode by
	// its name rather than NaN.
	h.SetGameLook(GameLook{}, input.Config{})
	h.Handle(protocol.Panel(pcells(t, `["c:9","wa:BOOST","t:61"]`)), 0)
	got = shownCells(h.Panel)
	if got["crystals"] != "CRYSTALS: 9" || got["mode"] != "MODE: BOOST" || got["time"] != "TIME: 1:01" {
		t.Fatalf("without the look: %v", got)
	}
	h.Handle(protocol.Panel(pcells(t, `["wa:\u001b[31mBOOSTBOOSTBOOSTBOOSTBOOSTBOOST"]`)), 0)
	if l := []rune(shownCells(h.Panel)["mode"]); len(l) > len("MODE: ")+maxCellText {
		t.Fatalf("a long mode name is not bounded: %q", string(l))
	}
}

// The card follows the host's panel: shown by d = carried + 1 with the
// score of the same message, kept as it was while the host repeats it,
// gone with d:0; a bare key (hidden cell) changes nothing.
func TestCrashCardFromPanel(t *testing.T) {
	h := snakesHUD(t)
	if h.Crash.Shown || h.Crash.Key != "R" {
		t.Fatalf("card %+v before a crash", h.Crash)
	}
	h.Handle(protocol.Panel(pcells(t, `["e:12","s:40","c:9","d:0"]`)), 0)
	if h.Crash.Shown {
		t.Fatal("shown while alive")
	}
	h.Handle(protocol.Panel(pcells(t, `["d:10","s:55","c:0"]`)), 0) // the score after the crash flag in one message
	if !h.Crash.Shown || h.Crash.Carried != 9 || h.Crash.Score != 55 {
		t.Fatalf("card %+v: want 9 carried, total 55", h.Crash)
	}
	h.Handle(protocol.Panel(pcells(t, `["s:70","d:3"]`)), 0)
	if h.Crash.Carried != 9 || h.Crash.Score != 55 {
		t.Fatalf("card changed while shown: %+v", h.Crash)
	}
	h.Handle(protocol.Panel(pcells(t, `["d"]`)), 0)
	if !h.Crash.Shown {
		t.Fatal("a hidden cell hid the card")
	}
	h.Handle(protocol.Panel(pcells(t, `["d:0","c:0"]`)), 0)
	if h.Crash.Shown {
		t.Fatal("card stayed after the respawn")
	}
	h.Handle(protocol.Panel(pcells(t, `["d:1"]`)), 0)
	if !h.Crash.Shown || h.Crash.Carried != 0 || h.Crash.Score != 70 {
		t.Fatalf("second crash: %+v", h.Crash)
	}
	// A new configuration (another game) drops the card until its look is set.
	cfg, _ := protocol.ParseConfig(json.RawMessage(`{}`))
	h.Handle(cfg, 0)
	h.Handle(protocol.Panel(pcells(t, `["d:5"]`)), 0)
	if h.Crash.Shown || h.Crash.Spec != nil {
		t.Fatalf("card %+v after CONFIG_DATA", h.Crash)
	}
}
