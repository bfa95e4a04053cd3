package render

import (
	"github.com/hajimehoshi/ebiten/v2"

	"vimpclient/parts"
	"vimpclient/world/canvas"
)

// warmSide is the side of the image Warm draws into.
const warmSide = 64

// Warm draws one of each kind of drawing a game's frames make into a small
// image of its own, then releases it: Ebiten compiles its shaders on their
// first use (the decals' fading, the circular canvas's mask) and
// the graphics driver builds a pipeline for each filter and blend the
// first time it sees them, which took tens of milliseconds of the first
// frame of a match. The window calls it once with its screen, on a frame
// before any match is on screen and before that frame draws anything; it
// reports whether it drew (false after the first call).
func (r *Renderer) Warm(*ebiten.Image) bool {
	if r.warmed {
		return false
	}
	r.warmed = true
	// The start screen draws no world: an atlas made only to warm up is
	// let go (2.6 MiB of texture, most of it the labels' area), and the
	// first match builds its own.
	if r.gfx.tex.atl == nil {
		defer r.gfx.tex.dropShapes()
	}
	img := newOwnImage(warmSide, warmSide)
	defer img.Deallocate()
	g := r.gfx
	white := parts.White()
	g.begin(img, canvas.Stage{S: 1}, 1, warmSide, warmSide)
	g.Quad(parts.Affine{A: 8, D: 8, TX: 1, TY: 1}, white) // the atlas, linear
	g.Disc(32, 32, 8, white)
	a := g.tex.shapes() // the atlas, nearest (tiles, sheet cells)
	g.b.use(img, a.img, ebiten.FilterNearest)
	wx, wy := float64(a.white.Min.X)+1.5, float64(a.white.Min.Y)+1.5
	g.b.quad(0, 0, 4, 0, 4, 4, 0, 4, wx, wy, wx, wy, premul(white))
	g.Ring(40, 40, 10, 3, white) // strokes: batched triangles
	g.Polyline([]parts.Vec{{X: 2, Y: 60}, {X: 30, Y: 50}, {X: 60, Y: 62}}, 2, white)
	g.end()
	mask := newOwnImage(warmSide, warmSide)
	defer mask.Deallocate()
	var op ebiten.DrawImageOptions
	op.Blend = ebiten.BlendDestinationIn // a circular canvas's mask
	r.d.image(img, mask, &op)
	op = ebiten.DrawImageOptions{Filter: ebiten.FilterLinear}
	op.GeoM.Scale(0.5, 0.5) // a canvas composited at another size
	r.d.image(mask, img, &op)
	r.gfx.decals.warm(img)
	return true
}

// warm compiles the fade shader and draws with it once.
func (s *decalStore) warm(dst *ebiten.Image) {
	if !s.ensureShader() {
		return
	}
	s.vs, s.is = s.vs[:0], s.is[:0]
	s.slotQuad(0, 0, 0.5)
	src := newOwnImage(warmSide, warmSide)
	defer src.Deallocate()
	s.sop.Images[0] = src
	s.d.shaderTriangles(dst, s.vs, s.is, s.shader, &s.sop)
	s.sop.Images[0] = nil
	s.vs, s.is = s.vs[:0], s.is[:0]
}
