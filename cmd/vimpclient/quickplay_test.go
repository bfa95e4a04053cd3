package main

import (
	"bytes"
	"strings"
	"testing"

	"vimpclient/testkit/browsertest"
	"vimpclient/testkit/fakemaster"
)

// -quickplay tanks MASTER joins the fullest tanks room with space: here
// the hosted room, the fuller one being full.
func TestQuickplayJoinsFullestRoom(t *testing.T) {
	w := browsertest.NewWorld(t)
	w.Fake.CloseRoom(w.Fake.RoomIDs()[1], "gone") // the world's listed room, 1 of 8
	full := w.Fake.AddRoom(fakemaster.Listed{Name: "Full Room", Players: 8, MaxPlayers: 8})
	var out, errOut bytes.Buffer
	// How far a run of 2 s gets depends on the machine: what counts is the
	// room chosen and offered to.
	run([]string{"-headless", "-for", "2s", "-token", w.Keys.Token("2", "Alice"), "-quickplay", "tanks", w.Fake.URL()}, &out, &errOut)
	if offers(w.Fake) == 0 {
		t.Fatalf("no offer went out\n%s", errOut.String())
	}
	asked := false
	for _, q := range w.Fake.Requests() {
		asked = asked || q.URI == "/quickplay/tanks"
	}
	if !asked || !strings.Contains(errOut.String(), `msg="quick play" room="Native Room" id=`+w.Room) || strings.Contains(errOut.String(), full) {
		t.Fatalf("asked /quickplay: %v; want the hosted room joined, not the full one\n%s", asked, errOut.String())
	}
}

// `open` with the master's room page (its roomId, as /servers and
// /rooms/:roomId name the room) or a vimp:// link joins that room.
func TestOpenJoinsTheLinkedRoom(t *testing.T) {
	w := browsertest.NewWorld(t)
	host := strings.TrimPrefix(w.Fake.URL(), "http://")
	for _, link := range []string{w.Fake.URL() + "/rooms/" + w.Room, "vimp://" + host + "/" + w.Room} {
		var errOut bytes.Buffer
		// How far a run of 2 s gets depends on the machine: what counts is
		// that the linked room was found and offered to (a room the link
		// did not name is an error before any offer).
		before := offers(w.Fake)
		run([]string{"open", "-headless", "-for", "2s", "-token", w.Keys.Token("2", "Alice"), "-token-master", w.Fake.URL(), link}, &bytes.Buffer{}, &errOut)
		if offers(w.Fake) == before || strings.Contains(errOut.String(), "no room") {
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
