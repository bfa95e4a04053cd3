package tanks

import (
	"math"
	"testing"

	"vimpclient/clientcore"
	"vimpclient/parts"
	"vimpclient/testkit/partstest"
	"vimpclient/testkit/rowtest"
)

// Track marks left on a level are painted onto that level's ground decal
// layer (its height, the marks' draw order), once, at the game's alpha,
// and stay there when the tank goes; marks left on a ramp, between
// levels, are drawn by the part at their height every frame.
func TestTrackMarksGoOnTheirLevelsDecalLayer(t *testing.T) {
	s := layeredSchema(t)
	f := newFixture(t, s)
	f.scene.SetMap(bridgeMap(t))
	m1 := s.Key("m1")
	row := func(id uint32, x, z, level float64) clientcore.Row {
		return clientcore.Row{ID: id, Fields: rowtest.Row(t, m1, map[string]float64{"x": x, "y": 300, "condition": 3, "size": 2,
			"team": 1, rowtest.RoleZ: z, rowtest.RoleLevel: level, "engineLoad": 1.5})}
	}
	f.scene.ApplyFrame(frame(block(s, "m1", row(1, 100, 0, 0), row(2, 440, oneLevel, 1), row(3, 600, 0.5*oneLevel, 1))))
	for range 3 { // the first step only notes where each tank stands
		f.scene.Step(16)
	}
	var g partstest.Gfx
	g.Rect = parts.Rect{X: 0, Y: 0, W: 2000, H: 2000}
	f.scene.Stage("vimp").Draw(&g)
	layers := map[float64]partstest.Op{}
	ramp := 0
	for _, op := range g.Ops {
		switch {
		case op.Kind == "decals":
			layers[op.Layer.H] = op
		case op.Kind == "image" && f.tex.Name(op.Tex) == "trackMark":
			if math.Abs(op.H-0.5) > 1e-6 || math.Abs(op.X-600) > 5 {
				t.Errorf("a mark drawn one by one at height %v, x %v: only the ramp's marks are", op.H, op.X)
			}
			ramp++
		}
	}
	if len(layers) != 2 || ramp != 4 {
		t.Fatalf("decal layers at heights %v, ramp marks %d; want layers at 0 and 1 and 4 ramp marks", layers, ramp)
	}
	for h, op := range layers {
		x := 100.0
		if h == 1 {
			x = 440
		}
		if len(op.Decals) != 4 {
			t.Errorf("layer at %v painted %d marks, want 4 (2 steps × 2 tracks)", h, len(op.Decals))
		}
		for _, d := range op.Decals {
			cx, _ := d.M.Apply(trackMarkW/2, trackH/2)
			if math.Abs(cx-x) > 5 || f.tex.Name(d.Tex) != "trackMark" || d.C.A > markAlpha || d.C.A < markAlpha-0.02 {
				t.Errorf("layer at %v: mark at x %v, %s, alpha %v", h, cx, f.tex.Name(d.Tex), d.C.A)
			}
		}
		if op.Layer.FadeRate != markFade {
			t.Errorf("layer fades at %v per ms, want %v", op.Layer.FadeRate, markFade)
		}
	}
	if z := parts.LevelZ(1, 1); layers[1].Layer != f.scene.Stage("vimp").Decals(z, 1, markFade) {
		t.Error("the level's layer is not the stage's at the marks' draw order")
	}
	// The marks of a tank that left stay on the ground; a second draw
	// paints nothing again.
	f.scene.ApplyFrame(frame(block(s, "m1", clientcore.Row{ID: 1, Null: true}, clientcore.Row{ID: 2, Null: true}, clientcore.Row{ID: 3, Null: true})))
	f.scene.Step(16)
	g.Ops = g.Ops[:0]
	f.scene.Stage("vimp").Draw(&g)
	if k := g.Kinds(); k["decals"] != 2 || k["image"] != 0 {
		t.Fatalf("after the tanks left: %v", k)
	}
	for _, op := range g.Ops {
		if len(op.Decals) != 0 {
			t.Fatalf("marks painted twice: %+v", op.Decals)
		}
	}
}
