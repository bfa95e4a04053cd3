package clientcore

import "vimpclient/gamemap"

// Game is the game half of the client core: local prediction of the own
// actor. The physics belong to the game; the core owns the call points,
// which match the engine's: a game written for the browser client behaves
// the same here.
//
// Game is what every game does: take the authoritative state of the own
// actor, mirror the player's keys, step, and draw the prediction. What only
// some games do is a role interface of its own, which the core discovers by
// type assertion when the game is installed (SetGame), so that a game
// implements only what it does:
//
//   - BodyReconciler: other predicted bodies reconciled with each player block;
//   - FrameTracker and FrameFilter: emitted event frames seen and edited;
//   - HotObserver: the interpolated world seen before each step;
//   - Aimer: pointer messages;
//   - Spawner: entities spawned at once for the player's own input;
//   - KeySetFollower, MapFollower, PanelFollower: KEYSET_DATA, MAP_DATA,
//     PANEL_DATA;
//   - PredictionReporter: the prediction figures;
//   - TurretGame: a gun the pointer can aim.
//
// It is the one plug-in interface of the client, and the only place the
// core calls up into other code. The core calls it at three points, in the
// engine's order: Core.PushFrame reconciles (BeginReconcile, OnServerState,
// FinishReconcile); an emitted event frame is tracked and filtered
// (TrackFrame, FilterFrame); Core.Sample observes and overlays (ObserveHot,
// Update, Overlay). Everything else is forwarded from the loop's calls to
// the core (ApplyInput, ApplyAim, TakeSpawns, SetActive, SetMap, SyncPanel,
// Reset, Prediction).
//
// Every method is called on the game loop's goroutine.
type Game interface {
	// OnServerState rewinds the prediction to the player block and replays
	// the inputs the host has not applied yet, up to localNow + offset.
	OnServerState(p *PlayerBlock, serverTime, offset, localNow float64)
	// ApplyInput mirrors a KEYS_DATA message the shell sends; seq is the
	// number on the wire. Every message the shell sends is passed, also
	// those the game ignores, so that the seqs line up with the host's.
	ApplyInput(seq uint32, down bool, name string, localNow float64)
	// Update advances the prediction in fixed steps to localNow.
	Update(localNow float64)
	// Overlay appends the predicted own actor and other predicted bodies
	// as records in their keys' layout; a camera it returns wins over the
	// interpolated one.
	Overlay(myID uint8, hasID bool, tail []Record) (out []Record, camera [2]float32, hasCamera bool)
	// Reset follows CLEAR.
	Reset()
}

// BodyReconciler is a Game that predicts bodies other than the own actor
// (crates it pushes, tanks it touches) and reconciles them with each player
// block, around OnServerState.
type BodyReconciler interface {
	// BeginReconcile is called by PushFrame, before the buffer push, for a
	// frame with a player block: take the authoritative state of other
	// predicted bodies from f.
	BeginReconcile(f *Frame)
	// FinishReconcile folds the other bodies' divergence into visual error.
	FinishReconcile()
}

// FrameTracker is a Game that follows the own actor through the emitted
// event frames.
type FrameTracker interface {
	// TrackFrame sees each emitted event frame first: camera force-reset,
	// the own actor's discrete fields, its death.
	TrackFrame(myID uint8, hasID bool, f *EventFrame)
}

// FrameFilter is a Game that edits emitted event frames.
type FrameFilter interface {
	// FilterFrame may edit an emitted event frame (after TrackFrame):
	// own-shot duplicate suppression. It may replace a block's Rows with
	// storage it owns.
	FilterFrame(f *EventFrame, myID uint8, hasID bool, localNow float64)
}

// HotObserver is a Game that looks at the interpolated world.
type HotObserver interface {
	// ObserveHot sees the interpolated world of a Sample before Update runs,
	// so a game that predicts bodies it touches follows their drawn pose of
	// the same tick.
	ObserveHot(h *Hot)
}

// Aimer is a Game with a pointer channel.
type Aimer interface {
	// ApplyAim mirrors a pointer message the shell sends with wire seq.
	ApplyAim(seq uint32, x, y float32, flags uint32, localNow float64)
}

// Spawner is a Game that spawns entities at once for the player's input.
type Spawner interface {
	// TakeSpawns returns the entities the game spawned locally since the
	// last call (an own shot drawn before the host confirms it), as event
	// frames; the core delivers them through TakeFrames. They stay valid
	// until the next call into the game.
	TakeSpawns() []EventFrame
}

// KeySetFollower is a Game that follows KEYSET_DATA.
type KeySetFollower interface {
	// SetActive is called with active true when the player key set (1) is on.
	SetActive(active bool)
}

// MapFollower is a Game that follows MAP_DATA.
type MapFollower interface {
	// SetMap gets the map parsed once for the whole client; m is nil when
	// the map could not be read (predict without walls).
	SetMap(m *gamemap.Map)
}

// PanelFollower is a Game that reads PANEL_DATA.
type PanelFollower interface {
	// SyncPanel follows one PANEL_DATA cell: "key:value" sets (set true),
	// a bare "key" hides. Games mirror ammo and the active weapon from it.
	SyncPanel(key, value string, set bool)
}

// PredictionReporter is a Game that reports prediction figures.
type PredictionReporter interface {
	// Prediction reports the prediction figures; ok is false while there
	// are none to report.
	Prediction() (r PredictionReport, ok bool)
}

// NopGame is a Game that predicts nothing: what the core runs without a
// game. Embedding it gives a game the required methods as doing nothing.
type NopGame struct{}

