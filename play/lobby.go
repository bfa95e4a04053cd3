package play

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"vimpclient/hostlist"
	"vimpclient/lobby"
	"vimpclient/session"
	"vimpclient/session/rtc"
)

// redactor writes through to w with every registered secret replaced.
type redactor struct {
	w       io.Writer
	mu      sync.Mutex
	secrets [][]byte
}

// redact makes p's redactor, writing to w, and returns it: identity
// tokens never reach the logs.
func (p *Config) redact(w io.Writer) io.Writer {
	p.out = &redactor{w: w}
	return p.out
}

func (r *redactor) add(secret string) {
	if r == nil || len(secret) < 8 {
		return
	}
	r.mu.Lock()
	r.secrets = append(r.secrets, []byte(secret))
	r.mu.Unlock()
}

func (r *redactor) Write(b []byte) (int, error) {
	r.mu.Lock()
	out := b
	for _, s := range r.secrets {
		out = bytes.ReplaceAll(out, s, []byte(session.Redacted))
	}
	r.mu.Unlock()
	if _, err := r.w.Write(out); err != nil {
		return 0, err
	}
	return len(b), nil
}

// TokenSources are the places a token is looked for, in order (see
// lobby.DefaultTokenSources).
func (p *Config) TokenSources() lobby.TokenSources {
	return lobby.DefaultTokenSources(p.Tokens)
}

// joinLobby prepares a runner whose address may be a lobby master: the
// room is chosen (-room), the token found, and the WebRTC dialer installed
// as the runner's resolve and dial and as the session's platform. A
// dedicated host is left to the runner as it is. Every join, of either
// kind, is kept in the recent hosts. code is non-zero when the program
// must stop (a master with no room chosen: its rooms are listed).
func joinLobby(ctx context.Context, p *Config, r *session.Runner, log *slog.Logger, stderr io.Writer) (closeFn func(), code int) {
	flush := keepRecent(r, log)
	pctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	t, err := session.Resolve(pctx, r.Client, r.Addr, r.Origin)
	cancel()
	if err != nil || !t.Lobby {
		if err == nil && (p.Room != "" || p.Tokens.Token != "" || p.Tokens.File != "") {
			log.Warn("-room, -token and -token-file are for lobby masters: ignored for this dedicated host")
		}
		return flush, 0 // the runner reports an unreachable host itself
	}
	master, err := lobby.NewMaster(t.Master, r.Client)
	if err != nil {
		fmt.Fprintf(stderr, "vimpclient: %v\n", err)
		return nil, 2
	}
	if p.Room == "" && p.QuickPlay.On {
		room, err := quickplayRoom(ctx, master, p.QuickPlay.Game, log)
		if err != nil {
			fmt.Fprintf(stderr, "vimpclient: %v\n", err)
			return nil, 1
		}
		p.Room = room.ID
	}
	if p.Room == "" {
		fmt.Fprintf(stderr, "vimpclient: %s is a lobby master: choose a room with -room NAME or -room ID\n", master.URL())
		list, err := master.AllServers(ctx, lobby.Query{})
		if err != nil {
			fmt.Fprintf(stderr, "vimpclient: %v\n", err)
			return nil, 1
		}
		lobby.PrintRooms(stderr, list, nil)
		return nil, 1
	}
	if p.Nick != "" {
		log.Warn("-nick is ignored in lobby rooms: the nick comes from the identity token")
	}
	src := p.TokenSources()
	if tok, _, err := src.Token(master); err == nil {
		p.out.add(tok)
		r.Session.Redact(tok)
	}
	d := rtc.NewDialer(rtc.Config{Addr: r.Addr, Origin: r.Origin, Room: p.Room, HTTP: r.Client, Tokens: src,
		Session: r.Session, Log: log})
	r.Resolve, r.Dial = d.Resolve, d.Dial
	r.Session.SetPlatform(d)
	return func() { _ = d.Close(); flush() }, 0
}

// recentsFlushWait is how long the end of a connection waits for the
// recent hosts to be written: a disk that hangs never holds up quitting or
// -for.
const recentsFlushWait = 2 * time.Second

