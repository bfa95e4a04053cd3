// Package lobbyroom lists the embedded host's match as a room of a lobby
// master and serves the players who join it over WebRTC: it registers the
// room through the master's signaling, reports the player count, answers
// each offer, and hands each pair of data channels to the host's port state
// machine (host.Server.ServePeer), which verifies the joiner's identity
// token against the master's keys. The host's own WebSocket keeps working
// beside it.
package lobbyroom

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/pion/webrtc/v4"

	"vimpclient/host"
	"vimpclient/lobby"
	"vimpclient/rtcpeer"
)

// Timings and bounds of a hosted room.
const (
	registerTimeout = 10 * time.Second
	// heartbeatEvery keeps the room listed (the master drops a room silent
	// for 30 s); the player count is checked every statusEvery and reported
	// at once when it changes.
	heartbeatEvery = 10 * time.Second
	statusEvery    = time.Second
	openTimeout    = 20 * time.Second
	maxCandidates  = 64
)

// Config configures a hosted room.
type Config struct {
	Master     string // the master's address
	Origin     string // "" derives https://host[:port]
	Name       string // the room's name in the list
	MaxPlayers int    // 0: the host's own cap
	Token      string // the hoster's identity token (the master verifies it)
	// TokenHome is the origin of the master Token belongs to (what
	// lobby.TokenSources.For found); "" binds it to Master. register_host
	// is sent only to that master.
	TokenHome string
	HTTP      *http.Client
	Log       *slog.Logger
	API       *webrtc.API
	// WrapPeer, when set, wraps each joiner's channels before the host
	// serves them (tests reorder frames with it).
	WrapPeer func(host.Peer) host.Peer
}

// Room is a registered room.
type Room struct {
	cfg    Config
	srv    *host.Server
	api    *webrtc.API
	master *lobby.Master
	verify *lobby.Verifier
	sig    *lobby.Signal
	log    *slog.Logger
	ctx    context.Context

	registered chan *lobby.HostRegistered
	refused    chan *lobby.Error

	mu    sync.Mutex
	id    string
	peers map[string]*answerer
	wg    sync.WaitGroup
}

// Open registers srv's match with the master and serves joiners until ctx
// ends; then the signaling socket closes (the room leaves the list at once)
// and Run returns after every peer ended.
func Open(ctx context.Context, srv *host.Server, cfg Config) (*Room, error) {
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.HTTP == nil {
		cfg.HTTP = http.DefaultClient
	}
	if cfg.MaxPlayers <= 0 || cfg.MaxPlayers > srv.MaxPlayers() {
		cfg.MaxPlayers = srv.MaxPlayers()
	}
	m, err := lobby.NewMaster(cfg.Master, cfg.HTTP)
	if err != nil {
		return nil, err
	}
	api := cfg.API
	if api == nil {
		api = rtcpeer.NewAPI(cfg.Log)
	}
	origin := cfg.Origin
	if origin == "" {
		origin = m.Origin()
	}
	r := &Room{cfg: cfg, srv: srv, api: api, master: m, log: cfg.Log, ctx: ctx,
		verify:     &lobby.Verifier{Fetch: m.JWKS},
		registered: make(chan *lobby.HostRegistered, 1), refused: make(chan *lobby.Error, 1),
		peers: map[string]*answerer{}}
	sig, err := lobby.DialSignal(ctx, lobby.SignalConfig{URL: m.SignalURL(), Origin: origin, HTTP: cfg.HTTP,
		Handle: r.handle, OnConnect: r.onConnect, Reconnect: true, Log: cfg.Log})
	if err != nil {
		return nil, err
	}
	r.sig = sig
	if err := r.register(ctx); err != nil {
		_ = sig.Close()
		return nil, err
	}
	return r, nil
}

// token is the hoster's token, bound to its master.
func (r *Room) token() lobby.Token {
	home := r.cfg.TokenHome
	if home == "" {
		home = r.master.Home()
	}
	return lobby.Token{Value: r.cfg.Token, Home: home}
}

func (r *Room) registerMsg(token string) []byte {
	return lobby.RegisterHostMsg(lobby.RegisterHost{Name: r.cfg.Name, MaxPlayers: r.cfg.MaxPlayers,
		MapName: r.srv.MapName(), GameID: r.srv.GameID(), GameVersion: r.srv.Version(), Token: token})
}

// register sends register_host and waits for the master's answer.
func (r *Room) register(ctx context.Context) error {
	for drained := false; !drained; {
		select {
		case <-r.refused:
		case <-r.registered:
		default:
			drained = true
		}
	}
	if err := r.sig.SendToken(ctx, r.token(), r.registerMsg); err != nil {
		return fmt.Errorf("lobby room: register_host: %w", err)
	}
	t := time.NewTimer(registerTimeout)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return errors.New("lobby room: the master did not confirm the registration")
	case e := <-r.refused:
		return fmt.Errorf("lobby room: registration refused: %w", e.Err())
	case h := <-r.registered:
		r.mu.Lock()
		r.id = h.Room()
		r.mu.Unlock()
		r.log.Info("lobby room registered", "room", h.Room(), "name", r.cfg.Name)
		return nil
	}
}

