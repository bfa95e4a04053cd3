package view

import (
	"image"
	"testing"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"vimpclient/hostlist"
	"vimpclient/hud"
	"vimpclient/hud/serverbrowser"
)

// browserScene is a browser with a search applied to a master's rooms,
// their latencies measured (one did not answer), a favourite, and the
// sign-in given.
func browserScene(s serverbrowser.SignIn) *serverbrowser.Browser {
	b := serverbrowser.New("http://127.0.0.1:3002")
	var l hostlist.List
	_ = l.SetFavourite(hostlist.Entry{Kind: hostlist.Lobby, Address: "http://127.0.0.1:3002", Room: "r2", Name: "Native Room 2", GameID: "tanks"}, true)
	b.SetHosts(&l)
	b.Key(191, false, false)
	b.Type([]rune("native"))
	b.Key(13, false, false)
	var gen int
	for _, r := range b.Requests() {
		if r.Kind == serverbrowser.RequestRooms {
			gen = r.Gen
		}
	}
	rating := 4.0
	rooms := []serverbrowser.Room{
		{ID: "r1", Name: "Native Room", GameID: "tanks", MapName: "arena", Players: 3, MaxPlayers: 8, Region: "eu", Rating: &rating},
		{ID: "r2", Name: "Native Room 2", GameID: "tanks", MapName: "garden", Players: 1, MaxPlayers: 4, Region: "eu"},
		{ID: "r3", Name: "Native Snakes", GameID: "snakes", MapName: "pit", Players: 6, MaxPlayers: 6, Region: "us"},
	}
	b.SetRooms(gen, 0, 3, rooms, nil)
	b.SetLatency("r1", 3*time.Millisecond, true)
	b.SetLatency("r2", 140*time.Millisecond, true)
	b.SetLatency("r3", 0, false)
	b.SetSignIn(s)
	b.Requests()
	return b
}

func drawBrowser(t *testing.T, name string, v *View, b *serverbrowser.Browser, now float64) *image.RGBA {
	t.Helper()
	return renderWith(t, name, v, hud.New("", "", nil), now, winW, winH, 1, func(img *ebiten.Image) {
		v.DrawBrowser(img, b, now, 1)
	})
}

// The browser lists the search's rooms with their latencies (green, amber,
// none), the selected line highlighted, the favourite starred, the search
// in its field and the sign-in line in its colour.
func TestBrowserScreenshot(t *testing.T) {
	v := systemView(t)
	b := browserScene(serverbrowser.SignIn{State: serverbrowser.SignedIn, Nick: "Alice", Until: time.Now().Add(3 * time.Hour), From: "the stored sign-in"})
	img := drawBrowser(t, "browser", v, b, 1000)
	g := b.Layout(winW, winH)
	if n := count(img, g.Card, colCmdBorder, 20); n < 1000 {
		t.Fatalf("card border: %d px", n)
	}
	if len(g.Rows) != 3 {
		t.Fatalf("%d rows", len(g.Rows))
	}
	lat := func(i int) hud.Rect {
		c := g.Columns[serverbrowser.ColLatency]
		r := g.Rows[i].Row
		return hud.Rect{X: c.X, Y: r.Y, W: c.W, H: r.H}
	}
	if n := count(img, lat(0), colOn, 30); n < 20 {
		t.Errorf("good latency: %d green px", n)
	}
	if n := count(img, lat(1), colGold, 30); n < 20 {
		t.Errorf("middling latency: %d amber px", n)
	}
	if n := count(img, lat(2), colOn, 30) + count(img, lat(2), colGold, 30); n > 0 {
		t.Errorf("the unanswered room shows a latency colour (%d px)", n)
	}
	if n := count(img, hud.Rect{X: g.Star.X, Y: g.Rows[1].Row.Y, W: g.Star.W, H: g.Rows[1].Row.H}, colGold, 40); n < 10 {
		t.Errorf("favourite star: %d px", n)
	}
	if n := count(img, g.Search, colWhite, 30); n < 40 {
		t.Errorf("search text: %d px", n)
	}
	if n := count(img, g.SignIn, colOn, 30); n < 60 {
		t.Errorf("signed-in line: %d px", n)
	}
	// The selected first row is lit: brighter behind its text than the second.
	sel, other := px(img, int(g.Rows[0].Row.X+g.Rows[0].Row.W-4), int(g.Rows[0].Row.Y+4)), px(img, int(g.Rows[1].Row.X+g.Rows[1].Row.W-4), int(g.Rows[1].Row.Y+4))
	if luminance(sel) <= luminance(other) {
		t.Errorf("selection %v not above %v", sel, other)
	}
}

// Signed out, the sign-in line says so in amber with the command; expired,
// in the error colour.
func TestBrowserSignInScreenshots(t *testing.T) {
	v := systemView(t)
	out := browserScene(serverbrowser.SignIn{})
	img := drawBrowser(t, "browser-signed-out", v, out, 1000)
	g := out.Layout(winW, winH)
	if n := count(img, g.SignIn, colGold, 30); n < 200 {
		t.Errorf("signed-out line: %d amber px", n)
	}
	exp := browserScene(serverbrowser.SignIn{State: serverbrowser.SignInExpired})
	img = drawBrowser(t, "browser-expired", v, exp, 1000)
	if n := count(img, g.SignIn, colError, 30); n < 200 {
		t.Errorf("expired line: %d red px", n)
	}
}

