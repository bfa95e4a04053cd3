package gamemap

// Block is a rectangle of wall tiles glued together on one level: one
// collider on the host, one contact partner in prediction. Reading walls
// as these blocks and not tile by tile matters: a body straddling a long
// wall meets one block where the host has one collider, while tiles would
// give it several contacts resolved along different axes.
type Block struct {
	Level int
	// Col0..Col1 and Row0..Row1 are the cells it covers (half-open).
	Col0, Row0, Col1, Row1 int
	// X0, Y0, X1, Y1 are its bounds in world units.
	X0, Y0, X1, Y1 float32
}

// StaticBlocks returns a level's wall blocks in the order they were glued:
// rows top to bottom, columns left to right, each block as wide as its first
// row allows and then as deep as the whole span stays wall.
func (l *MapLevels) StaticBlocks(level int) []Block {
	if level < 0 || level >= len(l.levels) {
		return nil
	}
	return l.levels[level].blocks
}

// BlockAt returns the index in StaticBlocks(level) of the block covering a
// cell, or -1.
func (l *MapLevels) BlockAt(level, col, row int) int {
	if level < 0 || level >= len(l.levels) || !l.inside(col, row) {
		return -1
	}
	of := l.levels[level].blockOf
	if of == nil {
		return -1
	}
	return int(of[row*l.cols+col])
}

// buildBlocks glues the wall tiles of every level, at most maxBlocks in all.
func (l *MapLevels) buildBlocks(maxBlocks int) error {
	total := 0
	cols, rows := l.cols, l.rows
	for li := range l.levels {
		lv := &l.levels[li]
		if len(lv.solid) == 0 {
			continue
		}
		of := make([]int32, cols*rows)
		for i := range of {
			of[i] = -1
		}
		free := func(x, y int) bool {
			i := y*cols + x
			return of[i] < 0 && lv.solid.has(lv.grid[i])
		}
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
				if total++; total > maxBlocks {
					return countOver("physicsStatic", "glued wall blocks", total, maxBlocks)
				}
				id := int32(len(lv.blocks))
				for j := y; j <= y1; j++ {
					for i := x; i <= x1; i++ {
						of[j*cols+i] = id
					}
				}
				lv.blocks = append(lv.blocks, Block{Level: li, Col0: x, Row0: y, Col1: x1 + 1, Row1: y1 + 1,
					X0: float32(x) * l.tile, Y0: float32(y) * l.tile,
					X1: float32(x1+1) * l.tile, Y1: float32(y1+1) * l.tile})
			}
		}
		lv.blockOf = of
	}
	return nil
}
