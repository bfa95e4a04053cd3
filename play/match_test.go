package play

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"vimpclient/browser"
	"vimpclient/host"
	"vimpclient/host/lobbyroom"
	"vimpclient/hostlist"
	"vimpclient/hud/serverbrowser"
	"vimpclient/lobby"
	"vimpclient/testkit/browsertest"
	"vimpclient/testkit/fakemaster"
	"vimpclient/window"
)

// joinWorld is a browser, its backend and the match maker the window uses,
// without the window.
type joinWorld struct {
	*browsertest.World
	b  *serverbrowser.Browser
	be *browser.Backend
	mm *matchMaker
}

func newJoinWorld(t testing.TB) *joinWorld {
	t.Helper()
	w := browsertest.NewWorld(t)
	token := w.Keys.Token("2", "Alice")
	p := &Config{Set: Values{}, AssetCache: "-", Tokens: lobby.TokenFlags{Token: token, Named: w.Master.URL()}}
	conn, err := newConnection(p, "window", w.Master.URL(), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	conn.log = w.Log
	j := &joinWorld{World: w, b: serverbrowser.New(w.Master.URL()), be: newBackend(w, token),
		mm: &matchMaker{p: p, conn: conn, tokens: p.TokenSources()}}
	t.Cleanup(j.be.Close)
	j.b.Refresh()
	browsertest.Pump(t, j.b, j.be, "the rooms and the sign-in", func() bool {
		return len(j.b.Rows()) == 2 && j.b.SignIn.State == serverbrowser.SignedIn
	})
	return j
}

// enter presses Enter on the named room and starts the match the browser
// asks for, as the window does.
func (j *joinWorld) enter(t testing.TB, name string) window.Match {
	t.Helper()
	j.b.Sel = browsertest.RowByName(j.b, name)
	j.b.Key(13, false, false)
	var join *serverbrowser.Request
	for _, r := range j.b.Requests() {
		if r.Kind == serverbrowser.RequestJoin {
			join = &r
		}
	}
	if join == nil {
		t.Fatalf("Enter asked for no join (status %q)", j.b.Status)
	}
	m, err := j.mm.join(j.Ctx, join.Choice)
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
	if got := m.Loop().Target().Room; got != j.Room {
		t.Fatalf("joined room %q, want %q", got, j.Room)
	}
	untilPlaying(t, m) // a join is kept once the host let the player in
	m.Stop()
	<-m.Done()               // the recent hosts are written by the time the match ends
	j.b.JoinEnded("", false) // as the window does when the player leaves
	wctx, cancel := context.WithTimeout(j.Ctx, 10*time.Second)
	defer cancel()
	if err := j.Fake.WaitSeen(wctx, "leave_room"); err != nil {
		t.Fatalf("no leave_room: %v", err)
	}
	// The join is kept among the recent hosts, for the Recent tab.
	path, _ := hostlist.DefaultPath()
	if l, err := hostlist.Load(path); err != nil || len(l.Recent()) != 1 || l.Recent()[0].Room != j.Room {
		t.Fatalf("recent hosts %+v, %v", l, err)
	}

	m = j.enter(t, "Native Room")
	untilConfig(t, m)
	j.Fake.CloseRoom(j.Room, "hostLeft")
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

// A favourite of an older master's room made before its host restarted
// joins the restarted room (a new hostId, the same name and game); a
// favourite whose name is now only another game's room says so and
// offers it.
func TestFavouriteJoinsRestartedRoom(t *testing.T) {
	keys := browsertest.Home(t)
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
	p := &Config{Set: Values{}, AssetCache: "-", Tokens: lobby.TokenFlags{Token: token, Named: fm.URL()}}
	conn, err := newConnection(p, "window", fm.URL(), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	conn.log = log
	m, _ := lobby.NewMaster(fm.URL(), http.DefaultClient)
	be := browser.New(ctx, m, http.DefaultClient, fm.Origin(), lobby.TokenSources{Flag: token, FlagMaster: fm.URL()}, log)
	defer be.Close()
	mm := &matchMaker{p: p, conn: conn, tokens: p.TokenSources()}
	b := serverbrowser.New(m.URL())
	b.Refresh()
	browsertest.Pump(t, b, be, "rooms, sign-in, favourites", func() bool {
		return len(b.Rows()) == 2 && b.SignIn.State == serverbrowser.SignedIn && b.TabCount(serverbrowser.TabFavourites) == 2
	})
	if !b.Rows()[browsertest.RowByName(b, "Rig Room")].Favourite {
		t.Fatal("the restarted room is not shown as the favourite")
	}
	b.SetTab(serverbrowser.TabFavourites)
	b.Sel = browsertest.RowByName(b, "Snaky")
	b.Key(13, false, false)
	browsertest.Pump(t, b, be, "the stale favourite", func() bool { return strings.Contains(b.Status, "Enter joins it") })
	if !strings.Contains(b.Status, "“Snaky” is not on its master any more") || !strings.Contains(b.Status, "(snakes)") {
		t.Fatalf("stale entry: %q", b.Status)
	}
	b.Key(13, false, false)
	if c := browsertest.PumpJoin(t, b, be, "the offer"); c.Room != snaky {
		t.Fatalf("Enter on the offer joined %+v", c)
	}

	b.Sel = browsertest.RowByName(b, "Rig Room")
	b.Key(13, false, false)
	join := browsertest.PumpJoin(t, b, be, "the favourite")
	if join.Room != after {
		t.Fatalf("joined %q, want the restarted room %q (was %q)", join.Room, after, before)
	}
	match, err := mm.join(ctx, join)
	if err != nil {
		t.Fatal(err)
	}
	defer match.Stop()
	// A join is kept once it plays; the list is written off the session's
	// goroutine, and what is queued is written by the time the match ends.
	untilPlaying(t, match)
	match.Stop()
	<-match.Done()
	saved, _ := hostlist.Load(path)
	for _, e := range saved.Favourites() {
		if e.Name == "Rig Room" && e.Room != after {
			t.Errorf("the favourite keeps the old id %q", e.Room)
		}
	}
}

// An address joined as a host that answers as a lobby master ends its
// match at once, naming the master; the browser built for it lists the
// master's rooms and joins -room's at once.
func TestJoinFindsMaster(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("VIMP_TOKEN", "")
	j := newJoinWorld(t)
	m, err := j.mm.join(j.Ctx, serverbrowser.Choice{Address: j.Fake.URL(), Name: j.Fake.URL()})
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-m.Done():
	case <-time.After(20 * time.Second):
		t.Fatal("the match on a master's address did not end")
	}
	r, ok := m.(window.Redirect)
	if !ok || r.Master() != j.Fake.URL() {
		t.Fatalf("redirect %v to %q, want %q", ok, r.Master(), j.Fake.URL())
	}
	if reason, failed := m.End(); !failed || !strings.Contains(reason, "lobby master") {
		t.Errorf("ended with %q (failed %v)", reason, failed)
	}
	l, err := j.mm.browser(j.Ctx, r.Master(), "Native Room")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if l.Browser.Master != j.Master.URL() || l.Start == nil || l.Start.Room != "Native Room" || l.Start.Kind != hostlist.Lobby {
		t.Fatalf("browser for %q, start %+v", l.Browser.Master, l.Start)
	}
	if _, err := j.mm.browser(j.Ctx, "http://127.0.0.1:1", ""); err == nil {
		t.Error("a browser was built for an address never found to be a master")
	}
}

// newBackend is the back end of w's master's browser with token as -token.
func newBackend(w *browsertest.World, token string) *browser.Backend {
	return browser.New(w.Ctx, w.Master, http.DefaultClient, w.Fake.Origin(), lobby.TokenSources{Flag: token, FlagMaster: w.Master.URL()}, w.Log)
}
