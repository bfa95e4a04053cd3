// Package render draws a game world with Ebiten: each canvas of the world
// once per frame, its parts' drawing list through one drawing backend, then
// composited into the screen; and the images the parts draw from (host
// assets downloaded in the background, the game's baked textures). It knows
// no game: what it draws is what the world's stages hold.
package render

import (
	"context"
	"image"
	"image/color"
	"log/slog"
	"math"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"

	"vimpclient/assets"
	"vimpclient/fonts"
	"vimpclient/gamemap"
	"vimpclient/parts"
	"vimpclient/world"
	"vimpclient/world/canvas"
)

// Options configure a Renderer.
type Options struct {
	// Assets downloads the game's images (nil: no host images, parts draw
	// their fallbacks).
	Assets *assets.Downloader
	// NoAntiAlias draws stroked meshes (snake bodies, rings, generic
	// shapes) without anti-aliasing: much cheaper on software GL.
	NoAntiAlias bool
	// Fonts draw the parts' labels (nil: the bundled fonts).
	Fonts *fonts.Fonts
	Log   *slog.Logger
}

// Renderer draws worlds. It runs on the window's goroutine.
type Renderer struct {
	log   *slog.Logger
	tex   *textures
	gfx   *gfx
	d     drawer
	draws int // drawing calls of the last frame
	verts int // the vertices they sent
	// warmed: Warm drew (once a renderer).
	warmed bool
	// What the baked chunks were made for: the map, and each canvas's
	// device scale at rest; a change of either bakes again.
	bakedMap    *gamemap.Map
	bakedScales []float64
	// scene is the world's parts scene the decal layers were painted for:
	// a new one (a new match, or a reconnect) wipes them.
	scene   *parts.Scene
	rebakes int
	images  []canvasImages
	compOp  ebiten.DrawImageOptions
	maskOp  ebiten.DrawImageOptions
	decoOp  ebiten.DrawImageOptions
}

// canvasImages are one canvas's offscreen images.
type canvasImages struct {
	bg   parts.Color
	bgc  color.Color // bg as Fill takes it, made once
	img  *ebiten.Image
	mask *ebiten.Image // circle clip
	deco *ebiten.Image // inner glow and ring, drawn once per size
}

// New builds a renderer; ctx bounds its image downloads.
func New(ctx context.Context, o Options) *Renderer {
	if o.Log == nil {
		o.Log = slog.Default()
	}
	tex := newTextures(ctx, o.Assets, o.Log)
	r := &Renderer{log: o.Log, tex: tex}
	ff := o.Fonts
	if ff == nil {
		f, err := fonts.New()
		if err != nil {
			o.Log.Warn("no font for labels", "err", err)
		}
		ff = f
	}
	var face text.Face
	if ff != nil {
		face = ff.Face(false, labelPx)
	}
	r.gfx = newGfx(&r.d, tex, !o.NoAntiAlias, face)
	return r
}

// Rebake drops every baked chunk of every static layer (the maps' tile
// layers, the radar's map); they are baked again, a few each frame, around
// what is drawn. The renderer calls it itself when the world's map changes,
// when a layer's tile set (its sheet image) changes and when a canvas's
// scale changes; a caller whose textures were lost calls it too. It is
// never needed per frame.
func (r *Renderer) Rebake() {
	r.gfx.cache.drop()
	r.rebakes++
}

// Release frees the images the renderer draws into: its canvases and the
// baked chunks. It draws again afterwards, making them anew.
func (r *Renderer) Release() {
	for i := range r.images {
		r.images[i].release()
	}
	r.images = r.images[:0]
	r.gfx.decals.drop()
	r.gfx.light.release()
	r.Rebake()
	r.bakedScales = r.bakedScales[:0]
}

// BakeStats reports the chunks baked since the last Rebake, the texture
// bytes the chunks hold now, and how many rebakes there were.
func (r *Renderer) BakeStats() (baked, bytes, rebakes int) {
	return r.gfx.cache.baked, r.gfx.cache.bytes(), r.rebakes
}

// checkBakes bakes again when what the chunks were made for changed.
func (r *Renderer) checkBakes(w *world.World, dpr float64) {
	again := r.gfx.cache.stale
	// The ground's marks belong to the match and the map they were left
	// on: a new scene or map frees their pages at once, rather than after
	// the old layers have gone undrawn for decalIdleFrames (a reconnect
	// within that time would hold the last match's pages beside the new
	// one's).
	if sc := w.Scene(); sc != r.scene {
		r.scene = sc
		r.gfx.decals.drop()
	}
	if m := w.Map(); m != r.bakedMap {
		r.bakedMap = m
		r.gfx.decals.drop()
		again = true
	}
	cs := w.Canvases()
	if len(r.bakedScales) != len(cs) {
		r.bakedScales = make([]float64, len(cs))
	}
	for i := range cs {
		if s := cs[i].Size.CurrentScale * dpr; s != r.bakedScales[i] {
			r.bakedScales[i] = s
			again = true
		}
	}
	if again {
		r.Rebake()
	}
	r.gfx.cache.startFrame()
	r.gfx.decals.startFrame()
}

