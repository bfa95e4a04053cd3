package view

import (
	"image"
	"image/color"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"

	"vimpclient/hud"
)

// View draws the overlays of a hud.HUD, in the seed's z-order, above the
// world layers (main canvas z 1, radar z 2) the renderer draws first.
type View struct {
	fonts  *Fonts
	s      float64 // device pixels per logical pixel
	op     text.DrawOptions
	dop    ebiten.DrawImageOptions
	lay    text.LayoutOptions
	glyphs []text.Glyph
	lines  []string
	order  []int
	verts  [4]ebiten.Vertex
	top    ebiten.DrawTrianglesOptions
	white  *ebiten.Image
	wraps  map[wrapKey][]string
}

type wrapKey struct {
	s           string
	bold        bool
	size, w, f0 float64
}

// New loads the fonts.
func New() (*View, error) {
	f, err := NewFonts()
	if err != nil {
		return nil, err
	}
	white := ebiten.NewImage(3, 3)
	white.Fill(color.White)
	return &View{fonts: f, white: white.SubImage(image.Rect(1, 1, 2, 2)).(*ebiten.Image), wraps: map[wrapKey][]string{}}, nil
}

// Draw draws every overlay onto screen. scale is the device scale factor
// (ebiten.Monitor().DeviceScaleFactor() when the game's Layout returns device
// pixels, 1 otherwise); now is the same monotonic ms the models are fed.
func (v *View) Draw(screen *ebiten.Image, h *hud.HUD, now, scale float64) {
	if scale <= 0 {
		scale = 1
	}
	v.s = scale
	b := screen.Bounds()
	w, ht := float64(b.Dx())/scale, float64(b.Dy())/scale
	if h.Reveals("chat") { // z 3
		v.drawChat(screen, h.Chat, w, ht, now)
	}
	if h.ModulesReady && h.Vote.Cur != nil { // z 5
		v.drawVote(screen, h.Vote.Cur, now)
	}
	if h.ModulesReady && h.Game.Shown { // z 6
		v.drawGameInform(screen, h.Game, w, ht, now)
	}
	if h.Reveals("panel") { // z 7
		v.drawPanel(screen, h.Panel, w, now)
	}
	if h.ModulesReady && h.Stat.Visible {
		v.drawStat(screen, h.Stat, w, ht)
	}
	if h.Auth != nil { // z 8
		v.drawAuth(screen, h.Auth, w, ht, now)
	}
	if h.Tech.Shown { // z 9
		v.drawTech(screen, h.Tech.Text, w, ht)
	}
}

// Colours of the reference styles.
var (
	colBlack     = color.RGBA{0, 0, 0, 255}
	colWhite     = color.RGBA{255, 255, 255, 255}
	colChatText  = rgb(0xcc, 0xcc, 0xcc)
	colSystem    = rgb(0xff, 0, 0)
	colTeam1     = rgb(0xff, 0x55, 0x66)
	colTeam2     = rgb(0x77, 0xee, 0xdd)
	colTeam3     = rgb(0xff, 0xee, 0x55)
	colCmdBorder = rgb(0, 0x99, 0x99)
	colEmpty     = rgb(0x88, 0x88, 0x88)
	colCellLine  = rgb(0x55, 0x55, 0x55)
	colActive    = rgb(0x33, 0x33, 0x33)
	colPage      = rgb(0x22, 0x22, 0x22)
	colError     = rgb(0xff, 0x66, 0x66)
)

func rgb(r, g, b uint8) color.RGBA { return color.RGBA{r, g, b, 255} }

func rgba(r, g, b uint8, a float64) color.RGBA {
	k := a
	return color.RGBA{uint8(float64(r) * k), uint8(float64(g) * k), uint8(float64(b) * k), uint8(255 * a)}
}

func fade(c color.RGBA, a float64) color.RGBA {
	return color.RGBA{uint8(float64(c.R) * a), uint8(float64(c.G) * a), uint8(float64(c.B) * a), uint8(float64(c.A) * a)}
}

// TeamColor is the chat/scoreboard colour of a team number (client-ui.md §5.1).
func TeamColor(team int) (color.RGBA, bool) {
	switch team {
	case 1:
		return colTeam1, true
	case 2:
		return colTeam2, true
	case 3:
		return colTeam3, true
	}
	return colChatText, false
}

