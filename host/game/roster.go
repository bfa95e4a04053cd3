package game

import "iter"

// Member is a match's participant as its roster sees it: a User (its
// seat is nil for a bot) with a nick.
type Member interface {
	User
	Nick() string
}

// Roster is a match's participants: every one by game id (bots too) and
// the connected users' by user id. A match embeds it; its methods are the
// bookkeeping of joins, renames and departures that reads the same in
// every game.
type Roster[P Member] struct {
	// Players holds the participants by game id; 0 is unused.
	Players [256]P
	// Users holds the connected users' participants by user id.
	Users Users[P]
}

// FreeID is the lowest game id no participant holds, 0 when all are taken.
func (r *Roster[P]) FreeID() uint8 {
	var none P
	return FreeID(func(id uint8) bool { return r.Players[id] != none })
}

// UniqueName is name, renamed when another participant has it.
func (r *Roster[P]) UniqueName(name string) string {
	var none P
	return UniqueName(name, func(n string) bool {
		for _, p := range r.Players {
			if p != none && p.Nick() == n {
				return true
			}
		}
		return false
	})
}

// Add places a participant (a bot, or a user's before AddUser) at its game
// id.
func (r *Roster[P]) Add(gid uint8, p P) { r.Players[gid] = p }

// AddUser places a connected user's participant at its game id and user
// id.
func (r *Roster[P]) AddUser(uid int, gid uint8, p P) {
	if r.Users == nil {
		r.Users = Users[P]{}
	}
	r.Players[gid] = p
	r.Users[uid] = p
}

// Drop takes the participant at gid off the roster (a user's leaves
// Users by Users.Take); the seats that watched it watch nobody.
func (r *Roster[P]) Drop(gid uint8) {
	var none P
	r.Players[gid] = none
	for _, q := range r.Players {
		if q == none {
			continue
		}
		if s := q.Seat(); s != nil && s.Watch == gid {
			s.Watch = 0
		}
	}
}

// Playing reports whether uid's participant is in a playing team: a match
// that embeds a Roster is a Spectators.
func (r *Roster[P]) Playing(uid int) bool { return r.Users.Playing(uid) }

// StatRows is the whole stat table: every participant's row by cells, in
// game id order.
func (r *Roster[P]) StatRows(cells func(P) []any) []any {
	var none P
	rows := []any{}
	for _, p := range r.Players {
		if p != none {
			rows = append(rows, cells(p))
		}
	}
	return rows
}

// LatencyCell is the latency a stat row shows for a participant's seat:
// its round-trip time, "BOT" for a bot (no seat).
func LatencyCell(s *Seat) any {
	if s == nil {
		return "BOT"
	}
	return s.Latency
}

// Ready yields the participants of the ready users, with their seats, in
// game id order: those frames and meta go to.
func (r *Roster[P]) Ready() iter.Seq2[P, *Seat] {
	return func(yield func(P, *Seat) bool) {
		var none P
		for _, p := range r.Players {
			if p == none {
				continue
			}
			if s := p.Seat(); s != nil && s.Ready && !yield(p, s) {
				return
			}
		}
	}
}

// SendReady sends payload on port to every ready user, in game id order.
func (r *Roster[P]) SendReady(o Out, port int, payload any) {
	for _, s := range r.Ready() {
		o.JSON(s.UID, port, payload)
	}
}
