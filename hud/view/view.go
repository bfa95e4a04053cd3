package view

import (
	"image"
	"image/color"
	"log/slog"
	"math"

	"github.com/hajimehoshi/ebiten/v2"

	"vimpclient/fonts"
	"vimpclient/hud"
)

// Options configure a View.
type Options struct {
	// Fonts choose the font chain (New puts the system's fonts behind the
	// bundled ones).
	Fonts fonts.Options
	// PanelBackground is the panel strip's colour (premultiplied); zero
	// takes the game canvas's dark grey, so the title stays legible at any
	// window width.
	PanelBackground color.RGBA
}

// View draws the overlays of a hud.HUD in the engine's z-order (the panel
// and scoreboard above the game informer), above the world layers (main
// canvas z 1, radar z 2) the renderer draws first.
type View struct {
	fonts   *fonts.Fonts
	s       float64 // device pixels per logical pixel
	panelBg color.RGBA
	layout  hud.ScreenLayout
	graph   hud.NetGraphBox // the net graph the layout keeps clear (SetNetGraph)
	dop     ebiten.DrawImageOptions
	lines   []string
	order   []int
	cells   []hud.Rect
	verts   [4]ebiten.Vertex
	top     ebiten.DrawTrianglesOptions
	white   *ebiten.Image
	wraps   map[wrapKey][]string
	palette string // the HUD's team palette at this Draw
	// watchName and watchText: the "Watching NICK" line, built once per nick.
	watchName, watchText string
	crash                crashTexts
	// WatchLift raises the "Watching NICK" line this many logical px, off
	// something the wiring draws at the bottom (a demo's timeline).
	WatchLift float64
	// drawn are the boxes the last Draw covered the game with (logical
	// px), for the world to keep the player clear of.
	drawn []hud.Rect
}

type wrapKey struct {
	s           string
	bold        bool
	size, w, f0 float64
}

// New makes a view whose text falls back to the system's fonts for runes
// the bundled fonts lack, loaded in the background: the frame that first
// draws such a rune (the emoji of a chat line as a match starts) does not
// wait for a font file to be read, and draws a box for it until the font
// is in.
func New() (*View, error) {
	return NewWithOptions(Options{Fonts: fonts.Options{System: true, Background: true}})
}

// NewWithOptions makes a view with opts.
func NewWithOptions(opts Options) (*View, error) {
	if opts.Fonts.Log == nil {
		opts.Fonts.Log = slog.Default()
	}
	f, err := fonts.NewWith(opts.Fonts)
	if err != nil {
		return nil, err
	}
	white := ebiten.NewImage(3, 3)
	white.Fill(color.White)
	bg := opts.PanelBackground
	if bg.A == 0 {
		bg = rgba(0x22, 0x22, 0x22, 0.88)
	}
	return &View{fonts: f, graph: hud.NetGraphBox{Shown: true}, panelBg: bg, white: white.SubImage(image.Rect(1, 1, 2, 2)).(*ebiten.Image), wraps: map[wrapKey][]string{}}, nil
}

// Fonts is the view's font chain.
func (v *View) Fonts() *fonts.Fonts { return v.fonts }

// Layout is where the last Draw put every overlay (logical px): the wiring
// draws the net graph at Layout().NetGraph after Draw.
func (v *View) Layout() hud.ScreenLayout { return v.layout }

// SetNetGraph tells the view whether the wiring draws the net graph, and
// its size in logical px (0 takes hud.NetGraphW×hud.NetGraphH): the
// overlays are laid out around it. Until it is called the view keeps the
// net graph's corner clear. The net graph belongs to the window, so it is
// the view that knows it, not the HUD's model.
func (v *View) SetNetGraph(visible bool, w, h float64) {
	v.graph = hud.NetGraphBox{Shown: visible, W: w, H: h}
}

