package hud

import (
	"reflect"
	"strings"
	"testing"

	"vimpclient/protocol"
)

func changeHost(id string, ends float64) EngineVoteWindow {
	return EngineVoteWindow{Name: ChangeHostVote, ID: id, Title: "Change host?", Options: []string{"Yes", "No"},
		Answers: []string{"yes", "no"}, Ends: ends, Duration: 15000}
}

// A host vote on screen keeps it when the platform's vote arrives; the
// engine vote waits, then shows for what is left of its own time and
// answers to the platform.
func TestEngineVoteWaitsBehindHostVote(t *testing.T) {
	v := NewVote(voteSchema(t))
	v.Receive(voteMsg(t, `{"name":"many","params":["one"]}`), 0)
	v.EngineVote(changeHost("v1", 15000), 1000)
	if v.Cur == nil || v.Cur.Name != "many" || v.Queued() == nil || v.Queued().Name != ChangeHostVote {
		t.Fatalf("shown %+v, queued %+v", v.Cur, v.Queued())
	}
	v.Key(49, 4000) // a: the host's answer, on port 7
	if out := v.Outgoing(); len(out) != 1 || string(out[0].Msg) != `[7,["many","a"]]` {
		t.Fatalf("host answer %q", out)
	}
	w := v.Cur
	if w == nil || !w.Engine || w.Deadline != 15000 || w.Duration != 15000 || !reflect.DeepEqual(w.Labels, []string{"1. Yes", "2. No"}) {
		t.Fatalf("engine window %+v", w)
	}
	v.Key(50, 5000) // No
	out := v.Outgoing()
	if len(out) != 1 || out[0].Kind != OutEngineAnswer || out[0].Vote != ChangeHostVote || out[0].Text != "no" || out[0].Msg != nil {
		t.Fatalf("engine answer %+v", out)
	}
	if v.Open() {
		t.Fatalf("still open: %+v", v.Cur)
	}
}

// The platform's vote on screen keeps it when the host opens one: the host
// vote waits, neither overwrites the other, and a second host vote only
// replaces the first in the queue.
func TestHostVoteWaitsBehindEngineVote(t *testing.T) {
	v := NewVote(voteSchema(t))
	v.EngineVote(changeHost("v1", 15000), 0)
	v.Receive(voteMsg(t, `{"name":"many","params":["one"]}`), 100)
	v.Receive(voteMsg(t, `{"name":"many","params":["two"]}`), 200)
	if v.Cur == nil || !v.Cur.Engine {
		t.Fatalf("the engine vote was overwritten: %+v", v.Cur)
	}
	if q := v.Queued(); q == nil || q.Title != "Pick two" {
		t.Fatalf("queued %+v", q)
	}
	v.Key(49, 300) // Yes
	if out := v.Outgoing(); len(out) != 1 || out[0].Kind != OutEngineAnswer || out[0].Text != "yes" {
		t.Fatalf("engine answer %+v", out)
	}
	// The host vote arrived at 200: it shows for the rest of its 10 s.
	if w := v.Cur; w == nil || w.Title != "Pick two" || w.Deadline != 200+v.schema.Time {
		t.Fatalf("host vote %+v", w)
	}
	if v.Queued() != nil {
		t.Fatalf("still queued: %+v", v.Queued())
	}
}

// A vote whose time ran out while it waited is not shown at all.
func TestQueuedVoteExpires(t *testing.T) {
	v := NewVote(voteSchema(t))
	v.Receive(voteMsg(t, `{"name":"teamChange"}`), 0) // waits for the host's list
	v.Receive(voteMsg(t, `["team1","team2"]`), 10)    // time off: stays until answered
	v.EngineVote(changeHost("v1", 15000), 20)
	v.Update(20000)
	if v.Cur == nil || v.Cur.Name != "teamChange" {
		t.Fatalf("the team vote expired: %+v", v.Cur)
	}
	v.Key(48, 20000) // Exit: the engine vote's time is gone
	if v.Open() || v.Queued() != nil {
		t.Fatalf("an expired engine vote showed: %+v", v.Cur)
	}
}

