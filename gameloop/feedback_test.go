package gameloop

import (
	"errors"
	"strings"
	"testing"
	"time"

	"vimpclient/hud"
	"vimpclient/input"
	"vimpclient/protocol"
	"vimpclient/session"
)

// push queues one server message at h.now.
func (h *heavyMatch) push(port int, m protocol.Message) {
	h.sess.Queue().Push(session.Event{At: h.now, Kind: session.EventMessage, Port: port, Msg: m})
}

// step advances the clock by ms and ticks.
func (h *heavyMatch) step(ms int) {
	h.now = h.now.Add(time.Duration(ms) * time.Millisecond)
	h.loop.Tick(h.now)
}

func teamChat(index int, params ...string) protocol.Chat {
	return protocol.Chat{Kind: protocol.ChatTemplate, Group: "s", Index: index, Params: params}
}

// A -team the host does not offer (the session's refusal) is a warning over
// the game and what the run did not get; joining the team later ends that.
func TestTeamRefusedIsShownAndUnmet(t *testing.T) {
	h := newHeavyMatch(t, nil)
	h.loop.fb.team = "red"
	h.step(0)
	h.sess.Queue().Push(session.Event{At: h.now, Kind: session.EventRefused,
		Err: errors.New("team red is not offered (offered: team1, spectators); not answered")})
	h.step(16)
	ns := h.loop.HUD().Notices()
	if len(ns) != 1 || ns[0].Kind != hud.NoticeWarning || !strings.Contains(ns[0].Text, "team red is not offered") {
		t.Fatalf("notices %+v", ns)
	}
	if h.loop.Unmet() == nil {
		t.Fatal("a refused team is not reported unmet")
	}
	// A warning goes after a while.
	h.step(hud.NoticeWarningMs + 100)
	if ns := h.loop.HUD().Notices(); len(ns) != 0 {
		t.Fatalf("the warning stayed: %+v", ns)
	}
	h.push(protocol.ChatData, teamChat(2, "red"))
	h.step(16)
	if err := h.loop.Unmet(); err != nil {
		t.Fatalf("joined red, still unmet: %v", err)
	}
}

// A full team (the engine's s:0 template) is a warning, an error in the
// summary, and unmet when it is the team asked for.
func TestTeamFullIsShownAndListed(t *testing.T) {
	h := newHeavyMatch(t, nil)
	h.loop.fb.team = "team1"
	h.step(0)
	h.push(protocol.ChatData, teamChat(0, "team2", "team1")) // not the team asked for
	h.step(16)
	if h.loop.Unmet() != nil {
		t.Fatal("another team's refusal made the run unmet")
	}
	h.push(protocol.ChatData, teamChat(0, "team1", "spectators"))
	h.step(16)
	ns := h.loop.HUD().Notices()
	if len(ns) != 2 || ns[1].Text != "team team1 is full; your team: spectators" || ns[1].Kind != hud.NoticeWarning {
		t.Fatalf("notices %+v", ns)
	}
	if err := h.loop.Unmet(); err == nil || !strings.Contains(err.Error(), "team1 is full") {
		t.Fatalf("unmet %v", err)
	}
	s := Summarize(h.loop, nil, 0)
	if len(s.Errors) != 2 || s.Errors[1] != "host refused: team team1 is full; your team: spectators" {
		t.Fatalf("summary errors %q", s.Errors)
	}
	// The chat line itself is still shown.
	if n := len(h.loop.HUD().Chat.Lines()); n != 2 {
		t.Fatalf("%d chat lines", n)
	}
}

