package render

import (
	"image"
	"math"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"

	"vimpclient/parts"
	"vimpclient/world/canvas"
)

// gfx implements parts.Gfx on an Ebiten image for one canvas at a time: the
// one drawing backend of the parts. Sprites, fills, discs, labels and
// meshes gather in a triangle batch (see batch), static layers are drawn
// from their baked chunks (see chunkCache); strokes join the batch too,
// and only a translucent one takes a detour through a scratch image (see
// strokes). It is reused every frame; nothing in it
// allocates in steady state.
//
// Heights: Elevate(h) draws what follows h levels above the ground, by the
// height projection of parts.Project. The camera centre it projects from is
// reconstructed from the canvas's stage transform and size, so the picture
// is the same at any window size.
type gfx struct {
	d      *drawer
	tex    *textures
	cache  *chunkCache
	decals *decalStore
	b      batch
	face   text.Face // labels' face (nil: labels are not drawn)

	dst  *ebiten.Image
	st   canvas.Stage // device px, at the ground
	base float64      // device px per world unit without the camera zoom
	w, h float64      // the canvas in device px
	cam  parts.Vec
	k    float64 // height × Shear
	sx   float64 // the projected transform: device = world·sx + (tx, ty)
	tx   float64
	ty   float64
	view parts.Rect

	strokes strokes    // Ring and Polyline
	light   lighting   // a night map's light maps (see lightmap.go)
	pts     []devPoint // a polyline in device px

	labelLineH float64 // the face's line box, px
	newLabels  int     // texts drawn into the label area this frame
	shedLabels uint64  // labels left out for want of that allowance
}

func newGfx(dr *drawer, t *textures, antiAlias bool, face text.Face) *gfx {
	g := &gfx{d: dr, tex: t, cache: newChunkCache(dr, t), decals: newDecalStore(dr, t), b: newBatch(dr), face: face, light: newLighting(dr)}
	if antiAlias {
		g.strokes.feather = strokeFeather
	}
	if face != nil {
		m := face.Metrics()
		g.labelLineH = m.HAscent + m.HDescent
	}
	return g
}

// begin prepares drawing into dst, a canvas of w×h device px, with the
// stage transform st (device px) whose scale without the camera's zoom is
// base.
func (g *gfx) begin(dst *ebiten.Image, st canvas.Stage, base, w, h float64) {
	g.dst, g.st, g.base, g.w, g.h = dst, st, base, w, h
	g.light.lights = g.light.lights[:0] // lights belong to one canvas's pass
	if st.S != 0 {
		g.cam = parts.Vec{X: (w/2 - st.X) / st.S, Y: (h/2 - st.Y) / st.S}
	}
	g.Elevate(0)
}

// newFrame starts a frame's allowances.
func (g *gfx) newFrame() {
	g.newLabels = 0
	g.strokes.newFrame()
}

// end sends what the canvas still has gathered.
func (g *gfx) end() { g.b.forget() }

// Elevate implements parts.Gfx.
func (g *gfx) Elevate(h float64) {
	if !(h > 0) {
		h = 0
	}
	h = min(h, parts.MaxHeight)
	g.k = h * parts.Shear
	s := g.st.S
	g.sx = s * (1 + g.k)
	g.tx = g.st.X - s*g.k*g.cam.X
	g.ty = g.st.Y - s*g.k*g.cam.Y
	if g.sx != 0 {
		x0, y0 := -g.tx/g.sx, -g.ty/g.sx
		g.view = parts.Rect{X: x0, Y: y0, W: g.w / g.sx, H: g.h / g.sx}
	}
}

// View implements parts.Gfx.
func (g *gfx) View() parts.Rect { return g.view }

// dev maps a world point at the current height to device px.
func (g *gfx) dev(x, y float64) (float64, float64) { return x*g.sx + g.tx, y*g.sx + g.ty }

// spriteFilter is the filter for drawing part of an image: a sheet cell is
// sampled nearest, so neighbouring cells never bleed into its edges; a
// whole image is filtered linearly.
func spriteFilter(src parts.Rect, w, h int) ebiten.Filter {
	if src.X != 0 || src.Y != 0 || int(src.W) != w || int(src.H) != h {
		return ebiten.FilterNearest
	}
	return ebiten.FilterLinear
}

