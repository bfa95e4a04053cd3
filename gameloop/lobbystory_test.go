package gameloop

import (
	"encoding/json"
	"testing"
	"time"
)

// The story counts from the run's start to the first CONFIG_DATA, and
// each host change from the old host dropped (the first announcement) to
// the new host's CONFIG_DATA; a change whose host never configured has no
// gap, and the list is bounded.
func TestLobbyStory(t *testing.T) {
	t0 := time.Unix(1000, 0)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	s := lobbyStory{gapFor: -1}
	s.configured(t0, at(180))
	s.hostDropped(at(5000))
	s.hostDropped(at(5100)) // a repeat of the announcement
	s.hostChanged(2, "cold", at(5200))
	s.configured(t0, at(6550))
	s.hostChanged(3, "checkpoint", at(9000)) // unannounced, never configured
	s.hostLost(2550 * time.Millisecond)
	b, err := json.Marshal(LobbySummary{JoinMs: s.joinMs, Migrations: s.migrations, HostChanges: s.changes, HostLostMs: s.lostMs})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"master":"","room":"","roomId":"","joinMs":180,"migrations":0,"hostChanges":[{"epoch":2,"mode":"cold","gapMs":1550},{"epoch":3,"mode":"checkpoint","gapMs":null}],"hostLostMs":2550}`
	if string(b) != want {
		t.Fatalf("story\n%s\nwant\n%s", b, want)
	}
	for i := range maxHostChanges + 10 {
		s.hostChanged(4+i, "cold", at(10000+i))
	}
	if len(s.changes) != maxHostChanges {
		t.Fatalf("%d host changes kept", len(s.changes))
	}
	s.configured(t0, at(20000)) // the change past the bound has nowhere to go
}
