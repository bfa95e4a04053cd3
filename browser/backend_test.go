package browser

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"vimpclient/hostlist"
	"vimpclient/hud/serverbrowser"
	"vimpclient/lobby"
	"vimpclient/testkit/browsertest"
	"vimpclient/testkit/fakemaster"
)

// The browser's backend against a master: the rooms, a latency for the
// hosted room and none for the one with no host, the sign-in state read
// from the token, and a favourite kept in the host list file.
func TestBrowserBackend(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	w := browsertest.NewWorld(t)
	be := newBackend(w, w.Keys.Token("2", "Alice"))
	defer be.Close()
	b := serverbrowser.New(w.Master.URL())
	b.Refresh()
	browsertest.Pump(t, b, be, "rooms and latencies", func() bool {
		if len(b.Rows()) != 2 {
			return false
		}
		for _, r := range b.Rows() {
			if c := r.Cells[serverbrowser.ColLatency]; c == "…" || c == "–" {
				return false
			}
		}
		return true
	})
	native, listed := b.Rows()[browsertest.RowByName(b, "Native Room")], b.Rows()[browsertest.RowByName(b, "Listed Room")]
	if !strings.HasSuffix(native.Cells[serverbrowser.ColLatency], " ms") || listed.Cells[serverbrowser.ColLatency] != "no answer" {
		t.Fatalf("latencies %q, %q", native.Cells[serverbrowser.ColLatency], listed.Cells[serverbrowser.ColLatency])
	}
	if s := b.SignIn; s.State != serverbrowser.SignedIn || s.Nick != "Alice" || s.From != "-token" {
		t.Fatalf("sign-in %+v", s)
	}
	b.Sel = browsertest.RowByName(b, "Native Room")
	b.Key(70, false, false) // F
	var fav *serverbrowser.Request
	for _, r := range b.Requests() {
		if r.Kind == serverbrowser.RequestFavourite {
			fav = &r
		}
	}
	if fav == nil || !fav.On {
		t.Fatalf("F asked for no favourite: %+v", fav)
	}
	be.favourite(fav.Entry, fav.On) // what Do runs on a goroutine of its own
	path, _ := hostlist.DefaultPath()
	l, err := hostlist.Load(path)
	if err != nil || len(l.Favourites()) != 1 {
		t.Fatalf("favourites in %s: %+v, %v", path, l, err)
	}
	if f := l.Favourites()[0]; f.Kind != hostlist.Lobby || f.Room != w.Room || f.Name != "Native Room" || f.Address != w.Master.URL() {
		t.Fatalf("favourite %+v", f)
	}
	be.Apply(b)
	if b.TabCount(serverbrowser.TabFavourites) != 1 {
		t.Fatal("the saved list did not come back to the browser")
	}

	for token, want := range map[string]serverbrowser.SignInState{
		"":             serverbrowser.SignedOut,
		"not-a-token!": serverbrowser.SignInBad,
		w.Keys.Sign(fakemaster.TokenClaims{Sub: "2", Nick: "Old", Expiry: time.Now().Add(-time.Hour)}): serverbrowser.SignInExpired,
	} {
		s := newBackend(w, token).signIn()
		if s.State != want {
			t.Errorf("token %.12q: %+v", token, s)
		}
	}
}

// newBackend is the back end of w's master with token as -token.
func newBackend(w *browsertest.World, token string) *Backend {
	return New(w.Ctx, w.Master, http.DefaultClient, w.Fake.Origin(), lobby.TokenSources{Flag: token, FlagMaster: w.Master.URL()}, w.Log)
}
