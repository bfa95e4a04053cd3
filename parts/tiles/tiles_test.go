package tiles_test

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"vimpclient/gamemap"
	"vimpclient/parts"
	"vimpclient/parts/tiles"
	"vimpclient/testkit/partstest"
)

// bridge is the embedded host's layered map: a road under a bridge (level
// 1, railings with a volume of 0.35 levels) with a ramp at each end, and
// ground walls one level tall.
func bridge(t *testing.T) *gamemap.Map {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "host", "match", "maps", "bridge.json"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := gamemap.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func build(t *testing.T, m *gamemap.Map) (*parts.Stage, []*tiles.TileLayer, *partstest.Textures) {
	tex := partstest.NewTextures(nil)
	tex.Loaded["tiles.png"] = [2]int{128, 32}
	st := parts.NewStage("vimp")
	c := &parts.Ctx{Stage: st, Tex: tex, Levels: parts.NewLevels()}
	var out []*tiles.TileLayer
	for _, p := range tiles.Build(c, m) {
		out = append(out, p.(*tiles.TileLayer))
	}
	return st, out, tex
}

// Render data per level: level 0 from the map's layers over its grid, level
// 1 from its own layers over its own grid; the instances are numbered
// s0..s4 across both levels, each knows its level, and level 1 draws above
// everything of the ground.
func TestLayersPerLevel(t *testing.T) {
	m := bridge(t)
	_, ls, _ := build(t, m)
	if len(ls) != 5 {
		t.Fatalf("%d layers, want 3 ground + 2 bridge", len(ls))
	}
	for i, l := range ls {
		want := 0
		if i >= 3 {
			want = 1
		}
		if l.ID != i || l.Level != want {
			t.Errorf("layer %d: s%d on level %d", i, l.ID, l.Level)
		}
	}
	// The slab (level 1's layer "1", tile 4) has cells only where the bridge
	// is, and the ground's floor layer none there that the slab lacks.
	slab := partstest.Cells(ls[3].Static(), true)
	if len(slab) != 24*4+3 { // four rows of floor, three floor cells in the north railing's gap
		t.Errorf("slab layer draws %d cells", len(slab))
	}
	for _, c := range slab {
		if c.Col < 12 || c.Col >= 36 || c.Row < 13 || c.Row > 18 {
			t.Fatalf("slab cell outside the bridge: %+v", c)
		}
	}
	if ls[1].Volume != 1 || ls[4].Volume != 0.35 || ls[0].Volume != 0 {
		t.Errorf("volumes %v %v %v", ls[0].Volume, ls[1].Volume, ls[4].Volume)
	}
}

// drawAll draws the stage with the view (at the ground) centred on cam.
func drawAll(st *parts.Stage, cam parts.Vec) *partstest.Gfx {
	g := &partstest.Gfx{Rect: parts.Rect{X: cam.X - 200, Y: cam.Y - 120, W: 400, H: 240}}
	st.Draw(g)
	return g
}

// A layer with a volume is not drawn flat: its raised part draws the sides
// that face the camera, from its level up to its top, then its tiles at the
// top's height.
func TestVolumeSidesFaceTheCamera(t *testing.T) {
	m := bridge(t)
	st, ls, _ := build(t, m)
	cell := m.CellWorld()
	// The wall block at columns 8-11, rows 4-6 of the ground; the camera
	// west of it and level with its middle row.
	cam := parts.Vec{X: 5 * cell, Y: 5.5 * cell}
	g := drawAll(st, cam)
	var walls, wallTops int
	for _, op := range g.Ops {
		switch {
		case op.Kind == "static" && op.Static == ls[1].Static():
			if op.H != 1 {
				t.Errorf("the walls' top drawn at height %v", op.H)
			}
			wallTops++
		case op.Kind == "mesh" && len(op.Mesh) == 4 && op.Mesh[0].H == 1 && op.Mesh[3].H == 0:
			v := op.Mesh
			if v[0].X != v[1].X && v[0].Y != v[1].Y {
				t.Fatalf("a side that is not on a cell edge: %+v", v)
			}
			// A side on the x edge faces the camera only if the camera is on
			// the side it faces; for the block, that is its west side.
			if v[0].X == v[1].X && v[0].X > cam.X && v[0].Y >= 4*cell && v[0].Y < 7*cell && v[0].X != 8*cell {
				t.Errorf("the block's east side at x %v is drawn with the camera west of it", v[0].X)
			}
			walls++
		}
	}
	if wallTops != 1 || walls == 0 {
		t.Fatalf("walls: %d tops at height 1, %d sides", wallTops, walls)
	}
	// The ground walls' layer itself draws nothing flat, and the sides come
	// before the top.
	top := -1
	for i, op := range g.Ops {
		if op.Kind == "static" && op.Static == ls[1].Static() {
			top = i
		}
	}
	for i, op := range g.Ops {
		if op.Kind == "mesh" && op.Mesh[0].H == 1 && op.Mesh[3].H == 0 && i > top {
			t.Fatal("a side drawn over the walls' top")
		}
	}
}

// Ramps are drawn by the layer that draws their tiles, as wedges: a slope
// rising from level 0 at its foot to level 1 at its top, skirts along the
// rail span the physics guards (gamemap.RampRailSpan), and a wall across
// the upper end; the foot stays open.
func TestRampWedges(t *testing.T) {
	m := bridge(t)
	st, _, _ := build(t, m)
	ml := m.MapLevels()
	runs := ml.Runs()
	if len(runs) == 0 {
		t.Fatal("no ramp runs")
	}
	r := runs[0] // an east-climbing run of tile 6 (columns 6-11)
	lo, hi, ok := gamemap.RampRailSpan(r, ml.TileSize())
	if !ok || r.Sign <= 0 || r.Axis != 0 {
		t.Fatalf("run %+v rails %v %v %v", r, lo, hi, ok)
	}
	cam := parts.Vec{X: float64(r.Min+r.Max) / 2, Y: float64(r.CrossMin) - 40}
	g := drawAll(st, cam)
	var slopeMin, slopeMax = math.Inf(1), math.Inf(-1)
	var skirtLo, skirtHi = math.Inf(1), math.Inf(-1)
	cap := false
	for _, op := range g.Ops {
		if op.Kind != "mesh" {
			continue
		}
		for i := 0; i+3 < len(op.Mesh); i += 4 {
			q := op.Mesh[i : i+4]
			inRun := q[0].Y >= float64(r.CrossMin) && q[0].Y <= float64(r.CrossMax) && q[0].X >= float64(r.Min) && q[0].X <= float64(r.Max)
			if !inRun {
				continue
			}
			switch {
			case q[0].X == q[1].X && q[0].X == float64(r.Max) && q[0].H == 1 && q[2].H == 0:
				cap = true // the upper end's wall
			case q[0].Y == q[1].Y && q[0].Y == q[2].Y && (q[0].Y == float64(r.CrossMin) || q[0].Y == float64(r.CrossMax)):
				skirtLo, skirtHi = math.Min(skirtLo, q[0].X), math.Max(skirtHi, q[1].X)
				if q[2].H != 0 || q[3].H != 0 {
					t.Fatalf("a skirt not standing on the ground: %+v", q)
				}
			case q[0].Y != q[3].Y:
				for _, v := range q {
					want := (v.X - float64(r.Min)) / float64(r.Max-r.Min)
					if math.Abs(v.H-want) > 1e-6 {
						t.Fatalf("slope vertex at x %v has height %v, want %v", v.X, v.H, want)
					}
					slopeMin, slopeMax = math.Min(slopeMin, v.H), math.Max(slopeMax, v.H)
				}
			}
		}
	}
	if slopeMin != 0 || slopeMax != 1 {
		t.Errorf("slope from %v to %v levels, want 0 to 1", slopeMin, slopeMax)
	}
	if math.Abs(skirtLo-float64(lo)) > 1e-4 || math.Abs(skirtHi-float64(hi)) > 1e-4 {
		t.Errorf("skirts over %v..%v, the rails over %v..%v", skirtLo, skirtHi, lo, hi)
	}
	if !cap {
		t.Error("no wall across the ramp's upper end")
	}
}
