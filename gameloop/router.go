package gameloop

import (
	"fmt"
	"time"

	"vimpclient/protocol"
	"vimpclient/session"
	"vimpclient/snapschema"
)

// The router hands each session event to one of five small interfaces,
// grouped by what the event is about. The loop implements them all
// (handlers.go), each method passing its event to the concern that owns it.

// connection is told how the connection itself goes: its start, its
// resumption, play, its end and what the runner and the platform say.
type connection interface {
	opened()
	resumed()
	playing(at time.Time)
	closed(c *session.CloseInfo)
	refused(err error)
	retry(r *session.RetryInfo)
	platform(ev *session.Event)
}

// arrivals is told what arrives besides the JSON messages: the snapshot
// frames, and the PINGs (the session has answered them).
type arrivals interface {
	frame(data []byte, at time.Time)
	ping(at time.Time)
}

// gates see every message before the concern it is for.
type gates interface {
	// vote reports whether a vote goes on to the HUD (false: the session
	// answers it, or it is held for a rejoin).
	vote(v protocol.Vote) bool
	// refuse notes a message dropped before anyone read it.
	refuse(msg string)
	// overlays is the HUD, which sees every message that passed the gates,
	// before the concern it is for.
	overlays(m protocol.Message)
}

// handshake is told the messages that take a connection into play.
type handshake interface {
	config(cfg *protocol.Config, at time.Time)
	authForm(f *protocol.AuthForm, answer map[string]string, err error)
	verdict(v protocol.AuthVerdict)
	mapData(m *protocol.MapInfo)
	firstShot(f *protocol.FirstShot)
}

// inPlay is told the messages of the match in play.
type inPlay interface {
	chat(c protocol.Chat)
	panel(p protocol.Panel)
	clear(c protocol.ClearScope)
	keyset(k protocol.Keyset)
	tech(t protocol.TechInform)
	// inform is a GAME_INFORM (round start, victory, game over) and when
	// it arrived.
	inform(i protocol.Inform, at time.Time)
	sound(s protocol.Sound)
}

// router decides who sees each session event and in what order: the
// connection's events go to their handler; a message passes the gates
// (a team vote the run answers itself, a schema past its limit), then the
// HUD, then the one concern it is for. It keeps no state.
type router struct {
	conn      connection
	arrivals  arrivals
	gates     gates
	handshake handshake
	inPlay    inPlay
}

// routeTo is the router that hands every event to the loop.
func routeTo(l *Loop) router {
	return router{conn: l, arrivals: l, gates: l, handshake: l, inPlay: l}
}

// event routes one session event.
func (r router) event(ev *session.Event) {
	switch ev.Kind {
	case session.EventOpen:
		r.conn.opened()
	case session.EventResumed:
		r.conn.resumed()
	case session.EventFrame:
		r.arrivals.frame(ev.Data, ev.At)
	case session.EventState:
		if ev.State == session.StatePlaying {
			r.conn.playing(ev.At)
		}
	case session.EventClosed:
		r.conn.closed(ev.Close)
	case session.EventRefused:
		r.conn.refused(ev.Err)
	case session.EventRetry:
		r.conn.retry(ev.Retry)
	case session.EventPing:
		r.arrivals.ping(ev.At)
	case session.EventMessage:
		r.message(ev)
	case session.EventPlatform:
		if ev.Platform != nil {
			r.conn.platform(ev)
		}
	}
}

// message routes one host message through the gates and the HUD to the
// concern it is for.
func (r router) message(ev *session.Event) {
	switch m := ev.Msg.(type) {
	case protocol.Vote:
		if !r.gates.vote(m) {
			return
		}
	case *protocol.Config:
		if len(m.Snapshot) > snapschema.MaxBytes {
			// Refused before the HUD, the core and the world each read
			// it: a host repeating a huge CONFIG_DATA must not cost a
			// tick each.
			r.gates.refuse(fmt.Sprintf("snapshot schema: %d bytes, the limit is %d", len(m.Snapshot), snapschema.MaxBytes))
			return
		}
	}
	r.gates.overlays(ev.Msg)
	r.concern(ev)
}

// concern hands a message the HUD has seen to the concern it is for. The
// kinds with no case are the HUD's alone (a scoreboard, the accolades, a
// vote that passed its gate), nobody's (CONSOLE, MISC, which the session
// reads), or never queued by the session; the test that walks
// protocol.MessageKinds fails for a kind that is none of these.
func (r router) concern(ev *session.Event) {
	switch m := ev.Msg.(type) {
	case *protocol.Config:
		r.handshake.config(m, ev.At)
	case *protocol.AuthForm:
		r.handshake.authForm(m, ev.Answer, ev.Err)
	case protocol.AuthVerdict:
		r.handshake.verdict(m)
	case *protocol.MapInfo:
		r.handshake.mapData(m)
	case *protocol.FirstShot:
		r.handshake.firstShot(m)
	case protocol.Chat:
		r.inPlay.chat(m)
	case protocol.Panel:
		r.inPlay.panel(m)
	case protocol.ClearScope:
		r.inPlay.clear(m)
	case protocol.Keyset:
		r.inPlay.keyset(m)
	case protocol.TechInform:
		r.inPlay.tech(m)
	case protocol.Inform:
		r.inPlay.inform(m, ev.At)
	case protocol.Sound:
		r.inPlay.sound(m)
	}
}
