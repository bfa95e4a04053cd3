package browser

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"vimpclient/hostlist"
	"vimpclient/hud/serverbrowser"
	"vimpclient/internal/desktop"
	"vimpclient/lobby"
	"vimpclient/termtext"
)

// The server browser's sign-in, sign-out, pasted tokens, "Play now" and
// saved rooms found again: run off the window's goroutine like the rest of
// the backend, answered through Backend.answer.

// accountBackend is the sign-in in progress (one at a time).
type accountBackend struct {
	mu    sync.Mutex
	login *signInRun
}

// signInRun is a sign-in in the system browser waiting for its return; a
// token pasted meanwhile goes to it through lines.
type signInRun struct {
	lines  chan string
	cancel context.CancelFunc
}

func (a *accountBackend) do(b *Backend, r serverbrowser.Request) {
	switch r.Kind {
	case serverbrowser.RequestSignInStart:
		go a.start(b)
	case serverbrowser.RequestSignInToken:
		go a.pasted(b, r.Text)
	case serverbrowser.RequestSignInCancel:
		a.mu.Lock()
		if a.login != nil {
			a.login.cancel()
		}
		a.mu.Unlock()
	case serverbrowser.RequestSignOut:
		go a.signOut(b)
	case serverbrowser.RequestPaste:
		go func() {
			text, err := desktop.ReadClipboard(b.ctx)
			b.answer(func(br *serverbrowser.Browser) { br.Pasted(text, err) })
		}()
	case serverbrowser.RequestQuickPlay:
		go b.quickPlay(r.GameID)
	case serverbrowser.RequestResolve:
		go b.resolve(r.Choice)
	}
}

// done answers the end of a sign-in with the state it left.
func (b *Backend) done(say string, failed bool) {
	s := b.signIn()
	b.answer(func(br *serverbrowser.Browser) { br.SignInDone(s, say, failed) })
}

func (b *Backend) say(text string, failed bool) {
	b.answer(func(br *serverbrowser.Browser) { br.Say(text, failed) })
}

// start signs in in the system browser through the identity service the
// master names (or -auth), returning to the loopback port operators
// allow-list, as `vimpclient login` does; the token is stored for the
// master.
func (a *accountBackend) start(b *Backend) {
	if b.tokens.Store == nil {
		b.done("Sign-in: no place to keep the token (no user config directory)", true)
		return
	}
	ctx, cancel := context.WithCancel(b.ctx)
	defer cancel()
	run := &signInRun{lines: make(chan string), cancel: cancel}
	a.mu.Lock()
	if a.login != nil {
		a.mu.Unlock()
		return
	}
	a.login = run
	a.mu.Unlock()
	// The sign-in is over before its end is answered: a token pasted
	// after the answer is checked and stored, not sent to a run that no
	// longer reads.
	release := func() {
		a.mu.Lock()
		a.login = nil
		a.mu.Unlock()
	}
	defer release()
	service, err := lobby.FindAuthService(ctx, b.master, b.Auth, b.tokens.Store.AuthURL(b.master.Key()))
	if err != nil {
		release()
		b.done("Sign-in: "+err.Error(), true)
		return
	}
	open := b.openURL
	if open == nil {
		open = desktop.OpenURL
	}
	l := &lobby.Login{Auth: service.URL, Port: b.loginPort, HTTP: b.client, Lines: run.lines, Now: b.now,
		Out: &nickPrompt{b: b},
		Open: func(u string) error {
			if err := open(u); err != nil {
				b.say(fmt.Sprintf("Could not open a browser (%v): open %s yourself, or P pastes a token", err, u), true)
				return nil
			}
			b.say("Sign in in your browser with "+service.URL+" (named by "+service.From+")", false)
			return nil
		}}
	token, err := l.Run(ctx)
	release()
	switch {
	case errors.Is(err, context.Canceled) && b.ctx.Err() == nil:
		b.done("Sign-in cancelled", false)
		return
	case err != nil:
		b.done(err.Error(), true)
		return
	}
	b.keep(token, service.URL)
}

// keep stores a token for the master and says who signed in.
func (b *Backend) keep(token, auth string) {
	if b.Redact != nil {
		b.Redact(token)
	}
	if err := b.tokens.Store.Save(b.master, token, auth); err != nil {
		b.done("Sign-in not kept: "+err.Error(), true)
		return
	}
	c, _ := lobby.ParseClaims(token)
	b.done("Signed in as "+termtext.Name(c.Nick), false)
}

