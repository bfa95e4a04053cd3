package rtc

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/pion/webrtc/v4"

	"vimpclient/lobby"
	"vimpclient/rtcpeer"
	"vimpclient/sameorigin"
	"vimpclient/session"
)

// Migration waits: a host change is waited for at least 20 s and at most
// 120 s, as long as the master's waitMs asks within that.
const (
	minMigrationWait = 20 * time.Second
	maxMigrationWait = 120 * time.Second
	joinRetry        = time.Second
	maxJoinRetries   = 3
	unreachableEvery = 2 * time.Second
)

// Config configures a Dialer.
type Config struct {
	Addr    string // what the player typed (a master or a dedicated host)
	Origin  string // -origin override; "" derives https://host[:port]
	Room    string // -room: a room id, or its exact name (any case)
	HTTP    *http.Client
	Tokens  lobby.TokenSources
	Session *session.Session // told host changes and engine votes; nil: nobody
	Log     *slog.Logger
	Now     func() time.Time
	API     *webrtc.API // rtcpeer.NewAPI when nil
}

// Dialer joins a master's room for a session.Runner: Resolve picks the room
// and the identity token, Dial signals an offer and opens the channels, and
// the master's migration and vote messages reach the session as platform
// events. A dedicated host resolves and dials as before (a WebSocket).
// It is the session's Platform in a lobby room.
type Dialer struct {
	cfg      Config
	api      *webrtc.API
	memberID string

	mu          sync.Mutex
	home        string // the origin of the master the token was first bound to
	sig         *lobby.Signal
	target      *session.Target // the chosen room, once resolved
	peer        *offerer        // the current (or last) peer
	tr          *Transport      // the open transport
	joined      bool
	joinTries   int
	epoch       int
	migrating   bool
	migEpoch    int
	migDeadline time.Time
	changed     chan struct{}
	closed      bool   // the master closed the room
	closedWhy   string // its words
	vote        *lobby.HostVote
	unreachAt   time.Time
	newer       bool // the master is of the newer generation (rooms by roomId, host votes)
}

var _ session.Platform = (*Dialer)(nil)

// NewDialer makes a Dialer; attach it to the session with
// Session.SetPlatform so engine votes and /like reach the master.
func NewDialer(cfg Config) *Dialer {
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.HTTP == nil {
		cfg.HTTP = http.DefaultClient
	}
	api := cfg.API
	if api == nil {
		api = rtcpeer.NewAPI(cfg.Log)
	}
	return &Dialer{cfg: cfg, api: api, memberID: newUUID(), changed: make(chan struct{})}
}

// newUUID is a random (version 4) UUID: the member id kept for the room.
func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// roomGoneError is a room that went away, named, with how that was found.
type roomGoneError struct{ name, why string }

func (e *roomGoneError) Error() string { return "Room gone: " + quoteName(e.name) + ": " + e.why + "." }

// Is makes errors.Is(err, lobby.ErrRoomGone) hold.
func (e *roomGoneError) Is(target error) bool { return target == lobby.ErrRoomGone }

// ErrNoRoom reports a master given no room to join.
var ErrNoRoom = errors.New("no room chosen: give -room NAME or -room ID")

// Resolve is the Runner's resolve: the /config probe, then for a master the
// room (listed again on every attempt: a room that left the list is gone)
// and its identity token.
func (d *Dialer) Resolve(ctx context.Context) (session.Target, error) {
	t, err := session.Resolve(ctx, d.cfg.HTTP, d.cfg.Addr, d.cfg.Origin)
	if err != nil || !t.Lobby {
		return t, err
	}
	d.mu.Lock()
	closed, why, prev, migrating := d.closed, d.closedWhy, d.target, d.migrating
	d.mu.Unlock()
	if closed {
		return session.Target{}, session.Stay(fmt.Errorf("%s", why))
	}
	master, err := lobby.NewMaster(t.Master, d.cfg.HTTP)
	if err != nil {
		return session.Target{}, session.Stay(err)
	}
	token, err := d.token(master)
	if err != nil {
		return session.Target{}, session.Stay(err)
	}
	if prev != nil && migrating {
		// A room in migration may be missing from the list: keep it.
		nt := *prev
		nt.Token, nt.TokenHome = token.Value, token.Home
		return nt, nil
	}
	query := d.cfg.Room
	if prev != nil {
		query = prev.Room
	}
	if query == "" {
		return session.Target{}, session.Stay(ErrNoRoom)
	}
	list, err := master.AllServers(ctx, lobby.Query{})
	if err != nil {
		return session.Target{}, err
	}
	room, err := lobby.FindRoom(list.Servers, query)
	if err != nil {
		if prev != nil {
			return session.Target{}, session.Stay(&roomGoneError{name: prev.RoomName, why: "the master no longer lists it"})
		}
		return session.Target{}, session.Stay(err)
	}
	t.Room, t.RoomName, t.GameID, t.Token, t.TokenHome = room.ID, room.Name, room.GameID, token.Value, token.Home
	if room.GameID != "" {
		if m, err := master.Manifest(ctx, room.GameID); err == nil {
			t.AssetsBase, t.GameVersion = m.AssetsBase, m.Version
			if m.EngineAPI != nil && *m.EngineAPI != session.EngineAPI {
				t.Warning = fmt.Sprintf("game %q uses plugin contract %d; this client follows %d", room.GameID, *m.EngineAPI, session.EngineAPI)
			}
		}
	}
	d.mu.Lock()
	d.target = &t
	d.newer = d.newer || newerRoom(room.Raw)
	d.mu.Unlock()
	return t, nil
}

