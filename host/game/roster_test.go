package game

import (
	"reflect"
	"testing"
	"vimpclient/protocol"
)

type member struct {
	seat *Seat
	nick string
	team int
}

func (m *member) Seat() *Seat  { return m.seat }
func (m *member) Plays() bool  { return m.team != 0 }
func (m *member) Nick() string { return m.nick }
func (m *member) cells() []any { return []any{m.nick, LatencyCell(m.seat)} }

func TestRosterJoinRenameDrop(t *testing.T) {
	var r Roster[*member]
	if r.FreeID() != 1 {
		t.Fatal("an empty roster's first free id is not 1")
	}
	bot := &member{nick: "Alice", team: 1}
	r.Add(r.FreeID(), bot)
	user := &member{seat: &Seat{UID: 9, Watch: 1, Latency: 40}, nick: r.UniqueName("Alice")}
	r.AddUser(9, r.FreeID(), user)
	if user.nick != "Alice#1" || r.Players[2] != user || r.Users[9] != user {
		t.Fatalf("the user is %q at %v", user.nick, r.Users)
	}
	if r.Playing(9) || r.Playing(1) {
		t.Fatal("a spectator, or a user id nobody has, plays")
	}
	got := r.StatRows((*member).cells)
	if want := []any{[]any{"Alice", "BOT"}, []any{"Alice#1", 40}}; !reflect.DeepEqual(got, want) {
		t.Fatalf("stat rows %v, want %v", got, want)
	}
	r.Drop(1)
	if r.Players[1] != nil || user.seat.Watch != 0 || r.FreeID() != 1 {
		t.Fatalf("after the drop: %v, watch %d", r.Players[1], user.seat.Watch)
	}
}

type sent struct {
	uid, port int
	payload   any
}

type recorder struct{ msgs []sent }

func (r *recorder) JSON(uid, port int, payload any) {
	r.msgs = append(r.msgs, sent{uid, port, payload})
}
func (r *recorder) Frame(int, []byte, bool) {}

func TestOutboxTick(t *testing.T) {
	var o Outbox
	var rec recorder
	s := &Seat{UID: 3}
	s.QueueChat("mine")
	s.QueueVote("my vote")
	o.Chat("all")
	o.StatGone(7, 2)
	heads := func() []any { return []any{"h"} }
	tick := o.Take(heads)
	tick.Send(&rec, s, nil)
	// Chat for everyone goes first; the user's own waits. The null row
	// goes without heads.
	if len(rec.msgs) != 3 || rec.msgs[1].payload != "all" || rec.msgs[2].payload != "my vote" {
		t.Fatalf("first tick %v", rec.msgs)
	}
	if st := rec.msgs[0].payload.([]any); len(st[1].([]any)) != 0 {
		t.Fatalf("heads went with a null row: %v", st)
	}
	rec.msgs = nil
	o.StatRow([]any{"7", 2, []any{"x"}})
	tick = o.Take(heads)
	tick.Send(&rec, s, []string{"t:5"})
	if len(rec.msgs) != 3 || rec.msgs[0].port != protocol.PanelData || rec.msgs[2].payload != "mine" || rec.msgs[1].payload.([]any)[1].([]any)[0] != "h" {
		t.Fatalf("second tick %v", rec.msgs)
	}
	for range MaxQueue + 5 {
		s.QueueChat("flood")
	}
	if len(s.Chat) != MaxQueue {
		t.Fatalf("queue of %d", len(s.Chat))
	}
	s.DropQueues()
	if s.Chat != nil || s.Votes != nil {
		t.Fatal("queues kept")
	}
}

func TestReadChatAndRename(t *testing.T) {
	if _, _, ok := ReadChat("\x00"); ok {
		t.Fatal("an empty line taken")
	}
	if line, f, ok := ReadChat("hi there"); !ok || f != nil || line != "hi there" {
		t.Fatalf("a line: %q %v", line, f)
	}
	if _, f, _ := ReadChat("/name  Bob"); !reflect.DeepEqual(f, []string{"/name", "Bob"}) {
		t.Fatalf("a command: %v", f)
	}
	var o Outbox
	var rec recorder
	s := &Seat{UID: 4}
	unique := func(n string) string { return n + "#1" }
	if _, ok := o.Rename(&rec, s, "Al", []string{"/name", "1x"}, unique); ok || s.Chat[0] != "n:0" {
		t.Fatal("a nick that is not valid taken")
	}
	name, ok := o.Rename(&rec, s, "Al", []string{"/name", "Bob"}, unique)
	if !ok || name != "Bob#1" || o.Take(nil).Chat != "n:1:Al,Bob#1" || len(rec.msgs) != 1 || rec.msgs[0].uid != 4 {
		t.Fatalf("renamed %q, sent %v", name, rec.msgs)
	}
}

func TestValidName(t *testing.T) {
	for in, want := range map[string]bool{"Al": true, "A": false, "Al ice#2": true, "1al": false, "al-": false, "abcdefghijklmnop": false} {
		if ValidName(in) != want {
			t.Errorf("ValidName(%q) = %v", in, !want)
		}
	}
}

func TestKeysAndSwitchWatch(t *testing.T) {
	u := Users[*member]{5: {seat: &Seat{UID: 5}}}
	for _, bad := range []string{"1:down", "x:down:fire"} {
		if _, _, ok := u.Keys(5, bad); ok {
			t.Errorf("%q taken", bad)
		}
	}
	if _, _, ok := u.Keys(6, "1:down:fire"); ok {
		t.Error("keys of a user nobody has taken")
	}
	p, f, ok := u.Keys(5, "42:aim:1:2:3")
	if !ok || p.seat.InputSeq != 42 || len(f) != 5 || f[1] != "aim" {
		t.Fatalf("%v %v, seq %d", f, ok, p.seat.InputSeq)
	}
	alive := func(m *member) bool { return m.team != 0 }
	players := []*member{nil, {team: 1}, {}, {team: 1}}
	var watch uint8
	for _, want := range []uint8{1, 3, 1} {
		if !SwitchWatch(players, &watch, true, alive) || watch != want {
			t.Fatalf("forward to %d, want %d", watch, want)
		}
	}
	if !SwitchWatch(players, &watch, false, alive) || watch != 3 {
		t.Fatalf("back to %d", watch)
	}
	if SwitchWatch(players[:3:3][:1], &watch, true, alive) || watch != 3 {
		t.Fatal("switched with nobody alive")
	}
}

func TestSendReady(t *testing.T) {
	var r Roster[*member]
	r.Add(1, &member{})
	r.AddUser(7, 2, &member{seat: &Seat{UID: 7, Ready: true}})
	r.AddUser(8, 3, &member{seat: &Seat{UID: 8}})
	var rec recorder
	r.SendReady(&rec, 18, "pic")
	if len(rec.msgs) != 1 || rec.msgs[0] != (sent{7, 18, "pic"}) {
		t.Fatalf("sent %v", rec.msgs)
	}
}
