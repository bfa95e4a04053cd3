package netgraph

import "vimpclient/clientcore"

// CoreCounters reads the per-tick counters from the client core: frames
// pushed, late, and lost (undecodable, pruned before being emitted, or
// dropped from an event queue nobody took), the render clock's freezes and
// its delay.
func CoreCounters(c *clientcore.Core) Counters {
	s := c.Stats()
	return Counters{Received: s.Pushed, Late: s.Late, Dropped: s.Dropped + s.Pruned + s.QueueDropped, Buffered: c.Buffered(),
		Freezes: c.Freezes(), DelayMs: c.Delay()}
}

// CorePrediction reads the game's prediction figures through the core; a
// game that predicts nothing reads as inactive.
func CorePrediction(c *clientcore.Core) Prediction {
	r, ok := c.Prediction()
	if !ok {
		return Prediction{Error: -1}
	}
	return r.Live
}
