package hud

import (
	"strings"
	"testing"
)

func TestNoticesOnceTimedAndBounded(t *testing.T) {
	h := New("h", "g", nil)
	h.Notice("frames from this host cannot be decoded: not a v5 frame", NoticeError) // before any time: stamped by the next Update
	h.Update(100000)
	h.Notice("team red is not offered: team1, spectators", NoticeWarning)
	h.Notice("team red is not offered:  team1, spectators\n", NoticeWarning) // the same text: once
	if n := h.Notices(); len(n) != 2 || n[0].At != 100000 || n[1].Kind != NoticeWarning {
		t.Fatalf("notices %+v", n)
	}
	h.Update(100000 + NoticeWarningMs)
	if n := h.Notices(); len(n) != 1 || n[0].Kind != NoticeError {
		t.Fatalf("after the warning's time %+v", n)
	}
	for i := 0; i < 5; i++ {
		h.Notice(strings.Repeat("x", i+1), NoticeInfo)
	}
	if n := h.Notices(); len(n) != MaxNotices || n[0].Text != "xxx" {
		t.Fatalf("bounded %+v", n)
	}
	h.Notice(strings.Repeat("long ", 100), NoticeInfo)
	if n := h.Notices(); len([]rune(n[len(n)-1].Text)) != maxNoticeText {
		t.Fatalf("not cut: %d runes", len([]rune(n[len(n)-1].Text)))
	}
	h.ClearNotices()
	if len(h.Notices()) != 0 {
		t.Fatal("not cleared")
	}
}

func TestReconnectingScreenAndGiveUp(t *testing.T) {
	h := New("h", "g", nil)
	h.OpenMode(1, 0) // the command line closes when the connection drops
	h.Reconnecting("host restarted", 5000, 2)
	r := &h.Reconnect
	if !r.Shown || h.Chat.Open() {
		t.Fatal("screen not shown or command line open")
	}
	if got := r.Text(1200); got != "Connection lost (host restarted) — reconnecting in 4 s (attempt 2)" {
		t.Fatalf("text %q", got)
	}
	if a, b := r.Text(1300), r.Text(1999); a != b {
		t.Fatal("text rebuilt within the same second")
	}
	if got := r.Text(6000); !strings.Contains(got, "in 0 s") {
		t.Fatalf("after the deadline %q", got)
	}
	if h.ReconnectKey(65) != true || len(h.Outgoing()) != 0 {
		t.Fatal("a key other than give-up sent something")
	}
	h.ReconnectKey(GiveUpKey)
	out := h.Outgoing()
	if len(out) != 1 || out[0].Kind != OutGiveUp || !r.GaveUp || r.Hint() != "" {
		t.Fatalf("give up: %+v %+v", out, r)
	}
	if got := r.Text(7000); got != "Connection lost (host restarted) — gave up reconnecting" {
		t.Fatalf("gave up %q", got)
	}
	h.ReconnectKey(GiveUpKey)
	if len(h.Outgoing()) != 0 {
		t.Fatal("gave up twice")
	}
	h.Reconnected()
	if r.Shown || h.ReconnectKey(GiveUpKey) {
		t.Fatal("still shown")
	}
}
