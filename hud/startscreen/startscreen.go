// Package startscreen holds the start screen's model: what a plain start
// of the program opens on. Its entries run down the left; the three that
// need more than Enter (Join a server, Browse rooms, Demos) open a page
// beside them with a text field and the entries the wiring knows (recent
// and favourite hosts, the masters joined before, the recordings found).
//
// The model is plain Go, tested without a display: the window feeds it
// keys, text, clicks and the wheel, acts on its Choices (a match, a
// browser, a demo, the settings, quitting), tells it why a match ended
// (Say) and draws it with the hud/view package's DrawStart, from Layout.
package startscreen

import (
	"math"
	"strings"
	"unicode"

	"vimpclient/hud/geom"
	"vimpclient/hud/plaintext"
)

// Kind is one entry of the start screen.
type Kind uint8

const (
	Offline Kind = iota
	Join
	Browse
	Demos
	Settings
	Quit
	numKinds
)

// startLabels are the entries' words, in the order shown.
var startLabels = [numKinds]string{
	"Play offline vs bots", "Join a server", "Browse rooms", "Demos", "Settings", "Quit",
}

// Label is the entry's words.
func (k Kind) Label() string {
	if k >= numKinds {
		return ""
	}
	return startLabels[k]
}

// hasPage reports whether the entry opens a page instead of acting at once.
func (k Kind) hasPage() bool { return k == Join || k == Browse || k == Demos }

// Entry is one line of a page's list.
type Entry struct {
	Label  string // what the line says (an address, a room, a file name)
	Detail string // after it, greyed: "favourite", "recent", a date
	Value  string // what it opens: an address, a master, a recording's path
}

// Choice is what the player chose on the start screen.
type Choice struct {
	Kind Kind
	// Value is the address (Join), the master (Browse), the
	// recording (Demos) or the game (Offline: "" for the one
	// the command line named, or the default); "" for the others.
	Value string
}

// keyA is the DOM code of A: Ctrl+A clears the field.
const keyA = 65

// Sizes of the start screen (logical px).
const (
	ItemH        = 40
	RowH         = 28
	FieldH       = 32
	TitleH       = 64
	startItemW   = 300
	startPageW   = 560
	startGap     = 24
	startMaxRows = 12
	maxStartText = 512 // runes in the text field
)

// Geom is where the start screen's parts are, in logical px.
type Geom struct {
	Title geom.Rect
	Items [numKinds]geom.Rect
	// Page, Field and Rows are the open page's (zero when none is open);
	// Rows are the list's visible lines.
	Page, Field geom.Rect
	Rows        []geom.Rect
	Status      geom.Rect
	Hint        geom.Rect
}

// Menu is the start screen's model.
type Menu struct {
	// Focus is the entry the keys are on.
	Focus Kind
	// Open is whether Focus's page is open (Join, Browse and Demos only).
	Open bool
	// Field is the page's text field (an address, a master, a path).
	Field string
	// Entries are the page's list; Sel is the line the keys are on, -1
	// for the field; Top is the first line shown.
	Entries []Entry
	Sel     int
	Top     int
	// Status is the last word from the window (why a match ended),
	// Failed whether it was a failure.
	Status string
	Failed bool
	// EntryList lists a page's entries when it opens (nil: none).
	EntryList func(Kind) []Entry
	// DemosDir is the folder the Demos page lists, for its description.
	DemosDir string

	out []Choice
}

// New is the start screen with "Play offline vs bots" focused.
func New(list func(Kind) []Entry) *Menu {
	return &Menu{EntryList: list, Sel: -1}
}

// Choices returns what was chosen since the last call.
func (m *Menu) Choices() []Choice {
	out := m.out
	m.out = nil
	return out
}

// Say sets the status line.
func (m *Menu) Say(text string, failed bool) {
	m.Status, m.Failed = strings.Join(strings.Fields(plaintext.Clean(text)), " "), failed
}

// FieldHint is the open page's line over its field.
func (m *Menu) FieldHint() string {
	switch m.Focus {
	case Join:
		return "Address (http://host:port), or a recent or favourite host:"
	case Browse:
		return "Lobby master (http://host:port), or one joined before:"
	case Demos:
		return "Recording (a -record file's path), or one found:"
	case Offline:
		return "Game (its id), or one of the built-in host's games:"
	}
	return ""
}

