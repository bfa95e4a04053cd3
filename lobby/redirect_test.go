package lobby_test

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"vimpclient/lobby"
	"vimpclient/sameorigin"
	"vimpclient/testkit/fakemaster"
)

// elsewhere sends every request to other, the same path and query.
func elsewhere(other *fakemaster.Master) func(*http.Request) string {
	return func(r *http.Request) string { return other.URL() + r.URL.RequestURI() }
}

// host is a master's address as an error names it (no scheme).
func host(fm *fakemaster.Master) string { return strings.TrimPrefix(fm.URL(), "http://") }

// A master whose HTTP answers and signaling upgrade point at another origin
// gets an error that names both; the other origin gets nothing.
func TestMasterRedirectElsewhereRefused(t *testing.T) {
	other := fakemaster.Start(fakemaster.Config{Keys: testKeys(t), AnyOrigin: true})
	defer other.Close()
	other.AddListed("Elsewhere", "eu", 0, 8)
	fm := fakemaster.Start(fakemaster.Config{Keys: testKeys(t), Redirect: elsewhere(other)})
	defer fm.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	m, err := lobby.NewMaster(fm.URL(), nil)
	if err != nil {
		t.Fatal(err)
	}
	checks := map[string]error{}
	_, checks["/servers"] = m.AllServers(ctx, lobby.Query{})
	_, checks["/games/tanks/manifest.json"] = m.Manifest(ctx, "tanks")
	_, checks["/auth/jwks"] = m.JWKS(ctx)
	_, checks["signaling"] = lobby.DialSignal(ctx, lobby.SignalConfig{URL: m.SignalURL(), Origin: m.Origin()})
	for what, err := range checks {
		if !errors.Is(err, sameorigin.ErrRedirect) {
			t.Errorf("%s: %v, want a refused redirect", what, err)
			continue
		}
		if !strings.Contains(err.Error(), host(fm)) || !strings.Contains(err.Error(), host(other)) {
			t.Errorf("%s: the error names not both addresses: %v", what, err)
		}
	}
	if n := len(other.Requests()); n != 0 {
		t.Errorf("the other origin got %d requests: %+v", n, other.Requests())
	}
	if len(fm.Requests()) != len(checks) {
		t.Errorf("the master got %d requests, want %d", len(fm.Requests()), len(checks))
	}
}

// A redirect within the master's origin is followed; the signaling upgrade
// follows none, as a browser's WebSocket.
func TestMasterRedirectWithinOrigin(t *testing.T) {
	var fm *fakemaster.Master
	fm = fakemaster.Start(fakemaster.Config{Keys: testKeys(t), Redirect: func(r *http.Request) string {
		if r.URL.Path == "/servers" && r.URL.Query().Get("hop") == "" {
			u := *r.URL
			q := u.Query()
			q.Set("hop", "1")
			u.RawQuery = q.Encode()
			return u.RequestURI()
		}
		if r.Header.Get("Upgrade") != "" && r.URL.Path == "/" {
			return "/again/"
		}
		return ""
	}})
	defer fm.Close()
	fm.AddListed("Here", "eu", 0, 8)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	m, _ := lobby.NewMaster(fm.URL(), nil)
	list, err := m.AllServers(ctx, lobby.Query{})
	if err != nil || len(list.Servers) != 1 {
		t.Fatalf("same-origin redirect of /servers: %+v %v", list, err)
	}
	hops := 0
	for _, r := range fm.Requests() {
		if strings.Contains(r.URI, "hop=1") {
			hops++
		}
	}
	if hops != 1 {
		t.Errorf("%d redirected requests, want 1: %+v", hops, fm.Requests())
	}
	var re *sameorigin.RedirectError
	if _, err := lobby.DialSignal(ctx, lobby.SignalConfig{URL: m.SignalURL(), Origin: m.Origin()}); !errors.As(err, &re) || !re.WebSocket {
		t.Errorf("signaling followed a redirect: %v", err)
	}
}

// A token goes out on a signaling socket only when the socket's master is
// the token's own.
func TestSendTokenChecksTheMaster(t *testing.T) {
	fm := fakemaster.Start(fakemaster.Config{Dialect: fakemaster.Newer, Keys: testKeys(t)})
	defer fm.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	m, _ := lobby.NewMaster(fm.URL(), nil)
	s, err := lobby.DialSignal(ctx, lobby.SignalConfig{URL: m.SignalURL(), Origin: m.Origin()})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	secret := testKeys(t).Token("8", "Trinity")
	build := func(token string) []byte { return lobby.JoinRoomMsg("abcdefgh", "member", token) }
	u, _ := url.Parse(fm.URL())
	u.Host = "127.0.0.1:1"
	for name, tok := range map[string]lobby.Token{
		"another port":   {Value: secret, Home: sameorigin.Of(u)},
		"another scheme": {Value: secret, Home: strings.Replace(m.Home(), "http:", "https:", 1)},
		"unbound":        {Value: secret},
	} {
		if err := s.SendToken(ctx, tok, build); !errors.Is(err, lobby.ErrTokenElsewhere) {
			t.Errorf("%s: %v", name, err)
		}
	}
	// A message after the refused ones shows the master read its socket
	// up to there.
	if err := s.Send(ctx, lobby.HeartbeatMsg()); err != nil {
		t.Fatal(err)
	}
	if err := fm.WaitSeen(ctx, "heartbeat"); err != nil {
		t.Fatal(err)
	}
	if fm.Saw(secret) {
		t.Fatal("a token bound to another master reached this one")
	}
	if err := s.SendToken(ctx, lobby.Token{Value: secret, Home: m.Home()}, build); err != nil {
		t.Fatal(err)
	}
	if err := fm.WaitSeen(ctx, lobby.TypeJoinRoom); err != nil || !fm.Saw(secret) {
		t.Errorf("the token did not reach its own master: %v", err)
	}
}