// affineQuad adds the source rectangle (u0, v0)-(u1, v1) of img drawn with
// its corner (0, 0) .. (w, h) in texture space mapped by m to world units.
// A quad wholly outside the canvas is left out.
func (g *gfx) affineQuad(img *ebiten.Image, f ebiten.Filter, m parts.Affine, x0, y0, x1, y1, u0, v0, u1, v1 float64, c [4]float32) {
	// The corner (x0, y0) in device px, and the quad's two edges: m and the
	// projection are both affine, so the other corners follow from them
	// without mapping each one through both.
	ax, ay := g.dev(m.Apply(x0, y0))
	w, h := (x1-x0)*g.sx, (y1-y0)*g.sx
	ex, ey := m.A*w, m.B*w
	fx, fy := m.C*h, m.D*h
	if ax+min(ex, 0)+min(fx, 0) > g.w || ay+min(ey, 0)+min(fy, 0) > g.h ||
		ax+max(ex, 0)+max(fx, 0) < 0 || ay+max(ey, 0)+max(fy, 0) < 0 {
		return
	}
	g.b.use(g.dst, img, f)
	g.b.quad(ax, ay, ax+ex, ay+ey, ax+ex+fx, ay+ey+fy, ax+fx, ay+fy, u0, v0, u1, v1, c)
}

// Image implements parts.Gfx.
func (g *gfx) Image(tex parts.Tex, src parts.Rect, m parts.Affine, c parts.Color) {
	img, r, ok := g.tex.source(tex)
	if !ok || c.A <= 0 {
		return
	}
	x0, y0, x1, y1, ok := cutSource(src, r)
	if !ok {
		return
	}
	f := spriteFilter(src, r.Dx(), r.Dy())
	ox, oy := float64(r.Min.X), float64(r.Min.Y)
	g.affineQuad(img, f, m, x0-src.X, y0-src.Y, x1-src.X, y1-src.Y, ox+x0, oy+y0, ox+x1, oy+y1, premul(c))
}

// cutSource is the source rectangle src of a texture occupying r, in
// texture pixels cut to the texture; ok is false when nothing is left.
func cutSource(src parts.Rect, r image.Rectangle) (x0, y0, x1, y1 float64, ok bool) {
	x0, y0 = math.Max(0, math.Trunc(src.X)), math.Max(0, math.Trunc(src.Y))
	x1 = math.Min(float64(r.Dx()), math.Trunc(src.X+src.W))
	y1 = math.Min(float64(r.Dy()), math.Trunc(src.Y+src.H))
	return x0, y0, x1, y1, x1 > x0 && y1 > y0
}

// Quad implements parts.Gfx.
func (g *gfx) Quad(m parts.Affine, c parts.Color) {
	if c.A <= 0 {
		return
	}
	a := g.tex.shapes()
	u, v := float64(a.white.Min.X)+1.5, float64(a.white.Min.Y)+1.5
	g.affineQuad(a.img, ebiten.FilterLinear, m, 0, 0, 1, 1, u, v, u, v, premul(c))
}

// Disc implements parts.Gfx.
func (g *gfx) Disc(x, y, r float64, c parts.Color) {
	if c.A <= 0 || !(r > 0) {
		return
	}
	a := g.tex.shapes()
	d := a.disc
	k := 2 * r / float64(d.Dx())
	m := parts.Affine{A: k, D: k, TX: x - r, TY: y - r}
	g.affineQuad(a.img, ebiten.FilterLinear, m, 0, 0, float64(d.Dx()), float64(d.Dy()),
		float64(d.Min.X), float64(d.Min.Y), float64(d.Max.X), float64(d.Max.Y), premul(c))
}

// Label implements parts.Gfx: the text is drawn once into the atlas, in
// the HUD's font, and scaled so its line box is h world units tall.
func (g *gfx) Label(s string, x, y, h float64, c parts.Color) { g.label(s, x, y, h, 0, c) }

// LabelTurned draws a label as Label does, turned by angle radians about
// its centre (clockwise on screen): a sign hung aslant.
func (g *gfx) LabelTurned(s string, x, y, h, angle float64, c parts.Color) {
	if !(math.Abs(angle) <= 2*math.Pi) {
		angle = 0
	}
	g.label(s, x, y, h, angle, c)
}

