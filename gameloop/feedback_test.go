package gameloop

import (
	"errors"
	"strings"
	"testing"
	"time"

	"vimpclient/hud"
	"vimpclient/protocol"
	"vimpclient/session"
)

// push queues one server message at h.now.
func (h *heavyMatch) push(port int, v any) {
	h.sess.Queue().Push(session.Event{At: h.now, Kind: session.EventMessage, Port: port, Value: v})
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
	h.loop.team = "red"
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
	h.loop.team = "team1"
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
