package render

import (
	"context"
	"fmt"
	"image"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"

	"vimpclient/parts"
	"vimpclient/world/canvas"
)

// decalGame draws one decal layer into an offscreen image at one device
// pixel per world unit, calling step before each frame's draw and check
// after it with the image's pixels.
type decalGame struct {
	r     *Renderer
	l     *parts.DecalLayer
	off   *ebiten.Image
	frame int
	step  func(frame int)
	check func(frame int, px *image.RGBA)
}

func (g *decalGame) Update() error                           { return nil }
func (g *decalGame) LayoutF(w, h float64) (float64, float64) { return w, h }

func (g *decalGame) Draw(*ebiten.Image) {
	if g.off == nil {
		g.off = ebiten.NewImage(400, 300)
	}
	g.step(g.frame)
	g.r.d.reset()
	g.r.gfx.decals.startFrame()
	g.off.Clear()
	g.r.gfx.begin(g.off, canvas.Stage{S: 1}, 1, 400, 300)
	g.l.Draw(g.r.gfx)
	g.r.gfx.end()
	px := image.NewRGBA(image.Rect(0, 0, 400, 300))
	g.off.ReadPixels(px.Pix)
	g.check(g.frame, px)
	g.frame++
}

// solid is a w×h image of one opaque colour.
func solid(w, h int, c color.RGBA) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := 0; i < len(img.Pix); i += 4 {
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = c.R, c.G, c.B, c.A
	}
	return img
}

func within(got, want uint8, tol int) bool {
	d := int(got) - int(want)
	return d >= -tol && d <= tol
}

// A mark painted onto a decal layer shows at its alpha, premultiplied, in
// its colour; it fades linearly at the layer's rate with its colour kept,
// and is gone (its chunks freed) once its alpha has run out. A mark across
// a chunk edge shows the same on both sides, and a mark left before the
// layer was first drawn shows as faded as it would have been.
func TestDecalLayerPaintsOnceAndFades(t *testing.T) {
	r := New(context.Background(), Options{})
	tex := r.Textures().Register("mark", solid(4, 4, color.RGBA{200, 40, 40, 255}))
	// 0.4 fades out in 2000 ms.
	l := &parts.DecalLayer{FadeRate: 0.4 / 2000}
	mark := func(x, y float64, a float64) {
		m := parts.Identity().Scale(5, 2.5).Translate(x, y) // 20×10 world units
		l.Paint(tex, parts.Rect{W: 4, H: 4}, m, parts.White().WithAlpha(a))
	}
	at := func(px *image.RGBA, x, y int) color.RGBA { return px.RGBAAt(x, y) }
	var fails []string
	fail := func(s string, c color.RGBA) { fails = append(fails, fmt.Sprintf("%s: %v", s, c)) }
	g := &decalGame{r: r, l: l}
	g.step = func(frame int) {
		switch frame {
		case 0:
			mark(20, 20, 0.4)
			mark(decalChunkPx-10, 60, 0.4) // across the edge of the first two chunks
			l.Advance(500)
			mark(20, 100, 0.4) // painted now, not faded
		case 1:
			l.Advance(500) // 1000 ms after the first marks
		case 2:
			l.Advance(1100) // 2100 ms: the first marks are gone, the third at 0.08
		case 3:
			l.Advance(400)
		}
	}
	g.check = func(frame int, px *image.RGBA) {
		switch frame {
		case 0:
			// 500 ms: 0.3 of alpha left.
			if c := at(px, 30, 25); !within(c.A, 77, 3) || !within(c.R, 60, 3) || !within(c.G, 12, 2) {
				fail("first mark at 500 ms", c)
			}
			if c := at(px, 30, 105); !within(c.A, 102, 3) || !within(c.R, 80, 3) {
				fail("fresh mark", c)
			}
			if a, b := at(px, decalChunkPx-1, 65), at(px, decalChunkPx, 65); a != b || !within(a.A, 77, 3) {
				fail("chunk edge left", a)
				fail("chunk edge right", b)
			}
			if c := at(px, 50, 25); c.A != 0 {
				fail("beside the mark", c)
			}
		case 1:
			if c := at(px, 30, 25); !within(c.A, 51, 5) || !within(c.R, 40, 4) || !within(c.G, 8, 2) {
				fail("first mark at 1000 ms", c)
			}
		case 2:
			if c := at(px, 30, 25); c.A != 0 {
				fail("first mark at 2100 ms", c)
			}
			if c := at(px, 30, 105); !within(c.A, 20, 4) || !within(c.R, 16, 3) {
				fail("third mark at 1600 ms", c)
			}
		case 3:
			if c := at(px, 30, 105); c.A != 0 {
				fail("third mark at 2000 ms", c)
			}
		}
	}
	if err := run(t, g, 4, nil); err != nil {
		t.Fatal(err)
	}
	for _, f := range fails {
		t.Error(f)
	}
	if chunks, _, _ := r.DecalStats(); chunks > 2 {
		t.Errorf("%d chunks hold marks after every mark faded", chunks)
	}
}

