package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync/atomic"
	"time"

	"vimpclient/assets"
	"vimpclient/audio"
	"vimpclient/audio/mix"
	"vimpclient/gameloop"
	"vimpclient/hostlist"
	"vimpclient/hud"
	"vimpclient/input"
	"vimpclient/lobby"
	"vimpclient/parts"
	"vimpclient/render"
	"vimpclient/session"
	"vimpclient/session/rtc"
	"vimpclient/window"
)

// windowBrowse opens the window on a lobby master's server browser; the
// rooms (and recent hosts) the player joins from it each get a session and
// a loop of their own (a matchMaker's), torn down when the player goes
// back to the list. With -room, that room is joined at once.
func windowBrowse(ctx context.Context, p *playFlags, conn *connection, t session.Target, stderr io.Writer) int {
	log := conn.log
	master, err := lobby.NewMaster(t.Master, conn.client)
	if err != nil {
		fmt.Fprintf(stderr, "vimpclient: %v\n", err)
		return 2
	}
	if p.nick != "" {
		log.Warn("-nick is ignored in lobby rooms: the nick comes from the identity token")
	}
	tokens := p.lobby.tokenSources()
	if tok, _, err := tokens.Token(master.Key()); err == nil {
		p.lobby.out.add(tok)
	}
	av, err := openAudio(ctx, p, log)
	if err != nil {
		fmt.Fprintf(stderr, "vimpclient: %v\n", err)
		return 1
	}
	defer av.close()
	renderer := render.New(ctx, render.Options{Log: log}) // each match's target brings its images
	backend := newBrowserBackend(ctx, master, conn.client, t.Origin, tokens, log)
	defer backend.close()
	mm := &matchMaker{p: p, conn: conn, textures: renderer.Textures(), setAssets: renderer.SetAssets, sounds: av.sounds,
		tokens: tokens, authHint: backend.authHint}
	l := window.Lobby{Browser: hud.NewBrowser(master.URL()), Backend: backend, Join: mm.join, Silence: av.sounds.Reset}
	if p.lobby.room != "" {
		l.Start = &hud.BrowserChoice{Kind: hostlist.Lobby, Address: master.URL(), Room: p.lobby.room, Name: p.lobby.room}
	}
	prefs, prefsPath := loadSettings(log)
	bindingsPath, _ := input.BindingsPath()
	win, err := window.NewLobby(ctx, l, renderer, window.Options{
		Title: "vimpclient — " + master.URL(), Log: log, NetGraph: p.netGraph,
		Fullscreen: p.fullscreen, Screenshot: p.screenshot, ScreenshotAfter: p.screenshotAfter, Width: p.size.w, Height: p.size.h,
		Settings: prefs, SettingsPath: prefsPath, BindingsPath: bindingsPath, Sound: av.sounds,
	})
	if err != nil {
		fmt.Fprintf(stderr, "vimpclient: %v\n", err)
		return 1
	}
	if err := win.Run(); err != nil {
		fmt.Fprintf(stderr, "vimpclient: %v\n", err)
		return 1
	}
	return 0
}

// matchMaker starts a match (a session, its runner and its loop) for each
// choice of the browser: a room through the master's signaling, or a
// dedicated host over its WebSocket.
type matchMaker struct {
	p    *playFlags
	conn *connection
	// textures are the window renderer's, for every match's world;
	// setAssets points the renderer at each target's images.
	textures  parts.Textures
	setAssets func(*assets.Downloader)
	sounds    *audio.Manager // nil: silent
	tokens    lobby.TokenSources
	authHint  string
}

// match is one running session and its loop.
type match struct {
	loop   *gameloop.Loop
	cancel context.CancelFunc
	done   chan struct{}
	close  func() // the dialer's, after the runner ended
	reason string
	failed bool
	gaveUp atomic.Bool // the player gave up reconnecting (the window's goroutine)
}

func (m *match) Loop() *gameloop.Loop            { return m.loop }
func (m *match) Done() <-chan struct{}           { return m.done }
func (m *match) End() (reason string, fail bool) { return m.reason, m.failed }