// Describe is what the focused entry does, shown beside the entries while
// no page is open.
func (m *Menu) Describe() string {
	switch m.Focus {
	case Offline:
		return "A match against bots on this computer, on the host built into the client: choose the game on the page Enter opens."
	case Join:
		return "Play on a vimp host: type its address, or choose a recent or favourite one."
	case Browse:
		return "Rooms hosted by players, listed by a lobby master: type its address, or choose one joined before."
	case Demos:
		s := "Watch a recording made with -record FILE"
		if m.DemosDir != "" {
			s += ": the ones in " + m.DemosDir + ", or any file by its path."
		} else {
			s += ", by its path."
		}
		return s
	case Settings:
		return "Volumes, fullscreen, HUD scale, team colours, key and gamepad bindings. F10 opens them anywhere."
	case Quit:
		return "Close the window."
	}
	return ""
}

// EmptyText is what an open page's empty list says.
func (m *Menu) EmptyText() string {
	switch m.Focus {
	case Join:
		return "No recent or favourite hosts yet."
	case Browse:
		return "No lobby master joined yet."
	case Demos:
		return "No recordings found."
	case Offline:
		return "No games."
	}
	return ""
}

// Hint is the key line at the bottom.
func (m *Menu) Hint() string {
	if m.Open {
		return "Type · ↑/↓ choose · Enter open · Esc back"
	}
	return "↑/↓ choose · Enter open · F10 settings"
}

// Key handles a key press (DOM code); shift changes nothing here (the
// signature is the browser's, so the window feeds both alike). In a page's
// field Ctrl+Backspace deletes the last word and Ctrl+A clears it.
func (m *Menu) Key(code int, _, ctrl bool) {
	if m.Open {
		switch {
		case ctrl && code == 8:
			m.Sel = -1
			m.Field = plaintext.WithoutLastWord(m.Field)
		case ctrl && code == keyA:
			m.Sel = -1
			m.Field = ""
		default:
			m.pageKey(code)
		}
		return
	}
	switch code {
	case 38: // ↑
		m.Focus = (m.Focus + numKinds - 1) % numKinds
	case 40, 9: // ↓, Tab
		m.Focus = (m.Focus + 1) % numKinds
	case 13, 39: // Enter, →
		m.activate()
	}
}

func (m *Menu) pageKey(code int) {
	switch code {
	case 27, 37: // Esc; ← when the field is empty or a line is chosen
		if code == 37 && m.Sel < 0 && m.Field != "" {
			return
		}
		m.Open = false
	case 38:
		m.pick(m.Sel - 1)
	case 40, 9:
		m.pick(m.Sel + 1)
	case 8:
		m.Sel = -1
		if r := []rune(m.Field); len(r) > 0 {
			m.Field = string(r[:len(r)-1])
		}
	case 13:
		m.choosePage()
	}
}

// pick moves the keys to line i of the list (-1: the field), keeping it
// in view.
func (m *Menu) pick(i int) {
	m.Sel = max(-1, min(i, len(m.Entries)-1))
	if m.Sel >= 0 {
		if m.Sel < m.Top {
			m.Top = m.Sel
		}
		if m.Sel >= m.Top+startMaxRows {
			m.Top = m.Sel - startMaxRows + 1
		}
	}
}

// OpenPage focuses entry k and opens its page (the Demos page after a demo
// ended, say); an entry with no page is only focused.
func (m *Menu) OpenPage(k Kind) {
	m.Focus, m.Open = k, false
	if k.hasPage() {
		m.activate()
	}
}

// activate acts on the focused entry: a choice, or its page. Play offline
// opens the page of the games when the wiring lists them, with the first
// ready for Enter; without a list it plays the default game at once.
func (m *Menu) activate() {
	var games []Entry
	if m.Focus == Offline && m.EntryList != nil {
		games = m.EntryList(Offline)
	}
	if m.Focus == Offline && len(games) > 0 {
		m.Open, m.Top, m.Field, m.Entries, m.Sel = true, 0, "", games, 0
		return
	}
	if !m.Focus.hasPage() {
		m.out = append(m.out, Choice{Kind: m.Focus})
		return
	}
	m.Open, m.Sel, m.Top, m.Field = true, -1, 0, ""
	m.Entries = nil
	if m.EntryList != nil {
		m.Entries = m.EntryList(m.Focus)
	}
	if len(m.Entries) > 0 && m.Focus == Demos {
		m.Sel = 0 // the newest recording, ready for Enter
	}
}

