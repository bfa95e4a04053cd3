package render

import (
	"math"

	"github.com/hajimehoshi/ebiten/v2"

	"vimpclient/parts"
)

// Ground decal layers.
const (
	// decalChunkPx is the side of the ground one decal chunk covers, in
	// its texture pixels; decalGutter more pixels of the neighbouring
	// ground on each side are painted too, so that a chunk drawn with
	// linear filtering samples its neighbours' marks across its edge, not
	// the next slot of its page. A slot is 128 pixels, so that a page of
	// them is a power of two a side: the graphics driver gives a texture
	// the next power of two, and a page of 130-pixel slots (520 a side)
	// would hold four times its pixels' bytes.
	decalChunkPx = 126
	decalGutter  = 1
	decalSlotPx  = decalChunkPx + 2*decalGutter
	// A page is one image of decalPageSide² chunk slots, and a second one
	// of the same size the fade passes copy it into.
	decalPageSide  = 4
	decalPageSlots = decalPageSide * decalPageSide
	decalPagePx    = decalPageSide * decalSlotPx
	decalPageBytes = 2 * decalPagePx * decalPagePx * 4
	// defaultDecalBudget bounds the bytes the decal pages of every layer
	// hold together (12 pages, 192 chunks): beyond it the chunk painted
	// least recently is wiped for a new one.
	defaultDecalBudget = 12 * decalPageBytes
	// decalStep is the least alpha, in 1/255 steps, a fade pass takes off:
	// a pass every few frames rather than every frame, each a whole
	// number of steps of the 8-bit pixels, so that the rate is kept
	// exactly over time.
	decalStep = 4
	// decalIdleFrames is how long a layer goes undrawn before its images
	// are released.
	decalIdleFrames = 600
)

// decalFadeSrc copies a decal page, lowering every pixel's alpha by the
// vertex colour's red channel and keeping its colour (the pixels are
// premultiplied).
const decalFadeSrc = `//kage:unit pixels

package main

func Fragment(dstPos vec4, srcPos vec2, color vec4) vec4 {
	c := imageSrc0UnsafeAt(srcPos)
	if c.a <= 0 {
		return vec4(0)
	}
	a := max(c.a-color.r, 0)
	return c * (a / c.a)
}
`

// decalPage holds decalPageSlots chunks: cur is what is drawn and painted
// into, next what the next fade pass writes.
type decalPage struct {
	cur, next *ebiten.Image
	slots     [decalPageSlots]*decalChunk
	live      int
	paint     batch // the marks being painted into cur
}

// decalKey names a chunk of a layer: its place, and for a held layer the
// span of DecalHeldGrain ms its marks were painted in (0 otherwise), so
// that the marks of one chunk fade as one.
type decalKey struct {
	chunkKey
	grain int64
}

// decalChunk is one piece of a layer's ground.
type decalChunk struct {
	key  decalKey
	page *decalPage
	slot int
	// born is, for a held layer, the middle of the span its marks were
	// painted in: what its age is counted from.
	born float64
	// most is at least the alpha any of its pixels holds: the chunk is
	// empty, and freed, once the fade passes have taken it to zero.
	most    float64
	painted uint64 // frame of its last mark
}

// origin is the chunk's top-left slot pixel (its gutter's corner).
func (c *decalChunk) origin() (float64, float64) {
	return float64(c.slot%decalPageSide) * decalSlotPx, float64(c.slot/decalPageSide) * decalSlotPx
}

// decalLayer is the renderer's side of one parts.DecalLayer: its chunks,
// painted at ppu texture pixels per world unit.
type decalLayer struct {
	l       *parts.DecalLayer
	ppu     float64
	span    float64 // world side of a chunk
	chunks  map[decalKey]*decalChunk
	pages   []*decalPage
	owed    float64 // alpha faded since the last pass, not yet taken off
	clock   float64 // the layer's clock at its last draw
	drawn   uint64  // frame it was last drawn in
	started bool
}

