package hud

import (
	"encoding/json"
	"strings"
	"testing"

	"vimpclient/protocol"
	"vimpclient/testkit/capturetest"
)

// roomHUD is a HUD with the fixture's config and two players on the
// scoreboard: Alice (game id 3) and Bob (game id 7).
func roomHUD(t *testing.T) *HUD {
	t.Helper()
	lines := capturetest.Load(t, "minigame-dedicated.jsonl")
	pc, err := protocol.ParseConfig(capturetest.First(t, lines, "A", protocol.ConfigData))
	if err != nil {
		t.Fatal(err)
	}
	h := New("h", "g", nil)
	h.Handle(pc, 0)
	st, err := protocol.ParseStat(json.RawMessage(`[[["3",1,["Alice","",5,0,20]],["7",1,["Bob","",2,1,"BOT"]]],[],true]`))
	if err != nil {
		t.Fatal(err)
	}
	h.Handle(st, 0)
	return h
}

func accolades(t *testing.T, raw string) *protocol.Accolades {
	t.Helper()
	a, err := protocol.ParseAccolades(json.RawMessage(raw))
	if err != nil {
		t.Fatal(err)
	}
	return a
}

const board = `{"places":{"3":{"daily":2,"monthly":null},"7":{"daily":null,"monthly":null}},
	"boards":{"day":[{"place":1,"nick":"Zed","score":120},{"place":2,"nick":"alice","score":90},{"place":3,"nick":"Cy","score":40}]},
	"self":{"3":{"day":{"place":2,"score":90}}}}`

func TestAccoladesModelAndBanner(t *testing.T) {
	h := roomHUD(t)
	h.Self("Alice", "3")
	h.Handle(accolades(t, board), 1000)
	a := h.Accolades
	if !a.Received || a.Places["3"]["daily"] != 2 || len(a.Boards["day"]) != 3 {
		t.Fatalf("model %+v", a)
	}
	if !a.BannerShown || a.Banner != "Leaderboard: You #2 today" {
		t.Fatalf("banner %q shown %v", a.Banner, a.BannerShown)
	}
	// The same placements again raise no new banner; it goes after BannerMs.
	h.Update(1000 + BannerMs - 1)
	h.Handle(accolades(t, board), 1000+BannerMs-1)
	if a.BannerAt != 1000 {
		t.Fatalf("banner raised again at %v", a.BannerAt)
	}
	h.Update(1000 + BannerMs)
	if a.BannerShown {
		t.Fatal("banner still shown")
	}
	// Bob enters the top: a new banner, the local player first, names from
	// the scoreboard.
	h.Handle(accolades(t, strings.Replace(board, `"7":{"daily":null,"monthly":null}`, `"7":{"daily":1,"monthly":4}`, 1)), 9000)
	if !a.BannerShown || a.Banner != "Leaderboard: You #2 today · Bob #1 today, #4 this month" {
		t.Fatalf("banner %q", a.Banner)
	}
	// An empty picture clears the boards and raises nothing.
	h.Handle(accolades(t, `null`), 9500)
	if len(a.Boards) != 0 || len(h.Stat.Leader) != 0 || a.BannerAt != 9000 {
		t.Fatalf("after null: %+v", a)
	}
}

func TestLeaderboardRowsMarkAndReplaceSelf(t *testing.T) {
	h := roomHUD(t)
	h.Handle(accolades(t, board), 0)
	if got := len(h.Stat.Leader); got != 3 || h.Stat.Leader[1].Self {
		t.Fatalf("rows %+v", h.Stat.Leader)
	}
	// In the top (case-insensitive nick): marked in place.
	h.Self("Alice", "3")
	if l := h.Stat.Leader; len(l) != 3 || !l[1].Self || l[1].Place != "2" || l[1].Score != "90" || l[0].Self {
		t.Fatalf("self in top %+v", l)
	}
	// Outside a top cut to two rows: their own row replaces the last.
	h.Stat.Limit = 2
	h.Self("Bob", "7")
	h.Handle(accolades(t, strings.Replace(board, `"self":{"3"`, `"self":{"7":{"day":{"place":null,"score":3}},"3"`, 1)), 0)
	l := h.Stat.Leader
	if len(l) != 2 || l[0].Nick != "Zed" || !l[1].Self || l[1].Nick != "Bob" || l[1].Place != "—" || l[1].Score != "3" {
		t.Fatalf("self outside %+v", l)
	}
}

func TestLeaderboardModeFromConfig(t *testing.T) {
	raw := `{"modules":{"stat":{"params":{"mode":"leaderboard","period":"month","limit":5,"columns":["#","snake","score"]}}}}`
	pc, err := protocol.ParseConfig(json.RawMessage(raw))
	if err != nil {
		t.Fatal(err)
	}
	h := New("h", "g", nil)
	h.Handle(pc, 0)
	if !h.Stat.LeaderboardMode() || h.Stat.Period != "month" || h.Stat.Limit != 5 {
		t.Fatalf("stat %+v", h.Stat)
	}
	h.Handle(accolades(t, `{"boards":{"day":[{"place":1,"nick":"A","score":1}],"month":[{"place":1,"nick":"B","score":9}]}}`), 0)
	if len(h.Stat.Leader) != 1 || h.Stat.Leader[0].Nick != "B" {
		t.Fatalf("month board %+v", h.Stat.Leader)
	}
}
