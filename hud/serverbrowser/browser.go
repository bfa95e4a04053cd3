// Package serverbrowser holds the server browser's model: a lobby
// master's rooms, and the recent and favourite hosts (dedicated hosts and
// lobby rooms alike), with the sign-in the master's rooms ask for.
//
// It is plain Go, tested without a display, and owned by the window: the
// wiring runs what it asks for (Requests: room pages, latencies, the
// sign-in, the host list) off the window's goroutine, hands the answers
// back (SetRooms, SetLatency, SetSignIn, SetHosts), joins what a
// RequestJoin names, feeds it keys, text and clicks, and draws it with the
// hud/view package's DrawBrowser, from Layout.
package serverbrowser

import (
	"strconv"
	"strings"
	"time"

	"vimpclient/hostlist"
	"vimpclient/hud/plaintext"
)

// PageSize is the rooms shown, and asked of the master, per page (the
// older master's default page).
const PageSize = 10

// searchPause is how long typing in the search field rests before the
// search goes to the master.
const searchPause = 300

// doubleClickMs is the most time between the two presses of a double click.
const doubleClickMs = 400

// maxSearch bounds the search text in runes.
const maxSearch = 64

// Tab is one of the browser's lists.
type Tab uint8

const (
	TabRooms      Tab = iota // the master's rooms
	TabRecent                // the hosts joined lately
	TabFavourites            // the hosts marked as favourite
)

// TabNames are the tabs' labels, in order.
var TabNames = [3]string{"Rooms", "Recent", "Favourites"}

// SignInState is whether this player may join the master's rooms.
type SignInState uint8

const (
	SignedOut     SignInState = iota // no token for this master
	SignedIn                         // a fresh token
	SignInExpired                    // the token expired (or is about to)
	SignInBad                        // a token that cannot be read
)

// SignIn is the identity state for the master's rooms, as the wiring found
// it (rooms admit signed-in players only).
type SignIn struct {
	State SignInState
	Nick  string
	Until time.Time // the token's expiry
	From  string    // where the token came from ("the stored sign-in", "-token")
	// Problem is why a bad token cannot be used.
	Problem string
}

// signInOffer is how the browser offers a sign-in.
const signInOffer = "S signs in (in your browser), P pastes a token"

// Text is the sign-in line in words.
func (s SignIn) Text() string {
	switch s.State {
	case SignedIn:
		t := "Signed in as " + plaintext.Clean(s.Nick)
		if !s.Until.IsZero() {
			t += " until " + s.Until.Local().Format("15:04")
		}
		if s.From != "" {
			t += " (" + s.From + ")"
		}
		return t
	case SignInExpired:
		t := "Your sign-in has expired"
		if !s.Until.IsZero() {
			t += " (at " + s.Until.Local().Format("15:04") + ")"
		}
		return t + ": " + signInOffer
	case SignInBad:
		return "The sign-in cannot be used (" + plaintext.Clean(s.Problem) + "): " + signInOffer
	}
	return "Not signed in: rooms admit signed-in players only; " + signInOffer
}

// Room is one room as the master listed it.
type Room struct {
	ID, Name, GameID, MapName, Region string
	Players, MaxPlayers               int
	Rating                            *float64 // older masters only
	Stable                            bool     // ID is a newer master's lasting roomId
	Owner                             string   // the owner's nick, when the master lists it
}

// Column indexes of a row's cells.
const (
	ColName = iota
	ColGame
	ColMap
	ColPlayers
	ColRegion
	ColRating
	ColLatency
	NumColumns
)

// ColumnNames are the rooms' column titles; the recent and favourite hosts
// use HostColumnNames.
var (
	ColumnNames     = [NumColumns]string{"Name", "Game", "Map", "Players", "Region", "Rating", "Latency"}
	HostColumnNames = [NumColumns]string{"Name", "Game", "Kind", "", "", "Joined", "Address"}
)

// Row is one line of a list, its cells in words (built when the data
// arrives, never per frame).
type Row struct {
	Cells     [NumColumns]string
	Favourite bool
	room      Room
	entry     hostlist.Entry
	latency   int // 0 unmeasured, 1 measuring, 2 measured, 3 no answer
}