// pasted takes a pasted token: to the sign-in waiting in the browser, or
// checked and stored at once.
func (a *accountBackend) pasted(b *Backend, token string) {
	token = strings.TrimSpace(token)
	a.mu.Lock()
	run := a.login
	a.mu.Unlock()
	if run != nil {
		select {
		case run.lines <- token:
		case <-b.ctx.Done():
		}
		return
	}
	if b.tokens.Store == nil {
		b.done("Sign-in: no place to keep the token (no user config directory)", true)
		return
	}
	if _, err := lobby.CheckToken(token, b.now()); err != nil {
		b.done("The pasted token "+err.Error(), true)
		return
	}
	b.keep(token, b.tokens.Store.AuthURL(b.master.Key()))
}

// signOut forgets the sign-in stored for the master; a token given on the
// command line or in VIMP_TOKEN is not the program's to forget.
func (a *accountBackend) signOut(b *Backend) {
	tok, err := b.tokens.For(b.master)
	if err == nil && tok.From != lobby.FromStoredSignIn {
		b.done("Signed in with "+tok.From+": that token is not stored, so there is nothing to forget", true)
		return
	}
	if b.tokens.Store != nil {
		if err := b.tokens.Store.Remove(b.master); err != nil {
			b.done("Sign-out: "+err.Error(), true)
			return
		}
	}
	b.done("Signed out", false)
}

// nickPrompt shows the sign-in's questions on the browser's status line:
// a first sign-in asks for a nick, typed into the paste field.
type nickPrompt struct{ b *Backend }

func (p *nickPrompt) Write(s []byte) (int, error) {
	line := strings.TrimSpace(string(s))
	if strings.Contains(line, "nick") {
		p.b.say(line+" (P, type it, Enter)", false)
	}
	return len(s), nil
}

// quickPlay finds the room to play gameID in now.
func (b *Backend) quickPlay(gameID string) {
	r, err := b.master.QuickPlay(b.ctx, gameID)
	c := roomChoice(b.master.URL(), r)
	b.answer(func(br *serverbrowser.Browser) { br.QuickPlayFound(c, err) })
}

// resolve finds a saved room on its master again: under its id, else by
// what lasts across its host's restarts.
func (b *Backend) resolve(c serverbrowser.Choice) {
	m := b.master
	if !sameOrigin(c.Address, m.URL()) {
		var err error
		if m, err = lobby.NewMaster(c.Address, b.client); err != nil {
			b.answer(func(br *serverbrowser.Browser) { br.Resolved(c, c, serverbrowser.ResolvedNone, 0, err) })
			return
		}
	}
	list, err := m.AllServers(b.ctx, lobby.Query{})
	if err != nil {
		b.answer(func(br *serverbrowser.Browser) { br.Resolved(c, c, serverbrowser.ResolvedNone, 0, err) })
		return
	}
	r, how, n := lobby.MatchRoom(list.Servers, lobby.RoomRef{ID: c.Room, Stable: c.RoomID != "", Name: c.Name, GameID: c.GameID, Owner: c.Owner})
	kind := map[lobby.Match]serverbrowser.ResolveKind{lobby.MatchExact: serverbrowser.ResolvedExact, lobby.MatchSame: serverbrowser.ResolvedSame,
		lobby.MatchLoose: serverbrowser.ResolvedLoose}[how]
	found := roomChoice(c.Address, r)
	if how == lobby.MatchSame {
		b.log.Info("saved room found under a new id", "room", c.Name, "was", c.Room, "now", r.ID)
	}
	b.answer(func(br *serverbrowser.Browser) { br.Resolved(c, found, kind, n, nil) })
}

// sameOrigin reports whether two master addresses are one master.
func sameOrigin(a, b string) bool {
	ma, err1 := lobby.NewMaster(a, nil)
	mb, err2 := lobby.NewMaster(b, nil)
	return err1 == nil && err2 == nil && ma.Home() == mb.Home()
}

// roomChoice is a listed room as the browser joins it.
func roomChoice(master string, r lobby.Room) serverbrowser.Choice {
	c := serverbrowser.Choice{Kind: hostlist.Lobby, Address: master, Room: r.ID, Name: r.Name, GameID: r.GameID, Owner: r.Owner}
	if r.Stable {
		c.RoomID = r.ID
	}
	return c
}
