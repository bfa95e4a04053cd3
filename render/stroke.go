package render

import (
	"image"
	"math"

	"github.com/hajimehoshi/ebiten/v2"

	"vimpclient/parts"
)

// Strokes are drawn as triangles sampling the atlas's white square, in the
// frame's batch like every sprite, their edges anti-aliased by geometry: a
// band one device pixel wide along each edge fades from the stroke's
// colour to nothing.
//
// They used to be drawn by Ebiten's anti-aliased non-zero fill, one call
// each, and that call clears and composites offscreen images twice the
// canvas's size: tens of millions of pixels a stroke, which a software
// rasteriser spends seconds on when a host makes a frame hold thousands of
// strokes. Now a stroke costs its own vertices.
//
// A polyline's joins and segments overlap, which an opaque colour does not
// show. A translucent polyline would blend twice where they do, so it is
// drawn opaque into a scratch image first, over its bounding box only, and
// that box is composited with the stroke's alpha. The detour costs three
// calls (clear, draw, composite) and about twice the box's pixels; a
// frame takes at most maxScratchStrokes of them and maxScratchPixels of
// boxes, and a
// translucent polyline past either (or larger than the scratch image) is
// drawn straight into the batch, its overlaps showing, and counted.
const (
	strokeFeather     = 0.5 // half the width of the edge band, device px
	maxRingSegments   = 128
	maxJoinSegments   = 32
	maxStrokePoints   = 4096
	scratchSide       = 1024
	maxScratchStrokes = 64
	maxScratchPixels  = 1 << 22
	// strokeFillCanvases bounds the pixels a frame's strokes may cover, in
	// canvases: a host that gives a thousand snakes a radius wider than the
	// window would otherwise have every join of every one fill it. Strokes
	// past it are left out of the frame and counted.
	strokeFillCanvases = 32
)

// strokes builds and draws a gfx's strokes.
type strokes struct {
	feather float64 // 0 draws hard edges (Options.NoAntiAlias)

	vs []ebiten.Vertex // a translucent polyline on its way to the scratch image
	is []uint32

	scratch      *ebiten.Image               // scratchSide², made on first use
	scratchOp    ebiten.DrawTrianglesOptions // the stroke into the scratch image
	clearOp      ebiten.DrawTrianglesOptions // the scratch's corner cleared
	compositeOp  ebiten.DrawTrianglesOptions // the corner onto the canvas
	quad         [4]ebiten.Vertex
	quadIs       [6]uint32 // the quad's two triangles
	frameStrokes int       // scratch detours this frame
	framePixels  int       // and their boxes' pixels
	frameFill    float64   // the pixels the frame's strokes cover, about
	shed         uint64    // strokes left out, or drawn with overlaps showing
}

// newFrame starts a frame's scratch allowance.
func (s *strokes) newFrame() { s.frameStrokes, s.framePixels, s.frameFill = 0, 0, 0 }

// afford reports whether a stroke covering about area device px fits in
// the frame's fill allowance on a canvas of canvasArea px, and takes it;
// a stroke that does not fit is counted as shed.
func (s *strokes) afford(area, canvasArea float64) bool {
	if !(s.frameFill+area <= strokeFillCanvases*canvasArea) {
		s.shed++
		return false
	}
	s.frameFill += area
	return true
}

// polylineArea is at most how many device px a polyline of half-width hw
// covers: a whole disc a point (its joins are only wedges of one) and its
// segments, none counted as more than the canvas.
func polylineArea(pts []devPoint, hw, canvasArea float64) float64 {
	join := math.Min(math.Pi*hw*hw, canvasArea)
	a := join * float64(len(pts))
	for i := 1; i < len(pts); i++ {
		l := math.Hypot(pts[i].x-pts[i-1].x, pts[i].y-pts[i-1].y)
		a += math.Min(l*2*hw, canvasArea)
	}
	return a
}

