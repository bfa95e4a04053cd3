package snakesmatch

import (
	"encoding/json"
	"math"
	"math/rand/v2"
)

// The arena is a disc inscribed in a square grid of arenaStep-unit cells.
// Its side grows with the number of snakes: 20 cells up to 8 snakes, then
// with the square root of the count rounded up to a multiple of 4.
const (
	arenaStep      = 128
	arenaBaseSize  = 20
	arenaBaseCount = 8
	arenaCountStep = 4
	respawnCount   = 64
	respawnSpan    = 0.72 // respawn points lie within this share of the radius
)

// arenaSizeFor is the grid side (cells) for a snake count.
func arenaSizeFor(count int) int {
	stepped := (max(count, 0) + arenaCountStep - 1) / arenaCountStep * arenaCountStep
	n := max(stepped, arenaBaseCount)
	return int(math.Round(arenaBaseSize * math.Sqrt(float64(n)/arenaBaseCount)))
}

// arena is the current disc and its MAP_DATA.
type arena struct {
	size       int // grid side in cells
	population int // the snake count the size was chosen for
	cx, cy     float32
	radius     float32
	spawns     [][3]float64 // x, y, facing in degrees
	text       []byte       // MAP_DATA
}

// newArena builds the arena for a snake count.
func newArena(count int) arena {
	size := arenaSizeFor(count)
	r := float64(size*arenaStep) / 2
	a := arena{size: size, population: count, cx: float32(r), cy: float32(r), radius: float32(r)}
	golden := math.Pi * (3 - math.Sqrt(5))
	for i := range respawnCount {
		d := r * respawnSpan * math.Sqrt((float64(i)+0.5)/respawnCount)
		theta := float64(i) * golden
		deg := math.Mod(math.Mod(theta*180/math.Pi+180, 360)+360, 360)
		a.spawns = append(a.spawns, [3]float64{math.Round(r + math.Cos(theta)*d), math.Round(r + math.Sin(theta)*d), math.Round(deg)})
	}
	grid := make([][]int, size)
	for i := range grid {
		grid[i] = make([]int, size)
		for j := range grid[i] {
			grid[i][j] = 1
		}
	}
	// The one tile value only makes the client build one Arena part; the
	// disc itself comes from the grid's size and step.
	a.text, _ = json.Marshal(map[string]any{
		"setId": "c1", "scale": 1, "step": arenaStep, "physicsStatic": []any{}, "physicsDynamic": []any{},
		"layers": map[string][]int{"1": {1}}, "map": grid, "respawns": map[string]any{"players": a.spawns},
	})
	return a
}

// resized returns the size the arena should have for count snakes, or
// false to keep it: it grows at once and shrinks only once the count has
// dropped by a whole step below the population it was sized for.
func (a *arena) resized(count int) (int, bool) {
	next := arenaSizeFor(count)
	switch {
	case next == a.size:
		return 0, false
	case next > a.size, count <= a.population-arenaCountStep:
		return next, true
	}
	return 0, false
}

// contains reports whether (x, y) lies inside the disc, margin clear of
// its edge.
func (a *arena) contains(x, y, margin float32) bool {
	dx, dy := x-a.cx, y-a.cy
	l := max(a.radius-margin, 0)
	return dx*dx+dy*dy <= l*l
}

// clampInside moves a point outside the disc (margin clear of the edge)
// onto its nearest point inside: a respawn point of a larger arena.
func (a *arena) clampInside(x, y, margin float32) (float32, float32) {
	if a.contains(x, y, margin) {
		return x, y
	}
	dx, dy := x-a.cx, y-a.cy
	d := float32(math.Hypot(float64(dx), float64(dy)))
	if d == 0 {
		return a.cx, a.cy
	}
	k := max(a.radius-margin, 0) / d
	return a.cx + dx*k, a.cy + dy*k
}

// randomPoint is a uniformly distributed point of the disc, margin clear
// of the edge (the square root spreads the points evenly over the area).
func (a *arena) randomPoint(rng *rand.Rand, margin float32) (float32, float32) {
	l := float64(max(a.radius-margin, 0))
	theta := rng.Float64() * 2 * math.Pi
	r := l * math.Sqrt(rng.Float64())
	return a.cx + float32(math.Cos(theta)*r), a.cy + float32(math.Sin(theta)*r)
}
