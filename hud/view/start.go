package view

import (
	"math"
	"strings"

	"github.com/hajimehoshi/ebiten/v2"

	"vimpclient/hud"
	"vimpclient/hud/startscreen"
)

// --- the start screen and the connecting screen (screens of their own) ---

const (
	startTitleSize = 34
	startItemSize  = 18
)

// begin readies a full-screen draw: the scale, the fonts, the background,
// and the screen's size in logical px.
func (v *View) begin(dst *ebiten.Image, scale float64) (w, h float64) {
	if scale <= 0 {
		scale = 1
	}
	v.s = scale
	v.fonts.Poll()
	b := dst.Bounds()
	w, h = float64(b.Dx())/scale, float64(b.Dy())/scale
	v.fill(dst, hud.Rect{W: w, H: h}, colBrowserBack)
	return w, h
}

// DrawStart draws the start screen over the whole screen; scale and now as
// for DrawBrowser.
func (v *View) DrawStart(dst *ebiten.Image, m *startscreen.Menu, now, scale float64) {
	w, h := v.begin(dst, scale)
	g := m.Layout(w, h)
	v.text(dst, "vimp", true, startTitleSize, g.Title.X, g.Title.Y, colWhite)
	v.text(dst, "native client", false, browserTextSize, g.Title.X+v.textW("vimp", true, startTitleSize)+14, g.Title.Y+20, colEmpty)
	for k, r := range g.Items {
		kind := startscreen.Kind(k)
		focused := kind == m.Focus
		fillC, border, col := colBrowserCard, colCellLine, colChatText
		if focused {
			fillC, border, col = colTabFill, colCmdBorder, colWhite
		}
		v.box(dst, r, 6, 1, fillC, border)
		label := kind.Label()
		if focused && m.Open {
			label += "  ▸"
		}
		v.text(dst, v.ellipsis(label, focused, startItemSize, r.W-28), focused, startItemSize, r.X+14, r.Y+(r.H-startItemSize*1.2)/2, col)
	}
	switch {
	case m.Open && g.Page.W > 0:
		v.drawStartPage(dst, m, &g, now)
	case g.Page.W > 0:
		p := g.Page
		v.box(dst, p, 8, 1, colBrowserCard, colCellLine)
		y := p.Y + 10
		for _, l := range v.wrap(m.Describe(), false, browserTextSize+1, p.W-28, 0) {
			v.text(dst, l, false, browserTextSize+1, p.X+14, y, colChatText)
			y += 20
		}
	}
	hintY := g.Hint.Y
	if m.Status != "" {
		col := colGold
		if m.Failed {
			col = colError
		}
		// A status of several sentences (why a match ended, and which
		// damaged files were set aside) takes up to startStatusLines
		// lines; the hint moves down under it.
		lines := v.wrap(m.Status, false, browserTextSize, g.Status.W, 0)
		if len(lines) > startStatusLines {
			last := strings.Join(lines[startStatusLines-1:], " ")
			lines = append(lines[:startStatusLines-1:startStatusLines-1], v.ellipsis(last, false, browserTextSize, g.Status.W))
		}
		for i, l := range lines {
			v.text(dst, l, false, browserTextSize, g.Status.X, g.Status.Y+2+float64(i)*startStatusLineH, col)
		}
		hintY += float64(len(lines)-1) * startStatusLineH
	}
	v.text(dst, v.ellipsis(m.Hint(), false, browserHintSize+1, g.Hint.W), false, browserHintSize+1, g.Hint.X, hintY+3, colEmpty)
}

// The start screen's status line wraps to at most startStatusLines lines
// of startStatusLineH pixels.
const (
	startStatusLines = 3
	startStatusLineH = 20
)

