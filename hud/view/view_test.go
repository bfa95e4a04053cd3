package view

import (
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"vimpclient/fonts"
	"vimpclient/hud"
	"vimpclient/protocol"
	"vimpclient/testkit/capturetest"
)

// The window tests need a display (run them under xvfb-run). Ebiten must own
// the main thread, so TestMain runs the game loop and the tests hand it
// closures to run inside Update, where reading pixels is allowed.

var onMain = make(chan func())

type testGame struct {
	m       *testing.M
	code    int
	started bool
	done    chan struct{}
}

func (g *testGame) Update() error {
	if !g.started {
		g.started = true
		go func() {
			g.code = g.m.Run()
			close(g.done)
		}()
	}
	for {
		select {
		case f := <-onMain:
			f()
		case <-g.done:
			return ebiten.Termination
		default:
			return nil
		}
	}
}

func (g *testGame) Draw(*ebiten.Image)         {}
func (g *testGame) Layout(int, int) (int, int) { return 64, 64 }

func TestMain(m *testing.M) {
	g := &testGame{m: m, done: make(chan struct{})}
	ebiten.SetWindowSize(64, 64)
	ebiten.SetRunnableOnUnfocused(true)
	if err := ebiten.RunGame(g); err != nil {
		panic(err)
	}
	os.Exit(g.code)
}

func runOnMain(f func()) {
	done := make(chan struct{})
	onMain <- func() {
		defer close(done)
		f()
	}
	<-done
}

const winW, winH = 1280, 800

// render draws h at now onto a fresh winW×winH image (times scale) with a
// new view and returns its pixels.
func render(t *testing.T, name string, h *hud.HUD, now, scale float64) *image.RGBA {
	t.Helper()
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
	return renderWith(t, name, v, h, now, winW*scale, winH*scale, scale, nil)
}

// renderWith draws h at now with v onto a fresh w×ht device-pixel image
// (offscreen, so larger than the test display is fine), then runs after on
// it, and returns its pixels; VIMP_SCREENSHOTS names a directory to keep
// them in as PNGs.
func renderWith(t *testing.T, name string, v *View, h *hud.HUD, now, w, ht, scale float64, after func(*ebiten.Image)) *image.RGBA {
	t.Helper()
	var out *image.RGBA
	runOnMain(func() {
		img := ebiten.NewImage(int(w), int(ht))
		img.Fill(color.RGBA{0x22, 0x22, 0x22, 255}) // stands in for the world
		v.Draw(img, h, now, scale)
		if after != nil {
			after(img)
		}
		out = image.NewRGBA(image.Rect(0, 0, int(w), int(ht)))
		img.ReadPixels(out.Pix)
		img.Deallocate()
	})
	if out == nil {
		t.FailNow()
	}
	if dir := os.Getenv("VIMP_SCREENSHOTS"); dir != "" {
		f, err := os.Create(filepath.Join(dir, name+".png"))
		if err == nil {
			_ = png.Encode(f, out)
			_ = f.Close()
		}
	}
	return out
}

// systemView is a view with the system fonts behind the bundled ones,
// returned once they are indexed.
func systemView(t testing.TB) *View {
	t.Helper()
	var v *View
	runOnMain(func() {
		var err error
		if v, err = NewWithOptions(Options{Fonts: fonts.Options{System: true}}); err != nil {
			t.Error(err)
		}
	})
	if v == nil {
		t.FailNow()
	}
	<-v.Fonts().SystemReady()
	runOnMain(v.Fonts().Poll)
	return v
}

// feed replays conn's server messages up to untilMs into a new HUD.
func feed(t *testing.T, file, conn string, untilMs float64) *hud.HUD {
	t.Helper()
	h := hud.New("127.0.0.1:8090", "minigame", nil)
	for _, l := range capturetest.Load(t, file) {
		if l.Conn != conn || l.Dir != "s2c" || l.Ms > untilMs || l.Port == protocol.Ping || l.Port == protocol.ShotData {
			continue
		}
		v, err := protocol.DecodePayload(l.Port, l.Payload)
		if err != nil {
			t.Fatal(err)
		}
		h.Update(l.Ms)
		h.Handle(v, l.Ms)
	}
	h.Update(untilMs)
	return h
}

