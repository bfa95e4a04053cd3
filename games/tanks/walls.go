package tanks

import "math"

// Rect is an axis-aligned wall block in world units.
type Rect struct {
	X0, Y0, X1, Y1 float32
}

// Walls is the static wall geometry of a map: the solid tile grid (for
// rays) and the solid tiles glued into rectangular blocks (for contacts).
// Host and predictor build it from the same MAP_DATA with NewWalls, so
// both collide against the same blocks.
type Walls struct {
	Cols, Rows int
	Cell       float32
	solid      []bool
	// blockOf maps a cell to its block index, -1 for open cells.
	blockOf []int32
	Blocks  []Rect
}

// NewWalls glues the wall tiles of grid (rows of tile values) whose value
// is in static into blocks: each block grows right along its first row as
// far as possible, then down while the whole span stays solid. cell is the
// world size of a tile (step·scale).
func NewWalls(grid [][]int, static []int, cell float32) *Walls {
	rows := len(grid)
	cols := 0
	for _, r := range grid {
		cols = max(cols, len(r))
	}
	w := &Walls{Cols: cols, Rows: rows, Cell: cell, solid: make([]bool, rows*cols), blockOf: make([]int32, rows*cols)}
	isStatic := func(v int) bool {
		for _, s := range static {
			if s == v {
				return true
			}
		}
		return false
	}
	for y, r := range grid {
		for x, v := range r {
			w.solid[y*cols+x] = isStatic(v)
		}
	}
	for i := range w.blockOf {
		w.blockOf[i] = -1
	}
	free := func(x, y int) bool { return w.solid[y*cols+x] && w.blockOf[y*cols+x] < 0 }
	for y := 0; y < rows; y++ {
		for x := 0; x < cols; x++ {
			if !free(x, y) {
				continue
			}
			x1 := x
			for x1+1 < cols && free(x1+1, y) {
				x1++
			}
			y1 := y
		grow:
			for y1+1 < rows {
				for i := x; i <= x1; i++ {
					if !free(i, y1+1) {
						break grow
					}
				}
				y1++
			}
			id := int32(len(w.Blocks))
			for j := y; j <= y1; j++ {
				for i := x; i <= x1; i++ {
					w.blockOf[j*cols+i] = id
				}
			}
			w.Blocks = append(w.Blocks, Rect{
				X0: float32(x) * cell, Y0: float32(y) * cell,
				X1: float32(x1+1) * cell, Y1: float32(y1+1) * cell,
			})
		}
	}
	return w
}

// Solid reports whether the tile at (col,row) is a wall; outside the grid
// counts as solid so nothing leaves the map.
func (w *Walls) Solid(col, row int) bool {
	if col < 0 || row < 0 || col >= w.Cols || row >= w.Rows {
		return true
	}
	return w.solid[row*w.Cols+col]
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
			id := w.blockOf[r*w.Cols+c]
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
	col, row := int(floor32(x/w.Cell)), int(floor32(y/w.Cell))
	if w.Solid(col, row) {
		return 0
	}
	stepC, stepR := 1, 1
	inf := float32(math.Inf(1))
	tMaxX, tMaxY, tDX, tDY := inf, inf, inf, inf
	if dx > 0 {
		tMaxX = (float32(col+1)*w.Cell - x) / dx
		tDX = w.Cell / dx
	} else if dx < 0 {
		stepC = -1
		tMaxX = (float32(col)*w.Cell - x) / dx
		tDX = -w.Cell / dx
	}
	if dy > 0 {
		tMaxY = (float32(row+1)*w.Cell - y) / dy
		tDY = w.Cell / dy
	} else if dy < 0 {
		stepR = -1
		tMaxY = (float32(row)*w.Cell - y) / dy
		tDY = -w.Cell / dy
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
		if t >= maxDist {
			return maxDist
		}
		if w.Solid(col, row) {
			return t
		}
	}
}
