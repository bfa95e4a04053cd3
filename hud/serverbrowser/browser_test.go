package serverbrowser

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"vimpclient/hostlist"
	"vimpclient/hud/geom"
)

const testMaster = "http://127.0.0.1:3002"

func rooms(n int) []Room {
	out := make([]Room, n)
	for i := range out {
		out[i] = Room{ID: fmt.Sprintf("r%02d", i), Name: fmt.Sprintf("Room %d", i), GameID: "tanks", MapName: "arena",
			Players: i % 4, MaxPlayers: 8, Region: "eu"}
	}
	return out
}

func kinds(rs []Request) []RequestKind {
	var out []RequestKind
	for _, r := range rs {
		out = append(out, r.Kind)
	}
	return out
}

func only(t *testing.T, rs []Request, k RequestKind) Request {
	t.Helper()
	if len(rs) != 1 || rs[0].Kind != k {
		t.Fatalf("requests %+v, want one of kind %d", rs, k)
	}
	return rs[0]
}

// A short list comes whole: its pages are cut here, and each page shown is
// sent for pinging once; latencies fill in as they come.
func TestBrowserListsAndPings(t *testing.T) {
	b := New(testMaster)
	b.Refresh()
	rs := b.Requests()
	if !reflect.DeepEqual(kinds(rs), []RequestKind{RequestRooms, RequestSignIn, RequestHosts}) {
		t.Fatalf("refresh asked %+v", rs)
	}
	if r := rs[0]; r.Offset != 0 || r.Limit != PageSize || r.Search != "" || !b.Loading {
		t.Fatalf("list request %+v", r)
	}
	rating := 3.0
	list := rooms(12)
	list[0].Rating = &rating
	b.SetRooms(rs[0].Gen, 0, 12, list, nil)
	if b.Loading || b.Pages() != 2 || len(b.Rows()) != 10 || b.PageText() != "Page 1 of 2 · 12 rooms" {
		t.Fatalf("page 1: %d rows, %q", len(b.Rows()), b.PageText())
	}
	row := b.Rows()[0]
	if want := [NumColumns]string{"Room 0", "tanks", "arena", "0/8", "eu", "3", "…"}; row.Cells != want {
		t.Fatalf("row %q", row.Cells)
	}
	ping := only(t, b.Requests(), RequestLatency)
	if len(ping.Rooms) != 10 || ping.Rooms[0] != "r00" {
		t.Fatalf("pinged %v", ping.Rooms)
	}
	b.SetLatency("r00", 12*time.Millisecond+400*time.Microsecond, true)
	b.SetLatency("r01", 0, false)
	if c := b.Rows()[0].Cells[ColLatency]; c != "12 ms" {
		t.Errorf("latency %q", c)
	}
	b.SetLatency("r02", 420*time.Microsecond, true)
	if c := b.Rows()[2].Cells[ColLatency]; c != "0.4 ms" {
		t.Errorf("loopback latency %q", c)
	}
	if c := b.Rows()[1].Cells[ColLatency]; c != "no answer" {
		t.Errorf("unanswered %q", c)
	}
	b.Key(39, false, false) // →: page 2, cut here
	if b.Page != 1 || len(b.Rows()) != 2 || b.Rows()[0].room.ID != "r10" {
		t.Fatalf("page 2: %+v", b.Rows())
	}
	if p := only(t, b.Requests(), RequestLatency); !reflect.DeepEqual(p.Rooms, []string{"r10", "r11"}) {
		t.Fatalf("page 2 pinged %v", p.Rooms)
	}
	b.Key(39, false, false) // no third page
	b.Key(37, false, false)
	if b.Page != 0 || len(b.Requests()) != 1 {
		t.Fatal("back to page 1 should ping it again, once")
	}
	// A refresh keeps the latencies measured until measured again.
	b.Refresh()
	b.SetRooms(b.Requests()[0].Gen, 0, 12, rooms(12), nil)
	if c := b.Rows()[0].Cells[ColLatency]; c != "12 ms" {
		t.Errorf("after a refresh %q", c)
	}
}