// decalStore paints decal layers into chunked pages and draws them: a
// mark is painted once, into every chunk it touches, clipped to the chunk
// on the CPU so that one call paints a frame's marks into a page (each
// page gathers its own); every
// few frames a fade pass copies each page into its twin through a shader
// that lowers the alpha; and a frame draws each page's visible chunks
// with one call. Chunks are made where marks fall and freed once faded;
// the pages are bounded by bytes.
type decalStore struct {
	d       *drawer
	tex     *textures
	layers  map[*parts.DecalLayer]*decalLayer
	pages   int // pages allocated
	budget  int // bytes
	frame   uint64
	shader  *ebiten.Shader
	vs      []ebiten.Vertex
	is      []uint32
	sop     ebiten.DrawTrianglesShaderOptions
	spare   []*decalChunk
	evicted int // chunks wiped before they had faded, for the budget
	failed  bool
}

func newDecalStore(d *drawer, tex *textures) *decalStore {
	s := &decalStore{d: d, tex: tex, layers: map[*parts.DecalLayer]*decalLayer{}, budget: defaultDecalBudget}
	s.sop.Blend = ebiten.BlendCopy
	return s
}

// startFrame releases the layers no longer drawn.
func (s *decalStore) startFrame() {
	s.frame++
	for l, dl := range s.layers {
		if dl.drawn+decalIdleFrames < s.frame {
			s.forget(dl)
			delete(s.layers, l)
		}
	}
}

// drop releases every page and forgets every layer (their marks are lost).
func (s *decalStore) drop() {
	for l, dl := range s.layers {
		s.forget(dl)
		delete(s.layers, l)
	}
}

func (s *decalStore) forget(dl *decalLayer) {
	for _, p := range dl.pages {
		s.freePage(p)
	}
	clear(dl.pages)
	dl.pages = dl.pages[:0]
	clear(dl.chunks)
}

func (s *decalStore) freePage(p *decalPage) {
	p.cur.Deallocate()
	p.next.Deallocate()
	for i, c := range p.slots {
		if c != nil {
			s.spare = append(s.spare, c)
			p.slots[i] = nil
		}
	}
	s.pages--
}

// bytes is the texture memory the pages hold.
func (s *decalStore) bytes() int { return s.pages * decalPageBytes }

// chunks is how many chunks hold marks.
func (s *decalStore) chunks() int {
	n := 0
	for _, dl := range s.layers {
		n += len(dl.chunks)
	}
	return n
}

// layerFor returns the renderer's side of l, painted at ppu; a layer met
// at another detail (the canvas was resized) starts again empty.
func (s *decalStore) layerFor(l *parts.DecalLayer, ppu float64) *decalLayer {
	dl, ok := s.layers[l]
	if ok && math.Abs(dl.ppu-ppu) <= 1e-3*ppu {
		return dl
	}
	if !ok {
		dl = &decalLayer{l: l, chunks: map[decalKey]*decalChunk{}}
		s.layers[l] = dl
	} else {
		s.forget(dl)
	}
	dl.ppu, dl.span = ppu, decalChunkPx/ppu
	return dl
}

// draw paints l's new marks and draws it as g's current projection shows it.
func (s *decalStore) draw(g *gfx, l *parts.DecalLayer) {
	ppu := g.base * (1 + g.k)
	if !(ppu > 0) || math.IsInf(ppu, 0) || !(l.FadeRate >= 0) {
		l.Take()
		return
	}
	dl := s.layerFor(l, ppu)
	dl.drawn = s.frame
	if l.Held() {
		s.drawHeld(g, dl)
		return
	}
	if now := l.Now(); dl.started && now > dl.clock {
		dl.owed += (now - dl.clock) * l.FadeRate
		dl.clock = now
	} else if !dl.started {
		dl.clock, dl.started = now, true
	}
	marks := l.Take()
	if len(dl.chunks) == 0 {
		dl.owed = 0 // nothing to fade
	}
	if steps := math.Floor(dl.owed * 255); steps >= decalStep {
		g.b.flush() // the canvas's gathered triangles may sample the pages
		s.fade(dl, steps/255)
		dl.owed -= steps / 255
	}
	if len(marks) > 0 {
		g.b.flush()
		for _, d := range marks {
			s.paintMark(dl, d)
		}
		for _, p := range dl.pages {
			p.paint.forget()
		}
	}
	s.show(g, dl)
}