// token finds the identity token for the master, bound to it, and checks
// it is fresh. The first master it is bound to is the only one: a later
// resolve that lands on another master is refused.
func (d *Dialer) token(m *lobby.Master) (lobby.Token, error) {
	// login finds the identity service itself (the master names it, or
	// the last sign-in came from it).
	again := "vimpclient login " + m.URL()
	tok, err := d.cfg.Tokens.For(m)
	if errors.Is(err, lobby.ErrNoToken) {
		return lobby.Token{}, fmt.Errorf("%w: lobby rooms admit signed-in players only; sign in with `%s`, or give -token or -token-file", err, again)
	}
	if err != nil {
		return lobby.Token{}, err
	}
	d.mu.Lock()
	if d.home == "" {
		d.home = tok.Home
	}
	home := d.home
	d.mu.Unlock()
	if err := tok.CheckSend(home); err != nil {
		return lobby.Token{}, err
	}
	c, err := lobby.ParseClaims(tok.Value)
	if err != nil {
		return lobby.Token{}, fmt.Errorf("the token from %s: %w", tok.From, err)
	}
	if err := lobby.CheckFresh(c, d.cfg.Now()); err != nil {
		return lobby.Token{}, fmt.Errorf("the token from %s: %w with `%s`", tok.From, err, again)
	}
	if d.cfg.Session != nil {
		d.cfg.Session.Redact(tok.Value)
	}
	return tok, nil
}

// roomToken is the target's token with its binding.
func roomToken(t *session.Target) lobby.Token {
	return lobby.Token{Value: t.Token, Home: t.TokenHome}
}

// joinRoom sends join_room, which carries the token: only to the token's
// own master.
func (d *Dialer) joinRoom(ctx context.Context, sig *lobby.Signal, t *session.Target) error {
	return sig.SendToken(ctx, roomToken(t), func(token string) []byte {
		return lobby.JoinRoomMsg(t.Room, d.memberID, token)
	})
}

// joinRoomLater sends join_room from a goroutine of its own.
func (d *Dialer) joinRoomLater(t *session.Target) {
	d.mu.Lock()
	sig := d.sig
	d.mu.Unlock()
	if sig == nil {
		return
	}
	ctx, cancel := contextTimeout()
	defer cancel()
	if err := d.joinRoom(ctx, sig, t); err != nil {
		d.cfg.Log.Warn("lobby: join_room not sent", "err", err)
	}
}

