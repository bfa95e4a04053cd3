package match

import (
	"encoding/json"
	"testing"
)

func TestDeadPlayerWithNobodyToWatchKeepsTheCamera(t *testing.T) {
	m, err := New(Config{Bots: 1, Seed: 1, Log: quiet()})
	if err != nil {
		t.Fatal(err)
	}
	r := newRecorder(t, m)
	joinHuman(t, m, 1, "Alice")
	m.Vote(1, json.RawMessage(`["teamChange","team1"]`))
	now := 1.7e12
	step := func(n int) {
		for i := 0; i < n; i++ {
			now += 1000.0 / 120
			m.Step(now)
		}
	}
	step(8)
	if !r.frame.HasCamera || !r.frame.HasPlayer {
		t.Fatal("a live player's frame has no camera or no player block")
	}
	alice := m.byUID[1]
	// Every tank dies: the player has nobody alive to watch.
	for _, p := range m.players {
		if p != nil && p.tank != nil && p.tank.alive() && p != alice {
			m.damage(p, nil, 1000, "")
		}
	}
	m.damage(alice, nil, 1000, "")
	step(sendEvery)
	if r.frame.HasCamera {
		t.Fatalf("a dead player watching nobody got camera (%v, %v); want none (keep the last)", r.frame.Camera.X, r.frame.Camera.Y)
	}
	if r.frame.HasPlayer {
		t.Fatal("a dead player got a player block")
	}
}