// The platform's result closes its vote wherever it is: on screen (what
// waited behind it shows) or in the queue.
func TestEngineResultClosesTheVote(t *testing.T) {
	v := NewVote(voteSchema(t))
	v.EngineVote(changeHost("v1", 15000), 0)
	v.Receive(voteMsg(t, `{"name":"many","params":["one"]}`), 100)
	if v.EngineEnded(ChangeHostVote, "other", 200) {
		t.Fatal("closed by another vote's result")
	}
	if !v.EngineEnded(ChangeHostVote, "v1", 300) || v.Cur == nil || v.Cur.Name != "many" {
		t.Fatalf("after the result %+v", v.Cur)
	}
	v.EngineVote(changeHost("v2", 15000), 400) // behind the host vote
	if !v.EngineEnded(ChangeHostVote, "v2", 500) || v.Queued() != nil || v.Cur.Name != "many" {
		t.Fatalf("queued result: shown %+v, queued %+v", v.Cur, v.Queued())
	}
}

// The M menu is the player's own action: it opens over the platform's
// vote, which comes back when the menu closes, its deadline unchanged.
func TestMenuOpensOverEngineVote(t *testing.T) {
	v := NewVote(voteSchema(t))
	v.SettingsEntry(true)
	v.BrowserEntry("Server list")
	v.EngineVote(changeHost("v1", 15000), 0)
	v.OpenMenu(1000)
	if v.Cur == nil || !v.Cur.Menu || v.Queued() == nil || !v.Queued().Engine {
		t.Fatalf("menu %+v, queued %+v", v.Cur, v.Queued())
	}
	if want := []string{"Switch team", "Suggest map", SettingsLabel, "Server list"}; !reflect.DeepEqual(v.Cur.Options, want) {
		t.Fatalf("menu options %q", v.Cur.Options)
	}
	v.Key(48, 2000)
	if v.Cur == nil || !v.Cur.Engine || v.Cur.Deadline != 15000 {
		t.Fatalf("engine vote back %+v", v.Cur)
	}
	// The client's entries: Settings, then the server list.
	v.OpenMenu(3000)
	v.Key(52, 3100)
	if out := v.Outgoing(); len(out) != 1 || out[0].Kind != OutBrowser {
		t.Fatalf("server list entry %+v", out)
	}
	v.OpenMenu(3200)
	v.Key(51, 3300)
	if out := v.Outgoing(); len(out) != 1 || out[0].Kind != OutSettings {
		t.Fatalf("settings entry %+v", out)
	}
}

// The HUD shows the Change-host vote with the client's own template, keeps
// it over a new CONFIG_DATA and a new connection's HUD, and says how it
// ended.
func TestChangeHostVoteInTheHUD(t *testing.T) {
	h := New("host", "tanks", nil)
	h.configure(captureUIConfig(t))
	h.EngineVote(EngineVote{Name: ChangeHostVote, ID: "v1", Starter: "Alice", Values: []string{"yes", "no"},
		Ends: 15000, Duration: 15000}, 0)
	w := h.Vote.Cur
	if w == nil || w.Title != "Change host? (started by Alice)" || !reflect.DeepEqual(w.Options, []string{"Yes", "No"}) {
		t.Fatalf("window %+v", w)
	}
	h.Handle(&protocol.Config{}, 100)
	if h.Vote.Cur == nil || h.Vote.Cur.ID != "v1" {
		t.Fatalf("lost over CONFIG_DATA: %+v", h.Vote.Cur)
	}
	next := New("host", "tanks", nil)
	next.AdoptPlatform(h, 200)
	if next.Vote.Cur == nil || next.Vote.Cur.ID != "v1" || next.Vote.Cur.Deadline != 15000 {
		t.Fatalf("lost over a new connection: %+v", next.Vote.Cur)
	}
	next.EngineEnded(ChangeHostVote, "v1", EngineResult{Passed: true, Yes: 2, Eligible: 3}, 300)
	if next.Vote.Open() {
		t.Fatal("still open after the result")
	}
	if n := next.Notices(); len(n) != 1 || n[0].Text != "Vote to change host passed (2/3)" {
		t.Fatalf("notices %+v", n)
	}
	next.EngineEnded(ChangeHostVote, "v1", EngineResult{Cancelled: true}, 400)
	if n := next.Notices(); len(n) != 2 || n[1].Text != "Host vote cancelled" {
		t.Fatalf("notices %+v", n)
	}

	// Another '@' vote belongs to the platform too, with a plain template.
	h.EngineVote(EngineVote{Name: "@kickHost", ID: "k", Values: []string{"kick", "keep"}}, 500)
	if w := h.Vote.Cur; w == nil || !w.Engine || w.Title != "kickHost?" || !reflect.DeepEqual(w.Options, []string{"kick", "keep"}) {
		t.Fatalf("other engine vote %+v", w)
	}
}

