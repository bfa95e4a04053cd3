package render

import (
	"image"
	"math"
	"runtime"
	"sync"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"vimpclient/parts"
)

// Baking static layers.
const (
	// chunkPx is the side of one baked piece of a layer, in texture pixels
	// (a chunk holds 256 KiB of pixels): small enough that a sparse layer
	// and a map's edge waste little, large enough that a view takes a few
	// dozen of them.
	chunkPx = 256
	// defaultChunkBudget is the most chunks with content kept (48 MiB):
	// beyond the budget the least recently drawn one is released. The
	// budget follows the screen: chunkMargin times the chunks the last
	// frame looked at (every layer's view and the ring around it), never
	// below minChunkBudget, so that a 1280×720 window holds what it shows
	// and the next steps of a scroll rather than a fixed 48 MiB.
	defaultChunkBudget = 192
	minChunkBudget     = 32
	chunkMargin        = 1.5
	// maxBakesPerFrame and bakeBudget bound the baking done in one frame
	// (CPU time on the drawing goroutine: the uploads of composed chunks,
	// then the listing of new ones, checked before each chunk), so that a
	// frame that bakes stays within a 4 ms frame's share; chunks still
	// missing are drawn cell by cell meanwhile, or left out when they hold
	// too many cells. maxUploadsPerFrame bounds the uploads (256 KiB each,
	// copied by Ebiten) one frame makes; the rest wait for the next.
	maxBakesPerFrame   = 8
	maxUploadsPerFrame = 6
	bakeBudget         = 2 * time.Millisecond
	maxFallbackCells   = 4096
	// maxDirectCells bounds the cells a frame draws directly (for chunks
	// not baked yet), so that a map with many layers costs a frame a
	// bounded number of vertices; the rest show once baked.
	maxDirectCells = 16384
	// maxVisibleChunks bounds the chunks of one layer a frame looks at.
	maxVisibleChunks = 1024
	// chunkPool is how many released chunk images are kept for reuse once
	// baking has been idle for idleFrames frames. While baking goes on,
	// the pool keeps up to the budget's worth: a rebake (a new map, a
	// resize) draws into the images of the chunks it dropped instead of
	// allocating textures again, which costs as much as filling them.
	chunkPool  = 8
	idleFrames = 120
	// maxInFlight bounds the chunks being composed away from the drawing
	// goroutine at once (and so the pixel buffers they hold).
	maxInFlight = 8
	// keptPixBuffers is how many composing buffers (256 KiB each) are kept
	// for the next jobs; the others are left to the collector.
	keptPixBuffers = 2
	// tightStep is the step a chunk image's sides and origin are rounded
	// to when its content covers part of the chunk: a sparse layer's chunk
	// gets an image about the size of what it shows (a texture of its own
	// is made and uploaded for every chunk, and costs its bytes), from a
	// few sizes that the pool hands out again.
	tightStep = 32
)

type chunkKey struct{ cx, cy int32 }

// bakedLayer is one static layer's chunks at one detail.
type bakedLayer struct {
	l          *parts.StaticLayer
	ppu        float64 // texture pixels per world unit
	span       float64 // world side of a chunk
	cols, rows int     // chunks across the layer
	sheetVer   uint32  // the sheet's version the chunks were baked with
	chunks     map[chunkKey]*chunk
}

// chunk is one baked piece: img is nil when it shows nothing or while it
// is being composed (pending). The image covers the part of the chunk
// that has content: its pixel (0, 0) is the chunk's pixel at.
type chunk struct {
	layer   *bakedLayer
	key     chunkKey
	img     *ebiten.Image
	at      image.Point
	pending bool
	used    uint64 // frame it was last drawn in
}

// bakeJob is a chunk composed on a goroutine of its own from the cells the
// drawing goroutine listed: its pixels are uploaded by the next frame.
type bakeJob struct {
	ch    *chunk
	gen   uint64
	cells []bakeCell // in the image's pixels
	w, h  int        // the image's size
	sheet *image.RGBA
	pix   []byte
}

