package main

import (
	"context"
	"io"
	"log/slog"
	"math"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"vimpclient/gameloop"
	"vimpclient/host"
	"vimpclient/protocol"
	"vimpclient/session"
)

// TestEmbeddedHostTwoClients plays two headless game loops against the
// embedded host, over its WebSocket, until both see each other's tank and
// the first one's forward key has moved its own tank; every frame received
// must decode. The deadline only bounds a failure.
func TestEmbeddedHostTwoClients(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	srv, err := host.Start(ctx, host.Config{Addr: "127.0.0.1:0", Bots: 0, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	var (
		seesOther [2]atomic.Bool
		moved     atomic.Bool
		distance  atomic.Value
	)
	done := func() bool { return seesOther[0].Load() && seesOther[1].Load() && moved.Load() }
	play, playCancel := context.WithCancel(ctx)
	defer playCancel()
	loops := make([]*gameloop.Loop, 2)
	ents := make([]*gameloop.Entities, 2)
	var wg sync.WaitGroup
	for i, nick := range []string{"Alice", "Bob"} {
		sess := session.New(session.Options{Auth: session.AuthValues{Nick: nick}, AutoTeam: true, Logger: quiet})
		runner := &session.Runner{Session: sess, Addr: srv.URL(), Client: http.DefaultClient}
		e := gameloop.NewEntities()
		g := gameloop.New(gameloop.Options{Session: sess, Log: quiet, Start: time.Now(), AutoTeam: true, Observer: e})
		var pressed bool
		var start [2]float32
		e.OnTick = func(g *gameloop.Loop, now time.Time) {
			if e.Count("m1") >= 2 {
				seesOther[i].Store(true)
			}
			if i == 0 && sess.Stats().Player && g.Core() != nil {
				p, ok := g.Core().LastPlayer()
				switch {
				case !ok:
				case !pressed:
					// The key goes through the input controller, as a
					// player's or a script's does.
					if g.Controller().Command(protocol.KeyDown, "forward", g.NowMs()) {
						pressed, start = true, [2]float32{p.State[0], p.State[1]}
					}
				default:
					d := math.Hypot(float64(p.State[0]-start[0]), float64(p.State[1]-start[1]))
					distance.Store(d)
					if d > 30 {
						moved.Store(true)
					}
				}
			}
			if done() {
				playCancel()
			}
		}
		loops[i], ents[i] = g, e
		wg.Add(1)
		go func() {
			defer wg.Done()
			gameloop.RunHeadless(play, g, runner.Run, 60, nil)
		}()
	}
	wg.Wait()
	if !done() {
		t.Fatalf("timed out: sees other %v/%v, moved %v (%v units)", seesOther[0].Load(), seesOther[1].Load(), moved.Load(), distance.Load())
	}
	for i, g := range loops {
		s := gameloop.Summarize(g, ents[i], 0)
		if s.State != "playing" || !s.Player {
			t.Errorf("client %d: state %q player %v", i, s.State, s.Player)
		}
		if s.Frames.Received == 0 || s.Frames.Dropped != 0 {
			t.Errorf("client %d: frames %+v", i, s.Frames)
		}
		if s.Prediction == nil || (i == 0 && s.Prediction.Samples == 0) {
			t.Errorf("client %d: the tanks prediction did not run: %+v", i, s.Prediction)
		}
	}
}
