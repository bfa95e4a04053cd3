package hud

import (
	"strconv"
	"strings"
)

// The platform's side of the HUD in a lobby room: its votes (engine votes,
// named with a leading '@'), the screen shown while the room's host
// changes, and the texts of both. The host never sees any of it.

// ChangeHostVote is the engine vote of the lobby's "Change host" vote.
const ChangeHostVote = "@changeHost"

// EngineTemplate is the client's own template of an engine vote: the game
// cannot declare one (names starting with '@' are reserved for the engine).
type EngineTemplate struct {
	Title   string   // the title when nobody is named
	TitleBy string   // the title naming who started it, as {0}
	Options []string // the labels shown
	Answers []string // what each label answers
	// What the result says: Passed and Failed take the yes count and the
	// eligible count as {0} and {1}.
	Passed, Failed, Cancelled string
	// Started is said to the player who started it (who counts as yes and
	// is not asked).
	Started string
}

// engineTemplates are the engine votes the client knows.
var engineTemplates = map[string]EngineTemplate{
	ChangeHostVote: {
		Title:     "Change host?",
		TitleBy:   "Change host? (started by {0})",
		Options:   []string{"Yes", "No"},
		Answers:   []string{"yes", "no"},
		Passed:    "Vote to change host passed ({0}/{1})",
		Failed:    "Vote to change host failed ({0}/{1})",
		Cancelled: "Host vote cancelled",
		Started:   "Voting has started: the room decides whether to change its host",
	},
}

// EngineTemplateFor is the template of an engine vote. One the client does
// not know gets a plain one: its name for a title, its values as options.
func EngineTemplateFor(name string, values []string) EngineTemplate {
	if t, ok := engineTemplates[name]; ok {
		return t
	}
	title := strings.TrimPrefix(name, "@")
	return EngineTemplate{Title: title + "?", TitleBy: title + "? (started by {0})", Options: values, Answers: values,
		Passed: "Vote " + title + " passed ({0}/{1})", Failed: "Vote " + title + " failed ({0}/{1})",
		Cancelled: "Vote " + title + " cancelled", Started: "Voting has started"}
}

// EngineVote is an engine vote as the wiring hands it over.
type EngineVote struct {
	Name, ID string
	Starter  string   // who started it ("" when not said)
	Values   []string // the platform's answers, for a vote without a template
	// Ends is its deadline and Duration its whole length (HUD ms); Ends 0
	// takes the game's vote time from when it shows.
	Ends, Duration float64
}

// EngineVote shows the platform's vote in the vote overlay with its own
// template; it waits behind a host vote on screen, and a host vote waits
// behind it.
func (h *HUD) EngineVote(e EngineVote, now float64) {
	h.tick(now)
	t := EngineTemplateFor(e.Name, e.Values)
	title := t.Title
	if e.Starter != "" {
		title = fill(t.TitleBy, []string{cleanText(e.Starter)})
	}
	h.Vote.EngineVote(EngineVoteWindow{Name: e.Name, ID: e.ID, Title: title, Options: t.Options, Answers: t.Answers,
		Ends: e.Ends, Duration: e.Duration}, now)
}

// EngineStarted tells the player who started an engine vote that it runs.
func (h *HUD) EngineStarted(name string, now float64) {
	h.tick(now)
	h.Notice(EngineTemplateFor(name, nil).Started, NoticeInfo)
}

// EngineResult is how an engine vote ended.
type EngineResult struct {
	Passed, Cancelled bool
	Yes, Eligible     int
}

// EngineEnded closes the engine vote (on screen or waiting) and says how
// it ended.
func (h *HUD) EngineEnded(name, id string, r EngineResult, now float64) {
	h.tick(now)
	h.Vote.EngineEnded(name, id, now)
	t := EngineTemplateFor(name, nil)
	text := t.Failed
	switch {
	case r.Cancelled:
		text = t.Cancelled
	case r.Passed:
		text = t.Passed
	}
	h.Notice(fill(text, []string{strconv.Itoa(r.Yes), strconv.Itoa(r.Eligible)}), NoticeInfo)
}

// HostChange is the screen shown over the game while a lobby room's host
// changes: the old host is gone, the new one is not joined yet.
type HostChange struct {
	Shown bool
	Text  string  // "Host changing" (the view adds the dots)
	Found bool    // the master named the new host: joining it
	Since float64 // when the change began (monotonic ms)
	// Stalled: no host change at all, the host has just gone quiet; the
	// screen goes when it is heard again.
	Stalled bool
	left    bool // the player pressed the give-up key
}

// Detail is the line under the text.
func (c *HostChange) Detail() string {
	if c.Stalled {
		return "Nothing has come from the host for a moment: waiting for it to answer"
	}
	if c.Found {
		return "New host found: rejoining the room (the map and round start again)"
	}
	return "The room is waiting for its new host"
}

// Hint is the key line.
func (c *HostChange) Hint() string { return "Esc — leave the room" }

// HostChanging shows the host-change screen; a new connection's HUD comes
// without it.
func (h *HUD) HostChanging(text string, now float64) {
	h.tick(now)
	// The screen counts the wait with its own dots.
	text = strings.TrimRight(strings.Join(strings.Fields(cleanText(text)), " "), "….")
	if text == "" {
		text = "Host changing"
	}
	if !h.HostChange.Shown {
		h.HostChange = HostChange{Shown: true, Since: now}
	}
	h.HostChange.Text, h.HostChange.Stalled = text, false
	h.Chat.Escape()
}

// HostStalled shows the host-change screen for a host that went quiet
// (text: "Host not responding"); a host change already on screen stays.
func (h *HUD) HostStalled(text string, now float64) {
	if h.HostChange.Shown {
		return // a host change, or the stall already shown
	}
	h.tick(now)
	text = strings.TrimRight(strings.Join(strings.Fields(cleanText(text)), " "), "….")
	if text == "" {
		text = "Host not responding"
	}
	// The chat line stays open: a host heard again a moment later gives
	// the keys back as they were.
	h.HostChange = HostChange{Shown: true, Since: now, Text: text, Stalled: true}
}

// HostResponding hides the screen of a stalled host that is heard again.
func (h *HUD) HostResponding() {
	if h.HostChange.Stalled {
		h.HostChange = HostChange{}
	}
}

// HostChanged says the new host is being joined.
func (h *HUD) HostChanged(now float64) {
	if h.HostChange.Stalled {
		h.HostChange = HostChange{}
	}
	h.HostChanging(h.HostChange.Text, now)
	h.HostChange.Found = true
}

// HostChangeKey handles a key press (DOM code) while the host-change
// screen is shown: Esc gives up the room (an OutGiveUp). It reports
// whether the screen took the key.
func (h *HUD) HostChangeKey(code int) bool {
	if !h.HostChange.Shown {
		return false
	}
	if code == GiveUpKey && !h.HostChange.left {
		h.HostChange.left = true
		h.out = append(h.out, Out{Kind: OutGiveUp})
	}
	return true
}

// AdoptPlatform takes over what belongs to the platform from the HUD of the
// previous connection (its engine votes): a new host does not end them.
func (h *HUD) AdoptPlatform(old *HUD, now float64) {
	if old != nil && old != h {
		h.tick(now)
		h.Vote.adopt(old.Vote, now)
	}
}
