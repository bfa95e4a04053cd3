package hud

import (
	"encoding/json"
	"strconv"

	"vimpclient/internal/version"
	"vimpclient/protocol"
)

// VotePageSize is the number of options per page.
const VotePageSize = 7

// maxVoteOptions bounds one vote's option list.
const maxVoteOptions = 256

// VoteWindow is a vote on screen.
type VoteWindow struct {
	Name    string // vote name sent back with the answer; "" for the menu
	Title   string
	Options []string
	Labels  []string // "n. option", numbered within its page
	TimeOff bool
	Menu    bool
	// About is the M menu's line under its title: the game the client
	// recognised and how it draws the game's parts ("" for a vote).
	About  string
	Engine bool // an '@' platform vote: answered to the platform, never on port 7
	// ID is an engine vote's id at the platform (its result closes it).
	ID string
	// Answers are what an engine vote sends for each option ("yes" for
	// "Yes"); nil sends the option itself.
	Answers  []string
	Page     int
	Deadline float64 // ms, meaningless with TimeOff
	Duration float64 // the lifetime the deadline was set from, ms

	// queued: the deadline was fixed when the vote arrived, so a vote
	// that waited behind one of the other origin shows for what is left
	// of its time (and not at all once that is gone).
	queued bool
}

// PageLabels are the numbered lines of the current page.
func (w *VoteWindow) PageLabels() []string {
	lo := w.Page * VotePageSize
	if lo >= len(w.Labels) {
		return nil
	}
	return w.Labels[lo:min(lo+VotePageSize, len(w.Labels))]
}

// PageOptions are the options of the current page.
func (w *VoteWindow) PageOptions() []string {
	lo := w.Page * VotePageSize
	if lo >= len(w.Options) {
		return nil
	}
	return w.Options[lo:min(lo+VotePageSize, len(w.Options))]
}

// HasBack reports whether "8. Back" is shown.
func (w *VoteWindow) HasBack() bool { return w.Page > 0 }

// HasMore reports whether "9. More" is shown.
func (w *VoteWindow) HasMore() bool { return (w.Page+1)*VotePageSize < len(w.Options) }

type voteWaiting struct {
	name, title string
	timeOff     bool
	since       float64
}

// Vote is the vote overlay: at most one window, a host vote waiting for its
// value list, and one queued vote per origin. A host vote and an engine
// vote (a name starting with '@', run by the platform) never overwrite
// each other: whichever comes second waits until the first is closed. A
// vote of the same origin replaces the one shown, as the engine does; the
// M menu, being the player's own action, opens over an engine vote, which
// waits behind it.
type Vote struct {
	schema    VoteSchema
	Cur       *VoteWindow
	waiting   *voteWaiting
	queued    [2]*VoteWindow // [host, engine]
	out       []Out
	Ignored   int // votes without a template, lists nobody waited for
	hostLists bool
	settings  bool   // the menu ends with the client's Settings entry
	browser   string // the client's server-list entry ("": none)
	about     string // the menu's About line
}

// MenuTitle is the M menu's title: "Menu", and the client's version.
func MenuTitle() string { return "Menu · vimpclient " + version.Get().Label() }

// SettingsLabel is the client's own last entry of the M menu.
const SettingsLabel = "Settings (F10)"

// SettingsEntry adds the client's Settings entry at the end of the M menu;
// choosing it queues an OutSettings instead of a vote.
func (v *Vote) SettingsEntry(on bool) { v.settings = on }

// BrowserEntry adds the client's entry that leaves the match for the
// server list at the end of the M menu, labelled label ("" removes it);
// choosing it queues an OutBrowser instead of a vote.
func (v *Vote) BrowserEntry(label string) { v.browser = cleanText(label) }

// SetAbout sets the M menu's About line (see VoteWindow.About).
func (v *Vote) SetAbout(text string) { v.about = cleanText(text) }

// NewVote makes the vote overlay for schema.
func NewVote(s VoteSchema) *Vote { return &Vote{schema: s} }

// Open reports whether a vote window is on screen (mode vote).
func (v *Vote) Open() bool { return v.Cur != nil }

// Waiting reports whether a vote waits for its value list.
func (v *Vote) Waiting() bool { return v.waiting != nil }

// HostListsRequested tells the overlay that the session itself requests the
// value list of a vote the host opens; the overlay then only waits for it
// (menu votes are still requested here).
func (v *Vote) HostListsRequested(on bool) { v.hostLists = on }

