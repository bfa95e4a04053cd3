package gameloop

import (
	"fmt"
	"strconv"
	"time"

	"vimpclient/gamemap"
	"vimpclient/hud"
	"vimpclient/protocol"
	"vimpclient/session"
)

// The loop's handlers of the router's events: each passes its event to the
// concern that owns it (feedback, display, report, the core, the world,
// the controller, the sounds).

// opened starts a new connection: nothing of the old one carries over but
// the run's totals, its settings and the answers it gives again.
func (l *Loop) opened() {
	if l.opts.LogOnce != nil {
		l.opts.LogOnce.Reset()
	}
	l.retireCore()
	l.graph.Reset()
	l.rtt.newConnection()
	t := l.currentTarget()
	old := l.hud
	l.hud = hud.New(t.Host, t.GameID, l.opts.Store)
	l.hud.AdoptPlatform(old, l.clock.now) // the platform's votes are not the old host's
	l.hud.HostListsRequested(true)
	l.disp.apply(l.hud)
	l.ctrl = nil
	l.rep.opened()
	l.fb.opened()
	l.world.Clear(nil, true)
	l.snd.reset()
}

// resumed goes on with the match after the host gave the seat back: the
// core, the world and the HUD stay; the host sends the key set, scoreboard,
// panel and frames, and input comes back with its TECH_INFORM.
func (l *Loop) resumed() {
	l.log.Info("seat resumed: the match goes on")
	l.hud.Resumed()
	l.rep.close = nil
}

func (l *Loop) frame(data []byte, at time.Time) {
	switch {
	case l.core == nil:
		l.undecodable("no usable snapshot schema in CONFIG_DATA")
	case !l.core.PushFrame(data, l.clock.ms(at)):
		if len(data) > 0 && (data[0] == '{' || data[0] == '[') {
			l.undecodable("they are JSON text, not binary snapshot frames (format 5)")
		} else {
			l.undecodable(l.core.LastError().Error())
		}
	}
}

func (l *Loop) playing(at time.Time) { l.rep.playing(at) }

func (l *Loop) closed(c *session.CloseInfo) {
	l.rep.close = c
	if c != nil && !c.Local {
		l.log.Warn("connection closed", "code", c.Code, "reason", c.Reason, "reconnect", c.Reconnect)
		if c.Code == protocol.CloseHostMigrating {
			// Not a lost connection: the room's host is being replaced.
			l.hud.HostChanging(c.Reason, l.clock.now)
		} else {
			l.hud.Disconnected(c.Reason)
		}
		l.fb.closed(l.hud, c)
	}
	if l.ctrl != nil {
		l.ctrl.SetEnabled(false, l.clock.now)
	}
}

func (l *Loop) refused(err error) { l.fb.refused(l.hud, err, l.clock.now) }

func (l *Loop) retry(r *session.RetryInfo) {
	if r != nil {
		l.fb.retry(l.hud, r, l.clock.ms(r.At))
	}
}

func (l *Loop) vote(v protocol.Vote) bool { return l.fb.vote(l.hud, v, l.clock.now) }
func (l *Loop) refuse(msg string)         { l.rep.note(msg) }
func (l *Loop) overlays(m protocol.Message) {
	switch m.(type) {
	case *protocol.Stat:
		l.statSeen = true
	case *protocol.Accolades:
		l.accoladesSeen = true
	}
	l.hud.Handle(m, l.clock.now)
	if st, ok := m.(*protocol.Stat); ok {
		l.ownRoundTrip(st)
	}
}

// ping notes a PING's arrival for the jitter.
func (l *Loop) ping(at time.Time) {
	l.rtt.ping(at)
	if l.rtt.hasJit {
		l.graph.SetJitter(l.rtt.jitter)
	}
}

