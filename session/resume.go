package session

import (
	"bytes"
	"encoding/json"
	"time"

	"vimpclient/protocol"
)

// Session resume in lobby rooms. A host that holds seats gives the player a
// key (SESSION_DATA) once it is in the game. When the connection is lost,
// the next offer to the same room asks for resume and the connection opens
// with RESUME_REQUEST: the host gives the seat back (same participant, team
// and score, no auth, no map when it did not change) or refuses, and then
// the client joins afresh at once, saying why. A host that never sent a key
// is never asked.

// ResumeWindow is how long after a lost connection the seat is asked back
// (the host holds it a little longer, 20 s).
const ResumeWindow = 15 * time.Second

// Waits before a resume attempt: short, doubling while attempts fail, well
// inside the window.
const (
	ResumeDelay    = 500 * time.Millisecond
	MaxResumeDelay = 4 * time.Second
)

// seat is the key of the lobby room last played and what the connection
// that got it knew, which a resumed connection goes on with.
type seat struct {
	room   string
	key    string
	gameID json.RawMessage
	config *protocol.Config
	form   *protocol.AuthForm
	answer map[string]string
	lostAt time.Time // when its connection ended; zero while it is up
}

// Resumer is what a transport opened for a resume tells the session: its
// offer asked the host for the held seat, so the first message must be
// RESUME_REQUEST.
type Resumer interface {
	Resuming() bool
}

// ResumeSeat reports whether a seat in room may be asked back: a key from
// that room's host, and its connection lost less than ResumeWindow ago (or
// still up). A seat past the window is forgotten. The lobby dialer asks it
// before each offer.
func (s *Session) ResumeSeat(room string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.seat
	if st == nil || room == "" || st.room != room {
		return false
	}
	if !st.lostAt.IsZero() && s.now().Sub(st.lostAt) >= ResumeWindow {
		s.seat = nil
		return false
	}
	return true
}

// ForgetSeat drops the held key: the room's match started over (a cold
// change of host), there is nothing to resume.
func (s *Session) ForgetSeat() {
	s.mu.Lock()
	s.seat = nil
	s.mu.Unlock()
}

// holdsSeat reports whether the next attempt will ask for a seat back.
func (s *Session) holdsSeat() bool {
	s.mu.Lock()
	st := s.seat
	s.mu.Unlock()
	return st != nil && s.ResumeSeat(st.room)
}

// ResumeBackoff is the wait before the n-th resume attempt (n from 1).
func ResumeBackoff(n int) time.Duration {
	d := ResumeDelay
	for i := 1; i < n && d < MaxResumeDelay; i++ {
		d *= 2
	}
	return min(d, MaxResumeDelay)
}

// startResume is a connection's start when its transport asked for the
// seat: RESUME_REQUEST goes before anything else, and the connection goes
// on with what the last one knew. False when there is no seat to ask for.
func (s *Session) startResume(c *conn, ob *outbox, t Transport) bool {
	r, ok := t.(Resumer)
	if !ok || !r.Resuming() {
		return false
	}
	s.mu.Lock()
	st := s.seat
	s.mu.Unlock()
	if st == nil || st.room != c.target.Room {
		return false
	}
	token, err := c.target.RoomToken()
	if err != nil {
		s.noteError("resume: %v", err)
		return false
	}
	msg, err := protocol.ResumeRequestMsg(st.gameID, st.key, token)
	if err != nil {
		s.noteError("%v", err)
		return false
	}
	c.resuming = true
	c.config, c.form, c.answer = st.config, st.form, st.answer
	s.reply(ob, msg, true)
	return true
}

// sessionData keeps a lobby room host's seat key; any other host's is
// ignored.
func (s *Session) sessionData(c *conn, v protocol.SessionInfo) {
	if !c.target.Lobby || c.target.Room == "" {
		s.count(func(st *Stats) { st.Unknown++ })
		return
	}
	s.Redact(v.Key)
	s.mu.Lock()
	s.seat = &seat{room: c.target.Room, key: v.Key, gameID: v.GameID, config: c.config, form: c.form, answer: c.answer}
	s.leaveOK = true
	s.mu.Unlock()
}