// ensureShader compiles the fade shader the first time, and reports
// whether there is one (with none, the chunks are wiped as they expire).
func (s *decalStore) ensureShader() bool {
	if s.shader == nil && !s.failed {
		sh, err := ebiten.NewShader([]byte(decalFadeSrc))
		if err != nil {
			s.failed = true
		}
		s.shader = sh
	}
	return s.shader != nil
}

// fade takes alpha off every chunk of dl: each page is copied into its
// twin through the fade shader, and the twins are drawn from then on.
// Chunks the pass empties are freed, and pages left empty with them.
func (s *decalStore) fade(dl *decalLayer, alpha float64) {
	s.ensureShader()
	for _, p := range dl.pages {
		s.vs, s.is = s.vs[:0], s.is[:0]
		for j, c := range p.slots {
			if c == nil {
				continue
			}
			c.most -= alpha
			if c.most <= 0 {
				if s.shader == nil {
					x, y := c.origin()
					s.d.clearRect(p.cur, int(x), int(y), decalSlotPx) // it was never faded
				}
				s.freeChunk(dl, p, j)
				continue
			}
			if s.shader != nil {
				x, y := c.origin()
				s.slotQuad(x, y, float32(alpha))
			}
		}
		if len(s.is) > 0 {
			s.sop.Images[0] = p.cur
			s.d.shaderTriangles(p.next, s.vs, s.is, s.shader, &s.sop)
			s.sop.Images[0] = nil
			p.cur, p.next = p.next, p.cur
		}
	}
	s.freeEmptyPages(dl)
}

// freeEmptyPages releases dl's pages that hold no chunk, but one.
func (s *decalStore) freeEmptyPages(dl *decalLayer) {
	n := 0
	for i, p := range dl.pages {
		if p.live == 0 && (n > 0 || i < len(dl.pages)-1) { // one page is kept
			s.freePage(p)
			continue
		}
		dl.pages[n] = p
		n++
	}
	clear(dl.pages[n:])
	dl.pages = dl.pages[:n]
}

// drawHeld paints a held layer's new marks at their whole alpha and draws
// it, each chunk scaled by its age; chunks whose time is up are wiped and
// freed first. No fade pass runs: a pixel keeps what was painted, so a
// soft edge fades with the rest of its mark.
func (s *decalStore) drawHeld(g *gfx, dl *decalLayer) {
	now := dl.l.Now()
	expired := false
	for _, p := range dl.pages {
		for j, c := range p.slots {
			if c != nil && !(dl.l.Scale(now-c.born) > 0) {
				if !expired {
					g.b.flush() // the canvas's gathered triangles may sample the page
				}
				x, y := c.origin()
				s.d.clearRect(p.cur, int(x), int(y), decalSlotPx)
				s.freeChunk(dl, p, j)
				expired = true
			}
		}
	}
	if expired {
		s.freeEmptyPages(dl)
	}
	if marks := dl.l.Take(); len(marks) > 0 {
		g.b.flush()
		for _, d := range marks {
			s.paintMark(dl, d)
		}
		for _, p := range dl.pages {
			p.paint.forget()
		}
	}
	s.show(g, dl)
}

// slotQuad adds a whole slot at (x, y) to the pass's triangles.
func (s *decalStore) slotQuad(x, y float64, alpha float32) {
	n := uint32(len(s.vs))
	for _, v := range [4][2]float64{{0, 0}, {decalSlotPx, 0}, {decalSlotPx, decalSlotPx}, {0, decalSlotPx}} {
		px, py := float32(x+v[0]), float32(y+v[1])
		s.vs = append(s.vs, ebiten.Vertex{DstX: px, DstY: py, SrcX: px, SrcY: py, ColorR: alpha})
	}
	s.is = append(s.is, n, n+1, n+2, n, n+2, n+3)
}

// freeChunk empties slot i of p: its pixels are all transparent by now.
func (s *decalStore) freeChunk(dl *decalLayer, p *decalPage, i int) {
	c := p.slots[i]
	delete(dl.chunks, c.key)
	p.slots[i] = nil
	p.live--
	s.spare = append(s.spare, c)
}