// chunkCache renders static layers into chunks lazily, around what is
// drawn, a few per frame, and keeps at most budget chunks with content,
// releasing the least recently drawn. A frame then draws each visible chunk
// with one call. drop releases everything (the renderer's Rebake).
//
// Baking is mostly off the drawing goroutine: the frame lists a chunk's
// cells (the layer's At runs there), a goroutine composes the pixels on the
// CPU from the sheet's CPU copy, and a later frame uploads them in one
// call; until then the chunk's cells are drawn directly. A sheet too large
// to keep a copy of is baked on the GPU, on the drawing goroutine.
type chunkCache struct {
	d       *drawer
	tex     *textures
	layers  map[*parts.StaticLayer]*bakedLayer
	live    []*chunk // chunks holding an image
	pool    []*ebiten.Image
	budget  int // the most chunks kept, whatever the screen
	screen  int // the budget the last frame's view asks for (0: none yet)
	wanted  int // chunks the frame so far looked at, for screen
	frame   uint64
	bakes   int           // chunks baked this frame
	spent   time.Duration // baking time this frame
	direct  int           // cells drawn directly this frame
	stale   bool          // a baked layer's sheet changed
	b       batch
	op      ebiten.DrawImageOptions
	baked   int // chunks baked since the last drop
	skipped int // visible chunks left undrawn since the last drop
	// whole bakes every chunk of every layer drawn at once, with no
	// allowance or budget: how long a map takes to bake is measured so.
	whole bool

	// unbaked counts the visible chunks this frame drew from their cells
	// or left out, not from a baked image.
	unbaked int

	idle     int    // frames in a row that baked nothing
	gen      uint64 // bumped by drop: results of older jobs are dropped
	inFlight int
	pixPool  [][]byte
	cellPool [][]bakeCell
	taken    []*bakeJob

	composers
}

// composers run the bake jobs away from the drawing goroutine, on at most
// maxWorkers goroutines at once (GOMAXPROCS: more would only take turns on
// the same cores); jobs beyond them wait in queue, taken by the goroutine
// that finishes one. A worker ends when the queue is empty, so an idle
// cache holds no goroutine.
type composers struct {
	maxWorkers int
	wg         sync.WaitGroup // one count a job not yet composed
	mu         sync.Mutex     // guards workers, queue and done
	workers    int
	queue      []*bakeJob
	done       []*bakeJob    // composed, to upload
	ready      chan struct{} // a token once a job is done
}

func newChunkCache(d *drawer, tex *textures) *chunkCache {
	return &chunkCache{d: d, tex: tex, layers: map[*parts.StaticLayer]*bakedLayer{}, budget: defaultChunkBudget, b: newBatch(d),
		composers: composers{maxWorkers: max(1, runtime.GOMAXPROCS(0)), ready: make(chan struct{}, 1)}}
}

// startFrame begins a frame's baking allowance and uploads the chunks
// composed since the last frame.
func (c *chunkCache) startFrame() {
	c.frame++
	if c.wanted > 0 {
		c.screen = screenBudget(c.wanted)
		c.wanted = 0
	}
	if c.bakes == 0 && c.inFlight == 0 {
		c.idle++
	} else {
		c.idle = 0
	}
	if c.idle >= idleFrames {
		c.trimPool()
	}
	c.unbaked = 0
	c.bakes, c.direct = 0, 0
	t0 := time.Now()
	c.collect(maxUploadsPerFrame)
	c.spent = time.Since(t0)
}

// limit is the number of chunks with content kept now: the budget, or
// less when the screen needs less.
func (c *chunkCache) limit() int {
	if c.screen > 0 {
		return min(c.budget, c.screen)
	}
	return c.budget
}

