package tiles

import (
	"math"

	"vimpclient/parts"
)

// maxVolumeCells bounds the cells a frame looks at for a volume's sides; a
// view holding more (a huge map seen from afar) draws the top alone.
const maxVolumeCells = 1 << 16

// volumeTop is the raised part of a layer with a volume: the sides facing
// the viewer, from the layer's level up to its top, and the layer's tiles
// on top. It sits above the bodies of its level (parts.OccluderZ).
type volumeTop struct {
	t  *TileLayer
	h  parts.Handle
	vs [4]parts.MeshVertex
}

// quadIdx is the two triangles of a quad a, b, c, d.
var quadIdx = [6]uint16{0, 1, 2, 0, 2, 3}

// Draw implements parts.Drawable.
func (v *volumeTop) Draw(g parts.Gfx) {
	t := v.t
	h0, h1 := float64(t.Level), float64(t.Level)+t.Volume
	g.Elevate(h0)
	view := g.View()
	cam := view.Centre()
	cell := t.layer.Cell
	c0 := max(0, int(math.Floor(view.X/cell)))
	r0 := max(0, int(math.Floor(view.Y/cell)))
	c1 := min(t.lv.Cols, int(math.Ceil((view.X+view.W)/cell)))
	r1 := min(t.lv.Rows, int(math.Ceil((view.Y+view.H)/cell)))
	if c1 > c0 && r1 > r0 && (c1-c0)*(r1-r0) <= maxVolumeCells {
		// Far cells first, so that a nearer side covers a farther one.
		camCol, camRow := int(math.Floor(cam.X/cell)), int(math.Floor(cam.Y/cell))
		for i := range r1 - r0 {
			row := farToNear(r0, r1, camRow, i)
			for j := range c1 - c0 {
				v.sides(g, farToNear(c0, c1, camCol, j), row, cam, h0, h1)
			}
		}
	}
	g.Elevate(h1)
	g.Static(&t.layer)
}

// farToNear is the i-th of lo..hi-1 in an order that comes towards near
// from both ends: first lo up to near, then hi-1 down past it. The faces on
// either side of the camera never overlap, and on each side the nearer ones
// come last.
func farToNear(lo, hi, near, i int) int {
	below := min(max(near-lo+1, 0), hi-lo)
	if i < below {
		return lo + i
	}
	return hi - 1 - (i - below)
}

// sides draws the faces of cell (col, row) that face the camera and border
// a cell the layer does not draw.
func (v *volumeTop) sides(g parts.Gfx, col, row int, cam parts.Vec, h0, h1 float64) {
	t := v.t
	if !t.has(col, row) {
		return
	}
	cell := t.layer.Cell
	x0, y0 := float64(col)*cell, float64(row)*cell
	x1, y1 := x0+cell, y0+cell
	tile := t.lv.Tile(col, row)
	f, textured := t.frame(tile)
	tex, tint := t.sheet, sideTint
	if !textured {
		tex, tint = parts.NoTex, mul(t.fallback(tile), sideTint)
		f = parts.Rect{}
	}
	if cam.X < x0 && !t.has(col-1, row) {
		v.face(g, tex, f, tint, x0, y0, x0, y1, h0, h1)
	}
	if cam.X > x1 && !t.has(col+1, row) {
		v.face(g, tex, f, tint, x1, y0, x1, y1, h0, h1)
	}
	if cam.Y < y0 && !t.has(col, row-1) {
		v.face(g, tex, f, tint, x0, y0, x1, y0, h0, h1)
	}
	if cam.Y > y1 && !t.has(col, row+1) {
		v.face(g, tex, f, tint, x0, y1, x1, y1, h0, h1)
	}
}

// face draws the side standing on the edge a-b from height h0 up to h1,
// the tile's frame f stood up on it (its top row along the top edge).
func (v *volumeTop) face(g parts.Gfx, tex parts.Tex, f parts.Rect, tint parts.Color, ax, ay, bx, by, h0, h1 float64) {
	v.vs = [4]parts.MeshVertex{
		{X: ax, Y: ay, H: h1, U: f.X, V: f.Y}, {X: bx, Y: by, H: h1, U: f.X + f.W, V: f.Y},
		{X: bx, Y: by, H: h0, U: f.X + f.W, V: f.Y + f.H}, {X: ax, Y: ay, H: h0, U: f.X, V: f.Y + f.H},
	}
	g.Mesh(tex, v.vs[:], quadIdx[:], tint)
}

// mul multiplies two colours channel by channel.
func mul(a, b parts.Color) parts.Color {
	return parts.Color{R: a.R * b.R, G: a.G * b.G, B: a.B * b.B, A: a.A * b.A}
}