// Choice is what the player chose to join.
type Choice struct {
	Kind    hostlist.Kind // hostlist.Lobby: Room of the master at Address
	Address string        // the master, or the dedicated host
	Room    string        // the room's id (lobby)
	RoomID  string        // a newer master's lasting roomId (lobby; "" on an older master)
	Name    string
	GameID  string
	Owner   string // the room owner's nick, when the master lists it
}

// Label names a choice for the player.
func (c Choice) Label() string {
	if c.Name != "" {
		return c.Name
	}
	if c.Room != "" {
		return c.Room
	}
	return c.Address
}

// RequestKind tells what a Request asks the wiring.
type RequestKind uint8

const (
	RequestRooms        RequestKind = iota // the room list: Search, Offset, Limit; answer SetRooms(Gen, …)
	RequestLatency                         // ping Rooms; answer SetLatency per room
	RequestSignIn                          // read the sign-in state again; answer SetSignIn
	RequestHosts                           // read the host list; answer SetHosts
	RequestFavourite                       // mark (On) or unmark Entry as favourite; answer SetHosts
	RequestJoin                            // join Choice
	RequestCancel                          // give up the join in progress
	RequestSignInStart                     // sign in in the system browser; answer SignInDone
	RequestSignInToken                     // sign in with the pasted token Text; answer SignInDone
	RequestSignInCancel                    // give up the sign-in in progress; answer SignInDone
	RequestSignOut                         // forget the stored sign-in; answer SignInDone
	RequestPaste                           // read the clipboard; answer Pasted
	RequestQuickPlay                       // find a room of GameID ("" any) to play now; answer QuickPlayFound
	RequestResolve                         // find Choice (a saved room) on its master again; answer Resolved
)

// Request is one thing the browser wants done.
type Request struct {
	Kind          RequestKind
	Gen           int // the room list request's generation: answers of older ones are dropped
	Search        string
	Offset, Limit int
	Rooms         []string
	Entry         hostlist.Entry
	On            bool
	Choice        Choice
	Text          string // the pasted token
	GameID        string
}

// Browser is the server browser's model.
type Browser struct {
	// Master is the master's address shown in the title; Rooms tab joins
	// are rooms of it.
	Master string
	Tab    Tab
	// Search is the search field's text; Searching whether it has the keys.
	Search    string
	Searching bool
	// Total is the master's count of rooms for the search; Page the page
	// shown (from 0) and Sel the selected line of it.
	Total, Page, Sel int
	Loading          bool
	Err              string // why the room list could not be had
	SignIn           SignIn
	// Status is the last thing the browser has to say: a join in progress,
	// why a match ended; StatusError marks a failure.
	Status      string
	StatusError bool
	// Joining is the choice being joined (nil: none).
	Joining *Choice
	account // sign-in, pasted tokens, play now and stale entries (account.go)

	rooms      []Row // the complete list, or the page at roomsAt
	roomsAt    int   // the offset rooms start at
	complete   bool  // rooms is every room: pages are cut here
	saved      savedHosts
	gen        int
	applied    string // the search the list is for
	typing     searchTyping
	requests   []Request
	now        float64
	click      doubleClick
	pingedPage int // the page whose rooms were last sent for pinging (-1: none)
	geom       []RowGeom
	shown      shownText
	unshown    string // "2 not shown: unreadable", for the page line
}

// savedHosts are the recent and favourite hosts: the list, and the lines
// of their tabs.
type savedHosts struct {
	list *hostlist.List
	rows [2][]Row // recent, favourites
}

// searchTyping is a change of the search text not sent yet: it goes to the
// master once the typing rests for searchPause.
type searchTyping struct {
	pending bool
	at      float64 // the last change (HUD ms)
}

// due reports whether the typing has rested long enough at now.
func (t searchTyping) due(now float64) bool { return t.pending && now-t.at >= searchPause }

// doubleClick tells a second press on a row from a first.
type doubleClick struct {
	at  float64 // the last press on a row (HUD ms)
	row int     // its row (-1: none, or its double click was taken)
}

