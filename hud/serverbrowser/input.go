package serverbrowser

import (
	"math"
	"strconv"

	"vimpclient/hud/geom"
	"vimpclient/hud/plaintext"
	"vimpclient/internal/words"
)

// The server browser's keys, clicks and geometry: the view draws from
// Layout and clicks are read against the same rectangles.

// Geometry of the browser card in logical px.
const (
	CardW        = 980
	Padding      = 16
	TitleH       = 30
	SignInH      = 24
	TabsH        = 34
	HeadH        = 24
	RowH         = 28
	FooterH      = 78
	browserStarW = 22 // the favourite mark before a row
)

// columnWidths are the rooms' columns as parts of a row's width; the
// recent and favourite hosts use hostColumnWidths.
var (
	columnWidths     = [NumColumns]float64{0.30, 0.11, 0.15, 0.09, 0.10, 0.09, 0.16}
	hostColumnWidths = [NumColumns]float64{0.30, 0.11, 0.09, 0, 0, 0.16, 0.34}
)

// RowGeom is one line of the page shown.
type RowGeom struct {
	Index int // into Rows()
	Row   geom.Rect
}

// Geom is where the browser's parts go in a window.
type Geom struct {
	Card, Title, SignIn, Search geom.Rect
	Tabs                        [3]geom.Rect
	Head                        geom.Rect
	// Columns are the cells' x and width within a row (Y and H unused);
	// Star is the favourite mark's.
	Columns             [NumColumns]geom.Rect
	Star                geom.Rect
	Rows                []RowGeom
	Prev, Next, Refresh geom.Rect
	Pages, Status, Hint geom.Rect
}

// Layout places the browser in a w×h window (logical px). The rows slice is
// reused by the next call.
func (b *Browser) Layout(w, h float64) Geom {
	g := Geom{Rows: b.geom[:0]}
	defer func() { b.geom = g.Rows[:0] }()
	cw := math.Min(CardW, w-20)
	rowH := RowH
	fixed := TitleH + SignInH + TabsH + HeadH + FooterH + 2*Padding
	if avail := h - 20 - float64(fixed); avail < PageSize*float64(rowH) {
		rowH = int(math.Max(16, math.Floor(avail/PageSize)))
	}
	ch := float64(fixed) + PageSize*float64(rowH)
	x, y := math.Round((w-cw)/2), math.Round(math.Max(10, (h-ch)/2))
	g.Card = geom.Rect{X: x, Y: y, W: cw, H: ch}
	in := geom.Rect{X: x + Padding, Y: y + Padding, W: cw - 2*Padding, H: ch - 2*Padding}
	g.Title = geom.Rect{X: in.X, Y: in.Y, W: in.W, H: TitleH}
	g.SignIn = geom.Rect{X: in.X, Y: in.Y + TitleH, W: in.W, H: SignInH}
	ty := g.SignIn.Y + SignInH
	tabW := 130.0
	for i := range g.Tabs {
		g.Tabs[i] = geom.Rect{X: in.X + float64(i)*(tabW+6), Y: ty + 2, W: tabW, H: TabsH - 6}
	}
	sx := in.X + 3*(tabW+6) + 10
	g.Search = geom.Rect{X: sx, Y: ty + 2, W: math.Max(60, in.X+in.W-sx), H: TabsH - 6}
	g.Head = geom.Rect{X: in.X, Y: ty + TabsH, W: in.W, H: HeadH}
	widths := columnWidths
	if b.Tab != TabRooms {
		widths = hostColumnWidths
	}
	g.Star = geom.Rect{X: in.X, W: browserStarW}
	cx := in.X + browserStarW
	for i, f := range widths {
		cellW := (in.W - browserStarW) * f
		g.Columns[i] = geom.Rect{X: cx, W: cellW}
		cx += cellW
	}
	ry := g.Head.Y + HeadH
	for i := range b.Rows() {
		g.Rows = append(g.Rows, RowGeom{Index: i, Row: geom.Rect{X: in.X, Y: ry + float64(i*rowH), W: in.W, H: float64(rowH)}})
	}
	fy := ry + PageSize*float64(rowH) + 6
	g.Pages = geom.Rect{X: in.X, Y: fy, W: in.W * 0.5, H: 22}
	bw := 86.0
	g.Refresh = geom.Rect{X: in.X + in.W - bw, Y: fy, W: bw, H: 22}
	g.Next = geom.Rect{X: g.Refresh.X - 8 - bw, Y: fy, W: bw, H: 22}
	g.Prev = geom.Rect{X: g.Next.X - 8 - bw, Y: fy, W: bw, H: 22}
	g.Status = geom.Rect{X: in.X, Y: fy + 26, W: in.W, H: 20}
	g.Hint = geom.Rect{X: in.X, Y: fy + 48, W: in.W, H: 20}
	return g
}

