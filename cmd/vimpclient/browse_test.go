package main

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"vimpclient/host"
	"vimpclient/host/lobbyroom"
	"vimpclient/hostlist"
	"vimpclient/hud"
	"vimpclient/internal/fakemaster"
	"vimpclient/lobby"
	"vimpclient/window"
)

// browserWorld is a newer master with a room hosted by the embedded match
// and one listed with no host behind it, for the window's browser.
type browserWorld struct {
	ctx    context.Context
	keys   *fakemaster.Keys
	fm     *fakemaster.Master
	master *lobby.Master
	room   string // the hosted room's id
	log    *slog.Logger
}

func newBrowserWorld(t testing.TB) *browserWorld {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	keys, err := fakemaster.NewKeys("k")
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	fm := fakemaster.Start(fakemaster.Config{Dialect: fakemaster.Newer, Keys: keys, Log: log})
	t.Cleanup(fm.Close)
	srv, err := host.Start(ctx, host.Config{Bots: 1, Log: log})
	if err != nil {
		t.Fatal(err)
	}
	r, err := lobbyroom.Open(ctx, srv, lobbyroom.Config{Master: fm.URL(), Name: "Native Room", Token: keys.Token("1", "Hoster"), Log: log})
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = r.Run(ctx) }()
	if err := fm.WaitRooms(ctx, 1); err != nil {
		t.Fatal(err)
	}
	w := &browserWorld{ctx: ctx, keys: keys, fm: fm, room: fm.RoomIDs()[0], log: log}
	fm.AddListed("Listed Room", "eu", 1, 8)
	if w.master, err = lobby.NewMaster(fm.URL(), http.DefaultClient); err != nil {
		t.Fatal(err)
	}
	return w
}

func (w *browserWorld) backend(token string) *browserBackend {
	return newBrowserBackend(w.ctx, w.master, http.DefaultClient, w.fm.Origin(), lobby.TokenSources{Flag: token}, w.log)
}

// pump runs the browser's requests on the backend and applies its answers
// until cond holds.
func pump(t testing.TB, b *hud.Browser, be *browserBackend, what string, cond func() bool) []hud.BrowserRequest {
	t.Helper()
	var joins []hud.BrowserRequest
	deadline := time.NewTimer(20 * time.Second)
	defer deadline.Stop()
	for {
		be.Apply(b)
		for _, r := range b.Requests() {
			if r.Kind == hud.RequestJoin || r.Kind == hud.RequestCancel {
				joins = append(joins, r)
				continue
			}
			be.Do(r)
		}
		if cond() {
			return joins
		}
		select {
		case <-be.ready:
		case <-deadline.C:
			t.Fatalf("%s: not within 20 s", what)
		}
	}
}

func rowByName(b *hud.Browser, name string) int {
	for i, r := range b.Rows() {
		if r.Cells[hud.ColName] == name {
			return i
		}
	}
	return -1
}

