package render

import (
	"context"
	"image"
	"image/color"
	"math"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"

	"vimpclient/parts"
	"vimpclient/world/canvas"
)

// cullGame draws sprites through the canvas's gfx into a 200×100 image at
// one device pixel per world unit and records the vertices sent and the
// pixels.
type cullGame struct {
	r     *Renderer
	tex   parts.Tex
	off   *ebiten.Image
	verts int
	px    *image.RGBA
}

func (g *cullGame) Update() error                           { return nil }
func (g *cullGame) LayoutF(w, h float64) (float64, float64) { return w, h }

func (g *cullGame) Draw(*ebiten.Image) {
	if g.off == nil {
		g.off = ebiten.NewImage(200, 100)
	}
	g.r.d.reset()
	g.off.Clear()
	g.r.gfx.begin(g.off, canvas.Stage{S: 1}, 1, 200, 100)
	sprite := func(m parts.Affine) {
		g.r.gfx.Image(g.tex, parts.Rect{W: 4, H: 4}, m, parts.White())
	}
	sprite(parts.Identity().Scale(5, 5).Translate(10, 10))  // inside
	sprite(parts.Identity().Scale(5, 5).Translate(190, 90)) // across the corner
	sprite(parts.Identity().Scale(5, 5).Translate(-30, 40)) // left of the canvas
	sprite(parts.Identity().Scale(5, 5).Translate(90, 101)) // below it
	// Turned a quarter: its corner at (-1, 50) reaches back to x = -21.
	sprite(parts.Identity().Scale(5, 5).Rotate(math.Pi/2).Translate(-1, 50))
	// Turned a quarter at x = 210: it reaches into the canvas to x = 190.
	sprite(parts.Identity().Scale(5, 5).Rotate(math.Pi/2).Translate(210, 50))
	g.r.gfx.end()
	g.verts = g.r.d.verts
	g.px = image.NewRGBA(image.Rect(0, 0, 200, 100))
	g.off.ReadPixels(g.px.Pix)
}

// A sprite wholly outside the canvas sends no vertices, whichever way it
// is turned; one that reaches into the canvas, even from outside it, is
// drawn.
func TestSpritesOutsideTheCanvasAreLeftOut(t *testing.T) {
	r := New(context.Background(), Options{})
	g := &cullGame{r: r, tex: r.Textures().Register("mark", solid(4, 4, color.RGBA{200, 40, 40, 255}))}
	if err := run(t, g, 1, nil); err != nil {
		t.Fatal(err)
	}
	if g.verts != 3*4 {
		t.Errorf("%d vertices sent, want 12 (the three sprites that show)", g.verts)
	}
	for _, p := range []image.Point{{20, 20}, {195, 95}, {195, 60}} {
		if c := g.px.RGBAAt(p.X, p.Y); c.A != 255 || c.R != 200 {
			t.Errorf("pixel %v: %v, want the sprite", p, c)
		}
	}
}
