package gamemap

import (
	"math"
	"math/rand/v2"
	"testing"
)

func near(a, b float32) bool { return math.Abs(float64(a-b)) < 1e-5 }

// The bridge test map: ramp cells (2..3, 2..3) climbing east, slab (4..6,
// 2..3), railings around it, cells of 10 units.
func TestMapLevelsQueries(t *testing.T) {
	l := mustParse(t, bridgeMap(t)).MapLevels()
	if !l.Layered() || l.LevelCount() != 2 || l.Cols() != 10 || l.Rows() != 7 || l.TileSize() != 10 || l.LevelHeight() != 10 {
		t.Fatalf("shape: layered %v, %d levels, %d×%d, tile %v", l.Layered(), l.LevelCount(), l.Cols(), l.Rows(), l.TileSize())
	}
	for _, c := range []struct {
		x, y                 float32
		at                   int
		floor1, solid0, sol1 bool
	}{
		{15, 15, 0, false, false, false}, // open ground
		{55, 25, 1, true, false, false},  // on the slab
		{75, 25, 1, true, false, true},   // a railing: floor and wall
		{5, 5, 0, false, true, false},    // the perimeter wall
		{25, 25, 0, false, false, false}, // a ramp cell belongs to the ground
		{-1, 25, 0, false, false, false}, // outside
		{1000, 25, 0, false, false, false},
	} {
		if got := l.LevelAt(c.x, c.y); got != c.at {
			t.Errorf("LevelAt(%v, %v) = %d, want %d", c.x, c.y, got, c.at)
		}
		if got := l.HasFloor(1, c.x, c.y); got != c.floor1 {
			t.Errorf("HasFloor(1, %v, %v) = %v", c.x, c.y, got)
		}
		if got := l.IsSolid(0, c.x, c.y); got != c.solid0 {
			t.Errorf("IsSolid(0, %v, %v) = %v", c.x, c.y, got)
		}
		if got := l.IsSolid(1, c.x, c.y); got != c.sol1 {
			t.Errorf("IsSolid(1, %v, %v) = %v", c.x, c.y, got)
		}
	}
	if !l.HasFloor(0, 55, 25) || l.HasFloor(0, -5, 5) || l.HasFloor(3, 55, 25) {
		t.Error("the ground has floor everywhere inside the map, and nowhere else")
	}
	if l.LandingLevel(1, 55, 25) != 0 || l.LandingLevel(0, 55, 25) != 0 {
		t.Error("a fall from level 1 lands on the ground")
	}
	if l.DrivableCell(1, 7, 2) || !l.DrivableCell(1, 5, 2) || l.DrivableCell(0, 0, 0) || !l.DrivableCell(0, 2, 2) {
		t.Error("drivable: slab yes, railing and wall no")
	}
	if tile, ok := l.TileAt(1, 4, 2); !ok || tile != tSlab {
		t.Errorf("TileAt(1, 4, 2) = %d, %v", tile, ok)
	}
}

func TestRampAt(t *testing.T) {
	l := mustParse(t, bridgeMap(t)).MapLevels()
	s, ok := l.RampAt(25, 25)
	if !ok {
		t.Fatal("no ramp on a ramp cell")
	}
	// The run spans x 20..40 (20 units) and climbs one level of 10 units.
	if !near(s.Progress, 0.25) || s.From != 0 || s.To != 1 || s.Dir != [2]float32{1, 0} || !near(s.Slope, 0.5) || s.Axis != 0 {
		t.Fatalf("sample %+v", s)
	}
	if s2, _ := l.RampAt(39.9, 35); s2.Run == s.Run || !near(s2.Progress, 0.995) {
		t.Fatalf("the second lane is its own run: %+v vs %+v", s2, s)
	}
	if _, ok := l.RampAt(45, 25); ok {
		t.Fatal("a ramp past the run")
	}
	runs := l.Runs()
	if len(runs) != 2 || runs[0].Block != runs[1].Block || runs[0].Cell0 != 2 || runs[0].Cell1 != 4 || runs[1].Cross0 != 3 {
		t.Fatalf("runs %+v: two lanes of one block", runs)
	}

	// The same ramp climbing west: progress counts from the east end.
	f := bridgeMap(t)
	f["map"] = rows(t, "##########", "#........#", "#.....<<.#", "#.....<<.#", "#........#", "#........#", "##########")
	f["layers"] = obj{"1": []int{tGround, tRampWest}}
	f["volumes"] = nil
	f["levels"] = obj{"1": level(t,
		"..........",
		"..||||....",
		"..|===....",
		"..|===....",
		"..||||....",
		"..........",
		"..........")}
	f["ramps"] = []obj{{"tile": tRampWest, "dir": "west"}}
	f["levelHeight"] = 5
	f["physicsDynamic"], f["respawns"] = nil, nil
	lw := mustParse(t, f).MapLevels()
	s, ok = lw.RampAt(75, 25)
	if !ok || !near(s.Progress, 0.25) || s.Dir != [2]float32{-1, 0} || !near(s.Slope, 0.25) {
		t.Fatalf("west ramp sample %+v (%v)", s, ok)
	}
}

