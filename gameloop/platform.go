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
		l.story.migrations++
		l.story.hostDropped(ev.At)
		l.hud.HostChanging(p.Text, l.nowMs)
		if l.ctrl != nil {
			l.ctrl.SetEnabled(false, l.nowMs)
		}
	case session.PlatformHostChanged:
		l.story.hostChanged(p.Epoch, p.Mode, ev.At)
		l.hud.HostChanged(l.nowMs)
	case session.PlatformHostStalled:
		l.hud.HostStalled(p.Text, l.nowMs)
	case session.PlatformHostResponding:
		l.hud.HostResponding()
	case session.PlatformHostLost:
		l.story.hostLost(p.Silent)
		l.note(p.Text)
	case session.PlatformRoomClosed:
		l.roomClosed = p.Text
		l.hud.Notice(p.Text, hud.NoticeError)
		l.note(p.Text)
	case session.PlatformVote:
		l.engineVote(ev)
	case session.PlatformVoteResult:
		if v := p.Vote; v != nil && v.Result != nil {
			r := v.Result
			l.hud.EngineEnded(v.Name, v.ID, hud.EngineResult{Passed: r.Passed, Cancelled: r.Cancelled, Yes: r.Yes,
				Eligible: r.Eligible}, l.nowMs)
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
		l.hud.EngineStarted(v.Name, l.nowMs)
		return
	}
	e := hud.EngineVote{Name: v.Name, ID: v.ID, Values: v.Values}
	if len(v.Params) > 0 {
		e.Starter = v.Params[0]
	}
	switch {
	case v.Duration > 0:
		e.Ends, e.Duration = l.Ms(ev.At)+ms(v.Duration), ms(v.Duration)
	case !v.Ends.IsZero():
		e.Ends = l.Ms(v.Ends)
	}
	l.hud.EngineVote(e, l.nowMs)
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// RoomClosed is the reason the lobby room was closed ("" while it is open,
// or for a dedicated host): the run is over.
func (l *Loop) RoomClosed() string { return l.roomClosed }

// ConfigAt is when the current connection's CONFIG_DATA arrived (zero
// before it).
func (l *Loop) ConfigAt() time.Time { return l.configAt }

// SetBrowserEntry puts the client's entry leaving the match for the
// server list at the end of the M menu ("": none); choosing it makes
// BrowserAsked report true once.
func (l *Loop) SetBrowserEntry(label string) {
	l.browserEntry = label
	l.hud.BrowserEntry(label)
}

// BrowserAsked reports whether the player chose the server list in the
// menu since the last call.
func (l *Loop) BrowserAsked() bool {
	asked := l.browserAsked
	l.browserAsked = false
	return asked
}
