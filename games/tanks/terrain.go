package tanks

import (
	"math"

	"vimpclient/gamemap"
)

// Terrain is the static geometry bodies collide with on every level of a
// map: each level's glued wall blocks and the ramp guards, all read from
// the map's MapLevels, so the host's colliders and the predictor's contacts
// are the same boxes. Which of them a body meets is its Reach.
type Terrain struct {
	Levels *gamemap.MapLevels
	walls  []*Walls // by level
	guards []guard
}

// guard is a ramp guard as the solver sees it.
type guard struct {
	rect Rect
	low  int // the level of the bodies it holds
}

// NewTerrain reads the walls of every level and the ramp guards of a map's
// geometry.
func NewTerrain(l *gamemap.MapLevels) *Terrain {
	t := &Terrain{Levels: l}
	for lv := 0; lv < l.LevelCount(); lv++ {
		t.walls = append(t.walls, NewWalls(l, lv))
	}
	for _, g := range gamemap.RampGuards(l) {
		t.guards = append(t.guards, guard{rect: Rect{X0: g.X - g.HalfW, Y0: g.Y - g.HalfH, X1: g.X + g.HalfW, Y1: g.Y + g.HalfH}, low: g.Low})
	}
	return t
}

// Walls returns a level's walls (nil for a level the map does not have).
func (t *Terrain) Walls(level int) *Walls {
	if t == nil || level < 0 || level >= len(t.walls) {
		return nil
	}
	return t.walls[level]
}

// Guards returns the ramp guard boxes, in the order gamemap.RampGuards
// lists them.
func (t *Terrain) Guards() []Rect {
	out := make([]Rect, len(t.guards))
	for i, g := range t.guards {
		out[i] = g.rect
	}
	return out
}

// Ray walks the grid from (x,y) along the unit direction (dx,dy) for a shot
// flying at level and returns the distance to the first cell that stops it,
// or maxDist. A shot keeps its level: over its level's floor the walls of
// that level stop it (a slab's railings), past a slab's edge it flies over
// the floor below, whose walls stop it. Outside the map counts as a wall; a
// start inside a wall hits at 0. On level 0 this is Walls.Ray.
func (t *Terrain) Ray(level int, x, y, dx, dy, maxDist float32) float32 {
	if level <= 0 || level >= len(t.walls) {
		return t.walls[0].Ray(x, y, dx, dy, maxDist)
	}
	l, cell := t.Levels, t.Levels.TileSize()
	return walkRay(x, y, dx, dy, maxDist, cell, func(col, row int) bool {
		if col < 0 || row < 0 || col >= l.Cols() || row >= l.Rows() {
			return true
		}
		if l.HasFloorCell(level, col, row) {
			return l.SolidCell(level, col, row)
		}
		below := l.LandingLevel(level, (float32(col)+0.5)*cell, (float32(row)+0.5)*cell)
		return l.SolidCell(below, col, row)
	})
}

// ShotRay is Ray for a shot flying along line (its height in levels by
// the distance from (x, y)) over a map whose walls have the heights
// heights gives: past a slab's edge, a wall of the floor below stops the
// shot only if its top reaches the shot's height where the shot enters
// its cell (a wall without a declared height is taller than any shot).
// Over its own level's floor and on the ground it is Ray.
func (t *Terrain) ShotRay(level int, line BulletLine, heights *WallHeights, x, y, dx, dy, maxDist float32) float32 {
	if level <= 0 || level >= len(t.walls) {
		return t.walls[0].Ray(x, y, dx, dy, maxDist)
	}
	l, cell := t.Levels, t.Levels.TileSize()
	return walkRayAt(x, y, dx, dy, maxDist, cell, func(col, row int, d float32) bool {
		if col < 0 || row < 0 || col >= l.Cols() || row >= l.Rows() {
			return true
		}
		if l.HasFloorCell(level, col, row) {
			return l.SolidCell(level, col, row)
		}
		below := l.LandingLevel(level, (float32(col)+0.5)*cell, (float32(row)+0.5)*cell)
		if !l.SolidCell(below, col, row) {
			return false
		}
		tile, _ := l.TileAt(below, col, row)
		h, ok := heights.Height(below, tile)
		return !ok || float32(below)+h >= line.At(d)
	})
}

// walkRay is the grid walk of a ray: the distance to the first cell solid
// says stops it (the start cell included, at 0), or maxDist.
func walkRay(x, y, dx, dy, maxDist, cellSize float32, solid func(col, row int) bool) float32 {
	return walkRayAt(x, y, dx, dy, maxDist, cellSize, func(col, row int, _ float32) bool { return solid(col, row) })
}

// walkRayAt is walkRay whose solid also takes the distance at which the
// ray enters the cell.
func walkRayAt(x, y, dx, dy, maxDist, cellSize float32, solid func(col, row int, t float32) bool) float32 {
	col, row := int(floor32(x/cellSize)), int(floor32(y/cellSize))
	if solid(col, row, 0) {
		return 0
	}
	stepC, stepR := 1, 1
	inf := float32(math.Inf(1))
	tMaxX, tMaxY, tDX, tDY := inf, inf, inf, inf
	if dx > 0 {
		tMaxX = (float32(col+1)*cellSize - x) / dx
		tDX = cellSize / dx
	} else if dx < 0 {
		stepC = -1
		tMaxX = (float32(col)*cellSize - x) / dx
		tDX = -cellSize / dx
	}
	if dy > 0 {
		tMaxY = (float32(row+1)*cellSize - y) / dy
		tDY = cellSize / dy
	} else if dy < 0 {
		stepR = -1
		tMaxY = (float32(row)*cellSize - y) / dy
		tDY = -cellSize / dy
	}
	for {
		var t float32
		if tMaxX < tMaxY {
			t = tMaxX
			col += stepC
			tMaxX += tDX
		} else {
			t = tMaxY
			row += stepR
			tMaxY += tDY
		}
		if !(t < maxDist) { // also ends a walk that makes no progress (NaN)
			return maxDist
		}
		if solid(col, row, t) {
			return t
		}
	}
}

// Ground is the terrain of the ground alone (its walls, no guards): the
// world as a reader that knows no levels sees it.
func (t *Terrain) Ground() *Terrain {
	if t == nil || len(t.walls) == 0 {
		return t
	}
	return &Terrain{Levels: t.Levels, walls: t.walls[:1]}
}
