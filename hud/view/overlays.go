package view

import (
	"image/color"
	"math"
	"strings"

	"github.com/hajimehoshi/ebiten/v2"

	"vimpclient/hud"
)

// --- game informer (z 6) ---

func (v *View) drawGameInform(dst *ebiten.Image, g *hud.GameInform, l *hud.ScreenLayout, now float64) {
	if g.Text == "" {
		return
	}
	t := math.Min(1, math.Max(0, (now-g.At)/hud.GameInformAnimMs))
	k := 1 - math.Pow(1-t, 3) // ease-out
	if k <= 0.01 {
		return
	}
	// The text keeps to its band: a line too wide for it gets smaller.
	band := l.Inform
	size := hud.InformSize(l.W)
	if w := v.textW(g.Text, true, size); w > band.W && w > 0 {
		size = math.Max(10, math.Floor(size*band.W/w))
	}
	line := v.fonts.Line(g.Text)
	gs := v.fonts.Glyphs(line, true, size*v.s)
	tw := v.fonts.Advance(line, true, size*v.s)
	cx, top := (band.X+band.W/2)*v.s, band.Y*v.s
	v.drawGlyphs(dst, gs, cx+2*v.s, top+3*v.s, k, tw/2, fade(color.RGBA{0, 0, 0, 110}, k)) // soft shadow
	for _, d := range outline {
		v.drawGlyphs(dst, gs, cx+d[0]*v.s, top+d[1]*v.s, k, tw/2, fade(colBlack, k))
	}
	v.drawGlyphs(dst, gs, cx, top, k, tw/2, fade(colWhite, k))
}

var outline = [4][2]float64{{-1, 0}, {1, 0}, {0, -1}, {0, 1}}

// --- notices and the accolades banner (over the panel) ---

const (
	noticeSize = 14
	bannerSize = 15
)

// noticeColors are a notice's fill and border by kind.
func noticeColors(k hud.NoticeKind) (fill, border color.RGBA) {
	switch k {
	case hud.NoticeError:
		return rgba(60, 0, 8, 0.88), rgb(0xff, 0x55, 0x66)
	case hud.NoticeWarning:
		return rgba(48, 36, 0, 0.88), colGold
	}
	return rgba(0, 0, 0, 0.75), colCmdBorder
}

// drawNotices draws each notice as a centred box, one per line of the
// notices band, oldest at the top; on a black screen whose text ends at
// below, the band moves under the text.
func (v *View) drawNotices(dst *ebiten.Image, ns []hud.Notice, l *hud.ScreenLayout, now, below float64) {
	band := l.Notices
	if below+8 > band.Y {
		band.Y = below + 8
	}
	for i := range ns {
		n := &ns[i]
		y := band.Y + float64(i)*hud.NoticeH
		if y+hud.NoticeH > band.Y+band.H+0.5 || band.W < 40 {
			return
		}
		str := v.ellipsis(n.Text, false, noticeSize, band.W-20)
		w := math.Min(band.W, v.textW(str, false, noticeSize)+20)
		r := hud.Rect{X: band.X + (band.W-w)/2, Y: y, W: w, H: hud.NoticeH - 4}
		fillC, borderC := noticeColors(n.Kind)
		v.box(dst, r, 4, 1, fillC, borderC)
		v.text(dst, str, false, noticeSize, r.X+10, r.Y+(r.H-noticeSize*1.2)/2, colWhite)
	}
}

// drawBanner draws the accolades banner in its band; it fades out over
// its last half second.
func (v *View) drawBanner(dst *ebiten.Image, a *hud.Accolades, l *hud.ScreenLayout, now float64) {
	band := l.Banner
	if band.W < 40 {
		return
	}
	alpha := math.Max(0, math.Min(1, (a.BannerAt+hud.BannerMs-now)/500))
	str := v.ellipsis(a.Banner, true, bannerSize, band.W-28)
	w := math.Min(band.W, v.textW(str, true, bannerSize)+28)
	r := hud.Rect{X: band.X + (band.W-w)/2, Y: band.Y, W: w, H: band.H}
	v.box(dst, r, 6, 2, fade(rgba(30, 22, 0, 0.9), alpha), fade(colGold, alpha))
	v.text(dst, str, true, bannerSize, r.X+14, r.Y+(r.H-bannerSize*1.2)/2, fade(colGold, alpha))
}

// --- tech informer and the reconnecting screen (z 9) ---

const (
	techSize  = 20
	techLineH = 24
	hintSize  = 16
)

// drawTech draws the black screen with its text and returns where the
// text ends (logical px from the top).
func (v *View) drawTech(dst *ebiten.Image, msg string, w, h float64) float64 {
	v.fill(dst, hud.Rect{W: w, H: h}, colBlack)
	y := 10.0
	for rest, more := msg, true; more; {
		var para string
		para, rest, more = strings.Cut(rest, "\n")
		for _, line := range v.wrap(para, false, techSize, w-20, 0) {
			v.text(dst, line, false, techSize, 10, y, colWhite)
			y += techLineH
		}
	}
	return y
}

