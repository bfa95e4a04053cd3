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

// arenaShape is how a match lays its arenas out: the game's respawn
// order, and a game's own arena map when it brought one.
type arenaShape struct {
	spiralOrder bool
	data        *dataArena
}

// newArena builds the arena for a snake count. A game's own arena is sent
// as it is while the count asks for its size; other sizes are built on its
// step.
func newArena(count int, shape arenaShape) arena {
	size := arenaSizeFor(count)
	step := float64(arenaStep)
	if d := shape.data; d != nil {
		step = d.step
		if size == d.size {
			r := float64(size) * step / 2
			return arena{size: size, population: count, cx: float32(r), cy: float32(r), radius: float32(r), spawns: d.spawns, text: d.text}
		}
	}
	r := float64(size) * step / 2
	a := arena{size: size, population: count, cx: float32(r), cy: float32(r), radius: float32(r)}
	golden := math.Pi * (3 - math.Sqrt(5))
	for i := range respawnCount {
		k, facing := i, 0.0
		if shape.spiralOrder {
			// Bit-reversed, every prefix of the points spans the whole
			// range of radii (a small wave of joiners does not heap up in
			// the middle), and each heading is fanned off the centre by a
			// golden-ratio dither so neighbours do not drive at each other.
			k = reverseBits(i, respawnBits)
			facing = (math.Mod(float64(i)*0.6180339887, 1)*2 - 1) * respawnFanDeg
		}
		d := r * respawnSpan * math.Sqrt((float64(k)+0.5)/respawnCount)
		theta := float64(k) * golden
		deg := math.Mod(math.Mod(theta*180/math.Pi+180+facing, 360)+360, 360)
		a.spawns = append(a.spawns, [3]float64{math.Round(r + math.Cos(theta)*d), math.Round(r + math.Sin(theta)*d), roundHalfUp(deg)})
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
		"setId": "c1", "scale": 1, "step": step, "physicsStatic": []any{}, "physicsDynamic": []any{},
		"layers": map[string][]int{"1": {1}}, "map": grid, "respawns": map[string]any{"players": a.spawns},
	})
	return a
}

// respawnBits is log2(respawnCount): the respawn order reverses this many
// bits of the index.
const respawnBits = 6

// respawnFanDeg is how far (degrees) a 0.15 respawn heading strays from
// the centre's direction.
const respawnFanDeg = 25

// reverseBits reverses the low n bits of i.
func reverseBits(i, n int) int {
	out := 0
	for b := range n {
		out = out<<1 | (i>>b)&1
	}
	return out
}

// roundHalfUp rounds as the game's own data does (halves up, also for the
// negative).
func roundHalfUp(v float64) float64 { return math.Floor(v + 0.5) }

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