// Stop implements window.Match: the runner ends (a room is left with
// leave_room and its peer closed), then the dialer.
func (m *match) Stop() {
	m.cancel()
	<-m.done
}

// join implements window.Lobby's Join.
func (mm *matchMaker) join(ctx context.Context, c hud.BrowserChoice) (window.Match, error) {
	p, conn, log := mm.p, mm.conn, mm.conn.log
	if c.Address == "" {
		return nil, errors.New("no address to join")
	}
	mctx, cancel := context.WithCancel(ctx)
	sess := session.New(session.Options{
		Auth:     session.AuthValues{Nick: p.nick, Set: p.set, Store: conn.store},
		AutoTeam: p.team != "", Team: p.team, Recorder: conn.rec, Logger: log,
	})
	m := &match{cancel: cancel, done: make(chan struct{}), close: func() {}}
	var hudStore hud.Store
	if conn.store != nil {
		hudStore = conn.store
	}
	opts := gameloop.Options{Session: sess, Log: log, LogOnce: conn.once, Start: time.Now(), Context: mctx,
		Textures: mm.textures, SoundFetcher: conn.assets.SoundFetcher,
		Store: hudStore, Interactive: true, AutoTeam: p.team != "", Team: p.team,
		OnGiveUp: func() { m.gaveUp.Store(true); cancel() }}
	if path, err := input.BindingsPath(); err == nil && c.GameID != "" {
		if b, err := input.LoadBindings(path, c.GameID); err == nil {
			opts.Bindings = b
		}
	}
	if mm.sounds != nil {
		opts.Sounds = mm.sounds
	}
	m.loop = gameloop.New(opts)
	runner := &session.Runner{Session: sess, Addr: c.Address, Origin: p.origin, Client: conn.client,
		OnTarget: func(t session.Target) {
			log.Info("connecting", "ws", t.WSURL, "game", t.GameID, "room", t.RoomName)
			m.loop.SetTarget(t)
			d, err := conn.assets.For(t)
			if err != nil {
				log.Warn("no host images", "err", err)
			}
			if mm.setAssets != nil {
				mm.setAssets(d)
			}
		}}
	keepRecent(runner, log)
	if c.Kind == hostlist.Lobby {
		d := rtc.NewDialer(rtc.Config{Addr: c.Address, Origin: p.origin, Room: c.Room, HTTP: conn.client, Tokens: mm.tokens,
			AuthHint: mm.authHint, Session: sess, Log: log})
		runner.Resolve, runner.Dial = d.Resolve, d.Dial
		sess.SetPlatform(d)
		m.close = func() { _ = d.Close() }
	}
	go func() {
		defer close(m.done)
		info, err := runner.Run(mctx)
		m.close()
		gaveUp := m.gaveUp.Load()
		m.reason, m.failed = endReason(c, info, err, gaveUp, mctx.Err() != nil && !gaveUp)
		log.Info("match ended", "room", c.Label(), "reason", m.reason)
	}()
	return m, nil
}

// endReason says why a match ended, for the browser's status line.
func endReason(c hud.BrowserChoice, info *session.CloseInfo, err error, gaveUp, left bool) (string, bool) {
	switch {
	case left:
		return "Left " + c.Label(), false
	case gaveUp:
		return "Gave up reconnecting to " + c.Label(), true
	case err != nil:
		return c.Label() + ": " + err.Error(), true
	case info != nil && !info.Local:
		return c.Label() + ": " + info.Reason, true
	}
	return "", false
}

// audioOut is the window's sound: the output device (or none) and the
// manager the matches play through.
type audioOut struct {
	out    interface{ Close() error }
	sounds *audio.Manager
}

func (a *audioOut) close() {
	a.sounds.Destroy()
	_ = a.out.Close()
}

func openAudio(ctx context.Context, p *playFlags, log *slog.Logger) (*audioOut, error) {
	mx := mix.New(mix.Options{})
	out, err := audio.OpenOutput(ctx, mx, audio.OutputOptions{WAVPath: p.audioOut, Logger: log})
	if err != nil {
		return nil, err
	}
	return &audioOut{out: out, sounds: audio.NewManager(mx, audio.Options{Logger: log})}, nil
}
