package hud

import "math"

// Geometry of the overlays in logical pixels, shared by the layout and the
// views so both agree by construction.
const (
	PanelH = 24 // the panel strip across the top

	VoteX, VoteY, VoteW = 5, 30, 250
	VoteLineH           = 19
	VoteMaxTitleLines   = 3
	VotePerPage         = 7
	// VoteMaxH is the vote window at its tallest: a three-line title,
	// seven options, Back, More, Exit and the line naming the vote that
	// waits behind it.
	VoteMaxH = (VoteMaxTitleLines+VotePerPage+4)*VoteLineH + 20

	ChatLineH  = 18
	ChatBottom = 40 // from the window's bottom edge to the newest line's bottom
	CommandH   = 30

	NoticeH     = 26 // one notice line
	BannerH     = 30
	bandGap     = 10 // between the centre band and the columns beside it
	rightMargin = 10

	// NetGraphW and NetGraphH are the net graph's size when the wiring
	// does not say otherwise.
	NetGraphW = 240
	NetGraphH = 144

	// Where the renderer puts fixed canvases (the radar): the top-right
	// corner, at most this far down before their own height.
	fixedTop  = 35
	fixedRing = 6 // a ring or glow drawn around a fixed canvas
)

// ScreenLayout is where every overlay goes in a window of W×H logical px.
// The boxes the HUD keeps on screen together — panel, vote column, fixed
// canvases, net graph, notices, banner, game informer, chat and command
// line — never intersect; the scoreboard, shown while Tab is held, is
// drawn over them.
type ScreenLayout struct {
	W, H     float64
	Panel    Rect
	Vote     Rect // the vote window's column at its tallest
	Fixed    Rect // the corner the game's fixed canvases (the radar) take; zero when none
	NetGraph Rect // where the net graph goes: top right, under the fixed canvases
	Notices  Rect // notices, one NoticeH line each, centred under the panel
	Banner   Rect // the accolades banner, under the notices
	Inform   Rect // the game informer's line, at 30 % of the height or below the banner
	Chat     Rect // chat lines, newest at the bottom
	Command  Rect // the command line
	Stat     Rect // the scoreboard
	// NetGraphShown is whether the centre keeps clear of the net graph.
	NetGraphShown bool
}

// Boxes lists the boxes that share the screen, for checks that none
// overlaps another (zero-sized ones are left out, and the net graph when
// hidden).
func (l ScreenLayout) Boxes() map[string]Rect {
	m := map[string]Rect{}
	graph := l.NetGraph
	if !l.NetGraphShown {
		graph = Rect{}
	}
	for name, r := range map[string]Rect{
		"panel": l.Panel, "vote": l.Vote, "fixed": l.Fixed, "netgraph": graph,
		"notices": l.Notices, "banner": l.Banner, "inform": l.Inform, "chat": l.Chat, "command": l.Command,
	} {
		if r.W > 0 && r.H > 0 {
			m[name] = r
		}
	}
	return m
}

// NetGraphBox is the net graph as the layout sees it: whether it is shown,
// and its size in logical px (zero takes NetGraphW×NetGraphH). The net
// graph is the window's, not the HUD's: whoever draws the overlays passes
// it to LayoutAround, and the model keeps nothing of it.
type NetGraphBox struct {
	Shown bool
	W, H  float64
}

// size is the box's size, the default for a zero one.
func (g NetGraphBox) size() (w, h float64) {
	if g.W <= 0 || g.H <= 0 {
		return NetGraphW, NetGraphH
	}
	return g.W, g.H
}

// SetFixed replaces the corner reserved for the game's fixed canvases with
// the rectangles the renderer really uses (logical px); nil goes back to
// the estimate from CONFIG_DATA's canvas sizes.
func (h *HUD) SetFixed(rects []Rect) { h.fixedRects = append(h.fixedRects[:0], rects...) }

// Layout places the overlays in a w×h window (logical px) with the net
// graph's corner kept clear at its default size.
func (h *HUD) Layout(w, ht float64) ScreenLayout {
	return h.LayoutAround(w, ht, NetGraphBox{Shown: true})
}

