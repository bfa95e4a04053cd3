package gamemap

import (
	"math"
	"slices"
)

// MapLevels is the layered geometry of a map without any physics: the grid
// of every level with its solid and floor tiles, the ramp runs, and the wall
// tiles glued into blocks. The host's simulation and the client's
// prediction read the same MapLevels built from the same MAP_DATA, so both
// sides answer every question about levels from this one implementation.
//
// Points are in world units (source pixels times the map's scale) and
// float32, as the simulation runs. A MapLevels is immutable and may be read
// from any goroutine.
type MapLevels struct {
	cols, rows  int
	tile        float32 // world size of a cell
	levelHeight float32
	levels      []geoLevel
	runs        []RampRun
	runOf       []int16 // ramp run index per cell, -1 where there is none
	shared      *sharedCell
}

// geoLevel is one level's geometry.
type geoLevel struct {
	grid   []int32 // shared with Map.Levels[i].Grid
	solid  tileSet
	floor  tileSet
	blocks []Block
	// rowStart and rowBlocks index the blocks by row: the blocks covering
	// row r are rowBlocks[rowStart[r]:rowStart[r+1]], ordered by column.
	// Far smaller than an index per cell: an entry per block and row it
	// spans, where a grid of a million cells would need four megabytes.
	rowStart  []int32
	rowBlocks []int32
}

// sharedCell is the first cell two ramp declarations both claim.
type sharedCell struct{ col, row, first, second int }

// tileSet is a sorted set of tile values.
type tileSet []int32

func newTileSet(list []int) tileSet {
	s := make(tileSet, 0, len(list))
	for _, t := range list {
		s = append(s, int32(t))
	}
	slices.Sort(s)
	return slices.Compact(s)
}

func (s tileSet) has(v int32) bool {
	if len(s) <= 8 {
		for _, t := range s {
			if t == v {
				return true
			}
		}
		return false
	}
	_, ok := slices.BinarySearch(s, v)
	return ok
}

// newMapLevels builds the geometry of a parsed map.
func newMapLevels(m *Map, lim Limits) (*MapLevels, error) {
	g := &m.Levels[0]
	l := &MapLevels{cols: g.Cols, rows: g.Rows, tile: float32(m.CellWorld()), levelHeight: float32(m.LevelHeight)}
	for i := range m.Levels {
		lv := &m.Levels[i]
		l.levels = append(l.levels, geoLevel{grid: lv.Grid, solid: newTileSet(lv.Solid), floor: newTileSet(lv.Floor)})
	}
	if err := l.buildRuns(m.Ramps, lim.RampRuns); err != nil {
		return nil, err
	}
	if err := l.buildBlocks(lim.StaticBlocks); err != nil {
		return nil, err
	}
	return l, nil
}

// Layered reports whether the map has overhead levels.
func (l *MapLevels) Layered() bool { return len(l.levels) > 1 }

// LevelCount is the number of levels with the ground (1 on a flat map).
func (l *MapLevels) LevelCount() int { return len(l.levels) }

// Cols and Rows are the grid's size in cells; every level has the same.
func (l *MapLevels) Cols() int { return l.cols }

// Rows is the grid's height in cells.
func (l *MapLevels) Rows() int { return l.rows }

// TileSize is the world size of one cell (step×scale).
func (l *MapLevels) TileSize() float32 { return l.tile }

// LevelHeight is the height of one level in world units.
func (l *MapLevels) LevelHeight() float32 { return l.levelHeight }

// CellAt returns the cell under a world point; ok is false outside the grid.
func (l *MapLevels) CellAt(x, y float32) (col, row int, ok bool) {
	fx, fy := x/l.tile, y/l.tile
	if !(fx >= 0 && fy >= 0 && fx < float32(l.cols) && fy < float32(l.rows)) {
		return 0, 0, false
	}
	return int(fx), int(fy), true
}

func (l *MapLevels) inside(col, row int) bool {
	return col >= 0 && row >= 0 && col < l.cols && row < l.rows
}

// TileAt returns the tile of a level's cell; ok is false outside the grid or
// for a level the map does not have.
func (l *MapLevels) TileAt(level, col, row int) (tile int, ok bool) {
	if level < 0 || level >= len(l.levels) || !l.inside(col, row) {
		return 0, false
	}
	return int(l.levels[level].grid[row*l.cols+col]), true
}

// HasFloorCell reports whether a level has floor in a cell. The ground has
// floor everywhere inside the map (it does not go away under a bridge).
func (l *MapLevels) HasFloorCell(level, col, row int) bool {
	if level == 0 {
		return l.inside(col, row)
	}
	if level < 0 || level >= len(l.levels) || !l.inside(col, row) {
		return false
	}
	lv := &l.levels[level]
	return lv.floor.has(lv.grid[row*l.cols+col])
}

