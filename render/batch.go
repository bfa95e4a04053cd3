package render

import (
	"github.com/hajimehoshi/ebiten/v2"
)

// maxBatchVertices bounds one batch's buffers; a longer run is sent in
// several calls.
const maxBatchVertices = 1 << 16

// batch gathers textured triangles with one destination, one source image
// and one filter, and sends them to Ebiten in one call when any of those
// changes or the canvas is done: consecutive sprites from the atlas, tiles
// from one sheet, are one drawing call however many there are. Vertex
// colours are premultiplied, as a DrawImage colour scale is, and mipmaps
// are off (sprites of one call would otherwise share the smallest one's
// level).
type batch struct {
	d      *drawer
	dst    *ebiten.Image
	src    *ebiten.Image
	filter ebiten.Filter
	vs     []ebiten.Vertex
	is     []uint32
	op     ebiten.DrawTrianglesOptions
}

func newBatch(d *drawer) batch {
	b := batch{d: d}
	b.op.ColorScaleMode = ebiten.ColorScaleModePremultipliedAlpha
	b.op.DisableMipmaps = true
	return b
}

// use makes the following triangles draw from src onto dst with filter f,
// sending what was gathered for another pairing first.
func (b *batch) use(dst, src *ebiten.Image, f ebiten.Filter) {
	if dst != b.dst || src != b.src || f != b.filter || len(b.vs) >= maxBatchVertices {
		b.flush()
		b.dst, b.src, b.filter = dst, src, f
	}
}

// flush sends the gathered triangles.
func (b *batch) flush() {
	if len(b.is) > 0 && b.dst != nil && b.src != nil {
		b.op.Filter = b.filter
		b.d.triangles32(b.dst, b.vs, b.is, b.src, &b.op)
	}
	b.vs, b.is = b.vs[:0], b.is[:0]
}

// forget drops the pairing (its images may be released) after a flush.
func (b *batch) forget() {
	b.flush()
	b.dst, b.src = nil, nil
}

// vertex is a vertex with a premultiplied colour.
func vertex(dx, dy, sx, sy float64, c [4]float32) ebiten.Vertex {
	return ebiten.Vertex{DstX: float32(dx), DstY: float32(dy), SrcX: float32(sx), SrcY: float32(sy),
		ColorR: c[0], ColorG: c[1], ColorB: c[2], ColorA: c[3]}
}

// quad adds the quadrilateral a, b, c, d (device pixels, in order around
// it) sampling the source rectangle (sx0, sy0)-(sx1, sy1) in the same
// order: a at the top-left of the source, b top-right, c bottom-right.
func (b *batch) quad(ax, ay, bx, by, cx, cy, dx, dy, sx0, sy0, sx1, sy1 float64, col [4]float32) {
	n := uint32(len(b.vs))
	b.vs = append(b.vs,
		vertex(ax, ay, sx0, sy0, col), vertex(bx, by, sx1, sy0, col),
		vertex(cx, cy, sx1, sy1, col), vertex(dx, dy, sx0, sy1, col))
	b.is = append(b.is, n, n+1, n+2, n, n+2, n+3)
}
