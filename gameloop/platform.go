package gameloop

import (
	"time"

	"vimpclient/hud"
	"vimpclient/session"
)

// The lobby platform's events on screen: its notices, the host-change
// screen while a room's host is replaced, a closed room, and the engine
// votes ('@' names) the master runs between the players — shown with the
// client's own templates, queued against the host's votes, and answered
// through the session, which hands them to the master.

// platform applies one EventPlatform.
func (l *Loop) platform(ev *session.Event) {
	p := ev.Platform
	if p == nil {
		return
	}
	switch p.Kind {
	case session.PlatformNotice:
		l.hud.Notice(p.Text, hud.NoticeInfo)
	case session.PlatformHostChanging:
		l.rep.story.migrations++
		l.rep.story.hostDropped(ev.At)
		l.hud.HostChanging(p.Text, l.clock.now)
		if l.ctrl != nil {
			l.ctrl.SetEnabled(false, l.clock.now)
		}
	case session.PlatformHostChanged:
		l.rep.story.hostChanged(p.Epoch, p.Mode, ev.At)
		l.hud.HostChanged(l.clock.now)
	case session.PlatformHostStalled:
		l.hud.HostStalled(p.Text, l.clock.now)
	case session.PlatformHostResponding:
		l.hud.HostResponding()
	case session.PlatformHostLost:
		l.rep.story.hostLost(p.Silent)
		l.rep.note(p.Text)
	case session.PlatformRoomClosed:
		l.rep.roomClosed = p.Text
		l.hud.Notice(p.Text, hud.NoticeError)
		l.rep.note(p.Text)
	case session.PlatformVote:
		l.engineVote(ev)
	case session.PlatformVoteResult:
		if v := p.Vote; v != nil && v.Result != nil {
			r := v.Result
			l.hud.EngineEnded(v.Name, v.ID, hud.EngineResult{Passed: r.Passed, Cancelled: r.Cancelled, Yes: r.Yes,
				Eligible: r.Eligible}, l.clock.now)
		}
	}
}

// engineVote shows the platform's vote, or tells the player who started it
// (counted as yes) that it runs. Its time is taken from its length and its
// arrival here, not from the master's clock, which may differ from ours.
func (l *Loop) engineVote(ev *session.Event) {
	v := ev.Platform.Vote
	if v == nil || !session.IsEngineVote(v.Name) {
		return
	}
	if v.Mine {
		l.hud.EngineStarted(v.Name, l.clock.now)
		return
	}
	e := hud.EngineVote{Name: v.Name, ID: v.ID, Values: v.Values}
	if len(v.Params) > 0 {
		e.Starter = v.Params[0]
	}
	switch {
	case v.Duration > 0:
		e.Ends, e.Duration = l.clock.ms(ev.At)+ms(v.Duration), ms(v.Duration)
	case !v.Ends.IsZero():
		e.Ends = l.clock.ms(v.Ends)
	}
	l.hud.EngineVote(e, l.clock.now)
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