// Outgoing returns the VOTE_DATA messages to send and forgets them.
func (v *Vote) Outgoing() []Out {
	out := v.out
	v.out = nil
	return out
}

// Receive applies one VOTE_DATA message at now.
func (v *Vote) Receive(m protocol.Vote, now float64) {
	switch {
	case m.Open != nil:
		t, ok := v.schema.Templates[m.Open.Name]
		if !ok {
			v.Ignored++
			return
		}
		values := t.Values
		if len(m.Open.Values) > 0 {
			values = m.Open.Values
		}
		v.create(m.Open.Name, fill(t.Title, m.Open.Params), values, t.TimeOff, now, !v.hostLists)
	case m.IsList:
		if v.waiting == nil {
			v.Ignored++
			return
		}
		w := v.waiting
		v.waiting = nil
		v.show(&VoteWindow{Name: w.name, Title: w.title, Options: cleanList(m.List), TimeOff: w.timeOff}, now)
	}
}

// EngineVote shows (or queues) an '@' platform vote: options are the
// labels shown, answers what each sends (nil: the label itself); a
// positive ends (HUD ms) is the vote's own deadline, taken instead of the
// game's vote time, and duration its whole length for the time bar.
func (v *Vote) EngineVote(e EngineVoteWindow, now float64) {
	w := &VoteWindow{Name: e.Name, ID: e.ID, Title: cleanText(e.Title), Options: cleanList(e.Options), Engine: true}
	if len(e.Answers) == len(e.Options) {
		w.Answers = cleanList(e.Answers)
	}
	if e.Ends > 0 {
		w.Deadline, w.Duration, w.queued = e.Ends, e.Duration, true
		if w.Duration <= 0 {
			w.Duration = e.Ends - now
		}
	}
	v.show(w, now)
}

// EngineVoteWindow is an engine vote as the wiring hands it to EngineVote.
type EngineVoteWindow struct {
	Name, ID, Title string
	Options         []string
	Answers         []string
	Ends, Duration  float64 // ms; Ends 0: the game's vote time from when shown
}

// EngineEnded closes the engine vote name (with id, when id is not "")
// wherever it is, on screen or queued: the platform announced its result.
// It reports whether a window was closed.
func (v *Vote) EngineEnded(name, id string, now float64) bool {
	match := func(w *VoteWindow) bool { return w != nil && w.Engine && w.Name == name && (id == "" || w.ID == id) }
	closed := false
	if match(v.queued[1]) {
		v.queued[1] = nil
		closed = true
	}
	if match(v.Cur) {
		v.complete(now)
		closed = true
	}
	return closed
}

// Queued is the vote waiting behind the one on screen, if any (the engine
// vote first when both origins wait).
func (v *Vote) Queued() *VoteWindow {
	if v.queued[1] != nil {
		return v.queued[1]
	}
	return v.queued[0]
}

// adopt takes over the engine votes of the overlay this one replaces (a
// new CONFIG_DATA, a new connection): they belong to the platform, not to
// the host whose configuration changed.
func (v *Vote) adopt(old *Vote, now float64) {
	if old == nil {
		return
	}
	for _, w := range [2]*VoteWindow{old.Cur, old.queued[1]} {
		if w != nil && w.Engine {
			w.queued = true // keep its deadline
			v.show(w, now)
		}
	}
}

func (v *Vote) create(name, title string, values json.RawMessage, timeOff bool, now float64, request bool) {
	if v.waiting != nil {
		return
	}
	if req := protocol.ListRequest(values); req != "" {
		v.waiting = &voteWaiting{name: name, title: title, timeOff: timeOff, since: now}
		if request {
			v.out = append(v.out, Out{Kind: OutVoteRequest, Vote: name, Text: req, Msg: protocol.VoteRequestMsg(req)})
		}
		return
	}
	var raw []json.RawMessage
	_ = json.Unmarshal(values, &raw)
	opts := make([]string, 0, len(raw))
	for _, r := range raw {
		opts = append(opts, protocol.ParseScalarText(r))
	}
	v.show(&VoteWindow{Name: name, Title: cleanText(title), Options: cleanList(opts), TimeOff: timeOff}, now)
}

func origin(w *VoteWindow) int {
	if w.Engine {
		return 1
	}
	return 0
}