// ownRoundTrip marks the player's own scoreboard row and takes the round
// trip the host measured for this player from it, once per PING: the host
// times its PING and this client's PONG and re-sends the row when the
// figure changes.
func (l *Loop) ownRoundTrip(st *protocol.Stat) {
	if l.core == nil || l.hud.Stat == nil {
		return
	}
	my, ok := l.core.MyGameID()
	if !ok {
		return
	}
	id := strconv.Itoa(int(my))
	l.hud.Stat.Own = id
	if !l.rtt.fresh {
		return
	}
	cell, ok := ownLatency(st, l.hud.Stat.Columns, id)
	if !ok {
		return
	}
	if v, ok := l.rtt.report(cell); ok {
		l.graph.Pong(v)
	}
}

func (l *Loop) config(cfg *protocol.Config, at time.Time) {
	l.rep.configured(l.clock.start, at)
	l.configure(cfg)
}

func (l *Loop) authForm(f *protocol.AuthForm, answer map[string]string, err error) {
	if fatal := l.fb.authForm(l.hud, f, answer, err); fatal != nil {
		l.fatal = fatal
	}
}

func (l *Loop) verdict(v protocol.AuthVerdict) {
	in, fatal := l.fb.verdict(v)
	if fatal != nil {
		l.fatal = fatal
	}
	if in {
		l.snd.load(l.currentTarget())
	}
}

func (l *Loop) chat(c protocol.Chat) { l.fb.teamChat(l.hud, c) }

func (l *Loop) mapData(v *protocol.MapInfo) {
	m, err := gamemap.Parse(v.Raw)
	if err != nil {
		l.log.Warn("map not read", "err", err)
		l.rep.note(fmt.Sprintf("map: %v", err))
	}
	if l.core != nil {
		l.core.SetMap(m)
	}
	l.world.SetMap(m)
	l.rep.rounds.cut() // a new map: the round that ran is not seen to end
}

func (l *Loop) firstShot(f *protocol.FirstShot) {
	if err := l.world.ApplyFirstShot(f.Game, f.Camera); err != nil {
		l.log.Debug("first shot not drawn", "err", err)
	}
}

func (l *Loop) panel(p protocol.Panel) {
	for _, c := range p {
		if c.Key == "t" && c.Set {
			// The engine's round clock: how the rounds tell a round that
			// ran out of time from one the host restarted.
			if secs, err := strconv.Atoi(c.Value); err == nil {
				l.rep.rounds.timeLeft(secs)
			}
		}
		if l.core != nil {
			l.core.SyncPanel(c.Key, c.Value, c.Set)
		}
	}
}

func (l *Loop) clear(c protocol.ClearScope) {
	if l.core != nil {
		l.core.Reset()
	}
	l.world.Clear(c.Sets, c.Full)
	if c.Full {
		l.snd.reset()
	}
}

func (l *Loop) keyset(k protocol.Keyset) {
	if l.core != nil {
		l.core.SetActive(k == playerKeySet)
	}
	if l.ctrl != nil {
		l.ctrl.SetModes(l.hud.Modes())
		l.ctrl.SetKeySet(int(k), l.clock.now)
	}
}

func (l *Loop) tech(t protocol.TechInform) {
	if l.ctrl != nil {
		l.ctrl.SetEnabled(t.Hide, l.clock.now)
	}
}

func (l *Loop) sound(s protocol.Sound) { l.snd.system(string(s)) }

// inform counts the round the host announces for the summary.
func (l *Loop) inform(i protocol.Inform, at time.Time) { l.rep.rounds.inform(i.Code, at) }

// undecodable counts a snapshot frame this client cannot read, and says
// why once per connection.
func (l *Loop) undecodable(reason string) {
	if msg := l.rep.undecodable(reason); msg != "" {
		l.say(msg)
	}
}

// checkRefused says once per connection that the host's frames went past
// the scene's limits. The session stays up; what was refused is counted.
func (l *Loop) checkRefused() {
	if msg := l.rep.refused(l.world.Refused()); msg != "" {
		l.say(msg)
	}
}

// say tells of a problem with the host that stays: in the log, the
// summary's errors and a notice over the game.
func (l *Loop) say(msg string) {
	l.log.Warn(msg)
	l.rep.note(msg)
	l.hud.Notice(msg, hud.NoticeError)
}
