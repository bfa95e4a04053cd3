package browser

import (
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

	"vimpclient/hud/serverbrowser"
	"vimpclient/lobby"
	"vimpclient/testkit/browsertest"
	"vimpclient/testkit/fakemaster"
)

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
	keys := browsertest.Home(t)
	id := fakemaster.StartIdentity(keys)
	defer id.Close()
	fm := fakemaster.Start(fakemaster.Config{Keys: keys, AuthService: id.URL()})
	defer fm.Close()
	fm.AddListed("Listed Room", "eu", 1, 8)
	m, _ := lobby.NewMaster(fm.URL(), http.DefaultClient)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	store, _ := lobby.DefaultTokenStore()
	be := New(ctx, m, http.DefaultClient, fm.Origin(), lobby.TokenSources{Store: store}, slog.New(slog.DiscardHandler))
	defer be.Close()
	var port int
	fmt.Sscan(browsertest.FreePort(t), &port)
	be.loginPort = port
	browsed := make(chan error, 1)
	be.openURL = func(u string) error {
		go func() { browsed <- browse(u, "Pilot") }()
		return nil
	}
	b := serverbrowser.New(m.URL())
	b.Refresh()
	browsertest.Pump(t, b, be, "the rooms", func() bool { return len(b.Rows()) == 1 })
	if b.SignIn.State != serverbrowser.SignedOut {
		t.Fatalf("sign-in %+v", b.SignIn)
	}
	b.Key(13, false, false) // held: no sign-in
	if len(b.Requests()) != 0 || !strings.Contains(b.Status, "S signs in") {
		t.Fatalf("join not held: %q", b.Status)
	}
	b.Key(83, false, false) // S
	joins := browsertest.Pump(t, b, be, "the sign-in", func() bool { return b.SignIn.State == serverbrowser.SignedIn && !b.SigningIn() })
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
	browsertest.Pump(t, b, be, "the sign-out", func() bool { return b.SignIn.State == serverbrowser.SignedOut })
	if store.Load(m.Key()) != "" {
		t.Fatal("sign-out left the token stored")
	}
	b.Key(80, false, false) // P
	b.Type([]rune("not-a-token"))
	b.Key(13, false, false)
	browsertest.Pump(t, b, be, "a bad paste", func() bool { return b.StatusError && strings.Contains(b.Status, "pasted token") })
	b.Key(80, false, false)
	b.Type([]rune(keys.Token("9", "Paster")))
	b.Key(13, false, false)
	browsertest.Pump(t, b, be, "a pasted token", func() bool { return b.SignIn.State == serverbrowser.SignedIn && b.SignIn.Nick == "Paster" })
}

// An expired stored token is noticed before joining and Sign in offered.
func TestBrowserNoticesExpiredToken(t *testing.T) {
	keys := browsertest.Home(t)
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
	be := New(ctx, m, http.DefaultClient, fm.Origin(), lobby.TokenSources{Store: store}, slog.New(slog.DiscardHandler))
	defer be.Close()
	b := serverbrowser.New(m.URL())
	b.Refresh()
	browsertest.Pump(t, b, be, "the rooms", func() bool { return len(b.Rows()) == 1 })
	if b.SignIn.State != serverbrowser.SignInExpired {
		t.Fatalf("a token expiring within the minute: %+v", b.SignIn)
	}
	b.Key(13, false, false)
	if len(b.Requests()) != 0 || !strings.Contains(b.Status, "expired") || !strings.Contains(b.Status, "S signs in") {
		t.Fatalf("joined with an expired token: %q", b.Status)
	}
}
