package gameloop

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"vimpclient/hud"
	"vimpclient/protocol"
	"vimpclient/session"
)

// What the player is told, and what a run carries over its reconnects: the
// refusals (a team not offered or full, a full room) as notices over the
// game and errors in the summary, the reconnecting screen with its
// countdown, and the answers the player gave once (the team, the auth form)
// given again on every new connection of the run.

// Engine chat templates about the team (group "s"): s:0 team full (params
// the team asked for and the current one), s:1 your team, s:2 your new team.
const (
	chatTeamFull = 0
	chatYourTeam = 1
	chatNewTeam  = 2
)

// refused handles a session's EventRefused: what the run asked for is not
// offered on this connection. On screen the player then chooses: the team
// vote the session was to answer is shown (the host's list follows).
func (l *Loop) refused(err error) {
	if err == nil {
		return
	}
	msg := err.Error()
	if l.opts.Interactive && l.autoVote != nil {
		l.hud.Handle(*l.autoVote, l.nowMs)
		msg += ": choose a team"
	}
	l.autoVote = nil
	l.hud.Notice(msg, hud.NoticeWarning)
	l.unmet = err // the session keeps it among the summary's errors
}

// teamChat reads the engine's team templates: a full team is a refusal
// (notice and error), a confirmation of the team asked for ends one.
func (l *Loop) teamChat(c protocol.Chat) {
	if c.Kind != protocol.ChatTemplate || c.Group != "s" || len(c.Params) == 0 || c.Params[0] == "" {
		return
	}
	team, current := c.Params[0], ""
	if len(c.Params) > 1 {
		current = c.Params[1]
	}
	// Chosen on screen, the team to rejoin is the one the player is in.
	follows := !l.opts.AutoTeam && l.opts.Team == ""
	switch c.Index {
	case chatTeamFull:
		msg := "team " + team + " is full"
		if current != "" {
			msg += "; your team: " + current
		}
		l.hud.Notice(msg, hud.NoticeWarning)
		l.note("host refused: " + msg)
		if l.team == "" || l.team == team {
			l.unmet = errors.New(msg)
		}
		if follows && current != "" {
			l.team = current
		}
	case chatYourTeam, chatNewTeam:
		if l.team == team || l.team == "" {
			l.unmet = nil
		}
		if follows {
			l.team = team
		}
	}
}

// closed tells the player a host's refusal to keep the connection (a full
// room): a notice that stays, and an error in the summary.
func (l *Loop) closed(c *session.CloseInfo) {
	if c == nil || c.Local || c.Code != protocol.CloseRoomFull {
		return
	}
	msg := "the host refused the connection: " + c.Reason
	l.hud.Notice(msg, hud.NoticeError)
	l.note(msg)
}

// retry shows the reconnecting screen until the next connection opens.
func (l *Loop) retry(r *session.RetryInfo) {
	if r == nil {
		return
	}
	l.hud.Reconnecting(r.Reason, l.Ms(r.At), r.Attempt)
	if r.Failed != r.Reason {
		l.hud.ReconnectFailed(r.Failed)
	}
}

// teamVote decides what the loop does with a team vote the host opens when
// the session does not answer it: the first one of a connection, once the
// player chose a team in this run, waits for the host's list and is
// answered with that team; otherwise the HUD shows it. It reports whether
// the HUD is to see the message.
func (l *Loop) teamVote(v protocol.Vote) bool {
	switch {
	case v.Open != nil && v.Open.Name == protocol.TeamVote:
		if !l.rejoin || l.team == "" {
			return true
		}
		l.rejoin = false
		l.heldVote = &v
		return false
	case v.IsList && l.heldVote != nil:
		held := *l.heldVote
		l.heldVote = nil
		if slices.Contains(v.List, l.team) {
			if err := l.sess.VoteAnswer(protocol.TeamVote, l.team); err != nil {
				l.log.Warn("team not rejoined", "team", l.team, "err", err)
			} else {
				l.log.Info("rejoining team", "team", l.team)
				return false
			}
		} else {
			l.refused(fmt.Errorf("team %s is no longer offered (offered: %s): choose a team", l.team, strings.Join(v.List, ", ")))
		}
		// The player chooses after all: the HUD sees the vote it was held from.
		l.hud.Handle(held, l.nowMs)
		return true
	}
	return true
}

// sentHUD remembers the answers the player gave on screen, to give them
// again after a reconnect.
func (l *Loop) sentHUD(o hud.Out) {
	switch o.Kind {
	case hud.OutVoteAnswer:
		if o.Vote == protocol.TeamVote && o.Text != "" {
			l.team = o.Text
			l.unmet = nil
		}
	case hud.OutAuth:
		l.authSent = o.Values
	case hud.OutSettings:
		l.settingsAsked = true
	case hud.OutBrowser:
		l.browserAsked = true
	case hud.OutGiveUp:
		l.gaveUp = true
		if l.opts.OnGiveUp != nil {
			l.opts.OnGiveUp()
		}
	}
}

// authAnswered records that the host accepted the last answer the player
// submitted.
func (l *Loop) authAnswered() {
	if l.authSent != nil {
		l.authKept, l.authSent = l.authSent, nil
	}
}

// replayAuth answers a form the session could not answer with the values
// the player submitted and the host accepted earlier in this run, when they
// cover every field of it. It reports whether it answered.
func (l *Loop) replayAuth(f *protocol.AuthForm) bool {
	if l.authKept == nil || f == nil {
		return false
	}
	for _, p := range f.Params {
		if _, ok := l.authKept[p.Name]; !ok {
			return false
		}
	}
	if err := l.sess.SubmitAuth(l.authKept); err != nil {
		l.log.Warn("auth answer not given again", "err", err)
		return false
	}
	l.hud.DismissAuth()
	return true
}

// Unmet is what the run asked for and has not had: the team it asked for
// (-team, or the one the player chose) refused or full and not joined
// since; nil when there is nothing.
func (l *Loop) Unmet() error { return l.unmet }

// GaveUp reports whether the player gave up reconnecting.
func (l *Loop) GaveUp() bool { return l.gaveUp }