// screenBudget is the chunk budget for a frame that looked at wanted
// chunks.
func screenBudget(wanted int) int {
	return min(defaultChunkBudget, max(minChunkBudget, int(math.Ceil(float64(wanted)*chunkMargin))))
}

// trimPool releases the pooled images beyond chunkPool, and the pixel
// buffers kept for composing (2 MiB at most): an idle cache holds only
// what it draws.
func (c *chunkCache) trimPool() {
	if len(c.pixPool) > 0 {
		clear(c.pixPool)
		c.pixPool = c.pixPool[:0]
	}
	for len(c.pool) > chunkPool {
		n := len(c.pool) - 1
		c.pool[n].Deallocate()
		c.pool[n] = nil
		c.pool = c.pool[:n]
	}
}

// submit hands a job to a composing goroutine, starting one when fewer
// than maxWorkers run, queueing the job otherwise.
func (c *chunkCache) submit(j *bakeJob) {
	c.inFlight++
	c.wg.Add(1)
	c.mu.Lock()
	if c.workers >= c.maxWorkers {
		c.queue = append(c.queue, j)
		c.mu.Unlock()
		return
	}
	c.workers++
	c.mu.Unlock()
	go c.work(j)
}

// work composes j, then the queued jobs, until the queue is empty.
func (c *chunkCache) work(j *bakeJob) {
	for j != nil {
		compose(j.pix, j.w, j.h, j.cells, j.sheet)
		c.mu.Lock()
		c.done = append(c.done, j)
		j = nil
		if len(c.queue) > 0 {
			j = c.queue[0]
			copy(c.queue, c.queue[1:])
			c.queue[len(c.queue)-1] = nil
			c.queue = c.queue[:len(c.queue)-1]
		} else {
			c.workers--
		}
		c.mu.Unlock()
		select {
		case c.ready <- struct{}{}:
		default:
		}
		c.wg.Done()
	}
}

// await uploads composed chunks until fewer than maxInFlight are being
// composed.
func (c *chunkCache) await() {
	for c.inFlight >= maxInFlight {
		<-c.ready
		c.collect(math.MaxInt)
	}
}

// collect uploads up to limit composed chunks of the current generation,
// oldest first (those of older generations are dropped without counting).
func (c *chunkCache) collect(limit int) {
	c.mu.Lock()
	c.taken = append(c.taken, c.done...)
	clear(c.done)
	c.done = c.done[:0]
	c.mu.Unlock()
	n, uploads := 0, 0
	for ; n < len(c.taken) && uploads < limit; n++ {
		j := c.taken[n]
		c.inFlight--
		if j.gen == c.gen {
			uploads++
			img := c.image(j.w, j.h)
			c.tex.up.write(img, j.pix[:j.w*j.h*4])
			j.ch.img, j.ch.pending = img, false
			c.live = append(c.live, j.ch)
		}
		if len(c.pixPool) < keptPixBuffers {
			c.pixPool = append(c.pixPool, j.pix)
		}
		c.putCells(j.cells)
	}
	rest := copy(c.taken, c.taken[n:])
	clear(c.taken[rest:])
	c.taken = c.taken[:rest]
}

func (c *chunkCache) putCells(cells []bakeCell) {
	if len(c.cellPool) < maxInFlight+1 {
		c.cellPool = append(c.cellPool, cells[:0])
	}
}

// image returns a chunk image of w×h pixels, a pooled one when there is
// one of that size (its pixels are about to be replaced).
func (c *chunkCache) image(w, h int) *ebiten.Image {
	for i := len(c.pool) - 1; i >= 0; i-- {
		img := c.pool[i]
		if b := img.Bounds(); b.Dx() != w || b.Dy() != h {
			continue
		}
		last := len(c.pool) - 1
		c.pool[i] = c.pool[last]
		c.pool[last] = nil
		c.pool = c.pool[:last]
		return img
	}
	return newOwnImage(w, h)
}

