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
	return lobby.DefaultTokenSources(lobby.TokenFlags{Token: p.Token, File: p.TokenFile, Master: p.TokenMaster, Named: p.NamedMaster})
}

// joinLobby prepares a runner whose address may be a lobby master: the
// room is chosen (-room), the token found, and the WebRTC dialer installed
// as the runner's resolve and dial and as the session's platform. A
// dedicated host is left to the runner as it is. Every join, of either
// kind, is kept in the recent hosts. code is non-zero when the program
// must stop (a master with no room chosen: its rooms are listed).
func joinLobby(ctx context.Context, p *Config, r *session.Runner, log *slog.Logger, stderr io.Writer) (closeFn func(), code int) {
	keepRecent(r, log)
	pctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	t, err := session.Resolve(pctx, r.Client, r.Addr, r.Origin)
	cancel()
	if err != nil || !t.Lobby {
		if err == nil && (p.Room != "" || p.Token != "" || p.TokenFile != "") {
			log.Warn("-room, -token and -token-file are for lobby masters: ignored for this dedicated host")
		}
		return func() {}, 0 // the runner reports an unreachable host itself
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
	return func() { _ = d.Close() }, 0
}

// keepRecent records in the recent hosts each target whose connection got
// to play: a join the host refused (a bad token, a full room) or that never
// got through is not kept.
func keepRecent(r *session.Runner, log *slog.Logger) {
	path, err := hostlist.DefaultPath()
	if err != nil {
		return
	}
	var current atomic.Pointer[session.Target]
	prev := r.OnTarget
	r.OnTarget = func(t session.Target) {
		if prev != nil {
			prev(t)
		}
		current.Store(&t)
	}
	r.Session.OnPlaying(func() {
		t := current.Load()
		if t == nil {
			return
		}
		// On the session's read goroutine, as its recording is written: one
		// small file, once per connection that got to play.
		touchRecent(path, r.Addr, *t, log)
	})
}

// touchRecent marks t joined now in the host list file at path.
func touchRecent(path, addr string, t session.Target, log *slog.Logger) {
	e := hostlist.Entry{Kind: hostlist.Dedicated, Address: addr, GameID: t.GameID}
	if t.Lobby {
		e = hostlist.Entry{Kind: hostlist.Lobby, Address: t.Master, Room: t.Room, Name: t.RoomName, GameID: t.GameID}
	}
	l, err := hostlist.Load(path)
	if err == nil {
		err = l.Touch(e, time.Now())
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
