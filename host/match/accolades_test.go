package match

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"vimpclient/protocol"
)

// accoladesOf decodes the ACCOLADES_DATA messages a user got, with the
// client's parser.
func accoladesOf(t *testing.T, r *recorder, uid int) []*protocol.Accolades {
	t.Helper()
	var out []*protocol.Accolades
	for _, s := range r.texts[uid] {
		if !strings.HasPrefix(s, `[18,`) {
			continue
		}
		var env []json.RawMessage
		if err := json.Unmarshal([]byte(s), &env); err != nil || len(env) != 2 {
			t.Fatalf("bad message %s", s)
		}
		a, err := protocol.ParseAccolades(env[1])
		if err != nil || a.Dropped != 0 {
			t.Fatalf("%s: %v, %d dropped", s, err, a.Dropped)
		}
		out = append(out, a)
	}
	return out
}

func TestAccoladesFromMatchResults(t *testing.T) {
	m, err := New(Config{Bots: 2, Seed: 1, Log: quiet()})
	if err != nil {
		t.Fatal(err)
	}
	r := newRecorder(t, m)
	joinHuman(t, m, 1, "Alice")
	if n := len(accoladesOf(t, r, 1)); n != 0 {
		t.Fatalf("%d pictures before any result", n)
	}
	alice := m.Users[1]
	var bot *player
	for _, p := range m.Players {
		if p != nil && p.bot != nil {
			bot = p
			break
		}
	}
	// A round ends with Alice on 5 and a bot on 7: the next send carries
	// the host's board, her place and her own row.
	alice.score, bot.score = 5, 7
	m.startRound()
	m.send()
	got := accoladesOf(t, r, 1)
	if len(got) != 1 {
		t.Fatalf("%d pictures after a round", len(got))
	}
	a := got[0]
	day := a.Boards["day"]
	if len(day) != 2 || day[0] != (protocol.LeaderRow{Place: 1, Nick: bot.name, Score: 7}) || day[1] != (protocol.LeaderRow{Place: 2, Nick: "Alice", Score: 5}) {
		t.Fatalf("board %+v", day)
	}
	aid := strconv.Itoa(int(alice.gid))
	if a.Places[aid]["daily"] != 2 || a.Self[aid]["day"] != (protocol.SelfPlace{Place: 2, Score: 5}) {
		t.Fatalf("Alice's place %+v / %+v", a.Places[aid], a.Self[aid])
	}
	if len(a.Places) != 3 { // every participant, bots too
		t.Fatalf("places %+v", a.Places)
	}
	// Nothing changed: nothing is sent. A lower score later keeps the best.
	m.send()
	alice.score = 3
	m.startRound()
	m.send()
	if n := len(accoladesOf(t, r, 1)); n != 1 {
		t.Fatalf("%d pictures without a change", n)
	}
	// Bob becomes ready and gets the current picture at once.
	joinHuman(t, m, 2, "Bob")
	bobs := accoladesOf(t, r, 2)
	if len(bobs) == 0 || len(bobs[0].Boards["day"]) != 2 {
		t.Fatalf("Bob's pictures %+v", bobs)
	}
	// Alice beats her best and leaves: the board keeps her result.
	alice.score = 9
	m.Leave(1)
	m.send()
	last := accoladesOf(t, r, 2)
	top := last[len(last)-1].Boards["day"]
	if top[0].Nick != "Alice" || top[0].Score != 9 {
		t.Fatalf("after Alice left %+v", top)
	}
	if _, ok := last[len(last)-1].Places[aid]; ok {
		t.Fatal("a participant who left still has a place")
	}
}

// In a fought match the board follows the kills: every picture a human
// gets is ordered by score and its scores are the bots' results.
func TestAccoladesInAFight(t *testing.T) {
	m, err := New(Config{Bots: 15, Seed: 3, Log: quiet(), RoundSeconds: 20})
	if err != nil {
		t.Fatal(err)
	}
	r := newRecorder(t, m)
	joinHuman(t, m, 1, "Alice")
	now := 1.7e12
	for i := 0; i < 120*90; i++ {
		now += 1000.0 / 120
		m.Step(now)
	}
	got := accoladesOf(t, r, 1)
	if len(got) == 0 {
		t.Fatal("no ACCOLADES_DATA in 90 s of fighting")
	}
	for _, a := range got {
		day := a.Boards["day"]
		for i := range day {
			if day[i].Place != i+1 || day[i].Score <= 0 || i > 0 && day[i].Score > day[i-1].Score {
				t.Fatalf("board out of order %+v", day)
			}
		}
	}
}
