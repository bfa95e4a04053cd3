package clientcore

// Game is the game half of the client core: local prediction of the own
// actor (and any bodies the game predicts) and the filtering of event frames.
// The physics belong to the game; the core owns the call points, which match
// the engine's: a game written for the browser client behaves the same here.
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
	// SetActive follows KEYSET_DATA: active when the player key set (1) is on.
	SetActive(active bool)
	// SetMap follows MAP_DATA; Reset follows CLEAR.
	SetMap()
	Reset()
}

// HotObserver is an optional Game hook: ObserveHot sees the interpolated
// world of a Sample before Update runs, so a game that predicts bodies it
// touches follows their drawn pose of the same tick.
type HotObserver interface {
	ObserveHot(h *Hot)
}

// NopGame implements every Game hook as doing nothing: no prediction, frames
// passed through as they are.
type NopGame struct{}

func (NopGame) BeginReconcile(*Frame)                                 {}
func (NopGame) OnServerState(*PlayerBlock, float64, float64, float64) {}
func (NopGame) FinishReconcile()                                      {}
func (NopGame) TrackFrame(uint8, bool, *EventFrame)                   {}
func (NopGame) FilterFrame(*EventFrame, uint8, bool, float64)         {}
func (NopGame) Update(float64)                                        {}
func (NopGame) Overlay(_ uint8, _ bool, tail []Record) ([]Record, [2]float32, bool) {
	return tail, [2]float32{}, false
}
func (NopGame) ApplyInput(uint32, bool, string, float64)           {}
func (NopGame) ApplyAim(uint32, float32, float32, uint32, float64) {}
func (NopGame) SetActive(bool)                                     {}
func (NopGame) SetMap()                                            {}
func (NopGame) Reset()                                             {}

// SetGame installs the game half; nil restores NopGame.
func (c *Core) SetGame(g Game) {
	if g == nil {
		g = NopGame{}
	}
	c.game = g
}

// ApplyInput forwards a key message the shell sent with wire seq.
func (c *Core) ApplyInput(seq uint32, down bool, name string, localNow float64) {
	c.settle()
	c.game.ApplyInput(seq, down, name, localNow)
}

// ApplyAim forwards a pointer message the shell sent with wire seq.
func (c *Core) ApplyAim(seq uint32, x, y float32, flags uint32, localNow float64) {
	c.settle()
	c.game.ApplyAim(seq, x, y, flags, localNow)
}

// SetActive follows KEYSET_DATA (port 17).
func (c *Core) SetActive(active bool) {
	c.settle()
	c.game.SetActive(active)
}
