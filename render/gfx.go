package render

import (
	"image"
	"image/color"
	"math"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/ebitenutil"

	"vimpclient/parts"
	"vimpclient/world/canvas"
)

// discSide is the side of the anti-aliased disc texture used for Disc.
const discSide = 128

// maxLabels bounds the cache of rendered label images.
const maxLabels = 512

// gfx implements parts.Gfx on an Ebiten image for one canvas. It is reused
// every frame; nothing in it allocates in steady state.
type gfx struct {
	d     *drawer
	tex   *textures
	dst   *ebiten.Image
	st    canvas.Stage // device pixels
	view  parts.Rect
	white *ebiten.Image // 1×1 white (sub-image of a 3×3 one, no edge bleed)
	disc  *ebiten.Image
	op    ebiten.DrawImageOptions
	top   ebiten.DrawTrianglesOptions
	vs    []ebiten.Vertex
	is    []uint16
	subs  map[subKey]*ebiten.Image
	gen   uint64 // textures generation the sub-images belong to
	label map[string]*ebiten.Image
}

type subKey struct {
	tex        parts.Tex
	x, y, w, h int32
}

func newGfx(dr *drawer, t *textures, antiAlias bool) *gfx {
	w3 := ebiten.NewImage(3, 3)
	w3.Fill(color.White)
	d := image.NewRGBA(image.Rect(0, 0, discSide, discSide))
	r := float64(discSide) / 2
	for y := range discSide {
		for x := range discSide {
			// Coverage of the pixel by the disc, from the distance to the edge.
			dist := math.Hypot(float64(x)+0.5-r, float64(y)+0.5-r)
			a := math.Max(0, math.Min(1, r-dist+0.5))
			v := uint8(math.Round(a * 255))
			d.SetRGBA(x, y, color.RGBA{v, v, v, v})
		}
	}
	g := &gfx{d: dr, tex: t, white: w3.SubImage(image.Rect(1, 1, 2, 2)).(*ebiten.Image),
		disc: ebiten.NewImageFromImage(d), subs: map[subKey]*ebiten.Image{}, label: map[string]*ebiten.Image{}}
	g.op.Filter = ebiten.FilterLinear
	g.top.AntiAlias = antiAlias
	g.top.FillRule = ebiten.FillRuleNonZero
	return g
}

// begin prepares drawing into dst with the stage transform st (device px).
func (g *gfx) begin(dst *ebiten.Image, st canvas.Stage) {
	if g.gen != g.tex.gen {
		clear(g.subs)
		g.gen = g.tex.gen
	}
	g.dst, g.st = dst, st
	b := dst.Bounds()
	x0, y0, _ := st.ToWorld(0, 0)
	x1, y1, _ := st.ToWorld(float64(b.Dx()), float64(b.Dy()))
	g.view = parts.Rect{X: x0, Y: y0, W: x1 - x0, H: y1 - y0}
}

func (g *gfx) geo(m parts.Affine) ebiten.GeoM {
	var gm ebiten.GeoM
	s := g.st.S
	gm.SetElement(0, 0, m.A*s)
	gm.SetElement(0, 1, m.C*s)
	gm.SetElement(0, 2, m.TX*s+g.st.X)
	gm.SetElement(1, 0, m.B*s)
	gm.SetElement(1, 1, m.D*s)
	gm.SetElement(1, 2, m.TY*s+g.st.Y)
	return gm
}

func (g *gfx) colour(c parts.Color) ebiten.ColorScale {
	var cs ebiten.ColorScale
	cs.Scale(c.R*c.A, c.G*c.A, c.B*c.A, c.A)
	return cs
}

// Image implements parts.Gfx.
func (g *gfx) Image(tex parts.Tex, src parts.Rect, m parts.Affine, c parts.Color) {
	img := g.tex.image(tex)
	if img == nil || c.A <= 0 {
		return
	}
	b := img.Bounds()
	if src.X != 0 || src.Y != 0 || int(src.W) != b.Dx() || int(src.H) != b.Dy() {
		k := subKey{tex, int32(src.X), int32(src.Y), int32(src.W), int32(src.H)}
		sub, ok := g.subs[k]
		if !ok {
			r := image.Rect(int(src.X), int(src.Y), int(src.X+src.W), int(src.Y+src.H)).Intersect(b)
			if r.Empty() {
				return
			}
			sub = img.SubImage(r).(*ebiten.Image)
			g.subs[k] = sub
		}
		img = sub
		// Sheet cells are drawn edge to edge: nearest sampling keeps
		// neighbouring cells from bleeding into seams.
		g.op.Filter = ebiten.FilterNearest
	}
	g.op.GeoM = g.geo(m)
	g.op.ColorScale = g.colour(c)
	g.d.image(g.dst, img, &g.op)
	g.op.Filter = ebiten.FilterLinear
}

// Quad implements parts.Gfx.
func (g *gfx) Quad(m parts.Affine, c parts.Color) {
	if c.A <= 0 {
		return
	}
	g.op.GeoM = g.geo(m)
	g.op.ColorScale = g.colour(c)
	g.d.image(g.dst, g.white, &g.op)
}