func px(img *image.RGBA, x, y int) color.RGBA {
	o := img.PixOffset(x, y)
	return color.RGBA{img.Pix[o], img.Pix[o+1], img.Pix[o+2], img.Pix[o+3]}
}

func near(a, b color.RGBA, tol int) bool {
	d := func(x, y uint8) int {
		if x > y {
			return int(x - y)
		}
		return int(y - x)
	}
	return d(a.R, b.R) <= tol && d(a.G, b.G) <= tol && d(a.B, b.B) <= tol
}

// count counts pixels in r within tol of c.
func count(img *image.RGBA, r hud.Rect, c color.RGBA, tol int) int {
	n := 0
	for y := int(r.Y); y < int(r.Y+r.H); y++ {
		for x := int(r.X); x < int(r.X+r.W); x++ {
			if near(px(img, x, y), c, tol) {
				n++
			}
		}
	}
	return n
}

func TestAuthFormScreenshot(t *testing.T) {
	h := feed(t, "minigame-dedicated.jsonl", "A", 31) // AUTH_DATA shown, not yet answered
	h.Tech.Receive(protocol.TechInform{Hide: true})
	if h.Auth == nil {
		t.Fatal("no form")
	}
	img := render(t, "auth", h, 100, 1)
	g := h.Auth.Layout(winW, winH)
	if c := px(img, 2, 2); c != (color.RGBA{0x22, 0x22, 0x22, 255}) {
		t.Fatalf("page %v", c)
	}
	if n := count(img, g.Title, colWhite, 40); n < 100 {
		t.Fatalf("title text: %d white pixels", n)
	}
	if len(g.Rows) != 1 {
		t.Fatalf("rows %d", len(g.Rows))
	}
	// The name field is focused: a #099 border; Start is not.
	c := g.Rows[0].Control
	if p := px(img, int(c.X+c.W/2), int(c.Y)); !near(p, colCmdBorder, 10) {
		t.Fatalf("focused border %v", p)
	}
	if p := px(img, int(g.Start.X+10), int(g.Start.Y+g.Start.H/2)); !near(p, rgb(0, 0x66, 0x66), 10) {
		t.Fatalf("start %v", p)
	}
	if n := count(img, g.Sections[0], rgb(0x44, 0x44, 0x44), 4); n < 1000 {
		t.Fatalf("help section: %d", n)
	}
	// A rejected nick shows on the field, in red.
	h.Auth.Type([]rune("Bob"))
	h.SubmitAuth()
	verdict, _ := protocol.ParseAuthResult([]byte(`[{"name":"name","error":"not valid"}]`))
	h.Handle(verdict, 200)
	img = render(t, "auth-error", h, 200, 1)
	g = h.Auth.Layout(winW, winH)
	if n := count(img, g.Errors, colError, 30); n < 30 {
		t.Fatalf("error area: %d red pixels", n)
	}
	if n := count(img, g.Rows[0].Label, colError, 30); n < 20 {
		t.Fatalf("field error: %d red pixels", n)
	}
}

// scene is two-clients B at 8 s: panel, chat lines both ways, the
// mapChangeByUser vote open.
func scene(t *testing.T) *hud.HUD {
	h := feed(t, "minigame-two-clients.jsonl", "B", 8000)
	if h.Vote.Cur == nil || h.Vote.Cur.Name != "mapChangeByUser" {
		t.Fatalf("vote %+v", h.Vote.Cur)
	}
	return h
}

