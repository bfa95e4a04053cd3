package tanks

import (
	"encoding/json"
	"math"
	"testing"

	"vimpclient/gamemap"
)

// shotMap is 12×3 cells of 10 units (levelHeight 10): a ramp in row 1
// over columns 3–5 (x 30..60) climbing east from the ground to level 1,
// whose slab lies on columns 6–9 of row 1.
func shotMap(t testing.TB) *gamemap.MapLevels {
	t.Helper()
	ground, slab := make([][]int, 3), make([][]int, 3)
	for r := range ground {
		ground[r], slab[r] = make([]int, 12), make([]int, 12)
	}
	for c := 3; c <= 5; c++ {
		ground[1][c] = 3
	}
	for c := 6; c <= 9; c++ {
		slab[1][c] = 2
	}
	raw, err := json.Marshal(map[string]any{"step": 10, "scale": 1, "map": ground,
		"levels": map[string]any{"1": map[string]any{"map": slab, "floor": []int{2}}},
		"ramps":  []any{map[string]any{"tile": 3, "dir": "east", "from": 0, "to": 1}}})
	if err != nil {
		t.Fatal(err)
	}
	m, err := gamemap.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return m.MapLevels()
}

// A gun 1 unit above the ground (levelHeight 10) shoots at 0.1 levels.
// East along row 1 from x = 5 the slope (x − 30)/30 passes 0.1 at x = 33:
// t = 28. North from (45, 28) the ray enters the run's side at y = 20
// (t = 8), where the embankment stands 0.5 high: a face. West from under
// the slab at (75, 15) it meets the run's top end at x = 60 (t = 15),
// 1 level high: a face; a shot at 1.1 levels from the slab passes over the
// whole run.
func TestEmbankment(t *testing.T) {
	l := shotMap(t)
	floor := NewBulletLine(0, [2]float32{}, 1, 0, 1, 0, l.LevelHeight())
	if floor.Base != 0.1 || floor.Rate != 0 {
		t.Fatalf("floor shot %+v", floor)
	}
	for _, c := range []struct {
		name       string
		ox, oy, dx float32
		dy, t0     float32
		b          BulletLine
		want       float32
		code       int
		ok         bool
	}{
		{"up the slope", 5, 15, 1, 0, 0, floor, 28, ShotSlope, true},
		{"the side", 45, 28, 0, -1, 0, floor, 8, ShotFace, true},
		{"the top end from below", 75, 15, -1, 0, 0, floor, 15, ShotFace, true},
		{"over it from the slab", 75, 15, -1, 0, 15, BulletLine{Base: 1.1}, 0, 0, false},
		{"beside it", 5, 5, 1, 0, 0, floor, 0, 0, false},
	} {
		got, code, ok := EmbankmentHit(l, c.ox, c.oy, c.dx, c.dy, c.t0, 100, 0, c.b)
		if ok != c.ok || code != c.code || math.Abs(float64(got-c.want)) > 1e-3 {
			t.Errorf("%s: t %v code %d ok %v, want %v %d %v", c.name, got, code, ok, c.want, c.code, c.ok)
		}
	}
	if _, _, ok := EmbankmentHit(l, 5, 15, 1, 0, 0, 100, 1, floor); ok {
		t.Error("a run of the ground stopped a shot on level 1")
	}
	// On the slope (grade 1/3 east, z 1/3) a shot along it rises with it
	// (rate 1/30 a unit) and never meets the slope.
	on := NewBulletLine(1.0/3, [2]float32{1.0 / 3, 0}, 1, 0, 1, 0, 10)
	if math.Abs(float64(on.Rate-1.0/30)) > 1e-7 {
		t.Fatalf("rate %v", on.Rate)
	}
	if _, _, ok := EmbankmentHit(l, 40, 15, 1, 0, 0, 100, 0, on); ok {
		t.Error("a shot along the slope stopped on it")
	}
}

// A tank on the floor (turret top 3 of a 32-unit level: 0.094 levels)
// reaches a shot at 0.075 levels, not one from a bridge at 1.075; one at
// 0.99 levels does.
func TestTankReaches(t *testing.T) {
	if !TankReaches(0, 3, 32, 0.075) || TankReaches(0, 3, 32, 1.075) || !TankReaches(0.99, 3, 32, 1.075) {
		t.Fatal("reach by the turret top")
	}
	if !TankReaches(0, 0, 32, 5) {
		t.Fatal("a model without a turret top is reached by every shot")
	}
}

