package view

import (
	"image/color"
	"math"

	"github.com/hajimehoshi/ebiten/v2"

	"vimpclient/hud"
	"vimpclient/hud/serverbrowser"
)

// --- the server browser (a screen of its own, no game behind it) ---

const (
	browserTitleSize = 20
	browserTextSize  = 14
	browserHeadSize  = 12
	browserHintSize  = 12
)

// Colours of the browser.
var (
	colBrowserBack = rgb(0x10, 0x13, 0x17)
	colBrowserCard = rgba(24, 29, 34, 0.98)
	colRowStripe   = rgba(255, 255, 255, 0.03)
	colTabFill     = rgba(0x33, 0x99, 0x99, 0.25)
	colFieldFill   = rgba(0, 0, 0, 0.45)
)

// DrawBrowser draws the server browser over the whole screen. scale is the
// device scale (times the HUD scale) as for Draw; now is the browser's
// clock (ms), for the caret and the joining dots.
func (v *View) DrawBrowser(dst *ebiten.Image, b *serverbrowser.Browser, now, scale float64) {
	if scale <= 0 {
		scale = 1
	}
	v.s = scale
	v.fonts.Poll()
	bd := dst.Bounds()
	w, h := float64(bd.Dx())/scale, float64(bd.Dy())/scale
	v.fill(dst, hud.Rect{W: w, H: h}, colBrowserBack)
	g := b.Layout(w, h)
	v.box(dst, g.Card, 8, 2, colBrowserCard, colCmdBorder)

	// Title and master, then the sign-in line.
	t := g.Title
	v.text(dst, "Servers", true, browserTitleSize, t.X, t.Y+2, colWhite)
	tw := v.textW("Servers", true, browserTitleSize)
	v.text(dst, v.ellipsis(b.Master, false, browserTextSize, t.W-tw-20), false, browserTextSize, t.X+tw+14, t.Y+8, colChatText)
	s := g.SignIn
	signCol := colGold
	switch b.SignIn.State {
	case serverbrowser.SignedIn:
		signCol = colOn
	case serverbrowser.SignInExpired, serverbrowser.SignInBad:
		signCol = colError
	}
	v.fill(dst, hud.Rect{X: s.X, Y: s.Y + 8, W: 7, H: 7}, signCol)
	acc := b.AccountLayout(g)
	v.drawAccount(dst, b, s, acc, now)

	// Tabs and the search field.
	for i, r := range g.Tabs {
		tab := serverbrowser.Tab(i)
		fillC, border, col := colFieldFill, colEmpty, colChatText
		if b.Tab == tab {
			fillC, border, col = colTabFill, colCmdBorder, colWhite
		}
		v.box(dst, r, 4, 1, fillC, border)
		label := v.ellipsis(b.TabLabel(tab), b.Tab == tab, browserTextSize, r.W-12)
		v.text(dst, label, b.Tab == tab, browserTextSize, r.X+(r.W-v.textW(label, b.Tab == tab, browserTextSize))/2, r.Y+5, col)
	}
	v.drawSearch(dst, b, g.Search, now)

	// The column titles, then the page's lines.
	names := &serverbrowser.ColumnNames
	if b.Tab != serverbrowser.TabRooms {
		names = &serverbrowser.HostColumnNames
	}
	for i, c := range g.Columns {
		if c.W > 0 && names[i] != "" {
			v.text(dst, v.ellipsis(names[i], true, browserHeadSize, c.W-8), true, browserHeadSize, c.X+4, g.Head.Y+5, colEmpty)
		}
	}
	v.fill(dst, hud.Rect{X: g.Head.X, Y: g.Head.Y + g.Head.H - 1, W: g.Head.W, H: 1}, colCellLine)
	rows := b.Rows()
	for _, rg := range g.Rows {
		v.drawBrowserRow(dst, b, &rows[rg.Index], rg, &g)
	}
	if empty := b.EmptyText(); empty != "" {
		col := colChatText
		if b.Err != "" && b.Tab == serverbrowser.TabRooms {
			col = colError
		}
		y := g.Head.Y + g.Head.H + 2*serverbrowser.RowH
		e := v.ellipsis(empty, false, browserTextSize, g.Head.W-40)
		v.text(dst, e, false, browserTextSize, g.Head.X+(g.Head.W-v.textW(e, false, browserTextSize))/2, y, col)
	}

	// The footer: the page, the buttons, the status and the keys.
	v.text(dst, b.PageText(), false, browserHintSize+1, g.Pages.X, g.Pages.Y+4, colChatText)
	v.button(dst, g.Prev, "◀ Prev", b.Page > 0)
	v.button(dst, g.Next, "Next ▶", b.Page+1 < b.Pages())
	v.button(dst, g.Refresh, "Refresh", true)
	v.button(dst, acc.PlayNow, "Play now (N)", b.Joining == nil)
	if b.Status != "" {
		col := colGold
		if b.StatusError {
			col = colError
		}
		st := v.ellipsis(b.Status, false, browserTextSize, g.Status.W-40)
		v.text(dst, st, false, browserTextSize, g.Status.X, g.Status.Y+2, col)
		if b.Joining != nil {
			v.dots(dst, g.Status.X+v.textW(st, false, browserTextSize)+8, g.Status.Y+10, now)
		}
	}
	v.text(dst, v.ellipsis(serverbrowser.Hint, false, browserHintSize, g.Hint.W), false, browserHintSize, g.Hint.X, g.Hint.Y+3, colEmpty)
}