// Draw draws every overlay onto screen. scale is the device scale factor
// (ebiten.Monitor().DeviceScaleFactor() when the game's Layout returns device
// pixels, 1 otherwise); now is the same monotonic ms the models are fed.
func (v *View) Draw(screen *ebiten.Image, h *hud.HUD, now, scale float64) {
	if scale <= 0 {
		scale = 1
	}
	v.s = scale
	v.fonts.Poll()
	b := screen.Bounds()
	w, ht := float64(b.Dx())/scale, float64(b.Dy())/scale
	l := h.LayoutAround(w, ht, v.graph)
	v.layout = l
	v.palette = h.Palette()
	v.drawn = v.drawn[:0]
	if l.Fixed.W > 0 && l.Fixed.H > 0 {
		v.drawn = append(v.drawn, l.Fixed)
	}
	if v.graph.Shown {
		v.drawn = append(v.drawn, l.NetGraph)
	}
	if h.Reveals("chat") { // z 3
		v.drawChat(screen, h.Chat, &l, now)
	}
	if h.ModulesReady && h.Vote.Cur != nil { // z 5
		v.drawVote(screen, h.Vote.Cur, h.Vote.Queued(), now)
		v.drawn = append(v.drawn, hud.Rect{X: hud.VoteX, Y: hud.VoteY, W: hud.VoteW, H: hud.VoteMaxH})
	}
	if h.ModulesReady && h.Game.Shown { // z 6
		v.drawGameInform(screen, h.Game, &l, now)
	}
	if h.Reveals("panel") { // z 7
		v.drawPanel(screen, h.Panel, w, now)
		v.drawn = append(v.drawn, l.Panel)
	}
	if h.ModulesReady && h.Watching != "" && !h.Chat.Open() {
		v.drawWatching(screen, h.Watching, &l)
	}
	// The banner's leaderboard is in the scoreboard too: it is not drawn
	// under the table while Tab shows it.
	if h.ModulesReady && h.Accolades.BannerShown && !h.Stat.Visible {
		v.drawBanner(screen, h.Accolades, &l, now)
	}
	if h.ModulesReady && h.Stat.Visible {
		v.drawStat(screen, h.Stat, &l)
	}
	// The game's result card covers the game and its tables, as the game's
	// own card does.
	if h.ModulesReady && h.Crash.Shown && h.Crash.Spec != nil {
		v.drawCrash(screen, &h.Crash, w, ht)
	}
	if h.Auth != nil { // z 8
		v.drawAuth(screen, h.Auth, w, ht, now)
	}
	// z 9; below is where the black screen's text ends.
	below := 0.0
	switch {
	case h.HostChange.Shown:
		below = v.drawHostChange(screen, &h.HostChange, w, ht, now)
	case h.Reconnect.Shown:
		v.drawReconnect(screen, &h.Reconnect, w, ht, now)
	case h.Tech.Shown:
		below = v.drawTech(screen, h.Tech.Text, w, ht)
	}
	// Notices say what went wrong: above everything, the black screens too.
	v.drawNotices(screen, h.Notices(), &l, now, below)
}

// Covered appends to dst the boxes the last Draw covered the game with, in
// the screen's pixels (logical px times the Draw's scale): the chat's lines,
// the panel, the vote window, the fixed canvases' corner and the net graph.
// Screens that cover the whole game (the scoreboard, the auth form) are
// not among them: nothing can be kept clear of those.
func (v *View) Covered(dst []hud.Rect) []hud.Rect {
	for _, r := range v.drawn {
		dst = append(dst, hud.Rect{X: r.X * v.s, Y: r.Y * v.s, W: r.W * v.s, H: r.H * v.s})
	}
	return dst
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
	colGold      = rgb(0xff, 0xcc, 0x33)
)

func rgb(r, g, b uint8) color.RGBA { return color.RGBA{r, g, b, 255} }

// rgba is a premultiplied colour from straight components and an alpha.
func rgba(r, g, b uint8, a float64) color.RGBA {
	k := a
	return color.RGBA{uint8(float64(r) * k), uint8(float64(g) * k), uint8(float64(b) * k), uint8(255 * a)}
}

func fade(c color.RGBA, a float64) color.RGBA {
	return color.RGBA{uint8(float64(c.R) * a), uint8(float64(c.G) * a), uint8(float64(c.B) * a), uint8(float64(c.A) * a)}
}

// The colour-blind-safe team colours (Okabe and Ito's orange, sky blue and
// yellow): told apart with any common colour blindness, and bright enough
// on the HUD's dark backgrounds.
var (
	colSafeTeam1 = rgb(0xe6, 0x9f, 0x00)
	colSafeTeam2 = rgb(0x56, 0xb4, 0xe9)
	colSafeTeam3 = rgb(0xf0, 0xe4, 0x42)
)

// TeamColor is the chat/scoreboard colour of a team number in the HUD's
// palette (hud.PaletteColorBlind, or the engine's own).
func TeamColor(palette string, team int) (color.RGBA, bool) {
	safe := palette == hud.PaletteColorBlind
	switch {
	case team == 1 && safe:
		return colSafeTeam1, true
	case team == 2 && safe:
		return colSafeTeam2, true
	case team == 3 && safe:
		return colSafeTeam3, true
	case team == 1:
		return colTeam1, true
	case team == 2:
		return colTeam2, true
	case team == 3:
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
