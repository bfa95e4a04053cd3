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
	"vimpclient/hud"
	hudview "vimpclient/hud/view"
	"vimpclient/input"
	"vimpclient/input/ebiteninput"
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

	// Overlays and input: the HUD models, their view, the keyboard and
	// pointer controller (built per CONFIG_DATA) and the Ebiten reader.
	sess     *session.Session
	store    hud.Store
	hud      *hud.HUD
	hudView  *hudview.View
	ctrl     *input.Controller
	reader   ebiteninput.Reader
	bindings input.Binding
	autoTeam bool // -team: the session answers the team vote itself
}

// teamVoteName is the engine's team vote.
const teamVoteName = "teamChange"

func (s *windowSource) arrival(t time.Time) float64 {
	return s.nowMs - float64(s.nowAt.Sub(t))/float64(time.Millisecond)
}

// Pump implements render.Source: the session's events, then this frame's
// keyboard, pointer and form input, then what the overlays want sent.
func (s *windowSource) Pump(nowMs float64, w *render.World) {
	s.nowMs, s.nowAt, s.world = nowMs, time.Now(), w
	s.loop.drain()
	s.graphView.Update()
	dpr := 1.0
	if m := ebiten.Monitor(); m != nil && m.DeviceScaleFactor() > 0 {
		dpr = m.DeviceScaleFactor()
	}
	s.reader.Scale = dpr
	if s.hud.AuthOpen() {
		ww, wh := ebiten.WindowSize()
		s.reader.UpdateForm(s.hud, float64(ww), float64(wh))
	} else if s.ctrl != nil {
		s.reader.Update(s.ctrl, s.hud, nowMs)
		s.takeSpawns(w)
	}
	for _, o := range s.hud.Outgoing() {
		var err error
		switch o.Kind {
		case hud.OutAuth:
			err = s.sess.SubmitAuth(o.Values)
		case hud.OutChat:
			err = s.sess.Chat(o.Text)
		case hud.OutVoteRequest:
			err = s.sess.VoteRequest(o.Vote, o.Text)
		case hud.OutVoteAnswer:
			err = s.sess.VoteAnswer(o.Vote, o.Text)
		}
		if err != nil {
			s.log.Warn("not sent", "kind", o.Kind, "err", err)
		}
	}
	s.hud.Update(nowMs)
}

// takeSpawns draws the shots the game spawned locally for this frame's
// inputs at once, as event frames.
func (s *windowSource) takeSpawns(w *render.World) {
	a, ok := s.loop.core.(*coreAdapter)
	if !ok {
		return
	}
	if sp, ok := a.game.(interface {
		TakeSpawns() []clientcore.EventFrame
	}); ok {
		spawns := sp.TakeSpawns()
		for i := range spawns {
			w.ApplyEventFrame(&spawns[i])
		}
	}
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
		s.hud = hud.New(s.target.Host, s.target.GameID, s.store)
		s.hud.HostListsRequested(true)
		if s.ctrl != nil {
			s.ctrl.ResetConnection()
		}
		s.ctrl = nil
	case session.EventClosed:
		if ev.Close != nil && !ev.Close.Local {
			s.log.Warn("connection closed", "code", ev.Close.Code, "reason", ev.Close.Reason, "reconnect", ev.Close.Reconnect)
			s.hud.Disconnected(ev.Close.Reason)
		}
		if s.ctrl != nil {
			s.ctrl.SetEnabled(false, s.nowMs)
		}
	}
	if ev.Kind != session.EventMessage {
		return
	}
	if v, ok := ev.Value.(protocol.Vote); ok && s.autoTeam && v.Open != nil && v.Open.Name == teamVoteName {
		return // -team answered it: the window does not ask again
	}
	s.hud.Handle(ev.Value, s.nowMs)
	switch v := ev.Value.(type) {
	case *protocol.AuthForm:
		if ev.Err == nil {
			s.hud.DismissAuth() // the session answered it from -nick, -set or memory
		}
	case protocol.TechInform:
		if s.ctrl != nil {
			s.ctrl.SetEnabled(v.Hide, s.nowMs)
		}
	case protocol.Keyset:
		if s.ctrl != nil {
			s.ctrl.SetKeySet(int(v), s.nowMs)
		}
	}
	switch v := ev.Value.(type) {
	case *protocol.Config:
		if err := w.SetConfig(v.Raw); err != nil {
			s.log.Warn("game config", "err", err)
		}
		if c := s.core(); c != nil {
			w.SetCore(c)
			cfg, problems := input.ConfigFrom(v)
			for _, p := range problems {
				s.log.Warn("key config", "problem", p)
			}
			if s.bindings != nil {
				var more []string
				cfg, more = cfg.WithBindings(s.bindings)
				for _, p := range more {
					s.log.Warn("key bindings", "problem", p)
				}
			}
			s.ctrl = input.NewController(cfg, s.hud, c, w.ScreenToWorld)
			s.ctrl.SetSender(s.sess)
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
	dpr := 1.0
	if m := ebiten.Monitor(); m != nil && m.DeviceScaleFactor() > 0 {
		dpr = m.DeviceScaleFactor()
	}
	s.hudView.Draw(screen, s.hud, s.nowMs, dpr)
	s.graphView.Draw(screen, 8, 8)
}

// windowConnect plays in a window: the session runs on its own goroutine,
// everything else on Ebiten's game loop.
func windowConnect(ctx context.Context, p *playFlags, addr string, stdout, stderr io.Writer) int {
	conn, err := newConnection(p, "window", addr, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "vimpclient: %v\n", err)
		return 2
	}
	log, client, store, rec := conn.log, conn.client, conn.store, conn.rec
	defer rec.Close()
	// The player fills the auth form and answers the team vote in the
	// window, unless flags already say what to answer.
	sess := session.New(session.Options{
		Auth:     session.AuthValues{Nick: p.nick, Set: p.set, Store: store},
		AutoTeam: p.team != "", Team: p.team, Recorder: rec, Logger: log,
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
	closeLobby, code := joinLobby(ctx, p, runner, log, stderr)
	if code != 0 {
		return code
	}
	defer closeLobby()
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
	hv, err := hudview.New()
	if err != nil {
		fmt.Fprintf(stderr, "vimpclient: %v\n", err)
		return 1
	}
	var hudStore hud.Store // nil when values cannot be remembered
	if store != nil {
		hudStore = store
	}
	src := &windowSource{ctx: ctx, log: log, target: target, sounds: sounds, partSnd: newPartSounds(sounds),
		graph: graph, graphView: netview.New(graph, p.netGraph),
		sess: sess, store: hudStore, hud: hud.New(target.Host, target.GameID, hudStore), hudView: hv,
		autoTeam: p.team != ""}
	if path, err := input.BindingsPath(); err == nil {
		if b, err := input.LoadBindings(path, target.GameID); err != nil {
			log.Warn("key bindings", "file", path, "err", err)
		} else {
			src.bindings = b
		}
	}
	ebiten.SetRunnableOnUnfocused(true)
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