// A full room (TECH_INFORM roomFull, then close 4006) is a notice that
// stays, over the close reason, and an error in the summary.
func TestRoomFullIsShownAndListed(t *testing.T) {
	h := newHeavyMatch(t, nil)
	h.step(0)
	h.sess.Queue().Push(session.Event{At: h.now, Kind: session.EventClosed,
		Close: &session.CloseInfo{Code: protocol.CloseRoomFull, Reason: "Room is full! Max players: 30. Try again later."}})
	h.step(16)
	ns := h.loop.HUD().Notices()
	if len(ns) != 1 || ns[0].Kind != hud.NoticeError || !strings.Contains(ns[0].Text, "Room is full! Max players: 30") {
		t.Fatalf("notices %+v", ns)
	}
	s := Summarize(h.loop, nil, 0)
	if len(s.Errors) != 1 || !strings.HasPrefix(s.Errors[0], "the host refused the connection: Room is full") {
		t.Fatalf("summary errors %q", s.Errors)
	}
	if s.CloseCode == nil || *s.CloseCode != protocol.CloseRoomFull {
		t.Fatalf("close code %v", s.CloseCode)
	}
}

// The reconnecting screen comes from the runner's retry event; its give-up
// key reaches the wiring through OnGiveUp, and a new connection hides it.
func TestReconnectingScreenAndGiveUp(t *testing.T) {
	h := newHeavyMatch(t, nil)
	gaveUp := 0
	h.loop.fb.onGiveUp = func() { gaveUp++ }
	h.step(0)
	h.sess.Queue().Push(session.Event{At: h.now, Kind: session.EventClosed, Close: &session.CloseInfo{Code: 1001, Reason: "Server restarting", Reconnect: true}})
	h.sess.Queue().Push(session.Event{At: h.now, Kind: session.EventRetry,
		Retry: &session.RetryInfo{At: h.now.Add(6 * time.Second), Wait: 6 * time.Second, Attempt: 2, Reason: "Server restarting"}})
	h.step(16)
	r := &h.loop.HUD().Reconnect
	if !r.Shown || r.Attempt != 2 {
		t.Fatalf("reconnect screen %+v", r)
	}
	if got := r.Text(h.loop.NowMs()); got != "Connection lost (Server restarting) — reconnecting in 6 s (attempt 2)" {
		t.Fatalf("text %q", got)
	}
	h.step(2500)
	if got := r.Text(h.loop.NowMs()); !strings.Contains(got, "reconnecting in 4 s") {
		t.Fatalf("countdown %q", got)
	}
	if r.Detail() != "" {
		t.Fatalf("detail %q before an attempt failed", r.Detail())
	}
	// The next attempt cannot connect: the loss's reason stays, the
	// failure is said under it.
	h.sess.Queue().Push(session.Event{At: h.now, Kind: session.EventRetry, Retry: &session.RetryInfo{At: h.now.Add(12 * time.Second),
		Wait: 12 * time.Second, Attempt: 3, Reason: "Server restarting", Failed: "the host is not accepting connections"}})
	h.step(16)
	r = &h.loop.HUD().Reconnect
	if got := r.Text(h.loop.NowMs()); got != "Connection lost (Server restarting) — reconnecting in 12 s (attempt 3)" || r.Detail() != "last attempt: the host is not accepting connections" {
		t.Fatalf("text %q, detail %q", got, r.Detail())
	}
	if !h.loop.HUD().ReconnectKey(hud.GiveUpKey) {
		t.Fatal("the screen did not take the key")
	}
	h.step(16)
	if gaveUp != 1 || !h.loop.GaveUp() {
		t.Fatalf("gave up %d times, GaveUp %v", gaveUp, h.loop.GaveUp())
	}
	h.sess.Queue().Push(session.Event{At: h.now, Kind: session.EventOpen})
	h.step(16)
	if h.loop.HUD().Reconnect.Shown {
		t.Fatal("the screen stayed after a new connection opened")
	}
}