func TestRampGuardsAndRailSpan(t *testing.T) {
	l := mustParse(t, bridgeMap(t)).MapLevels()
	g := RampGuards(l)
	// One block of two lanes (rows 2–3, y 20..40), climbing east over x
	// 20..40: rails from one cell past the foot (x 30..40) on y = 20 and
	// y = 40, and a cap across the top end x = 40. Thickness is a tenth of
	// the cell.
	want := []RampGuard{
		{X: 35, Y: 20, HalfW: 5, HalfH: 0.5, Low: 0},
		{X: 35, Y: 40, HalfW: 5, HalfH: 0.5, Low: 0},
		{X: 40, Y: 30, HalfW: 0.5, HalfH: 10, Low: 0},
	}
	if len(g) != len(want) {
		t.Fatalf("guards %+v", g)
	}
	for i := range want {
		if !near(g[i].X, want[i].X) || !near(g[i].Y, want[i].Y) || !near(g[i].HalfW, want[i].HalfW) ||
			!near(g[i].HalfH, want[i].HalfH) || g[i].Low != want[i].Low {
			t.Errorf("guard %d = %+v, want %+v", i, g[i], want[i])
		}
	}
	lo, hi, ok := RampRailSpan(l.Runs()[0], l.TileSize())
	if !ok || lo != 30 || hi != 40 {
		t.Fatalf("rail span %v..%v %v", lo, hi, ok)
	}
	// A climb towards lower coordinates keeps its foot at the high end.
	if lo, hi, ok := RampRailSpan(RampRun{Sign: -1, Min: 20, Max: 50, Cell0: 2, Cell1: 5}, 10); !ok || lo != 20 || hi != 40 {
		t.Fatalf("west rail span %v..%v %v", lo, hi, ok)
	}
	if _, _, ok := RampRailSpan(RampRun{Sign: 1, Min: 20, Max: 30, Cell0: 2, Cell1: 3}, 10); ok {
		t.Fatal("a one-cell run is all foot and has no rails")
	}
	flat, err := Parse([]byte(poolMini))
	if err != nil || RampGuards(flat.MapLevels()) != nil {
		t.Fatalf("a flat map has no guards (%v)", err)
	}
}

// Lanes of different length are different hills with their own fences.
func TestSteppedRampIsTwoBlocks(t *testing.T) {
	f := bridgeMap(t)
	f["map"] = rows(t, "##########", "#........#", "#.>>.....#", "#..>.....#", "#........#", "#........#", "##########")
	l := mustParse(t, f).MapLevels()
	runs := l.Runs()
	if len(runs) != 2 || runs[0].Block == runs[1].Block {
		t.Fatalf("runs %+v", runs)
	}
	if g := RampGuards(l); len(g) != 4 { // rails and cap of the long lane, cap of the one-cell lane
		t.Fatalf("guards %+v", g)
	}
}

