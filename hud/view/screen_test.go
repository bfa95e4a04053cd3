package view

import (
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"math"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"

	"vimpclient/hud"
	"vimpclient/hud/settingsmenu"
	netview "vimpclient/netgraph/view"

	"vimpclient/netgraph"
	"vimpclient/protocol"
)

// busyScene is the captured scene with everything the HUD keeps on screen
// together: panel, chat, the vote window, the game informer, three
// notices, the accolades banner and the tanks radar's corner (the net graph
// is the view's: View.SetNetGraph).
func busyScene(t *testing.T, w float64) *hud.HUD {
	t.Helper()
	h := scene(t)
	h.Handle(protocol.Inform{Code: 0, Params: []string{"team1"}}, 8000)
	h.Notice("frames from this host cannot be decoded: not a v5 frame", hud.NoticeError)
	h.Notice("team red is not offered: team1, spectators", hud.NoticeWarning)
	h.Notice("team1 is full", hud.NoticeWarning)
	id, nick := firstRow(t, h)
	h.Self(nick, id)
	a, err := protocol.ParseAccolades(json.RawMessage(fmt.Sprintf(`{"places":{%q:{"daily":1,"monthly":3}},
		"boards":{"day":[{"place":1,"nick":%q,"score":42},{"place":2,"nick":"Zed","score":40}]}}`, id, nick)))
	if err != nil {
		t.Fatal(err)
	}
	h.Handle(a, 8000)
	h.SetFixed([]hud.Rect{{X: w - 0.01*w - 150, Y: 35, W: 150, H: 150}}) // the tanks radar
	h.Update(8000 + hud.GameInformAnimMs)
	return h
}

func firstRow(t *testing.T, h *hud.HUD) (id, nick string) {
	t.Helper()
	for _, tb := range h.Stat.Tables {
		for _, r := range tb.Rows {
			if len(r.Cells) > 0 && r.Cells[0] != "" {
				return r.ID, r.Cells[0]
			}
		}
	}
	t.Fatal("no scoreboard row in the scene")
	return "", ""
}

// graphView is a net graph with a few seconds of ticks.
func graphView() *netview.View {
	g := netgraph.New()
	var c netgraph.Counters
	for i := 0; i < netgraph.History; i++ {
		c.Received++
		c.Buffered = 3
		g.Observe(float64(i)*1000/60, c, netgraph.Prediction{Active: true, Error: 0.1})
	}
	return netview.New(g, true)
}