// Key handles a key press (DOM code) with shift and ctrl held or not.
func (b *Browser) Key(code int, shift, ctrl bool) {
	if b.Searching {
		switch code {
		case 13: // Enter: search now
			b.Searching = false
			b.applySearch()
			return
		case 27: // Esc: clear the search and leave the field (R refreshes again)
			b.Searching = false
			if b.Search != "" {
				b.Search = ""
				b.applySearch()
			}
			return
		case 8:
			b.Backspace()
			return
		case 9, 38, 40: // Tab and the arrows leave the field
			b.Searching = false
		default:
			return // text comes through Type
		}
	}
	if b.accountKey(code, ctrl) {
		return
	}
	switch code {
	case 38: // ↑
		b.move(-1)
	case 40: // ↓
		b.move(1)
	case 37, 33: // ←, PageUp
		b.turn(b.Page - 1)
	case 39, 34: // →, PageDown
		b.turn(b.Page + 1)
	case 36: // Home
		b.turn(0)
	case 13:
		b.join()
	case 9: // Tab, Shift+Tab
		d := 1
		if shift {
			d = 2
		}
		b.SetTab(Tab((int(b.Tab) + d) % len(TabNames)))
	case 191: // "/"
		b.Searching = true
	case 70: // F: favourite; Ctrl+F: search
		if ctrl {
			b.Searching = true
		} else {
			b.toggleFavourite()
		}
	case 82, 116: // R, F5
		b.Refresh()
	case 27:
		if b.Joining != nil {
			b.requests = append(b.requests, Request{Kind: RequestCancel})
		}
	}
}

// Type types into the search field while it has the keys. Outside it a
// "/" opens it, and what was typed after the "/" in the same frame goes in.
func (b *Browser) Type(rs []rune) {
	if b.typePaste(rs) {
		return
	}
	changed := false
	for _, r := range rs {
		if !b.Searching {
			b.Searching = r == '/'
			continue
		}
		if plaintext.IsControl(r) || len([]rune(b.Search)) >= maxSearch {
			continue
		}
		b.Search += string(r)
		changed = true
	}
	if changed {
		b.typedSearch()
	}
}

// Backspace deletes the search field's last rune.
func (b *Browser) Backspace() {
	if !b.Searching || b.Search == "" {
		return
	}
	r := []rune(b.Search)
	b.Search = string(r[:len(r)-1])
	b.typedSearch()
}

// SetTab shows tab t from its first page.
func (b *Browser) SetTab(t Tab) {
	if int(t) >= len(TabNames) {
		return
	}
	b.Tab, b.Page, b.Sel = t, 0, 0
	b.pingedPage = -1
	b.pingPage()
}

// move moves the selection by d lines, to the next or previous page past
// the ends.
func (b *Browser) move(d int) {
	n := len(b.Rows())
	switch s := b.Sel + d; {
	case s < 0 && b.Page > 0:
		b.turn(b.Page - 1)
		b.Sel = PageSize - 1
		b.clampSel()
	case s >= n && b.Page+1 < b.pages():
		b.turn(b.Page + 1)
	default:
		b.Sel = max(0, min(s, n-1))
	}
}

// turn shows page p; a page the master holds is asked for.
func (b *Browser) turn(p int) {
	if p < 0 || p >= b.pages() || p == b.Page {
		return
	}
	b.Page, b.Sel = p, 0
	if b.Tab == TabRooms && !b.complete {
		b.requestRooms(p * PageSize)
		return
	}
	b.pingPage()
}