// strokeColour is a stroke's premultiplied colour at coverage 1: over what
// is under it, as a canvas's source-over blend draws the games' strokes.
func strokeColour(c parts.Color) [4]float32 { return premul(c) }

func scaled(c [4]float32, k float32) [4]float32 {
	return [4]float32{c[0] * k, c[1] * k, c[2] * k, c[3] * k}
}

// mesh is where a stroke's triangles go: the batch's buffers or the
// scratch buffers, with the source pixel every vertex samples.
type mesh struct {
	vs   *[]ebiten.Vertex
	is   *[]uint32
	u, v float64
}

func (m mesh) vertex(x, y float64, c [4]float32) uint32 {
	n := uint32(len(*m.vs))
	*m.vs = append(*m.vs, vertex(x, y, m.u, m.v, c))
	return n
}

// quad adds the triangles a b c and a c d.
func (m mesh) quad(a, b, c, d uint32) { *m.is = append(*m.is, a, b, c, a, c, d) }

// band is one ring of a stroke's cross-section: a radius (or half-width)
// and the coverage there.
type band struct {
	r   float64
	cov float32
}

// profile is the cross-section of a band from lo to hi (a ring's radii, or
// a stroke's half-widths either side of its centre line): from the inside
// out, the radii where its coverage changes. Hard edges (f = 0) are two
// radii at coverage 1; a band wider than its edges' fades has a core at
// coverage 1 between them; a narrower one peaks at the coverage its width
// gives.
func profile(lo, hi, f float64) (bs [4]band, n int) {
	switch {
	case f == 0:
		return [4]band{{lo, 1}, {hi, 1}}, 2
	case hi-lo > 2*f:
		return [4]band{{lo - f, 0}, {lo + f, 1}, {hi - f, 1}, {hi + f, 0}}, 4
	default:
		mid := (lo + hi) / 2
		return [4]band{{mid - f, 0}, {mid, float32((hi - lo) / (2 * f))}, {mid + f, 0}}, 3
	}
}

// radial is the cross-section of a disc of radius r from its centre out:
// the centre's coverage, then the radii past it where the coverage changes.
func radial(r, f float64) (bs [4]band, n int) {
	p, m := profile(-r, r, f)
	bs[0] = band{0, p[m/2].cov}
	n = 1
	for _, b := range p[:m] {
		if b.r > 0 {
			bs[n] = b
			n++
		}
	}
	return bs, n
}

// segments is how many sides a polygon needs to stand for a circle of
// radius r device px within a quarter pixel, between lo and hi: a small
// ring or a thin line's join is a few triangles, not a hundred.
func segments(r float64, lo, hi int) int {
	if !(r > 0.25) {
		return lo
	}
	n := math.Ceil(math.Pi / math.Acos(1-0.25/r))
	return int(min(max(n, float64(lo)), float64(hi)))
}

// ring adds a ring centred at (cx, cy) between the radii ri and ro, device
// px; with ri 0 it is a disc.
func (m mesh) ring(cx, cy, ri, ro, f float64, col [4]float32) {
	bs, n := profile(ri, ro, f)
	if ri <= 0 {
		bs, n = radial(ro, f)
	}
	for i := range bs[:n] {
		bs[i].r = math.Max(bs[i].r, 0)
	}
	sides := segments(bs[n-1].r, 8, maxRingSegments)
	base := uint32(len(*m.vs))
	for i := range sides {
		s, co := math.Sincos(2 * math.Pi * float64(i) / float64(sides))
		for _, b := range bs[:n] {
			m.vertex(cx+co*b.r, cy+s*b.r, scaled(col, b.cov))
		}
	}
	w := uint32(n)
	for i := range uint32(sides) {
		j := (i + 1) % uint32(sides)
		for k := range w - 1 {
			a, b := base+i*w+k, base+j*w+k
			m.quad(a, a+1, b+1, b)
		}
	}
}