// fill draws a solid rectangle through reused vertices: no allocation, and no
// colour boxed into an interface.
func (v *View) fill(dst *ebiten.Image, r hud.Rect, c color.RGBA) {
	if r.W <= 0 || r.H <= 0 {
		return
	}
	s := v.s
	x0, y0 := float32(math.Round(r.X*s)), float32(math.Round(r.Y*s))
	x1, y1 := float32(math.Round((r.X+r.W)*s)), float32(math.Round((r.Y+r.H)*s))
	if x1 == x0 {
		x1++
	}
	if y1 == y0 {
		y1++
	}
	v.fillDev(dst, x0, y0, x1, y1, c)
}

// fillDev fills the device-pixel rectangle [x0,x1)×[y0,y1).
func (v *View) fillDev(dst *ebiten.Image, x0, y0, x1, y1 float32, c color.RGBA) {
	if x1 <= x0 || y1 <= y0 || c.A == 0 {
		return
	}
	cr, cg, cb, ca := float32(c.R)/255, float32(c.G)/255, float32(c.B)/255, float32(c.A)/255
	v.verts = [4]ebiten.Vertex{
		{DstX: x0, DstY: y0, SrcX: 1, SrcY: 1, ColorR: cr, ColorG: cg, ColorB: cb, ColorA: ca},
		{DstX: x1, DstY: y0, SrcX: 2, SrcY: 1, ColorR: cr, ColorG: cg, ColorB: cb, ColorA: ca},
		{DstX: x0, DstY: y1, SrcX: 1, SrcY: 2, ColorR: cr, ColorG: cg, ColorB: cb, ColorA: ca},
		{DstX: x1, DstY: y1, SrcX: 2, SrcY: 2, ColorR: cr, ColorG: cg, ColorB: cb, ColorA: ca},
	}
	v.top = ebiten.DrawTrianglesOptions{ColorScaleMode: ebiten.ColorScaleModePremultipliedAlpha} // colours here are premultiplied
	dst.DrawTriangles(v.verts[:], quadIndices[:], v.white, &v.top)
}

var quadIndices = [6]uint16{0, 1, 2, 1, 2, 3}

// box draws a rounded rectangle: a border ring of width border and a fill
// inside it, row by row in device pixels so the corners stay crisp and the
// translucent fill never overlaps the border.
func (v *View) box(dst *ebiten.Image, r hud.Rect, radius, border float64, fillC, borderC color.RGBA) {
	s := v.s
	x0, y0 := math.Round(r.X*s), math.Round(r.Y*s)
	x1, y1 := math.Round((r.X+r.W)*s), math.Round((r.Y+r.H)*s)
	R := math.Min(radius*s, math.Min(x1-x0, y1-y0)/2)
	B := math.Round(border * s)
	Ri := math.Max(0, R-B)
	inset := func(y, top, bottom, rad float64) float64 {
		var t float64
		switch {
		case y+0.5 < top+rad:
			t = top + rad - (y + 0.5)
		case y+0.5 > bottom-rad:
			t = (y + 0.5) - (bottom - rad)
		default:
			return 0
		}
		return rad - math.Sqrt(math.Max(0, rad*rad-t*t))
	}
	// Rows in runs of equal insets: only the corner rows differ.
	runStart := y0
	var pio, pii float64 = -1, -1
	flush := func(yEnd float64) {
		if pio < 0 || yEnd <= runStart {
			return
		}
		ya, yb := float32(runStart), float32(yEnd)
		xo0, xo1 := float32(math.Round(x0+pio)), float32(math.Round(x1-pio))
		if pii < 0 { // a whole row of border
			v.fillDev(dst, xo0, ya, xo1, yb, borderC)
			return
		}
		xi0, xi1 := float32(math.Round(x0+pii)), float32(math.Round(x1-pii))
		v.fillDev(dst, xo0, ya, xi0, yb, borderC)
		v.fillDev(dst, xi1, ya, xo1, yb, borderC)
		v.fillDev(dst, xi0, ya, xi1, yb, fillC)
	}
	for y := y0; y < y1; y++ {
		io := math.Round(inset(y, y0, y1, R)*2) / 2
		ii := -1.0
		if y >= y0+B && y < y1-B {
			ii = B + math.Round(inset(y, y0+B, y1-B, Ri)*2)/2
		}
		if io != pio || ii != pii {
			flush(y)
			runStart, pio, pii = y, io, ii
		}
	}
	flush(y1)
}

