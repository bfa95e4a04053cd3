// Package gamemap is the one map model of the client and the embedded host:
// it parses MAP_DATA (port 3) once into a Map that the renderer, the parts,
// the games' simulation and prediction and the host all read.
//
// A map has up to MaxLevels levels: level 0 is the ground (the map grid,
// physicsStatic and layers), levels 1..7 are overhead slabs (the levels
// object keyed "1".."7", each with its grid, floor, walls and layers), and
// ramps climb between them. MapLevels holds that geometry without any
// physics: which level a point stands on, where there is floor, what is
// solid, the ramp under a point, where a body falling off a slab edge lands,
// the wall tiles glued into rectangles (StaticBlocks) and the guards beside
// the ramps (RampGuards). Host and prediction answer these questions from
// this one implementation, because two copies of the rules drift apart in
// silence and prediction is exactly where that shows.
//
// Parsing is bounded by Limits and validated by the layered-map rules (a
// ramp must arrive on drivable surface, a slab edge is railed or lands, no
// ramp climbs through a slab, ramps share no cells, levelHeight is positive):
// a map that breaks one is refused whole with an error naming the field and
// limit (*LimitError) or the rule and the cell (*ValidationError), never
// used half-right. A map without levels parses exactly as a flat map always
// did. The package uses the standard library only.
package gamemap

import (
	"encoding/json"
	"strings"
)

// DefaultScale is the world units per source pixel of a map that carries no
// scale (the tanks game's mapScale).
const DefaultScale = 0.3

// Engine defaults of a dynamic body.
const (
	DefaultBodyLayer      = 2
	DefaultAngularDamping = 0.01
)

// Layer is one render layer of a level: the tiles it draws, at its z order.
type Layer struct {
	Key   string // the layers key, e.g. "1"
	Z     int    // numeric value of the key (0 when not a number)
	Tiles []int  // tile values drawn by this layer
	// Volume is the layer's visual height in levels from the map's volumes
	// (0 when it has none): the renderer extrudes it by that much.
	Volume float64
}

// Level is one grid with its layers; level 0 is the ground.
type Level struct {
	Index      int
	Cols, Rows int
	Grid       []int32 // row-major, len Cols*Rows
	Layers     []Layer
	Solid      []int // tiles that block movement: physicsStatic on 0, walls above
	Floor      []int // tiles that can be driven on (empty on level 0)
}

// Tile returns the tile value at (col, row), which must lie in the grid.
func (l *Level) Tile(col, row int) int { return int(l.Grid[row*l.Cols+col]) }

// Body is one dynamic map object (a crate), unscaled as MAP_DATA declares it.
type Body struct {
	X, Y           float64 // top-left corner in source pixels
	AngleDeg       float64
	Width, Height  float64 // source pixels, > 0
	Density        float64
	LinearDamping  float64 // 0 when absent
	AngularDamping float64 // DefaultAngularDamping when absent
	Img            string
	Layer          int // z order; DefaultBodyLayer when absent
	Level          int // the level it rests on
	// Game is the body's opaque game data, as declared (nil when absent).
	Game json.RawMessage
}

// Spawn is one respawn point, unscaled.
type Spawn struct {
	X, Y     float64 // source pixels
	AngleDeg float64
	// Level is the declared level when HasLevel; otherwise the level comes
	// from the geometry (Map.SpawnLevel).
	Level    int
	HasLevel bool
}

// Team is one respawns entry, in the order MAP_DATA declares them.
type Team struct {
	Name   string
	Spawns []Spawn
}

// Dir is the direction a ramp climbs.
type Dir uint8

// Ramp directions: north is -y, south +y, west -x, east +x.
const (
	North Dir = iota
	South
	West
	East
)

func (d Dir) String() string {
	switch d {
	case North:
		return "north"
	case South:
		return "south"
	case West:
		return "west"
	case East:
		return "east"
	}
	return "dir?"
}

// AxisSign returns the climb's axis (0 = x, 1 = y) and sign (+1 towards
// growing coordinates).
func (d Dir) AxisSign() (axis, sign int) {
	switch d {
	case North:
		return 1, -1
	case South:
		return 1, 1
	case West:
		return 0, -1
	}
	return 0, 1
}

// Ramp is one ramps declaration: every cell of level From's grid holding
// Tile climbs in Dir from level From to level To.
type Ramp struct {
	Tile     int
	Dir      Dir
	From, To int
}

// Map is the parsed MAP_DATA.
type Map struct {
	SetID string
	Scale float64 // world units per source pixel
	Step  float64 // cell side in source pixels
	// LevelHeight is the height of one level in world units: the map's
	// levelHeight, or the world size of a cell when it has none.
	LevelHeight float64
	Levels      []Level // Levels[n] is level n; Levels[0] is the ground
	Ramps       []Ramp
	Sheet       string // sprite sheet image file ("" when none)
	Frames      [][4]float64
	Static      []int // physicsStatic
	Dynamic     []Body
	Respawns    []Team
	// Game is the map's opaque game data, as declared (nil when absent).
	Game json.RawMessage

	geo *MapLevels
}

// CellWorld is the world size of one grid cell.
func (m *Map) CellWorld() float64 { return m.Step * m.Scale }

// WorldSize returns the ground grid's size in world units.
func (m *Map) WorldSize() (float64, float64) {
	l := &m.Levels[0]
	return float64(l.Cols) * m.CellWorld(), float64(l.Rows) * m.CellWorld()
}

// Layered reports whether the map has overhead levels.
func (m *Map) Layered() bool { return len(m.Levels) > 1 }

// MapLevels is the map's layered geometry, shared by everyone who reads
// the map.
func (m *Map) MapLevels() *MapLevels { return m.geo }

// Spawns returns the respawn points of a team (nil when it has none).
func (m *Map) Spawns(team string) []Spawn {
	for i := range m.Respawns {
		if m.Respawns[i].Name == team {
			return m.Respawns[i].Spawns
		}
	}
	return nil
}

// SpawnLevel is the level a respawn point puts a body on: the declared one,
// or the highest floor at the point.
func (m *Map) SpawnLevel(s Spawn) int {
	if s.HasLevel {
		return s.Level
	}
	return m.geo.LevelAt(float32(s.X*m.Scale), float32(s.Y*m.Scale))
}

// SafeName reports whether s is a plain relative file name that may be
// appended to the asset base: no scheme, no parent references, no
// absolute path, no query.
func SafeName(s string) bool {
	if s == "" || len(s) > 200 || strings.HasPrefix(s, "/") || strings.Contains(s, "..") ||
		strings.ContainsAny(s, "\\?#:%\x00") {
		return false
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f {
			return false
		}
	}
	return true
}

// Contains reports whether v is in list.
func Contains(list []int, v int) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}
