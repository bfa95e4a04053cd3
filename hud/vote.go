package hud

import (
	"encoding/json"
	"strconv"

	"vimpclient/protocol"
)

// VotePageSize is the number of options per page.
const VotePageSize = 7

// maxVoteOptions bounds one vote's option list.
const maxVoteOptions = 256

// VoteWindow is a vote on screen.
type VoteWindow struct {
	Name     string // vote name sent back with the answer; "" for the menu
	Title    string
	Options  []string
	Labels   []string // "n. option", numbered within its page
	TimeOff  bool
	Menu     bool
	Engine   bool // an '@' platform vote: answered to the platform, never on port 7
	Page     int
	Deadline float64 // ms, meaningless with TimeOff
	Duration float64 // the lifetime the deadline was set from, ms
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

// EngineAnswer is the answer to an '@' vote, for the platform connection.
type EngineAnswer struct{ Name, Value string }

// Vote is the vote overlay: at most one window, a host vote waiting for its
// value list, and one queued vote per origin.
type Vote struct {
	schema    VoteSchema
	Cur       *VoteWindow
	waiting   *voteWaiting
	queued    [2]*VoteWindow // [host, engine]
	out       []Out
	Engine    []EngineAnswer
	Ignored   int // votes without a template, lists nobody waited for
	hostLists bool
	settings  bool // the menu ends with the client's Settings entry
}

// SettingsLabel is the client's own last entry of the M menu.
const SettingsLabel = "Settings (F10)"

// SettingsEntry adds the client's Settings entry at the end of the M menu;
// choosing it queues an OutSettings instead of a vote.
func (v *Vote) SettingsEntry(on bool) { v.settings = on }

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

// EngineVote shows (or queues) an '@' platform vote.
func (v *Vote) EngineVote(name, title string, options []string, now float64) {
	v.show(&VoteWindow{Name: name, Title: cleanText(title), Options: cleanList(options), Engine: true}, now)
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

// show puts w on screen, or queues it when a vote of the other origin is shown.
func (v *Vote) show(w *VoteWindow, now float64) {
	if v.Cur != nil && v.Cur.Engine != w.Engine {
		v.queued[origin(w)] = w
		return
	}
	w.Page = 0
	w.Deadline = now + v.schema.Time
	w.Duration = v.schema.Time
	if len(w.Labels) != len(w.Options) {
		w.Labels = make([]string, len(w.Options))
		for i, o := range w.Options {
			w.Labels[i] = strconv.Itoa(i%VotePageSize+1) + ". " + o
		}
	}
	v.Cur = w
}

// OpenMenu shows the M-key menu (a host-origin window).
func (v *Vote) OpenMenu(now float64) {
	w := &VoteWindow{Title: "Menu", Menu: true}
	for _, m := range v.schema.Menu {
		w.Options = append(w.Options, cleanText(m.Template.Title))
	}
	if v.settings {
		w.Options = append(w.Options, SettingsLabel)
	}
	v.show(w, now)
}

// complete removes the window and shows a queued one, if any.
func (v *Vote) complete(now float64) {
	v.Cur = nil
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
			w.Deadline = now + v.schema.Time
		}
	case 9:
		if w.HasMore() {
			w.Page++
			w.Deadline = now + v.schema.Time
		}
	default:
		opts := w.PageOptions()
		if n-1 >= len(opts) {
			return
		}
		if w.Menu {
			i := w.Page*VotePageSize + n - 1
			if i >= len(v.schema.Menu) { // the client's Settings entry
				v.out = append(v.out, Out{Kind: OutSettings})
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
			v.Engine = append(v.Engine, EngineAnswer{Name: w.Name, Value: opt})
		} else {
			v.out = append(v.out, Out{Kind: OutVoteAnswer, Vote: w.Name, Text: opt, Msg: protocol.VoteAnswerMsg(w.Name, opt)})
		}
		v.complete(now)
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
