package parts

// StaticCell is what one cell of a static layer shows: a frame of the
// layer's sheet, or a fill colour, over the whole cell or the part of it
// that Part names.
type StaticCell struct {
	// Src is the frame in the sheet (texture pixels); a zero width fills
	// with Fill instead.
	Src  Rect
	Fill Color
	// Part is the covered share of the cell in cell fractions (0..1 on
	// both axes); the zero Rect covers the whole cell.
	Part Rect
}

// StaticLayer is a grid layer that never changes once built: a map level's
// tile layer, the radar's walls. A drawing backend may render it once into
// textures and draw those instead of every cell, so the layer must not
// change after its first draw; a new map builds new layers. The layer's
// address is its identity.
type StaticLayer struct {
	Cols, Rows int
	Cell       float64 // world size of one cell
	// Sheet is the texture the cells' frames come from (NoTex: fills only).
	Sheet Tex
	// DetailPx is the largest side, in texture pixels, a cell's content
	// needs to be shown in full detail (the largest frame; 2 for the
	// radar's quarter cells).
	DetailPx float64
	// Smooth draws the layer's pieces with linear filtering (the radar);
	// tile layers are sampled nearest, as tiles drawn one by one are.
	Smooth bool
	// At reports what cell (col, row) shows: a frame when sheet is true
	// (the sheet is loaded), otherwise its procedural fill; ok is false for
	// a cell the layer leaves empty. It is called while the layer is
	// rendered, from the drawing goroutine.
	At func(col, row int, sheet bool) (c StaticCell, ok bool)
}

// CellRect is the world rectangle a cell's content covers.
func (l *StaticLayer) CellRect(col, row int, c StaticCell) Rect {
	x, y := float64(col)*l.Cell, float64(row)*l.Cell
	if c.Part == (Rect{}) {
		return Rect{X: x, Y: y, W: l.Cell, H: l.Cell}
	}
	return Rect{X: x + c.Part.X*l.Cell, Y: y + c.Part.Y*l.Cell, W: c.Part.W * l.Cell, H: c.Part.H * l.Cell}
}