// DecalStats reports the ground decal chunks holding marks, the texture
// bytes their pages hold, and how many chunks were wiped before they had
// faded to make room under the budget.
func (r *Renderer) DecalStats() (chunks, bytes, evicted int) {
	d := r.gfx.decals
	return d.chunks(), d.bytes(), d.evicted
}

// Textures are the images parts draw from; hand them to the world.
func (r *Renderer) Textures() parts.Textures { return r.tex }

// SetAsset installs an asset image directly (tests, embedded assets).
func (r *Renderer) SetAsset(file string, img image.Image) { r.tex.SetAsset(file, img) }

// Poll installs the images downloaded since the last call; call it once a
// frame before drawing.
func (r *Renderer) Poll() { r.tex.poll() }

// Draws is the number of Ebiten drawing calls (images, triangle batches,
// fills, text) the last Draw made.
func (r *Renderer) Draws() int { return r.draws }

// Shed counts what the renderer left out of frames to keep each frame's
// cost bounded, since it was made.
type Shed struct {
	// Labels are labels not drawn on a frame that had already drawn its
	// allowance of new label texts.
	Labels uint64
	// Strokes are strokes left out of a frame whose strokes had covered
	// its allowance of pixels (32 canvases), and translucent polylines
	// drawn without their overlaps blended once, past the frame's
	// allowance of scratch detours.
	Strokes uint64
}

// Shed reports what the renderer has left out so far.
func (r *Renderer) Shed() Shed {
	return Shed{Labels: r.gfx.shedLabels, Strokes: r.gfx.strokes.shed}
}

// Vertices is how many vertices the last frame's drawing calls sent
// Ebiten, which copies and transforms each: with few calls, the frame's
// CPU cost follows this number.
func (r *Renderer) Vertices() int { return r.verts }

// SetAssets changes where host images come from (a new game version on
// reconnect): at the next Poll every image asked for so far is asked for
// again from d, and replaced when it arrives. Any goroutine may call it.
func (r *Renderer) SetAssets(d *assets.Downloader) { r.tex.setSource(d) }

// Loading reports the progress of the game's asset downloads (its images
// and, when the sound manager fetches through the same downloader, its
// sounds), and whether any is still to come.
func (r *Renderer) Loading() (assets.Progress, bool) {
	p := r.tex.progress()
	return p, p.Loading()
}

// MapUnbaked reports whether the frame Draw drew last showed part of the
// map's static layers from their cells, or left part out, because the
// chunks in view were not baked yet: the first frames of a map, and a jump
// across it.
func (r *Renderer) MapUnbaked() bool { return r.gfx.cache.unbaked > 0 }

// ImagesLoading reports whether an image the parts draw is still to come:
// the window covers the game only then (sounds arrive while it plays).
func (r *Renderer) ImagesLoading() bool { return r.tex.imagesLoading() }

func toColor(c parts.Color) color.Color {
	return color.NRGBA{uint8(c.R * 255), uint8(c.G * 255), uint8(c.B * 255), uint8(c.A * 255)}
}

// Draw draws every canvas of w once, in declaration order, and composites
// them into screen; dpr is the device scale factor. A canvas that covers
// the whole screen pixel for pixel is drawn on the screen itself.
func (r *Renderer) Draw(screen *ebiten.Image, w *world.World, dpr float64) {
	r.d.reset()
	r.gfx.newFrame()
	r.checkBakes(w, dpr)
	cs := w.Canvases()
	for len(r.images) < len(cs) {
		r.images = append(r.images, canvasImages{})
	}
	for i := range cs {
		c := &cs[i]
		ci := &r.images[i]
		pw, ph := int(math.Ceil(c.Size.W*dpr)), int(math.Ceil(c.Size.H*dpr))
		if coversScreen(c, pw, ph, screen) {
			ci.release()
			r.drawCanvas(screen, w, c, ci, dpr, false)
			continue
		}
		if ci.img == nil || ci.img.Bounds().Dx() != pw || ci.img.Bounds().Dy() != ph {
			ci.release()
			ci.img = newOwnImage(max(1, pw), max(1, ph))
		}
		r.drawCanvas(ci.img, w, c, ci, dpr, true)
		if c.Style.Circle {
			r.clipCircle(c, ci, dpr)
		}
		op := &r.compOp
		op.GeoM.Reset()
		op.GeoM.Scale(c.Rect.W/c.Size.W, c.Rect.H/c.Size.H)
		op.GeoM.Translate(c.Rect.Left*dpr, c.Rect.Top*dpr)
		r.d.image(screen, ci.img, op)
	}
	for i := len(cs); i < len(r.images); i++ {
		r.images[i].release() // canvases a new configuration dropped
	}
	r.images = r.images[:len(cs)]
	r.draws, r.verts = r.d.calls, r.d.verts
}

