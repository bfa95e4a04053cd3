package main

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"vimpclient/internal/fakemaster"
)

func TestJoinQuickplayArg(t *testing.T) {
	for _, c := range []struct{ in, want []string }{
		{[]string{"-quickplay"}, []string{"-quickplay"}},
		{[]string{"-quickplay", "tanks", "-for", "3s", "http://m"}, []string{"-quickplay=tanks", "-for", "3s", "http://m"}},
		{[]string{"-quickplay", "http://m"}, []string{"-quickplay", "http://m"}},
		{[]string{"-quickplay", "127.0.0.1:3002"}, []string{"-quickplay", "127.0.0.1:3002"}},
		{[]string{"-quickplay", "-bots", "2"}, []string{"-quickplay", "-bots", "2"}},
		{[]string{"--", "-quickplay", "tanks"}, []string{"--", "-quickplay", "tanks"}},
	} {
		if got := joinQuickplayArg(c.in); !slices.Equal(got, c.want) {
			t.Errorf("%q: %q, want %q", c.in, got, c.want)
		}
	}
	var q quickplayFlag
	for v, want := range map[string]quickplayFlag{"true": {on: true}, "false": {}, "snakes": {on: true, game: "snakes"}} {
		if err := q.Set(v); err != nil || q != want {
			t.Errorf("Set(%q): %+v %v", v, q, err)
		}
	}
	if err := q.Set("http://x"); err == nil {
		t.Error("an address taken for a game")
	}
}

// -quickplay tanks MASTER joins the fullest tanks room with space: here
// the hosted room, the fuller one being full.
func TestQuickplayJoinsFullestRoom(t *testing.T) {
	w := newBrowserWorld(t)
	w.fm.CloseRoom(w.fm.RoomIDs()[1], "gone") // the world's listed room, 1 of 8
	full := w.fm.AddRoom(fakemaster.Listed{Name: "Full Room", Players: 8, MaxPlayers: 8})
	var out, errOut bytes.Buffer
	// How far a run of 2 s gets depends on the machine: what counts is the
	// room chosen and offered to.
	run([]string{"-headless", "-for", "2s", "-token", w.keys.Token("2", "Alice"), "-quickplay", "tanks", w.fm.URL()}, &out, &errOut)
	if offers(w.fm) == 0 {
		t.Fatalf("no offer went out\n%s", errOut.String())
	}
	asked := false
	for _, q := range w.fm.Requests() {
		asked = asked || q.URI == "/quickplay/tanks"
	}
	if !asked || !strings.Contains(errOut.String(), `msg="quick play" room="Native Room" id=`+w.room) || strings.Contains(errOut.String(), full) {
		t.Fatalf("asked /quickplay: %v; want the hosted room joined, not the full one\n%s", asked, errOut.String())
	}
}

// `open` with the master's room page (its roomId, as /servers and
// /rooms/:roomId name the room) or a vimp:// link joins that room.
func TestOpenJoinsTheLinkedRoom(t *testing.T) {
	w := newBrowserWorld(t)
	host := strings.TrimPrefix(w.fm.URL(), "http://")
	for _, link := range []string{w.fm.URL() + "/rooms/" + w.room, "vimp://" + host + "/" + w.room} {
		var errOut bytes.Buffer
		// How far a run of 2 s gets depends on the machine: what counts is
		// that the linked room was found and offered to (a room the link
		// did not name is an error before any offer).
		before := offers(w.fm)
		run([]string{"open", "-headless", "-for", "2s", "-token", w.keys.Token("2", "Alice"), link}, &bytes.Buffer{}, &errOut)
		if offers(w.fm) == before || strings.Contains(errOut.String(), "no room") {
			t.Errorf("open %s: no offer to the room\n%s", link, errOut.String())
		}
	}
}

// offers counts the offers the master was sent.
func offers(fm *fakemaster.Master) int {
	n := 0
	for _, m := range fm.Log() {
		if m.Dir == "in" && m.Type == "webrtc_offer" {
			n++
		}
	}
	return n
}
