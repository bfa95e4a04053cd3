package view

import (
	"image/color"
	"math"
	"unicode/utf8"

	"github.com/hajimehoshi/ebiten/v2"

	"vimpclient/hud"
)

// --- panel (z 7) ---

const (
	panelSize  = 14
	titleSize  = 16
	cellPad    = 3
	blinkMs    = 2000
	titleLeftX = 8
)

var waveStops = []color.RGBA{
	rgb(0xcc, 0xcc, 0xcc), rgb(255, 50, 50), rgb(255, 165, 0), rgb(255, 255, 0), rgb(50, 205, 50), rgb(0, 220, 220), rgb(0xcc, 0xcc, 0xcc),
}

func waveColor(p float64) color.RGBA {
	if p <= 0 || p >= 1 {
		return waveStops[0]
	}
	f := p * float64(len(waveStops)-1)
	i := int(f)
	t := f - float64(i)
	a, b := waveStops[i], waveStops[i+1]
	mix := func(x, y uint8) uint8 { return uint8(float64(x) + (float64(y)-float64(x))*t) }
	return color.RGBA{mix(a.R, b.R), mix(a.G, b.G), mix(a.B, b.B), 255}
}

// cubic-bezier(0.25, 1, 0.5, 1) solved for x by bisection.
func easeWave(x float64) float64 {
	lo, hi := 0.0, 1.0
	for i := 0; i < 24; i++ {
		m := (lo + hi) / 2
		bx := 3*(1-m)*(1-m)*m*0.25 + 3*(1-m)*m*m*0.5 + m*m*m
		if bx < x {
			lo = m
		} else {
			hi = m
		}
	}
	m := (lo + hi) / 2
	return 3*(1-m)*(1-m)*m*1 + 3*(1-m)*m*m*1 + m*m*m
}

// PanelCells lays the panel out for a w px wide window: the title's box and
// one box per shown cell, appended to cells. Cells take a quarter of the
// width each, shrunk to fit after the title; the strip behind them is the
// game's dark background to the right edge.
func (v *View) PanelCells(p *hud.Panel, w float64, cells []hud.Rect) (title hud.Rect, _ []hud.Rect) {
	t := v.ellipsis(p.Title, false, titleSize, 0.4*w)
	title = hud.Rect{X: titleLeftX, Y: 0, W: v.textW(t, false, titleSize), H: hud.PanelH}
	x := title.X + title.W + titleLeftX
	shown := 0
	for i := range p.Cells {
		if p.Cells[i].Shown {
			shown++
		}
	}
	if shown == 0 {
		return title, cells
	}
	cw := math.Min(0.25*w, (w-x)/float64(shown))
	for i := range p.Cells {
		if p.Cells[i].Shown {
			cells = append(cells, hud.Rect{X: x, Y: 0, W: cw, H: hud.PanelH})
			x += cw
		}
	}
	return title, cells
}

func (v *View) drawPanel(dst *ebiten.Image, p *hud.Panel, w, now float64) {
	v.fill(dst, hud.Rect{W: w, H: hud.PanelH}, v.panelBg)
	title := v.ellipsis(p.Title, false, titleSize, 0.4*w)
	tw := v.textW(title, false, titleSize)
	ty := (hud.PanelH - titleSize*1.2) / 2
	if el := now - p.WaveStart; el >= 0 && el < hud.TitleWaveMs {
		// The gradient slides across the glyphs once.
		pos := easeWave(el / hud.TitleWaveMs)
		x := titleLeftX * 1.0
		for i, r := range title {
			s := title[i : i+utf8.RuneLen(r)]
			rel := (x-titleLeftX)/math.Max(tw, 1)*0.5 + (1 - pos)
			v.text(dst, s, false, titleSize, x, ty, waveColor(1-rel))
			x += v.textW(s, false, titleSize)
		}
	} else {
		v.text(dst, title, false, titleSize, titleLeftX, ty, colChatText)
	}
	_, v.cells = v.PanelCells(p, w, v.cells[:0])
	k := 0
	for i := range p.Cells {
		c := &p.Cells[i]
		if !c.Shown {
			continue
		}
		r := v.cells[k]
		k++
		bg := rgba(0, 0, 0, 0.5)
		if c.Field.Type == "weapon" && c.Active {
			bg = colActive
		}
		v.fill(dst, r, bg)
		v.stroke(dst, r, 1, colCellLine)
		if c.Field.Type == "bar" {
			v.drawBar(dst, c, r, now)
		} else {
			label := v.ellipsis(c.Label, false, panelSize, r.W-2*cellPad)
			v.text(dst, label, false, panelSize, r.X+(r.W-v.textW(label, false, panelSize))/2, (hud.PanelH-panelSize*1.2)/2, colWhite)
		}
	}
}

func (v *View) drawBar(dst *ebiten.Image, c *hud.PanelCell, r hud.Rect, now float64) {
	n := c.Field.Blocks
	filled, blink := c.Bar(now)
	inner := hud.Rect{X: r.X + cellPad, Y: r.Y + cellPad + 1, W: r.W - 2*cellPad, H: r.H - 2*cellPad - 2}
	bw := (inner.W - float64(n-1)) / float64(n)
	if bw <= 0 {
		return
	}
	for i := 0; i < n; i++ {
		col := colEmpty
		if i < filled {
			rgb := hud.BarColor(i, n)
			col = color.RGBA{rgb[0], rgb[1], rgb[2], 255}
			if blink && i == filled-1 {
				t := math.Mod(now, blinkMs) / blinkMs
				k := 1 - (1-t)*(1-t) // ease-out towards the empty colour
				col = color.RGBA{lerp8(col.R, colEmpty.R, k), lerp8(col.G, colEmpty.G, k), lerp8(col.B, colEmpty.B, k), 255}
			}
		}
		v.fill(dst, hud.Rect{X: inner.X + float64(i)*(bw+1), Y: inner.Y, W: bw, H: inner.H}, col)
	}
}

func lerp8(a, b uint8, t float64) uint8 { return uint8(float64(a) + (float64(b)-float64(a))*t) }