// The pages are bounded by bytes: marks spread over more ground than the
// budget covers wipe the chunks painted least recently, and the pages
// never outgrow the budget.
func TestDecalBudgetBoundsPages(t *testing.T) {
	r := New(context.Background(), Options{})
	r.gfx.decals.budget = 2 * decalPageBytes
	tex := r.Textures().Register("mark", solid(2, 2, color.RGBA{0, 0, 0, 255}))
	l := &parts.DecalLayer{FadeRate: 0.4 / 2000}
	most := 0
	g := &decalGame{r: r, l: l}
	g.step = func(frame int) {
		// 8 new chunks a frame, a row of them further down each frame.
		for i := range 8 {
			m := parts.Identity().Translate(float64(i)*decalChunkPx+5, float64(frame)*decalChunkPx+5)
			l.Paint(tex, parts.Rect{W: 2, H: 2}, m, parts.White().WithAlpha(0.4))
		}
		l.Advance(16)
	}
	g.check = func(int, *image.RGBA) {
		_, b, _ := r.DecalStats()
		most = max(most, b)
	}
	if err := run(t, g, 12, nil); err != nil {
		t.Fatal(err)
	}
	chunks, _, evicted := r.DecalStats()
	if most > 2*decalPageBytes || chunks > 2*decalPageSlots || evicted == 0 {
		t.Fatalf("pages held %d bytes (budget %d), %d chunks, %d wiped", most, 2*decalPageBytes, chunks, evicted)
	}
	r.Release()
	if chunks, b, _ := r.DecalStats(); chunks != 0 || b != 0 {
		t.Fatalf("after Release: %d chunks, %d bytes", chunks, b)
	}
}

// trailGame draws the same track marks twice at 5 device px per world unit
// with the camera at a fractional offset: painted onto a decal layer, and
// drawn one by one as sprites with the alpha each shows (how the marks
// were drawn before there were decal layers).
type trailGame struct {
	r      *Renderer
	tex    parts.Tex
	frames int
	frame  int
	l      *parts.DecalLayer
	marks  []parts.Decal // every mark, for the sprites
	layer  *image.RGBA   // the pictures at the last frame
	sprite *image.RGBA
	off    *ebiten.Image
}

func (g *trailGame) Update() error                           { return nil }
func (g *trailGame) LayoutF(w, h float64) (float64, float64) { return w, h }

const trailW, trailH = 640, 400

func (g *trailGame) Draw(*ebiten.Image) {
	if g.off == nil {
		g.off = ebiten.NewImage(trailW, trailH)
	}
	// A tank drives a circle of radius 20 u at 0.06 rad a tick, leaving
	// two marks 1 u long and 0.8 u wide a tick, 1.2 u either side.
	a := 0.06 * float64(g.frame)
	for _, side := range [2]float64{-1.2, 1.2} {
		r := 20 + side
		x, y := 60+r*math.Cos(a), 40+r*math.Sin(a)
		m := parts.Identity().Scale(1.0/4, 0.8/4).Translate(-0.5, -0.4).Rotate(a+math.Pi/2).Translate(x, y)
		g.l.Paint(g.tex, parts.Rect{W: 4, H: 4}, m, parts.White().WithAlpha(0.4))
		g.marks = append(g.marks, parts.Decal{Tex: g.tex, Src: parts.Rect{W: 4, H: 4}, M: m, C: parts.White().WithAlpha(0.4), Born: g.l.Now()})
	}
	g.l.Advance(16.7)
	g.r.d.reset()
	g.r.gfx.decals.startFrame()
	st := canvas.Stage{X: -3.3 * 5, Y: -1.7 * 5, S: 5}
	g.off.Fill(color.RGBA{0x50, 0x48, 0x40, 255})
	g.r.gfx.begin(g.off, st, 5, trailW, trailH)
	g.l.Draw(g.r.gfx)
	g.r.gfx.end()
	if g.frame == g.frames-1 {
		g.layer = image.NewRGBA(image.Rect(0, 0, trailW, trailH))
		g.off.ReadPixels(g.layer.Pix)
		g.off.Fill(color.RGBA{0x50, 0x48, 0x40, 255})
		g.r.gfx.begin(g.off, st, 5, trailW, trailH)
		for _, d := range g.marks {
			if a := g.l.Alpha(d); a > 0 {
				g.r.gfx.Image(d.Tex, d.Src, d.M, d.C.WithAlpha(a))
			}
		}
		g.r.gfx.end()
		g.sprite = image.NewRGBA(image.Rect(0, 0, trailW, trailH))
		g.off.ReadPixels(g.sprite.Pix)
	}
	g.frame++
}

