package fakemaster

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"time"
)

// changedCh is closed and replaced whenever rooms or members change; callers
// hold m.mu.
func (m *Master) bump() {
	if m.changed != nil {
		close(m.changed)
	}
	m.changed = make(chan struct{})
}

// waitFor blocks until cond (run under m.mu) holds or ctx ends.
func (m *Master) waitFor(ctx context.Context, cond func() bool) error {
	for {
		m.mu.Lock()
		if cond() {
			m.mu.Unlock()
			return nil
		}
		if m.changed == nil {
			m.changed = make(chan struct{})
		}
		ch := m.changed
		m.mu.Unlock()
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-ch:
		}
	}
}

// WaitRooms blocks until n rooms are registered or ctx ends.
func (m *Master) WaitRooms(ctx context.Context, n int) error {
	return m.waitFor(ctx, func() bool { return len(m.rooms) >= n })
}

// WaitSeen blocks until the master received a message of type typ.
func (m *Master) WaitSeen(ctx context.Context, typ string) error { return m.WaitCount(ctx, typ, 1) }

// WaitCount blocks until the master received n messages of type typ
// ("ws-pong" counts answered WebSocket pings).
func (m *Master) WaitCount(ctx context.Context, typ string, n int) error {
	return m.waitFor(ctx, func() bool {
		c := 0
		for _, l := range m.log {
			if l.Dir == "in" && l.Type == typ {
				c++
			}
		}
		return c >= n
	})
}

// WaitGone blocks until the room is no longer registered or ctx ends.
func (m *Master) WaitGone(ctx context.Context, room string) error {
	return m.waitFor(ctx, func() bool { return m.rooms[room] == nil })
}

// WaitMembers blocks until the room has n members (newer dialect).
func (m *Master) WaitMembers(ctx context.Context, room string, n int) error {
	return m.waitFor(ctx, func() bool { r := m.rooms[room]; return r != nil && len(r.members) >= n })
}

// WaitPlayers blocks until a room reports n players (older dialect's
// update_host) or ctx ends.
func (m *Master) WaitPlayers(ctx context.Context, room string, n int) error {
	return m.waitFor(ctx, func() bool { r := m.rooms[room]; return r != nil && r.players == n })
}

// WaitReported blocks until a room's host reports n players in
// update_host (either dialect) or ctx ends.
func (m *Master) WaitReported(ctx context.Context, room string, n int) error {
	return m.waitFor(ctx, func() bool { r := m.rooms[room]; return r != nil && r.reported == n })
}

// members lists the sessions of a room's members; callers hold m.mu.
func (m *Master) memberSessions(r *room) []*sess {
	var out []*sess
	for _, mb := range r.members {
		if s := m.sessions[mb.session]; s != nil && s.id != r.host {
			out = append(out, s)
		}
	}
	return out
}

// Migrate moves a room to the host that registered the room `to` (that
// room is folded into this one), the way the newer master hands a room to
// a successor: host_migrating to the members, the new host bound, then
// host_changed with mode.
func (m *Master) Migrate(roomID, to, mode string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	r, succ := m.rooms[roomID], m.rooms[to]
	if r == nil || succ == nil || m.cfg.Dialect != Newer {
		return errors.New("fakemaster: no such rooms, or not the newer dialect")
	}
	h := m.sessions[succ.host]
	if h == nil {
		return errors.New("fakemaster: the successor is gone")
	}
	r.epoch++
	r.status = "migrating"
	for _, s := range m.memberSessions(r) {
		m.writeMsg(s, map[string]any{"type": "host_migrating", "roomId": r.id, "epoch": r.epoch, "reason": "vote", "waitMs": 5000})
	}
	if old := m.sessions[r.host]; old != nil {
		old.hosts = ""
	}
	delete(m.rooms, succ.id)
	h.hosts, r.host, r.status = r.id, h.id, "online"
	for _, s := range m.memberSessions(r) {
		m.writeMsg(s, map[string]any{"type": "host_changed", "roomId": r.id, "epoch": r.epoch, "mode": mode, "reason": "vote"})
	}
	m.bump()
	return nil
}