func TestPanelChatVoteScreenshot(t *testing.T) {
	h := scene(t)
	img := render(t, "panel-chat-vote", h, 8000, 1)
	// Panel: the game's dark strip to the right edge (never white), the
	// energy bar (10 blocks, full) in its colours.
	if p := px(img, winW-2, 12); !near(p, colPage, 6) {
		t.Fatalf("strip %v", p)
	}
	first := hud.BarColor(0, 10)
	last := hud.BarColor(9, 10)
	if n := count(img, hud.Rect{W: winW, H: 24}, color.RGBA{first[0], first[1], first[2], 255}, 3); n < 50 {
		t.Fatalf("first bar block: %d", n)
	}
	if n := count(img, hud.Rect{W: winW, H: 24}, color.RGBA{last[0], last[1], last[2], 255}, 3); n < 50 {
		t.Fatalf("last bar block: %d", n)
	}
	// Chat: red System names and team-1 player names near the bottom.
	chat := hud.Rect{X: 0, Y: winH - 200, W: winW, H: 160}
	if n := count(img, chat, colSystem, 40); n < 30 {
		t.Fatalf("system names: %d", n)
	}
	if n := count(img, chat, colTeam1, 30); n < 30 {
		t.Fatalf("player names: %d", n)
	}
	// Vote: white border, translucent blue over the world, white text inside.
	if p := px(img, voteX+1, voteY+20); p != colWhite {
		t.Fatalf("vote border %v", p)
	}
	want := color.RGBA{uint8(0x22/2 + 3/2), uint8(0x22/2 + 100/2), uint8(0x22/2 + 155/2), 255}
	if p := px(img, voteX+voteW-10, voteY+10); !near(p, want, 3) {
		t.Fatalf("vote fill %v, want %v", p, want)
	}
	if n := count(img, hud.Rect{X: voteX + 5, Y: voteY + 5, W: voteW - 10, H: 100}, colWhite, 30); n < 150 {
		t.Fatalf("vote text %d", n)
	}
	// The command line opens with a #099 border.
	h.OpenMode(1, 8000) // input.ModeChat
	h.ChatText([]rune("typed"))
	img = render(t, "chat-open", h, 8000, 1)
	if n := count(img, hud.Rect{Y: winH - 40, W: winW, H: 40}, colCmdBorder, 30); n < 500 {
		t.Fatalf("command line border %d", n)
	}
}

func TestScoreboardScreenshot(t *testing.T) {
	h := scene(t)
	h.Stat.Visible = true
	img := render(t, "scoreboard", h, 8000, 1)
	bx := (winW - 550) / 2
	if p := px(img, bx+1, 60); p != colWhite {
		t.Fatalf("border %v", p)
	}
	box := hud.Rect{X: float64(bx + 5), Y: 35, W: 540, H: 200}
	if n := count(img, box, colTeam1, 30); n < 40 {
		t.Fatalf("team1 rows: %d", n)
	}
	bg := color.RGBA{25, 25, 25, 255}
	if p := px(img, bx+540, 60); !near(p, bg, 3) {
		t.Fatalf("background %v want %v", p, bg)
	}
	// The box is as tall as its lines: 10 px above and below them, 18 px
	// a line (the labels, each table's head and rows, 4 px between tables).
	lines, gaps := 1, 0
	for _, tb := range h.Stat.Tables {
		lines += 1 + len(tb.Rows)
		gaps++
	}
	wantH := 20 + 18*lines + 4*gaps
	bottom := 60
	for bottom < winH && px(img, bx+1, bottom) == colWhite {
		bottom++
	}
	if top := 30; bottom-top < wantH-2 || bottom-top > wantH+2 {
		t.Fatalf("scoreboard %d px tall, want %d (its lines)", bottom-top, wantH)
	}
}

func TestTechAndGameInformScreenshot(t *testing.T) {
	h := scene(t)
	h.Handle(protocol.Inform{Code: 1}, 8000)
	img := render(t, "game-inform", h, 8000+hud.GameInformAnimMs, 1)
	if n := count(img, hud.Rect{X: 300, Y: 230, W: 680, H: 60}, colWhite, 10); n < 300 {
		t.Fatalf("informer text %d", n)
	}
	h.Handle(protocol.TechInform{Inform: protocol.Inform{Code: 2}}, 8000)
	img = render(t, "tech", h, 8000, 1)
	if p := px(img, winW/2, winH/2); p != colBlack {
		t.Fatalf("black screen %v", p)
	}
	if n := count(img, hud.Rect{X: 5, Y: 5, W: 200, H: 30}, colWhite, 40); n < 50 {
		t.Fatalf("loading text %d", n)
	}
}

// TestSharpAtScale draws the same scene at device scale 2: geometry doubles
// and text keeps fully opaque cores (made at the device size, not scaled up).
func TestSharpAtScale(t *testing.T) {
	h := scene(t)
	h.Stat.Visible = true
	one := render(t, "scale1", h, 8000, 1)
	two := render(t, "scale2", h, 8000, 2)
	if p := px(two, 2*(voteX+1), 2*(voteY+20)); p != colWhite {
		t.Fatalf("vote border at 2x %v", p)
	}
	r1 := hud.Rect{X: voteX + 5, Y: voteY + 5, W: voteW - 10, H: 100}
	r2 := hud.Rect{X: r1.X * 2, Y: r1.Y * 2, W: r1.W * 2, H: r1.H * 2}
	n1, n2 := count(one, r1, colWhite, 0), count(two, r2, colWhite, 0)
	if n2 < 3*n1 {
		t.Fatalf("opaque text pixels at 1x %d, at 2x %d: not drawn at device size", n1, n2)
	}
}

