package parts

import (
	"math"
	"testing"
)

// A ray stops where it enters the first wall cell along it, runs its
// length when none is in the way, and does not leave a wall it starts in;
// what is not a number or lies off every map stops nothing.
func TestWallGridReach(t *testing.T) {
	// 4×3 cells of 10 units: a wall at (2, 1).
	w := &WallGrid{Cols: 4, Rows: 3, Cell: 10, Solid: make([]bool, 12)}
	w.Solid[1*4+2] = true
	diag := math.Sqrt(0.5)
	for _, c := range []struct {
		name                string
		x, y, dx, dy, limit float64
		want                float64
	}{
		{"east into the wall", 5, 15, 1, 0, 100, 15},
		{"west, open", 35, 15, 1, 0, 100, 100},
		{"west from past it", 35, 15, -1, 0, 100, 5},
		{"short of the wall", 5, 15, 1, 0, 12, 12},
		{"north past it", 25, 28, 0, -1, 100, 8},
		{"along a row without walls", 5, 5, 1, 0, 100, 100},
		{"diagonal into its corner", 10, 0, diag, diag, 100, math.Sqrt(200)},
		{"from inside the wall", 25, 15, 1, 0, 100, 0},
		{"off the grid, towards it", -20, 15, 1, 0, 100, 40},
		{"NaN start", math.NaN(), 15, 1, 0, 100, 100},
		{"far off every map", 1e12, 15, -1, 0, 100, 100},
		{"no length", 5, 15, 1, 0, 0, 0},
	} {
		if got := w.Reach(c.x, c.y, c.dx, c.dy, c.limit); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("%s: Reach(%v, %v, %v, %v, %v) = %v, want %v", c.name, c.x, c.y, c.dx, c.dy, c.limit, got, c.want)
		}
	}
	var none *WallGrid
	if got := none.Reach(5, 15, 1, 0, 50); got != 50 {
		t.Errorf("no walls: Reach = %v, want the whole 50", got)
	}
}