func TestStaticBlocksGlueWalls(t *testing.T) {
	m := mustParse(t, bridgeMap(t))
	l := m.MapLevels()
	b0 := l.StaticBlocks(0)
	// The perimeter: the top row whole, then the two sides down to the
	// bottom row, then the bottom row between them.
	want := []Block{
		{Level: 0, Col0: 0, Row0: 0, Col1: 10, Row1: 1, X0: 0, Y0: 0, X1: 100, Y1: 10},
		{Level: 0, Col0: 0, Row0: 1, Col1: 1, Row1: 7, X0: 0, Y0: 10, X1: 10, Y1: 70},
		{Level: 0, Col0: 9, Row0: 1, Col1: 10, Row1: 7, X0: 90, Y0: 10, X1: 100, Y1: 70},
		{Level: 0, Col0: 1, Row0: 6, Col1: 9, Row1: 7, X0: 10, Y0: 60, X1: 90, Y1: 70},
	}
	if len(b0) != len(want) {
		t.Fatalf("ground blocks %+v", b0)
	}
	for i := range want {
		if b0[i] != want[i] {
			t.Errorf("block %d = %+v, want %+v", i, b0[i], want[i])
		}
	}
	if l.BlockAt(0, 0, 3) != 1 || l.BlockAt(0, 5, 3) != -1 || l.BlockAt(0, 4, 6) != 3 {
		t.Error("BlockAt does not follow the blocks")
	}
	// Level 1: the railings, north row, the east column, south row.
	b1 := l.StaticBlocks(1)
	if len(b1) != 3 || b1[0].Level != 1 || b1[1] != (Block{Level: 1, Col0: 7, Row0: 2, Col1: 8, Row1: 5, X0: 70, Y0: 20, X1: 80, Y1: 50}) {
		t.Fatalf("level 1 blocks %+v", b1)
	}
	if l.StaticBlocks(5) != nil || l.BlockAt(5, 0, 0) != -1 {
		t.Error("a level the map lacks has no blocks")
	}
}

func TestFallModel(t *testing.T) {
	f := DefaultFall()
	if !near(f.Duration(1), 0.35) || !near(f.Duration(-3), 1.05) {
		t.Fatalf("durations %v %v", f.Duration(1), f.Duration(-3))
	}
	if !near(f.ZAt(2, 0, 0), 2) || !near(f.ZAt(2, 0, 0.35), 1) || !near(f.ZAt(2, 0, 5), 0) || !near(f.ZAt(1, 1, 0.2), 1) {
		t.Fatal("z is linear from the level left to the level landed on")
	}
	for _, e := range []float32{0, 0.1, 0.35, 0.6} {
		if got := f.ElapsedAt(2, 0, f.ZAt(2, 0, e)); !near(got, e) {
			t.Errorf("ElapsedAt(ZAt(%v)) = %v", e, got)
		}
	}
	if f.ElapsedAt(1, 1, 1) != 0 || (FallModel{}).ZAt(1, 0, 0) != 0 {
		t.Fatal("a fall of no height or no time is over at once")
	}
}

// On random walls, BlockAt names for every cell the one block covering
// it, or -1 for a cell no block covers, and every wall cell is covered.
func TestBlockAtFollowsEveryCell(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for round := range 20 {
		cols, rows := 1+rng.IntN(40), 1+rng.IntN(40)
		grid := make([][]int, rows)
		for y := range grid {
			grid[y] = make([]int, cols)
			for x := range grid[y] {
				if rng.IntN(3) == 0 {
					grid[y][x] = 1
				}
			}
		}
		f := bridgeMap(t)
		f["map"] = grid
		delete(f, "levels")
		delete(f, "ramps")
		delete(f, "physicsDynamic")
		delete(f, "respawns")
		f["physicsStatic"] = []int{1}
		m := mustParse(t, f)
		l := m.MapLevels()
		blocks := l.StaticBlocks(0)
		for y := range rows {
			for x := range cols {
				want := -1
				for i, b := range blocks {
					if x >= b.Col0 && x < b.Col1 && y >= b.Row0 && y < b.Row1 {
						if want >= 0 {
							t.Fatalf("round %d: cell (%d, %d) in blocks %d and %d", round, x, y, want, i)
						}
						want = i
					}
				}
				if got := l.BlockAt(0, x, y); got != want {
					t.Fatalf("round %d: BlockAt(%d, %d) = %d, want %d", round, x, y, got, want)
				}
				if (grid[y][x] == 1) != (want >= 0) {
					t.Fatalf("round %d: cell (%d, %d) tile %d, block %d", round, x, y, grid[y][x], want)
				}
			}
		}
	}
}
