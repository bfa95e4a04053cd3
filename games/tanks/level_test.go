package tanks

import (
	"encoding/json"
	"math"
	"testing"

	"vimpclient/gamemap"
)

// rampMap is a 12×5 map of 10-unit cells: a ramp (tile 3) in row 2 from
// column 2 to 5 climbs east from the ground to a slab (level 1, tile 4)
// over columns 6–9 of rows 1–3, railed (tile 5) on rows 1 and 3 and open
// at its east end, where the fall lands on the ground.
func rampMap(t testing.TB) *gamemap.Map {
	t.Helper()
	ground := make([][]int, 5)
	slab := make([][]int, 5)
	for r := range ground {
		ground[r] = make([]int, 12)
		slab[r] = make([]int, 12)
	}
	for c := 2; c <= 5; c++ {
		ground[2][c] = 3
	}
	for c := 6; c <= 9; c++ {
		slab[1][c], slab[2][c], slab[3][c] = 5, 4, 5
	}
	raw, err := json.Marshal(map[string]any{
		"step": 10, "scale": 1, "map": ground, "physicsStatic": []int{1},
		"levels": map[string]any{"1": map[string]any{"map": slab, "floor": []int{4, 5}, "walls": []int{5}}},
		"ramps":  []any{map[string]any{"tile": 3, "dir": "east", "from": 0, "to": 1}},
	})
	if err != nil {
		t.Fatal(err)
	}
	m, err := gamemap.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// drive steps a point body from (x, y) along (dx, dy) per step, n steps.
func drive(r *LevelRules, l *gamemap.MapLevels, s *LevelState, x, y, dx, dy float32, n int) (float32, float32) {
	for i := 0; i < n; i++ {
		x, y = x+dx, y+dy
		r.Step(s, l, x, y, 0, 0, 0, Step, true)
	}
	return x, y
}

// A body driving onto the ramp at its foot climbs with the surface and
// reaches the slab; one that enters the run's middle from the side stays a
// flat ground body; one on the slab drives down from the top.
func TestRampEntry(t *testing.T) {
	l := rampMap(t).MapLevels()
	r := DefaultLevelRules()
	var s LevelState
	x, y := drive(&r, l, &s, 5, 25, 1, 0, 30) // to x = 35, a quarter up the run
	if s.Stance != Climbing || s.Level != 0 || math.Abs(float64(s.Z-0.375)) > 1e-4 || s.Slope != [2]float32{0.25, 0} {
		t.Fatalf("on the ramp: %+v", s)
	}
	if g := s.Grade(1, 0); g != 0.25 {
		t.Fatalf("grade uphill %v", g)
	}
	drive(&r, l, &s, x, y, 1, 0, 30) // onto the slab at x = 65
	if s.Stance != Standing || s.Level != 1 || s.Z != 1 {
		t.Fatalf("on the slab: %+v", s)
	}
	// Down from the top: the slab body follows the surface back down.
	drive(&r, l, &s, 65, 25, -1, 0, 20) // to x = 45
	if s.Stance != Climbing || s.Level != 1 || math.Abs(float64(s.Z-0.625)) > 1e-4 {
		t.Fatalf("down the ramp from its top: %+v", s)
	}
	// From the side, into the middle of the run: flat.
	s = LevelState{}
	drive(&r, l, &s, 45, 5, 0, 1, 20) // from row 0 into row 2 at column 4
	if s.Stance != Standing || s.Level != 0 || s.Z != 0 {
		t.Fatalf("side entry: %+v", s)
	}
	// A map body is pushed across a ramp cell and keeps its level.
	s = LevelState{}
	x, y = 15, 25
	for i := 0; i < 30; i++ {
		x++
		r.Step(&s, l, x, y, 0, 0, 0, Step, false)
	}
	if s != (LevelState{}) {
		t.Fatalf("a map body on the ramp: %+v", s)
	}
}

// Off the slab's open east edge a body falls along the FallModel (a level
// in mapFallTime), its drive locked, and lands on the ground; a body whose
// box still overhangs the slab does not fall.
func TestFallOffTheEdge(t *testing.T) {
	l := rampMap(t).MapLevels()
	r := DefaultLevelRules()
	s := LevelState{Level: 1, Z: 1}
	// The centre is past the edge (x = 100) but the box's back corners are
	// still over the slab: it hangs.
	r.Step(&s, l, 102, 25, 0, 4, 3, Step, true)
	if s.Stance != Standing || s.Level != 1 {
		t.Fatalf("hanging over the edge: %+v", s)
	}
	r.Step(&s, l, 105, 25, 0, 4, 3, Step, true)
	if s.Stance != Falling || s.Level != 1 || s.FallSteps != 1 || !s.InputLocked() {
		t.Fatalf("off the edge: %+v", s)
	}
	if want := r.Fall.ZAt(1, 0, Step); s.Z != want {
		t.Fatalf("first fall step at %v, want %v", s.Z, want)
	}
	if rc := s.Reach(); rc.Bodies != 0 || rc.Guards != 0 || rc.Walls != 3 {
		t.Fatalf("a falling body's reach %+v", rc)
	}
	steps := 1
	for s.Stance == Falling {
		r.Step(&s, l, 105, 25, 0, 4, 3, Step, true)
		steps++
		if steps > 1000 {
			t.Fatal("the fall never ends")
		}
	}
	if want := int(math.Ceil(float64(r.Fall.Duration(1) / Step))); steps != want {
		t.Fatalf("fell for %d steps, want %d (%v s per level)", steps, want, r.Fall.TimePerLevel)
	}
	if s != (LevelState{}) {
		t.Fatalf("landed as %+v", s)
	}
}

// A state rebuilt from what a frame carries (centre, level, height rounded
// to two decimals) is the state the rules stepped to: standing, on every
// point of a climb, at every step of a fall.
func TestRestoreFromFrame(t *testing.T) {
	l := rampMap(t).MapLevels()
	r := DefaultLevelRules()
	round2 := func(v float32) float32 { return float32(math.Round(float64(v)*100) / 100) }
	check := func(s LevelState, x, y float32) {
		t.Helper()
		got := r.Restore(l, x, y, s.Level, round2(s.WorldZ(l)), Step, true)
		if got != s {
			t.Fatalf("at %v,%v: restored %+v, stepped %+v", x, y, got, s)
		}
	}
	var s LevelState
	x, y := float32(5), float32(25)
	for i := 0; i < 60; i++ { // up the ramp onto the slab
		x++
		r.Step(&s, l, x, y, 0, 4, 3, Step, true)
		check(s, x, y)
	}
	for s.Stance != Falling { // east along the slab and off its edge
		x++
		r.Step(&s, l, x, y, 0, 4, 3, Step, true)
		check(s, x, y)
		if x > 115 {
			t.Fatalf("never fell: %+v", s)
		}
	}
	for s.Stance == Falling {
		r.Step(&s, l, x, y, 0, 4, 3, Step, true)
		check(s, x, y)
	}
	// A flat map has no levels to restore; nonsense levels are clamped.
	if got := r.Restore(nil, 1, 1, 3, 5, Step, true); got != (LevelState{}) {
		t.Fatalf("flat restore %+v", got)
	}
	if got := r.Restore(l, 5, 5, 9, 10, Step, true); got.Level != 1 || got.Stance != Standing {
		t.Fatalf("level 9 on a two-level map: %+v", got)
	}
}

// The grade pulls a tank on a ramp: it climbs slower than it drives on the
// flat and rolls back down with no throttle; a falling tank's drive keys do
// nothing; off a ramp MoveOn is Move bit for bit.
func TestMoveOnSlopes(t *testing.T) {
	m, r := M1(), DefaultLevelRules()
	climb := LevelState{Stance: Climbing, Z: 0.5, Slope: [2]float32{0.25, 0}}
	var flat, up Tank
	for i := 0; i < 240; i++ {
		m.Move(&flat, KeyForward, Step)
		m.MoveOn(&up, KeyForward, Step, &climb, &r)
	}
	if !(up.VX < flat.VX*0.9) || up.VX <= 0 {
		t.Fatalf("uphill %v, flat %v", up.VX, flat.VX)
	}
	idle := Tank{}
	for i := 0; i < 60; i++ {
		m.MoveOn(&idle, 0, Step, &climb, &r)
	}
	if idle.VX >= 0 {
		t.Fatalf("no roll back: %+v", idle)
	}
	fall := LevelState{Level: 1, Z: 0.5, Stance: Falling, FallSteps: 10}
	var locked Tank
	m.MoveOn(&locked, KeyForward|KeyRight|KeyGunRight, Step, &fall, &r)
	if locked.VX != 0 || locked.AngVel != 0 || locked.Gun == 0 {
		t.Fatalf("falling tank drove: %+v", locked)
	}
	a, b := Tank{VX: 50, VY: -20, AngVel: 1}, Tank{VX: 50, VY: -20, AngVel: 1}
	stand := LevelState{Level: 1, Z: 1}
	for i := 0; i < 100; i++ {
		m.Move(&a, KeyForward|KeyLeft, Step)
		m.MoveOn(&b, KeyForward|KeyLeft, Step, &stand, &r)
	}
	if a != b {
		t.Fatalf("MoveOn off a ramp %+v, Move %+v", b, a)
	}
}

// The ramp guards stop a ground tank at the side of the run and at its top
// end, a climbing tank passes through them, and slab walls and bodies of
// another level are not met.
func TestGuardsAndLevels(t *testing.T) {
	g := NewGeometry(rampMap(t))
	if len(g.Terrain.Guards()) != 3 {
		t.Fatalf("guards %+v", g.Terrain.Guards())
	}
	m := M1()
	var s Solver
	push := func(reach Reach, x, y, vx, vy float32) Body {
		b := NewTankBody(&m)
		b.X, b.Y, b.VX, b.VY, b.Reach = x, y, vx, vy, reach
		s.Resolve([]*Body{&b}, g.Terrain)
		return b
	}
	ground := LevelState{}
	// Guard along the north side of the run at y = 20 (columns 3–5).
	if b := push(ground.Reach(), 40, 17, 0, 50); !b.Touched || b.VY >= 50 {
		t.Fatalf("the side guard let a ground tank through: %+v", b)
	}
	climbing := LevelState{Stance: Climbing, Z: 0.5, Slope: [2]float32{0.25, 0}}
	if b := push(climbing.Reach(), 40, 17, 0, 50); b.Touched {
		t.Fatalf("the side guard held a climbing tank: %+v", b)
	}
	// The foot cell is open from the side.
	if b := push(ground.Reach(), 25, 17, 0, 50); b.Touched {
		t.Fatalf("the foot is guarded: %+v", b)
	}
	// A slab body meets the railing on row 1, a ground body under it does not.
	slab := LevelState{Level: 1, Z: 1}
	if b := push(slab.Reach(), 75, 22.5, 0, -50); !b.Touched {
		t.Fatalf("a slab tank passed the railing: %+v", b)
	}
	if b := push(ground.Reach(), 75, 22.5, 0, -50); b.Touched {
		t.Fatalf("a ground tank met the railing above it: %+v", b)
	}
	a, c := NewTankBody(&m), NewTankBody(&m)
	a.X, a.Y, a.VX, a.Reach = 70, 25, 40, slab.Reach()
	c.X, c.Y, c.Reach = 77, 25, ground.Reach()
	s.Resolve([]*Body{&a, &c}, g.Terrain)
	if a.Touched || c.Touched {
		t.Fatal("bodies of two levels collided")
	}
}

// A shot keeps its level: on the slab the railing stops it and the ground
// walls under the slab do not; past the slab's edge the ground's walls do.
func TestTerrainRay(t *testing.T) {
	m := rampMap(t)
	m.Levels[0].Grid[2*12+8] = 1 // a ground wall under the slab, column 8
	m.Levels[0].Grid[2*12+11] = 1
	m.Levels[0].Solid = []int{1}
	raw := mapJSON(t, m)
	mp, err := gamemap.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	tr := NewGeometry(mp).Terrain
	if d := tr.Ray(0, 5, 25, 1, 0, 200); math.Abs(float64(d-75)) > 1e-3 {
		t.Fatalf("ground shot %v, want the wall at 80", d)
	}
	if d := tr.Ray(1, 65, 25, 1, 0, 200); math.Abs(float64(d-45)) > 1e-3 {
		t.Fatalf("slab shot east %v, want the ground wall at 110 past the edge", d)
	}
	if d := tr.Ray(1, 75, 25, 0, -1, 200); math.Abs(float64(d-5)) > 1e-3 {
		t.Fatalf("slab shot north %v, want the railing at 20", d)
	}
}

// mapJSON writes the map fields rampMap uses back into MAP_DATA.
func mapJSON(t testing.TB, m *gamemap.Map) []byte {
	t.Helper()
	grid := func(lv *gamemap.Level) [][]int {
		out := make([][]int, lv.Rows)
		for r := range out {
			out[r] = make([]int, lv.Cols)
			for c := range out[r] {
				out[r][c] = lv.Tile(c, r)
			}
		}
		return out
	}
	raw, err := json.Marshal(map[string]any{
		"step": m.Step, "scale": m.Scale, "map": grid(&m.Levels[0]), "physicsStatic": m.Levels[0].Solid,
		"levels": map[string]any{"1": map[string]any{"map": grid(&m.Levels[1]), "floor": m.Levels[1].Floor, "walls": m.Levels[1].Solid}},
		"ramps":  []any{map[string]any{"tile": 3, "dir": "east", "from": 0, "to": 1}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// Restore never panics on what a hostile frame carries and always gives a
// state on an existing level.
func FuzzRestore(f *testing.F) {
	f.Add(float32(35), float32(25), 0, float32(3.75))
	f.Add(float32(105), float32(25), 1, float32(4.76))
	f.Add(float32(-1e30), float32(1e30), -7, float32(1e38))
	m := rampMap(f)
	l := m.MapLevels()
	r := DefaultLevelRules()
	f.Fuzz(func(t *testing.T, x, y float32, level int, z float32) {
		s := r.Restore(l, x, y, level, z, Step, true)
		if s.Level < 0 || s.Level >= l.LevelCount() || s.FallSteps < 0 {
			t.Fatalf("restored %+v", s)
		}
		r.Step(&s, l, x, y, 0, 4, 3, Step, true)
	})
}