// richScene is the busy scene (panel, chat, vote, informer, notices,
// banner) with the scoreboard and its leaderboard open and chat lines in
// Japanese, Hebrew and with an emoji.
func richScene(t *testing.T) *hud.HUD {
	h := busyScene(t, winW)
	for _, line := range []string{"こんにちは日本語", "Hello שלום עולם", "hi 👋 there"} {
		h.Handle(protocol.Chat{Kind: protocol.ChatPlayer, Text: line, Author: "Alice", Team: 1}, 8000)
	}
	h.Stat.Visible = true
	h.Update(8000 + hud.GameInformAnimMs)
	return h
}

// drawAllocs draws h every game-loop frame (Ebiten flushes its command
// queue in between, as in play) and counts the allocations of the draws
// alone, after warming the caches (then it calls warm, when given); it
// returns the average allocations and nanoseconds per draw.
func drawAllocs(v *View, h *hud.HUD, now float64, frames int, warm func()) (allocs, ns float64) {
	return drawAllocsWith(func(img *ebiten.Image) { v.Draw(img, h, now, 1) }, frames, warm)
}

// drawAllocsWith is drawAllocs for any drawing onto a winW×winH image.
func drawAllocsWith(drawOn func(img *ebiten.Image), frames int, warm func()) (allocs, ns float64) {
	var img *ebiten.Image
	runOnMain(func() { img = ebiten.NewImage(winW, winH) })
	draw := func() { drawOn(img) }
	for i := 0; i < 30; i++ { // the caches, and Ebiten's command buffers, reach their size
		runOnMain(draw)
	}
	if warm != nil {
		warm()
	}
	var ms runtime.MemStats
	var own uint64
	var took time.Duration
	measured := func() {
		runtime.ReadMemStats(&ms)
		before := ms.Mallocs
		start := time.Now()
		draw()
		took += time.Since(start)
		runtime.ReadMemStats(&ms)
		own += ms.Mallocs - before
	}
	for i := 0; i < frames; i++ {
		runOnMain(measured)
	}
	runOnMain(img.Deallocate)
	return float64(own) / float64(frames), float64(took.Nanoseconds()) / float64(frames)
}

// The text caches keep steady drawing allocation-free: a scene with every
// overlay and text in three scripts draws without allocating.
func TestSteadyDrawAllocatesNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not kept under the race detector")
	}
	v := systemView(t)
	v.SetNetGraph(false, 0, 0)
	h := richScene(t)
	if a, _ := drawAllocs(v, h, 8000+hud.GameInformAnimMs, 30, nil); a >= 0.5 {
		t.Fatalf("%.2f allocations per draw", a)
	}
}

// BenchmarkDraw draws the rich scene, one draw per game-loop frame so
// Ebiten flushes its command queue in between as it does in play. The
// allocation figures include the hand-over to the loop; draw-allocs/op
// counts the draws alone.
func BenchmarkDraw(b *testing.B) {
	v := systemView(b)
	h := richScene(&testing.T{})
	b.ReportAllocs()
	a, ns := drawAllocs(v, h, 8000+hud.GameInformAnimMs, b.N, b.ResetTimer)
	b.StopTimer()
	b.ReportMetric(a, "draw-allocs/op")
	b.ReportMetric(ns, "draw-ns/op")
}