// A long list is paged by the master: turning the page asks for it, and
// the answer of an older request is dropped.
func TestBrowserPagesOnTheMaster(t *testing.T) {
	b := New(testMaster)
	b.Refresh()
	first := b.Requests()[0]
	b.SetRooms(first.Gen, 0, 23, rooms(10), nil)
	b.Requests()
	if b.Pages() != 3 {
		t.Fatalf("pages %d", b.Pages())
	}
	b.Key(34, false, false) // PageDown
	r := only(t, b.Requests(), RequestRooms)
	if r.Offset != 10 || r.Limit != 10 || len(b.Rows()) != 0 {
		t.Fatalf("page request %+v, rows %d", r, len(b.Rows()))
	}
	b.SetRooms(first.Gen, 0, 23, rooms(10), nil) // stale
	if len(b.Rows()) != 0 || !b.Loading {
		t.Fatal("a stale answer was taken")
	}
	b.SetRooms(r.Gen, 10, 23, rooms(20)[10:], nil)
	if b.Page != 1 || len(b.Rows()) != 10 || b.Rows()[0].room.ID != "r10" {
		t.Fatalf("page 2 %+v", b.Rows())
	}
	b.Requests()
	b.Refresh()
	b.SetRooms(b.Requests()[0].Gen, 10, 23, nil, errors.New("master unreachable"))
	if b.Err != "master unreachable" || b.Loading {
		t.Fatalf("error %q", b.Err)
	}
}

// The search goes to the master once typing rests, or at once on Enter;
// Esc clears it.
func TestBrowserSearch(t *testing.T) {
	b := New(testMaster)
	b.Refresh()
	b.SetRooms(b.Requests()[0].Gen, 0, 12, rooms(12), nil)
	b.Requests()
	b.Type([]rune("x")) // not searching: ignored
	if b.Search != "" {
		t.Fatal("typed outside the field")
	}
	b.Update(1000)
	b.Type([]rune("/Nat\x07")) // typed in one frame with the "/" that opens the field
	b.Key(191, false, false)   // the "/" key of that frame: the field stays as it is
	b.Update(1200)
	if len(b.Requests()) != 0 {
		t.Fatal("searched while typing")
	}
	b.Update(1300)
	r := only(t, b.Requests(), RequestRooms)
	if r.Search != "Nat" || r.Offset != 0 {
		t.Fatalf("search %+v", r)
	}
	b.SetRooms(r.Gen, 0, 1, rooms(1), nil)
	b.Requests()
	b.Key(8, false, false)
	b.Key(13, false, false) // Enter: at once
	if r := only(t, b.Requests(), RequestRooms); r.Search != "Na" || b.Searching {
		t.Fatalf("enter %+v, searching %v", r, b.Searching)
	}
	b.Key(191, false, false)
	b.Key(27, false, false) // Esc clears the search and leaves the field
	if r := only(t, b.Requests(), RequestRooms); r.Search != "" || b.Search != "" || b.Searching {
		t.Fatalf("esc %+v, searching %v", r, b.Searching)
	}
	b.Type([]rune("r")) // R after Esc is the refresh key, not a letter of the search
	b.Key(82, false, false)
	if rs := b.Requests(); !reflect.DeepEqual(kinds(rs), []RequestKind{RequestRooms, RequestSignIn, RequestHosts}) ||
		b.Search != "" || rs[0].Search != "" {
		t.Fatalf("R after Esc: search %q, requests %+v", b.Search, rs)
	}
	b.Key(191, false, false)
	b.Key(27, false, false) // Esc in an empty field leaves it too
	if b.Searching || len(b.Requests()) != 0 {
		t.Fatal("still searching, or searched again")
	}
}

// Joining a room of this master needs a sign-in: without one the browser
// says how to sign in and holds the join until signed in.
func TestBrowserJoinNeedsSignIn(t *testing.T) {
	b := New(testMaster)
	b.Refresh()
	b.SetRooms(b.Requests()[0].Gen, 0, 3, rooms(3), nil)
	b.Requests()
	b.SetSignIn(SignIn{State: SignInExpired})
	b.Key(40, false, false)
	b.Key(13, false, false)
	if len(b.Requests()) != 0 || !b.StatusError || !strings.Contains(b.Status, "S signs in") {
		t.Fatalf("joined without a sign-in: %q", b.Status)
	}
	b.SetSignIn(SignIn{State: SignedIn, Nick: "Alice"}) // the held join goes ahead
	j := only(t, b.Requests(), RequestJoin)
	if want := (Choice{Kind: hostlist.Lobby, Address: testMaster, Room: "r01", Name: "Room 1", GameID: "tanks"}); j.Choice != want {
		t.Fatalf("join %+v", j.Choice)
	}
	b.JoinStarted(j.Choice, 10)
	b.Key(13, false, false) // one join at a time
	if len(b.Requests()) != 0 || b.Status != "Joining Room 1…" {
		t.Fatalf("status %q", b.Status)
	}
	b.Key(27, false, false)
	only(t, b.Requests(), RequestCancel)
	b.JoinEnded("The room was closed (hostLeft).", true)
	if b.Joining != nil || b.Status != "The room was closed (hostLeft)." || !b.StatusError {
		t.Fatalf("after %q", b.Status)
	}
}

