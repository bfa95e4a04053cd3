package gamemap

import "fmt"

// MaxLevels is the number of levels a map may have, the ground included:
// level 0 and the overhead levels 1..7. It is part of the wire contract (one
// collision-mask bit per level on the host), not a tunable limit.
const MaxLevels = 8

// Limits bounds every dimension of MAP_DATA. A map beyond any of them is
// refused with a *LimitError naming the field and the limit, and the parser
// checks each bound before it allocates what the bound protects, so a
// payload can never make the client hold more than these numbers allow.
//
// The defaults are chosen from the reference games with generous headroom.
// The largest reference map is the tanks map canopy, 210×150 cells (31,500)
// with 20 crates; garden has 76 crates, the layered city map downtown 96×72
// cells on two levels with about 30 bodies and 4 ramp declarations cut into
// some 20 runs, the layered terraces map three levels; the snakes arena is
// 20×20 cells of 128 pixels with 64 spawn points, and tile sprite sheets
// carry up to about 160 frames.
type Limits struct {
	// Bytes is the size of the whole MAP_DATA text (default 4 MiB, the
	// session's message cap).
	Bytes int
	// Cols and Rows bound each side of the grid (default 4096, 20× canopy's
	// width); Cells bounds cols×rows of one level (default 1<<20, 33× canopy)
	// and TotalCells the cells of all levels together (default 1<<21).
	Cols, Rows, Cells, TotalCells int
	// Levels is the number of levels with the ground (default and at most
	// MaxLevels).
	Levels int
	// Layers bounds the render layers of one level (default 32; maps use 2–4).
	Layers int
	// TileList bounds one tile list: a layer's tiles, physicsStatic, a
	// level's floor or walls (default 1024).
	TileList int
	// Frames bounds the sprite sheet's frames (default 4096); FrameSide
	// bounds a frame's position and size in pixels (default 16384).
	Frames    int
	FrameSide float64
	// Bodies bounds physicsDynamic (default 256: the map-dynamics block
	// addresses a body by one byte).
	Bodies int
	// Ramps bounds the ramp declarations (default 64) and RampRuns the runs
	// they are cut into (default 4096).
	Ramps, RampRuns int
	// StaticBlocks bounds the rectangles the wall tiles of all levels glue
	// into (default 65536; canopy needs a few hundred).
	StaticBlocks int
	// Teams bounds the respawn teams (default 16) and Spawns the points of
	// one team (default 1024).
	Teams, Spawns int
	// String bounds every string in bytes: setId, image names, layer keys,
	// team names (default 256).
	String int
	// MinStep and MaxStep bound the cell size in source pixels (default
	// (0, 4096]; tanks uses 32, snakes 128); MinScale and MaxScale the world
	// units per source pixel (default (0, 1000]; maps use 0.2–1).
	MinStep, MaxStep   float64
	MinScale, MaxScale float64
	// MinCell and MaxCell bound the world size of a cell, step×scale
	// (default [0.001, 10000]).
	MinCell, MaxCell float64
	// Coord bounds the magnitude of every position and size in source
	// pixels: spawn points, body corners and sizes (default 1e7).
	Coord float64
	// GameBytes bounds the opaque game data of the map and of each body
	// (default 256 KiB).
	GameBytes int
}

// DefaultLimits returns the limits the client and the embedded host apply.
func DefaultLimits() Limits {
	return Limits{
		Bytes:        4 << 20,
		Cols:         4096,
		Rows:         4096,
		Cells:        1 << 20,
		TotalCells:   1 << 21,
		Levels:       MaxLevels,
		Layers:       32,
		TileList:     1024,
		Frames:       4096,
		FrameSide:    16384,
		Bodies:       256,
		Ramps:        64,
		RampRuns:     4096,
		StaticBlocks: 1 << 16,
		Teams:        16,
		Spawns:       1024,
		String:       256,
		MinStep:      0,
		MaxStep:      4096,
		MinScale:     0,
		MaxScale:     1000,
		MinCell:      1e-3,
		MaxCell:      1e4,
		Coord:        1e7,
		GameBytes:    256 << 10,
	}
}

// LimitError reports a map beyond one of its Limits.
type LimitError struct {
	Field string // the MAP_DATA field, e.g. "map" or "levels.1.layers"
	What  string // what was counted, e.g. "columns"; "" for a value out of range
	Got   string // the count or value found
	Limit string // the limit, or the allowed range
}

func (e *LimitError) Error() string {
	if e.What == "" {
		return fmt.Sprintf("map data: %s: %s is outside %s", e.Field, e.Got, e.Limit)
	}
	return fmt.Sprintf("map data: %s: %s %s, the limit is %s", e.Field, e.Got, e.What, e.Limit)
}

func overLimit(field, what string, got, limit int) error {
	return &LimitError{Field: field, What: what, Got: fmt.Sprint(got), Limit: fmt.Sprint(limit)}
}

// countOver reports a count that went past its limit; a scan stops at
// limit+1, so the error says "limit+1 or more".
func countOver(field, what string, n, limit int) error {
	if n <= limit {
		return nil
	}
	return &LimitError{Field: field, What: what, Got: fmt.Sprintf("%d or more", limit+1), Limit: fmt.Sprint(limit)}
}