// Scroll moves the selection by the mouse wheel's steps (positive: down).
func (b *Browser) Scroll(steps int) { b.move(steps) }

// Click handles a mouse press at (x, y) in a w×h window at now (HUD ms): a
// tab, the search field, the page and refresh buttons, or a line (a second
// press on it within doubleClickMs joins it).
func (b *Browser) Click(w, h, x, y, now float64) {
	g := b.Layout(w, h)
	b.Searching = g.Search.Contains(x, y)
	if b.accountClick(g, x, y) {
		return
	}
	for i, r := range g.Tabs {
		if r.Contains(x, y) {
			b.SetTab(Tab(i))
			return
		}
	}
	switch {
	case g.Prev.Contains(x, y):
		b.turn(b.Page - 1)
		return
	case g.Next.Contains(x, y):
		b.turn(b.Page + 1)
		return
	case g.Refresh.Contains(x, y):
		b.Refresh()
		return
	}
	for _, rg := range g.Rows {
		if !rg.Row.Contains(x, y) {
			continue
		}
		double := b.click.press(rg.Index, now) && rg.Index == b.Sel
		b.Sel = rg.Index
		if g.Star.X <= x && x < g.Star.X+g.Star.W {
			b.toggleFavourite()
			return
		}
		if double {
			b.click.row = -1
			b.join()
		}
		return
	}
}

// PageText is the footer's page line: "Page 2 of 3 · 23 rooms".
func (b *Browser) PageText() string {
	k := pageKey{b.Tab, b.Page, b.pages(), b.TabCount(b.Tab), b.Loading, b.unshown}
	if k == b.shown.pageKey && b.shown.page != "" {
		return b.shown.page
	}
	b.shown.pageKey = k
	one, many := "room", "rooms"
	if b.Tab != TabRooms {
		one, many = "host", "hosts"
	}
	s := "Page " + strconv.Itoa(k.page+1) + " of " + strconv.Itoa(k.pages) + " · " + words.Count(k.count, one, many)
	if k.tab == TabRooms && b.unshown != "" {
		s += " · " + b.unshown
	}
	if k.loading {
		s += " · loading…"
	}
	b.shown.page = s
	return s
}

type pageKey struct {
	tab                Tab
	page, pages, count int
	loading            bool
	unshown            string
}

// Hint is the browser's key line.
const Hint = "↑↓ choose · Enter or double-click join · N play now · ←→ page · Tab lists · / search · F favourite · R refresh · S sign in"

// TabLabel is a tab's label with its count: "Rooms (12)".
func (b *Browser) TabLabel(t Tab) string {
	n := b.TabCount(t)
	if b.shown.tabLabels[t] == "" || b.shown.tabCounts[t] != n {
		b.shown.tabCounts[t] = n
		b.shown.tabLabels[t] = TabNames[t] + " (" + strconv.Itoa(n) + ")"
	}
	return b.shown.tabLabels[t]
}

// EmptyText is what an empty page says ("" when it has lines).
func (b *Browser) EmptyText() string {
	if len(b.Rows()) > 0 {
		return ""
	}
	k := emptyKey{b.Tab, b.applied, b.Loading, b.Err}
	if k == b.shown.emptyKey && b.shown.empty != "" {
		return b.shown.empty
	}
	b.shown.emptyKey = k
	switch {
	case b.Tab == TabRecent:
		b.shown.empty = "No hosts joined yet"
	case b.Tab == TabFavourites:
		b.shown.empty = "No favourites yet: F marks the selected room or host"
	case b.Loading:
		b.shown.empty = "Loading rooms…"
	case b.Err != "":
		b.shown.empty = b.Err + " — R tries again"
	case b.applied != "":
		b.shown.empty = "No rooms match “" + b.applied + "”"
	default:
		b.shown.empty = "No rooms on this master right now — R refreshes"
	}
	return b.shown.empty
}

type emptyKey struct {
	tab     Tab
	search  string
	loading bool
	err     string
}
