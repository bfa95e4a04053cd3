package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"vimpclient/hostlist"
	"vimpclient/lobby"
	"vimpclient/session"
	"vimpclient/session/rtc"
)

// lobbyFlags are the play flags of lobby rooms.
type lobbyFlags struct {
	token     string
	tokenFile string
	room      string
	auth      string
	// out is stderr with identity tokens redacted.
	out *redactor
}

func (l *lobbyFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&l.token, "token", "", "identity token for a lobby master's rooms (default: -token-file, $VIMP_TOKEN, then the one vimpclient login stored)")
	fs.StringVar(&l.tokenFile, "token-file", "", "read the identity token from this file")
	fs.StringVar(&l.room, "room", "", "lobby room to join: its id, or its exact name (any case)")
	fs.StringVar(&l.auth, "auth", "", "the identity service the server browser's Sign in uses (default: the one the master names)")
}

// redactor writes through to w with every registered secret replaced.
type redactor struct {
	w       io.Writer
	mu      sync.Mutex
	secrets [][]byte
}

func newRedactor(w io.Writer) *redactor { return &redactor{w: w} }

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

// tokenSources are the places a token is looked for, in order.
func (l *lobbyFlags) tokenSources() lobby.TokenSources {
	src := lobby.TokenSources{Flag: l.token, File: l.tokenFile, Env: os.Getenv("VIMP_TOKEN")}
	if store, err := lobby.DefaultTokenStore(); err == nil {
		src.Store = store
	}
	return src
}

// joinLobby prepares a runner whose address may be a lobby master: the
// room is chosen (-room), the token found, and the WebRTC dialer installed
// as the runner's resolve and dial and as the session's platform. A
// dedicated host is left to the runner as it is. Every join, of either
// kind, is kept in the recent hosts. code is non-zero when the program
// must stop (a master with no room chosen: its rooms are listed).
func joinLobby(ctx context.Context, p *playFlags, r *session.Runner, log *slog.Logger, stderr io.Writer) (closeFn func(), code int) {
	keepRecent(r, log)
	pctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	t, err := session.Resolve(pctx, r.Client, r.Addr, r.Origin)
	cancel()
	if err != nil || !t.Lobby {
		if err == nil && (p.lobby.room != "" || p.lobby.token != "" || p.lobby.tokenFile != "") {
			log.Warn("-room, -token and -token-file are for lobby masters: ignored for this dedicated host")
		}
		return func() {}, 0 // the runner reports an unreachable host itself
	}
	master, err := lobby.NewMaster(t.Master, r.Client)
	if err != nil {
		fmt.Fprintf(stderr, "vimpclient: %v\n", err)
		return nil, 2
	}
	if p.lobby.room == "" && p.quickplay.on {
		room, err := quickplayRoom(ctx, master, p.quickplay.game, log)
		if err != nil {
			fmt.Fprintf(stderr, "vimpclient: %v\n", err)
			return nil, 1
		}
		p.lobby.room = room.ID
	}
	if p.lobby.room == "" {
		fmt.Fprintf(stderr, "vimpclient: %s is a lobby master: choose a room with -room NAME or -room ID\n", master.URL())
		list, err := master.AllServers(ctx, lobby.Query{})
		if err != nil {
			fmt.Fprintf(stderr, "vimpclient: %v\n", err)
			return nil, 1
		}
		printRooms(stderr, list, nil)
		return nil, 1
	}
	if p.nick != "" {
		log.Warn("-nick is ignored in lobby rooms: the nick comes from the identity token")
	}
	src := p.lobby.tokenSources()
	if tok, _, err := src.Token(master.Key()); err == nil {
		p.lobby.out.add(tok)
		r.Session.Redact(tok)
	}
	d := rtc.NewDialer(rtc.Config{Addr: r.Addr, Origin: r.Origin, Room: p.lobby.room, HTTP: r.Client, Tokens: src,
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