// drawSearch draws the search field: its text or what it is for, and a
// blinking caret while it has the keys.
func (v *View) drawSearch(dst *ebiten.Image, b *serverbrowser.Browser, r hud.Rect, now float64) {
	border := colEmpty
	if b.Searching {
		border = colCmdBorder
	}
	v.box(dst, r, 4, 1, colFieldFill, border)
	if b.Search == "" && !b.Searching {
		v.text(dst, "Search rooms (/)", false, browserTextSize, r.X+10, r.Y+5, colEmpty)
		return
	}
	// The text's end stays in view: a long search shows its last part.
	str := v.tail(b.Search, false, browserTextSize, r.W-24)
	x := r.X + 10
	v.text(dst, str, false, browserTextSize, x, r.Y+5, colWhite)
	if b.Searching && int(now/530)%2 == 0 {
		cx := math.Min(r.X+r.W-10, x+v.textW(str, false, browserTextSize)+2)
		v.fill(dst, hud.Rect{X: cx, Y: r.Y + 6, W: 1.5, H: r.H - 12}, colWhite)
	}
}

// drawBrowserRow draws one line: the selection, the favourite mark and the
// cells.
func (v *View) drawBrowserRow(dst *ebiten.Image, b *serverbrowser.Browser, row *serverbrowser.Row, rg serverbrowser.RowGeom, g *serverbrowser.Geom) {
	r := rg.Row
	switch {
	case rg.Index == b.Sel:
		v.box(dst, r, 4, 0, colFocus, colFocus)
	case rg.Index%2 == 1:
		v.fill(dst, r, colRowStripe)
	}
	ty := r.Y + (r.H-browserTextSize*1.2)/2
	star, starCol := "☆", colEmpty
	if row.Favourite {
		star, starCol = "★", colGold
	}
	v.text(dst, star, false, browserTextSize, g.Star.X+4, ty, starCol)
	for i, c := range g.Columns {
		if c.W <= 0 || row.Cells[i] == "" {
			continue
		}
		col := colWhite
		if i != serverbrowser.ColName {
			col = colChatText
		}
		if i == serverbrowser.ColLatency && b.Tab == serverbrowser.TabRooms {
			col = latencyColor(row.Cells[i])
		}
		v.text(dst, v.ellipsis(row.Cells[i], i == serverbrowser.ColName, browserTextSize, c.W-8), i == serverbrowser.ColName, browserTextSize, c.X+4, ty, col)
	}
}

// latencyColor tells a good latency from a poor one at a glance.
func latencyColor(cell string) color.RGBA {
	ms := 0
	for _, r := range cell {
		if r < '0' || r > '9' {
			break
		}
		ms = ms*10 + int(r-'0')
	}
	switch {
	case cell == "" || cell[0] < '0' || cell[0] > '9':
		return colEmpty
	case ms < 80:
		return colOn
	case ms < 200:
		return colGold
	}
	return colError
}

// button draws a footer button, dimmed when it does nothing.
func (v *View) button(dst *ebiten.Image, r hud.Rect, label string, on bool) {
	border, col := colCmdBorder, colWhite
	if !on {
		border, col = colCellLine, colEmpty
	}
	v.box(dst, r, 4, 1, colFieldFill, border)
	v.text(dst, label, false, browserHintSize+1, r.X+(r.W-v.textW(label, false, browserHintSize+1))/2, r.Y+4, col)
}

// dots draws three dots counting half seconds (a wait in progress).
func (v *View) dots(dst *ebiten.Image, x, y, now float64) {
	n := int(now/500)%3 + 1
	for i := range 3 {
		col := colEmpty
		if i < n {
			col = colGold
		}
		v.fill(dst, hud.Rect{X: x + float64(i)*7, Y: y, W: 4, H: 4}, col)
	}
}