// resumeResult ends the wait for RESUME_RESULT: the match goes on where it
// was, or the seat is gone and the connection ends for a fresh join.
func (s *Session) resumeResult(c *conn, v protocol.ResumeAnswer) {
	if !c.resuming {
		s.count(func(st *Stats) { st.Unknown++ })
		return
	}
	c.resuming = false
	if v.OK {
		s.mu.Lock()
		if s.seat != nil {
			s.seat.lostAt = time.Time{}
		}
		s.inGame, s.leaveOK = true, true
		s.stats.Resumes++
		s.mu.Unlock()
		c.answered = true
		s.log.Info("seat resumed", "room", c.target.Room)
		s.queue.Push(Event{At: s.now(), Kind: EventResumed})
		s.setState(c, StatePlaying)
		return
	}
	s.mu.Lock()
	s.seat = nil
	s.stats.ResumesRefused++
	s.mu.Unlock()
	c.rejoin = "Could not take the seat back: " + protocol.ResumeWords(v.Reason) + ". Joining the room as a new player."
	s.log.Info("resume refused", "room", c.target.Room, "reason", v.Reason)
}

// freshInstead turns a resume the host ignored (it began a fresh handshake
// with CONFIG_DATA) into a fresh join on the same connection.
func (s *Session) freshInstead(c *conn) {
	c.resuming = false
	c.config, c.form, c.answer = nil, nil, nil
	s.mu.Lock()
	s.seat = nil
	s.mu.Unlock()
	s.queue.Push(Event{At: s.now(), Kind: EventOpen})
	s.sayRejoin("The host did not resume the seat. Joining the room as a new player.")
}

// sayRejoin tells the player, through the platform notices, why the seat
// was not taken back.
func (s *Session) sayRejoin(why string) {
	s.queue.Push(Event{At: s.now(), Kind: EventPlatform, Platform: &PlatformEvent{Kind: PlatformNotice, Text: why}})
}

// keepsSeat reports whether a close leaves the seat worth asking back: a
// lost connection or a host change, not a kick, a policy close or a stop.
func keepsSeat(info *CloseInfo) bool {
	if info == nil || info.Local || info.Rejoin {
		return false
	}
	switch info.Code {
	case protocol.CloseAbnormal, protocol.CloseHostMigrating, protocol.CloseHostLost:
		return true
	}
	return false
}

// sendLeave tells a host that reads LEAVE that the player leaves on
// purpose, so that it frees the seat at once, and waits (bounded) for the
// message to go out before the connection is closed.
func (s *Session) sendLeave(ob *outbox, t Transport) {
	s.mu.Lock()
	ok := s.leaveOK
	s.seat = nil
	s.mu.Unlock()
	if !ok {
		return
	}
	if err := ob.push(outMsg{data: protocol.Null(protocol.Leave), reliable: true}, true); err != nil {
		return
	}
	idle := make(chan struct{})
	go func() {
		ob.waitIdle()
		close(idle)
	}()
	select {
	case <-idle:
	case <-time.After(leaveGrace):
		return
	}
	if f, ok := t.(interface{ Flush() }); ok {
		f.Flush()
	}
}

// leaveGrace bounds the wait for LEAVE to be written.
const leaveGrace = time.Second

// redactSeatKey keeps a SESSION_DATA key out of recordings and kept
// errors: it is registered as a secret before the message is recorded.
func (s *Session) redactSeatKey(m Message) {
	if m.Binary || !bytes.HasPrefix(m.Data, []byte("[19,")) {
		return
	}
	env, err := protocol.ParseEnvelope(m.Data)
	if err != nil || env.Port != protocol.SessionData {
		return
	}
	if v, err := protocol.ParseSessionData(env.Payload); err == nil {
		s.Redact(v.Key)
	}
}