// F marks a room as favourite (and back); the recent and favourite tabs
// list the host list's entries, dedicated hosts joined with no sign-in.
func TestBrowserHostsAndFavourites(t *testing.T) {
	b := New(testMaster)
	b.Refresh()
	b.SetRooms(b.Requests()[0].Gen, 0, 3, rooms(3), nil)
	b.Requests()
	var l hostlist.List
	at := time.Date(2026, 5, 1, 18, 30, 0, 0, time.UTC)
	if err := l.Touch(hostlist.Entry{Kind: hostlist.Dedicated, Address: "http://10.0.0.5:3002", GameID: "snakes"}, at); err != nil {
		t.Fatal(err)
	}
	b.SetHosts(&l)
	b.Key(70, false, false) // F on Room 0
	f := only(t, b.Requests(), RequestFavourite)
	if !f.On || f.Entry.Kind != hostlist.Lobby || f.Entry.Room != "r00" || f.Entry.Address != testMaster || !b.Rows()[0].Favourite {
		t.Fatalf("favourite %+v", f)
	}
	b.Key(9, false, false) // Recent
	if b.Tab != TabRecent || len(b.Rows()) != 1 || b.Rows()[0].Cells[ColMap] != "host" || b.Rows()[0].Cells[ColLatency] != "http://10.0.0.5:3002" {
		t.Fatalf("recent %+v", b.Rows())
	}
	b.Key(13, false, false)
	if j := only(t, b.Requests(), RequestJoin); j.Choice.Kind != hostlist.Dedicated || j.Choice.Address != "http://10.0.0.5:3002" {
		t.Fatalf("join %+v", j)
	}
	b.Key(9, false, false) // Favourites
	if b.Tab != TabFavourites || len(b.Rows()) != 1 || b.Rows()[0].Cells[ColName] != "Room 0" {
		t.Fatalf("favourites %+v", b.Rows())
	}
	b.Key(70, false, false) // unmark
	if f := only(t, b.Requests(), RequestFavourite); f.On || len(b.Rows()) != 0 {
		t.Fatalf("unmark %+v, rows %d", f, len(b.Rows()))
	}
	b.Key(9, true, false) // Shift+Tab: back to Recent
	if b.Tab != TabRecent {
		t.Fatalf("tab %d", b.Tab)
	}
}

// Clicks: a tab, the search field, a line (a double click joins), the star
// marks a favourite, the page buttons.
func TestBrowserClicks(t *testing.T) {
	b := New(testMaster)
	b.Refresh()
	b.SetRooms(b.Requests()[0].Gen, 0, 12, rooms(12), nil)
	b.SetSignIn(SignIn{State: SignedIn, Nick: "Alice"})
	b.Requests()
	const w, h = 1280, 720
	g := b.Layout(w, h)
	mid := func(r geom.Rect) (float64, float64) { return r.X + r.W/2, r.Y + r.H/2 }
	x, y := mid(g.Rows[2].Row)
	b.Click(w, h, x, y, 1000)
	b.Click(w, h, x, y, 1600) // too slow for a double click
	if b.Sel != 2 || len(b.Requests()) != 0 {
		t.Fatal("slow clicks joined")
	}
	b.Click(w, h, x, y, 1800)
	if j := only(t, b.Requests(), RequestJoin); j.Choice.Room != "r02" {
		t.Fatalf("double click joined %+v", j)
	}
	b.Click(w, h, g.Star.X+2, y, 5000)
	if f := only(t, b.Requests(), RequestFavourite); !f.On || f.Entry.Room != "r02" {
		t.Fatalf("star %+v", f)
	}
	b.Click(w, h, g.Next.X+4, g.Next.Y+4, 6000)
	if b.Page != 1 {
		t.Fatalf("next: page %d", b.Page)
	}
	b.Requests()
	b.Click(w, h, g.Search.X+10, g.Search.Y+5, 7000)
	if !b.Searching {
		t.Fatal("search field not focused")
	}
	x, y = mid(g.Tabs[TabFavourites])
	b.Click(w, h, x, y, 8000)
	if b.Tab != TabFavourites || b.Searching {
		t.Fatalf("tab %d, searching %v", b.Tab, b.Searching)
	}
}

