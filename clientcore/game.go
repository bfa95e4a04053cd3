package clientcore

import "vimpclient/gamemap"

// Game is the game half of the client core: local prediction of the own
// actor (and any bodies the game predicts), the filtering of event frames,
// and the shots it spawns at once for the player's own input. The physics
// belong to the game; the core owns the call points, which match the
// engine's: a game written for the browser client behaves the same here.
//
// This is the whole contract between the client and a game it knows: the
// game loop talks to the core only, and the core forwards MAP_DATA, PANEL_DATA,
// KEYSET_DATA, CLEAR, input and sampling to the game in a fixed order.
//
// It is the one plug-in interface of the client, and the only place the
// core calls up into other code. The core calls it at three points, in the
// engine's order: Core.PushFrame reconciles (BeginReconcile, OnServerState,
// FinishReconcile); an emitted event frame is tracked and filtered
// (TrackFrame, FilterFrame); Core.Sample observes and overlays (ObserveHot,
// Update, Overlay). Everything else is forwarded from the loop's calls
// (ApplyInput, ApplyAim, TakeSpawns, SetActive, SetMap, SyncPanel, Reset,
// Prediction).
//
// Every method is called on the game loop's goroutine. Embed NopGame for the
// hooks a game does not need.
type Game interface {
	// BeginReconcile is called by PushFrame, before the buffer push, for a
	// frame with a player block: take the authoritative state of other
	// predicted bodies from f.
	BeginReconcile(f *Frame)
	// OnServerState rewinds the prediction to the player block and replays
	// the inputs the host has not applied yet, up to localNow + offset.
	OnServerState(p *PlayerBlock, serverTime, offset, localNow float64)
	// FinishReconcile folds the other bodies' divergence into visual error.
	FinishReconcile()
	// TrackFrame sees each emitted event frame first: camera force-reset,
	// the own actor's discrete fields, its death.
	TrackFrame(myID uint8, hasID bool, f *EventFrame)
	// FilterFrame may edit an emitted event frame: own-shot duplicate
	// suppression. It may replace a block's Rows with storage it owns.
	FilterFrame(f *EventFrame, myID uint8, hasID bool, localNow float64)
	// ObserveHot sees the interpolated world of a Sample before Update runs,
	// so a game that predicts bodies it touches follows their drawn pose of
	// the same tick.
	ObserveHot(h *Hot)
	// Update advances the prediction in fixed steps to localNow.
	Update(localNow float64)
	// Overlay appends the predicted own actor and other predicted bodies
	// as records in their keys' layout; a camera it returns wins over the
	// interpolated one.
	Overlay(myID uint8, hasID bool, tail []Record) (out []Record, camera [2]float32, hasCamera bool)
	// ApplyInput mirrors a KEYS_DATA message the shell sends; seq is the
	// number on the wire. Every message the shell sends is passed, also
	// those the game ignores, so that the seqs line up with the host's.
	ApplyInput(seq uint32, down bool, name string, localNow float64)
	// ApplyAim mirrors a pointer message.
	ApplyAim(seq uint32, x, y float32, flags uint32, localNow float64)
	// TakeSpawns returns the entities the game spawned locally since the
	// last call (an own shot drawn before the host confirms it), as event
	// frames; the core delivers them through TakeFrames. They stay valid
	// until the next call into the game.
	TakeSpawns() []EventFrame
	// SetActive follows KEYSET_DATA: active when the player key set (1) is on.
	SetActive(active bool)
	// SetMap follows MAP_DATA with the map parsed once for the whole client;
	// m is nil when the map could not be read (predict without walls).
	SetMap(m *gamemap.Map)
	// SyncPanel follows one PANEL_DATA cell: "key:value" sets (set true),
	// a bare "key" hides. Games mirror ammo and the active weapon from it.
	SyncPanel(key, value string, set bool)
	// Reset follows CLEAR.
	Reset()
	// Prediction reports the prediction figures; ok is false for a game
	// that predicts nothing.
	Prediction() (r PredictionReport, ok bool)
}

// NopGame implements every Game hook as doing nothing: no prediction, frames
// passed through as they are.
type NopGame struct{}

func (NopGame) BeginReconcile(*Frame)                                 {}
func (NopGame) OnServerState(*PlayerBlock, float64, float64, float64) {}
func (NopGame) FinishReconcile()                                      {}
func (NopGame) TrackFrame(uint8, bool, *EventFrame)                   {}
func (NopGame) FilterFrame(*EventFrame, uint8, bool, float64)         {}
func (NopGame) ObserveHot(*Hot)                                       {}
func (NopGame) Update(float64)                                        {}
func (NopGame) Overlay(_ uint8, _ bool, tail []Record) ([]Record, [2]float32, bool) {
	return tail, [2]float32{}, false
}
func (NopGame) ApplyInput(uint32, bool, string, float64)           {}
func (NopGame) ApplyAim(uint32, float32, float32, uint32, float64) {}
func (NopGame) TakeSpawns() []EventFrame                           { return nil }
func (NopGame) SetActive(bool)                                     {}
func (NopGame) SetMap(*gamemap.Map)                                {}
func (NopGame) SyncPanel(string, string, bool)                     {}
func (NopGame) Reset()                                             {}
func (NopGame) Prediction() (PredictionReport, bool)               { return PredictionReport{}, false }

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

// SetGame installs the game half; nil restores NopGame.
func (c *Core) SetGame(g Game) {
	if g == nil {
		g = NopGame{}
	}
	c.game = g
}

// ApplyInput forwards a key message the shell sent with wire seq. What the
// game spawns for it (an own shot) comes out of the next TakeFrames.
func (c *Core) ApplyInput(seq uint32, down bool, name string, localNow float64) {
	c.settle()
	c.game.ApplyInput(seq, down, name, localNow)
	c.takeSpawns()
}

// ApplyAim forwards a pointer message the shell sent with wire seq.
func (c *Core) ApplyAim(seq uint32, x, y float32, flags uint32, localNow float64) {
	c.settle()
	c.game.ApplyAim(seq, x, y, flags, localNow)
	c.takeSpawns()
}

// takeSpawns moves the game's local spawns into the core's delivery, bounded
// like the event queue.
func (c *Core) takeSpawns() {
	for _, f := range c.game.TakeSpawns() {
		if len(c.spawns) >= maxQueued {
			c.stats.QueueDropped++
			continue
		}
		c.spawns = append(c.spawns, f)
	}
}

// SyncPanel forwards PANEL_DATA cells to the game, one by one.
func (c *Core) SyncPanel(key, value string, set bool) {
	c.settle()
	c.game.SyncPanel(key, value, set)
}

// Prediction returns the game's prediction figures (ok false without one).
func (c *Core) Prediction() (PredictionReport, bool) { return c.game.Prediction() }

// SetActive follows KEYSET_DATA (port 17).
func (c *Core) SetActive(active bool) {
	c.settle()
	c.game.SetActive(active)
}