// wallMap is 12×3 cells of 10 units: a slab of level 1 on columns 1–3 of
// row 1, a ground wall (tile 1) across column 6 declared 1.0 level high
// and one (tile 4) across column 8 without a height.
func wallMap(t testing.TB, heights string) (*gamemap.Map, *Terrain) {
	t.Helper()
	ground, slab := make([][]int, 3), make([][]int, 3)
	for r := range ground {
		ground[r], slab[r] = make([]int, 12), make([]int, 12)
		ground[r][6], ground[r][8] = 1, 4
	}
	for c := 1; c <= 3; c++ {
		slab[1][c] = 2
	}
	raw, err := json.Marshal(map[string]any{"step": 10, "scale": 1, "map": ground, "physicsStatic": []int{1, 4},
		"levels": map[string]any{"1": map[string]any{"map": slab, "floor": []int{2}}},
		"game":   json.RawMessage(`{"wallHeights":` + heights + `}`)})
	if err != nil {
		t.Fatal(err)
	}
	m, err := gamemap.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return m, NewTerrain(m.MapLevels())
}

// From the slab at (25, 15) east at 1.1 levels: past the slab's edge the
// shot flies over the 1.0-high wall of column 6 (x 60) and stops at the
// undeclared one of column 8, t = 80 − 25 = 55. A shot falling 0.005
// levels a unit is at 1.1 − 0.005·35 = 0.925 entering column 6 (t = 35):
// it stops there. Without heights the first wall stops it. From the
// ground the walls stop every shot.
func TestShotRayOverWalls(t *testing.T) {
	m, ter := wallMap(t, `{"0":{"1":1.0},"7":{"1":2},"x":{"1":1},"1":{"2":"high","3":-1}}`)
	h, err := NewWallHeights(m)
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := h.Height(0, 1); !ok || v != 1 {
		t.Fatalf("height %v %v", v, ok)
	}
	if _, ok := h.Height(1, 2); ok {
		t.Fatal("a height that is not a number")
	}
	flat := BulletLine{Base: 1.1}
	if d := ter.ShotRay(1, flat, h, 25, 15, 1, 0, 100); math.Abs(float64(d-55)) > 1e-4 {
		t.Fatalf("over the low wall: %v", d)
	}
	if d := ter.ShotRay(1, BulletLine{Base: 1.1, Rate: -0.005}, h, 25, 15, 1, 0, 100); math.Abs(float64(d-35)) > 1e-4 {
		t.Fatalf("a falling shot: %v", d)
	}
	if d := ter.ShotRay(1, flat, nil, 25, 15, 1, 0, 100); math.Abs(float64(d-35)) > 1e-4 {
		t.Fatalf("no heights: %v", d)
	}
	if d, want := ter.ShotRay(0, BulletLine{Base: 0.1}, h, 25, 15, 1, 0, 100), ter.Ray(0, 25, 15, 1, 0, 100); d != want || math.Abs(float64(d-35)) > 1e-4 {
		t.Fatalf("from the ground: %v, Ray %v", d, want)
	}
	if w, err := NewWallHeights(surfaceMap(t, func(int, int) int { return 0 }, `{}`)); w != nil || err != nil {
		t.Fatalf("no wall heights: %v %v", w, err)
	}
}

func FuzzWallHeights(f *testing.F) {
	f.Add([]byte(`{"0":{"12":1,"20":0.25},"1":{"15":0.35}}`))
	f.Add([]byte(`{"0":{"1":1e308},"-3":{"1":1}}`))
	f.Add([]byte(`{"0":[1]}`))
	f.Fuzz(func(t *testing.T, heights []byte) {
		if !json.Valid(heights) {
			return
		}
		m, ter := wallMap(t, string(heights))
		h, err := NewWallHeights(m)
		if err != nil {
			return
		}
		for lv := -1; lv <= gamemap.MaxLevels; lv++ {
			if v, ok := h.Height(lv, 1); ok && !(v >= 0 && v <= gamemap.MaxLevels) {
				t.Fatalf("height %v", v)
			}
		}
		if d := ter.ShotRay(1, BulletLine{Base: 1.1}, h, 25, 15, 1, 0, 100); !(d >= 0 && d <= 100) {
			t.Fatalf("distance %v", d)
		}
	})
}
