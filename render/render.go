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

	"vimpclient/assets"
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
	Log         *slog.Logger
}

// Renderer draws worlds. It runs on the window's goroutine.
type Renderer struct {
	log    *slog.Logger
	tex    *textures
	gfx    *gfx
	d      drawer
	draws  int // drawing calls of the last frame
	images []canvasImages
	compOp ebiten.DrawImageOptions
	maskOp ebiten.DrawImageOptions
	decoOp ebiten.DrawImageOptions
}

// canvasImages are one canvas's offscreen images.
type canvasImages struct {
	img  *ebiten.Image
	mask *ebiten.Image // circle clip
	deco *ebiten.Image // inner glow and ring, drawn once per size
}

// New builds a renderer; ctx bounds its image downloads.
func New(ctx context.Context, o Options) *Renderer {
	if o.Log == nil {
		o.Log = slog.Default()
	}
	tex := newTextures(ctx, o.Assets)
	r := &Renderer{log: o.Log, tex: tex}
	r.gfx = newGfx(&r.d, tex, !o.NoAntiAlias)
	return r
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

func toColor(c parts.Color) color.Color {
	return color.NRGBA{uint8(c.R * 255), uint8(c.G * 255), uint8(c.B * 255), uint8(c.A * 255)}
}

// Draw draws every canvas of w once, in declaration order, and composites
// them into screen; dpr is the device scale factor.
func (r *Renderer) Draw(screen *ebiten.Image, w *world.World, dpr float64) {
	r.d.reset()
	cs := w.Canvases()
	for len(r.images) < len(cs) {
		r.images = append(r.images, canvasImages{})
	}
	for i := range cs {
		c := &cs[i]
		ci := &r.images[i]
		pw, ph := int(math.Ceil(c.Size.W*dpr)), int(math.Ceil(c.Size.H*dpr))
		if ci.img == nil || ci.img.Bounds().Dx() != pw || ci.img.Bounds().Dy() != ph {
			ci.release()
			ci.img = ebiten.NewImage(max(1, pw), max(1, ph))
		}
		r.d.clear(ci.img)
		if c.Style.Background.A > 0 {
			r.d.fill(ci.img, toColor(c.Style.Background))
		}
		st := canvas.Stage{X: c.Stage.X * dpr, Y: c.Stage.Y * dpr, S: c.Stage.S * dpr}
		r.gfx.begin(ci.img, st)
		if stage := w.Stage(c.Spec.ID); stage != nil {
			stage.Draw(r.gfx)
		}
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
	r.draws = r.d.calls
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
		ci.mask = ebiten.NewImage(b.Dx(), b.Dy())
		ci.deco = ebiten.NewImage(b.Dx(), b.Dy())
		cx, cy := float64(b.Dx())/2, float64(b.Dy())/2
		rad := math.Min(cx, cy)
		g := r.gfx
		g.begin(ci.mask, canvas.Stage{S: 1})
		g.Disc(cx, cy, rad, parts.White())
		g.begin(ci.deco, canvas.Stage{S: 1})
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
	}
	r.d.image(ci.img, ci.deco, &r.decoOp)
	r.maskOp.Blend = ebiten.BlendDestinationIn
	r.d.image(ci.img, ci.mask, &r.maskOp)
}
