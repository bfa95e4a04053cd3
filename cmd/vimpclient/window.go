package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"vimpclient/audio"
	"vimpclient/audio/mix"
	"vimpclient/clientcore"
	"vimpclient/netgraph"
	netview "vimpclient/netgraph/view"
	"vimpclient/protocol"
	"vimpclient/render"
	"vimpclient/session"
)

// windowSource feeds the renderer on its game loop: session events go to
// the core through the same game loop the headless mode runs, then to the
// world, the sound manager and the overlays.
type windowSource struct {
	ctx    context.Context
	log    *slog.Logger
	loop   *gameLoop
	target session.Target
	world  *render.World

	// nowMs/nowAt pin the renderer's clock to wall time at the last Pump, so
	// a frame's arrival time lands on the clock the core is sampled with.
	nowMs float64
	nowAt time.Time

	sounds    *audio.Manager
	partSnd   *partSounds
	catalog   *audio.Catalog
	graph     *netgraph.Graph
	graphView *netview.View
}

func (s *windowSource) arrival(t time.Time) float64 {
	return s.nowMs - float64(s.nowAt.Sub(t))/float64(time.Millisecond)
}

// Pump implements render.Source.
func (s *windowSource) Pump(nowMs float64, w *render.World) {
	s.nowMs, s.nowAt, s.world = nowMs, time.Now(), w
	s.loop.drain()
	s.graphView.Update()
}

// Resync implements render.Resyncer: after a pause of 3 s or more the
// buffered frames are stale.
func (s *windowSource) Resync() {
	if c := s.core(); c != nil {
		c.Resync()
	}
}

func (s *windowSource) core() *clientcore.Core {
	if a, ok := s.loop.core.(*coreAdapter); ok {
		return a.c
	}
	return nil
}

// event follows the core's handling of one session event.
func (s *windowSource) event(ev *session.Event) {
	w := s.world
	switch ev.Kind {
	case session.EventOpen:
		s.graph.Reset()
	case session.EventClosed:
		if ev.Close != nil && !ev.Close.Local {
			s.log.Warn("connection closed", "code", ev.Close.Code, "reason", ev.Close.Reason, "reconnect", ev.Close.Reconnect)
		}
	}
	if ev.Kind != session.EventMessage {
		return
	}
	switch v := ev.Value.(type) {
	case *protocol.Config:
		if err := w.SetConfig(v.Raw); err != nil {
			s.log.Warn("game config", "err", err)
		}
		if c := s.core(); c != nil {
			w.SetCore(c)
		}
		cat, warns, err := audio.CatalogFromConfig(v.Raw)
		for _, m := range warns {
			s.log.Warn("sound catalog", "problem", m)
		}
		if err != nil {
			s.log.Warn("sound catalog", "err", err)
		}
		s.catalog = cat
	case protocol.AuthVerdict:
		// Sounds load in the background: the handshake never waits for them.
		if v.OK && s.catalog != nil && s.target.AssetsBase != "" {
			if base, err := url.Parse(s.target.AssetsBase); err == nil {
				s.sounds.Init(s.ctx, s.catalog, audio.HTTPFetcher{Base: base})
			}
		}
	case *protocol.MapInfo:
		if err := w.SetMap(v.Raw); err != nil {
			s.log.Warn("map", "err", err)
		}
	case *protocol.FirstShot:
		if err := w.ApplyFirstShot(v.Game, v.Camera); err != nil {
			s.log.Debug("first shot not drawn", "err", err)
		}
	case protocol.ClearScope:
		w.Clear(v.Sets, v.Full)
		if v.Full {
			s.sounds.Reset()
			s.partSnd.reset()
		}
	case protocol.Sound:
		s.sounds.PlaySystem(string(v))
	}
}

