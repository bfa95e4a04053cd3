package session

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"time"
	"vimpclient/protocol"
)

// The team vote the session answers by itself, and the replies it defers
// (a player glancing at the vote before answering).

// vote asks for the value list a vote names (as the browser does on
// opening it) and, with AutoTeam, answers the team vote.
func (s *Session) vote(c *conn, ob *outbox, v protocol.Vote) {
	if v.Open != nil {
		values := v.Open.Values
		if values == nil && c.config != nil {
			values = c.config.VoteTemplates[v.Open.Name].Values
		}
		if req := protocol.ListRequest(values); req != "" {
			if s.opts.AutoTeam && v.Open.Name == protocol.TeamVote {
				s.schedule(c, ob, deferred{due: s.now().Add(TeamListPause), msg: protocol.VoteRequestMsg(req), pending: v.Open.Name})
				return
			}
			s.mu.Lock()
			s.pendingList = v.Open.Name
			s.mu.Unlock()
			s.reply(ob, protocol.VoteRequestMsg(req), true)
		}
		return
	}
	if !v.IsList {
		return
	}
	s.mu.Lock()
	pending := s.pendingList
	s.pendingList = ""
	s.mu.Unlock()
	if pending != protocol.TeamVote || !s.opts.AutoTeam {
		return
	}
	if len(v.List) == 0 {
		s.refuse("team vote: the host offered no team")
		return
	}
	team := v.List[0]
	if s.opts.Team != "" {
		if !slices.Contains(v.List, s.opts.Team) {
			s.refuse(fmt.Sprintf("team %s is not offered (offered: %s)", s.opts.Team, strings.Join(v.List, ", ")))
			return
		}
		team = s.opts.Team
	}
	s.schedule(c, ob, deferred{due: s.now().Add(TeamAnswerPause), msg: protocol.VoteAnswerMsg(protocol.TeamVote, team)})
}

// refuse notes that what the run asked for cannot be had, and tells the
// game loop so the player sees it; the same refusal is said once a
// connection.
func (s *Session) refuse(msg string) {
	s.mu.Lock()
	said := s.refused[msg]
	if !said && len(s.refused) < maxErrors {
		if s.refused == nil {
			s.refused = map[string]bool{}
		}
		s.refused[msg] = true
	}
	s.mu.Unlock()
	if said {
		return // a host that asks again learns nothing new
	}
	s.noteError("%s", msg)
	s.queue.Push(Event{At: s.now(), Kind: EventRefused, Err: errors.New(msg)})
}

// schedule defers a reply until its due time (see deferred).
func (s *Session) schedule(c *conn, ob *outbox, d deferred) {
	d.sent = new(atomic.Bool)
	if !c.lockstep {
		wait := d.due.Sub(s.now())
		sent := d.sent
		d.timer = time.AfterFunc(wait, func() { s.sendDeferred(ob, d.msg, d.pending, sent) })
	}
	c.later = append(c.later, d)
}

func (s *Session) sendDeferred(ob *outbox, msg []byte, pending string, sent *atomic.Bool) {
	if !sent.CompareAndSwap(false, true) {
		return
	}
	if pending != "" {
		s.mu.Lock()
		s.pendingList = pending
		s.mu.Unlock()
	}
	s.reply(ob, msg, true)
}

func (c *conn) stopTimers() {
	for _, d := range c.later {
		if d.timer != nil {
			d.timer.Stop()
		}
	}
}

func (s *Session) flushDeferred(c *conn, ob *outbox, now time.Time) {
	for len(c.later) > 0 && (!now.Before(c.later[0].due) || c.later[0].sent.Load()) {
		d := c.later[0]
		c.later = c.later[1:]
		if d.timer != nil {
			d.timer.Stop()
		}
		s.sendDeferred(ob, d.msg, d.pending, d.sent)
	}
}