// press records a press on row at now; it reports whether it is the
// second of a double click.
func (c *doubleClick) press(row int, now float64) bool {
	second := row == c.row && now-c.at <= doubleClickMs
	c.row, c.at = row, now
	return second
}

// shownText is the lines the view draws every frame, kept with what they
// were made from and made again only when that changes, so a frame
// allocates nothing.
type shownText struct {
	pageKey   pageKey
	page      string
	tabLabels [3]string
	tabCounts [3]int
	emptyKey  emptyKey
	empty     string
	signIn    string
}

// New makes the browser for the master at address.
func New(master string) *Browser {
	return &Browser{Master: master, saved: savedHosts{list: &hostlist.List{}}, pingedPage: -1, click: doubleClick{row: -1}}
}

// Requests returns what the browser wants done and forgets it.
func (b *Browser) Requests() []Request {
	out := b.requests
	b.requests = nil
	return out
}

// Refresh asks for everything again: the room list of the current search,
// the sign-in state and the host list (shown again, or R, F5, the Refresh
// button).
func (b *Browser) Refresh() {
	b.requestRooms(b.Page * PageSize)
	b.requests = append(b.requests, Request{Kind: RequestSignIn}, Request{Kind: RequestHosts})
}

func (b *Browser) requestRooms(offset int) {
	b.gen++
	b.Loading, b.typing.pending = true, false
	b.applied = strings.TrimSpace(b.Search)
	b.pingedPage = -1
	b.requests = append(b.requests, Request{Kind: RequestRooms, Gen: b.gen, Search: b.applied,
		Offset: offset, Limit: PageSize})
}

// SetRooms hands over the answer to the room list request gen: the rooms
// from offset on, of total, or why there are none. A stale answer (an
// older request's) is dropped.
func (b *Browser) SetRooms(gen int, offset, total int, rooms []Room, err error) {
	if gen != b.gen {
		return
	}
	b.Loading = false
	if err != nil {
		b.Err = plaintext.Clean(err.Error())
		return
	}
	b.Err = ""
	old := b.rooms
	b.rooms = make([]Row, 0, len(rooms))
	for _, r := range rooms {
		row := roomRow(r)
		// A room already measured keeps its latency until measured again.
		for i := range old {
			if old[i].room.ID == r.ID && old[i].latency >= 2 {
				row.latency, row.Cells[ColLatency] = old[i].latency, old[i].Cells[ColLatency]
			}
		}
		b.rooms = append(b.rooms, row)
	}
	b.Total = max(total, len(rooms))
	// A master gives a short list whole, and a search whole, whatever the
	// page asked for: then the pages are cut here.
	b.complete = len(rooms) >= b.Total
	b.roomsAt = offset
	if b.complete {
		b.roomsAt = 0
	}
	b.Page = min(b.Page, max(0, b.pages()-1))
	if !b.complete {
		b.Page = offset / PageSize
	}
	b.markFavourites()
	b.clampSel()
	b.pingPage()
	b.nameJoining()
}

// SetUnshown says that n entries of the room list request gen were not
// shown, and why ("unreadable"); the page line counts them.
func (b *Browser) SetUnshown(gen, n int, why string) {
	if gen != b.gen {
		return
	}
	b.unshown = ""
	if n > 0 {
		b.unshown = strconv.Itoa(n) + " not shown: " + plaintext.Clean(why)
	}
}

// nameJoining gives the room being joined its listed name when it was
// chosen by id (a -room ID, an entry saved without one).
func (b *Browser) nameJoining() {
	j := b.Joining
	if j == nil || j.Kind != hostlist.Lobby || j.Room == "" || (j.Name != "" && j.Name != j.Room) {
		return
	}
	for i := range b.rooms {
		if r := b.rooms[i].room; r.ID == j.Room && r.Name != "" {
			b.JoinNamed(r.Name)
			return
		}
	}
}

// JoinNamed names the room being joined (the wiring learnt it from the
// master); the joining line says it from now on.
func (b *Browser) JoinNamed(name string) {
	if b.Joining == nil || name == "" || b.Joining.Name == name {
		return
	}
	b.Joining.Name = name
	b.setStatus("Joining "+b.Joining.Label()+"…", false)
}