// CloseRoom ends a room: its members get room_closed, its host loses it.
func (m *Master) CloseRoom(roomID, reason string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r := m.rooms[roomID]
	if r == nil {
		return
	}
	for _, s := range m.memberSessions(r) {
		s.memberOf = ""
		m.writeMsg(s, map[string]any{"type": "room_closed", "roomId": r.id, "reason": reason})
	}
	if h := m.sessions[r.host]; h != nil {
		h.hosts = ""
	}
	delete(m.rooms, roomID)
	m.bump()
}

func (m *Master) memberOf(s *sess, room string) *member {
	r := m.rooms[room]
	if r == nil || s.memberOf != room {
		return nil
	}
	for _, mb := range r.members {
		if mb.session == s.id {
			return mb
		}
	}
	return nil
}

// voteStart opens the "Change host" vote: the starter counts as yes.
func (m *Master) voteStart(s *sess, msg map[string]json.RawMessage) {
	if m.cfg.Dialect != Newer {
		return
	}
	id := str(msg, "roomId")
	mb := m.memberOf(s, id)
	if mb == nil {
		return
	}
	r := m.rooms[id]
	if r.vote != nil {
		m.fail(s, "voteRejected", "host_vote_start", id, map[string]any{"reason": "active"})
		return
	}
	v := &vote{id: "v" + strconv.Itoa(m.nextID), eligible: map[string]bool{}, yes: map[string]bool{mb.id: true}, no: map[string]bool{}}
	m.nextID++
	for mid := range r.members {
		v.eligible[mid] = true
	}
	r.vote = v
	ends := time.Now().Add(m.cfg.VoteDuration).UnixMilli()
	dur := m.cfg.VoteDuration.Milliseconds()
	m.writeMsg(s, map[string]any{"type": "host_vote_started", "roomId": id, "voteId": v.id, "endsAt": ends,
		"durationMs": dur, "eligibleCount": len(v.eligible)})
	for _, o := range m.memberSessions(r) {
		if o != s {
			m.writeMsg(o, map[string]any{"type": "host_vote", "roomId": id, "voteId": v.id, "initiatorNick": mb.nick,
				"endsAt": ends, "durationMs": dur, "eligibleCount": len(v.eligible)})
		}
	}
	v.timer = time.AfterFunc(m.cfg.VoteDuration, func() {
		m.mu.Lock()
		defer m.mu.Unlock()
		m.finishVote(id, v)
	})
	m.maybeFinish(id, v)
}

func (m *Master) voteAnswer(s *sess, msg map[string]json.RawMessage) {
	id := str(msg, "roomId")
	mb := m.memberOf(s, id)
	if mb == nil || m.rooms[id].vote == nil || m.rooms[id].vote.id != str(msg, "voteId") {
		return
	}
	v := m.rooms[id].vote
	if !v.eligible[mb.id] {
		return
	}
	switch str(msg, "value") {
	case "yes":
		v.yes[mb.id], v.no[mb.id] = true, false
		delete(v.no, mb.id)
	case "no":
		v.no[mb.id] = true
		delete(v.yes, mb.id)
	default:
		return
	}
	m.writeMsg(s, map[string]any{"type": "host_vote_accepted", "roomId": id, "voteId": v.id})
	m.maybeFinish(id, v)
}

// maybeFinish ends a vote everyone answered.
func (m *Master) maybeFinish(room string, v *vote) {
	if len(v.yes)+len(v.no) >= len(v.eligible) {
		m.finishVote(room, v)
	}
}

// finishVote announces the result: a strict majority of the eligible,
// silence counting as no.
func (m *Master) finishVote(room string, v *vote) {
	r := m.rooms[room]
	if r == nil || r.vote != v {
		return
	}
	r.vote = nil
	v.timer.Stop()
	passed := 2*len(v.yes) > len(v.eligible)
	for _, s := range m.memberSessions(r) {
		m.writeMsg(s, map[string]any{"type": "host_vote_result", "roomId": room, "voteId": v.id, "passed": passed,
			"yes": len(v.yes), "no": len(v.eligible) - len(v.yes), "eligibleCount": len(v.eligible)})
	}
	if passed && m.cfg.OnVotePassed != nil {
		go m.cfg.OnVotePassed(room)
	}
}