// chunk returns dl's chunk at key, making it (and a page for it) when
// there is none; nil when the budget leaves no room even after wiping the
// chunk painted least recently.
func (s *decalStore) chunk(dl *decalLayer, key decalKey) *decalChunk {
	if c, ok := dl.chunks[key]; ok {
		return c
	}
	var page *decalPage
	for _, p := range dl.pages {
		if p.live < decalPageSlots {
			page = p
			break
		}
	}
	if page == nil && (s.bytes()+decalPageBytes <= s.budget || len(dl.pages) == 0) {
		page = &decalPage{cur: newOwnImage(decalPagePx, decalPagePx), next: newOwnImage(decalPagePx, decalPagePx), paint: newBatch(s.d)}
		dl.pages = append(dl.pages, page)
		s.pages++
	}
	if page == nil && !s.evict(dl) {
		return nil
	}
	if page == nil {
		return s.chunk(dl, key)
	}
	slot := 0
	for page.slots[slot] != nil {
		slot++
	}
	var c *decalChunk
	if n := len(s.spare); n > 0 {
		c, s.spare = s.spare[n-1], s.spare[:n-1]
	} else {
		c = &decalChunk{}
	}
	*c = decalChunk{key: key, page: page, slot: slot, born: (float64(key.grain) + 0.5) * parts.DecalHeldGrain}
	page.slots[slot] = c
	page.live++
	dl.chunks[key] = c
	return c
}

// evict wipes dl's chunk painted least recently before this frame, so
// that its slot takes a new one.
func (s *decalStore) evict(dl *decalLayer) bool {
	var old *decalChunk
	for _, c := range dl.chunks {
		if c.painted < s.frame && (old == nil || c.painted < old.painted) {
			old = c
		}
	}
	if old == nil {
		return false
	}
	old.page.paint.flush() // marks gathered for the slot are painted before it is wiped
	x, y := old.origin()
	s.d.clearRect(old.page.cur, int(x), int(y), decalSlotPx)
	s.freeChunk(dl, old.page, old.slot)
	s.evicted++
	return true
}

// decalVertex is a corner of a mark being clipped: slot pixels and
// texture pixels.
type decalVertex struct{ x, y, u, v float64 }

// paintMark paints one mark into every chunk of dl it touches.
func (s *decalStore) paintMark(dl *decalLayer, d parts.Decal) {
	a := dl.l.Alpha(d)
	if !(a > 0) {
		return
	}
	img, r, ok := s.tex.source(d.Tex)
	if !ok {
		return
	}
	x0, y0, x1, y1, ok := cutSource(d.Src, r)
	if !ok {
		return
	}
	// The mark's corners in world units and texture pixels.
	ox, oy := float64(r.Min.X), float64(r.Min.Y)
	var q [4]decalVertex
	for i, p := range [4][2]float64{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}} {
		wx, wy := d.M.Apply(p[0]-d.Src.X, p[1]-d.Src.Y)
		q[i] = decalVertex{x: wx, y: wy, u: ox + p[0], v: oy + p[1]}
	}
	minX, maxX := min(q[0].x, q[1].x, q[2].x, q[3].x), max(q[0].x, q[1].x, q[2].x, q[3].x)
	minY, maxY := min(q[0].y, q[1].y, q[2].y, q[3].y), max(q[0].y, q[1].y, q[2].y, q[3].y)
	g := decalGutter / dl.ppu
	cx0, cx1 := int(math.Floor((minX-g)/dl.span)), int(math.Floor((maxX+g)/dl.span))
	cy0, cy1 := int(math.Floor((minY-g)/dl.span)), int(math.Floor((maxY+g)/dl.span))
	if cx1-cx0 > 8 || cy1-cy0 > 8 || cx0 < math.MinInt32 || cx1 > math.MaxInt32 || cy0 < math.MinInt32 || cy1 > math.MaxInt32 {
		return // a mark larger than a few chunks, or far off: not ground
	}
	c := d.C
	c.A = float32(min(1, a+dl.owed)) // the next pass takes off what is owed
	var grain int64
	if dl.l.Held() {
		// Shown scaled by its chunk's age.
		c.A, grain = d.C.A, int64(math.Floor(d.Born/parts.DecalHeldGrain))
	}
	col := premul(c)
	f := spriteFilter(d.Src, r.Dx(), r.Dy())
	for cy := cy0; cy <= cy1; cy++ {
		for cx := cx0; cx <= cx1; cx++ {
			ch := s.chunk(dl, decalKey{chunkKey{int32(cx), int32(cy)}, grain})
			if ch == nil {
				continue
			}
			ch.most = min(1, ch.most+float64(c.A)+1.0/255)
			ch.painted = s.frame
			sx, sy := ch.origin()
			// Slot pixels of the world point (x, y).
			kx := sx + decalGutter - float64(cx)*decalChunkPx
			ky := sy + decalGutter - float64(cy)*decalChunkPx
			var poly [4]decalVertex
			for i, v := range q {
				poly[i] = decalVertex{x: v.x*dl.ppu + kx, y: v.y*dl.ppu + ky, u: v.u, v: v.v}
			}
			ch.page.paint.use(ch.page.cur, img, f)
			paintClipped(&ch.page.paint, poly, sx, sy, col)
		}
	}
}

