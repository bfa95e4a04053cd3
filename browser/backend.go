// Package browser is the back end of the window's server browser and start
// screen: it runs the browser's requests (the master's room list,
// latencies through the master's signaling, the sign-in state, sign-in and
// sign-out, the recent and favourite hosts, quick play, saved rooms found
// again) on goroutines of its own and queues the answers for the window's
// goroutine; and it lists the start screen's pages (the hosts joined
// before, the recordings).
package browser

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"vimpclient/hostlist"
	"vimpclient/hud/serverbrowser"
	"vimpclient/lobby"
)

// maxAnswers bounds the answers waiting for the window (a window that
// stopped drawing must not make them pile up).
const maxAnswers = 1024

// Backend implements window.Backend for one master.
type Backend struct {
	ctx    context.Context
	master *lobby.Master
	client *http.Client
	origin string // the signaling Origin
	tokens lobby.TokenSources
	// Auth is the identity service to sign in with ("": the one the master
	// names).
	Auth string
	// Redact keeps a token signed in with out of the logs (nil: none).
	Redact func(secret string)

	loginPort int                    // the sign-in's loopback port (0: lobby.LoginPort)
	openURL   func(url string) error // shows the sign-in (nil: the system browser)
	hostsPath string                 // "": the host list is not kept
	log       *slog.Logger
	now       func() time.Time

	mu      sync.Mutex
	answers []func(*serverbrowser.Browser)
	ready   chan struct{} // signalled when an answer is queued
	sig     *lobby.Signal
	dialing chan struct{} // closed when a dial in progress ends
	hosts   sync.Mutex    // one change of the host list file at a time
	account accountBackend
}

// New is the back end of m's browser; its requests end with ctx. origin is
// the Origin of the master's signaling.
func New(ctx context.Context, m *lobby.Master, client *http.Client, origin string, tokens lobby.TokenSources, log *slog.Logger) *Backend {
	b := &Backend{ctx: ctx, master: m, client: client, origin: origin, tokens: tokens, log: log, now: time.Now,
		ready: make(chan struct{}, 1)}
	if p, err := hostlist.DefaultPath(); err == nil {
		b.hostsPath = p
	}
	return b
}

// Do implements window.Backend.
func (b *Backend) Do(r serverbrowser.Request) {
	switch r.Kind {
	case serverbrowser.RequestRooms:
		go b.rooms(r)
	case serverbrowser.RequestLatency:
		go b.latencies(r.Rooms)
	case serverbrowser.RequestSignIn:
		s := b.signIn()
		b.answer(func(br *serverbrowser.Browser) { br.SetSignIn(s) })
	case serverbrowser.RequestHosts:
		go b.loadHosts()
	case serverbrowser.RequestFavourite:
		go b.favourite(r.Entry, r.On)
	default:
		b.account.do(b, r) // sign-in, play now, saved rooms (account.go)
	}
}

// Apply implements window.Backend.
func (b *Backend) Apply(br *serverbrowser.Browser) {
	b.mu.Lock()
	answers := b.answers
	b.answers = nil
	b.mu.Unlock()
	for _, f := range answers {
		f(br)
	}
}

func (b *Backend) answer(f func(*serverbrowser.Browser)) {
	b.mu.Lock()
	if len(b.answers) < maxAnswers {
		b.answers = append(b.answers, f)
	}
	b.mu.Unlock()
	select {
	case b.ready <- struct{}{}:
	default:
	}
}

// rooms fetches one page of the room list.
func (b *Backend) rooms(r serverbrowser.Request) {
	page, err := b.master.Servers(b.ctx, lobby.Query{Search: r.Search, Offset: r.Offset, Limit: r.Limit})
	rooms := make([]serverbrowser.Room, 0, len(page.Servers))
	for _, s := range page.Servers {
		rooms = append(rooms, serverbrowser.Room{ID: s.ID, Name: s.Name, GameID: s.GameID, MapName: s.MapName, Region: s.Region,
			Players: s.CurrentPlayers, MaxPlayers: s.MaxPlayers, Rating: s.Rating, Stable: s.Stable, Owner: s.Owner})
	}
	if err != nil && b.ctx.Err() != nil {
		return
	}
	unshown := page.Unreadable + page.OverLimit
	b.answer(func(br *serverbrowser.Browser) {
		br.SetRooms(r.Gen, r.Offset, page.Total, rooms, err)
		br.SetUnshown(r.Gen, unshown, "entries this client cannot read")
	})
}