// The browser's backend against a master: the rooms, a latency for the
// hosted room and none for the one with no host, the sign-in state read
// from the token, and a favourite kept in the host list file.
func TestBrowserBackend(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	w := newBrowserWorld(t)
	be := w.backend(w.keys.Token("2", "Alice"))
	defer be.close()
	b := hud.NewBrowser(w.master.URL())
	b.Refresh()
	pump(t, b, be, "rooms and latencies", func() bool {
		if len(b.Rows()) != 2 {
			return false
		}
		for _, r := range b.Rows() {
			if c := r.Cells[hud.ColLatency]; c == "…" || c == "–" {
				return false
			}
		}
		return true
	})
	native, listed := b.Rows()[rowByName(b, "Native Room")], b.Rows()[rowByName(b, "Listed Room")]
	if !strings.HasSuffix(native.Cells[hud.ColLatency], " ms") || listed.Cells[hud.ColLatency] != "no answer" {
		t.Fatalf("latencies %q, %q", native.Cells[hud.ColLatency], listed.Cells[hud.ColLatency])
	}
	if s := b.SignIn; s.State != hud.SignedIn || s.Nick != "Alice" || s.From != "-token" {
		t.Fatalf("sign-in %+v", s)
	}
	b.Sel = rowByName(b, "Native Room")
	b.Key(70, false, false) // F
	var fav *hud.BrowserRequest
	for _, r := range b.Requests() {
		if r.Kind == hud.RequestFavourite {
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
	if f := l.Favourites()[0]; f.Kind != hostlist.Lobby || f.Room != w.room || f.Name != "Native Room" || f.Address != w.master.URL() {
		t.Fatalf("favourite %+v", f)
	}
	be.Apply(b)
	if b.TabCount(hud.TabFavourites) != 1 {
		t.Fatal("the saved list did not come back to the browser")
	}

	for token, want := range map[string]hud.SignInState{
		"":             hud.SignedOut,
		"not-a-token!": hud.SignInBad,
		w.keys.Sign(fakemaster.TokenClaims{Sub: "2", Nick: "Old", Expiry: time.Now().Add(-time.Hour)}): hud.SignInExpired,
	} {
		s := w.backend(token).signIn()
		if s.State != want {
			t.Errorf("token %.12q: %+v", token, s)
		}
	}
}

// joinWorld is a browser, its backend and the match maker the window uses,
// without the window.
type joinWorld struct {
	*browserWorld
	b  *hud.Browser
	be *browserBackend
	mm *matchMaker
}

func newJoinWorld(t testing.TB) *joinWorld {
	t.Helper()
	w := newBrowserWorld(t)
	token := w.keys.Token("2", "Alice")
	p := &playFlags{set: setFlag{}, cache: "-"}
	p.lobby.token = token
	conn, err := newConnection(p, "window", w.master.URL(), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	conn.log = w.log
	j := &joinWorld{browserWorld: w, b: hud.NewBrowser(w.master.URL()), be: w.backend(token),
		mm: &matchMaker{p: p, conn: conn, tokens: p.lobby.tokenSources()}}
	t.Cleanup(j.be.close)
	j.b.Refresh()
	pump(t, j.b, j.be, "the rooms and the sign-in", func() bool {
		return len(j.b.Rows()) == 2 && j.b.SignIn.State == hud.SignedIn
	})
	return j
}

// enter presses Enter on the named room and starts the match the browser
// asks for, as the window does.
func (j *joinWorld) enter(t testing.TB, name string) window.Match {
	t.Helper()
	j.b.Sel = rowByName(j.b, name)
	j.b.Key(13, false, false)
	var join *hud.BrowserRequest
	for _, r := range j.b.Requests() {
		if r.Kind == hud.RequestJoin {
			join = &r
		}
	}
	if join == nil {
		t.Fatalf("Enter asked for no join (status %q)", j.b.Status)
	}
	m, err := j.mm.join(j.ctx, join.Choice)
	if err != nil {
		t.Fatal(err)
	}
	j.b.JoinStarted(join.Choice, 0)
	return m
}

// untilConfig ticks the match's loop until its host's CONFIG_DATA came.
func untilConfig(t testing.TB, m window.Match) time.Time {
	t.Helper()
	l := m.Loop()
	deadline := time.NewTimer(20 * time.Second)
	defer deadline.Stop()
	for l.Tick(time.Now()); l.ConfigAt().IsZero(); l.Tick(time.Now()) {
		select {
		case <-l.Session().Queue().Ready():
		case <-m.Done():
			r, _ := m.End()
			t.Fatalf("the match ended before CONFIG_DATA: %s", r)
		case <-deadline.C:
			t.Fatal("no CONFIG_DATA within 20 s")
		}
	}
	return l.ConfigAt()
}

// untilPlaying ticks the match's loop until its session plays.
func untilPlaying(t testing.TB, m window.Match) {
	t.Helper()
	l := m.Loop()
	deadline := time.NewTimer(20 * time.Second)
	defer deadline.Stop()
	for l.Tick(time.Now()); l.Stats().PlayAt.IsZero(); l.Tick(time.Now()) {
		select {
		case <-l.Session().Queue().Ready():
		case <-m.Done():
			r, _ := m.End()
			t.Fatalf("the match ended before play: %s", r)
		case <-deadline.C:
			t.Fatal("not playing within 20 s")
		}
	}
}

// From the browser into a room and out again: Enter joins the selected
// room through the master; the player leaving stops the session (the
// master hears leave_room); a room the master closes ends the match by
// itself with the master's reason.
func TestBrowserJoinsAndLeaves(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("VIMP_TOKEN", "")
	j := newJoinWorld(t)
	m := j.enter(t, "Native Room")
	untilConfig(t, m)
	if got := m.Loop().Target().Room; got != j.room {
		t.Fatalf("joined room %q, want %q", got, j.room)
	}
	untilPlaying(t, m) // a join is kept once the host let the player in
	m.Stop()
	j.b.JoinEnded("", false) // as the window does when the player leaves
	wctx, cancel := context.WithTimeout(j.ctx, 10*time.Second)
	defer cancel()
	if err := j.fm.WaitSeen(wctx, "leave_room"); err != nil {
		t.Fatalf("no leave_room: %v", err)
	}
	// The join is kept among the recent hosts, for the Recent tab.
	path, _ := hostlist.DefaultPath()
	if l, err := hostlist.Load(path); err != nil || len(l.Recent()) != 1 || l.Recent()[0].Room != j.room {
		t.Fatalf("recent hosts %+v, %v", l, err)
	}

	m = j.enter(t, "Native Room")
	untilConfig(t, m)
	j.fm.CloseRoom(j.room, "hostLeft")
	select {
	case <-m.Done():
	case <-wctx.Done():
		t.Fatal("the match did not end when the room closed")
	}
	if r, failed := m.End(); !failed || !strings.Contains(r, "hostLeft") || !strings.HasPrefix(r, "Native Room: ") {
		t.Fatalf("ended with %q (failed %v)", r, failed)
	}
	m.Stop() // stopping an ended match returns at once
}

// BenchmarkBrowserJoinToConfig is a join from the server browser on
// loopback: from Enter on a listed room (the join request, the /config
// probe, the room list, the manifest, signaling, the offer and the data
// channels) to the room host's CONFIG_DATA, against the fake master and
// the embedded match as a lobby room. Leaving is not counted.
func BenchmarkBrowserJoinToConfig(b *testing.B) {
	b.Setenv("XDG_CONFIG_HOME", b.TempDir())
	b.Setenv("VIMP_TOKEN", "")
	j := newJoinWorld(b)
	var total, applied time.Duration
	b.ResetTimer()
	for range b.N {
		start := time.Now()
		m := j.enter(b, "Native Room")
		at := untilConfig(b, m)
		total += at.Sub(start)
		applied += time.Since(start)
		b.StopTimer()
		m.Stop()
		j.b.JoinEnded("", false)
		b.StartTimer()
	}
	b.ReportMetric(float64(total.Microseconds())/1000/float64(b.N), "ms-to-config/op")
	// The tick that got CONFIG_DATA also applied it and what came with it
	// (the world's configuration, the map).
	b.ReportMetric(float64(applied.Microseconds())/1000/float64(b.N), "ms-to-applied/op")
}

// Why a match ended names its room once: words that name it already are
// not prefixed with it again.
func TestEndReasonNamesTheRoomOnce(t *testing.T) {
	for _, tc := range []struct{ label, why, want string }{
		{"Rig Room", "Room gone: “Rig Room”: the master no longer lists it.", "Room gone: “Rig Room”: the master no longer lists it."},
		{"rig room", "Room gone: “Rig Room”: the master no longer lists it.", "Room gone: “Rig Room”: the master no longer lists it."},
		{"Native Room", "The room was closed (hostLeft).", "Native Room: The room was closed (hostLeft)."},
	} {
		if got := labelled(tc.label, tc.why); got != tc.want {
			t.Errorf("labelled(%q, %q) = %q", tc.label, tc.why, got)
		}
	}
}
