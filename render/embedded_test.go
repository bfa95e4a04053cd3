package render

import (
	"context"
	"image/color"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"vimpclient/gameloop"
	"vimpclient/host"
	"vimpclient/session"
)

// loopGame runs the client's game loop and draws its world: the window
// without its HUD and chores.
type loopGame struct {
	loop *gameloop.Loop
	r    *Renderer
}

func (g *loopGame) Update() error {
	g.loop.Tick(time.Now())
	g.r.Poll()
	return nil
}

func (g *loopGame) Draw(screen *ebiten.Image) {
	screen.Fill(color.Black)
	g.r.Draw(screen, g.loop.World(), 1)
}

func (g *loopGame) LayoutF(w, h float64) (float64, float64) {
	if ww, wh := g.loop.World().Size(); ww != w || wh != h {
		g.loop.World().Resize(w, h)
	}
	return w, h
}

// Against the embedded host, as a new player sees it: the local tank is
// drawn where the main canvas projects the camera point (the live tank's
// position; the view is kept inside the map, so near an edge that is not
// the screen centre) in its team colour, map tiles from the host's
// sprite sheet fill the view, and the radar shows in its corner.
func TestWindowEmbeddedHost(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv, err := host.Start(ctx, host.Config{Addr: "127.0.0.1:0", Bots: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		cancel()
		<-srv.Done()
	}()
	sess := session.New(session.Options{Auth: session.AuthValues{GuestNick: "Viewer"}, AutoTeam: true})
	r := New(ctx, Options{Assets: testAssets(t, srv.URL()+"/games/tanks/")})
	loop := gameloop.New(gameloop.Options{Session: sess, Start: time.Now(), Textures: r.Textures(), AutoTeam: true,
		Width: winW, Height: winH})
	runner := &session.Runner{Session: sess, Addr: srv.URL(), Client: http.DefaultClient, OnTarget: loop.SetTarget}
	go runner.Run(ctx)
	g := &loopGame{loop: loop, r: r}
	px := make([]byte, winW*winH*4)
	var settled int
	var team int
	var tankX, tankY float64 // the camera point on screen when px was read
	tankSeen := false
	deadline := time.Now().Add(90 * time.Second)
	runUntil(t, g, 1<<30, func(screen *ebiten.Image, frame int) {
		core := loop.Core()
		if sess.Stats().Furthest != session.StatePlaying || core == nil {
			return
		}
		if _, loading := r.Loading(); loading {
			return
		}
		my, ok := core.MyGameID()
		if !ok {
			return
		}
		team = loop.World().Team(uint32(my))
		if team == 0 {
			return // still a spectator, or the tank is not drawn yet
		}
		if settled++; settled == 120 { // two seconds of play: the camera has settled on the idle tank
			screen.ReadPixels(px)
			tankX, tankY, tankSeen = cameraOnScreen(loop.World(), "vimp")
			if d := os.Getenv("RENDER_SHOT_DIR"); d != "" {
				writeTestPNG(t, screen, filepath.Join(d, "tanks-embedded-host.png"))
			}
		}
	}, func() bool { return settled > 121 || time.Now().After(deadline) })
	if settled <= 120 {
		t.Fatalf("never played with a tank (state %v, frames settled %d)", sess.Stats().Furthest, settled)
	}
	want := color.RGBA{0x55, 0x22, 0x22, 255}
	if team == 2 {
		want = color.RGBA{0x22, 0x55, 0x22, 255}
	}
	if !tankSeen {
		t.Fatal("no camera point on the main canvas")
	}
	tx, ty := int(math.Round(tankX)), int(math.Round(tankY))
	if !around(px, tx, ty, 3, func(c color.RGBA) bool { return near(c, want.R, want.G, want.B, 12) }) {
		t.Errorf("tank at %d,%d shows %v, want the local tank (team %d) colour %v", tx, ty, pixel(px, tx, ty), team, want)
	}
	// Tiles fill the view: wherever a sample point lies on the map, it shows
	// a tile, never the #222 canvas background; off the map the canvas shows.
	mw, mh := loop.World().Map().WorldSize()
	bare, onMap, offMap := 0, 0, 0
	for y := 10; y < winH; y += 40 {
		for x := 10; x < winW-170; x += 40 {
			wx, wy, ok := loop.World().ScreenToWorld(float64(x), float64(y))
			c := pixel(px, x, y)
			switch {
			case !ok:
				t.Fatal("no world point")
			case wx > 1 && wy > 1 && wx < mw-1 && wy < mh-1:
				onMap++
				if near(c, 0x22, 0x22, 0x22, 3) || near(c, 0, 0, 0, 3) {
					bare++
				}
			case wx < -1 || wy < -1 || wx > mw+1 || wy > mh+1:
				offMap++
				if !near(c, 0x22, 0x22, 0x22, 3) {
					t.Errorf("off-map point %d,%d shows %v, want the #222 canvas", x, y, c)
				}
			}
		}
	}
	if onMap < 50 || bare > 0 {
		t.Errorf("%d of %d on-map sample points show no tile (%d off the map)", bare, onMap, offMap)
	}
	rx, ry := int(math.Floor(float64(winW)*0.99-75)), 35+75
	if c := pixel(px, rx+30, ry+40); !(c.G > 100 && c.G > c.R+40) {
		t.Errorf("radar %v, want its green disc top-right", c)
	}
}
