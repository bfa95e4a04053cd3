package tankclient

import (
	"math"
	"testing"

	"vimpclient/clientcore"
	"vimpclient/predict"
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
	row := []float32{cx - half, cy - half, 0, 0, 0, 0}
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
	if !ok || len(tail) != 2 || tail[1].Key() != cs.key.Name || tail[1].ID != 0 || len(tail[1].Fields) != 6 {
		t.Fatalf("tail %+v", tail)
	}
	if math.Abs(float64(tail[1].Fields[0]-(c.sim.X+c.err.X-half))) > 0.01 {
		t.Fatalf("row is not the corner of the drawn pose: %v vs %v", tail[1].Fields[0], c.sim.X)
	}
	// Reconciliation: the host says the crate is elsewhere; the correction
	// goes into the crate's visual error (snapped beyond 24 units).
	before := c.sim.X
	auth := clientcore.Block{Schema: cs.key, Rows: []clientcore.Row{{ID: 0, Fields: []float64{float64(before - half - 3), float64(cy - half), 0, 0, 0, 0}}}}
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
	moved := []float32{c.sim.X - half, c.sim.Y - half, c.sim.Angle, 0, 0, 0}
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