// newOwnImage makes an image that is a texture of its own (chunks, canvases,
// the atlas): in Ebiten's shared atlas, large images grow its pages by
// doubling, and a page keeps its memory for as long as any image lives on
// it.
func newOwnImage(w, h int) *ebiten.Image {
	return ebiten.NewImageWithOptions(image.Rect(0, 0, w, h), &ebiten.NewImageOptions{Unmanaged: true})
}

// drop releases every chunk and forgets every layer; the chunks' images
// are pooled for the bake that follows (they are as many as the budget
// allows, or a whole map's after a whole bake), until baking has been idle
// for idleFrames.
func (c *chunkCache) drop() {
	for _, ch := range c.live {
		c.pool = append(c.pool, ch.img)
		ch.img = nil
	}
	clear(c.live)
	c.live = c.live[:0]
	c.idle = 0
	clear(c.layers)
	c.stale = false
	c.baked, c.skipped = 0, 0
	c.gen++ // chunks still being composed are dropped when they arrive
}

// bytes is the texture memory the chunks hold, pooled images included.
func (c *chunkCache) bytes() int {
	n := 0
	for _, ch := range c.live {
		n += imageBytesOf(ch.img)
	}
	for _, img := range c.pool {
		n += imageBytesOf(img)
	}
	return n
}

// imageBytesOf is what img's texture holds: the graphics driver gives a
// texture the next power of two a side, so a 96×160 image holds the bytes
// of 128×256.
func imageBytesOf(img *ebiten.Image) int {
	b := img.Bounds()
	return textureSide(b.Dx()) * textureSide(b.Dy()) * 4
}

// textureSide is the side of the texture an image side of n pixels gets.
func textureSide(n int) int {
	s := 1
	for s < n {
		s *= 2
	}
	return s
}

// layerFor returns the baked form of l at devicePPU device pixels per world
// unit: each cell gets the detail of its content (DetailPx), never more
// than the device shows and never less than one pixel.
func (c *chunkCache) layerFor(l *parts.StaticLayer, devicePPU float64) *bakedLayer {
	cellPx := devicePPU * l.Cell
	if l.DetailPx > 0 {
		cellPx = min(cellPx, l.DetailPx)
	}
	cellPx = max(cellPx, 1)
	ppu := cellPx / l.Cell
	if bl, ok := c.layers[l]; ok && bl.ppu == ppu {
		return bl
	} else if ok {
		c.forgetLayer(bl)
	}
	span := chunkPx / ppu
	bl := &bakedLayer{l: l, ppu: ppu, span: span,
		cols: int(math.Ceil(float64(l.Cols) * l.Cell / span)), rows: int(math.Ceil(float64(l.Rows) * l.Cell / span)),
		sheetVer: c.tex.version(l.Sheet), chunks: map[chunkKey]*chunk{}}
	c.layers[l] = bl
	return bl
}

func (c *chunkCache) forgetLayer(bl *bakedLayer) {
	n := 0
	for _, ch := range c.live {
		if ch.layer == bl {
			c.release(ch.img)
			ch.img = nil
			continue
		}
		c.live[n] = ch
		n++
	}
	clear(c.live[n:])
	c.live = c.live[:n]
	delete(c.layers, bl.l)
}

// release pools img, making room by releasing the image pooled longest
// ago when the pool is full: chunk images come in several sizes, and the
// latest released are the likeliest to fit the next chunks baked.
func (c *chunkCache) release(img *ebiten.Image) {
	if len(c.pool) >= max(chunkPool, c.limit()-len(c.live)) {
		c.pool[0].Deallocate()
		n := copy(c.pool, c.pool[1:])
		c.pool[n] = nil
		c.pool = c.pool[:n]
	}
	c.pool = append(c.pool, img)
}