// pingPage asks for the latencies of the rooms on the page shown, once per
// page shown.
func (b *Browser) pingPage() {
	if b.Tab != TabRooms || b.pingedPage == b.Page {
		return
	}
	lo, hi := b.pageRange(len(b.rooms))
	if lo >= hi {
		return
	}
	b.pingedPage = b.Page
	ids := make([]string, 0, hi-lo)
	for i := lo; i < hi; i++ {
		r := &b.rooms[i]
		if r.latency == 0 {
			r.latency, r.Cells[ColLatency] = 1, "…"
		}
		ids = append(ids, r.room.ID)
	}
	b.requests = append(b.requests, Request{Kind: RequestLatency, Rooms: ids})
}

// SetLatency hands over a room's latency through the master; ok false
// means it did not answer.
func (b *Browser) SetLatency(room string, rtt time.Duration, ok bool) {
	for i := range b.rooms {
		r := &b.rooms[i]
		if r.room.ID != room {
			continue
		}
		if ok {
			r.latency, r.Cells[ColLatency] = 2, latencyText(rtt)
		} else if r.latency != 2 {
			r.latency, r.Cells[ColLatency] = 3, "no answer"
		}
	}
}

// SetSignIn hands over the sign-in state.
func (b *Browser) SetSignIn(s SignIn) {
	b.SignIn, b.shown.signIn = s, s.Text()
	b.joinHeld()
}

// SignInText is the sign-in line (SignIn.Text, kept from SetSignIn).
func (b *Browser) SignInText() string {
	if b.shown.signIn == "" {
		b.shown.signIn = b.SignIn.Text()
	}
	return b.shown.signIn
}

// SetHosts hands over the recent and favourite hosts.
func (b *Browser) SetHosts(l *hostlist.List) {
	if l == nil {
		l = &hostlist.List{}
	}
	b.saved.list = l
	b.saved.rows[0] = b.saved.rows[0][:0]
	for _, e := range l.Recent() {
		if !e.LastJoined.IsZero() {
			b.saved.rows[0] = append(b.saved.rows[0], hostRow(e))
		}
	}
	b.saved.rows[1] = b.saved.rows[1][:0]
	for _, e := range l.Favourites() {
		b.saved.rows[1] = append(b.saved.rows[1], hostRow(e))
	}
	b.markFavourites()
	b.clampSel()
}

// markFavourites marks the listed rooms that are favourites.
func (b *Browser) markFavourites() {
	favs := map[string]bool{}
	for _, e := range b.saved.list.Favourites() {
		favs[e.Key()] = true
	}
	for i := range b.rooms {
		b.rooms[i].Favourite = favs[b.roomEntry(b.rooms[i].room).Key()]
	}
}

// roomEntry is a listed room as a host list entry.
func (b *Browser) roomEntry(r Room) hostlist.Entry {
	e := hostlist.Entry{Kind: hostlist.Lobby, Address: b.Master, Room: r.ID, Name: r.Name, GameID: r.GameID, Owner: r.Owner}
	if r.Stable {
		e.RoomID = r.ID
	}
	return e
}

// list is the current tab's lines.
func (b *Browser) list() []Row {
	switch b.Tab {
	case TabRecent:
		return b.saved.rows[0]
	case TabFavourites:
		return b.saved.rows[1]
	}
	return b.rooms
}

// pages is how many pages the current tab has (at least 1).
func (b *Browser) pages() int {
	n := len(b.list())
	if b.Tab == TabRooms && !b.complete {
		n = b.Total
	}
	return max(1, (n+PageSize-1)/PageSize)
}

// Pages is how many pages the current tab has (at least 1).
func (b *Browser) Pages() int { return b.pages() }

// pageRange is the indexes of the page shown within a list of n lines.
func (b *Browser) pageRange(n int) (lo, hi int) {
	lo = b.Page * PageSize
	if b.Tab == TabRooms && !b.complete {
		lo -= b.roomsAt
	}
	lo = max(0, min(lo, n))
	return lo, min(n, lo+PageSize)
}