// afterTick runs after the renderer applied frames, hot data and camera.
func (s *windowSource) afterTick(nowMs float64) {
	s.sounds.Tick()
	if c := s.core(); c != nil {
		var pred netgraph.Prediction
		if a, ok := s.loop.core.(*coreAdapter); ok && a.game != nil {
			pred = netgraph.PredictorState(a.game.Predictor())
		}
		s.graph.Observe(nowMs, netgraph.CoreCounters(c), pred)
	}
}

func (s *windowSource) overlay(screen *ebiten.Image) {
	s.graphView.Draw(screen, 8, 8)
}

// windowConnect plays in a window: the session runs on its own goroutine,
// everything else on Ebiten's game loop.
func windowConnect(ctx context.Context, p *playFlags, addr string, stdout, stderr io.Writer) int {
	log := newLogger(stderr, p.verbose)
	client, err := session.HTTPClient(p.ca)
	if err != nil {
		fmt.Fprintf(stderr, "vimpclient: %v\n", err)
		return 2
	}
	store, err := session.DefaultAuthStore()
	if err != nil {
		log.Warn("auth values will not be remembered", "err", err)
	}
	rec, err := openRecorder(p.record, "window "+addr, nil)
	if err != nil {
		fmt.Fprintf(stderr, "vimpclient: %v\n", err)
		return 2
	}
	defer rec.Close()
	sess := session.New(session.Options{
		Auth:     session.AuthValues{Nick: p.nick, Set: p.set, Store: store, GuestNick: guestNick(time.Now())},
		AutoTeam: true, Team: p.team, Recorder: rec, Logger: log,
	})
	targets := make(chan session.Target, 1)
	runner := &session.Runner{Session: sess, Addr: addr, Origin: p.origin, Client: client,
		OnTarget: func(t session.Target) {
			log.Info("connecting", "ws", t.WSURL, "origin", t.Origin, "game", t.GameID, "version", t.GameVersion)
			select {
			case targets <- t:
			default:
			}
		}}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	runDone := make(chan struct{})
	go func() {
		defer close(runDone)
		info, err := runner.Run(ctx)
		if info != nil && !info.Local {
			fmt.Fprintf(stderr, "vimpclient: closed (%d): %s\n", info.Code, info.Reason)
		} else if err != nil && ctx.Err() == nil {
			fmt.Fprintf(stderr, "vimpclient: %v\n", err)
		}
	}()
	var target session.Target
	select {
	case target = <-targets:
	case <-runDone:
		return 1
	case <-ctx.Done():
		return 1
	}

	mx := mix.New(mix.Options{})
	out, err := audio.OpenOutput(ctx, mx, audio.OutputOptions{WAVPath: p.audioOut, Logger: log})
	if err != nil {
		fmt.Fprintf(stderr, "vimpclient: %v\n", err)
		return 1
	}
	defer out.Close()
	sounds := audio.NewManager(mx, audio.Options{Logger: log})
	defer sounds.Destroy()
	graph := netgraph.New()
	src := &windowSource{ctx: ctx, log: log, target: target, sounds: sounds, partSnd: newPartSounds(sounds),
		graph: graph, graphView: netview.New(graph, p.netGraph)}
	src.loop = newGameLoop(sess, newClientCore, time.Now, nil, log)
	src.loop.clock = src.arrival
	src.loop.sink = src.event
	err = render.Run(ctx, render.Options{
		Title: "vimpclient — " + target.Host, GameID: target.GameID, AssetsBase: target.AssetsBase, Log: log,
		Sounds:     src.partSnd,
		OnCamera:   func(x, y, zoom float64) { sounds.SetListener(x, y); sounds.SetZoom(zoom) },
		AfterTick:  src.afterTick,
		Overlay:    src.overlay,
		Fullscreen: p.fullscreen, Screenshot: p.screenshot, ScreenshotAfter: p.screenshotAfter,
	}, src)
	cancel()
	<-runDone
	if err != nil {
		fmt.Fprintf(stderr, "vimpclient: %v\n", err)
		return 1
	}
	return 0
}
