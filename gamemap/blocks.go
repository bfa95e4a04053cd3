package gamemap

import (
	"cmp"
	"slices"
)

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
	lv := &l.levels[level]
	if lv.rowStart == nil {
		return -1
	}
	ids := lv.rowBlocks[lv.rowStart[row]:lv.rowStart[row+1]]
	// The last block of the row starting at or left of col covers it, or
	// none does: blocks in a row never overlap.
	i, _ := slices.BinarySearchFunc(ids, col, func(id int32, col int) int { return cmp.Compare(lv.blocks[id].Col0, col+1) })
	if i == 0 {
		return -1
	}
	if id := ids[i-1]; lv.blocks[id].Col1 > col {
		return int(id)
	}
	return -1
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
		taken := make([]uint64, (cols*rows+63)/64) // cells already in a block
		free := func(x, y int) bool {
			i := y*cols + x
			return taken[i/64]&(1<<(i%64)) == 0 && lv.solid.has(lv.grid[i])
		}
		entries := 0
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
				for j := y; j <= y1; j++ {
					for i := x; i <= x1; i++ {
						k := j*cols + i
						taken[k/64] |= 1 << (k % 64)
					}
				}
				entries += y1 - y + 1
				lv.blocks = append(lv.blocks, Block{Level: li, Col0: x, Row0: y, Col1: x1 + 1, Row1: y1 + 1,
					X0: float32(x) * l.tile, Y0: float32(y) * l.tile,
					X1: float32(x1+1) * l.tile, Y1: float32(y1+1) * l.tile})
			}
		}
		lv.indexRows(rows, entries)
	}
	return nil
}

// indexRows builds the by-row index of the level's blocks, entries long.
func (lv *geoLevel) indexRows(rows, entries int) {
	lv.rowStart = make([]int32, rows+1)
	for _, b := range lv.blocks {
		for r := b.Row0; r < b.Row1; r++ {
			lv.rowStart[r+1]++
		}
	}
	for r := range rows {
		lv.rowStart[r+1] += lv.rowStart[r]
	}
	lv.rowBlocks = make([]int32, entries)
	next := slices.Clone(lv.rowStart[:rows])
	for id, b := range lv.blocks {
		for r := b.Row0; r < b.Row1; r++ {
			lv.rowBlocks[next[r]] = int32(id)
			next[r]++
		}
	}
	for r := range rows {
		row := lv.rowBlocks[lv.rowStart[r]:lv.rowStart[r+1]]
		slices.SortFunc(row, func(a, b int32) int { return cmp.Compare(lv.blocks[a].Col0, lv.blocks[b].Col0) })
	}
}