// Disc implements parts.Gfx.
func (g *gfx) Disc(x, y, r float64, c parts.Color) {
	if c.A <= 0 || !(r > 0) {
		return
	}
	k := 2 * r / discSide
	g.op.GeoM = g.geo(parts.Affine{A: k, D: k, TX: x - r, TY: y - r})
	g.op.ColorScale = g.colour(c)
	g.d.image(g.dst, g.disc, &g.op)
}

func (g *gfx) vertex(x, y float64, c parts.Color) ebiten.Vertex {
	sx, sy := x*g.st.S+g.st.X, y*g.st.S+g.st.Y
	return ebiten.Vertex{DstX: float32(sx), DstY: float32(sy), SrcX: 1, SrcY: 1,
		ColorR: c.R * c.A, ColorG: c.G * c.A, ColorB: c.B * c.A, ColorA: c.A}
}

// tri appends a triangle with a positive orientation, so that overlapping
// triangles of one mesh add up under the non-zero rule and every pixel is
// blended once.
func (g *gfx) tri(a, b, c uint16) {
	va, vb, vc := g.vs[a], g.vs[b], g.vs[c]
	if (vb.DstX-va.DstX)*(vc.DstY-va.DstY)-(vb.DstY-va.DstY)*(vc.DstX-va.DstX) < 0 {
		b, c = c, b
	}
	g.is = append(g.is, a, b, c)
}

func (g *gfx) flush() {
	if len(g.is) > 0 {
		g.d.triangles(g.dst, g.vs, g.is, g.white, &g.top)
	}
	g.vs, g.is = g.vs[:0], g.is[:0]
}

// Ring implements parts.Gfx.
func (g *gfx) Ring(x, y, r, w float64, c parts.Color) {
	if c.A <= 0 || !(r > 0) || !(w > 0) {
		return
	}
	const n = 96
	ri, ro := math.Max(0, r-w/2), r+w/2
	for i := range n {
		s, co := math.Sincos(2 * math.Pi * float64(i) / n)
		g.vs = append(g.vs, g.vertex(x+co*ri, y+s*ri, c), g.vertex(x+co*ro, y+s*ro, c))
	}
	for i := range n {
		a, b := uint16(2*i), uint16(2*((i+1)%n))
		g.tri(a, a+1, b+1)
		g.tri(a, b+1, b)
	}
	g.flush()
}

// Polyline implements parts.Gfx: one mesh of segment quads and round joins.
func (g *gfx) Polyline(pts []parts.Vec, width float64, c parts.Color) {
	if c.A <= 0 || !(width > 0) || len(pts) == 0 || len(pts) > 4096 {
		return
	}
	hw := width / 2
	const fan = 16
	for i, p := range pts {
		base := uint16(len(g.vs))
		g.vs = append(g.vs, g.vertex(p.X, p.Y, c))
		for k := range fan {
			s, co := math.Sincos(2 * math.Pi * float64(k) / fan)
			g.vs = append(g.vs, g.vertex(p.X+co*hw, p.Y+s*hw, c))
		}
		for k := range fan {
			g.tri(base, base+1+uint16(k), base+1+uint16((k+1)%fan))
		}
		if i > 0 {
			q := pts[i-1]
			dx, dy := p.X-q.X, p.Y-q.Y
			l := math.Hypot(dx, dy)
			if l > 0 {
				nx, ny := -dy/l*hw, dx/l*hw
				b := uint16(len(g.vs))
				g.vs = append(g.vs, g.vertex(q.X+nx, q.Y+ny, c), g.vertex(p.X+nx, p.Y+ny, c),
					g.vertex(p.X-nx, p.Y-ny, c), g.vertex(q.X-nx, q.Y-ny, c))
				g.tri(b, b+1, b+2)
				g.tri(b, b+2, b+3)
			}
		}
		if len(g.vs) > 60000 {
			g.flush()
		}
	}
	g.flush()
}

// Label implements parts.Gfx with the debug font, rendered once per text.
func (g *gfx) Label(s string, x, y, h float64, c parts.Color) {
	if s == "" || c.A <= 0 || !(h > 0) {
		return
	}
	img, ok := g.label[s]
	if !ok {
		if len(g.label) >= maxLabels {
			for k, v := range g.label {
				v.Deallocate()
				delete(g.label, k)
			}
		}
		img = ebiten.NewImage(6*len(s)+2, 16)
		ebitenutil.DebugPrintAt(img, s, 1, 0)
		g.label[s] = img
	}
	const glyphH = 16.0
	k := h / glyphH
	w := float64(img.Bounds().Dx())
	g.op.GeoM = g.geo(parts.Affine{A: k, D: k, TX: x - w*k/2, TY: y - h/2})
	g.op.ColorScale = g.colour(c)
	g.d.image(g.dst, img, &g.op)
}

// View implements parts.Gfx.
func (g *gfx) View() parts.Rect { return g.view }