// The platform's Change-host vote waiting behind the host's vote: the host
// vote keeps the window (white border), the waiting one is named under it;
// answered, the engine vote takes the window with the platform's gold
// border.
func TestChangeHostQueuedScreenshot(t *testing.T) {
	v := systemView(t)
	h := scene(t)
	h.EngineVote(hud.EngineVote{Name: hud.ChangeHostVote, ID: "v1", Starter: "Alice", Ends: 20000, Duration: 15000}, 8000)
	before := renderWith(t, "vote-without-queue", v, scene(t), 8000, winW, winH, 1, nil)
	img := renderWith(t, "changehost-queued", v, h, 8000, winW, winH, 1, nil)
	if p := px(img, voteX+1, voteY+20); p != colWhite {
		t.Fatalf("host vote border %v", p)
	}
	// One more line at the bottom of the window, in grey.
	h0 := voteBottom(before)
	h1 := voteBottom(img)
	if h1-h0 < hud.VoteLineH-2 {
		t.Fatalf("the window grew %d px, want a line for the waiting vote", h1-h0)
	}
	if n := count(img, hud.Rect{X: voteX + 5, Y: float64(h1 - 26), W: voteW - 10, H: 20}, colEmpty, 20); n < 40 {
		t.Errorf("waiting line: %d grey px", n)
	}
	h.VoteKey('0', 8100) // the host's vote closed: the engine vote shows
	if w := h.Vote.Cur; w == nil || !w.Engine {
		t.Fatalf("after exit %+v", w)
	}
	img = renderWith(t, "changehost-shown", v, h, 8100, winW, winH, 1, nil)
	if p := px(img, voteX+1, voteY+20); !near(p, colGold, 10) {
		t.Errorf("engine vote border %v", p)
	}
}

// voteBottom is the lowest row of the vote window's left border.
func voteBottom(img *image.RGBA) int {
	bottom := 0
	for y := voteY; y < winH/2; y++ {
		if p := px(img, voteX+1, y); p == colWhite || near(p, colGold, 10) {
			bottom = y
		}
	}
	return bottom
}

// The host-change screen: the game dimmed, a gold-bordered box at mid
// height.
func TestHostChangeScreenshot(t *testing.T) {
	v := systemView(t)
	h := scene(t)
	h.HostChanging("Host changing…", 8000)
	img := renderWith(t, "host-changing", v, h, 9500, winW, winH, 1, nil)
	mid := hud.Rect{X: winW/2 - 200, Y: winH*0.42 - 60, W: 400, H: 120}
	if n := count(img, mid, colGold, 20); n < 300 {
		t.Fatalf("box border: %d px", n)
	}
	if n := count(img, mid, colWhite, 30); n < 100 {
		t.Fatalf("text: %d px", n)
	}
}

// The browser draws without allocating once its texts are laid out.
func TestBrowserDrawAllocatesNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not kept under the race detector")
	}
	v := systemView(t)
	b := browserScene(serverbrowser.SignIn{State: serverbrowser.SignedIn, Nick: "Alice"})
	b.JoinStarted(serverbrowser.Choice{Name: "Native Room"}, 0)
	a, _ := drawAllocsWith(func(img *ebiten.Image) { v.DrawBrowser(img, b, 1000, 1) }, 30, nil)
	if a >= 0.5 {
		t.Fatalf("%.2f allocations per draw", a)
	}
}

// The lobby's messages as drawn: a room chosen by id joins under its name,
// the page line counts the entries the master sent that are not shown; in
// a match, a host gone quiet gets the host-change box as "Host not
// responding", and a command the master lacks says so in a notice.
func TestLobbyMessagesScreenshot(t *testing.T) {
	v := systemView(t)
	b := browserScene(serverbrowser.SignIn{State: serverbrowser.SignedIn, Nick: "Alice", Until: time.Now().Add(3 * time.Hour), From: "the stored sign-in"})
	b.Refresh()
	var gen int
	for _, r := range b.Requests() {
		if r.Kind == serverbrowser.RequestRooms {
			gen = r.Gen
		}
	}
	b.SetRooms(gen, 0, 5, []serverbrowser.Room{{ID: "r1", Name: "Native Room", GameID: "tanks", MapName: "arena", Players: 3, MaxPlayers: 8, Region: "eu"}}, nil)
	b.SetUnshown(gen, 2, "entries this client cannot read")
	b.JoinStarted(serverbrowser.Choice{Kind: hostlist.Lobby, Address: "http://127.0.0.1:3002", Room: "r1", Name: "r1"}, 900)
	if b.Status != "Joining Native Room…" {
		t.Fatalf("status %q", b.Status)
	}
	img := drawBrowser(t, "browser-lobby-messages", v, b, 1000)
	g := b.Layout(winW, winH)
	if n := count(img, g.Status, colGold, 40); n < 60 { // the joining line is amber
		t.Errorf("status line: %d px", n)
	}
	if n := count(img, g.Pages, colWhite, 60) + count(img, g.Pages, colChatText, 40); n < 120 {
		t.Errorf("page line: %d px", n)
	}

	h := scene(t)
	h.HostStalled("Host not responding", 8000)
	h.Notice("/changehost: this master has no host vote (its rooms end with their host); /like and /unlike rate the host instead", hud.NoticeError)
	img = renderWith(t, "host-not-responding", v, h, 9000, winW, winH, 1, nil)
	mid := hud.Rect{X: winW/2 - 200, Y: winH*0.42 - 60, W: 400, H: 120}
	if n := count(img, mid, colGold, 20); n < 300 {
		t.Fatalf("box border: %d px", n)
	}
}
