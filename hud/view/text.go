package view

import (
	"image/color"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"
)

// maxWraps bounds the cache of wrapped and ellipsised strings.
const maxWraps = 512

// textW is the advance of str in logical px.
func (v *View) textW(str string, bold bool, size float64) float64 {
	return v.fonts.Advance(v.fonts.Line(str), bold, size*v.s) / v.s
}

// measure is textW for a string that is only measured, never drawn (the
// candidates of wrapping and ellipsis): it does not enter the line cache.
func (v *View) measure(str string, bold bool, size float64) float64 {
	return v.fonts.Advance(v.fonts.Prepare(str), bold, size*v.s) / v.s
}

// text draws one line with its top-left at (x, y) in logical px.
func (v *View) text(dst *ebiten.Image, str string, bold bool, size, x, y float64, c color.RGBA) {
	l := v.fonts.Line(str)
	if l.Text == "" {
		return
	}
	// Glyphs laid out once per line and size, drawn one by one: no
	// allocation per call.
	ox, oy := math.Round(x*v.s), math.Round(y*v.s)
	v.drawGlyphs(dst, v.fonts.Glyphs(l, bold, size*v.s), ox, oy, 1, 0, c)
}

// drawGlyphs draws gs translated by (ox, oy) device px; k scales them
// about (ox, oy) after shifting them left by cx (used to centre and zoom the
// game informer). Colour glyphs (emoji bitmaps) keep their colours and take
// only the alpha.
func (v *View) drawGlyphs(dst *ebiten.Image, gs []text.Glyph, ox, oy, k, cx float64, c color.RGBA) {
	r, g, b, a := float32(c.R)/255, float32(c.G)/255, float32(c.B)/255, float32(c.A)/255
	for i := range gs {
		gl := &gs[i]
		if gl.Image == nil {
			continue
		}
		v.dop = ebiten.DrawImageOptions{}
		v.dop.GeoM.Translate(gl.X-cx, gl.Y)
		if k != 1 {
			v.dop.GeoM.Scale(k, k)
		}
		v.dop.GeoM.Translate(ox, oy)
		if gl.Colored {
			v.dop.ColorScale.Scale(a, a, a, a)
		} else {
			v.dop.ColorScale.Scale(r, g, b, a)
		}
		dst.DrawImage(gl.Image, &v.dop)
	}
}

// shadowText draws text with a 1 px dark shadow.
func (v *View) shadowText(dst *ebiten.Image, str string, bold bool, size, x, y float64, c color.RGBA) {
	v.text(dst, str, bold, size, x+1, y+1, color.RGBA{0, 0, 0, c.A})
	v.text(dst, str, bold, size, x, y, c)
}

func (v *View) remember(k wrapKey, ls []string) {
	if len(v.wraps) >= maxWraps {
		clear(v.wraps)
	}
	v.wraps[k] = ls
}

// ellipsis cuts str to maxW logical px, ending with "…".
func (v *View) ellipsis(str string, bold bool, size, maxW float64) string {
	if v.textW(str, bold, size) <= maxW {
		return str
	}
	k := wrapKey{str, bold, size * v.s, maxW, -1}
	if ls, ok := v.wraps[k]; ok {
		return ls[0]
	}
	r := []rune(v.fonts.Printable(str))
	for len(r) > 0 && v.measure(string(r)+"…", bold, size) > maxW {
		r = r[:len(r)-1]
	}
	out := string(r) + "…"
	v.remember(k, []string{out})
	return out
}

// tail is str cut at the front to fit maxW, "…" first when cut: the end
// of a line being typed stays in view.
func (v *View) tail(str string, bold bool, size, maxW float64) string {
	if v.textW(str, bold, size) <= maxW {
		return str
	}
	k := wrapKey{str, bold, size * v.s, maxW, -2}
	if ls, ok := v.wraps[k]; ok {
		return ls[0]
	}
	r := []rune(v.fonts.Printable(str))
	for len(r) > 0 && v.measure("…"+string(r), bold, size) > maxW {
		r = r[1:]
	}
	out := "…" + string(r)
	v.remember(k, []string{out})
	return out
}

// wrap splits str into lines no wider than maxW (words, then runes); the
// first line may have first px less room. Results are cached per input and
// must not be modified.
func (v *View) wrap(str string, bold bool, size, maxW, first float64) []string {
	k := wrapKey{str, bold, size * v.s, maxW, first}
	if ls, ok := v.wraps[k]; ok {
		return ls
	}
	ls := append([]string(nil), v.wrapNow(str, bold, size, maxW, first)...)
	v.remember(k, ls)
	return ls
}

func (v *View) wrapNow(str string, bold bool, size, maxW, first float64) []string {
	v.lines = v.lines[:0]
	str = v.fonts.Printable(str)
	cur := ""
	room := maxW - first
	for _, word := range strings.Fields(str) {
		cand := word
		if cur != "" {
			cand = cur + " " + word
		}
		if v.measure(cand, bold, size) <= room {
			cur = cand
			continue
		}
		if cur != "" {
			v.lines = append(v.lines, cur)
			room = maxW
		}
		cur = word
		for v.measure(cur, bold, size) > room && utf8.RuneCountInString(cur) > 1 {
			r := []rune(cur)
			n := len(r) - 1
			for n > 1 && v.measure(string(r[:n]), bold, size) > room {
				n--
			}
			v.lines = append(v.lines, string(r[:n]))
			room = maxW
			cur = string(r[n:])
		}
	}
	if cur != "" || len(v.lines) == 0 {
		v.lines = append(v.lines, cur)
	}
	return v.lines
}