// The player's settings reach the controller at once and every new HUD.
func TestDisplaySettingsSurviveReconnects(t *testing.T) {
	h := newHeavyMatch(t, nil)
	h.step(0)
	keys, ok := h.loop.GameKeys()
	if !ok || !keys.Offers("fire") {
		t.Fatalf("game keys %v %v", ok, keys.KeySets)
	}
	h.loop.SetBindings(input.Binding{"fire": {32}})
	if got := h.loop.Controller().Config().KeySets[1][32]; got != "fire" {
		t.Fatalf("Space is %q after the binding", got)
	}
	h.loop.SetPalette(hud.PaletteColorBlind)
	h.loop.SetReducedMotion(true)
	h.loop.SetSettingsEntry(true)
	h.sess.Queue().Push(session.Event{At: h.now, Kind: session.EventOpen})
	h.step(16)
	nh := h.loop.HUD()
	if nh.Palette() != hud.PaletteColorBlind || !nh.Panel.ReducedMotion {
		t.Fatalf("new HUD: palette %q, reduced motion %v", nh.Palette(), nh.Panel.ReducedMotion)
	}
	nh.Vote.OpenMenu(h.loop.NowMs())
	nh.Vote.Key(48+len(nh.Vote.Cur.Options), h.loop.NowMs())
	h.step(16)
	if !h.loop.SettingsAsked() || h.loop.SettingsAsked() {
		t.Fatal("the menu's Settings entry was not reported once")
	}
}

// On screen a refused -team leaves the choice to the player: the team vote
// the session was to answer is shown with the host's list.
func TestRefusedTeamShowsTheVote(t *testing.T) {
	h := newHeavyMatch(t, nil)
	h.loop.fb.interactive = true
	h.step(0)
	h.push(protocol.VoteData, protocol.Vote{Open: &protocol.VoteOpen{Name: "teamChange"}})
	h.step(16)
	if h.loop.HUD().Vote.Cur != nil || h.loop.HUD().Vote.Waiting() {
		t.Fatal("the team vote the session answers was shown")
	}
	h.sess.Queue().Push(session.Event{At: h.now, Kind: session.EventRefused,
		Err: errors.New("team red is not offered (offered: team1, team2, spectators)")})
	h.push(protocol.VoteData, protocol.Vote{IsList: true, List: []string{"team1", "team2", "spectators"}})
	h.step(16)
	w := h.loop.HUD().Vote.Cur
	if w == nil || w.Name != "teamChange" || strings.Join(w.Options, " ") != "team1 team2 spectators" {
		t.Fatalf("vote window %+v", w)
	}
	if ns := h.loop.HUD().Notices(); len(ns) != 1 || !strings.HasSuffix(ns[0].Text, "spectators): choose a team") {
		t.Fatalf("notices %+v", ns)
	}
}

// newTestFeedback is a feedback on its own, its notes kept in notes.
func newTestFeedback(o Options, notes *[]string) *feedback {
	o.Session = session.New(session.Options{Logger: quiet(), Queue: session.NewQueue(16)})
	o.Log = quiet()
	f := newFeedback(&o, func(m string) { *notes = append(*notes, m) })
	return &f
}

// With autoTeam the team vote is kept from the HUD, and shown after all
// when the session refuses (on screen only).
func TestFeedbackKeepsTheAutoTeamVote(t *testing.T) {
	var notes []string
	f := newTestFeedback(Options{AutoTeam: true, Interactive: true, Team: "red"}, &notes)
	h := hud.New("h", "g", nil)
	team := protocol.Vote{Open: &protocol.VoteOpen{Name: protocol.TeamVote}}
	if f.vote(h, team, 0) {
		t.Fatal("the team vote the session answers went to the HUD")
	}
	if !f.vote(h, protocol.Vote{Open: &protocol.VoteOpen{Name: "map"}}, 0) {
		t.Fatal("another vote was kept from the HUD")
	}
	f.refused(h, errors.New("team red is not offered"), 0)
	if f.autoVote != nil {
		t.Fatal("the refused team's vote was kept (TestRefusedTeamShowsTheVote sees it on screen)")
	}
	if ns := h.Notices(); len(ns) != 1 || ns[0].Text != "team red is not offered: choose a team" {
		t.Fatalf("notices %+v", ns)
	}
	if f.unmet == nil {
		t.Fatal("the refusal is not unmet")
	}
}

