package game

import (
	"fmt"
	"strconv"
	"strings"

	"vimpclient/host/packer"
)

// Seat is the part of a connected user's state every match keeps alike:
// the handshake steps the room loop reports, the round-trip time the stat
// table shows, the input seq the frames echo, the participant it watches,
// and the meta queued for it alone. A match's own user state embeds it.
type Seat struct {
	UID    int
	InGame bool // MODULES_READY received
	Ready  bool // FIRST_SHOT_READY received for what is being played
	// Latency is the smoothed round-trip time in ms (an int), nil before
	// the first measurement.
	Latency any
	// InputSeq is the seq of the last KEYS_DATA, which the player block
	// echoes.
	InputSeq uint32
	// Watch is the game id of the participant the user looks at while it
	// has nothing of its own to follow (0: the first one alive).
	Watch uint8
	// Chat and Votes are the chat and vote items for this user alone,
	// sent one a tick when the tick has none for everyone (Tick.Send).
	Chat, Votes []any
}

// QueueChat queues chat items for the user alone.
func (s *Seat) QueueChat(items ...any) { s.Chat = Enqueue(s.Chat, items...) }

// QueueVote queues vote items for the user alone.
func (s *Seat) QueueVote(items ...any) { s.Votes = Enqueue(s.Votes, items...) }

// DropQueues forgets what waits for the user: a connection that is gone
// gets none of it.
func (s *Seat) DropQueues() { s.Chat, s.Votes = nil, nil }

// SetLatency records ms and reports whether it changed: the user's stat
// row is then due.
func (s *Seat) SetLatency(ms int) bool {
	if s.Latency == ms {
		return false
	}
	s.Latency = ms
	return true
}

// EnterGame records MODULES_READY and reports whether it is the first: a
// repeated one changes nothing.
func (s *Seat) EnterGame() bool {
	if s.InGame {
		return false
	}
	s.InGame = true
	return true
}

// SendFrame finishes a frame whose header f.Start has written: body (the
// tick's blocks, packed once for everyone) is appended and the frame goes
// to uid.
func SendFrame(o Out, uid int, f *packer.Frame, body []byte, reliable bool) error {
	f.Append(body)
	b, err := f.Bytes()
	if err != nil {
		return fmt.Errorf("pack frame: %w", err)
	}
	o.Frame(uid, b, reliable)
	return nil
}

// Watched is the participant a spectator or a dead player looks at, from
// players indexed by game id: the one *watch names while it is alive,
// else the first alive one, which *watch then names. ok is false when
// nobody is alive.
func Watched[P comparable](players []P, watch *uint8, alive func(P) bool) (w P, ok bool) {
	var none P
	if id := int(*watch); id != 0 && id < len(players) {
		if w := players[id]; w != none && alive(w) {
			return w, true
		}
	}
	for id, q := range players {
		if q != none && alive(q) {
			*watch = uint8(id)
			return q, true
		}
	}
	return none, false
}

// User is a match's participant: its seat (nil for a bot), and whether
// it is in a playing team.
type User interface {
	comparable
	Seat() *Seat
	Plays() bool
}

// Users is a match's participants by user id; its methods are the room
// loop's calls that read the same in every game.
type Users[P User] map[int]P

// SetLatency records uid's round-trip time; it returns the participant
// when the value changed (its stat row is due).
func (u Users[P]) SetLatency(uid, ms int) (P, bool) {
	p, ok := u[uid]
	var none P
	if !ok || p == none || !p.Seat().SetLatency(ms) {
		return none, false
	}
	return p, true
}

// Playing reports whether uid's participant is in a playing team.
func (u Users[P]) Playing(uid int) bool {
	p, ok := u[uid]
	var none P
	return ok && p != none && p.Plays()
}

// EnterGame records uid's MODULES_READY and returns the participant when
// it is the first.
func (u Users[P]) EnterGame(uid int) (P, bool) {
	p, ok := u[uid]
	var none P
	if !ok || p == none || !p.Seat().EnterGame() {
		return none, false
	}
	return p, true
}

// Take removes uid's participant and returns it; ok is false when there
// was none (a user that never joined, or left already).
func (u Users[P]) Take(uid int) (p P, ok bool) {
	if p, ok = u[uid]; ok {
		delete(u, uid)
	}
	return p, ok
}

// Keys reads a KEYS_DATA payload "seq:action:..." of uid's: its
// participant, whose seat's InputSeq takes the seq, and the payload's
// fields (the seq first). ok is false for a user without a participant and
// for a payload of fewer than three fields or without a valid seq.
func (u Users[P]) Keys(uid int, payload string) (p P, fields []string, ok bool) {
	var none P
	if p = u[uid]; p == none {
		return none, nil, false
	}
	fields = strings.Split(payload, ":")
	if len(fields) < 3 {
		return none, nil, false
	}
	seq, err := strconv.ParseUint(fields[0], 10, 32)
	if err != nil {
		return none, nil, false
	}
	p.Seat().InputSeq = uint32(seq)
	return p, fields, true
}

// SwitchWatch moves *watch to the next participant alive after it in game
// id order (the previous one when forward is false), from players indexed
// by game id; to the first alive one when *watch names none of them. It
// reports false, with *watch unchanged, when nobody is alive.
func SwitchWatch[P comparable](players []P, watch *uint8, forward bool, alive func(P) bool) bool {
	var none P
	var ids []uint8
	for id, q := range players {
		if q != none && alive(q) {
			ids = append(ids, uint8(id))
		}
	}
	if len(ids) == 0 {
		return false
	}
	next := 0
	for i, id := range ids {
		if id == *watch {
			next = (i + 1) % len(ids)
			if !forward {
				next = (i - 1 + len(ids)) % len(ids)
			}
		}
	}
	*watch = ids[next]
	return true
}

// Discard is an Out that sends nothing: a match's until SetOut.
type Discard struct{}

func (Discard) JSON(int, int, any)      {}
func (Discard) Frame(int, []byte, bool) {}