// show puts w on screen, or queues it when a vote of the other origin is
// shown; the menu goes over an engine vote, which waits behind it. A vote's
// time runs from its arrival: one that waited shows for what is left of it,
// or not at all.
func (v *Vote) show(w *VoteWindow, now float64) {
	if !w.queued {
		w.Deadline, w.Duration, w.queued = now+v.schema.Time, v.schema.Time, true
	}
	if v.Cur != nil && v.Cur.Engine != w.Engine {
		if !w.Menu {
			v.queued[origin(w)] = w
			return
		}
		v.queued[origin(v.Cur)] = v.Cur
	}
	if !w.TimeOff && now >= w.Deadline {
		v.Cur = nil
		v.next(now)
		return
	}
	w.Page = 0
	if len(w.Labels) != len(w.Options) {
		w.Labels = make([]string, len(w.Options))
		for i, o := range w.Options {
			w.Labels[i] = strconv.Itoa(i%VotePageSize+1) + ". " + o
		}
	}
	v.Cur = w
}

// OpenMenu shows the M-key menu (a host-origin window); its title names
// the client's version.
func (v *Vote) OpenMenu(now float64) {
	w := &VoteWindow{Title: MenuTitle(), Menu: true, About: v.about}
	for _, m := range v.schema.Menu {
		w.Options = append(w.Options, cleanText(m.Template.Title))
	}
	if v.settings {
		w.Options = append(w.Options, SettingsLabel)
	}
	if v.browser != "" {
		w.Options = append(w.Options, v.browser)
	}
	v.show(w, now)
}

// complete removes the window and shows a queued one, if any.
func (v *Vote) complete(now float64) {
	v.Cur = nil
	v.next(now)
}

// next shows the first queued vote, if any.
func (v *Vote) next(now float64) {
	for i, q := range v.queued {
		if q != nil {
			v.queued[i] = nil
			v.show(q, now)
			return
		}
	}
}

// Key handles a key pressed while the window is open (top-row digits only).
func (v *Vote) Key(code int, now float64) {
	w := v.Cur
	if w == nil || v.waiting != nil || code < 48 || code > 57 {
		return
	}
	n := code - 48
	switch n {
	case 0:
		v.complete(now)
	case 8:
		if w.HasBack() {
			w.Page--
			v.turned(w, now)
		}
	case 9:
		if w.HasMore() {
			w.Page++
			v.turned(w, now)
		}
	default:
		opts := w.PageOptions()
		if n-1 >= len(opts) {
			return
		}
		if w.Menu {
			i := w.Page*VotePageSize + n - 1
			if i >= len(v.schema.Menu) { // the client's own entries
				kind := OutBrowser
				if v.settings && i == len(v.schema.Menu) {
					kind = OutSettings
				}
				v.out = append(v.out, Out{Kind: kind})
				v.complete(now)
				return
			}
			e := v.schema.Menu[i]
			v.complete(now)
			v.create(e.Vote, e.Template.Title, e.Template.Values, e.Template.TimeOff, now, true)
			return
		}
		opt := opts[n-1]
		if opt == "" {
			return
		}
		if w.Engine {
			answer := opt
			if i := w.Page*VotePageSize + n - 1; i < len(w.Answers) {
				answer = w.Answers[i]
			}
			// Never a VOTE_DATA message: the wiring hands it to the platform.
			v.out = append(v.out, Out{Kind: OutEngineAnswer, Vote: w.Name, Text: answer})
		} else {
			v.out = append(v.out, Out{Kind: OutVoteAnswer, Vote: w.Name, Text: opt, Msg: protocol.VoteAnswerMsg(w.Name, opt)})
		}
		v.complete(now)
	}
}

// turned restarts a host vote's time when its page turns, as the engine
// does; an engine vote keeps the platform's deadline.
func (v *Vote) turned(w *VoteWindow, now float64) {
	if !w.Engine {
		w.Deadline, w.Duration = now+v.schema.Time, v.schema.Time
	}
}

// Update expires the window at now; a vote waiting for its list gives up
// after the vote time so a host that never answers cannot block the menu.
func (v *Vote) Update(now float64) {
	if v.Cur != nil && !v.Cur.TimeOff && now >= v.Cur.Deadline {
		v.complete(now)
	}
	if v.waiting != nil && now-v.waiting.since >= v.schema.Time {
		v.waiting = nil
	}
}

func cleanList(in []string) []string {
	if len(in) > maxVoteOptions {
		in = in[:maxVoteOptions]
	}
	out := make([]string, len(in))
	for i, s := range in {
		out[i] = cleanText(s)
	}
	return out
}