// A team chosen on screen is held for the next connection's first team
// vote; when the host no longer offers it, the player chooses again.
func TestFeedbackRejoinsOnlyAnOfferedTeam(t *testing.T) {
	var notes []string
	f := newTestFeedback(Options{}, &notes)
	h := hud.New("h", "g", nil)
	f.sent(hud.Out{Kind: hud.OutVoteAnswer, Vote: protocol.TeamVote, Text: "blue"})
	if f.team != "blue" {
		t.Fatalf("team %q after the player's answer", f.team)
	}
	f.opened()
	team := protocol.Vote{Open: &protocol.VoteOpen{Name: protocol.TeamVote}}
	if f.vote(h, team, 0) {
		t.Fatal("the first team vote of a rejoin went to the HUD")
	}
	if !f.vote(h, team, 0) {
		t.Fatal("a second team vote was held too")
	}
	f.opened()
	f.vote(h, team, 0)
	if !f.vote(h, protocol.Vote{IsList: true, List: []string{"red", "spectators"}}, 0) {
		t.Fatal("the list of a vote the run cannot answer was kept from the HUD")
	}
	if ns := h.Notices(); len(ns) != 1 || !strings.HasPrefix(ns[0].Text, "team blue is no longer offered (offered: red, spectators)") {
		t.Fatalf("notices %+v", ns)
	}
	if f.unmet == nil {
		t.Fatal("a team no longer offered is not unmet")
	}
}

// The auth answer the host accepted is given again when it covers the
// form; a form nobody answers is fatal only without a player.
func TestFeedbackAuth(t *testing.T) {
	var notes []string
	f := newTestFeedback(Options{}, &notes)
	h := hud.New("h", "g", nil)
	form := &protocol.AuthForm{Params: []protocol.AuthParam{{Name: "name"}}}
	if err := f.authForm(h, form, nil, errors.New("asked")); err == nil {
		t.Fatal("a form nobody answers is not fatal")
	}
	if in, err := f.verdict(protocol.AuthVerdict{}); in || err == nil {
		t.Fatalf("rejected: in %v, err %v", in, err)
	}
	f.interactive = true
	if err := f.authForm(h, form, nil, errors.New("asked")); err != nil {
		t.Fatalf("on screen: %v", err)
	}
	f.sent(hud.Out{Kind: hud.OutAuth, Values: map[string]string{"name": "Ann"}})
	if in, err := f.verdict(protocol.AuthVerdict{OK: true}); !in || err != nil {
		t.Fatalf("accepted: in %v, err %v", in, err)
	}
	if f.authKept["name"] != "Ann" || f.authSent != nil {
		t.Fatalf("kept %v, sent %v", f.authKept, f.authSent)
	}
	if f.replayAuth(h, &protocol.AuthForm{Params: []protocol.AuthParam{{Name: "name"}, {Name: "team"}}}) {
		t.Fatal("an answer that does not cover the form was given again")
	}
}

// The engine's team templates: a full team asked for is unmet and noted,
// a confirmation ends it, and a team chosen on screen follows the host.
func TestFeedbackTeamChat(t *testing.T) {
	var notes []string
	f := newTestFeedback(Options{}, &notes)
	h := hud.New("h", "g", nil)
	f.team = "red"
	f.teamChat(h, teamChat(chatTeamFull, "red", "blue"))
	if f.unmet == nil || len(notes) != 1 || notes[0] != "host refused: team red is full; your team: blue" {
		t.Fatalf("unmet %v, notes %q", f.unmet, notes)
	}
	if f.team != "blue" {
		t.Fatalf("team %q: the player's team is the one the host put them in", f.team)
	}
	f.teamChat(h, teamChat(chatYourTeam, "blue"))
	if f.unmet != nil {
		t.Fatalf("still unmet in the team: %v", f.unmet)
	}
}