// A name the chat gave a colour (a game that colours its nicknames) is
// drawn in it on the scoreboard; before that line it is the team's.
func TestScoreboardNameColour(t *testing.T) {
	h := scene(t)
	h.Stat.Visible = true
	if len(h.Stat.Tables) == 0 || len(h.Stat.Tables[0].Rows) == 0 || len(h.Stat.Tables[0].Rows[0].Cells) == 0 {
		t.Fatal("no scoreboard row")
	}
	name := h.Stat.Tables[0].Rows[0].Cells[0]
	green := color.RGBA{0, 255, 0, 255}
	bx := (winW - 550) / 2
	box := hud.Rect{X: float64(bx + 5), Y: 35, W: 540, H: 200}
	if n := count(render(t, "scoreboard-plain", h, 8000, 1), box, green, 40); n != 0 {
		t.Fatalf("%d green px before any coloured line", n)
	}
	h.Handle(protocol.Chat{Kind: protocol.ChatPlayer, Text: "hi", Author: name, Team: 1, NameColor: "#00ff00"}, 8000)
	h.Stat.Visible = true
	if n := count(render(t, "scoreboard-coloured", h, 8000, 1), box, green, 40); n < 15 {
		t.Fatalf("%d green px for %q's coloured name", n, name)
	}
}

// At 1280 wide the rejection of a too-short name, with the rule it breaks,
// is drawn whole: wrapped into lines that each fit the card.
func TestAuthRejectionWrapsAt1280(t *testing.T) {
	h := feed(t, "minigame-dedicated.jsonl", "A", 31)
	if h.Auth == nil {
		t.Fatal("no form")
	}
	h.Auth.Type([]rune("A"))
	h.SubmitAuth()
	v := systemView(t)
	v.s = 1 // drawn at scale 1, as a Draw at scale 1 sets
	var lines []string
	var g hud.AuthGeom
	runOnMain(func() {
		h.Auth.WrapErrors(v, 1280)
		lines = append(lines, h.Auth.ErrorLines()...)
		g = h.Auth.Layout(1280, 720)
	})
	if len(lines) < 2 || !strings.HasSuffix(strings.Join(lines, " "), "a letter first, no space or # last") {
		t.Fatalf("lines %q", lines)
	}
	for _, l := range lines {
		if w := v.textW(l, false, authSmall+2); w > g.Errors.W {
			t.Errorf("%q is %.0f px wide, the card has %.0f", l, w, g.Errors.W)
		}
	}
	if g.Errors.H != float64(len(lines))*hud.AuthErrorH {
		t.Fatalf("error area %v for %d lines", g.Errors, len(lines))
	}
}

// Nothing under the scoreboard shows through it: over a white world its
// background is as dark as over a dark one.
func TestScoreboardIsOpaque(t *testing.T) {
	h := scene(t)
	h.Stat.Visible = true
	var v *View
	var p color.RGBA
	runOnMain(func() {
		var err error
		if v, err = New(); err != nil {
			t.Error(err)
			return
		}
		img := ebiten.NewImage(winW, winH)
		img.Fill(colWhite) // the brightest world, or a banner's text
		v.Draw(img, h, 8000, 1)
		out := image.NewRGBA(image.Rect(0, 0, winW, winH))
		img.ReadPixels(out.Pix)
		p = px(out, (winW-550)/2+540, 60)
	})
	if want := (color.RGBA{25, 25, 25, 255}); !near(p, want, 3) {
		t.Fatalf("scoreboard background over white %v, want %v", p, want)
	}
}

// A timed vote's time bar sits inside the box, clear of its border: the
// bottom edge is the border's 3 px, not a thicker white bar.
func TestVoteTimeBarClearOfBorder(t *testing.T) {
	h := scene(t) // a timed host vote open
	h.Vote.OpenMenu(8000)
	if h.Vote.Cur == nil || !h.Vote.Cur.Menu || h.Vote.Cur.TimeOff {
		t.Fatalf("menu %+v", h.Vote.Cur)
	}
	img := render(t, "vote-bar", h, 8000, 1)
	x := int(voteX + voteW/2)
	bottom := winH - 1
	for bottom > 0 && !near(px(img, x, bottom), colWhite, 40) {
		bottom--
	}
	run := 0
	for y := bottom; y > 0 && near(px(img, x, y), colWhite, 40); y-- {
		run++
	}
	if run < 2 || run > 4 {
		t.Fatalf("%d white px at the box's bottom edge (x %d, y %d): want the 3 px border alone", run, x, bottom)
	}
	// The bar is still there, above the border.
	if n := count(img, hud.Rect{X: voteX + 8, Y: float64(bottom - 12), W: voteW - 16, H: 8}, colChatText, 10); n < 20 {
		t.Fatalf("time bar: %d px", n)
	}
}