// latencies pings the rooms through the master, within its ping budget.
func (b *Backend) latencies(rooms []string) {
	sig, err := b.signal()
	if err != nil {
		b.log.Debug("latencies not measured", "err", err)
		for _, id := range rooms {
			b.answer(func(br *serverbrowser.Browser) { br.SetLatency(id, 0, false) })
		}
		return
	}
	var wg sync.WaitGroup
	for _, id := range rooms {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rtt, err := sig.Ping(b.ctx, id)
			if b.ctx.Err() != nil {
				return
			}
			b.answer(func(br *serverbrowser.Browser) { br.SetLatency(id, rtt, err == nil) })
		}()
	}
	wg.Wait()
}

// signal is the signaling connection pings go over: dialed at the first
// ping, again when it dropped.
func (b *Backend) signal() (*lobby.Signal, error) {
	for {
		b.mu.Lock()
		if b.sig != nil {
			select {
			case <-b.sig.Done():
				b.sig = nil
			default:
				s := b.sig
				b.mu.Unlock()
				return s, nil
			}
		}
		if wait := b.dialing; wait != nil {
			b.mu.Unlock()
			select {
			case <-wait:
				continue
			case <-b.ctx.Done():
				return nil, b.ctx.Err()
			}
		}
		done := make(chan struct{})
		b.dialing = done
		b.mu.Unlock()
		sig, err := lobby.DialSignal(b.ctx, lobby.SignalConfig{URL: b.master.SignalURL(), Origin: b.origin, HTTP: b.client, Log: b.log})
		b.mu.Lock()
		b.sig, b.dialing = sig, nil
		b.mu.Unlock()
		close(done)
		return sig, err
	}
}

// Ready is signalled when an answer is queued for Apply.
func (b *Backend) Ready() <-chan struct{} { return b.ready }

// Close ends the signaling connection.
func (b *Backend) Close() {
	b.mu.Lock()
	sig := b.sig
	b.sig = nil
	b.mu.Unlock()
	if sig != nil {
		_ = sig.Close()
	}
}

// signIn reads the token for the master and says whether it can be used.
func (b *Backend) signIn() serverbrowser.SignIn {
	var s serverbrowser.SignIn
	tok, err := b.tokens.For(b.master)
	token, from := tok.Value, tok.From
	if errors.Is(err, lobby.ErrNoToken) {
		return s
	}
	if err != nil {
		s.State, s.Problem = serverbrowser.SignInBad, err.Error()
		return s
	}
	c, err := lobby.ParseClaims(token)
	if err != nil {
		s.State, s.From, s.Problem = serverbrowser.SignInBad, from, "the token from "+from+" is not one"
		return s
	}
	s.Nick, s.Until, s.From = c.Nick, c.Expiry, from
	if err := lobby.CheckFresh(c, b.now()); err != nil {
		s.State = serverbrowser.SignInExpired
		return s
	}
	s.State = serverbrowser.SignedIn
	return s
}

func (b *Backend) loadHosts() {
	if b.hostsPath == "" {
		return
	}
	l, err := hostlist.Load(b.hostsPath)
	if err != nil {
		b.log.Warn("recent hosts not read", "err", err)
		return
	}
	if l.Damage != "" {
		b.log.Warn("recent hosts not read in full: the file is set aside at the next change", "file", b.hostsPath, "why", l.Damage)
	}
	b.answer(func(br *serverbrowser.Browser) { br.SetHosts(l) })
}

// favourite marks or unmarks an entry in the host list file.
func (b *Backend) favourite(e hostlist.Entry, on bool) {
	if b.hostsPath == "" {
		return
	}
	b.hosts.Lock()
	defer b.hosts.Unlock()
	l, err := hostlist.Load(b.hostsPath)
	if err == nil {
		err = l.SetFavourite(e, on)
	}
	if err == nil {
		err = l.Save(b.hostsPath)
	}
	if err != nil {
		b.log.Warn("favourite not kept", "err", err)
		msg := "favourite not kept: " + err.Error()
		b.answer(func(br *serverbrowser.Browser) { br.Say(msg, true) })
		return
	}
	b.answer(func(br *serverbrowser.Browser) { br.SetHosts(l) })
}
