package gameloop

import (
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"

	"vimpclient/hud"
	"vimpclient/protocol"
	"vimpclient/session"
)

// Engine chat templates about the team (group "s"): s:0 team full (params
// the team asked for and the current one), s:1 your team, s:2 your new team.
const (
	chatTeamFull = 0
	chatYourTeam = 1
	chatNewTeam  = 2
)

// feedback is what the player is told about the connection, and what a run
// carries over its reconnects: the refusals (a team not offered or full, a
// full room) as notices over the game and errors in the summary, the
// reconnecting screen with its countdown, and the answers the player gave
// once (the team, the auth form) given again on every new connection of the
// run. Each call is handed the HUD of the connection it is about.
type feedback struct {
	sess *session.Session
	log  *slog.Logger
	note func(msg string) // the summary's errors
	// interactive: a player answers on screen; autoTeam: the session
	// answers the team vote; asked: the team the run asked for (-team).
	interactive bool
	autoTeam    bool
	asked       string
	onGiveUp    func()

	team     string         // the team asked for, or chosen on screen
	unmet    error          // the team refused or full, not joined since
	rejoin   bool           // the connection's first team vote is answered with team
	heldVote *protocol.Vote // that vote, held from the HUD until the host lists the teams
	autoVote *protocol.Vote // the team vote the session answers, shown if it refuses
	authSent map[string]string
	authKept map[string]string // the player's answer the host accepted
	gaveUp   bool
}

func newFeedback(o *Options, note func(string)) feedback {
	return feedback{sess: o.Session, log: o.Log, note: note, interactive: o.Interactive, autoTeam: o.AutoTeam,
		asked: o.Team, team: o.Team, onGiveUp: o.OnGiveUp}
}

// opened starts a new connection: its first team vote is answered with the
// team of the run, if there is one to rejoin.
func (f *feedback) opened() {
	f.rejoin, f.heldVote, f.autoVote, f.authSent = !f.autoTeam && f.team != "", nil, nil, nil
}

// refused handles a session's EventRefused: what the run asked for is not
// offered on this connection. On screen the player then chooses: the team
// vote the session was to answer is shown (the host's list follows).
func (f *feedback) refused(h *hud.HUD, err error, now float64) {
	if err == nil {
		return
	}
	msg := err.Error()
	if f.interactive && f.autoVote != nil {
		h.Handle(*f.autoVote, now)
		msg += ": choose a team"
	}
	f.autoVote = nil
	h.Notice(msg, hud.NoticeWarning)
	f.unmet = err // the session keeps it among the summary's errors
}

// teamChat reads the engine's team templates: a full team is a refusal
// (notice and error), a confirmation of the team asked for ends one.
func (f *feedback) teamChat(h *hud.HUD, c protocol.Chat) {
	if c.Kind != protocol.ChatTemplate || c.Group != "s" || len(c.Params) == 0 || c.Params[0] == "" {
		return
	}
	team, current := c.Params[0], ""
	if len(c.Params) > 1 {
		current = c.Params[1]
	}
	// Chosen on screen, the team to rejoin is the one the player is in.
	follows := !f.autoTeam && f.asked == ""
	switch c.Index {
	case chatTeamFull:
		msg := "team " + team + " is full"
		if current != "" {
			msg += "; your team: " + current
		}
		h.Notice(msg, hud.NoticeWarning)
		f.note("host refused: " + msg)
		if f.team == "" || f.team == team {
			f.unmet = errors.New(msg)
		}
		if follows && current != "" {
			f.team = current
		}
	case chatYourTeam, chatNewTeam:
		if f.team == team || f.team == "" {
			f.unmet = nil
		}
		if follows {
			f.team = team
		}
	}
}

// closed tells the player a host's refusal to keep the connection (a full
// room): a notice that stays, and an error in the summary.
func (f *feedback) closed(h *hud.HUD, c *session.CloseInfo) {
	if c == nil || c.Local || c.Code != protocol.CloseRoomFull {
		return
	}
	msg := "the host refused the connection: " + c.Reason
	h.Notice(msg, hud.NoticeError)
	f.note(msg)
}

// retry shows the reconnecting screen until the next connection opens; at
// is when the next attempt starts, on the loop's clock.
func (f *feedback) retry(h *hud.HUD, r *session.RetryInfo, at float64) {
	if r == nil {
		return
	}
	h.Reconnecting(r.Reason, at, r.Attempt)
	if r.Failed != r.Reason {
		h.ReconnectFailed(r.Failed)
	}
}

