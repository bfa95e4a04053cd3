package parts

import "math"

// Light is one light source of a night scene, in world units: a round
// pool of light (a lamp, a tank's glow, a flash) or, when Length > 0, a
// cone (a headlight) from (X, Y) towards Angle, Spread radians to each
// side. It lights only the level it is on: a lamp under a bridge does not
// light the bridge's deck.
type Light struct {
	X, Y   float64
	Level  int     // the level whose light map it adds to
	H      float64 // its height in levels: where it is drawn (Project)
	Radius float64 // a pool's radius
	// Colour is the light's colour; Intensity scales it (0..maxIntensity).
	Colour    Color
	Intensity float64
	// A cone: its direction, half-angle and length (0: a round pool).
	Angle, Spread, Length float64
}

// LightMap is the darkness of one level of a night map: the scene drawn so
// far is multiplied by a light map of the ambient colour plus the level's
// lights. On the ground (level 0) the ambient colour covers everything; on
// a level above it covers only that level's floor (Floor, world
// rectangles at the level's height), so what lies below, already darkened
// by its own level's map, is not darkened twice. The tops of the level's
// raised layers (Tops: a wall's top, a roof) stay in the ambient colour
// over the lights: a light on the floor does not reach up onto them.
//
// Walls, when not nil, are the level's wall cells: a headlight's cone on
// the level stops at the first wall along each of its rays, so that the
// street behind a building stays dark.
type LightMap struct {
	Level   int
	Ambient Color
	Floor   []Rect
	Tops    []Top
	Walls   *WallGrid
}

// WallGrid is a level's walls as a grid of cells, Cell world units square:
// Solid[row·Cols + col] is whether cell (col, row) is a wall. What lies
// outside the grid is open.
type WallGrid struct {
	Cols, Rows int
	Cell       float64
	Solid      []bool
}

// wall reports whether cell (col, row) is a wall.
func (w *WallGrid) wall(col, row int) bool {
	return col >= 0 && row >= 0 && col < w.Cols && row < w.Rows && row*w.Cols+col < len(w.Solid) && w.Solid[row*w.Cols+col]
}

// maxWallCoord bounds the coordinates Reach walks from: a point farther
// out than this lies off every map, and nothing stops its light.
const maxWallCoord = 1e7

// maxWallSteps bounds the cells one ray walks past (a level has at most a
// few hundred cells a side).
const maxWallSteps = 4096

// Reach is how far a ray from world point (x, y) along the unit direction
// (dx, dy) goes before it enters a wall cell, at most limit: 0 when (x, y)
// lies in a wall. It walks the grid cell by cell along the ray, so its
// cost is the number of cells the ray crosses.
func (w *WallGrid) Reach(x, y, dx, dy, limit float64) float64 {
	if !(limit > 0) {
		return 0
	}
	if w == nil || !(w.Cell > 0) || !(math.Abs(x) < maxWallCoord && math.Abs(y) < maxWallCoord) ||
		!(math.Abs(dx) <= 1 && math.Abs(dy) <= 1) || math.IsInf(limit, 0) {
		return limit
	}
	col, row := int(math.Floor(x/w.Cell)), int(math.Floor(y/w.Cell))
	if w.wall(col, row) {
		return 0
	}
	stepC, nextX, deltaX := axisStep(x, dx, col, w.Cell)
	stepR, nextY, deltaY := axisStep(y, dy, row, w.Cell)
	for range int(min(limit/w.Cell, maxWallSteps))*2 + 4 {
		var t float64
		if nextX < nextY {
			t, col = nextX, col+stepC
			nextX += deltaX
		} else {
			t, row = nextY, row+stepR
			nextY += deltaY
		}
		if !(t < limit) {
			return limit
		}
		if w.wall(col, row) {
			return t
		}
	}
	return limit
}

// axisStep is one axis of a walk through the grid from coordinate p in
// cell i along direction d: the step between cells, the distance to the
// first cell boundary and the distance between boundaries (infinite when
// the ray runs along the axis's lines).
func axisStep(p, d float64, i int, cell float64) (step int, next, delta float64) {
	switch {
	case d > 0:
		return 1, ((float64(i)+1)*cell - p) / d, cell / d
	case d < 0:
		return -1, (float64(i)*cell - p) / d, -cell / d
	}
	return 0, math.Inf(1), math.Inf(1)
}

// Top is a rectangle of a raised layer's top, H levels above the ground.
type Top struct {
	Rect
	H float64
}

// Lighter is implemented by a drawing backend that lights scenes: a Gfx
// that is not one draws every scene as by day. A part asks for it with a
// type assertion on the Gfx it draws with.
type Lighter interface {
	// AddLight adds a light to the light map of its level in the current
	// drawing pass; lights past the backend's bound are left out.
	AddLight(l Light)
	// DrawLightMap multiplies what has been drawn so far by the light map
	// m and the lights added for its level since the canvas began.
	DrawLightMap(m *LightMap)
	// Lit reports whether the backend lights night maps now: the player
	// may turn the lighting off, and a night map is then drawn as by day.
	Lit() bool
}

// maxIntensity bounds a light's intensity.
const maxIntensity = 4

// ClampIntensity bounds an intensity read from data to [0, 4] (NaN: 0).
func ClampIntensity(v float64) float64 {
	if !(v > 0) {
		return 0
	}
	return min(v, maxIntensity)
}

// Sky is what the parts of one scene share about the light of its map:
// whether it is night. A map's part says so when it is built; parts that
// glow by themselves (tracers) then draw above the darkness.
type Sky struct{ night bool }

// SetNight records whether the current map is a night map.
func (s *Sky) SetNight(on bool) {
	if s != nil {
		s.night = on
	}
}

// Night reports whether the current map is a night map (a nil Sky: day).
func (s *Sky) Night() bool { return s != nil && s.night }

// EmissiveZ is the base draw order of what glows on a night map: above
// the light map of its level (LightZ), so that the darkness does not dim it.
const EmissiveZ = 45

// LightZ is the base draw order of a level's light map: above every
// part and map layer of its level, below what glows (EmissiveZ).
const LightZ = 40
