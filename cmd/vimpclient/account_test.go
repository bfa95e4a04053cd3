package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"vimpclient/host"
	"vimpclient/host/lobbyroom"
	"vimpclient/hostlist"
	"vimpclient/hud"
	"vimpclient/internal/fakemaster"
	"vimpclient/lobby"
)

// `login MASTER` with no -auth signs in with the identity service the
// master's Content-Security-Policy names, and says so; a master that names
// none asks for -auth.
func TestLoginNamesTheMastersIdentityService(t *testing.T) {
	keys := lobbyHome(t)
	id := fakemaster.StartIdentity(keys)
	defer id.Close()
	fm := fakemaster.Start(fakemaster.Config{Keys: keys, AuthService: id.URL()})
	defer fm.Close()
	var out, errOut bytes.Buffer
	token := keys.Token("4", "Neo")
	code := runLogin(context.Background(), []string{"-no-browser", "-port", freePort(t), fm.URL()}, strings.NewReader(token+"\n"), &out, &errOut)
	want := "Identity service: " + id.URL() + " (from the master's Content-Security-Policy)"
	if code != 0 || !strings.Contains(out.String(), want) || !strings.Contains(out.String(), url.QueryEscape("http://127.0.0.1:")) {
		t.Fatalf("login: %d, want %q and the sign-in address on it\n%s%s", code, want, out.String(), errOut.String())
	}
	store, err := lobby.DefaultTokenStore()
	if err != nil {
		t.Fatal(err)
	}
	if got := store.AuthURL(hostKey(t, fm.URL())); got != id.URL() {
		t.Errorf("stored sign-in came from %q, want %q", got, id.URL())
	}

	bare := fakemaster.Start(fakemaster.Config{Keys: keys})
	defer bare.Close()
	out.Reset()
	errOut.Reset()
	code = runLogin(context.Background(), []string{"-no-browser", "-port", freePort(t), bare.URL()}, strings.NewReader(token+"\n"), &out, &errOut)
	if code != 1 || !strings.Contains(errOut.String(), "give -auth URL") {
		t.Fatalf("a master naming no service: %d\n%s", code, errOut.String())
	}
}

// pumpJoin runs the browser's requests on the backend until it asks for a
// join, and returns what it joins.
func pumpJoin(t testing.TB, b *hud.Browser, be *browserBackend, what string) hud.BrowserChoice {
	t.Helper()
	deadline := time.NewTimer(20 * time.Second)
	defer deadline.Stop()
	for {
		be.Apply(b)
		for _, r := range b.Requests() {
			if r.Kind == hud.RequestJoin {
				return r.Choice
			}
			be.Do(r)
		}
		select {
		case <-be.ready:
		case <-deadline.C:
			t.Fatalf("%s: no join within 20 s (status %q)", what, b.Status)
		}
	}
}

func hostKey(t *testing.T, addr string) string {
	t.Helper()
	m, err := lobby.NewMaster(addr, nil)
	if err != nil {
		t.Fatal(err)
	}
	return m.Key()
}