// vote decides what becomes of a vote the host opens or lists before the
// HUD sees it. With autoTeam the session answers the team vote: nobody is
// asked, unless it refuses. Otherwise the first team vote of a connection,
// once the player chose a team in this run, waits for the host's list and
// is answered with that team. It reports whether the HUD is to see v.
func (f *feedback) vote(h *hud.HUD, v protocol.Vote, now float64) bool {
	if f.autoTeam {
		if v.Open != nil && v.Open.Name == protocol.TeamVote {
			f.autoVote = &v
			return false
		}
		return true
	}
	switch {
	case v.Open != nil && v.Open.Name == protocol.TeamVote:
		if !f.rejoin || f.team == "" {
			return true
		}
		f.rejoin = false
		f.heldVote = &v
		return false
	case v.IsList && f.heldVote != nil:
		held := *f.heldVote
		f.heldVote = nil
		if f.rejoinWith(h, v.List, now) {
			return false
		}
		// The player chooses after all: the HUD sees the vote it was held from.
		h.Handle(held, now)
	}
	return true
}

// rejoinWith answers the held team vote with the run's team when the host
// offers it, and reports whether it did; a team no longer offered is a
// refusal.
func (f *feedback) rejoinWith(h *hud.HUD, offered []string, now float64) bool {
	if !slices.Contains(offered, f.team) {
		f.refused(h, fmt.Errorf("team %s is no longer offered (offered: %s): choose a team", f.team, strings.Join(offered, ", ")), now)
		return false
	}
	if err := f.sess.VoteAnswer(protocol.TeamVote, f.team); err != nil {
		f.log.Warn("team not rejoined", "team", f.team, "err", err)
		return false
	}
	f.log.Info("rejoining team", "team", f.team)
	return true
}

// sent remembers the answers the player gave on screen, to give them again
// after a reconnect.
func (f *feedback) sent(o hud.Out) {
	switch o.Kind {
	case hud.OutVoteAnswer:
		if o.Vote == protocol.TeamVote && o.Text != "" {
			f.team = o.Text
			f.unmet = nil
		}
	case hud.OutAuth:
		f.authSent = o.Values
	case hud.OutGiveUp:
		f.gaveUp = true
		if f.onGiveUp != nil {
			f.onGiveUp()
		}
	}
}

// authForm handles the host's auth form: the session answered it from
// flags or memory with answer (err nil), or the answer the host accepted
// earlier in the run covers it, or the player answers on screen. It returns
// what makes the run unplayable: a form nobody is there to answer.
func (f *feedback) authForm(h *hud.HUD, form *protocol.AuthForm, answer map[string]string, err error) (fatal error) {
	switch {
	case err == nil:
		h.DismissAuth(answer)
	case f.replayAuth(h, form):
	case !f.interactive:
		return err
	}
	return nil
}

// verdict follows the host's answer to the auth form; a rejection nobody
// can answer again is fatal. It reports whether the player is in.
func (f *feedback) verdict(v protocol.AuthVerdict) (in bool, fatal error) {
	if !v.OK {
		if !f.interactive {
			return false, errors.New("auth rejected")
		}
		return false, nil
	}
	if f.authSent != nil {
		f.authKept, f.authSent = f.authSent, nil
	}
	return true, nil
}

// replayAuth answers a form the session could not answer with the values
// the player submitted and the host accepted earlier in this run, when they
// cover every field of it. It reports whether it answered.
func (f *feedback) replayAuth(h *hud.HUD, form *protocol.AuthForm) bool {
	if f.authKept == nil || form == nil {
		return false
	}
	for _, p := range form.Params {
		if _, ok := f.authKept[p.Name]; !ok {
			return false
		}
	}
	if err := f.sess.SubmitAuth(f.authKept); err != nil {
		f.log.Warn("auth answer not given again", "err", err)
		return false
	}
	h.DismissAuth(f.authKept)
	return true
}

// Unmet is what the run asked for and has not had: the team it asked for
// (-team, or the one the player chose) refused or full and not joined
// since; nil when there is nothing.
func (l *Loop) Unmet() error { return l.fb.unmet }

// GaveUp reports whether the player gave up reconnecting.
func (l *Loop) GaveUp() bool { return l.fb.gaveUp }
