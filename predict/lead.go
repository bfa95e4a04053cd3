package predict

import "math"

// Input lead bounds and smoothing.
const (
	// MaxInputLeadMs bounds how far ahead of the host's newest state the
	// prediction runs, and how long a first input may wait for the host's
	// first acknowledgement before the host is taken as one that never
	// acknowledges.
	MaxInputLeadMs = 500.0
	// maxAckBracketMs is the widest span between two player blocks that
	// still dates an acknowledgement: wider (frames lost, a pause while
	// inactive) and the sample says too little to be kept.
	maxAckBracketMs = 200.0
	// leadGain is the share of a sample's difference the estimate takes;
	// leadClipMs bounds the difference a single sample counts with, so one
	// late packet moves the estimate by at most gain × clip (5 ms).
	leadGain   = 0.125
	leadClipMs = 40.0
	// A sample further than leadOutlierMs from the estimate is ignored,
	// unless leadReanchor of them in a row agree on the side: the path
	// itself changed (another route, another host clock) and the estimate
	// restarts from the latest.
	leadOutlierMs = 150.0
	leadReanchor  = 3
)

// ackClock estimates when the host applies this client's inputs, as the
// server time minus the local time of the key: the host applied input k,
// sent at local time t_k, somewhere between the last player block that did
// not acknowledge it and the first that did, so the middle of that bracket
// minus t_k is one sample. Held relative to the local clock rather than to
// the frames' offset, the estimate does not move when the offset estimate
// does; the lead over the newest state is this minus the offset.
//
// The samples carry the upstream jitter, the bracket (the frame interval,
// wider when a frame was lost) and the occasional stall, so the estimate is
// a clipped running mean with outlier rejection rather than the latest
// sample: it settles within a few keys and a late packet hardly moves it.
type ackClock struct {
	at      float64 // server − local time at which an input takes effect
	has     bool
	samples uint64
	run     int // consecutive outliers on the same side (sign = side)
}

// add folds one sample (server time minus local time) in.
func (c *ackClock) add(s float64) {
	if math.IsNaN(s) || math.IsInf(s, 0) {
		return
	}
	c.samples++
	if !c.has {
		c.at, c.has, c.run = s, true, 0
		return
	}
	d := s - c.at
	if math.Abs(d) > leadOutlierMs {
		side := 1
		if d < 0 {
			side = -1
		}
		if c.run*side < 0 {
			c.run = 0
		}
		c.run += side
		if c.run*side >= leadReanchor {
			c.at, c.run = s, 0
		}
		return
	}
	c.run = 0
	c.at += leadGain * min(max(d, -leadClipMs), leadClipMs)
}

// clampLead bounds a lead to [0, MaxInputLeadMs]; NaN is 0.
func clampLead(v float64) float64 {
	if !(v > 0) {
		return 0
	}
	return min(v, MaxInputLeadMs)
}

// InputLead is how far the last replay ran ahead of the host's newest state
// in ms (the time the host takes to apply an input of this client), and
// whether that came from acknowledged inputs rather than from a pending
// one (no acknowledgement dated yet).
func (p *Predictor) InputLead() (ms float64, estimated bool) { return p.leadMs, p.ack.has }