// Rows are the lines of the page shown. The slice is the browser's own:
// read it, do not keep it.
func (b *Browser) Rows() []Row {
	l := b.list()
	lo, hi := b.pageRange(len(l))
	return l[lo:hi]
}

func (b *Browser) clampSel() {
	b.Sel = max(0, min(b.Sel, len(b.Rows())-1))
}

// Selected is the selected line's choice; ok is false on an empty page.
func (b *Browser) Selected() (Choice, bool) {
	rows := b.Rows()
	if b.Sel < 0 || b.Sel >= len(rows) {
		return Choice{}, false
	}
	r := rows[b.Sel]
	e := r.entry
	if b.Tab == TabRooms {
		e = b.roomEntry(r.room)
	}
	return Choice{Kind: e.Kind, Address: e.Address, Room: e.Room, RoomID: e.RoomID, Name: e.Name, GameID: e.GameID, Owner: e.Owner}, true
}

// join asks for the selected line to be joined (joinChoice).
func (b *Browser) join() {
	c, ok := b.Selected()
	if !ok || b.Joining != nil {
		return
	}
	b.joinChoice(c, b.Tab != TabRooms)
}

func sameMaster(a, b string) bool {
	key := func(s string) string { return (hostlist.Entry{Kind: hostlist.Lobby, Address: s, Room: "-"}).Key() }
	return key(a) == key(b)
}

// JoinStarted says the wiring is joining c (at now, HUD ms).
func (b *Browser) JoinStarted(c Choice, now float64) {
	b.Joining = &c
	b.now = now
	b.setStatus("Joining "+c.Label()+"…", false)
	b.nameJoining()
}

// JoinProgress says how the join goes (a failed attempt and the next one),
// after the joining line.
func (b *Browser) JoinProgress(text string) {
	if b.Joining != nil {
		b.setStatus("Joining "+b.Joining.Label()+"… "+text, false)
	}
}

// JoinEnded says the join or the match it started is over: reason says why
// ("" when the player left); failed marks an error.
func (b *Browser) JoinEnded(reason string, failed bool) {
	b.Joining = nil
	b.setStatus(reason, failed)
}

// Say puts a line in the status (failed: as an error).
func (b *Browser) Say(text string, failed bool) { b.setStatus(text, failed) }

func (b *Browser) setStatus(s string, failed bool) {
	b.Status = strings.Join(strings.Fields(plaintext.Clean(s)), " ")
	b.StatusError = failed && b.Status != ""
}

// toggleFavourite marks or unmarks the selected line as a favourite.
func (b *Browser) toggleFavourite() {
	rows := b.Rows()
	if b.Sel < 0 || b.Sel >= len(rows) {
		return
	}
	r := &rows[b.Sel]
	e := r.entry
	if b.Tab == TabRooms {
		e = b.roomEntry(r.room)
	}
	on := !r.Favourite
	if err := b.saved.list.SetFavourite(e, on); err != nil {
		b.setStatus(err.Error(), true)
		return
	}
	b.requests = append(b.requests, Request{Kind: RequestFavourite, Entry: e, On: on})
	word := "Removed from favourites: "
	if on {
		word = "Added to favourites: "
	}
	b.setStatus(word+r.Cells[ColName], false)
	b.SetHosts(b.saved.list) // the lists follow at once; the saved list comes back later
}

// Update runs the browser's timers at now (HUD ms): a search typed and left
// alone for a moment goes to the master.
func (b *Browser) Update(now float64) {
	b.now = now
	if b.typing.due(now) {
		b.applySearch()
	}
}

func (b *Browser) applySearch() {
	b.typing.pending = false
	if strings.TrimSpace(b.Search) == b.applied && !b.Loading {
		return
	}
	b.Tab, b.Page, b.Sel = TabRooms, 0, 0
	b.requestRooms(0)
}

// typedSearch records a change of the search text.
func (b *Browser) typedSearch() {
	b.typing.pending, b.typing.at = true, b.now
}

// TabCount is the number of lines of a tab (the master's total for the
// rooms).
func (b *Browser) TabCount(t Tab) int {
	switch t {
	case TabRecent:
		return len(b.saved.rows[0])
	case TabFavourites:
		return len(b.saved.rows[1])
	}
	return b.Total
}