// paintClipped adds the quad poly clipped to the slot at (sx, sy) to b.
func paintClipped(b *batch, poly [4]decalVertex, sx, sy float64, col [4]float32) {
	var buf [2][12]decalVertex
	in := buf[0][:0]
	in = append(in, poly[:]...)
	edges := [4]struct {
		axis int // 0: x, 1: y
		at   float64
		keep float64 // +1 keeps what is above at, -1 below
	}{{0, sx, 1}, {0, sx + decalSlotPx, -1}, {1, sy, 1}, {1, sy + decalSlotPx, -1}}
	for e, edge := range edges {
		out := buf[(e+1)%2][:0]
		side := func(v decalVertex) float64 {
			if edge.axis == 0 {
				return (v.x - edge.at) * edge.keep
			}
			return (v.y - edge.at) * edge.keep
		}
		for i := range in {
			a, b := in[i], in[(i+1)%len(in)]
			da, db := side(a), side(b)
			if da >= 0 {
				out = append(out, a)
			}
			if (da >= 0) != (db >= 0) {
				t := da / (da - db)
				out = append(out, decalVertex{x: a.x + (b.x-a.x)*t, y: a.y + (b.y-a.y)*t, u: a.u + (b.u-a.u)*t, v: a.v + (b.v-a.v)*t})
			}
		}
		in = out
		if len(in) < 3 {
			return
		}
	}
	base := uint32(len(b.vs))
	for _, v := range in {
		b.vs = append(b.vs, vertex(v.x, v.y, v.u, v.v, col))
	}
	for i := 1; i+1 < len(in); i++ {
		b.is = append(b.is, base, base+uint32(i), base+uint32(i+1))
	}
}

// show draws dl's visible chunks, one call per page; a held layer's
// chunks are scaled by their age.
func (s *decalStore) show(g *gfx, dl *decalLayer) {
	v := g.view
	col := white
	for _, p := range dl.pages {
		for _, c := range p.slots {
			if c == nil {
				continue
			}
			if dl.l.Held() {
				k := float32(dl.l.Scale(dl.l.Now() - c.born))
				col = [4]float32{k, k, k, k}
			}
			wx, wy := float64(c.key.cx)*dl.span, float64(c.key.cy)*dl.span
			if wx > v.X+v.W || wy > v.Y+v.H || wx+dl.span < v.X || wy+dl.span < v.Y {
				continue
			}
			g.b.use(g.dst, p.cur, ebiten.FilterLinear)
			sx, sy := c.origin()
			ax, ay := g.dev(wx, wy)
			w := dl.span * g.sx
			g.b.quad(ax, ay, ax+w, ay, ax+w, ay+w, ax, ay+w,
				sx+decalGutter, sy+decalGutter, sx+decalGutter+decalChunkPx, sy+decalGutter+decalChunkPx, col)
		}
	}
}
