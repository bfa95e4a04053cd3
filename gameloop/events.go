package gameloop

import (
	"errors"
	"fmt"
	"time"

	"vimpclient/audio"
	"vimpclient/clientcore"
	"vimpclient/gamemap"
	"vimpclient/hud"
	"vimpclient/input"
	"vimpclient/parts"
	"vimpclient/protocol"
	"vimpclient/session"
	"vimpclient/snapschema"
	"vimpclient/world"
)

// handle applies one session event.
func (l *Loop) handle(ev *session.Event) {
	switch ev.Kind {
	case session.EventOpen:
		l.connectionOpened()
	case session.EventFrame:
		switch {
		case l.core == nil:
			l.undecodable("no usable snapshot schema in CONFIG_DATA")
		case !l.core.PushFrame(ev.Data, l.Ms(ev.At)):
			if len(ev.Data) > 0 && (ev.Data[0] == '{' || ev.Data[0] == '[') {
				l.undecodable("they are JSON text, not binary snapshot frames (format 5)")
			} else {
				l.undecodable(l.core.LastError().Error())
			}
		}
	case session.EventState:
		if ev.State == session.StatePlaying && l.playAt.IsZero() {
			l.playAt = ev.At
		}
	case session.EventClosed:
		l.close = ev.Close
		if ev.Close != nil && !ev.Close.Local {
			l.log.Warn("connection closed", "code", ev.Close.Code, "reason", ev.Close.Reason, "reconnect", ev.Close.Reconnect)
			if ev.Close.Code == protocol.CloseHostMigrating {
				// Not a lost connection: the room's host is being replaced.
				l.hud.HostChanging(ev.Close.Reason, l.nowMs)
			} else {
				l.hud.Disconnected(ev.Close.Reason)
			}
			l.closed(ev.Close)
		}
		if l.ctrl != nil {
			l.ctrl.SetEnabled(false, l.nowMs)
		}
	case session.EventRefused:
		l.refused(ev.Err)
	case session.EventRetry:
		l.retry(ev.Retry)
	case session.EventMessage:
		l.message(ev)
	case session.EventPlatform:
		l.platform(ev)
	}
}

// connectionOpened starts a new connection: nothing of the old one carries
// over but the loop's totals.
func (l *Loop) connectionOpened() {
	if l.opts.LogOnce != nil {
		l.opts.LogOnce.Reset()
	}
	l.retireCore()
	l.graph.Reset()
	t := l.currentTarget()
	old := l.hud
	l.hud = hud.New(t.Host, t.GameID, l.opts.Store)
	l.hud.AdoptPlatform(old, l.nowMs) // the platform's votes are not the old host's
	l.hud.HostListsRequested(true)
	l.applyDisplay(l.hud)
	l.ctrl = nil
	l.close = nil
	l.badFramesSaid = false
	l.refusedSaid = false
	l.rejoin, l.heldVote, l.autoVote, l.authSent = !l.opts.AutoTeam && l.team != "", nil, nil, nil
	l.world.Clear(nil, true)
	l.configAt = time.Time{}
	if l.opts.Sounds != nil {
		l.opts.Sounds.Reset()
		l.snd.reset()
	}
}

func (l *Loop) message(ev *session.Event) {
	if v, ok := ev.Value.(protocol.Vote); ok {
		if l.opts.AutoTeam && v.Open != nil && v.Open.Name == protocol.TeamVote {
			// The session answers it: nobody is asked, unless it refuses.
			l.autoVote = &v
			return
		}
		if !l.opts.AutoTeam && !l.teamVote(v) {
			return // answered with the team chosen earlier in the run
		}
	}
	if cfg, ok := ev.Value.(*protocol.Config); ok && len(cfg.Snapshot) > snapschema.MaxBytes {
		// Refused before the HUD, the core and the world each read it: a
		// host repeating a huge CONFIG_DATA must not cost a tick each.
		l.note(fmt.Sprintf("snapshot schema: %d bytes, the limit is %d", len(cfg.Snapshot), snapschema.MaxBytes))
		return
	}
	l.hud.Handle(ev.Value, l.nowMs)
	switch v := ev.Value.(type) {
	case *protocol.Config:
		if l.configAt.IsZero() {
			l.configAt = ev.At
			l.story.configured(l.opts.Start, ev.At)
		}
		l.configure(v)
	case *protocol.AuthForm:
		switch {
		case ev.Err == nil:
			l.hud.DismissAuth() // the session answered it from flags or memory
		case l.replayAuth(v):
		case !l.opts.Interactive:
			l.fatal = ev.Err
		}
	case protocol.AuthVerdict:
		if !v.OK && !l.opts.Interactive {
			l.fatal = errors.New("auth rejected")
		}
		if v.OK {
			l.authAnswered()
			l.loadSounds()
		}
	case protocol.Chat:
		l.teamChat(v)
	case *protocol.MapInfo:
		m, err := gamemap.Parse(v.Raw)
		if err != nil {
			l.log.Warn("map not read", "err", err)
			l.note(fmt.Sprintf("map: %v", err))
		}
		if l.core != nil {
			l.core.SetMap(m)
		}
		l.world.SetMap(m)
	case *protocol.FirstShot:
		if err := l.world.ApplyFirstShot(v.Game, v.Camera); err != nil {
			l.log.Debug("first shot not drawn", "err", err)
		}
	case protocol.Panel:
		if l.core != nil {
			for _, c := range v {
				l.core.SyncPanel(c.Key, c.Value, c.Set)
			}
		}
	case protocol.ClearScope:
		if l.core != nil {
			l.core.Reset()
		}
		l.world.Clear(v.Sets, v.Full)
		if v.Full && l.opts.Sounds != nil {
			l.opts.Sounds.Reset()
			l.snd.reset()
		}
	case protocol.Keyset:
		if l.core != nil {
			l.core.SetActive(v == 1)
		}
		if l.ctrl != nil {
			l.ctrl.SetModes(l.hud.Modes())
			l.ctrl.SetKeySet(int(v), l.nowMs)
		}
	case protocol.TechInform:
		if l.ctrl != nil {
			l.ctrl.SetEnabled(v.Hide, l.nowMs)
		}
	case protocol.Sound:
		if l.opts.Sounds != nil {
			l.opts.Sounds.PlaySystem(string(v))
		}
	}
}

