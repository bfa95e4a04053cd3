package tankclient

import (
	"testing"

	"vimpclient/clientcore"
	"vimpclient/testkit/rowtest"
)

// Another tank in the own tank's way is captured (its authoritative box
// advanced by 0.2 s of velocity), pushed at constant velocity without
// damping, drawn with its full row, and released when it leaves the
// sampled world or the predictor stops stepping.
func TestRemoteTankPushed(t *testing.T) {
	g, s := hostSchemaGame(t)
	m1 := s.Key("m1")
	tank := func(vx float64) []float32 {
		return rowtest.Row(t, m1, map[string]float64{"x": 120, "y": 100, "gunRotation": 0.5, "vx": vx, "engineLoad": 0.7,
			"condition": 3, "size": 2, "team": 2})
	}
	row := tank(0)
	hot := &clientcore.Hot{Flags: clientcore.HotGame, Actors: []clientcore.Record{
		{Schema: m1, ID: 3, Fields: m1Row(t, s, 100, 100, 3, 1)},
		{Schema: m1, ID: 5, Fields: row}}}
	g.ObserveHot(hot)
	rt := &g.remotes.tanks[5]
	if !rt.seen || rt.predicted || g.remotes.tanks[3].seen {
		t.Fatal("observe: the own tank must be left out, the other one seen")
	}
	// The host's newest frame has tank 5 moving towards the own tank: the
	// probe box (0.2 s ahead) touches at once.
	g.BeginReconcile(&clientcore.Frame{HasPlayer: true, Player: clientcore.PlayerBlock{GameID: 3},
		Blocks: []clientcore.Block{{Schema: m1, Rows: []clientcore.Row{{ID: 5, Fields: tank(-60)}}}}})
	g.FinishReconcile()
	now := 1000.0
	g.Update(now)
	now += 1000.0 / 60
	g.Update(now)
	if !rt.predicted || g.remotes.n != 1 {
		t.Fatal("remote tank not captured")
	}
	if rt.sim.VX != -60 {
		t.Fatalf("constant velocity expected until contact, got %v", rt.sim.VX)
	}
	for i := 0; i < 20; i++ {
		now += 1000.0 / 60
		g.Update(now)
		g.ObserveHot(hot)
	}
	if g.st.X >= 100 || rt.sim.X-g.st.X < 7.9 {
		t.Fatalf("no contact: own x %v, remote x %v", g.st.X, rt.sim.X)
	}
	tail, _, ok := g.Overlay(3, true, nil)
	get := func(name string) float32 { return rowtest.Get(t, m1, tail[1].Fields, name) }
	if !ok || len(tail) != 2 || tail[1].ID != 5 || get("gunRotation") != 0.5 || get("team") != 2 || get("vx") != rt.sim.VX {
		t.Fatalf("tail %+v", tail)
	}
	// Gone from the sampled world: released at once.
	g.ObserveHot(&clientcore.Hot{Flags: clientcore.HotGame, Actors: hot.Actors[:1]})
	if rt.predicted || g.remotes.n != 0 {
		t.Fatal("a tank missing from the world stayed predicted")
	}
	if tail, _, _ := g.Overlay(3, true, nil); len(tail) != 1 {
		t.Fatal("released tank still drawn from the prediction")
	}
}
