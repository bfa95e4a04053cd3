package match

import (
	"encoding/json"
	"testing"
)

// playing is a match of cfg with one human (uid, name) in team, and a
// step function that runs n simulation steps.
func playing(t *testing.T, cfg Config, uid int, name, team string) (*Match, *recorder, func(n int)) {
	t.Helper()
	m, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	r := newRecorder(t, m)
	joinHuman(t, m, uid, name)
	m.Vote(uid, json.RawMessage(`["teamChange","`+team+`"]`))
	now := 1.7e12
	return m, r, func(n int) {
		for i := 0; i < n; i++ {
			now += 1000.0 / 120
			m.Step(now)
		}
	}
}

// A dead player with nobody alive to watch gets frames without a camera
// (the client keeps its last one), not a camera at the map's origin.
func TestDeadPlayerWithNobodyToWatchKeepsTheCamera(t *testing.T) {
	m, r, step := playing(t, Config{Bots: 1, Seed: 1, Log: quiet()}, 1, "Alice", "team1")
	step(8)
	if !r.frame.HasCamera || !r.frame.HasPlayer {
		t.Fatal("a live player's frame has no camera or no player block")
	}
	alice := m.Users[1]
	// Every tank dies: the player has nobody alive to watch.
	for _, p := range m.Players {
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
