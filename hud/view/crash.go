package view

import (
	"math"
	"strconv"

	"github.com/hajimehoshi/ebiten/v2"

	"vimpclient/hud"
)

// --- the game's result card (over the game, under the form and black screens) ---

// The card's sizes and colours, those of the game's own card: a dimmed
// screen, a dark blue card with a lighter border, the haul large in cyan,
// the total in gold, the button in sky blue.
const (
	crashTitleSize  = 22
	crashHaulSize   = 40
	crashTextSize   = 16
	crashTotalSize  = 15
	crashButtonSize = 16
	crashMinW       = 260
	crashPadX       = 32
	crashPadY       = 28
)

var (
	colCrashDim    = rgba(6, 10, 20, 0.62)
	colCrashCard   = rgb(0x14, 0x1c, 0x30)
	colCrashBorder = rgb(0x39, 0x50, 0x7f)
	colCrashText   = rgb(0xe6, 0xec, 0xf5)
	colCrashHaul   = rgb(0x7e, 0xf9, 0xff)
	colCrashGold   = rgb(0xff, 0xd7, 0x6b)
	colCrashButton = rgb(0x3a, 0xb7, 0xff)
	colCrashOnBtn  = rgb(0x06, 0x18, 0x2a)
)

// crashTexts are the card's lines, built when its figures change rather
// than every frame.
type crashTexts struct {
	carried, score float64
	key            string
	spec           *hud.CrashSpec
	haul, unit     string // "12", " crystals"
	total, figure  string // "Total score: ", "340"
	button         string // "OK (R)"
}

func (t *crashTexts) update(c *hud.CrashCard) {
	if t.spec == c.Spec && t.carried == c.Carried && t.score == c.Score && t.key == c.Key && t.haul != "" {
		return
	}
	t.spec, t.carried, t.score, t.key = c.Spec, c.Carried, c.Score, c.Key
	t.haul = strconv.FormatFloat(c.Carried, 'f', -1, 64)
	t.unit = " " + c.Unit()
	t.total = c.Spec.Total + ": "
	t.figure = strconv.FormatFloat(c.Score, 'f', -1, 64)
	t.button = "OK"
	if c.Key != "" {
		t.button = "OK (" + c.Key + ")"
	}
}

// CrashCardRect is where the result card is drawn on a w × h screen, and
// the box of its button (logical px).
func (v *View) CrashCardRect(c *hud.CrashCard, w, h float64) (card, button hud.Rect) {
	v.crash.update(c)
	t := &v.crash
	inner := math.Max(v.textW(c.Spec.Title, true, crashTitleSize), v.textW(t.haul, true, crashHaulSize)+v.textW(t.unit, false, crashTextSize))
	inner = math.Max(inner, v.textW(t.total, false, crashTotalSize)+v.textW(t.figure, true, crashTotalSize))
	cw := math.Min(math.Max(crashMinW, inner+2*crashPadX), w-20)
	ch := crashPadY + crashTitleSize*1.3 + 4 + crashHaulSize*1.2 + 6 + crashTotalSize*1.5 + 22 + 40 + crashPadY
	card = hud.Rect{X: (w - cw) / 2, Y: (h - ch) / 2, W: cw, H: ch}
	bw := math.Max(120, v.textW(t.button, true, crashButtonSize)+40)
	button = hud.Rect{X: card.X + (cw-bw)/2, Y: card.Y + ch - crashPadY - 40, W: bw, H: 40}
	return card, button
}

// drawCrash draws the result card centred on the dimmed screen.
func (v *View) drawCrash(dst *ebiten.Image, c *hud.CrashCard, w, h float64) {
	card, btn := v.CrashCardRect(c, w, h)
	t := &v.crash
	v.fill(dst, hud.Rect{W: w, H: h}, colCrashDim)
	v.box(dst, card, 12, 1, colCrashCard, colCrashBorder)
	cx := card.X + card.W/2
	y := card.Y + crashPadY
	v.text(dst, c.Spec.Title, true, crashTitleSize, cx-v.textW(c.Spec.Title, true, crashTitleSize)/2, y, colCrashText)
	y += crashTitleSize*1.3 + 4
	hw, uw := v.textW(t.haul, true, crashHaulSize), v.textW(t.unit, false, crashTextSize)
	x := cx - (hw+uw)/2
	v.text(dst, t.haul, true, crashHaulSize, x, y, colCrashHaul)
	v.text(dst, t.unit, false, crashTextSize, x+hw, y+crashHaulSize*1.2-crashTextSize*1.5, fade(colCrashText, 0.75))
	y += crashHaulSize*1.2 + 6
	lw, fw := v.textW(t.total, false, crashTotalSize), v.textW(t.figure, true, crashTotalSize)
	x = cx - (lw+fw)/2
	v.text(dst, t.total, false, crashTotalSize, x, y, fade(colCrashText, 0.6))
	v.text(dst, t.figure, true, crashTotalSize, x+lw, y, colCrashGold)
	v.box(dst, btn, 8, 0, colCrashButton, colCrashButton)
	v.text(dst, t.button, true, crashButtonSize, btn.X+(btn.W-v.textW(t.button, true, crashButtonSize))/2, btn.Y+(btn.H-crashButtonSize*1.2)/2, colCrashOnBtn)
}
