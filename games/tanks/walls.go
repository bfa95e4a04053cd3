package tanks

import (
	"math"

	"vimpclient/gamemap"
)

// Rect is an axis-aligned wall block in world units.
type Rect struct {
	X0, Y0, X1, Y1 float32
}

// Walls is the static wall geometry of one level of a map: the solid tile
// grid (for rays) and the solid tiles glued into rectangular blocks (for
// contacts), both read from the map's MapLevels, so host and predictor
// collide against the same blocks.
type Walls struct {
	Cols, Rows int
	Cell       float32
	Blocks     []Rect
	levels     *gamemap.MapLevels
	level      int
}

// NewWalls reads a level's walls from the map's geometry.
func NewWalls(levels *gamemap.MapLevels, level int) *Walls {
	w := &Walls{Cols: levels.Cols(), Rows: levels.Rows(), Cell: levels.TileSize(), levels: levels, level: level}
	for _, b := range levels.StaticBlocks(level) {
		w.Blocks = append(w.Blocks, Rect{X0: b.X0, Y0: b.Y0, X1: b.X1, Y1: b.Y1})
	}
	return w
}

// Solid reports whether the tile at (col,row) is a wall; outside the grid
// counts as solid so nothing leaves the map.
func (w *Walls) Solid(col, row int) bool {
	if col < 0 || row < 0 || col >= w.Cols || row >= w.Rows {
		return true
	}
	return w.levels.SolidCell(w.level, col, row)
}

// SolidAt reports whether the world point is inside a wall tile.
func (w *Walls) SolidAt(x, y float32) bool {
	return w.Solid(int(floor32(x/w.Cell)), int(floor32(y/w.Cell)))
}

func floor32(v float32) float32 { return float32(math.Floor(float64(v))) }

// blocksIn appends to dst the distinct blocks touching the world AABB.
func (w *Walls) blocksIn(dst []int32, x0, y0, x1, y1 float32) []int32 {
	c0 := max(int(floor32(x0/w.Cell)), 0)
	r0 := max(int(floor32(y0/w.Cell)), 0)
	c1 := min(int(floor32(x1/w.Cell)), w.Cols-1)
	r1 := min(int(floor32(y1/w.Cell)), w.Rows-1)
	for r := r0; r <= r1; r++ {
		for c := c0; c <= c1; c++ {
			id := int32(w.levels.BlockAt(w.level, c, r))
			if id < 0 {
				continue
			}
			dup := false
			for _, d := range dst {
				if d == id {
					dup = true
					break
				}
			}
			if !dup {
				dst = append(dst, id)
			}
		}
	}
	return dst
}

// Ray walks the tile grid from (x,y) along the unit direction (dx,dy) and
// returns the distance to the first wall tile, or maxDist if none. A start
// inside a wall hits at 0.
func (w *Walls) Ray(x, y, dx, dy, maxDist float32) float32 {
	return walkRay(x, y, dx, dy, maxDist, w.Cell, w.Solid)
}