func luminance(c color.RGBA) float64 {
	lin := func(v uint8) float64 {
		f := float64(v) / 255
		if f <= 0.03928 {
			return f / 12.92
		}
		return math.Pow((f+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(c.R) + 0.7152*lin(c.G) + 0.0722*lin(c.B)
}

func sameIn(a, b *image.RGBA, r hud.Rect) bool {
	for y := int(r.Y); y < int(r.Y+r.H); y++ {
		for x := int(r.X); x < int(r.X+r.W); x++ {
			if px(a, x, y) != px(b, x, y) {
				return false
			}
		}
	}
	return true
}

// TestScreenLayoutAtThreeSizes draws the busy scene at 1280×720, 1920×1080
// and 3840×2160 (offscreen) and checks what the player sees: the boxes do
// not intersect, the panel is dark to the right edge with a legible title,
// and the net graph changes nothing outside its own box in the panel, the
// radar's corner or the vote column.
func TestScreenLayoutAtThreeSizes(t *testing.T) {
	v := systemView(t)
	graph := graphView()
	for _, size := range [][2]float64{{1280, 720}, {1920, 1080}, {3840, 2160}} {
		w, ht := size[0], size[1]
		name := fmt.Sprintf("screen-%.0fx%.0f", w, ht)
		h := busyScene(t, w)
		v.SetNetGraph(true, netview.Width, netview.Height)
		var l hud.ScreenLayout
		with := renderWith(t, name, v, h, 8000+hud.GameInformAnimMs, w, ht, 1, func(img *ebiten.Image) {
			l = v.Layout()
			graph.DrawAt(img, l.NetGraph.X, l.NetGraph.Y, 1)
		})
		boxes := l.Boxes()
		if len(boxes) != 9 {
			t.Fatalf("%s: %d boxes: %v", name, len(boxes), boxes)
		}
		for a, ra := range boxes {
			for b, rb := range boxes {
				if a < b && ra.Intersects(rb) {
					t.Errorf("%s: %s %+v intersects %s %+v", name, a, ra, b, rb)
				}
			}
		}
		// The strip is the game's dark grey from the last cell to the edge.
		for y := 0; y < hud.PanelH; y++ {
			if p := px(with, int(w)-2, y); !near(p, colPage, 8) {
				t.Fatalf("%s: panel edge at y %d is %v", name, y, p)
			}
		}
		// The title reads against its background at WCAG's 4.5:1 or better.
		var title hud.Rect
		runOnMain(func() { title, _ = v.PanelCells(h.Panel, w, nil) })
		bright := 0.0
		for y := 2; y < hud.PanelH-2; y++ {
			for x := int(title.X); x < int(title.X+title.W); x++ {
				bright = math.Max(bright, luminance(px(with, x, y)))
			}
		}
		bg := luminance(px(with, int(title.X)-4, 2))
		if ratio := (bright + 0.05) / (bg + 0.05); ratio < 4.5 {
			t.Errorf("%s: title contrast %.1f:1", name, ratio)
		}
		// Without the net graph, the panel, the radar's corner and the vote
		// column look the same; its own box does not.
		h2 := busyScene(t, w)
		v.SetNetGraph(false, netview.Width, netview.Height)
		without := renderWith(t, name+"-nograph", v, h2, 8000+hud.GameInformAnimMs, w, ht, 1, nil)
		for _, r := range []struct {
			name string
			box  hud.Rect
		}{{"panel", l.Panel}, {"fixed", l.Fixed}, {"vote", l.Vote}} {
			if !sameIn(with, without, r.box) {
				t.Errorf("%s: the net graph changed the %s", name, r.name)
			}
		}
		if sameIn(with, without, l.NetGraph) {
			t.Errorf("%s: no net graph drawn in %+v", name, l.NetGraph)
		}
		// The informer's text is in its band, the banner's gold in its own.
		if n := count(with, l.Inform, colWhite, 10); n < 200 {
			t.Errorf("%s: informer text %d px in its band", name, n)
		}
		if n := count(with, l.Banner, colGold, 30); n < 100 {
			t.Errorf("%s: banner %d gold px", name, n)
		}
	}
}

// TestLeaderboardDrawn holds Tab on the busy scene: the global
// leaderboard is drawn under the room's tables, the local player's row
// highlighted.
func TestLeaderboardDrawn(t *testing.T) {
	v := systemView(t)
	v.SetNetGraph(false, 0, 0)
	h := busyScene(t, winW)
	h.ClearNotices()
	h.Stat.Visible = true
	img := renderWith(t, "leaderboard", v, h, 8000+hud.GameInformAnimMs, winW, winH, 1, nil)
	l := h.LayoutAround(winW, winH, hud.NetGraphBox{})
	if n := count(img, l.Stat, colGold, 30); n < 80 {
		t.Fatalf("leaderboard heading: %d gold px", n)
	}
	if len(h.Stat.Leader) != 2 || !h.Stat.Leader[0].Self {
		t.Fatalf("rows %+v", h.Stat.Leader)
	}
	// The highlight band behind the self row: gold at 18 % over the box.
	mix := func(c float64) uint8 { return uint8(26*0.82 + c*0.18) }
	hl := color.RGBA{mix(255), mix(204), mix(51), 255}
	if n := count(img, l.Stat, hl, 6); n < 500 {
		t.Fatalf("self row highlight: %d px", n)
	}
	// The leaderboard mode shows it alone.
	h.Stat.Mode = "leaderboard"
	img = renderWith(t, "leaderboard-mode", v, h, 8000+hud.GameInformAnimMs, winW, winH, 1, nil)
	if n := count(img, hud.Rect{X: l.Stat.X, Y: l.Stat.Y, W: l.Stat.W, H: 40}, colGold, 30); n < 80 {
		t.Fatalf("leaderboard mode heading: %d gold px", n)
	}
}

// TestNoticeAndReconnectScreens draws a notice over the game and the
// reconnecting screen.
func TestNoticeAndReconnectScreens(t *testing.T) {
	v := systemView(t)
	h := scene(t)
	h.Notice("team red is not offered: team1, spectators", hud.NoticeWarning)
	img := renderWith(t, "notice", v, h, 8000, winW, winH, 1, nil)
	l := h.Layout(winW, winH)
	row := hud.Rect{X: l.Notices.X, Y: l.Notices.Y, W: l.Notices.W, H: hud.NoticeH}
	if n := count(img, row, colGold, 30); n < 60 {
		t.Fatalf("notice border: %d gold px", n)
	}
	if n := count(img, row, colWhite, 40); n < 60 {
		t.Fatalf("notice text: %d px", n)
	}
	h.Reconnecting("host restarted", 8000+3000, 2)
	img = renderWith(t, "reconnecting", v, h, 8000, winW, winH, 1, nil)
	if p := px(img, 5, 5); p != colBlack {
		t.Fatalf("not a black screen: %v", p)
	}
	mid := hud.Rect{X: 0, Y: winH*0.42 - 30, W: winW, H: 60}
	if n := count(img, mid, colWhite, 40); n < 300 {
		t.Fatalf("reconnecting text: %d px", n)
	}
	if n := count(img, hud.Rect{X: 0, Y: winH*0.42 + 10, W: winW, H: 40}, colChatText, 30); n < 40 {
		t.Fatalf("give-up hint: %d px", n)
	}
}

// TestNoticeOverTheBlackScreen draws a full room: the host's text on the
// black screen and the notice that says so under it, above everything.
func TestNoticeOverTheBlackScreen(t *testing.T) {
	v := systemView(t)
	h := scene(t)
	h.Tech.Receive(protocol.TechInform{Inform: protocol.Inform{Code: 6, Params: []string{"30"}}})
	h.Notice("the host refused the connection: Room is full! Max players: 30. Try again later.", hud.NoticeError)
	img := renderWith(t, "room-full", v, h, 8000, winW, winH, 1, nil)
	if p := px(img, winW-5, winH-5); p != colBlack {
		t.Fatalf("not a black screen: %v", p)
	}
	text := hud.Rect{X: 0, Y: 10, W: winW, H: 24}
	if n := count(img, text, colWhite, 40); n < 200 {
		t.Fatalf("the host's text: %d px", n)
	}
	// The notice's red border is below the text, none of it over it.
	border := rgb(0xff, 0x55, 0x66)
	if n := count(img, hud.Rect{X: 0, Y: 34, W: winW, H: hud.NoticeH + 10}, border, 30); n < 60 {
		t.Fatalf("notice border under the text: %d px", n)
	}
	if n := count(img, text, border, 30); n != 0 {
		t.Fatalf("the notice covers the host's text: %d px", n)
	}
}

// TestNumericFieldDrawn draws a numeric auth field: − and + at its ends,
// the range in its label.
func TestNumericFieldDrawn(t *testing.T) {
	v := systemView(t)
	a, err := protocol.ParseAuthData(json.RawMessage(`{"params":[{"name":"round","value":"120000",
		"options":{"control":"text","label":"Round","unit":"s","min":30,"max":600}}],"texts":{"title":"Settings"}}`))
	if err != nil {
		t.Fatal(err)
	}
	h := hud.New("h", "g", nil)
	h.Handle(a, 0)
	img := renderWith(t, "auth-numeric", v, h, 0, winW, winH, 1, nil)
	g := h.Auth.Layout(winW, winH)
	c := g.Rows[0].Control
	minus := hud.Rect{X: c.X + 2, Y: c.Y + 2, W: hud.AuthStepW - 4, H: c.H - 4}
	plus := hud.Rect{X: c.X + c.W - hud.AuthStepW + 2, Y: c.Y + 2, W: hud.AuthStepW - 4, H: c.H - 4}
	if n := count(img, minus, rgb(0x33, 0x33, 0x33), 2); n < 200 {
		t.Fatalf("minus button: %d px", n)
	}
	if count(img, plus, colChatText, 40) <= count(img, minus, colChatText, 40) {
		t.Fatal("the + is not drawn bigger than the −")
	}
	if h.Auth.Fields[0].Label != "Round (s, 30–600)" {
		t.Fatalf("label %q", h.Auth.Fields[0].Label)
	}
}

// TestRadioFieldDrawn draws a radio auth field: a ring for each choice,
// the chosen one filled.
func TestRadioFieldDrawn(t *testing.T) {
	v := systemView(t)
	a, err := protocol.ParseAuthData(json.RawMessage(`{"params":[{"name":"color","value":"blue",
		"options":{"control":"radio","options":["red","blue"]}}],"texts":{"title":"Settings"}}`))
	if err != nil {
		t.Fatal(err)
	}
	h := hud.New("h", "g", nil)
	h.Handle(a, 0)
	img := renderWith(t, "auth-radio", v, h, 0, winW, winH, 1, nil)
	row := h.Auth.Layout(winW, winH).Rows[0]
	if len(row.Choices) != 2 {
		t.Fatalf("%d choices laid out", len(row.Choices))
	}
	for k, cr := range row.Choices {
		cx, cy := cr.X+12, cr.Y+cr.H/2
		ring := hud.Rect{X: cx - 9, Y: cy - 9, W: 18, H: 18}
		if n := count(img, ring, colChatText, 40); n < 20 {
			t.Errorf("choice %d: %d px of its ring", k, n)
		}
		dot := hud.Rect{X: cx - 2, Y: cy - 2, W: 4, H: 4}
		if n := count(img, dot, colWhite, 10); (n == 16) != (k == 1) {
			t.Errorf("choice %d: %d white px at its centre, want 16 only for the chosen one", k, n)
		}
	}
}

// The scoreboard with a notice and the leaderboard banner up, at the HUD's
// Auto scale of 1280×720 and 1920×1080: the notice sits above the table,
// the banner is not drawn under it, and the box ends under its last line.
func TestScoreboardWithNotice(t *testing.T) {
	for _, sz := range [][2]float64{{1280, 720}, {1920, 1080}} {
		h := scene(t)
		h.Stat.Visible = true
		h.Notice("Screenshot saved: /tmp/shot.png", hud.NoticeInfo)
		h.Accolades.Banner, h.Accolades.BannerAt, h.Accolades.BannerShown = "Leaderboard: Alice #1 today", 8000, true
		h.Update(8000)
		k := settingsmenu.HUDScaleFor(settingsmenu.HUDScaleAuto, sz[0])
		var v *View
		runOnMain(func() {
			var err error
			if v, err = New(); err != nil {
				t.Error(err)
			}
		})
		if v == nil {
			t.FailNow()
		}
		img := renderWith(t, fmt.Sprintf("scoreboard-notice-%.0f", sz[0]), v, h, 8000, sz[0], sz[1], k, nil)
		l := v.Layout()
		notices := hud.Rect{X: l.Notices.X, Y: l.Notices.Y, W: l.Notices.W, H: hud.NoticeH}
		if notices.Intersects(l.Stat) {
			t.Errorf("%v: the notice line %+v runs over the scoreboard %+v", sz, notices, l.Stat)
		}
		// No gold banner border inside the table.
		box := hud.Rect{X: l.Stat.X * k, Y: l.Stat.Y * k, W: l.Stat.W * k, H: 60 * k}
		if n := count(img, box, colGold, 10); n > 20 {
			t.Errorf("%v: %d gold banner pixels inside the scoreboard's top", sz, n)
		}
	}
}