// browse plays the system browser on the stand-in identity service: the
// sign-in page, its form sent with a nick, and the redirect back to the
// loopback return address, whose page must say "Signed in".
func browse(start, nick string) error {
	resp, err := http.Get(start)
	if err != nil {
		return err
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	ret := regexp.MustCompile(`name="returnUrl" value="([^"]+)"`).FindSubmatch(page)
	if ret == nil {
		return fmt.Errorf("no sign-in form in %q", page)
	}
	u, _ := url.Parse(start)
	resp, err = http.PostForm(u.Scheme+"://"+u.Host+"/oauth/github/finish",
		url.Values{"returnUrl": {strings.ReplaceAll(string(ret[1]), "&amp;", "&")}, "nick": {nick}})
	if err != nil {
		return err
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(body), "Signed in as "+nick) {
		return fmt.Errorf("callback page %d: %q", resp.StatusCode, body)
	}
	return nil
}

// The browser's Sign in: a join without a sign-in is held, S opens the
// identity service the master names in the "system browser", its return
// to the loopback address stores the token, and the held join goes ahead.
// Sign out forgets it; a pasted token signs in again.
func TestBrowserSignsInFromTheWindow(t *testing.T) {
	keys := lobbyHome(t)
	id := fakemaster.StartIdentity(keys)
	defer id.Close()
	fm := fakemaster.Start(fakemaster.Config{Keys: keys, AuthService: id.URL()})
	defer fm.Close()
	fm.AddListed("Listed Room", "eu", 1, 8)
	m, _ := lobby.NewMaster(fm.URL(), http.DefaultClient)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	store, _ := lobby.DefaultTokenStore()
	be := newBrowserBackend(ctx, m, http.DefaultClient, fm.Origin(), lobby.TokenSources{Store: store}, slog.New(slog.DiscardHandler))
	defer be.close()
	var port int
	fmt.Sscan(freePort(t), &port)
	be.loginPort = port
	browsed := make(chan error, 1)
	be.openURL = func(u string) error {
		go func() { browsed <- browse(u, "Pilot") }()
		return nil
	}
	b := hud.NewBrowser(m.URL())
	b.Refresh()
	pump(t, b, be, "the rooms", func() bool { return len(b.Rows()) == 1 })
	if b.SignIn.State != hud.SignedOut {
		t.Fatalf("sign-in %+v", b.SignIn)
	}
	b.Key(13, false, false) // held: no sign-in
	if len(b.Requests()) != 0 || !strings.Contains(b.Status, "S signs in") {
		t.Fatalf("join not held: %q", b.Status)
	}
	b.Key(83, false, false) // S
	joins := pump(t, b, be, "the sign-in", func() bool { return b.SignIn.State == hud.SignedIn && !b.SigningIn() })
	if err := <-browsed; err != nil {
		t.Fatal(err)
	}
	if b.SignIn.Nick != "Pilot" || b.SignIn.Until.IsZero() || !strings.Contains(b.SignInText(), "Signed in as Pilot until") {
		t.Fatalf("sign-in line %q", b.SignInText())
	}
	if len(joins) != 1 || joins[0].Choice.Name != "Listed Room" {
		t.Fatalf("the held join did not go ahead: %+v", joins)
	}
	if got := id.Returns(); len(got) != 1 || !strings.HasPrefix(got[0], fmt.Sprintf("http://127.0.0.1:%d/callback?state=", port)) {
		t.Fatalf("return addresses %q", got)
	}
	if store.Load(m.Key()) == "" || store.AuthURL(m.Key()) != id.URL() {
		t.Fatal("the sign-in was not stored with its service")
	}

	b.Key(79, false, false) // O
	pump(t, b, be, "the sign-out", func() bool { return b.SignIn.State == hud.SignedOut })
	if store.Load(m.Key()) != "" {
		t.Fatal("sign-out left the token stored")
	}
	b.Key(80, false, false) // P
	b.Type([]rune("not-a-token"))
	b.Key(13, false, false)
	pump(t, b, be, "a bad paste", func() bool { return b.StatusError && strings.Contains(b.Status, "pasted token") })
	b.Key(80, false, false)
	b.Type([]rune(keys.Token("9", "Paster")))
	b.Key(13, false, false)
	pump(t, b, be, "a pasted token", func() bool { return b.SignIn.State == hud.SignedIn && b.SignIn.Nick == "Paster" })
}

// An expired stored token is noticed before joining and Sign in offered.
func TestBrowserNoticesExpiredToken(t *testing.T) {
	keys := lobbyHome(t)
	fm := fakemaster.Start(fakemaster.Config{Keys: keys})
	defer fm.Close()
	fm.AddListed("Listed Room", "eu", 1, 8)
	m, _ := lobby.NewMaster(fm.URL(), http.DefaultClient)
	store, _ := lobby.DefaultTokenStore()
	if err := store.Save(m, keys.Sign(fakemaster.TokenClaims{Sub: "1", Nick: "Old", Expiry: time.Now().Add(30 * time.Second)}), ""); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	be := newBrowserBackend(ctx, m, http.DefaultClient, fm.Origin(), lobby.TokenSources{Store: store}, slog.New(slog.DiscardHandler))
	defer be.close()
	b := hud.NewBrowser(m.URL())
	b.Refresh()
	pump(t, b, be, "the rooms", func() bool { return len(b.Rows()) == 1 })
	if b.SignIn.State != hud.SignInExpired {
		t.Fatalf("a token expiring within the minute: %+v", b.SignIn)
	}
	b.Key(13, false, false)
	if len(b.Requests()) != 0 || !strings.Contains(b.Status, "expired") || !strings.Contains(b.Status, "S signs in") {
		t.Fatalf("joined with an expired token: %q", b.Status)
	}
}

// A favourite of an older master's room made before its host restarted
// joins the restarted room (a new hostId, the same name and game); a
// favourite whose name is now only another game's room says so and
// offers it.
func TestFavouriteJoinsRestartedRoom(t *testing.T) {
	keys := lobbyHome(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	log := slog.New(slog.DiscardHandler)
	fm := fakemaster.Start(fakemaster.Config{Keys: keys, Log: log})
	defer fm.Close()
	srv, err := host.Start(ctx, host.Config{Bots: 1, Log: log})
	if err != nil {
		t.Fatal(err)
	}
	openRoom := func() (context.CancelFunc, chan struct{}) {
		rctx, stop := context.WithCancel(ctx)
		r, err := lobbyroom.Open(rctx, srv, lobbyroom.Config{Master: fm.URL(), Name: "Rig Room", Token: keys.Token("1", "Hoster"), Log: log})
		if err != nil {
			t.Fatal(err)
		}
		done := make(chan struct{})
		go func() { defer close(done); _ = r.Run(rctx) }()
		return stop, done
	}
	stop, done := openRoom()
	if err := fm.WaitRooms(ctx, 1); err != nil {
		t.Fatal(err)
	}
	before := fm.RoomIDs()[0]
	snaky := fm.AddRoom(fakemaster.Listed{Name: "Snaky", GameID: "snakes", Players: 1, MaxPlayers: 8})

	path, _ := hostlist.DefaultPath()
	l := &hostlist.List{}
	_ = l.SetFavourite(hostlist.Entry{Kind: hostlist.Lobby, Address: fm.URL(), Room: before, Name: "Rig Room", GameID: "tanks"}, true)
	_ = l.SetFavourite(hostlist.Entry{Kind: hostlist.Lobby, Address: fm.URL(), Room: "gone-id", Name: "Snaky", GameID: "tanks"}, true)
	if err := l.Save(path); err != nil {
		t.Fatal(err)
	}
	stop() // the host restarts: a new registration, a new hostId
	<-done
	if err := fm.WaitGone(ctx, before); err != nil {
		t.Fatal(err)
	}
	stop, done = openRoom()
	defer func() { stop(); <-done }()
	if err := fm.WaitRooms(ctx, 2); err != nil {
		t.Fatal(err)
	}
	after := ""
	for _, id := range fm.RoomIDs() {
		if id != snaky {
			after = id
		}
	}

	token := keys.Token("2", "Alice")
	p := &playFlags{set: setFlag{}, cache: "-"}
	p.lobby.token = token
	conn, err := newConnection(p, "window", fm.URL(), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	conn.log = log
	m, _ := lobby.NewMaster(fm.URL(), http.DefaultClient)
	be := newBrowserBackend(ctx, m, http.DefaultClient, fm.Origin(), lobby.TokenSources{Flag: token}, log)
	defer be.close()
	mm := &matchMaker{p: p, conn: conn, tokens: p.lobby.tokenSources()}
	b := hud.NewBrowser(m.URL())
	b.Refresh()
	pump(t, b, be, "rooms, sign-in, favourites", func() bool {
		return len(b.Rows()) == 2 && b.SignIn.State == hud.SignedIn && b.TabCount(hud.TabFavourites) == 2
	})
	if !b.Rows()[rowByName(b, "Rig Room")].Favourite {
		t.Fatal("the restarted room is not shown as the favourite")
	}
	b.SetTab(hud.TabFavourites)
	b.Sel = rowByName(b, "Snaky")
	b.Key(13, false, false)
	pump(t, b, be, "the stale favourite", func() bool { return strings.Contains(b.Status, "Enter joins it") })
	if !strings.Contains(b.Status, "“Snaky” is not on its master any more") || !strings.Contains(b.Status, "(snakes)") {
		t.Fatalf("stale entry: %q", b.Status)
	}
	b.Key(13, false, false)
	if c := pumpJoin(t, b, be, "the offer"); c.Room != snaky {
		t.Fatalf("Enter on the offer joined %+v", c)
	}

	b.Sel = rowByName(b, "Rig Room")
	b.Key(13, false, false)
	join := pumpJoin(t, b, be, "the favourite")
	if join.Room != after {
		t.Fatalf("joined %q, want the restarted room %q (was %q)", join.Room, after, before)
	}
	match, err := mm.join(ctx, join)
	if err != nil {
		t.Fatal(err)
	}
	defer match.Stop()
	// A join is kept once it plays (the session tells its recent list
	// before it queues the playing state the loop waits for).
	untilPlaying(t, match)
	saved, _ := hostlist.Load(path)
	for _, e := range saved.Favourites() {
		if e.Name == "Rig Room" && e.Room != after {
			t.Errorf("the favourite keeps the old id %q", e.Room)
		}
	}
}