// keepRecent records in the recent hosts each target whose connection got
// to play: a join the host refused (a bad token, a full room) or that never
// got through is not kept. The file is written on a goroutine of its own,
// never the session's: flush, called when the connection ends, waits for
// what is queued up to recentsFlushWait and then lets it go on alone.
func keepRecent(r *session.Runner, log *slog.Logger) (flush func()) {
	path, err := hostlist.DefaultPath()
	if err != nil {
		return func() {}
	}
	w := newRecentWriter(path, log)
	var current atomic.Pointer[session.Target]
	prev := r.OnTarget
	r.OnTarget = func(t session.Target) {
		if prev != nil {
			prev(t)
		}
		current.Store(&t)
	}
	r.Session.OnPlaying(func() {
		if t := current.Load(); t != nil {
			w.touch(recentEntry(r.Addr, *t))
		}
	})
	return func() { w.flush(recentsFlushWait) }
}

// recentEntry is the host list entry of a join of t at addr.
func recentEntry(addr string, t session.Target) hostlist.Entry {
	if t.Lobby {
		return hostlist.Entry{Kind: hostlist.Lobby, Address: t.Master, Room: t.Room, Name: t.RoomName, GameID: t.GameID}
	}
	return hostlist.Entry{Kind: hostlist.Dedicated, Address: addr, GameID: t.GameID}
}

// recentWriter writes joins into the host list file one at a time, off the
// goroutine that reports them.
type recentWriter struct {
	path    string
	log     *slog.Logger
	jobs    chan recentJob
	done    chan struct{}
	mu      sync.Mutex
	started bool // the goroutine runs from the first join on
	closed  bool
	dropped atomic.Int64 // joins not kept: the writer was still busy with earlier ones
}

type recentJob struct {
	e  hostlist.Entry
	at time.Time
}

// recentQueue bounds the joins waiting to be written; one connection makes
// one join, a reconnecting one a few.
const recentQueue = 8

func newRecentWriter(path string, log *slog.Logger) *recentWriter {
	return &recentWriter{path: path, log: log, jobs: make(chan recentJob, recentQueue), done: make(chan struct{})}
}

func (w *recentWriter) run() {
	defer close(w.done)
	for j := range w.jobs {
		touchRecent(w.path, j.e, j.at, w.log)
	}
}

// touch queues a join without waiting; a full queue drops it (counted).
func (w *recentWriter) touch(e hostlist.Entry) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return
	}
	if !w.started {
		w.started = true
		go w.run()
	}
	select {
	case w.jobs <- recentJob{e: e, at: time.Now()}:
	default:
		w.dropped.Add(1)
		w.log.Debug("recent host not kept: the host list is still being written", "address", e.Address)
	}
}

// flush stops taking joins and waits up to wait for the queued ones to be
// written. It reports whether they were.
func (w *recentWriter) flush(wait time.Duration) bool {
	w.mu.Lock()
	started := w.started
	if !w.closed {
		w.closed = true
		close(w.jobs)
	}
	w.mu.Unlock()
	if !started {
		return true
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-w.done:
		return true
	case <-t.C:
		w.log.Warn("recent hosts not written in time: left to finish in the background", "file", w.path, "waited", wait)
		return false
	}
}

// touchRecent marks e joined at now in the host list file at path.
func touchRecent(path string, e hostlist.Entry, now time.Time, log *slog.Logger) {
	l, err := hostlist.Load(path)
	if err == nil {
		err = l.Touch(e, now)
	}
	if err == nil {
		err = l.Save(path)
	}
	if err != nil {
		log.Debug("recent hosts not kept", "err", err)
	}
}

// quickplayRoom picks the room -quickplay joins on a master: the newer
// master's choice for the game, else the fullest room with space.
func quickplayRoom(ctx context.Context, m *lobby.Master, game string, log *slog.Logger) (lobby.Room, error) {
	r, err := m.QuickPlay(ctx, game)
	if err != nil {
		return lobby.Room{}, fmt.Errorf("-quickplay on %s: %w", m.URL(), err)
	}
	log.Info("quick play", "room", r.Name, "id", r.ID, "game", r.GameID, "players", r.CurrentPlayers, "max", r.MaxPlayers)
	return r, nil
}