// stroke draws a rectangle outline of width logical px inside r.
func (v *View) stroke(dst *ebiten.Image, r hud.Rect, width float64, c color.RGBA) {
	v.fill(dst, hud.Rect{X: r.X, Y: r.Y, W: r.W, H: width}, c)
	v.fill(dst, hud.Rect{X: r.X, Y: r.Y + r.H - width, W: r.W, H: width}, c)
	v.fill(dst, hud.Rect{X: r.X, Y: r.Y + width, W: width, H: r.H - 2*width}, c)
	v.fill(dst, hud.Rect{X: r.X + r.W - width, Y: r.Y + width, W: width, H: r.H - 2*width}, c)
}

func (v *View) face(bold bool, size float64) *text.GoXFace { return v.fonts.Face(bold, size*v.s) }

// textW is the advance of str in logical px.
func (v *View) textW(str string, bold bool, size float64) float64 {
	return text.Advance(v.fonts.Printable(str), v.face(bold, size)) / v.s
}

// text draws one line with its top-left at (x, y) in logical px.
func (v *View) text(dst *ebiten.Image, str string, bold bool, size, x, y float64, c color.RGBA) {
	str = v.fonts.Printable(str)
	if str == "" {
		return
	}
	// Glyphs into a reused slice, drawn one by one: no allocation per call.
	v.glyphs = text.AppendGlyphs(v.glyphs[:0], str, v.face(bold, size), &v.lay)
	ox, oy := math.Round(x*v.s), math.Round(y*v.s)
	for i := range v.glyphs {
		g := &v.glyphs[i]
		if g.Image == nil {
			continue
		}
		v.dop = ebiten.DrawImageOptions{}
		v.dop.GeoM.Translate(ox+g.X, oy+g.Y)
		v.dop.ColorScale.Scale(float32(c.R)/255, float32(c.G)/255, float32(c.B)/255, float32(c.A)/255)
		dst.DrawImage(g.Image, &v.dop)
	}
}

// shadowText draws text with a 1 px dark shadow.
func (v *View) shadowText(dst *ebiten.Image, str string, bold bool, size, x, y float64, c color.RGBA) {
	v.text(dst, str, bold, size, x+1, y+1, color.RGBA{0, 0, 0, c.A})
	v.text(dst, str, bold, size, x, y, c)
}

