package gameloop

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"vimpclient/clientcore"
	"vimpclient/hud"
	"vimpclient/input"
	"vimpclient/parts"
	"vimpclient/protocol"
	"vimpclient/world"
)

// configure applies a CONFIG_DATA, each part of it parsed once and shared:
// the snapshot schema (core, game, parts), the canvases and parts (world),
// the keys (controller), the sound catalog (sound manager).
func (l *Loop) configure(cfg *protocol.Config) {
	l.retireCore()
	l.ctrl = nil
	l.disp.haveKeys = false
	if len(cfg.Snapshot) == 0 {
		l.rep.note("CONFIG_DATA has no snapshot schema")
		return
	}
	schema, err := clientcore.ParseSchema(cfg.Snapshot)
	if err != nil {
		l.rep.note(fmt.Sprintf("snapshot schema: %v", err))
		return
	}
	l.core = clientcore.New(schema, clientcore.Options{Delay: cfg.Interpolation.Delay, MaxFrameAge: cfg.Interpolation.MaxFrameAge,
		Adaptive: !l.opts.FixedInterp, WatchJumps: l.opts.Observer != nil})
	if obs := l.opts.Observer; obs != nil {
		l.core.ObserveFrames(obs.Frame)
	}
	if l.leaving {
		l.core.HoldFigures()
	}
	pc, err := parts.ParsePartsConfig(cfg.Parts)
	if err != nil {
		l.log.Warn("game parts", "err", err)
	}
	look, pg := l.pickGame(schema, cfg, pc)
	l.world.SetCore(l.core)
	specs, tune, pointer, err := world.ParseCanvasManager(cfg.CanvasManager)
	if err != nil {
		l.log.Warn("game config", "err", err)
	} else if err := l.world.Configure(&world.Config{Schema: schema, Canvases: specs, Camera: tune,
		PointerCanvas: pointer, Parts: pc}, pg); err != nil {
		l.log.Warn("game config", "err", err)
	}
	keys := l.configureKeys(cfg)
	l.hud.SetGameLook(look, keys)
	l.hud.SetAbout(aboutLine(l.gameSummary()))
	l.lat.forget()
	l.ctrl = input.NewController(keys, l.hud, keyCounter{l.core, &l.lat}, l.world.ScreenToWorld)
	l.ctrl.SetSender(l.sess)
	l.ctrl.SetTurret(l.turret)
	l.ctrl.SetMouseAim(!l.noMouseAim, 0)
	l.snd.configure(pc.Sounds)
}

// turret is the controller's view of the own gun: the core's, as the input
// layer reads it.
func (l *Loop) turret() (input.Turret, bool) {
	t, ok := l.core.Turret()
	if !ok {
		return input.Turret{}, false
	}
	return input.Turret{X: t.X, Y: t.Y, Hull: t.Hull, Gun: t.Gun, MaxGun: t.MaxGun, Speed: t.Speed,
		Left: t.Left, Right: t.Right, Fire: t.Fire, Bomb: t.Bomb}, true
}

// keyCounter is the controller's predictor: the core, with every key
// message counted for the latency measure on its way.
type keyCounter struct {
	*clientcore.Core
	lat *latency
}

func (k keyCounter) ApplyInput(seq uint32, down bool, name string, nowMs float64) {
	k.lat.keyChange(down)
	k.Core.ApplyInput(seq, down, name, nowMs)
}

// pickGame finds the game of the connection's target among the known ones:
// its look for the HUD, its parts for the world, and its client half for
// the core's prediction (none for a demo). An unknown game is drawn by the
// generic renderer.
func (l *Loop) pickGame(schema *clientcore.Schema, cfg *protocol.Config, pc parts.PartsConfig) (hud.GameLook, *parts.Game) {
	t := l.currentTarget()
	known, pg, ok := l.opts.Games.Pick(t.GameID, pc, l.world.Rand())
	switch {
	case !ok:
		l.log.Debug("game not known: drawn generically", "game", t.GameID)
		return hud.GameLook{}, pg
	case l.opts.NoPrediction:
	default:
		if g, err := known.Client(schema, cfg.Prediction); err == nil {
			l.core.SetGame(g)
		} else {
			l.log.Debug("no prediction", "game", known.ID, "err", err)
		}
	}
	return known.Look, pg
}

// configureKeys reads the game's keys, checks the input source against
// them (a key script the game cannot play is fatal) and returns them with
// the player's bindings.
func (l *Loop) configureKeys(cfg *protocol.Config) input.Config {
	keys, problems := input.ConfigFrom(cfg)
	for _, p := range problems {
		l.log.Warn("key config", "problem", p)
	}
	if err := l.input.Configure(keys); err != nil {
		l.fatal = err
	}
	l.loadBindings()
	keys, problems = l.disp.configured(keys)
	for _, p := range problems {
		l.log.Warn("key bindings", "problem", p)
	}
	return keys
}

// retireCore ends the current core, keeping its totals.
func (l *Loop) retireCore() {
	if l.core == nil {
		return
	}
	l.rep.retire(l.core)
	l.core.ObserveFrames(nil)
	l.core = nil
	l.world.SetCore(nil)
}

// gameSummary is what the client made of the game's CONFIG_DATA (nil
// before one was applied).
func (l *Loop) gameSummary() *GameSummary {
	d := l.world.Drawers()
	if d == nil {
		return nil
	}
	g := &GameSummary{Name: l.world.GameID(), Version: l.currentTarget().GameVersion, Parts: maps.Clone(d)}
	if g.Name == "generic" {
		g.Name = ""
	}
	return g
}

// aboutLine says in words what gameSummary says: the M menu's About line.
func aboutLine(g *GameSummary) string {
	if g == nil {
		return ""
	}
	name := g.Name
	if name == "" {
		name = "a game this client does not know"
	}
	if g.Version != "" {
		name += " (version " + g.Version + ")"
	}
	var own, generic, none []string
	for _, c := range slices.Sorted(maps.Keys(g.Parts)) {
		switch g.Parts[c] {
		case parts.DrawnGeneric:
			generic = append(generic, c)
		case parts.DrawnByNone:
			none = append(none, c)
		default:
			own = append(own, c)
		}
	}
	line := "Playing " + name
	if len(own) > 0 {
		line += fmt.Sprintf(" · %d of its parts drawn as %s", len(own), g.Name)
	}
	if len(generic) > 0 {
		line += " · as markers: " + strings.Join(generic, ", ")
	}
	if len(none) > 0 {
		line += " · not drawn: " + strings.Join(none, ", ")
	}
	return line
}