// canBake reports whether this frame may bake another chunk, making room
// under the budget by releasing a chunk not drawn this frame.
func (c *chunkCache) canBake() bool {
	if c.bakes >= maxBakesPerFrame || c.spent >= bakeBudget || c.inFlight >= maxInFlight {
		return false
	}
	if len(c.live)+c.inFlight < c.limit() {
		return true
	}
	oldest := -1
	for i, ch := range c.live {
		if ch.used < c.frame && (oldest < 0 || ch.used < c.live[oldest].used) {
			oldest = i
		}
	}
	if oldest < 0 {
		return false // every chunk held is on screen
	}
	ch := c.live[oldest]
	c.release(ch.img)
	ch.img = nil
	delete(ch.layer.chunks, ch.key)
	last := len(c.live) - 1
	c.live[oldest] = c.live[last]
	c.live[last] = nil
	c.live = c.live[:last]
	return true
}

// cellRange is the cells a world rectangle touches.
func cellRange(l *parts.StaticLayer, x0, y0, x1, y1 float64) (c0, r0, c1, r1 int) {
	c0 = max(0, int(math.Floor(x0/l.Cell)))
	r0 = max(0, int(math.Floor(y0/l.Cell)))
	c1 = min(l.Cols, int(math.Ceil(x1/l.Cell)))
	r1 = min(l.Rows, int(math.Ceil(y1/l.Cell)))
	return
}

// bake starts baking one chunk: an empty one is done at once, the others
// are composed on a goroutine (or drawn on the GPU when the sheet has no CPU
// copy).
func (c *chunkCache) bake(bl *bakedLayer, key chunkKey) *chunk {
	t0 := time.Now()
	ch := &chunk{layer: bl, key: key}
	bl.chunks[key] = ch
	_, _, loaded := c.tex.source(bl.l.Sheet)
	sheet := c.tex.cpu(bl.l.Sheet)
	cells, needSheet, content := c.list(bl, key, loaded)
	switch {
	case len(cells) == 0 || content.Empty():
		c.putCells(cells)
	case needSheet && sheet == nil:
		c.putCells(cells)
		c.bakeGPU(ch)
	default:
		var pix []byte
		if n := len(c.pixPool); n > 0 {
			pix, c.pixPool = c.pixPool[n-1], c.pixPool[:n-1]
		} else {
			pix = make([]byte, chunkPx*chunkPx*4)
		}
		r := imageRect(content, bl.l.Smooth)
		ch.at, ch.pending = r.Min, true
		shiftCells(cells, r.Min)
		c.submit(&bakeJob{ch: ch, gen: c.gen, cells: cells, w: r.Dx(), h: r.Dy(), sheet: sheet, pix: pix})
	}
	c.bakes++
	c.baked++
	c.spent += time.Since(t0)
	return ch
}

// imageRect is the part of a chunk its image covers, for content in the
// chunk's pixels: content rounded out to tightStep. A smooth layer's
// chunks are drawn with linear filtering, which reads past a texture's
// edge: they keep the whole chunk.
func imageRect(content image.Rectangle, smooth bool) image.Rectangle {
	if smooth {
		return image.Rect(0, 0, chunkPx, chunkPx)
	}
	down := func(v int) int { return v / tightStep * tightStep }
	up := func(v int) int { return min(chunkPx, (v+tightStep-1)/tightStep*tightStep) }
	return image.Rect(down(content.Min.X), down(content.Min.Y), up(content.Max.X), up(content.Max.Y))
}

// shiftCells moves cells from the chunk's pixels to those of its image,
// whose pixel (0, 0) is the chunk's pixel at (whole pixels: the cells'
// edges move exactly, and cover the same pixels).
func shiftCells(cells []bakeCell, at image.Point) {
	dx, dy := float64(at.X), float64(at.Y)
	for i := range cells {
		cells[i].x0 -= dx
		cells[i].x1 -= dx
		cells[i].y0 -= dy
		cells[i].y1 -= dy
	}
}

