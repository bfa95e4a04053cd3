package play

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync/atomic"
	"time"

	"vimpclient/assets"
	"vimpclient/audio"
	"vimpclient/audio/mix"
	"vimpclient/gameloop"
	"vimpclient/hostlist"
	"vimpclient/hud"
	"vimpclient/hud/serverbrowser"
	"vimpclient/input"
	"vimpclient/lobby"
	"vimpclient/parts"
	"vimpclient/session"
	"vimpclient/session/rtc"
	"vimpclient/window"
)

// matchMaker starts a match (a session, its runner and its loop) for each
// choice of the browser: a room through the master's signaling, or a
// dedicated host over its WebSocket.
type matchMaker struct {
	p    *Config
	conn *connection
	// textures are the window renderer's, for every match's world;
	// setAssets points the renderer at each target's images.
	textures  parts.Textures
	setAssets func(*assets.Downloader)
	sounds    *audio.Manager // nil: silent
	tokens    lobby.TokenSources
	found     mastersFound // the masters found at addresses joined as hosts
}

// master is the target of the lobby master a match found at its address.
func (mm *matchMaker) master(addr string) (session.Target, bool) { return mm.found.get(addr) }

// match is one running session and its loop.
type match struct {
	loop   *gameloop.Loop
	cancel context.CancelFunc
	done   chan struct{}
	close  func() // the dialer's, after the runner ended
	reason string
	failed bool
	gaveUp atomic.Bool // the player gave up reconnecting (the window's goroutine)
	// master is the lobby master found at a host's address (read once
	// done is closed).
	master string
}

func (m *match) Loop() *gameloop.Loop            { return m.loop }
func (m *match) Done() <-chan struct{}           { return m.done }
func (m *match) End() (reason string, fail bool) { return m.reason, m.failed }

// Master implements window.Redirect.
func (m *match) Master() string { return m.master }

// Stop implements window.Match: the runner ends (a room is left with
// leave_room and its peer closed), then the dialer.
func (m *match) Stop() {
	m.cancel()
	<-m.done
}

// offlineAuthHost is the host the embedded offline host's form answers are
// remembered under, per game: it listens on a new port every time.
const offlineAuthHost = "offline"

// join implements window.Lobby's Join.
func (mm *matchMaker) join(ctx context.Context, c serverbrowser.Choice) (window.Match, error) {
	return mm.joinAt(ctx, c, false)
}

// joinAt starts a match; offline marks the embedded host, whose answers
// are remembered per game rather than per address and which is no server
// to list among the recent hosts.
func (mm *matchMaker) joinAt(ctx context.Context, c serverbrowser.Choice, offline bool) (window.Match, error) {
	p, conn, log := mm.p, mm.conn, mm.conn.log
	if c.Address == "" {
		return nil, errors.New("no address to join")
	}
	store := conn.store
	if store != nil && offline {
		store = store.Under(offlineAuthHost)
	}
	mctx, cancel := context.WithCancel(ctx)
	sess := session.New(session.Options{
		Auth:     session.AuthValues{Nick: p.Nick, Set: p.Set, Store: store},
		AutoTeam: p.Team != "", Team: p.Team, Recorder: conn.rec, Logger: log,
	})
	m := &match{cancel: cancel, done: make(chan struct{}), close: func() {}}
	var hudStore hud.Store
	if store != nil {
		hudStore = store
	}
	opts := gameloop.Options{Session: sess, Log: log, LogOnce: conn.once, Start: time.Now(), Context: mctx,
		Textures: mm.textures, SoundFetcher: conn.assets.SoundFetcher,
		Store: hudStore, Interactive: true, AutoTeam: p.Team != "", Team: p.Team, FixedInterp: p.Interp.Fixed,
		OnGiveUp: func() { m.gaveUp.Store(true); cancel() }}
	if path, err := input.BindingsPath(); err == nil {
		// Read when the game is known: an address joined from the start
		// screen or the command line names no game until its host answers.
		opts.BindingsFor = bindingsFrom(path, log)
	}
	if mm.sounds != nil {
		opts.Sounds = mm.sounds
	}
	m.loop = gameloop.New(opts)
	runner := &session.Runner{Session: sess, Addr: c.Address, Origin: p.Origin, Client: conn.client,
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
	flushRecent := func() {}
	if !offline {
		flushRecent = keepRecent(runner, log)
	}
	if c.Kind != hostlist.Lobby {
		// An address that answers as a lobby master ends the match: the
		// window opens that master's browser instead.
		runner.Resolve = func(ctx context.Context) (session.Target, error) {
			t, err := session.Resolve(ctx, conn.client, c.Address, p.Origin)
			if err == nil && t.Lobby {
				mm.found.add(t)
				m.master = t.Master
				return t, session.Stay(fmt.Errorf("%s is a lobby master: choose a room in its server browser", t.Master))
			}
			return t, err
		}
	}
	if c.Kind == hostlist.Lobby {
		d := rtc.NewDialer(rtc.Config{Addr: c.Address, Origin: p.Origin, Room: c.Room, HTTP: conn.client, Tokens: mm.tokens,
			Session: sess, Log: log})
		runner.Resolve, runner.Dial = d.Resolve, d.Dial
		sess.SetPlatform(d)
		m.close = func() { _ = d.Close() }
	}
	go func() {
		defer close(m.done)
		info, err := runner.Run(mctx)
		m.close()
		flushRecent()
		gaveUp := m.gaveUp.Load()
		if t := m.loop.Target(); t.Lobby && t.RoomName != "" {
			c.Name = t.RoomName // a room chosen by id is named by what the master listed
		}
		m.reason, m.failed = endReason(c, info, err, gaveUp, mctx.Err() != nil && !gaveUp)
		log.Info("match ended", "room", c.Label(), "reason", m.reason)
	}()
	return m, nil
}

// bindingsFrom reads a game's saved key bindings from the file at path.
func bindingsFrom(path string, log *slog.Logger) func(gameID string) input.Binding {
	return func(gameID string) input.Binding {
		b, err := input.LoadBindings(path, gameID)
		if err != nil {
			log.Warn("key bindings not read in full: the lines that could be read are used", "game", gameID, "err", err)
		}
		return b
	}
}

// endReason says why a match ended, for the browser's status line.
func endReason(c serverbrowser.Choice, info *session.CloseInfo, err error, gaveUp, left bool) (string, bool) {
	switch {
	case left:
		return "Left " + c.Label(), false
	case gaveUp:
		return "Gave up reconnecting to " + c.Label(), true
	case err != nil:
		return labelled(c.Label(), err.Error()), true
	case info != nil && !info.Local:
		return labelled(c.Label(), info.Reason), true
	}
	return "", false
}

// labelled puts the room's or host's label before why it ended, unless
// the words name it already.
func labelled(label, why string) string {
	if label != "" && strings.Contains(strings.ToLower(why), strings.ToLower(label)) {
		return why
	}
	return label + ": " + why
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

func openAudio(ctx context.Context, p *Config, log *slog.Logger) (*audioOut, error) {
	mx := mix.New(mix.Options{})
	out, err := audio.OpenOutput(ctx, mx, audio.OutputOptions{WAVPath: p.AudioOut, Logger: log})
	if err != nil {
		return nil, err
	}
	return &audioOut{out: out, sounds: audio.NewManager(mx, audio.Options{Logger: log})}, nil
}