// polyline adds a round cap at each end, a quad along every segment,
// hw device px either side of the line, and at each turn between two
// segments the wedge of a round join on the turn's outer side (its inner
// side is under the segments already): a smooth line of many points costs
// a few vertices a point, not a whole disc.
func (m mesh) polyline(pts []devPoint, hw, f float64, col [4]float32) {
	bs, n := centred(profile(-hw, hw, f))
	rs, rn := radial(hw, f)
	sides := segments(rs[rn-1].r, 6, maxJoinSegments)
	step := 2 * math.Pi / float64(sides)
	var q devPoint
	var prev, pnx, pny float64 // the previous segment's direction and normal
	started := false
	for i, p := range pts {
		if i == 0 {
			q = p
			continue
		}
		dx, dy := p.x-q.x, p.y-q.y
		l := math.Hypot(dx, dy)
		if !(l > 0) {
			continue
		}
		dir := math.Atan2(dy, dx)
		if !started {
			m.disc(q, rs[:rn], sides, col) // the first cap
		}
		nx, ny := -dy/l, dx/l
		if t := math.Remainder(dir-prev, 2*math.Pi); started && math.Abs(t) > 1e-9 {
			// The join's outer side is away from the turn. Its first and
			// last spokes are the two segments' own edge vectors, so that
			// the wedge and the quads share their vertices exactly and no
			// pixel falls between them.
			side := 1.0
			if t > 0 {
				side = -1
			}
			m.wedge(q, rs[:rn], side*pnx, side*pny, side*nx, side*ny, t, max(1, int(math.Ceil(math.Abs(t)/step))), col)
		}
		started = true
		// The segment: its cross-section's radii, both sides of the line.
		first := uint32(len(*m.vs))
		for _, b := range bs[:n] {
			m.vertex(q.x+nx*b.r, q.y+ny*b.r, scaled(col, b.cov))
			m.vertex(p.x+nx*b.r, p.y+ny*b.r, scaled(col, b.cov))
		}
		for k := range uint32(n - 1) {
			a := first + 2*k
			m.quad(a, a+1, a+3, a+2)
		}
		q, prev, pnx, pny = p, dir, nx, ny
	}
	// The last cap, or the whole stroke when its points are all one.
	m.disc(q, rs[:rn], sides, col)
}

// centred adds the centre line to a stroke's cross-section where it has
// no radius there, so that a segment's quads meet a join's wedge at the
// point itself rather than along an edge through it.
func centred(bs [4]band, n int) ([5]band, int) {
	var out [5]band
	k := 0
	for i, b := range bs[:n] {
		if i > 0 && bs[i-1].r < 0 && b.r > 0 {
			out[k] = band{0, b.cov}
			k++
		}
		out[k] = b
		k++
	}
	return out, k
}

// wedge adds the sector of a join about p between the unit vectors
// (ux0, uy0) and (ux1, uy1), sweep radians apart, in k steps: the first
// and last spokes on those vectors exactly.
func (m mesh) wedge(p devPoint, rs []band, ux0, uy0, ux1, uy1, sweep float64, k int, col [4]float32) {
	start := math.Atan2(uy0, ux0)
	c := m.vertex(p.x, p.y, scaled(col, rs[0].cov))
	for j := range k + 1 {
		co, s := ux0, uy0
		switch {
		case j == k:
			co, s = ux1, uy1
		case j > 0:
			s, co = math.Sincos(start + sweep*float64(j)/float64(k))
		}
		for _, b := range rs[1:] {
			m.vertex(p.x+co*b.r, p.y+s*b.r, scaled(col, b.cov))
		}
	}
	m.fan(c, uint32(len(rs)-1), uint32(k), false)
}

// fan adds the triangles of a sector whose centre vertex c is followed
// by spokes of w vertices each, k steps of it; a closed one's last step
// returns to the first spoke.
func (m mesh) fan(c, w, k uint32, closed bool) {
	for j := range k {
		next := j + 1
		if closed {
			next %= k
		}
		a, b := c+1+j*w, c+1+next*w
		*m.is = append(*m.is, c, a, b)
		for r := range w - 1 {
			m.quad(a+r, a+r+1, b+r+1, b+r)
		}
	}
}