// LayoutAround places the overlays in a w×h window (logical px) around the
// net graph g: a hidden graph gives the notices and the informer its room
// back.
func (h *HUD) LayoutAround(w, ht float64, g NetGraphBox) ScreenLayout {
	l := ScreenLayout{W: w, H: ht, NetGraphShown: g.Shown}
	l.Panel = Rect{W: w, H: PanelH}
	l.Vote = Rect{X: VoteX, Y: VoteY, W: VoteW, H: VoteMaxH}
	l.Fixed = h.fixedCorner(w)
	right := w - rightMargin // the centre band's right edge
	if l.Fixed.W > 0 {
		right = l.Fixed.X - bandGap
	}
	top := float64(PanelH + 8)
	if l.Fixed.H > 0 {
		top = l.Fixed.Y + l.Fixed.H + 8
	}
	gw, gh := g.size()
	l.NetGraph = Rect{X: w - rightMargin - gw, Y: top, W: gw, H: gh}
	if g.Shown {
		right = math.Min(right, l.NetGraph.X-bandGap)
	}
	// The centre band is centred on the window (the game area is): as wide
	// as the nearer of the vote column and the right-hand boxes allows.
	half := math.Max(0, math.Min(w/2-(l.Vote.X+l.Vote.W+bandGap), right-w/2))
	left, band := w/2-half, 2*half
	l.Notices = Rect{X: left, Y: PanelH + 6, W: band, H: MaxNotices * NoticeH}
	l.Banner = Rect{X: left, Y: l.Notices.Y + l.Notices.H + 4, W: band, H: BannerH}
	size := InformSize(w)
	l.Inform = Rect{X: left, Y: math.Max(0.3*ht, l.Banner.Y+l.Banner.H+8), W: band, H: math.Ceil(size * 1.3)}
	cw := w * 0.92
	cx := (w - cw) / 2
	l.Command = Rect{X: cx, Y: ht - 5 - CommandH, W: cw, H: CommandH}
	lines := float64(2 * h.Config.Chat.ListLimit) // every line may wrap once
	chatTop := math.Max(l.Inform.Y+l.Inform.H+8, ht-ChatBottom-lines*ChatLineH)
	l.Chat = Rect{X: cx, Y: chatTop, W: cw, H: math.Max(0, ht-ChatBottom-chatTop)}
	bw := math.Min(0.9*w, 550)
	// The scoreboard starts under the notices shown now, so none is drawn
	// over its rows.
	statTop := math.Max(30, l.Notices.Y+float64(min(len(h.Notices()), MaxNotices))*NoticeH+4)
	l.Stat = Rect{X: (w - bw) / 2, Y: statTop, W: bw, H: math.Max(60, ht-40-statTop)}
	return l
}

// InformSize is the game informer's text size for a window w px wide:
// 16 px + 4 % of the width, between 24 and 48 px.
func InformSize(w float64) float64 { return math.Max(24, math.Min(48, 16+0.04*w)) }

// fixedCorner is the top-right corner the renderer draws fixed canvases in:
// the wiring's rectangles when it gave them, else their CONFIG_DATA sizes
// stacked from the top right with room for a ring around them.
func (h *HUD) fixedCorner(w float64) Rect {
	if len(h.fixedRects) > 0 {
		x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
		for _, r := range h.fixedRects {
			x0, y0 = math.Min(x0, r.X-fixedRing), math.Min(y0, r.Y-fixedRing)
			x1, y1 = math.Max(x1, r.X+r.W+fixedRing), math.Max(y1, r.Y+r.H+fixedRing)
		}
		y0 = math.Max(y0, PanelH)
		return Rect{X: x0, Y: y0, W: math.Min(w, x1) - x0, H: y1 - y0}
	}
	if len(h.Config.Fixed) == 0 {
		return Rect{}
	}
	maxW, sumH := 0.0, 0.0
	for i, c := range h.Config.Fixed {
		maxW = math.Max(maxW, c.W)
		sumH += c.H
		if i > 0 {
			sumH += 10
		}
	}
	margin := math.Max(0.01*w, 10)
	cw := maxW + margin + fixedRing
	return Rect{X: w - cw, Y: PanelH, W: cw, H: fixedTop - PanelH + sumH + fixedRing}
}
