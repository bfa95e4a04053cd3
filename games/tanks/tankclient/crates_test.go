package tankclient

import (
	"math"
	"testing"

	"vimpclient/clientcore"
	"vimpclient/predict"
	"vimpclient/testkit/rowtest"
)

// A crate in the own tank's path is captured, pushed in the prediction,
// drawn from the prediction (corner origin, c1 layout), and handed back to
// the drawn world once idle and converged.
func TestCratePushedAndReleased(t *testing.T) {
	g, _ := hostSchemaGame(t)
	cs := &g.crates
	if len(cs.crates) == 0 || cs.key == nil {
		t.Fatal("no crates")
	}
	c := &cs.crates[0]
	half := c.sim.HalfW
	// Put crate 0 (angle 0) 12 units ahead of the tank's nose: centre at
	// x = 100 + 4 + 12 + half.
	cx, cy := 100+4+12+half, float32(100)
	corner := func(x, y, angle float32) []float32 {
		return rowtest.Row(t, cs.key, map[string]float64{"x": float64(x), "y": float64(y), "angle": float64(angle)})
	}
	row := corner(cx-half, cy-half, 0)
	hot := &clientcore.Hot{Dynamics: []clientcore.Record{{Schema: cs.key, ID: 0, Fields: row}}}
	g.ObserveHot(hot)
	if c.predicted || c.sim.X != cx {
		t.Fatalf("follow pose: %+v", c.sim)
	}
	g.ApplyInput(1, true, "forward", 1000)
	now := 1000.0
	for i := 0; i < 60 && !c.predicted; i++ {
		now += 1000.0 / 60
		g.Update(now)
		g.ObserveHot(hot)
	}
	if !c.predicted {
		t.Fatal("crate never captured")
	}
	for i := 0; i < 30; i++ {
		now += 1000.0 / 60
		g.Update(now)
		g.ObserveHot(hot)
	}
	if c.sim.X <= cx+1 {
		t.Fatalf("crate not pushed: %v", c.sim.X)
	}
	tail, _, ok := g.Overlay(3, true, nil)
	if !ok || len(tail) != 2 || tail[1].Key() != cs.key.Name || tail[1].ID != 0 || len(tail[1].Fields) != len(cs.key.Fields) {
		t.Fatalf("tail %+v", tail)
	}
	if x := rowtest.Get(t, cs.key, tail[1].Fields, "x"); math.Abs(float64(x-(c.sim.X+c.err.X-half))) > 0.01 {
		t.Fatalf("row is not the corner of the drawn pose: %v vs %v", x, c.sim.X)
	}
	// Reconciliation: the host says the crate is elsewhere; the correction
	// goes into the crate's visual error (snapped beyond 24 units).
	before := c.sim.X
	auth := clientcore.Block{Schema: cs.key, Rows: []clientcore.Row{{ID: 0, Fields: corner(before-half-3, cy-half, 0)}}}
	g.BeginReconcile(&clientcore.Frame{HasPlayer: true, Player: clientcore.PlayerBlock{GameID: 3}, Blocks: []clientcore.Block{auth}})
	g.FinishReconcile()
	if math.Abs(float64(c.err.X)-3) > 0.01 {
		t.Fatalf("crate error %+v", c.err)
	}
	// Stop, back off, and let the drawn world catch up: released.
	g.ApplyInput(2, false, "forward", now)
	g.ApplyInput(3, true, "back", now)
	for i := 0; i < 40; i++ {
		now += 1000.0 / 60
		g.Update(now)
	}
	g.ApplyInput(4, false, "back", now)
	moved := corner(c.sim.X-half, c.sim.Y-half, c.sim.Angle)
	hot.Dynamics[0].Fields = moved
	for i := 0; i < 60; i++ {
		now += 1000.0 / 60
		g.Update(now)
		g.ObserveHot(hot)
	}
	if c.predicted || cs.n != 0 || c.err != (predict.VisualError{}) {
		t.Fatalf("crate not released: predicted %v n %d err %+v", c.predicted, cs.n, c.err)
	}
	// A key set change stops the steps: everything is released at once.
	g.ApplyInput(5, true, "forward", now)
	for i := 0; i < 60 && !c.predicted; i++ {
		now += 1000.0 / 60
		g.Update(now)
	}
	g.SetActive(false)
	g.Update(now + 16)
	if c.predicted || cs.n != 0 {
		t.Fatal("crates kept while not stepping")
	}
}
