package gameloop

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"vimpclient/input"
	"vimpclient/session"
)

// The story counts from the run's start to the first CONFIG_DATA, and
// each host change from the old host dropped (the first announcement) to
// the new host's CONFIG_DATA; a change whose host never configured has no
// gap, and the list is bounded.
func TestLobbyStory(t *testing.T) {
	t0 := time.Unix(1000, 0)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	s := lobbyStory{gapFor: -1}
	s.configured(t0, at(180))
	s.hostDropped(at(5000))
	s.hostDropped(at(5100)) // a repeat of the announcement
	s.hostChanged(2, "cold", at(5200))
	s.configured(t0, at(6550))
	s.hostChanged(3, "checkpoint", at(9000)) // unannounced, never configured
	s.hostLost(2550 * time.Millisecond)
	b, err := json.Marshal(LobbySummary{JoinMs: s.joinMs, Migrations: s.migrations, HostChanges: s.changes, HostLostMs: s.lostMs})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"master":"","room":"","roomId":"","joinMs":180,"migrations":0,"hostChanges":[{"epoch":2,"mode":"cold","gapMs":1550},{"epoch":3,"mode":"checkpoint","gapMs":null}],"hostLostMs":2550}`
	if string(b) != want {
		t.Fatalf("story\n%s\nwant\n%s", b, want)
	}
	for i := range maxHostChanges + 10 {
		s.hostChanged(4+i, "cold", at(10000+i))
	}
	if len(s.changes) != maxHostChanges {
		t.Fatalf("%d host changes kept", len(s.changes))
	}
	s.configured(t0, at(20000)) // the change past the bound has nowhere to go
}

// refusingPlatform turns every chat line down, as a lobby refuses a
// command its master does not have.
type refusingPlatform struct{}

func (refusingPlatform) AnswerVote(string, string) error { return errors.New("no vote") }
func (refusingPlatform) Command(line string) (bool, error) {
	return true, errors.New(line + ": this master has no host vote")
}

// A chat line that went nowhere is said on screen, not only in the log.
func TestRefusedChatLineIsSaid(t *testing.T) {
	sess := session.New(session.Options{Logger: quiet()})
	sess.SetPlatform(refusingPlatform{})
	loop := New(Options{Session: sess, Log: quiet(), Interactive: true})
	h := loop.HUD()
	h.Chat.OpenInput()
	h.Chat.Type([]rune("/changehost"))
	h.ChatCommand(input.CmdEnter, 0)
	loop.Tick(time.Now())
	for _, n := range loop.HUD().Notices() {
		if strings.Contains(n.Text, "/changehost: this master has no host vote") {
			return
		}
	}
	t.Fatalf("notices %+v", loop.HUD().Notices())
}