// coversScreen reports whether canvas c, pw×ph device pixels, can be drawn
// straight onto screen instead of an image of its own composited there:
// it lies on the whole screen at its own size, is not cut to a circle, and
// its background (if any) is opaque. Drawing it so gives the same pixels
// (drawing over what is below is what compositing its image would do) and
// saves a screen-sized texture, which the driver rounds up to the next
// powers of two (8 MiB at 1280×720), and a screen-sized copy a frame.
func coversScreen(c *world.Canvas, pw, ph int, screen *ebiten.Image) bool {
	b := screen.Bounds()
	return !c.Style.Circle && b.Min == (image.Point{}) && pw == b.Dx() && ph == b.Dy() &&
		c.Rect.Left == 0 && c.Rect.Top == 0 && c.Rect.W == c.Size.W && c.Rect.H == c.Size.H &&
		(c.Style.Background.A == 0 || c.Style.Background.A >= 1)
}

// drawCanvas draws canvas c's stage of w into dst: dst is filled with the
// canvas's background, or cleared when it has none and is the canvas's
// own image (own).
func (r *Renderer) drawCanvas(dst *ebiten.Image, w *world.World, c *world.Canvas, ci *canvasImages, dpr float64, own bool) {
	if c.Style.Background.A > 0 {
		if ci.bgc == nil || ci.bg != c.Style.Background {
			ci.bg, ci.bgc = c.Style.Background, toColor(c.Style.Background)
		}
		r.d.fill(dst, ci.bgc) // Fill replaces every pixel
	} else if own {
		r.d.clear(dst)
	}
	st := canvas.Stage{X: c.Stage.X * dpr, Y: c.Stage.Y * dpr, S: c.Stage.S * dpr}
	r.gfx.begin(dst, st, c.Size.CurrentScale*dpr, c.Size.W*dpr, c.Size.H*dpr)
	if stage := w.Stage(c.Spec.ID); stage != nil {
		stage.Draw(r.gfx)
	}
	r.gfx.end()
}

func (ci *canvasImages) release() {
	for _, img := range []**ebiten.Image{&ci.img, &ci.mask, &ci.deco} {
		if *img != nil {
			(*img).Deallocate()
			*img = nil
		}
	}
}

// clipCircle cuts the canvas to a circle and adds the inner glow and ring
// (both drawn once per canvas size, then reused).
func (r *Renderer) clipCircle(c *world.Canvas, ci *canvasImages, dpr float64) {
	b := ci.img.Bounds()
	if ci.mask == nil || ci.mask.Bounds() != b {
		if ci.mask != nil {
			ci.mask.Deallocate()
			ci.deco.Deallocate()
		}
		ci.mask = newOwnImage(b.Dx(), b.Dy())
		ci.deco = newOwnImage(b.Dx(), b.Dy())
		cx, cy := float64(b.Dx())/2, float64(b.Dy())/2
		rad := math.Min(cx, cy)
		g := r.gfx
		w, h := float64(b.Dx()), float64(b.Dy())
		g.begin(ci.mask, canvas.Stage{S: 1}, 1, w, h)
		g.Disc(cx, cy, rad, parts.White())
		g.end()
		g.begin(ci.deco, canvas.Stage{S: 1}, 1, w, h)
		if c.Style.GlowWidth > 0 {
			// Inset glow: faint rings fading towards the centre.
			gw := math.Min(c.Style.GlowWidth*dpr, rad)
			for i := range 8 {
				f := float64(i) / 8
				g.Ring(cx, cy, rad-gw*f, gw/8+1, c.Style.Glow.WithAlpha(0.25*(1-f)))
			}
		}
		if c.Style.RingWidth > 0 {
			g.Ring(cx, cy, rad-c.Style.RingWidth*dpr/2, c.Style.RingWidth*dpr, c.Style.Ring)
		}
		g.end()
	}
	r.d.image(ci.img, ci.deco, &r.decoOp)
	r.maskOp.Blend = ebiten.BlendDestinationIn
	r.d.image(ci.img, ci.mask, &r.maskOp)
}