// The host-change screen: shown from the announcement, says when the new
// host is found, gives up once on Esc, and yields to the reconnecting
// screen when no host comes.
func TestHostChangeScreen(t *testing.T) {
	h := New("host", "tanks", nil)
	h.HostChanging("", 100)
	if !h.HostChange.Shown || h.HostChange.Text != "Host changing" || h.HostChange.Found {
		t.Fatalf("screen %+v", h.HostChange)
	}
	h.HostChanged(200)
	if !h.HostChange.Found || h.HostChange.Since != 100 || h.HostChange.Detail() == "" {
		t.Fatalf("screen %+v", h.HostChange)
	}
	if h.HostChangeKey(65) != true || len(h.Outgoing()) != 0 {
		t.Fatal("a key other than Esc acted")
	}
	h.HostChangeKey(GiveUpKey)
	h.HostChangeKey(GiveUpKey)
	if out := h.Outgoing(); len(out) != 1 || out[0].Kind != OutGiveUp {
		t.Fatalf("give up %+v", out)
	}
	h.Reconnecting("no new host", 300, 1)
	if h.HostChange.Shown || h.HostChangeKey(GiveUpKey) {
		t.Fatal("the host-change screen stayed over the reconnecting screen")
	}
}

// A host that goes quiet shows the same screen as "Host not responding",
// without closing the chat line; heard again, the screen goes. A host
// change announced meanwhile takes the screen over and stays.
func TestHostStalledScreen(t *testing.T) {
	h := New("host", "tanks", nil)
	h.Chat.OpenInput()
	h.HostStalled("Host not responding", 100)
	if c := h.HostChange; !c.Shown || !c.Stalled || c.Text != "Host not responding" || !strings.Contains(c.Detail(), "waiting") {
		t.Fatalf("screen %+v", c)
	}
	if !h.Chat.Open() {
		t.Error("the stall closed the chat line")
	}
	h.HostResponding()
	if h.HostChange.Shown {
		t.Fatal("the screen stayed after the host was heard again")
	}
	h.HostStalled("Host not responding", 200)
	h.HostChanging("Host changing…", 300)
	if c := h.HostChange; !c.Shown || c.Stalled || c.Text != "Host changing" {
		t.Fatalf("the host change did not take the screen over: %+v", c)
	}
	h.HostResponding()
	h.HostStalled("Host not responding", 400)
	if c := h.HostChange; !c.Shown || c.Stalled || c.Text != "Host changing" {
		t.Fatalf("a stall replaced the host change: %+v", c)
	}
}

// The M menu ends with the client's Settings entry, which asks the wiring
// to open the overlay.
func TestMenuSettingsEntry(t *testing.T) {
	h := New("h", "g", nil)
	h.SettingsEntry(true)
	h.Vote.OpenMenu(0)
	opts := h.Vote.Cur.Options
	if len(opts) == 0 || opts[len(opts)-1] != SettingsLabel {
		t.Fatalf("menu %q", opts)
	}
	h.Vote.Key(48+len(opts), 10)
	out := h.Outgoing()
	if len(out) != 1 || out[0].Kind != OutSettings || h.Vote.Cur != nil {
		t.Fatalf("out %+v, window %+v", out, h.Vote.Cur)
	}
}
