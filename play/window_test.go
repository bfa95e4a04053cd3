package play

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"vimpclient/hostlist"
	"vimpclient/window"
)

// The start screen's offline page offers both games of the built-in host
// by name, the one -game named first, each with its maps (or the one -map
// picks).
func TestOfflineGames(t *testing.T) {
	got := offlineGames("", "")
	if len(got) != 2 || got[0].Label != "Tanks" || got[0].Value != "tanks" || got[1].Label != "Snakes" || got[1].Value != "snakes" ||
		got[1].Detail != "maps: arena" || !strings.Contains(got[0].Detail, "bridge") {
		t.Fatalf("offline page %+v", got)
	}
	got = offlineGames("snakes", "arena")
	if got[0].Value != "snakes" || got[0].Detail != "map arena" || !strings.HasPrefix(got[1].Detail, "maps: ") {
		t.Fatalf("with -game snakes -map arena: %+v", got)
	}
}

// -map applies to the game chosen on the page: a map of another game is
// refused with the chosen game's list, and the host then started plays the
// game chosen.
func TestOfflineHostMapOfTheGameChosen(t *testing.T) {
	p := &Config{Map: "arena", Bots: 1}
	o := &offlineHost{p: p, stderr: io.Discard}
	defer o.stop()
	ctx := context.Background()
	if _, err := o.url(ctx, "tanks"); err == nil || !strings.Contains(err.Error(), "its maps:") || !strings.Contains(err.Error(), "bridge") {
		t.Fatalf("tanks with -map arena: %v, want a refusal listing the tanks maps", err)
	}
	u, err := o.url(ctx, "snakes")
	if err != nil || u == "" || o.game != "snakes" {
		t.Fatalf("snakes with -map arena: %q, %v", u, err)
	}
	p.Map = ""
	if _, err := o.url(ctx, "tanks"); err != nil || o.game != "tanks" {
		t.Fatalf("switching to tanks: %v, game %q", err, o.game)
	}
}

// untilPlayingOrForm ticks the match's loop until its session plays or
// its HUD shows the host's auth form, and reports whether it plays.
func untilPlayingOrForm(t testing.TB, m window.Match) bool {
	t.Helper()
	l := m.Loop()
	deadline := time.NewTimer(20 * time.Second)
	defer deadline.Stop()
	for l.Tick(time.Now()); l.Stats().PlayAt.IsZero() && !l.HUD().AuthOpen(); l.Tick(time.Now()) {
		select {
		case <-l.Session().Queue().Ready():
		case <-m.Done():
			r, _ := m.End()
			t.Fatalf("the match ended before play: %s", r)
		case <-deadline.C:
			t.Fatal("neither playing nor asking for a name within 20 s")
		}
	}
	return !l.Stats().PlayAt.IsZero()
}

// Offline matches are one host to the player, whatever port the embedded
// host listens on: the name given in one is answered with in the next
// (the form does not come back empty), per game, and no loopback address
// is added to the recent hosts.
func TestOfflineRemembersTheNameAndKeepsNoRecentHost(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	p := &Config{Set: Values{}, AssetCache: "-", Nick: "Alice"}
	conn, err := newConnection(p, "window", "offline", io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.rec.Close()
	mm := &matchMaker{p: p, conn: conn}
	off := &offlineHost{p: p, stderr: io.Discard}
	defer off.stop()
	ctx := context.Background()
	m, err := mm.offline(ctx, off, "tanks")
	if err != nil {
		t.Fatal(err)
	}
	first := m.Loop()
	untilPlaying(t, m)
	m.Stop()
	if r, _ := m.End(); r != "Left Offline (tanks)" {
		t.Errorf("end reason %q", r)
	}
	firstHost := first.Target().Host
	off.stop() // the next match starts the host anew, on another port

	p.Nick = "" // as the start screen starts a match: no -nick
	m, err = mm.offline(ctx, off, "tanks")
	if err != nil {
		t.Fatal(err)
	}
	defer m.Stop()
	if !untilPlayingOrForm(t, m) {
		t.Fatalf("the name form came back (host %s, was %s)", m.Loop().Target().Host, firstHost)
	}
	if h := m.Loop().Target().Host; h == firstHost {
		t.Fatalf("the embedded host listened on %s both times: the test proves nothing", h)
	}
	m.Stop()

	// Snakes has a name of its own to remember.
	m, err = mm.offline(ctx, off, "snakes")
	if err != nil {
		t.Fatal(err)
	}
	defer m.Stop()
	if untilPlayingOrForm(t, m) {
		t.Fatal("snakes played with the name given to tanks: names are per game")
	}
	m.Stop()

	path, _ := hostlist.DefaultPath()
	if l, err := hostlist.Load(path); err != nil || len(l.Entries) != 0 {
		t.Fatalf("recent hosts after offline matches: %+v, %v", l, err)
	}
}