// HasFloor reports whether a level has floor at a world point.
func (l *MapLevels) HasFloor(level int, x, y float32) bool {
	col, row, ok := l.CellAt(x, y)
	return ok && l.HasFloorCell(level, col, row)
}

// SolidCell reports whether a level's cell holds a wall (physicsStatic on
// the ground, walls above); outside the grid it is false.
func (l *MapLevels) SolidCell(level, col, row int) bool {
	if level < 0 || level >= len(l.levels) || !l.inside(col, row) {
		return false
	}
	lv := &l.levels[level]
	return lv.solid.has(lv.grid[row*l.cols+col])
}

// IsSolid reports whether a level has a wall at a world point.
func (l *MapLevels) IsSolid(level int, x, y float32) bool {
	col, row, ok := l.CellAt(x, y)
	return ok && l.SolidCell(level, col, row)
}

// DrivableCell reports whether a body can stand in a level's cell: the
// ground where it is no wall, a slab where it is floor and no railing.
func (l *MapLevels) DrivableCell(level, col, row int) bool {
	return l.HasFloorCell(level, col, row) && !l.SolidCell(level, col, row)
}

// LevelAt is the highest level with floor at a world point (0 when there is
// none): where a spawn point without a declared level puts its body.
func (l *MapLevels) LevelAt(x, y float32) int {
	col, row, ok := l.CellAt(x, y)
	if !ok {
		return 0
	}
	for lv := len(l.levels) - 1; lv >= 1; lv-- {
		if l.HasFloorCell(lv, col, row) {
			return lv
		}
	}
	return 0
}

// LandingLevel is the level a body that leaves level from at a world point
// lands on: the nearest level below from with floor there, else the ground.
func (l *MapLevels) LandingLevel(from int, x, y float32) int {
	col, row, ok := l.CellAt(x, y)
	if !ok {
		return 0
	}
	return l.landingCell(from, col, row)
}

func (l *MapLevels) landingCell(from, col, row int) int {
	for lv := min(from, len(l.levels)) - 1; lv >= 1; lv-- {
		if l.HasFloorCell(lv, col, row) {
			return lv
		}
	}
	return 0
}

// RampRun is one run of a ramp: the longest line of the ramp's tiles along
// its axis in one row (axis x) or column (axis y). The lanes of one wide
// ramp, runs of one declaration side by side with the same extent, share
// Block and are fenced together.
type RampRun struct {
	Axis     int // 0 = x, 1 = y
	Sign     int // +1: the climb goes towards growing coordinates
	From, To int
	// Min and Max bound the run along its axis, CrossMin and CrossMax
	// across it, in world units.
	Min, Max, CrossMin, CrossMax float32
	// Cell0..Cell1 and Cross0..Cross1 are the same bounds in cells
	// (half-open).
	Cell0, Cell1, Cross0, Cross1 int
	Block                        int // fence block: lanes of one wide ramp share it
	Ramp                         int // index of the ramps declaration
}

// RampSample is the ramp under a point.
type RampSample struct {
	// Progress is 0 at the foot of the run and 1 at its top edge.
	Progress float32
	From, To int
	// Dir is the uphill unit vector in world coordinates.
	Dir [2]float32
	// Slope is the run's gradient: rise in levels × LevelHeight over the
	// run's length, so the grade under a heading h is Slope·(Dir·h).
	Slope float32
	// Run indexes Runs and Axis is its axis (0 = x, 1 = y): a game tells a
	// body entering the run at its foot from one driving onto it from the
	// side by comparing cells along the axis.
	Run, Axis int
}

// Runs returns the ramp runs, indexed by RampSample.Run.
func (l *MapLevels) Runs() []RampRun { return l.runs }

// RampAt returns the ramp under a world point.
func (l *MapLevels) RampAt(x, y float32) (RampSample, bool) {
	col, row, ok := l.CellAt(x, y)
	if !ok || l.runOf == nil {
		return RampSample{}, false
	}
	idx := l.runOf[row*l.cols+col]
	if idx < 0 {
		return RampSample{}, false
	}
	run := &l.runs[idx]
	v := x
	if run.Axis == 1 {
		v = y
	}
	span := run.Max - run.Min
	var raw float32
	if span > 0 {
		raw = (v - run.Min) / span
	}
	progress := raw
	if run.Sign < 0 {
		progress = 1 - raw
	}
	progress = min(max(progress, 0), 1)
	rise := float32(run.To - run.From)
	if rise < 0 {
		rise = -rise
	}
	s := RampSample{Progress: progress, From: run.From, To: run.To, Run: int(idx), Axis: run.Axis,
		Slope: rise * l.levelHeight / max(span, math.SmallestNonzeroFloat32)}
	s.Dir[run.Axis] = float32(run.Sign)
	return s, true
}