// disc adds a whole disc about p in k steps, its cross-section rs from the
// centre out (a polyline's round cap).
func (m mesh) disc(p devPoint, rs []band, k int, col [4]float32) {
	c := m.vertex(p.x, p.y, scaled(col, rs[0].cov))
	for j := range k {
		s, co := math.Sincos(2 * math.Pi * float64(j) / float64(k))
		for _, b := range rs[1:] {
			m.vertex(p.x+co*b.r, p.y+s*b.r, scaled(col, b.cov))
		}
	}
	m.fan(c, uint32(len(rs)-1), uint32(k), true)
}

// devPoint is a point in device px.
type devPoint struct{ x, y float64 }

// Ring implements parts.Gfx. A ring's triangles never overlap, so a
// translucent one goes straight into the batch.
func (g *gfx) Ring(x, y, r, w float64, c parts.Color) {
	if c.A <= 0 || !(r > 0) || !(w > 0) || g.sx == 0 || math.IsInf(r, 0) || math.IsInf(w, 0) {
		return
	}
	cx, cy := g.dev(x, y)
	ri, ro := math.Max(0, r-w/2)*math.Abs(g.sx), (r+w/2)*math.Abs(g.sx)
	if g.offCanvas(cx, cy, ro+1, ro+1) {
		return
	}
	canvasArea := g.w * g.h
	if !g.strokes.afford(math.Min(math.Pi*(ro*ro-ri*ri), canvasArea), canvasArea) {
		return
	}
	g.batchMesh().ring(cx, cy, ri, ro, g.strokes.feather, strokeColour(c))
}

// Polyline implements parts.Gfx.
func (g *gfx) Polyline(pts []parts.Vec, width float64, c parts.Color) {
	if c.A <= 0 || !(width > 0) || len(pts) == 0 || len(pts) > maxStrokePoints || g.sx == 0 || math.IsInf(width, 0) {
		return
	}
	hw := width / 2 * math.Abs(g.sx)
	s := &g.strokes
	dev := g.devPoints(pts)
	col := strokeColour(c)
	box, ok := g.strokeBox(dev, hw+s.feather+1)
	if !ok {
		return // wholly outside the canvas
	}
	canvasArea := g.w * g.h
	if !s.afford(polylineArea(dev, hw+s.feather, canvasArea), canvasArea) {
		return
	}
	if c.A >= 1 {
		g.batchMesh().polyline(dev, hw, s.feather, col)
		return
	}
	if box.Dx() > scratchSide || box.Dy() > scratchSide || s.frameStrokes >= maxScratchStrokes ||
		s.framePixels+box.Dx()*box.Dy() > maxScratchPixels {
		s.shed++
		g.batchMesh().polyline(dev, hw, s.feather, col)
		return
	}
	s.frameStrokes++
	s.framePixels += box.Dx() * box.Dy()
	g.scratchPolyline(dev, box, hw, c)
}

// batchMesh makes the batch draw from the atlas onto the canvas and returns
// its buffers as a mesh sampling the white square.
func (g *gfx) batchMesh() mesh {
	a := g.tex.shapes()
	g.b.use(g.dst, a.img, ebiten.FilterNearest)
	return mesh{vs: &g.b.vs, is: &g.b.is, u: float64(a.white.Min.X) + 1.5, v: float64(a.white.Min.Y) + 1.5}
}

// offCanvas reports whether the box of half-sides rx, ry about (cx, cy),
// device px, is wholly outside the canvas.
func (g *gfx) offCanvas(cx, cy, rx, ry float64) bool {
	return !(cx+rx > 0 && cx-rx < g.w && cy+ry > 0 && cy-ry < g.h)
}

// devPoints maps pts to device px into a buffer of the gfx's.
func (g *gfx) devPoints(pts []parts.Vec) []devPoint {
	d := g.pts[:0]
	for _, p := range pts {
		x, y := g.dev(p.X, p.Y)
		d = append(d, devPoint{x, y})
	}
	g.pts = d
	return d
}

