package tanks

import (
	"math"
	"testing"

	"vimpclient/internal/angle"
)

func TestGlueWallsMergesRuns(t *testing.T) {
	grid := [][]int{
		{1, 1, 1, 1},
		{1, 0, 0, 1},
		{1, 0, 0, 1},
		{1, 1, 1, 1},
	}
	w := wallsOf(t, grid, []int{1}, 10)
	// Top row, left column (rows 1-3), right column (rows 1-3), bottom
	// middle run.
	want := []Rect{{0, 0, 40, 10}, {0, 10, 10, 40}, {30, 10, 40, 40}, {10, 30, 30, 40}}
	if len(w.Blocks) != len(want) {
		t.Fatalf("blocks %v, want %v", w.Blocks, want)
	}
	for i := range want {
		if w.Blocks[i] != want[i] {
			t.Errorf("block %d = %v, want %v", i, w.Blocks[i], want[i])
		}
	}
	if !w.SolidAt(5, 5) || w.SolidAt(15, 15) || !w.SolidAt(-1, 15) {
		t.Error("SolidAt disagrees with the grid")
	}
}

func TestMoveForwardAndTurn(t *testing.T) {
	m := M1()
	var tk Tank
	for i := 0; i < 120; i++ {
		m.Move(&tk, KeyForward, Step)
	}
	if tk.X < 50 || math.Abs(float64(tk.Y)) > 1e-3 || tk.Angle != 0 {
		t.Fatalf("after 1 s forward: %+v", tk)
	}
	if tk.VX > m.MaxForward+1 {
		t.Fatalf("speed %v above max", tk.VX)
	}
	if tk.EngineLoad <= 0 {
		t.Fatalf("engine load %v while driving", tk.EngineLoad)
	}
	for i := 0; i < 60; i++ {
		m.Move(&tk, KeyForward|KeyRight, Step)
	}
	if tk.Angle <= 0.5 {
		t.Fatalf("right turn should turn clockwise (positive angle), got %v", tk.Angle)
	}
	for i := 0; i < 600; i++ {
		m.Move(&tk, 0, Step)
	}
	if math.Hypot(float64(tk.VX), float64(tk.VY)) > 1 {
		t.Fatalf("tank did not brake: %+v", tk)
	}
}

func TestGunLimitsAndCentering(t *testing.T) {
	m := M1()
	var tk Tank
	for i := 0; i < 240; i++ {
		m.Move(&tk, KeyGunRight, Step)
	}
	if tk.Gun != m.MaxGunAngle {
		t.Fatalf("gun %v, want clamp at %v", tk.Gun, m.MaxGunAngle)
	}
	m.Move(&tk, KeyGunCenter, Step)
	for i := 0; i < 240 && tk.Centering; i++ {
		m.Move(&tk, 0, Step)
	}
	if tk.Gun != 0 || tk.Centering {
		t.Fatalf("centering did not finish: gun %v centering %v", tk.Gun, tk.Centering)
	}
}

func TestTankStopsAtWall(t *testing.T) {
	grid := make([][]int, 10)
	for y := range grid {
		grid[y] = make([]int, 10)
		grid[y][9] = 1
	}
	w := terrainOf(t, grid, []int{1}, 20) // wall face at x = 180
	m := M1()
	tk := Tank{X: 100, Y: 100}
	hw, _ := m.HalfSize()
	body := NewTankBody(&m)
	var s Solver
	var bodies []*Body
	for i := 0; i < 600; i++ {
		bodies = m.StepAlone(&tk, KeyForward, Step, w, &s, &body, bodies)
	}
	if tk.X+hw > 180.01 {
		t.Fatalf("tank went into the wall: x=%v", tk.X)
	}
	if tk.X+hw < 179 {
		t.Fatalf("tank stopped short of the wall: x=%v", tk.X)
	}
}

