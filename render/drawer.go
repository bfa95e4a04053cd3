package render

import (
	"image"
	"image/color"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"
)

// drawer is the one place the renderer asks Ebiten to draw: every image,
// triangle batch, fill and text draw of the world goes through it and is
// counted, so a frame's drawing calls can be measured and kept few.
type drawer struct {
	calls int // drawing calls since the last reset
	verts int // vertices those calls sent (an image draw is four)
}

// reset starts counting a new frame and returns the previous frame's count.
func (d *drawer) reset() int {
	n := d.calls
	d.calls, d.verts = 0, 0
	return n
}

func (d *drawer) image(dst, src *ebiten.Image, op *ebiten.DrawImageOptions) {
	d.calls++
	d.verts += 4
	dst.DrawImage(src, op)
}

func (d *drawer) triangles(dst *ebiten.Image, vs []ebiten.Vertex, is []uint16, src *ebiten.Image, op *ebiten.DrawTrianglesOptions) {
	d.calls++
	d.verts += len(vs)
	dst.DrawTriangles(vs, is, src, op)
}

func (d *drawer) triangles32(dst *ebiten.Image, vs []ebiten.Vertex, is []uint32, src *ebiten.Image, op *ebiten.DrawTrianglesOptions) {
	d.calls++
	d.verts += len(vs)
	dst.DrawTriangles32(vs, is, src, op)
}

func (d *drawer) fill(dst *ebiten.Image, c color.Color) {
	d.calls++
	dst.Fill(c)
}

func (d *drawer) clear(dst *ebiten.Image) {
	d.calls++
	dst.Clear()
}

func (d *drawer) text(dst *ebiten.Image, s string, face text.Face, op *text.DrawOptions) {
	d.calls++
	text.Draw(dst, s, face, op)
}

func (d *drawer) shaderTriangles(dst *ebiten.Image, vs []ebiten.Vertex, is []uint32, sh *ebiten.Shader, op *ebiten.DrawTrianglesShaderOptions) {
	d.calls++
	d.verts += len(vs)
	dst.DrawTrianglesShader32(vs, is, sh, op)
}

// clearRect makes the side×side square at (x, y) of dst transparent.
func (d *drawer) clearRect(dst *ebiten.Image, x, y, side int) {
	d.calls++
	dst.SubImage(image.Rect(x, y, x+side, y+side)).(*ebiten.Image).Clear()
}