// choosePage chooses the line the keys are on, or what the field says.
func (m *Menu) choosePage() {
	v := strings.TrimSpace(m.Field)
	if m.Sel >= 0 && m.Sel < len(m.Entries) {
		v = m.Entries[m.Sel].Value
	}
	if v == "" {
		return
	}
	m.out = append(m.out, Choice{Kind: m.Focus, Value: v})
}

// Type types into the open page's field (control characters dropped);
// typing takes the keys back to the field.
func (m *Menu) Type(rs []rune) {
	if !m.Open {
		return
	}
	r := []rune(m.Field)
	for _, c := range rs {
		if unicode.IsControl(c) || len(r) >= maxStartText {
			continue
		}
		r = append(r, c)
		m.Sel = -1
	}
	m.Field = string(r)
}

// Scroll moves the open page's list by steps lines.
func (m *Menu) Scroll(steps int) {
	if !m.Open || len(m.Entries) <= startMaxRows {
		return
	}
	m.Top = max(0, min(m.Top+steps, len(m.Entries)-startMaxRows))
}

// Click handles a click at (x, y) in a w×h window (logical px): an entry
// is focused and opened, a line chosen, the field given the keys. now is
// unused (the signature is the browser's).
func (m *Menu) Click(w, h, x, y, _ float64) {
	g := m.Layout(w, h)
	for k, r := range g.Items {
		if r.Contains(x, y) {
			if Kind(k) == m.Focus && m.Open {
				return
			}
			m.Focus, m.Open = Kind(k), false
			m.activate()
			return
		}
	}
	if !m.Open {
		return
	}
	if g.Field.Contains(x, y) {
		m.Sel = -1
		return
	}
	for i, r := range g.Rows {
		if r.Contains(x, y) {
			m.Sel = m.Top + i
			m.choosePage()
			return
		}
	}
}

// Visible is the open page's lines in view.
func (m *Menu) Visible() []Entry {
	if !m.Open {
		return nil
	}
	lo := min(m.Top, len(m.Entries))
	return m.Entries[lo:min(len(m.Entries), lo+startMaxRows)]
}

// Layout places the start screen in a w×h window: the entries in a column,
// the open page beside them, the whole centred.
func (m *Menu) Layout(w, h float64) Geom {
	var g Geom
	itemW := math.Min(startItemW, w-40)
	pageW := math.Min(startPageW, math.Max(0, w-itemW-startGap-40))
	total := itemW + startGap + pageW
	x := math.Round(math.Max(20, (w-total)/2))
	colH := float64(TitleH + int(numKinds)*ItemH)
	y := math.Round(math.Max(20, (h-colH)/2-40))
	g.Title = geom.Rect{X: x, Y: y, W: total, H: TitleH}
	for k := range g.Items {
		g.Items[k] = geom.Rect{X: x, Y: y + TitleH + float64(k*ItemH), W: itemW, H: ItemH - 6}
	}
	bottom := y + colH
	px, py := x+itemW+startGap, y+TitleH
	if !m.Open && pageW > 0 {
		g.Page = geom.Rect{X: px, Y: py, W: pageW, H: float64(2*ItemH - 6)}
	}
	if m.Open && pageW > 0 {
		rows := max(1, min(startMaxRows, len(m.Entries)))
		ph := 28 + FieldH + 12 + float64(rows*RowH) + 12
		g.Page = geom.Rect{X: px, Y: py, W: pageW, H: ph}
		g.Field = geom.Rect{X: px + 12, Y: py + 28, W: pageW - 24, H: FieldH}
		ry := g.Field.Y + FieldH + 12
		for i := range m.Visible() {
			g.Rows = append(g.Rows, geom.Rect{X: px + 12, Y: ry + float64(i*RowH), W: pageW - 24, H: RowH})
		}
		bottom = math.Max(bottom, py+ph)
	}
	g.Status = geom.Rect{X: x, Y: bottom + 12, W: total, H: 22}
	g.Hint = geom.Rect{X: x, Y: bottom + 38, W: total, H: 20}
	return g
}