// Dial is the Runner's dial: a WebSocket for a dedicated host; for a room,
// signaling (connected once and kept), a wait while the room's host
// changes, then an offer to the room's host.
func (d *Dialer) Dial(ctx context.Context, t session.Target) (session.Transport, error) {
	if !t.Lobby {
		return session.DialWebSocket(ctx, d.cfg.HTTP, t.WSURL, t.Origin)
	}
	sig, err := d.signal(ctx, t)
	if err != nil {
		return nil, err
	}
	if err := d.waitMigration(ctx); err != nil {
		return nil, err
	}
	d.mu.Lock()
	epoch := d.epoch
	d.mu.Unlock()
	o, err := newOfferer(ctx, d.api, sig, sig.Welcome().ICEServers, t.Room, d.memberID, epoch)
	if err != nil {
		return nil, err
	}
	// A seat held from this room's host is asked back: the offer says so,
	// and the session opens the connection with RESUME_REQUEST.
	o.resume = d.cfg.Session != nil && d.cfg.Session.ResumeSeat(t.Room)
	d.mu.Lock()
	d.peer = o
	d.mu.Unlock()
	err = o.send(ctx)
	if err == nil {
		err = o.wait(ctx)
	}
	if err != nil {
		o.close()
		if errors.Is(err, lobby.ErrRoomGone) {
			return nil, session.Stay(&roomGoneError{name: t.RoomName, why: "the master says it no longer exists"})
		}
		return nil, fmt.Errorf("room %s: %w", quoteName(t.RoomName), err)
	}
	tr := &Transport{p: o.pair, room: t.Room, resume: o.resume}
	d.mu.Lock()
	d.tr, d.joined, d.joinTries = tr, true, 0
	d.mu.Unlock()
	if err := d.joinRoom(ctx, sig, &t); err != nil {
		d.cfg.Log.Warn("lobby: join_room not sent", "err", err)
	}
	go d.watch(tr)
	return tr, nil
}

// signal connects to the master's signaling the first time, then reuses it.
func (d *Dialer) signal(ctx context.Context, t session.Target) (*lobby.Signal, error) {
	d.mu.Lock()
	sig := d.sig
	d.mu.Unlock()
	if sig != nil {
		select {
		case <-sig.Done():
			if err := sig.Err(); errors.Is(err, lobby.ErrInvalidOrigin) || errors.Is(err, sameorigin.ErrRedirect) {
				return nil, session.Stay(err)
			}
		default:
			return sig, nil
		}
	}
	m, err := lobby.NewMaster(t.Master, d.cfg.HTTP)
	if err != nil {
		return nil, session.Stay(err)
	}
	// The signaling socket outlives one attempt: it carries the room's
	// migration and votes between attempts.
	sig, err = lobby.DialSignal(context.WithoutCancel(ctx), lobby.SignalConfig{
		URL: m.SignalURL(), Origin: t.Origin, HTTP: d.cfg.HTTP, Handle: d.handle,
		OnConnect: d.onConnect, Reconnect: true, Log: d.cfg.Log,
	})
	if err != nil {
		if errors.Is(err, lobby.ErrInvalidOrigin) {
			return nil, session.Stay(err)
		}
		return nil, err
	}
	d.mu.Lock()
	d.sig = sig
	d.mu.Unlock()
	return sig, nil
}

// onConnect sends join_room again after a signaling reconnect.
func (d *Dialer) onConnect(_ lobby.Welcome, reconnect bool) {
	if !reconnect {
		return
	}
	d.mu.Lock()
	joined, t, sig := d.joined, d.target, d.sig
	d.mu.Unlock()
	if joined && t != nil && sig != nil {
		go d.joinRoomLater(t)
	}
}

// waitMigration holds a dial while the room's host changes.
func (d *Dialer) waitMigration(ctx context.Context) error {
	for {
		d.mu.Lock()
		if d.closed {
			why := d.closedWhy
			d.mu.Unlock()
			return session.Stay(errors.New(why))
		}
		if !d.migrating {
			d.mu.Unlock()
			return nil
		}
		ch, wait := d.changed, d.migDeadline.Sub(d.cfg.Now())
		d.mu.Unlock()
		if wait <= 0 {
			d.mu.Lock()
			d.migrating = false
			d.mu.Unlock()
			return errors.New("the room's host change did not complete in time")
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-ch:
		case <-t.C:
		}
		t.Stop()
	}
}

// Close leaves the room (leave_room) and closes the signaling socket.
func (d *Dialer) Close() error {
	d.mu.Lock()
	sig, joined, t := d.sig, d.joined, d.target
	d.sig, d.joined = nil, false
	d.mu.Unlock()
	if sig == nil {
		return nil
	}
	if joined && t != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		_ = sig.Send(ctx, lobby.LeaveRoomMsg(t.Room))
		cancel()
	}
	return sig.Close()
}

// newerRoom reports whether a listed room is a newer master's (it has a
// roomId; the older master names rooms by hostId only).
func newerRoom(raw json.RawMessage) bool {
	var w struct {
		RoomID *string `json:"roomId"`
	}
	return json.Unmarshal(raw, &w) == nil && w.RoomID != nil
}

// isNewer reports whether the master was seen to be of the newer generation.
func (d *Dialer) isNewer() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.newer
}

func (d *Dialer) notify(p session.PlatformEvent) {
	if d.cfg.Session != nil {
		d.cfg.Session.Notify(p)
	}
}
