package render

import (
	"cmp"
	"image"
	"image/color"
	"image/draw"
	"math"
	"slices"

	"github.com/hajimehoshi/ebiten/v2"
)

// Atlas layout.
const (
	atlasW     = 1024
	atlasPad   = 2   // transparent pixels around every entry: linear filtering never reaches a neighbour
	discSide   = 128 // side of the anti-aliased disc drawn for Disc
	labelAreaH = 512 // rows at the atlas's bottom kept for label text
	maxAtlasH  = 4096
)

// atlas is one image holding the game's baked textures, a white square, the
// disc, and the labels' text, so that the sprites, fills, discs and labels
// of a canvas are drawn from a single source: consecutive ones go out to
// Ebiten in one triangle batch. It is rebuilt whole when the game bakes
// again (the previous image is released: the bakers' results are owned by
// the bake that made them).
type atlas struct {
	img    *ebiten.Image
	byName map[string]image.Rectangle
	white  image.Rectangle // 3×3; quads sample its centre
	disc   image.Rectangle
	labels labelArea
}

// newAtlas packs baked images into shelves of a 1024 px wide atlas, tallest
// first (names break ties, so a bake always packs the same way), above the
// white square, the disc and the label area.
func newAtlas(baked map[string]*image.RGBA, up *uploader) *atlas {
	names := make([]string, 0, len(baked))
	for n, img := range baked {
		if img != nil && !img.Bounds().Empty() && img.Bounds().Dx() <= atlasW-2*atlasPad {
			names = append(names, n)
		}
	}
	slices.SortFunc(names, func(a, b string) int {
		if c := cmp.Compare(baked[b].Bounds().Dy(), baked[a].Bounds().Dy()); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	a := &atlas{byName: map[string]image.Rectangle{}}
	var sh shelves
	sh.w = atlasW
	a.white = sh.place(3, 3)
	a.disc = sh.place(discSide, discSide)
	top := sh.height()
	for _, n := range names {
		b := baked[n].Bounds()
		r := sh.place(b.Dx(), b.Dy())
		if r.Max.Y+atlasPad > maxAtlasH-labelAreaH {
			continue // no room: the texture stays an image of its own
		}
		a.byName[n] = r
		top = max(top, r.Max.Y+atlasPad)
	}
	h := top + labelAreaH
	pix := image.NewRGBA(image.Rect(0, 0, atlasW, h))
	draw.Draw(pix, a.white, image.NewUniform(color.White), image.Point{}, draw.Src)
	drawDisc(pix, a.disc)
	for n, r := range a.byName {
		draw.Draw(pix, r, baked[n], baked[n].Bounds().Min, draw.Src)
	}
	a.img = newOwnImage(atlasW, h)
	up.write(a.img, pix.Pix)
	a.labels = newLabelArea(a.img, image.Rect(0, top, atlasW, h))
	return a
}

// release frees the atlas image.
func (a *atlas) release() {
	if a != nil && a.img != nil {
		a.img.Deallocate()
		a.img = nil
	}
}

// drawDisc draws a white disc whose edge pixels carry their coverage, the
// anti-aliased circle every Disc is scaled from.
func drawDisc(dst *image.RGBA, r image.Rectangle) {
	rad := float64(r.Dx()) / 2
	for y := range r.Dy() {
		for x := range r.Dx() {
			dist := math.Hypot(float64(x)+0.5-rad, float64(y)+0.5-rad)
			v := uint8(math.Round(math.Max(0, math.Min(1, rad-dist+0.5)) * 255))
			dst.SetRGBA(r.Min.X+x, r.Min.Y+y, color.RGBA{v, v, v, v})
		}
	}
}

// shelves packs rectangles in rows of a fixed width, each entry padded.
type shelves struct {
	w          int
	x, y, rowH int
}

func (s *shelves) place(w, h int) image.Rectangle {
	w2, h2 := w+2*atlasPad, h+2*atlasPad
	if s.x+w2 > s.w {
		s.x, s.y, s.rowH = 0, s.y+s.rowH, 0
	}
	r := image.Rect(s.x+atlasPad, s.y+atlasPad, s.x+atlasPad+w, s.y+atlasPad+h)
	s.x += w2
	s.rowH = max(s.rowH, h2)
	return r
}

func (s *shelves) height() int { return s.y + s.rowH }
