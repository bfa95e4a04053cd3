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

	"vimpclient/clientcore"
	"vimpclient/host"
	"vimpclient/protocol"
	"vimpclient/session"
)

// hostSource is a minimal wiring: the session's events go to the core and
// the world on the game loop, as the client does.
type hostSource struct {
	t      testing.TB
	sess   *session.Session
	core   *clientcore.Core
	events []session.Event
	state  session.State
}

func (s *hostSource) Pump(now float64, w *World) {
	s.events = s.sess.Queue().Drain(s.events[:0])
	for _, e := range s.events {
		switch e.Kind {
		case session.EventState:
			s.state = e.State
		case session.EventFrame:
			if s.core != nil {
				s.core.PushFrame(e.Data, now)
			}
		case session.EventMessage:
			switch v := e.Value.(type) {
			case *protocol.Config:
				schema, err := clientcore.ParseSchema(v.Snapshot)
				if err != nil {
					s.t.Errorf("schema: %v", err)
					continue
				}
				s.core = clientcore.New(schema, clientcore.Options{Delay: v.Interpolation.Delay, MaxFrameAge: v.Interpolation.MaxFrameAge})
				if err := w.SetConfig(v.Raw); err != nil {
					s.t.Errorf("config: %v", err)
				}
				w.SetCore(s.core)
			case *protocol.MapInfo:
				if s.core != nil {
					s.core.SetMap()
				}
				if err := w.SetMap(v.Raw); err != nil {
					s.t.Errorf("map: %v", err)
				}
			case *protocol.FirstShot:
				_ = w.ApplyFirstShot(v.Game, v.Camera)
			case protocol.ClearScope:
				w.Clear(v.Sets, v.Full)
				if s.core != nil {
					s.core.Reset()
				}
			}
		}
	}
}

// Against the embedded host, as a new player sees it: the local tank is
// drawn at the screen centre in its team colour, map tiles from the host's
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
	runner := &session.Runner{Session: sess, Addr: srv.URL(), Client: http.DefaultClient}
	go runner.Run(ctx)
	src := &hostSource{t: t, sess: sess}
	shot := filepath.Join(t.TempDir(), "host.png")
	if d := os.Getenv("RENDER_SHOT_DIR"); d != "" {
		shot = filepath.Join(d, "tanks-embedded-host.png")
	}
	g, err := NewGame(ctx, Options{GameID: "tanks", AssetsBase: srv.URL() + "/games/tanks/", CacheDir: "-"}, src)
	if err != nil {
		t.Fatal(err)
	}
	px := make([]byte, winW*winH*4)
	var settled int
	var team int
	deadline := time.Now().Add(90 * time.Second)
	runUntil(t, g, 1<<30, func(screen *ebiten.Image, frame int) {
		if src.state != session.StatePlaying || src.core == nil {
			return
		}
		if _, loading := g.world.tex.progress(); loading {
			return
		}
		my, ok := src.core.MyGameID()
		if !ok {
			return
		}
		team = g.world.localTeam(uint32(my))
		if team == 0 {
			return // still a spectator, or the tank is not drawn yet
		}
		if settled++; settled == 120 { // two seconds of play: the camera has settled on the idle tank
			screen.ReadPixels(px)
			g.pending = shot
		}
	}, func() bool { return settled > 121 || time.Now().After(deadline) })
	if settled <= 120 {
		t.Fatalf("never played with a tank (state %v, frames settled %d)", src.state, settled)
	}
	want := color.RGBA{0x55, 0x22, 0x22, 255}
	if team == 2 {
		want = color.RGBA{0x22, 0x55, 0x22, 255}
	}
	if !around(px, winW/2, winH/2, 3, func(c color.RGBA) bool { return near(c, want.R, want.G, want.B, 12) }) {
		t.Errorf("centre %v, want the local tank (team %d) colour %v", pixel(px, winW/2, winH/2), team, want)
	}
	// Tiles fill the view: wherever a sample point lies on the map, it shows
	// a tile, never the #222 canvas background; off the map the canvas shows.
	mw, mh := g.world.lastMap.WorldSize()
	bare, onMap, offMap := 0, 0, 0
	for y := 10; y < winH; y += 40 {
		for x := 10; x < winW-170; x += 40 {
			wx, wy, ok := g.world.ScreenToWorld(float64(x), float64(y))
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