// list lists the cells of one chunk for compose, whether any of them needs
// the sheet, and the chunk's pixels they cover.
func (c *chunkCache) list(bl *bakedLayer, key chunkKey, loaded bool) (cells []bakeCell, needSheet bool, content image.Rectangle) {
	if n := len(c.cellPool); n > 0 {
		cells, c.cellPool = c.cellPool[n-1][:0], c.cellPool[:n-1]
	}
	l := bl.l
	x0, y0 := float64(key.cx)*bl.span, float64(key.cy)*bl.span
	col0, row0, col1, row1 := cellRange(l, x0, y0, x0+bl.span, y0+bl.span)
	for row := row0; row < row1; row++ {
		for col := col0; col < col1; col++ {
			sc, ok := l.At(col, row, loaded)
			if !ok {
				continue
			}
			r := l.CellRect(col, row, sc)
			cell := bakeCell{x0: (r.X - x0) * bl.ppu, y0: (r.Y - y0) * bl.ppu, x1: (r.X + r.W - x0) * bl.ppu, y1: (r.Y + r.H - y0) * bl.ppu}
			if sc.Src.W > 0 && loaded {
				cell.src = image.Rect(int(sc.Src.X), int(sc.Src.Y), int(sc.Src.X+sc.Src.W), int(sc.Src.Y+sc.Src.H))
				needSheet = true
			} else {
				if sc.Fill.A <= 0 {
					continue
				}
				p := premul(sc.Fill)
				for i := range p {
					cell.fill[i] = uint8(math.Round(float64(min(max(p[i], 0), 1)) * 255))
				}
			}
			px0, py0, px1, py1 := cell.pixels()
			content = content.Union(image.Rect(px0, py0, px1, py1).Intersect(image.Rect(0, 0, chunkPx, chunkPx)))
			cells = append(cells, cell)
		}
	}
	return cells, needSheet, content
}

// bakeGPU draws one chunk on the GPU, for a sheet with no CPU copy.
func (c *chunkCache) bakeGPU(ch *chunk) {
	bl := ch.layer
	img := c.image(chunkPx, chunkPx)
	c.d.clear(img)
	x0, y0 := float64(ch.key.cx)*bl.span, float64(ch.key.cy)*bl.span
	col0, row0, col1, row1 := cellRange(bl.l, x0, y0, x0+bl.span, y0+bl.span)
	drawn := emitCells(&c.b, img, c.tex, bl.l, col0, row0, col1, row1, bl.ppu, -x0*bl.ppu, -y0*bl.ppu)
	c.b.forget()
	if drawn == 0 {
		c.release(img)
		return
	}
	ch.img = img
	c.live = append(c.live, ch)
}

// finish waits for every chunk being composed and uploads it (a whole bake).
func (c *chunkCache) finish() {
	c.wg.Wait()
	c.collect(math.MaxInt)
}

// emitCells adds the cells col0..col1 × row0..row1 of l to b, drawn onto
// dst with device = world·scale + (ox, oy), and returns how many it drew.
func emitCells(b *batch, dst *ebiten.Image, tex *textures, l *parts.StaticLayer, col0, row0, col1, row1 int, scale, ox, oy float64) int {
	sheet, sr, loaded := tex.source(l.Sheet)
	atl := tex.shapes()
	wx, wy := float64(atl.white.Min.X)+1.5, float64(atl.white.Min.Y)+1.5
	n := 0
	for row := row0; row < row1; row++ {
		for col := col0; col < col1; col++ {
			sc, ok := l.At(col, row, loaded)
			if !ok {
				continue
			}
			r := l.CellRect(col, row, sc)
			ax, ay := r.X*scale+ox, r.Y*scale+oy
			bx, by := (r.X+r.W)*scale+ox, (r.Y+r.H)*scale+oy
			if sc.Src.W > 0 && loaded {
				b.use(dst, sheet, ebiten.FilterNearest)
				sx, sy := float64(sr.Min.X)+sc.Src.X, float64(sr.Min.Y)+sc.Src.Y
				b.quad(ax, ay, bx, ay, bx, by, ax, by, sx, sy, sx+sc.Src.W, sy+sc.Src.H, white)
			} else {
				if sc.Fill.A <= 0 {
					continue
				}
				b.use(dst, atl.img, ebiten.FilterNearest)
				b.quad(ax, ay, bx, ay, bx, by, ax, by, wx, wy, wx, wy, premul(sc.Fill))
			}
			n++
		}
	}
	return n
}

