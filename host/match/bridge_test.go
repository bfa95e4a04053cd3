package match

import (
	"math"
	"testing"

	"vimpclient/gamemap"
)

// The bundled bridge map: 48×32 cells of 19.2 units (step 32, scale 0.6).
// A slab at rows 14–17, columns 12–35 with railings on rows 13 and 18 (a
// gap at columns 20–22 of the north railing) spans a north–south road at
// columns 22–25; ramps at columns 6–11 (climbing east) and 36–41 (climbing
// west) lead onto it.
func TestBridgeMap(t *testing.T) {
	mp, err := bundledMap("bridge")
	if err != nil {
		t.Fatal(err)
	}
	m := mp.Data
	l := m.MapLevels()
	cell := float32(m.CellWorld())
	at := func(col, row float32) (float32, float32) { return (col + 0.5) * cell, (row + 0.5) * cell }
	if !m.Layered() || l.LevelCount() != 2 || l.Cols() != 48 || l.Rows() != 32 || math.Abs(float64(cell-19.2)) > 1e-4 {
		t.Fatalf("bridge: layered %v, %d levels, %d×%d, cell %v", m.Layered(), l.LevelCount(), l.Cols(), l.Rows(), cell)
	}

	// Levels: the slab is level 1, the road under it level 0, a railing is
	// level-1 floor and wall.
	for _, c := range []struct {
		col, row float32
		level    int
	}{{24, 15, 1}, {24, 10, 0}, {24, 20, 0}, {3, 15, 0}, {8, 15, 0}, {24, 13, 1}, {21, 13, 1}} {
		if got := l.LevelAt(at(c.col, c.row)); got != c.level {
			t.Errorf("LevelAt(cell %v,%v) = %d, want %d", c.col, c.row, got, c.level)
		}
	}
	solid := func(level int, col, row float32) bool { x, y := at(col, row); return l.IsSolid(level, x, y) }
	if !solid(1, 24, 13) || solid(1, 21, 13) || solid(0, 24, 15) || !solid(0, 0, 0) {
		t.Error("railings block level 1 only, the gap is open, the road under the bridge is free")
	}

	// Ramps: climbing east at the west end, west at the east end.
	x, y := at(8, 15) // the third of six cells: progress 2.5/6
	s, ok := l.RampAt(x, y)
	if !ok || s.From != 0 || s.To != 1 || s.Dir != [2]float32{1, 0} || math.Abs(float64(s.Progress-2.5/6)) > 1e-4 {
		t.Fatalf("west ramp at %v,%v: %+v %v", x, y, s, ok)
	}
	// Slope: one level of one cell's height over six cells.
	if math.Abs(float64(s.Slope-1.0/6)) > 1e-5 {
		t.Errorf("slope %v, want 1/6", s.Slope)
	}
	if e, ok := l.RampAt(at(40, 16)); !ok || e.Dir != [2]float32{-1, 0} || math.Abs(float64(e.Progress-1.5/6)) > 1e-4 {
		t.Errorf("east ramp: %+v %v", e, ok)
	}
	if _, ok := l.RampAt(at(24, 15)); ok {
		t.Error("a ramp under the bridge")
	}

	// Falls: off the north gap and off the slab both land on the ground.
	landing := func(col, row float32) int { x, y := at(col, row); return l.LandingLevel(1, x, y) }
	if landing(21, 12) != 0 || landing(24, 15) != 0 {
		t.Error("a fall from the bridge lands on the ground")
	}

	// Guards: per ramp block two rails over the five cells past the foot
	// and a cap across the top end, all for ground bodies.
	g := gamemap.RampGuards(l)
	if len(g) != 6 {
		t.Fatalf("guards %+v", g)
	}
	near := func(a, b float32) bool { return math.Abs(float64(a-b)) < 1e-3 }
	west := []gamemap.RampGuard{
		{X: 9.5 * cell, Y: 14 * cell, HalfW: 2.5 * cell, HalfH: 0.05 * cell},
		{X: 9.5 * cell, Y: 18 * cell, HalfW: 2.5 * cell, HalfH: 0.05 * cell},
		{X: 12 * cell, Y: 16 * cell, HalfW: 0.05 * cell, HalfH: 2 * cell},
	}
	for i, w := range west {
		if !near(g[i].X, w.X) || !near(g[i].Y, w.Y) || !near(g[i].HalfW, w.HalfW) || !near(g[i].HalfH, w.HalfH) || g[i].Low != 0 {
			t.Errorf("west guard %d = %+v, want %+v", i, g[i], w)
		}
	}
	if top := g[5]; !near(top.X, 36*cell) || !near(g[3].X, 38.5*cell) {
		t.Errorf("east guards %+v: rails over columns 36–40, cap at column 36", g[3:])
	}

	// Crates and spawn points on both levels.
	var bodyLevels, spawnLevels [2]int
	for _, b := range m.Dynamic {
		bodyLevels[b.Level]++
		if got := l.LevelAt(float32((b.X+b.Width/2)*m.Scale), float32((b.Y+b.Height/2)*m.Scale)); got != b.Level {
			t.Errorf("crate %+v rests on level %d but stands over level %d", b, b.Level, got)
		}
	}
	for _, team := range []string{"team1", "team2"} {
		sp := m.Spawns(team)
		if len(sp) != 10 {
			t.Fatalf("%s has %d spawn points", team, len(sp))
		}
		for _, s := range sp {
			lv := m.SpawnLevel(s)
			spawnLevels[lv]++
			if !l.DrivableCell(lv, int(s.X/m.Step), int(s.Y/m.Step)) {
				t.Errorf("%s spawn %+v on level %d is not on drivable surface", team, s, lv)
			}
		}
	}
	if bodyLevels[0] == 0 || bodyLevels[1] == 0 || spawnLevels[0] == 0 || spawnLevels[1] == 0 {
		t.Fatalf("crates per level %v, spawns per level %v", bodyLevels, spawnLevels)
	}
	if len(mp.geom.Crates) != len(m.Dynamic) || len(mp.geom.Walls.Blocks) == 0 {
		t.Fatalf("simulation geometry: %d crates, %d wall blocks", len(mp.geom.Crates), len(mp.geom.Walls.Blocks))
	}
}