// drawStartPage draws the open page: its field and its list.
func (v *View) drawStartPage(dst *ebiten.Image, m *startscreen.Menu, g *startscreen.Geom, now float64) {
	p := g.Page
	v.box(dst, p, 8, 2, colBrowserCard, colCmdBorder)
	v.text(dst, v.ellipsis(m.FieldHint(), false, browserTextSize, p.W-24), false, browserTextSize, p.X+12, p.Y+7, colChatText)
	f := g.Field
	border := colEmpty
	if m.Sel < 0 {
		border = colCmdBorder
	}
	v.box(dst, f, 4, 1, colFieldFill, border)
	str := v.tail(m.Field, false, browserTextSize+1, f.W-24)
	v.text(dst, str, false, browserTextSize+1, f.X+10, f.Y+7, colWhite)
	if m.Sel < 0 && int(now/530)%2 == 0 {
		cx := math.Min(f.X+f.W-10, f.X+10+v.textW(str, false, browserTextSize+1)+2)
		v.fill(dst, hud.Rect{X: cx, Y: f.Y + 7, W: 1.5, H: f.H - 14}, colWhite)
	}
	rows := m.Visible()
	if len(rows) == 0 {
		e := m.EmptyText()
		v.text(dst, e, false, browserTextSize, p.X+(p.W-v.textW(e, false, browserTextSize))/2, f.Y+f.H+18, colEmpty)
		return
	}
	for i, r := range g.Rows {
		e := &rows[i]
		if m.Top+i == m.Sel {
			v.box(dst, r, 4, 0, colFocus, colFocus)
		} else if i%2 == 1 {
			v.fill(dst, r, colRowStripe)
		}
		ty := r.Y + (r.H-browserTextSize*1.2)/2
		dw := 0.0
		if e.Detail != "" {
			d := v.ellipsis(e.Detail, false, browserHintSize+1, r.W*0.4)
			dw = v.textW(d, false, browserHintSize+1)
			v.text(dst, d, false, browserHintSize+1, r.X+r.W-dw-8, ty+1, colEmpty)
		}
		v.text(dst, v.ellipsis(e.Label, false, browserTextSize, r.W-dw-24), false, browserTextSize, r.X+8, ty, colWhite)
	}
}

// DrawConnecting draws the connecting screen over the whole screen: the
// address, the attempt, the last error and the keys, centred.
func (v *View) DrawConnecting(dst *ebiten.Image, c *hud.Connecting, now, scale float64) {
	w, h := v.begin(dst, scale)
	title := v.ellipsis(c.Title(), true, techSize, w-40)
	status, detail := c.Status(now), c.Detail()
	bw := math.Min(w-20, math.Max(480, math.Max(v.textW(title, true, techSize), v.textW(detail, false, hintSize))+60))
	lines := v.wrap(detail, false, hintSize, bw-40, 0)
	if len(lines) > 3 {
		lines = lines[:3]
	}
	bh := 110 + float64(len(lines))*techLineH
	r := hud.Rect{X: math.Round((w - bw) / 2), Y: math.Round(h*0.42 - bh/2), W: bw, H: bh}
	border := colCmdBorder
	if c.Ended {
		border = colError
	}
	v.box(dst, r, 8, 2, colBrowserCard, border)
	y := r.Y + 18
	v.text(dst, title, true, techSize, r.X+(bw-v.textW(title, true, techSize))/2, y, colWhite)
	y += techLineH + 8
	sw := v.textW(status, false, hintSize)
	v.text(dst, status, false, hintSize, r.X+(bw-sw)/2, y, colChatText)
	if !c.Ended {
		v.dots(dst, r.X+(bw+sw)/2+8, y+9, now)
	}
	y += techLineH
	for _, l := range lines {
		col := colGold
		if c.Ended {
			col = colError
		}
		v.text(dst, l, false, hintSize, r.X+(bw-v.textW(l, false, hintSize))/2, y, col)
		y += techLineH
	}
	v.text(dst, hud.ConnectHint, false, hintSize, r.X+(bw-v.textW(hud.ConnectHint, false, hintSize))/2, r.Y+bh-techLineH-6, colEmpty)
}
