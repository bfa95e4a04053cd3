package gameloop

import (
	"encoding/json"
	"testing"

	"vimpclient/hud"
	"vimpclient/parts"
	"vimpclient/protocol"
	"vimpclient/world"
)

// The world learns the players' names from the scoreboard once a STAT_DATA
// message has been handled: each stat row's id is its entity's id.
func TestNamesFollowTheScoreboard(t *testing.T) {
	l := &Loop{hud: hud.New("h", "g", nil), world: world.New(world.Options{Log: quiet()})}
	cfg, err := protocol.ParseConfig(json.RawMessage(`{"modules":{"stat":{"params":{"columns":["name","score"],"bodies":{"1":"players"}}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	l.hud.Handle(cfg, 0)
	st, err := protocol.ParseStat(json.RawMessage(`[[["3",1,["Alice",5]],["7",1,["Bob",2]],["x",1,["Nobody",0]]],[],true]`))
	if err != nil {
		t.Fatal(err)
	}
	l.giveNames()
	if n := l.world.Name(3); n != "" {
		t.Fatalf("a name %q before any STAT_DATA", n)
	}
	l.overlays(st)
	l.giveNames()
	if a, b := l.world.Name(3), l.world.Name(7); a != "Alice" || b != "Bob" {
		t.Fatalf("names %q and %q, want Alice and Bob", a, b)
	}
	st, err = protocol.ParseStat(json.RawMessage(`[[["7",1,["Bobby",2]]],[],false]`))
	if err != nil {
		t.Fatal(err)
	}
	l.overlays(st)
	l.giveNames()
	if b := l.world.Name(7); b != "Bobby" {
		t.Fatalf("renamed: %q", b)
	}
}

// The world's badges follow ACCOLADES_DATA: a place in the day's top ten
// is one badge, in the month's another, a place past ten none.
func TestBadgesFollowTheAccolades(t *testing.T) {
	l := &Loop{hud: hud.New("h", "g", nil), world: world.New(world.Options{Log: quiet()})}
	a, err := protocol.ParseAccolades(json.RawMessage(`{"places":{"3":{"daily":2,"monthly":null},"7":{"daily":11,"monthly":10},"9":{"daily":1,"monthly":1},"x":{"daily":1}}}`))
	if err != nil {
		t.Fatal(err)
	}
	l.overlays(a)
	l.giveBadges()
	for id, want := range map[uint32]parts.Badges{3: parts.BadgeDay, 7: parts.BadgeMonth, 9: parts.BadgeDay | parts.BadgeMonth, 4: 0} {
		if got := l.world.Badges(id); got != want {
			t.Errorf("entity %d: badges %b, want %b", id, got, want)
		}
	}
	a, _ = protocol.ParseAccolades(json.RawMessage(`null`))
	l.overlays(a)
	l.giveBadges()
	if l.world.Badges(9) != 0 {
		t.Fatal("badges kept after an empty picture")
	}
}