func (g *gfx) label(s string, x, y, h, angle float64, c parts.Color) {
	if s == "" || c.A <= 0 || !(h > 0) || g.face == nil {
		return
	}
	// A label off the canvas takes no slot: the widest text it could be
	// is tested before its width is known (turned, it reaches as far up
	// and down as it does to the sides).
	if lineH := g.labelLineH; lineH > 0 {
		cx, cy := g.dev(x, y)
		k := h / lineH * math.Abs(g.sx)
		rx, ry := float64(maxLabelW)*k/2, (lineH+2*labelSlack)*k/2
		if angle != 0 {
			ry = math.Max(rx, ry)
			rx = ry
		}
		if g.offCanvas(cx, cy, rx, ry) {
			return
		}
	}
	a := g.tex.shapes()
	if !a.labels.has(s) {
		if g.newLabels >= maxNewLabels {
			g.shedLabels++ // drawn on a later frame
			return
		}
		g.newLabels++
		g.b.flush() // a full label area is cleared before the text is drawn
	}
	sl, ok := a.labels.slot(g.d, g.face, s)
	if !ok || sl.lineH <= 0 {
		return
	}
	k := h / sl.lineH
	w, hh := float64(sl.r.Dx()), float64(sl.r.Dy())
	m := parts.Affine{A: k, D: k, TX: x - w*k/2, TY: y - hh*k/2}
	if angle != 0 {
		m = parts.Affine{A: k, D: k, TX: -w * k / 2, TY: -hh * k / 2}.Rotate(angle).Translate(x, y)
	}
	g.affineQuad(a.img, ebiten.FilterLinear, m, 0, 0, w, hh,
		float64(sl.r.Min.X), float64(sl.r.Min.Y), float64(sl.r.Max.X), float64(sl.r.Max.Y), premul(c))
}

// Mesh implements parts.Gfx: every vertex projected from its own height.
func (g *gfx) Mesh(tex parts.Tex, vs []parts.MeshVertex, is []uint16, c parts.Color) {
	if c.A <= 0 || len(vs) == 0 || len(is) < 3 {
		return
	}
	col := premul(c)
	var img *ebiten.Image
	var ox, oy float64
	fixed := false
	// A map's faces and ramps sample tiles of a sheet, nearest, so that no
	// neighbouring tile bleeds in; a baked sprite bent over a mesh (a tilted
	// hull) is filtered as the same sprite drawn flat is, and batches with
	// the sprites around it.
	filter := ebiten.FilterNearest
	if tex != parts.NoTex {
		i, r, ok := g.tex.source(tex)
		if !ok {
			return
		}
		img, ox, oy = i, float64(r.Min.X), float64(r.Min.Y)
		if _, baked := g.tex.atlasRect(tex); baked {
			filter = ebiten.FilterLinear
		}
	} else {
		a := g.tex.shapes()
		img, ox, oy, fixed = a.img, float64(a.white.Min.X)+1.5, float64(a.white.Min.Y)+1.5, true
	}
	for _, i := range is {
		if int(i) >= len(vs) {
			return
		}
	}
	g.b.use(g.dst, img, filter)
	base := uint32(len(g.b.vs))
	s := g.st.S
	for _, v := range vs {
		k := min(max(v.H, 0), parts.MaxHeight) * parts.Shear
		dx := v.X*s*(1+k) + g.st.X - s*k*g.cam.X
		dy := v.Y*s*(1+k) + g.st.Y - s*k*g.cam.Y
		u, w := ox+v.U, oy+v.V
		if fixed {
			u, w = ox, oy
		}
		g.b.vs = append(g.b.vs, vertex(dx, dy, u, w, col))
	}
	for _, i := range is[:len(is)/3*3] {
		g.b.is = append(g.b.is, base+uint32(i))
	}
}

// Static implements parts.Gfx.
func (g *gfx) Static(l *parts.StaticLayer) { g.cache.draw(g, l) }

// Decals implements parts.Gfx.
func (g *gfx) Decals(l *parts.DecalLayer) { g.decals.draw(g, l) }

// chunk draws one baked chunk.
func (g *gfx) chunk(bl *bakedLayer, ch *chunk) {
	g.b.flush()
	op := &g.cache.op
	op.GeoM.Reset()
	k := g.sx / bl.ppu
	op.GeoM.Translate(float64(ch.at.X), float64(ch.at.Y))
	op.GeoM.Scale(k, k)
	op.GeoM.Translate(g.tx+g.sx*float64(ch.key.cx)*bl.span, g.ty+g.sx*float64(ch.key.cy)*bl.span)
	op.Filter = ebiten.FilterNearest
	if bl.l.Smooth {
		op.Filter = ebiten.FilterLinear
	}
	g.d.image(g.dst, ch.img, op)
}

// cellsOf draws a chunk that is not baked yet cell by cell, if it holds few
// enough cells.
func (g *gfx) cellsOf(bl *bakedLayer, key chunkKey) {
	x0, y0 := float64(key.cx)*bl.span, float64(key.cy)*bl.span
	col0, row0, col1, row1 := cellRange(bl.l, x0, y0, x0+bl.span, y0+bl.span)
	n := (col1 - col0) * (row1 - row0)
	if n > maxFallbackCells || g.cache.direct+n > maxDirectCells {
		g.cache.skipped++
		return
	}
	g.cache.direct += n
	emitCells(&g.b, g.dst, g.tex, bl.l, col0, row0, col1, row1, g.sx, g.tx, g.ty)
}
