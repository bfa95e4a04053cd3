package gameloop

import (
	"fmt"
	"time"

	"vimpclient/protocol"
	"vimpclient/session"
	"vimpclient/snapschema"
)

// handlers are what the router hands session events to, one method for
// each thing an event can be. The loop implements them (handlers.go), each
// by passing the event to the concern that owns it.
type handlers interface {
	opened()
	resumed()
	frame(data []byte, at time.Time)
	playing(at time.Time)
	closed(c *session.CloseInfo)
	refused(err error)
	retry(r *session.RetryInfo)
	platform(ev *session.Event)
	ping(at time.Time)

	// vote reports whether a vote goes on to the HUD (false: the session
	// answers it, or it is held for a rejoin).
	vote(v protocol.Vote) bool
	// refuse notes a message dropped before anyone read it.
	refuse(msg string)
	// overlays is the HUD, which sees every message that passed the gates,
	// before the concern it is for.
	overlays(v any)

	config(cfg *protocol.Config, at time.Time)
	authForm(f *protocol.AuthForm, answer map[string]string, err error)
	verdict(v protocol.AuthVerdict)
	chat(c protocol.Chat)
	mapData(m *protocol.MapInfo)
	firstShot(f *protocol.FirstShot)
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
type router struct{ to handlers }

// event routes one session event.
func (r router) event(ev *session.Event) {
	switch ev.Kind {
	case session.EventOpen:
		r.to.opened()
	case session.EventResumed:
		r.to.resumed()
	case session.EventFrame:
		r.to.frame(ev.Data, ev.At)
	case session.EventState:
		if ev.State == session.StatePlaying {
			r.to.playing(ev.At)
		}
	case session.EventClosed:
		r.to.closed(ev.Close)
	case session.EventRefused:
		r.to.refused(ev.Err)
	case session.EventRetry:
		r.to.retry(ev.Retry)
	case session.EventPing:
		r.to.ping(ev.At)
	case session.EventMessage:
		r.message(ev)
	case session.EventPlatform:
		if ev.Platform != nil {
			r.to.platform(ev)
		}
	}
}

// message routes one host message through the gates and the HUD to the
// concern it is for.
func (r router) message(ev *session.Event) {
	if v, ok := ev.Value.(protocol.Vote); ok && !r.to.vote(v) {
		return
	}
	if cfg, ok := ev.Value.(*protocol.Config); ok && len(cfg.Snapshot) > snapschema.MaxBytes {
		// Refused before the HUD, the core and the world each read it: a
		// host repeating a huge CONFIG_DATA must not cost a tick each.
		r.to.refuse(fmt.Sprintf("snapshot schema: %d bytes, the limit is %d", len(cfg.Snapshot), snapschema.MaxBytes))
		return
	}
	r.to.overlays(ev.Value)
	r.game(ev)
}

// game hands a message the HUD has seen to the concern it is for.
func (r router) game(ev *session.Event) {
	switch v := ev.Value.(type) {
	case *protocol.Config:
		r.to.config(v, ev.At)
	case *protocol.AuthForm:
		r.to.authForm(v, ev.Answer, ev.Err)
	case protocol.AuthVerdict:
		r.to.verdict(v)
	case protocol.Chat:
		r.to.chat(v)
	case *protocol.MapInfo:
		r.to.mapData(v)
	case *protocol.FirstShot:
		r.to.firstShot(v)
	case protocol.Panel:
		r.to.panel(v)
	case protocol.ClearScope:
		r.to.clear(v)
	case protocol.Keyset:
		r.to.keyset(v)
	case protocol.TechInform:
		r.to.tech(v)
	case protocol.Inform:
		r.to.inform(v, ev.At)
	case protocol.Sound:
		r.to.sound(v)
	}
}