// onConnect registers again after the signaling socket came back (the
// master forgot the room when the socket dropped; joined peers are not
// affected).
func (r *Room) onConnect(_ lobby.Welcome, reconnect bool) {
	if reconnect {
		go func() {
			if err := r.register(r.ctx); err != nil {
				r.log.Warn("lobby room: registering again failed", "err", err)
			}
		}()
	}
}

// ID is the room's id on the master.
func (r *Room) ID() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.id
}

// Run reports the player count until ctx ends, then leaves.
func (r *Room) Run(ctx context.Context) error {
	players, mapName := -1, ""
	lastSent := time.Now()
	tick := time.NewTicker(statusEvery)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			_ = r.sig.Close()
			r.wg.Wait()
			return nil
		case <-r.sig.Done():
			r.wg.Wait()
			if err := r.sig.Err(); err != nil {
				return fmt.Errorf("lobby room: %w", err)
			}
			return nil
		case now := <-tick.C:
			p, mn := r.srv.Players(), r.srv.MapName()
			var msg []byte
			switch {
			case p != players || mn != mapName:
				msg = lobby.UpdateHostMsg(r.cfg.Name, p, mn)
			case now.Sub(lastSent) >= heartbeatEvery:
				msg = lobby.HeartbeatMsg()
			default:
				continue
			}
			if err := r.sig.Send(ctx, msg); err != nil {
				r.log.Debug("lobby room: status not sent", "err", err)
				continue
			}
			players, mapName, lastSent = p, mn, now
		}
	}
}

// handle routes signaling messages (never blocking the read goroutine).
func (r *Room) handle(msg any) {
	switch m := msg.(type) {
	case *lobby.HostRegistered:
		select {
		case r.registered <- m:
		default:
		}
	case *lobby.Error:
		if m.Re == "" || m.Re == lobby.TypeRegisterHost {
			select {
			case r.refused <- m:
			default:
			}
		}
		r.log.Info("lobby room: the master refused a request", "code", m.Code, "re", m.Re)
	case *lobby.PingHost:
		go r.send(lobby.PongHostMsg(m.ClientID, m.PingID))
	case *lobby.Offer:
		r.offer(m)
	case *lobby.RemoteCandidate:
		r.mu.Lock()
		a := r.peers[m.FromID]
		r.mu.Unlock()
		if a != nil {
			a.candidate(m.Candidate)
		}
	}
}

func (r *Room) send(msg []byte) {
	ctx, cancel := context.WithTimeout(r.ctx, 5*time.Second)
	defer cancel()
	if err := r.sig.Send(ctx, msg); err != nil {
		r.log.Debug("lobby room: signaling message not sent", "err", err)
	}
}

// maxPeers bounds the peers being set up or served at once.
func (r *Room) maxPeers() int { return 2*r.cfg.MaxPlayers + 4 }

// offer answers a joiner's offer. A joiner offers again only when it lost
// its connection; the host may not have noticed the loss yet (a dead peer
// is seen only when its transport times out), so a new offer from a joiner
// whose old peer is still served ends the old peer — its player is then a
// lost connection whose seat the new one may ask back — and is answered.
// Ignoring it would leave the joiner waiting for an answer that never
// comes, past the time its seat is held.
func (r *Room) offer(o *lobby.Offer) {
	r.mu.Lock()
	old := r.peers[o.ClientID]
	if (old == nil && len(r.peers) >= r.maxPeers()) || r.ctx.Err() != nil {
		r.mu.Unlock()
		return
	}
	ctx, cancel := context.WithCancel(r.ctx)
	a := &answerer{room: r, clientID: o.ClientID, cancel: cancel}
	r.peers[o.ClientID] = a
	r.wg.Add(1)
	r.mu.Unlock()
	if old != nil {
		old.cancel()
		r.log.Info("lobby room: a joiner offered again: its old peer is ended", "client", o.ClientID)
	}
	go func() {
		defer r.wg.Done()
		defer cancel()
		defer func() {
			r.mu.Lock()
			if r.peers[o.ClientID] == a {
				delete(r.peers, o.ClientID)
			}
			r.mu.Unlock()
		}()
		if err := a.serve(ctx, o.SDP, o.Resume); err != nil {
			r.log.Info("lobby room: joiner not connected", "client", o.ClientID, "err", err)
		}
	}()
}

// verifyToken is the host's token check: the master's keys, iss, exp, nick.
func (r *Room) verifyToken(ctx context.Context, token string) (string, error) {
	c, err := r.verify.Verify(ctx, token)
	if err != nil {
		return "", err
	}
	return c.Nick, nil
}