// The card's parts stay inside it and apart, at a common size and a small
// one.
func TestBrowserLayout(t *testing.T) {
	b := New(testMaster)
	b.Refresh()
	b.SetRooms(b.Requests()[0].Gen, 0, 12, rooms(12), nil)
	for _, size := range [][2]float64{{1280, 720}, {800, 480}} {
		g := b.Layout(size[0], size[1])
		inside := func(name string, r geom.Rect) {
			if r.X < g.Card.X || r.Y < g.Card.Y || r.X+r.W > g.Card.X+g.Card.W+0.01 || r.Y+r.H > g.Card.Y+g.Card.H+0.01 {
				t.Errorf("%v: %s %+v outside the card %+v", size, name, r, g.Card)
			}
		}
		if g.Card.Y+g.Card.H > size[1] || g.Card.X < 0 {
			t.Errorf("%v: card %+v off the window", size, g.Card)
		}
		parts := map[string]geom.Rect{"title": g.Title, "signin": g.SignIn, "search": g.Search, "head": g.Head,
			"prev": g.Prev, "next": g.Next, "refresh": g.Refresh, "status": g.Status, "hint": g.Hint}
		for i, r := range g.Tabs {
			parts[TabNames[i]] = r
		}
		for i, r := range g.Rows {
			parts[fmt.Sprint("row", i)] = r.Row
		}
		for n, r := range parts {
			inside(n, r)
			for m, o := range parts {
				if n < m && r.Intersects(o) {
					t.Errorf("%v: %s %+v and %s %+v overlap", size, n, r, m, o)
				}
			}
		}
	}
}

func TestSignInText(t *testing.T) {
	until := time.Date(2026, 5, 1, 18, 40, 0, 0, time.Local)
	for s, want := range map[SignIn]string{
		{State: SignedIn, Nick: "Alice", Until: until, From: "the stored sign-in"}: "Signed in as Alice until 18:40 (the stored sign-in)",
		{}:                                   "Not signed in: rooms admit signed-in players only; S signs in (in your browser), P pastes a token",
		{State: SignInExpired, Until: until}: "Your sign-in has expired (at 18:40): S signs in (in your browser), P pastes a token",
	} {
		if got := s.Text(); got != want {
			t.Errorf("%+v: %q, want %q", s, got, want)
		}
	}
}

// A room chosen by its id (a -room ID) is named in the joining line once
// the list or the wiring knows its name.
func TestJoiningNamesTheRoom(t *testing.T) {
	b := New(testMaster)
	b.JoinStarted(Choice{Kind: hostlist.Lobby, Address: testMaster, Room: "r01", Name: "r01"}, 0)
	if b.Status != "Joining r01…" {
		t.Fatalf("status %q", b.Status)
	}
	b.Refresh()
	r := b.Requests()[0]
	b.SetRooms(r.Gen, 0, 2, rooms(2), nil)
	if b.Status != "Joining Room 1…" || b.Joining.Label() != "Room 1" {
		t.Fatalf("status %q", b.Status)
	}
	b.JoinNamed("Room 1") // the same name again says nothing new
	b.JoinProgress("attempt 2")
	b.JoinNamed("Renamed")
	if b.Status != "Joining Renamed…" {
		t.Fatalf("status %q", b.Status)
	}
}

// Entries of the list the master sent but the client could not read are
// counted on the page line, with why.
func TestBrowserCountsUnshownRooms(t *testing.T) {
	b := New(testMaster)
	b.Refresh()
	r := b.Requests()[0]
	b.SetRooms(r.Gen, 0, 5, rooms(3), nil)
	b.SetUnshown(r.Gen-1, 7, "stale") // an older request's answer is dropped
	b.SetUnshown(r.Gen, 2, "entries this client cannot read")
	if got := b.PageText(); got != "Page 1 of 1 · 5 rooms · 2 not shown: entries this client cannot read" {
		t.Fatalf("page line %q", got)
	}
	b.SetUnshown(r.Gen, 0, "")
	if got := b.PageText(); strings.Contains(got, "not shown") {
		t.Fatalf("page line %q", got)
	}
}

// The page line's count agrees with its noun: one room, one host.
func TestBrowserPageTextOneRoom(t *testing.T) {
	b := New(testMaster)
	b.Refresh()
	rs := b.Requests()
	b.SetRooms(rs[0].Gen, 0, 1, rooms(1), nil)
	if got := b.PageText(); got != "Page 1 of 1 · 1 room" {
		t.Fatalf("page line %q, want %q", got, "Page 1 of 1 · 1 room")
	}
}