// strokeBox is the device-pixel box of pts grown by pad, cut to the
// canvas; ok is false when nothing of it is on the canvas.
func (g *gfx) strokeBox(pts []devPoint, pad float64) (image.Rectangle, bool) {
	x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, p := range pts {
		x0, y0, x1, y1 = math.Min(x0, p.x), math.Min(y0, p.y), math.Max(x1, p.x), math.Max(y1, p.y)
	}
	canvas := g.dst.Bounds()
	if !(x0-pad < float64(canvas.Max.X) && x1+pad > float64(canvas.Min.X) &&
		y0-pad < float64(canvas.Max.Y) && y1+pad > float64(canvas.Min.Y)) {
		return image.Rectangle{}, false
	}
	r := image.Rect(int(math.Floor(math.Max(x0-pad, float64(canvas.Min.X)))), int(math.Floor(math.Max(y0-pad, float64(canvas.Min.Y)))),
		int(math.Ceil(math.Min(x1+pad, float64(canvas.Max.X)))), int(math.Ceil(math.Min(y1+pad, float64(canvas.Max.Y)))))
	return r, !r.Empty()
}

// scratchPolyline draws a translucent polyline opaque into the scratch
// image's corner the size of box, then that corner onto the canvas at box
// with the colour's alpha, so that every pixel of it is blended once.
func (g *gfx) scratchPolyline(pts []devPoint, box image.Rectangle, hw float64, c parts.Color) {
	s := &g.strokes
	if s.scratch == nil {
		s.scratch = ebiten.NewImageWithOptions(image.Rect(0, 0, scratchSide, scratchSide), &ebiten.NewImageOptions{Unmanaged: true})
		for _, op := range []*ebiten.DrawTrianglesOptions{&s.scratchOp, &s.clearOp, &s.compositeOp} {
			op.ColorScaleMode = ebiten.ColorScaleModePremultipliedAlpha
			op.Filter = ebiten.FilterNearest
			op.DisableMipmaps = true
		}
		s.clearOp.Blend = ebiten.BlendClear
		s.quadIs = [6]uint32{0, 1, 2, 0, 2, 3}
	}
	for i := range pts {
		pts[i].x -= float64(box.Min.X)
		pts[i].y -= float64(box.Min.Y)
	}
	a := g.tex.shapes()
	u, v := float64(a.white.Min.X)+1.5, float64(a.white.Min.Y)+1.5
	s.vs, s.is = s.vs[:0], s.is[:0]
	m := mesh{vs: &s.vs, is: &s.is, u: u, v: v}
	m.polyline(pts, hw, s.feather, [4]float32{c.R, c.G, c.B, 1})
	w, h := float64(box.Dx()), float64(box.Dy())
	g.b.flush() // what the batch holds is under this stroke
	// The scratch's corner the size of box is cleared, the stroke drawn
	// there, and the corner drawn onto the canvas at box: triangles all
	// three, so that no sub-image is made a stroke.
	s.quad = [4]ebiten.Vertex{vertex(0, 0, u, v, [4]float32{}), vertex(w, 0, u, v, [4]float32{}),
		vertex(w, h, u, v, [4]float32{}), vertex(0, h, u, v, [4]float32{})}
	g.d.triangles32(s.scratch, s.quad[:], s.quadIs[:], a.img, &s.clearOp)
	g.d.triangles32(s.scratch, s.vs, s.is, a.img, &s.scratchOp)
	x, y, k := float64(box.Min.X), float64(box.Min.Y), [4]float32{c.A, c.A, c.A, c.A}
	s.quad = [4]ebiten.Vertex{vertex(x, y, 0, 0, k), vertex(x+w, y, w, 0, k), vertex(x+w, y+h, w, h, k), vertex(x, y+h, 0, h, k)}
	g.d.triangles32(g.dst, s.quad[:], s.quadIs[:], s.scratch, &s.compositeOp)
}
