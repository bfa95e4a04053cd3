package main

import (
	"context"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"sync"
	"testing"
	"time"

	"vimpclient/clientcore"
	"vimpclient/gameloop"
	"vimpclient/host"
	"vimpclient/protocol"
	"vimpclient/session"
)

// delayingProxy relays TCP to target, holding every chunk 50–150 ms (drawn
// per chunk) while keeping the order of each direction, as a jittery network
// would.
func delayingProxy(t *testing.T, ctx context.Context, target string, seed uint64) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	context.AfterFunc(ctx, func() { ln.Close() })
	var mu sync.Mutex
	rng := rand.New(rand.NewPCG(seed, 7))
	delay := func() time.Duration {
		mu.Lock()
		defer mu.Unlock()
		return 50*time.Millisecond + time.Duration(rng.IntN(101))*time.Millisecond
	}
	pipe := func(dst, src net.Conn) {
		type chunk struct {
			b  []byte
			at time.Time
		}
		q := make(chan chunk, 4096)
		go func() {
			defer dst.Close()
			for c := range q {
				time.Sleep(time.Until(c.at)) // the simulated network delay itself
				if _, err := dst.Write(c.b); err != nil {
					return
				}
			}
		}()
		var last time.Time
		buf := make([]byte, 64<<10)
		for {
			n, err := src.Read(buf)
			if n > 0 {
				at := time.Now().Add(delay())
				if at.Before(last) {
					at = last // order is kept: a chunk never overtakes the one before
				}
				last = at
				q <- chunk{append([]byte(nil), buf[:n]...), at}
			}
			if err != nil {
				close(q)
				return
			}
		}
	}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			u, err := net.Dial("tcp", target)
			if err != nil {
				c.Close()
				continue
			}
			go pipe(u, c)
			go pipe(c, u)
		}
	}()
	return ln.Addr().String()
}

// TestPredictionThroughDelayingProxy drives the local tank straight against
// the embedded host through a 50–150 ms jittering proxy: the predicted tank
// moves on the frame after the key, and the prediction error stays under 2
// world units at p95 with no snaps.
func TestPredictionThroughDelayingProxy(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	srv, err := host.Start(ctx, host.Config{Addr: "127.0.0.1:0", Bots: 0, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	proxy := delayingProxy(t, ctx, srv.URL()[len("http://"):], 1)
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	sess := session.New(session.Options{Auth: session.AuthValues{Nick: "Driver"}, AutoTeam: true, Team: "team1", Logger: quiet})
	runner := &session.Runner{Session: sess, Addr: "http://" + proxy, Origin: srv.URL(), Client: http.DefaultClient}
	obs := gameloop.NewEntities()
	g := gameloop.New(gameloop.Options{Session: sess, Log: quiet, Start: time.Now(), AutoTeam: true, Observer: obs})
	play, stop := context.WithCancel(ctx)
	defer stop()
	var (
		pressed, responded, checked bool
		before                      float32
		samplesAtPress              uint64
		pressedAt                   time.Time
	)
	// The predicted tank must have moved in the first sample taken one 60 Hz
	// frame or more after the key (the loop also ticks on every event,
	// sooner than a prediction step).
	const frame = time.Second / 60
	ownX := func(g *gameloop.Loop) (float32, bool) {
		id, ok := g.Core().MyGameID()
		if !ok {
			return 0, false
		}
		for _, r := range g.World().Hot().Tail {
			if r.Key() == "m1" && r.ID == uint32(id) {
				b := clientcore.NewBinder(r.Schema)
				x, y := b.Require("x"), b.Require("y")
				return x.Get(r.Fields) + y.Get(r.Fields), true // any movement changes x+y
			}
		}
		return 0, false
	}
	samples := func(g *gameloop.Loop) uint64 {
		r, _ := g.Core().Prediction()
		return r.Summary.Samples
	}
	obs.OnTick = func(g *gameloop.Loop, now time.Time) {
		if g.Core() == nil || !sess.Stats().Player {
			return
		}
		if _, ok := g.Core().Prediction(); !ok {
			return
		}
		pos, predicted := ownX(g)
		switch {
		case !pressed && predicted:
			if g.Controller().Command(protocol.KeyDown, "forward", g.NowMs()) {
				pressed, before, pressedAt = true, pos, now
				samplesAtPress = samples(g)
			}
		case pressed && !checked && now.Sub(pressedAt) >= frame:
			checked, responded = true, predicted && pos != before
		case checked && samples(g) >= samplesAtPress+90: // ~3 s of player blocks
			stop()
		}
	}
	gameloop.RunHeadless(play, g, runner.Run, 60, nil)
	if ctx.Err() != nil {
		t.Fatalf("timed out: pressed %v", pressed)
	}
	if !responded {
		t.Errorf("the predicted tank did not move on the frame after the key")
	}
	s := gameloop.Summarize(g, obs, 0)
	p := s.Prediction
	if p == nil {
		t.Fatal("no prediction figures")
	}
	t.Logf("through the proxy: %+v, frames %+v", *p, s.Frames)
	if p.ErrorP95 >= 2 || p.Snaps != 0 {
		t.Errorf("prediction error p95 %.3f (want < 2), snaps %d (want 0)", p.ErrorP95, p.Snaps)
	}
}