// configure applies a CONFIG_DATA, each part of it parsed once and shared:
// the snapshot schema (core, game, parts), the canvases and parts (world),
// the keys (controller), the sound catalog (sound manager).
func (l *Loop) configure(cfg *protocol.Config) {
	l.retireCore()
	l.ctrl = nil
	l.haveKeys = false
	if len(cfg.Snapshot) == 0 {
		l.note("CONFIG_DATA has no snapshot schema")
		return
	}
	schema, err := clientcore.ParseSchema(cfg.Snapshot)
	if err != nil {
		l.note(fmt.Sprintf("snapshot schema: %v", err))
		return
	}
	l.core = clientcore.New(schema, clientcore.Options{Delay: cfg.Interpolation.Delay, MaxFrameAge: cfg.Interpolation.MaxFrameAge})
	if obs := l.opts.Observer; obs != nil {
		l.core.ObserveFrames(obs.Frame)
	}
	pc, err := parts.ParsePartsConfig(cfg.Parts)
	if err != nil {
		l.log.Warn("game parts", "err", err)
	}
	t := l.currentTarget()
	known, pg, ok := l.games.Pick(t.GameID, pc, l.world.Rand())
	switch {
	case !ok:
		l.log.Debug("game not known: drawn generically", "game", t.GameID)
	case l.opts.NoPrediction:
	default:
		if g, err := known.Client(schema, cfg.Prediction); err == nil {
			l.core.SetGame(g)
		} else {
			l.log.Debug("no prediction", "game", known.ID, "err", err)
		}
	}
	l.world.SetCore(l.core)
	specs, tune, pointer, err := world.ParseCanvasManager(cfg.CanvasManager)
	if err != nil {
		l.log.Warn("game config", "err", err)
	} else if err := l.world.Configure(&world.Config{Schema: schema, Canvases: specs, Camera: tune,
		PointerCanvas: pointer, Parts: pc}, pg); err != nil {
		l.log.Warn("game config", "err", err)
	}
	keys, problems := input.ConfigFrom(cfg)
	for _, p := range problems {
		l.log.Warn("key config", "problem", p)
	}
	l.keys, l.haveKeys = keys, true
	if err := l.input.Configure(keys); err != nil {
		l.fatal = err
	}
	if l.opts.Bindings != nil {
		var more []string
		keys, more = keys.WithBindings(l.opts.Bindings)
		for _, p := range more {
			l.log.Warn("key bindings", "problem", p)
		}
	}
	var look hud.GameLook
	if ok {
		look = known.Look
	}
	l.hud.SetGameLook(look, keys)
	l.ctrl = input.NewController(keys, l.hud, l.core, l.world.ScreenToWorld)
	l.ctrl.SetSender(l.sess)
	if l.opts.Sounds != nil {
		cat, warns, err := audio.ParseCatalog(pc.Sounds)
		for _, m := range warns {
			l.log.Warn("sound catalog", "problem", m)
		}
		if err != nil {
			l.log.Warn("sound catalog", "err", err)
		}
		l.catalog = cat
	}
}

// loadSounds starts loading the game's sounds in the background once the
// player is in: the handshake never waits for them.
func (l *Loop) loadSounds() {
	t := l.currentTarget()
	if l.opts.Sounds == nil || l.catalog == nil || l.opts.SoundFetcher == nil {
		return
	}
	f, err := l.opts.SoundFetcher(t)
	if err != nil {
		l.log.Warn("sounds not loaded", "err", err)
		return
	}
	if f == nil {
		return // nowhere to fetch them from (a host with no game manifest)
	}
	l.opts.Sounds.Init(l.opts.Context, l.catalog, f)
}

// checkRefused says once per connection that the host's frames went past
// the scene's limits: in the log, the summary's errors and a notice over
// the game that stays. The session stays up; what was refused is counted.
func (l *Loop) checkRefused() {
	r := l.world.Refused()
	if r.Rows == l.refusedRows {
		return
	}
	l.refusedRows = r.Rows
	if l.refusedSaid {
		return
	}
	l.refusedSaid = true
	msg := "entities from this host refused: " + r.Reason
	l.log.Warn(msg)
	l.note(msg)
	l.hud.Notice(msg, hud.NoticeError)
}

// undecodable counts a snapshot frame this client cannot read, and says why
// once per connection: in the log, the summary's errors and a notice over
// the game that stays.
func (l *Loop) undecodable(reason string) {
	l.badFrames++
	l.badFrameReason = reason
	if l.badFramesSaid {
		return
	}
	l.badFramesSaid = true
	msg := "frames from this host cannot be decoded: " + reason
	l.log.Warn(msg)
	l.note(msg)
	l.hud.Notice(msg, hud.NoticeError)
}
