package netgraph

import (
	"math"

	"vimpclient/clientcore"
	"vimpclient/predict"
)

// CoreCounters reads the per-tick counters from the client core: frames
// pushed, late, and lost (undecodable, pruned before being emitted, or
// dropped from an event queue nobody took).
func CoreCounters(c *clientcore.Core) Counters {
	s := c.Stats()
	return Counters{Received: s.Pushed, Late: s.Late, Dropped: s.Dropped + s.Pruned + s.QueueDropped, Buffered: c.Buffered()}
}

// PredictorState reads the prediction figures; a nil predictor (no
// prediction for this game) reads as inactive.
func PredictorState(p *predict.Predictor) Prediction {
	if p == nil {
		return Prediction{Error: -1}
	}
	corr, _ := p.LastCorrection()
	return Prediction{Active: p.Steppable(), Error: p.LastError(), Correction: corr,
		Visual: math.Hypot(float64(p.Err.X), float64(p.Err.Y))}
}