// white is the neutral premultiplied tint.
var white = [4]float32{1, 1, 1, 1}

func premul(c parts.Color) [4]float32 { return [4]float32{c.R * c.A, c.G * c.A, c.B * c.A, c.A} }

// draw draws l as the gfx's current projection shows it: the chunks in view,
// baking the missing ones while the frame's allowance lasts, then baking
// the ring of chunks around the view with what is left of it.
func (c *chunkCache) draw(g *gfx, l *parts.StaticLayer) {
	if l == nil || l.Cols <= 0 || l.Rows <= 0 || !(l.Cell > 0) || l.At == nil {
		return
	}
	bl := c.layerFor(l, g.base*(1+g.k))
	if v := c.tex.version(l.Sheet); v != bl.sheetVer {
		c.stale = true // the tile set changed: the renderer bakes everything again
	}
	v := g.view
	cx0 := max(0, int(math.Floor(v.X/bl.span)))
	cy0 := max(0, int(math.Floor(v.Y/bl.span)))
	cx1 := min(bl.cols, int(math.Floor((v.X+v.W)/bl.span))+1)
	cy1 := min(bl.rows, int(math.Floor((v.Y+v.H)/bl.span))+1)
	if cx1 <= cx0 || cy1 <= cy0 {
		return
	}
	if c.whole {
		c.bakeWhole(bl)
	}
	c.wanted += (min(bl.cols, cx1+1) - max(0, cx0-1)) * (min(bl.rows, cy1+1) - max(0, cy0-1))
	if (cx1-cx0)*(cy1-cy0) > maxVisibleChunks {
		c.skipped += (cx1 - cx0) * (cy1 - cy0)
		c.unbaked += (cx1 - cx0) * (cy1 - cy0)
		return
	}
	for cy := cy0; cy < cy1; cy++ {
		for cx := cx0; cx < cx1; cx++ {
			key := chunkKey{int32(cx), int32(cy)}
			ch, ok := bl.chunks[key]
			if !ok {
				if !c.canBake() {
					c.unbaked++
					g.cellsOf(bl, key)
					continue
				}
				ch = c.bake(bl, key)
			}
			ch.used = c.frame
			switch {
			case ch.pending:
				c.unbaked++
				g.cellsOf(bl, key)
			case ch.img != nil:
				g.chunk(bl, ch)
			}
		}
	}
	for cy := cy0 - 1; cy <= cy1; cy++ {
		for cx := cx0 - 1; cx <= cx1; cx++ {
			if cx < 0 || cy < 0 || cx >= bl.cols || cy >= bl.rows || (cx >= cx0 && cx < cx1 && cy >= cy0 && cy < cy1) {
				continue
			}
			key := chunkKey{int32(cx), int32(cy)}
			if _, ok := bl.chunks[key]; ok || !c.canBake() {
				continue
			}
			c.bake(bl, key).used = c.frame
		}
	}
}

// bakeWhole bakes every chunk of a layer not baked yet, uploading the
// composed ones as it goes so that no more than maxInFlight pixel buffers
// are ever held.
func (c *chunkCache) bakeWhole(bl *bakedLayer) {
	for cy := range bl.rows {
		for cx := range bl.cols {
			key := chunkKey{int32(cx), int32(cy)}
			if _, ok := bl.chunks[key]; !ok {
				c.await()
				c.bake(bl, key).used = c.frame
			}
		}
	}
	c.finish()
}