func TestBodiesPushEachOther(t *testing.T) {
	a := &Body{X: 0, Y: 0, HalfW: 4, HalfH: 3, VX: 50, Friction: 0.5}
	b := &Body{X: 7, Y: 0, HalfW: 4, HalfH: 3, Friction: 0.5}
	a.SetMass(200)
	b.SetMass(200)
	var s Solver
	s.Resolve([]*Body{a, b}, nil)
	if b.VX <= 0 || a.VX >= 50 || !a.Touched || !b.Touched {
		t.Fatalf("no push: a=%+v b=%+v", a, b)
	}
	if b.X-a.X < 8-1e-3 {
		t.Fatalf("bodies still overlap: %v", b.X-a.X)
	}
}

func TestRays(t *testing.T) {
	grid := [][]int{{0, 0, 0, 1}}
	w := wallsOf(t, grid, []int{1}, 10)
	if d := w.Ray(5, 5, 1, 0, 100); math.Abs(float64(d-25)) > 1e-4 {
		t.Fatalf("wall ray %v, want 25", d)
	}
	if d := w.Ray(35, 5, 1, 0, 100); d != 0 {
		t.Fatalf("start in wall %v, want 0", d)
	}
	b := &Body{X: 20, Y: 0, HalfW: 4, HalfH: 3, Angle: 0}
	if d, ok := RayBox(b, 0, 0, 1, 0, 100); !ok || math.Abs(float64(d-16)) > 1e-4 {
		t.Fatalf("box ray %v %v, want 16", d, ok)
	}
	if _, ok := RayBox(b, 0, 10, 1, 0, 100); ok {
		t.Fatal("ray above the box hit it")
	}
}

// TestSlideAlongGluedWall: a tank pressed at a shallow angle against a
// wall of forty tiles meets one block and slides along it without
// snagging at the tile seams.
func TestSlideAlongGluedWall(t *testing.T) {
	grid := make([][]int, 12)
	for y := range grid {
		grid[y] = make([]int, 40)
	}
	for x := range grid[10] {
		grid[10][x] = 1 // wall face at y = 100
	}
	w := terrainOf(t, grid, []int{1}, 10)
	if len(w.Walls(0).Blocks) != 1 {
		t.Fatalf("%d blocks, want the row glued into one", len(w.Walls(0).Blocks))
	}
	m := M1()
	tk := Tank{X: 20, Y: 96, Angle: 0.15}
	body := NewTankBody(&m)
	var s Solver
	var bodies []*Body
	minStep := float32(1e9)
	for i := 0; i < 240; i++ {
		x0 := tk.X
		bodies = m.StepAlone(&tk, KeyForward, Step, w, &s, &body, bodies)
		if i > 60 {
			minStep = min(minStep, tk.X-x0)
		}
		if tk.Y > 100 {
			t.Fatalf("step %d: centre went through the wall: %+v", i, tk)
		}
	}
	if tk.X < 150 || minStep <= 0 {
		t.Fatalf("tank snagged: x=%v, slowest step %v", tk.X, minStep)
	}
}

// Integrate moves by the velocity before damping, wraps the angle, and
// damps; without damping the velocities keep their bits.
func TestIntegrate(t *testing.T) {
	b := Body{X: 1, Y: 2, Angle: 3, VX: 120, VY: -60, AngVel: 60}
	b.Integrate(0.5, 0, 0)
	if b.X != 61 || b.Y != -28 || b.VX != 120 || b.VY != -60 || b.AngVel != 60 {
		t.Fatalf("undamped step %+v", b)
	}
	if want := angle.Normalize(float32(3 + 30)); b.Angle != want {
		t.Fatalf("angle %v, want %v", b.Angle, want)
	}
	b = Body{VX: 10, VY: 10, AngVel: 2}
	b.Integrate(0.25, 4, 12)
	if b.X != 2.5 || b.Y != 2.5 || b.Angle != 0.5 || b.VX != 5 || b.VY != 5 || b.AngVel != 0.5 {
		t.Fatalf("damped step %+v", b)
	}
}