func (NopGame) OnServerState(*PlayerBlock, float64, float64, float64) {}
func (NopGame) ApplyInput(uint32, bool, string, float64)              {}
func (NopGame) Update(float64)                                        {}
func (NopGame) Overlay(_ uint8, _ bool, tail []Record) ([]Record, [2]float32, bool) {
	return tail, [2]float32{}, false
}
func (NopGame) Reset() {}

// gameRoles is the installed game and the roles it implements, resolved
// once by SetGame so that the per-frame calls make no type assertion. A
// role the game does not implement is nil.
type gameRoles struct {
	Game
	bodies  BodyReconciler
	tracker FrameTracker
	filter  FrameFilter
	hot     HotObserver
	aimer   Aimer
	spawner Spawner
	keySet  KeySetFollower
	maps    MapFollower
	panel   PanelFollower
	report  PredictionReporter
	turret  TurretGame
}

// rolesOf resolves g's roles.
func rolesOf(g Game) gameRoles {
	r := gameRoles{Game: g}
	r.bodies, _ = g.(BodyReconciler)
	r.tracker, _ = g.(FrameTracker)
	r.filter, _ = g.(FrameFilter)
	r.hot, _ = g.(HotObserver)
	r.aimer, _ = g.(Aimer)
	r.spawner, _ = g.(Spawner)
	r.keySet, _ = g.(KeySetFollower)
	r.maps, _ = g.(MapFollower)
	r.panel, _ = g.(PanelFollower)
	r.report, _ = g.(PredictionReporter)
	r.turret, _ = g.(TurretGame)
	return r
}

// PredictionLive is the prediction at this moment, for the net graph.
type PredictionLive struct {
	Active     bool    // the own actor is being predicted
	Error      float64 // latest time-aligned prediction error, world units (<0: none)
	Correction float64 // latest correction size, world units
	Visual     float64 // size of the visual error now, world units
}

// PredictionSummary is the prediction over a session, in world units. The
// error figures compare the prediction with the host's state at the same
// server time; the correction figures are the jumps old − new at each
// reconciliation, which the visual error smooths away.
type PredictionSummary struct {
	Samples       uint64  `json:"samples"`
	ErrorP50      float64 `json:"errorP50"`
	ErrorP95      float64 `json:"errorP95"`
	ErrorMax      float64 `json:"errorMax"`
	Snaps         uint64  `json:"snaps"`
	CorrectionP50 float64 `json:"correctionP50"`
	CorrectionP95 float64 `json:"correctionP95"`
	CorrectionMax float64 `json:"correctionMax"`
}

// LocalActor is where the own actor is on a layered map, as the game
// predicts it and as the host's own rows say: its level and height now
// (predicted), the highest level the host put it on, and how often the
// predicted level agreed with the host's at the same server time.
type LocalActor struct {
	// X, Y, Level and Z are the predicted position, level and height above
	// the ground (world units) now.
	X     float64 `json:"x"`
	Y     float64 `json:"y"`
	Level int     `json:"level"`
	Z     float64 `json:"z"`
	// MaxLevel is the highest level the actor's own rows carried.
	MaxLevel int `json:"maxLevel"`
	// LevelChecks counts the player blocks whose frame carried the actor's
	// level and met a prediction for the same time; LevelMismatches those
	// where the predicted level differed; ZErrorMax is the largest height
	// difference (world units) between the two.
	LevelChecks     uint64  `json:"levelChecks"`
	LevelMismatches uint64  `json:"levelMismatches"`
	ZErrorMax       float64 `json:"zErrorMax"`
}

// PredictionReport is what Game.Prediction returns. HasLocal tells whether
// Local means anything: a game that knows levels (tanks) fills it.
type PredictionReport struct {
	Live     PredictionLive
	Summary  PredictionSummary
	Local    LocalActor
	HasLocal bool
}

// SetGame installs the game half and resolves its roles; nil restores
// NopGame.
func (c *Core) SetGame(g Game) {
	if g == nil {
		g = NopGame{}
	}
	c.game = rolesOf(g)
}

// ApplyInput forwards a key message the shell sent with wire seq. What the
// game spawns for it (an own shot) comes out of the next TakeFrames.
func (c *Core) ApplyInput(seq uint32, down bool, name string, localNow float64) {
	c.settle()
	c.game.ApplyInput(seq, down, name, localNow)
	c.takeSpawns()
}

// ApplyAim forwards a pointer message the shell sent with wire seq to a
// game with a pointer channel.
func (c *Core) ApplyAim(seq uint32, x, y float32, flags uint32, localNow float64) {
	c.settle()
	if c.game.aimer != nil {
		c.game.aimer.ApplyAim(seq, x, y, flags, localNow)
	}
	c.takeSpawns()
}

// takeSpawns moves the game's local spawns into the core's delivery, bounded
// like the event queue.
func (c *Core) takeSpawns() {
	if c.game.spawner == nil {
		return
	}
	for _, f := range c.game.spawner.TakeSpawns() {
		if len(c.events.spawns) >= maxQueued {
			c.stats.QueueDropped++
			continue
		}
		c.events.spawns = append(c.events.spawns, f)
	}
}

// SyncPanel forwards PANEL_DATA cells, one by one, to a game that reads
// them.
func (c *Core) SyncPanel(key, value string, set bool) {
	c.settle()
	if c.game.panel != nil {
		c.game.panel.SyncPanel(key, value, set)
	}
}

// Prediction returns the game's prediction figures (ok false without one).
func (c *Core) Prediction() (PredictionReport, bool) {
	if c.game.report == nil {
		return PredictionReport{}, false
	}
	return c.game.report.Prediction()
}

// SetActive follows KEYSET_DATA (port 17).
func (c *Core) SetActive(active bool) {
	c.settle()
	if c.game.keySet != nil {
		c.game.keySet.SetActive(active)
	}
}