// drawHostChange draws the host-change screen over the game as it was when
// the old host left: the game dimmed, the text and what happens next in a
// box at mid-height, three dots counting while it waits. It returns where
// the box ends, for the notices under it.
func (v *View) drawHostChange(dst *ebiten.Image, c *hud.HostChange, w, h, now float64) float64 {
	v.fill(dst, hud.Rect{W: w, H: h}, rgba(0, 0, 0, 0.6))
	detail, hint := c.Detail(), c.Hint()
	bw := math.Min(w-20, math.Max(v.textW(c.Text, true, techSize), v.textW(detail, false, hintSize))+60)
	r := hud.Rect{X: (w - bw) / 2, Y: math.Round(h*0.42 - 50), W: bw, H: 100}
	v.box(dst, r, 8, 2, rgba(20, 24, 28, 0.92), colGold)
	title := v.ellipsis(c.Text, true, techSize, bw-50)
	tw := v.textW(title, true, techSize)
	x := r.X + (bw-tw-24)/2
	v.text(dst, title, true, techSize, x, r.Y+14, colWhite)
	// The dots count the seconds waited.
	dots := int(math.Max(0, now-c.Since)/1000)%3 + 1
	for i := range 3 {
		col := colEmpty
		if i < dots {
			col = colGold
		}
		v.fill(dst, hud.Rect{X: x + tw + 6 + float64(i)*7, Y: r.Y + 30, W: 4, H: 4}, col)
	}
	d := v.ellipsis(detail, false, hintSize, bw-20)
	v.text(dst, d, false, hintSize, r.X+(bw-v.textW(d, false, hintSize))/2, r.Y+46, colChatText)
	v.text(dst, hint, false, hintSize, r.X+(bw-v.textW(hint, false, hintSize))/2, r.Y+70, colEmpty)
	return r.Y + r.H
}

// drawReconnect draws the reconnecting screen: the reason and countdown
// centred, the give-up key under them.
func (v *View) drawReconnect(dst *ebiten.Image, r *hud.Reconnect, w, h, now float64) {
	v.fill(dst, hud.Rect{W: w, H: h}, colBlack)
	lines := v.wrap(r.Text(now), false, techSize, w-40, 0)
	y := math.Round(h*0.42 - float64(len(lines))*techLineH/2)
	for _, line := range lines {
		v.text(dst, line, false, techSize, (w-v.textW(line, false, techSize))/2, y, colWhite)
		y += techLineH
	}
	if hint := r.Hint(); hint != "" {
		y += 10
		v.text(dst, hint, false, hintSize, (w-v.textW(hint, false, hintSize))/2, y, colChatText)
		y += techLineH
	}
	if d := r.Detail(); d != "" {
		d = v.ellipsis(d, false, hintSize, w-40)
		v.text(dst, d, false, hintSize, (w-v.textW(d, false, hintSize))/2, y+6, colEmpty)
	}
}

// toastSize is the text size of DrawToast's line.
const toastSize = 14

// DrawToast draws one passing line (a screenshot's path, say) in a box at
// the bottom centre of dst, over everything else.
func (v *View) DrawToast(dst *ebiten.Image, text string, scale float64) {
	if text == "" {
		return
	}
	if scale <= 0 {
		scale = 1
	}
	v.s = scale
	b := dst.Bounds()
	w, h := float64(b.Dx())/scale, float64(b.Dy())/scale
	str := v.ellipsis(text, false, toastSize, w-40)
	bw := math.Min(w-20, v.textW(str, false, toastSize)+20)
	r := hud.Rect{X: (w - bw) / 2, Y: h - hud.NoticeH - 24, W: bw, H: hud.NoticeH - 4}
	fillC, borderC := noticeColors(hud.NoticeInfo)
	v.fill(dst, r, fillC)
	v.stroke(dst, r, 1, borderC)
	v.text(dst, str, false, toastSize, r.X+10, r.Y+(r.H-toastSize*1.2)/2, colWhite)
}

// --- whose view the camera shows ---

const watchSize = 16

// drawWatching names the player the camera follows, centred at the bottom
// of the screen, under the chat (the command line takes that place while
// it is open).
func (v *View) drawWatching(dst *ebiten.Image, name string, l *hud.ScreenLayout) {
	if name != v.watchName {
		v.watchName, v.watchText = name, "Watching "+name
	}
	str := v.ellipsis(v.watchText, true, watchSize, l.W-40)
	w := v.textW(str, true, watchSize) + 24
	// Under the screenshot line (DrawToast), which ends NoticeH+28 from
	// the bottom.
	r := hud.Rect{X: (l.W - w) / 2, Y: l.H - 27 - v.WatchLift, W: w, H: 22}
	v.box(dst, r, 5, 1, rgba(0, 0, 0, 0.6), fade(colWhite, 0.5))
	v.text(dst, str, true, watchSize, r.X+12, r.Y+(r.H-watchSize*1.2)/2, colWhite)
}