// ellipsis cuts str to maxW logical px, ending with "…".
func (v *View) ellipsis(str string, bold bool, size, maxW float64) string {
	str = v.fonts.Printable(str)
	if v.textW(str, bold, size) <= maxW {
		return str
	}
	k := wrapKey{str, bold, size * v.s, maxW, -1}
	if ls, ok := v.wraps[k]; ok {
		return ls[0]
	}
	r := []rune(str)
	for len(r) > 0 && v.textW(string(r)+"…", bold, size) > maxW {
		r = r[:len(r)-1]
	}
	out := string(r) + "…"
	if len(v.wraps) >= 256 {
		clear(v.wraps)
	}
	v.wraps[k] = []string{out}
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
	if len(v.wraps) >= 256 {
		clear(v.wraps)
	}
	v.wraps[k] = ls
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
		if v.textW(cand, bold, size) <= room {
			cur = cand
			continue
		}
		if cur != "" {
			v.lines = append(v.lines, cur)
			room = maxW
		}
		cur = word
		for v.textW(cur, bold, size) > room && utf8.RuneCountInString(cur) > 1 {
			r := []rune(cur)
			n := len(r) - 1
			for n > 1 && v.textW(string(r[:n]), bold, size) > room {
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

// --- chat (z 3) ---

const (
	chatSize   = 14
	chatLineH  = 18
	chatBottom = 40
	cmdSize    = 17
	cmdH       = 30
)

func (v *View) drawChat(dst *ebiten.Image, c *hud.Chat, w, h, now float64) {
	cw := w * 0.92
	x := (w - cw) / 2
	// Lines bottom-up, newest last; fading lines are listed after the others
	// in the model but were older, so draw them above.
	ls := c.Lines()
	y := h - chatBottom
	order := v.order[:0]
	for i := range ls {
		if ls[i].Fading {
			order = append(order, i)
		}
	}
	for i := range ls {
		if !ls[i].Fading {
			order = append(order, i)
		}
	}
	v.order = order
	// Measure from the bottom: newest at the bottom.
	for k := len(order) - 1; k >= 0; k-- {
		l := &ls[order[k]]
		prefix := l.Prefix
		pw := v.textW(prefix, true, chatSize)
		wrapped := v.wrap(l.Text, false, chatSize, cw, pw)
		n := len(wrapped)
		y -= float64(n) * chatLineH
		a := l.Alpha(now)
		nameCol, ok := TeamColor(l.Team)
		if l.System {
			nameCol, ok = colSystem, true
		}
		if !ok {
			nameCol = colChatText
		}
		v.shadowText(dst, prefix, true, chatSize, x, y, fade(nameCol, a))
		for i, line := range wrapped {
			lx := x
			if i == 0 {
				lx += pw
			}
			v.shadowText(dst, line, false, chatSize, lx, y+float64(i)*chatLineH, fade(colChatText, a))
		}
	}
	if c.Open() {
		r := hud.Rect{X: x, Y: h - 5 - cmdH, W: cw, H: cmdH}
		v.box(dst, r, 5, 3, rgba(0, 0, 0, 0.9), fade(colCmdBorder, 0.9))
		in := c.Input() + "_"
		for v.textW(in, false, cmdSize) > cw-12 && len(in) > 1 {
			_, n := utf8.DecodeRuneInString(in)
			in = in[n:]
		}
		v.text(dst, in, false, cmdSize, x+6, r.Y+5, colWhite)
	}
}

// --- vote (z 5) ---

const (
	voteX, voteY, voteW = 5, 30, 250
	voteSize            = 14
	voteLineH           = 19
)

func (v *View) drawVote(dst *ebiten.Image, w *hud.VoteWindow, now float64) {
	inner := voteW - 16.0
	title := v.wrap(w.Title, true, voteSize, inner, 0)
	opts := w.PageLabels()
	n := len(title) + len(opts) + 1
	if w.HasBack() {
		n++
	}
	if w.HasMore() {
		n++
	}
	r := hud.Rect{X: voteX, Y: voteY, W: voteW, H: float64(n)*voteLineH + 20}
	v.box(dst, r, 5, 3, rgba(3, 100, 155, 0.5), colWhite)
	y := r.Y + 8
	for _, l := range title {
		v.text(dst, l, true, voteSize, r.X+8, y, colWhite)
		y += voteLineH
	}
	y += 2
	for _, o := range opts {
		v.text(dst, v.ellipsis(o, false, voteSize, inner), false, voteSize, r.X+8, y, colWhite)
		y += voteLineH
	}
	if w.HasBack() {
		v.text(dst, "8. Back", false, voteSize, r.X+8, y, colWhite)
		y += voteLineH
	}
	if w.HasMore() {
		v.text(dst, "9. More", false, voteSize, r.X+8, y, colWhite)
		y += voteLineH
	}
	v.text(dst, "0. Exit", false, voteSize, r.X+8, y, colWhite)
	if !w.TimeOff && w.Duration > 0 { // the lifetime left as a thin bar at the bottom
		left := math.Max(0, math.Min(1, (w.Deadline-now)/w.Duration))
		v.fill(dst, hud.Rect{X: r.X + 3, Y: r.Y + r.H - 6, W: (r.W - 6) * left, H: 3}, colWhite)
	}
}

// --- game informer (z 6) ---

func (v *View) drawGameInform(dst *ebiten.Image, g *hud.GameInform, w, h, now float64) {
	if g.Text == "" {
		return
	}
	size := math.Max(24, math.Min(48, 16+0.04*w))
	t := math.Min(1, math.Max(0, (now-g.At)/hud.GameInformAnimMs))
	k := 1 - math.Pow(1-t, 3) // ease-out
	if k <= 0.01 {
		return
	}
	str := v.fonts.Printable(g.Text)
	face := v.face(true, size)
	tw := text.Advance(str, face)
	cx, top := w/2*v.s, 0.3*h*v.s
	v.informText(dst, str, face, tw, k, cx+2*v.s, top+3*v.s, color.RGBA{0, 0, 0, 110}) // soft shadow
	for _, d := range outline {
		v.informText(dst, str, face, tw, k, cx+d[0]*v.s, top+d[1]*v.s, colBlack)
	}
	v.informText(dst, str, face, tw, k, cx, top, colWhite)
}

var outline = [4][2]float64{{-1, 0}, {1, 0}, {0, -1}, {0, 1}}

// informText draws str centred on x, scaled by k about its top centre.
func (v *View) informText(dst *ebiten.Image, str string, face *text.GoXFace, tw, k, x, y float64, c color.RGBA) {
	v.glyphs = text.AppendGlyphs(v.glyphs[:0], str, face, &v.lay)
	fc := fade(c, k)
	for i := range v.glyphs {
		g := &v.glyphs[i]
		if g.Image == nil {
			continue
		}
		v.dop = ebiten.DrawImageOptions{}
		v.dop.GeoM.Translate(g.X-tw/2, g.Y)
		v.dop.GeoM.Scale(k, k)
		v.dop.GeoM.Translate(x, y)
		v.dop.ColorScale.Scale(float32(fc.R)/255, float32(fc.G)/255, float32(fc.B)/255, float32(fc.A)/255)
		dst.DrawImage(g.Image, &v.dop)
	}
}

// --- panel (z 7) ---

const (
	panelH     = 24
	panelSize  = 14
	titleSize  = 16
	cellPad    = 3
	blinkMs    = 2000
	titleLeftX = 6
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

func (v *View) drawPanel(dst *ebiten.Image, p *hud.Panel, w, now float64) {
	v.fill(dst, hud.Rect{W: w, H: panelH}, colWhite)
	title := v.ellipsis(p.Title, false, titleSize, 0.4*w)
	tw := v.textW(title, false, titleSize)
	ty := (panelH - titleSize*1.2) / 2
	if el := now - p.WaveStart; el >= 0 && el < hud.TitleWaveMs {
		// The gradient slides across the glyphs once.
		pos := easeWave(el / hud.TitleWaveMs)
		x := titleLeftX * 1.0
		for _, r := range title {
			s := string(r)
			rel := (x-titleLeftX)/math.Max(tw, 1)*0.5 + (1 - pos)
			v.text(dst, s, false, titleSize, x, ty, waveColor(1-rel))
			x += v.textW(s, false, titleSize)
		}
	} else {
		v.text(dst, title, false, titleSize, titleLeftX, ty, colChatText)
	}
	x := titleLeftX + tw + 10
	shown := 0
	for i := range p.Cells {
		if p.Cells[i].Shown {
			shown++
		}
	}
	if shown == 0 {
		return
	}
	cw := math.Min(0.25*w, (w-x)/float64(shown))
	for i := range p.Cells {
		c := &p.Cells[i]
		if !c.Shown {
			continue
		}
		r := hud.Rect{X: x, Y: 0, W: cw, H: panelH}
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
			v.text(dst, label, false, panelSize, r.X+(r.W-v.textW(label, false, panelSize))/2, (panelH-panelSize*1.2)/2, colWhite)
		}
		x += cw
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

// --- scoreboard (z 7, after the panel) ---

const (
	statSize  = 10
	statLineH = 15
)

func tableColor(t *hud.StatTable, index int) color.RGBA {
	if t.Name == "spectators" {
		return colTeam3
	}
	if c, ok := TeamColor(index + 1); ok {
		return c
	}
	return colChatText
}

func (v *View) drawStat(dst *ebiten.Image, s *hud.Stat, w, h float64) {
	bw := math.Min(0.9*w, 550)
	r := hud.Rect{X: (w - bw) / 2, Y: 30, W: bw, H: math.Max(60, h-70)}
	v.box(dst, r, 5, 3, rgba(25, 25, 25, 0.9), colWhite)
	inner := r.W - 20
	y := r.Y + 10
	y = v.statRow(dst, r, y, s.Labels, "", true, colWhite)
	for ti := range s.Tables {
		t := &s.Tables[ti]
		col := tableColor(t, ti)
		y += 4
		y = v.statRow(dst, r, y, t.Head, t.Title, true, col)
		v.fill(dst, hud.Rect{X: r.X + 10, Y: y - 2, W: inner, H: 1}, fade(col, 0.6))
		for _, rw := range t.Rows {
			cells := rw.Cells
			if t.Name == "spectators" && len(cells) > 1 {
				cells = cells[:1] // the spectators' table shows names only
			}
			y = v.statRow(dst, r, y, cells, "", false, col)
		}
	}
}

// statRow draws one scoreboard line (first, when set, replaces cell 0) and
// returns the next line's y; lines below the box are not drawn.
func (v *View) statRow(dst *ebiten.Image, box hud.Rect, y float64, cells []string, first string, bold bool, c color.RGBA) float64 {
	if y > box.Y+box.H-statLineH {
		return y
	}
	inner := box.W - 20
	if first != "" {
		v.text(dst, v.ellipsis(first, bold, statSize, inner*0.4-4), bold, statSize, box.X+10, y, c)
	}
	for i, cell := range cells {
		if i == 0 && first != "" {
			continue
		}
		x, cw := box.X+10, inner*0.4
		if i > 0 {
			x, cw = box.X+10+inner*0.4+float64(i-1)*inner*0.15, inner*0.15
		}
		if x+cw > box.X+box.W-5 {
			break
		}
		v.text(dst, v.ellipsis(cell, bold, statSize, cw-4), bold, statSize, x, y, c)
	}
	return y + statLineH
}

// --- auth form (z 8) ---

const (
	authTitleSize = 24
	authSize      = 16
	authSmall     = 12
	authHelpSize  = 14
)

func (v *View) drawAuth(dst *ebiten.Image, f *hud.AuthForm, w, h, now float64) {
	v.fill(dst, hud.Rect{W: w, H: h}, colPage)
	g := f.Layout(w, h)
	v.fill(dst, g.Card, rgb(0x2c, 0x2c, 0x2c))
	v.stroke(dst, g.Card, 1, rgb(0x99, 0x99, 0x99))
	title := f.Title
	if title == "" {
		title = "VIMP"
	}
	title = v.ellipsis(title, true, authTitleSize, g.Title.W)
	v.text(dst, title, true, authTitleSize, g.Title.X+(g.Title.W-v.textW(title, true, authTitleSize))/2, g.Title.Y+6, colWhite)
	for i, e := range f.Errors {
		v.text(dst, v.ellipsis(e, false, authSmall+2, g.Errors.W), false, authSmall+2, g.Errors.X, g.Errors.Y+float64(i)*hud.AuthErrorH+2, colError)
	}
	focused := f.FocusedField()
	caretOn := math.Mod(now, 1000) < 600
	for _, row := range g.Rows {
		fd := &f.Fields[row.Field]
		isFocus := focused == fd
		labelY := row.Label.Y + (row.Label.H-authSize*1.2)/2
		if fd.Error != "" {
			labelY = row.Label.Y - 2
			v.text(dst, v.ellipsis(fd.Error, false, authSmall, row.Label.W-6), false, authSmall, row.Label.X, row.Label.Y+row.Label.H-authSmall*1.2+2, colError)
		}
		v.text(dst, v.ellipsis(fd.Label, false, authSize, row.Label.W-6), false, authSize, row.Label.X, labelY, colChatText)
		border := rgb(0x66, 0x66, 0x66)
		if isFocus {
			border = colCmdBorder
		}
		if fd.Error != "" {
			border = colError
		}
		c := row.Control
		ty := c.Y + (c.H-authSize*1.2)/2
		switch fd.Control {
		case "text":
			v.fill(dst, c, rgb(0x11, 0x11, 0x11))
			v.stroke(dst, c, 2, border)
			val := fd.Value
			for v.textW(val, false, authSize) > c.W-16 && len(val) > 0 {
				_, n := utf8.DecodeRuneInString(val)
				val = val[n:]
			}
			v.text(dst, val, false, authSize, c.X+6, ty, colWhite)
			if isFocus && caretOn {
				cx := c.X + 6 + v.textW(val, false, authSize) + 1
				v.fill(dst, hud.Rect{X: cx, Y: c.Y + 6, W: 2, H: c.H - 12}, colWhite)
			}
		case "select":
			v.fill(dst, c, rgb(0x11, 0x11, 0x11))
			v.stroke(dst, c, 2, border)
			v.text(dst, "<", true, authSize, c.X+6, ty, colChatText)
			v.text(dst, ">", true, authSize, c.X+c.W-16, ty, colChatText)
			val := v.ellipsis(fd.ValueLabel(), false, authSize, c.W-40)
			v.text(dst, val, false, authSize, c.X+(c.W-v.textW(val, false, authSize))/2, ty, colWhite)
		case "checkbox":
			box := hud.Rect{X: c.X, Y: c.Y + (c.H-20)/2, W: 20, H: 20}
			v.fill(dst, box, rgb(0x11, 0x11, 0x11))
			v.stroke(dst, box, 2, border)
			if fd.Checked {
				v.fill(dst, hud.Rect{X: box.X + 5, Y: box.Y + 5, W: 10, H: 10}, colWhite)
			}
		case "radio":
			if isFocus {
				v.stroke(dst, c, 2, border)
			}
			for k, cr := range row.Choices {
				cx, cy := (cr.X+12)*v.s, (cr.Y+cr.H/2)*v.s
				vector.StrokeCircle(dst, float32(cx), float32(cy), float32(7*v.s), float32(2*v.s), colChatText, true)
				if fd.Choices[k] == fd.Value {
					vector.DrawFilledCircle(dst, float32(cx), float32(cy), float32(4*v.s), colWhite, true)
				}
				label := fd.Choices[k]
				if k < len(fd.ChoiceLabels) {
					label = fd.ChoiceLabels[k]
				}
				v.text(dst, v.ellipsis(label, false, authSize-2, cr.W-26), false, authSize-2, cr.X+24, cr.Y+(cr.H-(authSize-2)*1.2)/2, colWhite)
			}
		}
	}
	start := rgb(0, 0x66, 0x66)
	if f.StartFocused() {
		start = colCmdBorder
	}
	if f.Sent() {
		start = rgb(0x44, 0x44, 0x44)
	}
	v.fill(dst, g.Start, start)
	v.stroke(dst, g.Start, 2, colWhite)
	v.text(dst, "Start", true, authSize, g.Start.X+(g.Start.W-v.textW("Start", true, authSize))/2, g.Start.Y+(g.Start.H-authSize*1.2)/2, colWhite)
	for i, sec := range f.Sections {
		r := g.Sections[i]
		v.box(dst, r, 4, 1, rgb(0x44, 0x44, 0x44), rgb(0x99, 0x99, 0x99))
		y := r.Y + 6
		if sec.Heading != "" {
			hd := v.ellipsis(sec.Heading, true, authHelpSize+1, r.W-12)
			v.text(dst, hd, true, authHelpSize+1, r.X+(r.W-v.textW(hd, true, authHelpSize+1))/2, y, colWhite)
			y += hud.AuthHeadingH
		}
		for _, l := range sec.Lines {
			if l.Separator {
				v.fill(dst, hud.Rect{X: r.X + 8, Y: y + 5, W: r.W - 16, H: 1}, rgb(0x99, 0x99, 0x99))
				y += hud.AuthSepH
			} else {
				keys := l.Keys
				kw := 0.0
				if keys != "" {
					keys = v.ellipsis(keys, true, authHelpSize, r.W*0.5)
					v.text(dst, keys, true, authHelpSize, r.X+8, y, colWhite)
					kw = v.textW(keys+" - ", true, authHelpSize)
					v.text(dst, "-", false, authHelpSize, r.X+8+v.textW(keys+" ", true, authHelpSize), y, colChatText)
				}
				v.text(dst, v.ellipsis(l.Text, false, authHelpSize, r.W-16-kw), false, authHelpSize, r.X+8+kw, y, colChatText)
				y += hud.AuthLineH
			}
			if l.Last {
				y += hud.AuthLastGap
			}
		}
	}
}

// --- tech informer (z 9) ---

const (
	techSize  = 20
	techLineH = 24
)

func (v *View) drawTech(dst *ebiten.Image, msg string, w, h float64) {
	v.fill(dst, hud.Rect{W: w, H: h}, colBlack)
	y := 10.0
	for _, para := range strings.Split(msg, "\n") {
		for _, l := range v.wrap(para, false, techSize, w-20, 0) {
			v.text(dst, l, false, techSize, 10, y, colWhite)
			y += techLineH
		}
	}
}