// A driving tank's trail painted onto a decal layer looks as the same
// marks drawn one by one: the chunks, resampled at the camera's
// fractional offset, smooth the marks' edges a little and nothing else.
func TestDecalTrailLooksAsSpritesDo(t *testing.T) {
	r := New(context.Background(), Options{})
	g := &trailGame{r: r, frames: 150, l: &parts.DecalLayer{FadeRate: 0.4 / 2150},
		tex: r.Textures().Register("mark", solid(4, 4, color.RGBA{0x1a, 0x1a, 0x12, 255}))}
	if err := run(t, g, g.frames, nil); err != nil {
		t.Fatal(err)
	}
	share, maxDiff := diffStats(g.layer, g.sprite, 24)
	t.Logf("%.3f%% of pixels differ by more than 24 (largest difference %d)", 100*share, maxDiff)
	if d := os.Getenv("RENDER_SHOT_DIR"); d != "" {
		writeRGBA(t, g.layer, filepath.Join(d, "trail-decals.png"))
		writeRGBA(t, g.sprite, filepath.Join(d, "trail-sprites.png"))
	}
	if share > 0.002 {
		t.Errorf("%.3f%% of pixels differ by more than 24", 100*share)
	}
	// The trail shows: its newest marks are darker than the ground.
	if c := g.layer.RGBAAt(int((60+18.8*math.Cos(0.06*149)-3.3)*5), int((40+18.8*math.Sin(0.06*149)-1.7)*5)); c.R > 0x48 {
		t.Errorf("the newest mark is not drawn: %v", c)
	}
}

// A held layer shows each mark whole for its hold time and then scales
// every pixel of it down to nothing, so that a faint mark (a soft edge)
// fades in step with a strong one instead of going first; marks painted
// later keep their own clock, and a mark whose time is up is wiped and its
// chunk freed.
func TestHeldDecalsFadeAsAWhole(t *testing.T) {
	r := New(context.Background(), Options{})
	tex := r.Textures().Register("mark", solid(4, 4, color.RGBA{200, 40, 40, 255}))
	l := &parts.DecalLayer{Hold: 1000, FadeOut: 1000}
	mark := func(x, y float64, a float64) {
		m := parts.Identity().Scale(5, 2.5).Translate(x, y) // 20×10 world units
		l.Paint(tex, parts.Rect{W: 4, H: 4}, m, parts.White().WithAlpha(a))
	}
	var fails []string
	check := func(what string, c color.RGBA, a, red uint8) {
		if !within(c.A, a, 3) || !within(c.R, red, 3) {
			fails = append(fails, fmt.Sprintf("%s: %v, want alpha %d red %d", what, c, a, red))
		}
	}
	g := &decalGame{r: r, l: l}
	// The backend counts a mark's age from the middle of the span of
	// DecalHeldGrain ms it was painted in: the clocks below are that far on.
	g.step = func(frame int) {
		switch frame {
		case 0:
			mark(20, 20, 0.8)
			mark(20, 100, 0.2)
		case 1:
			l.Advance(parts.DecalHeldGrain * 2)
			mark(200, 20, 0.8)
		case 2:
			l.Advance(1500 + parts.DecalHeldGrain/2 - parts.DecalHeldGrain*2) // the first two 1500 ms old
		case 3:
			l.Advance(500)
		}
	}
	g.check = func(frame int, px *image.RGBA) {
		switch frame {
		case 0, 1:
			check(fmt.Sprintf("strong mark, frame %d", frame), px.RGBAAt(30, 25), 204, 160)
			check(fmt.Sprintf("faint mark, frame %d", frame), px.RGBAAt(30, 105), 51, 40)
		case 2:
			check("strong mark half faded", px.RGBAAt(30, 25), 102, 80)
			check("faint mark half faded", px.RGBAAt(30, 105), 25, 20)
			check("later mark still whole", px.RGBAAt(210, 25), 204, 160)
		case 3:
			check("strong mark gone", px.RGBAAt(30, 25), 0, 0)
			check("faint mark gone", px.RGBAAt(30, 105), 0, 0)
			check("later mark half faded", px.RGBAAt(210, 25), 102, 80)
		}
	}
	if err := run(t, g, 4, nil); err != nil {
		t.Fatal(err)
	}
	for _, f := range fails {
		t.Error(f)
	}
	if chunks, _, _ := r.DecalStats(); chunks != 1 {
		t.Errorf("%d chunks hold marks, want the later mark's 1", chunks)
	}
}
