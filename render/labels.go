package render

import (
	"image"
	"math"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"
)

// Label text.
const (
	labelPx    = 48  // font size the text is drawn at, then scaled
	maxLabels  = 512 // distinct texts kept at once
	maxLabelW  = atlasW - 2*atlasPad
	labelSlack = 3 // pixels around each text, so filtering stays inside
	// maxNewLabels bounds the texts a frame draws into the label area.
	// Each one is a text draw into the atlas and a break in the batch;
	// a host that makes thousands of labelled entities appear at once
	// sees them labelled over the next frames instead of in one frame
	// that takes seconds.
	maxNewLabels = 64
)

// labelArea keeps the texts of labels in the atlas's bottom rows: each
// distinct text is drawn once, in the HUD's font, into a slot of its own,
// and drawn from there until the area is full, when every slot is dropped
// and the texts still in use are drawn again.
type labelArea struct {
	img   *ebiten.Image
	area  image.Rectangle
	sub   *ebiten.Image // the area, for clearing it
	sh    shelves
	slots map[string]labelSlot
	op    text.DrawOptions
}

// labelSlot is one drawn text: its rectangle in the atlas (the text with
// labelSlack pixels around it) and the height of the text's line box in
// pixels.
type labelSlot struct {
	r     image.Rectangle
	lineH float64
}

func newLabelArea(img *ebiten.Image, area image.Rectangle) labelArea {
	return labelArea{img: img, area: area, sub: img.SubImage(area).(*ebiten.Image),
		sh: shelves{w: area.Dx()}, slots: map[string]labelSlot{}}
}

// has reports whether s is drawn already.
func (l *labelArea) has(s string) bool {
	_, ok := l.slots[s]
	return ok
}

// slot returns the slot of s, drawing the text first if it has none; a
// full area is cleared first, so whatever was batched from it must have
// been sent to Ebiten before.
func (l *labelArea) slot(d *drawer, face text.Face, s string) (labelSlot, bool) {
	if sl, ok := l.slots[s]; ok {
		return sl, true
	}
	if face == nil {
		return labelSlot{}, false
	}
	m := face.Metrics()
	lineH := math.Ceil(m.HAscent + m.HDescent)
	w := int(math.Ceil(text.Advance(s, face))) + 2*labelSlack
	h := int(lineH) + 2*labelSlack
	w = min(w, maxLabelW)
	r, ok := l.place(w, h)
	if !ok || len(l.slots) >= maxLabels {
		l.reset(d)
		if r, ok = l.place(w, h); !ok {
			return labelSlot{}, false
		}
	}
	l.op.GeoM.Reset()
	l.op.GeoM.Translate(float64(r.Min.X+labelSlack), float64(r.Min.Y+labelSlack))
	d.text(l.img, s, face, &l.op)
	sl := labelSlot{r: r, lineH: lineH}
	l.slots[s] = sl
	return sl, true
}

func (l *labelArea) place(w, h int) (image.Rectangle, bool) {
	r := l.sh.place(w, h)
	if l.sh.height() > l.area.Dy() {
		return image.Rectangle{}, false
	}
	return r.Add(l.area.Min), true
}

// reset drops every slot and clears the area.
func (l *labelArea) reset(d *drawer) {
	clear(l.slots)
	l.sh = shelves{w: l.area.Dx()}
	d.clear(l.sub)
}
