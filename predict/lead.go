// The replay's time base: the lead clock (which offset maps local time to
// the host's) and the input lead (how far ahead of the host's newest state
// the replay runs).

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

// inputLead is the input lead: when the host applies this client's
// inputs, from the acknowledgements (ack), and the lead of the last replay
// (ms). acked is set by the first non-zero lastInputSeq, noAck when a first
// input went unacknowledged for MaxInputLeadMs (a host that never
// acknowledges); prevBlock and prevInformed date the next acknowledgement:
// the previous block's server time and whether it said what was applied.
type inputLead struct {
	ack          ackClock
	ms           float64
	acked, noAck bool
	prevBlock    float64
	prevInformed bool
}

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
func (p *Predictor) InputLead() (ms float64, estimated bool) {
	return p.inputLead.ms, p.inputLead.ack.has
}

// sampleAck dates the acknowledgement of the input sent at local time sent,
// first covered by the block at serverTime: the host applied it after the
// previous block (which did not cover it), and no sooner than sent + offset
// (the server time a least delayed frame carries as it arrives: the host
// is later than that by the way there and back), and by serverTime. The
// sample is the middle of that bracket, on the local clock.
func (p *Predictor) sampleAck(sent, serverTime, offset float64) {
	if w := serverTime - p.inputLead.prevBlock; !(w > 0 && w <= maxAckBracketMs) {
		return
	}
	from := min(max(p.inputLead.prevBlock, sent+offset), serverTime)
	s := (from+serverTime)/2 - sent
	// A sample implying a lead far outside the bounds is not this link's.
	if l := s - offset; !(l >= -MaxInputLeadMs && l <= 2*MaxInputLeadMs) {
		return
	}
	p.inputLead.ack.add(s)
}

// leadDecay is how fast the lead clock follows slower frames down (per
// player block); it follows faster ones at once.
const leadDecay = 0.01

// SetLeadClock selects the time base of the replay. Off (the engine's
// rule), the offset is the core's smoothed one, an average over the frames'
// delays: a frame that travelled faster than the average then carries a
// state newer than localNow + offset, and with no input lead (none dated
// yet, or a host that never acknowledges) the prediction waits for it and
// the visible correction jumps by the jitter. On, the offset follows the
// least-delayed frames (up at once, down by 1 % per block), so no frame is
// ahead of localNow + offset. Once the input lead is dated the replay ends
// where the host applies an input sent now, whichever offset is used; the
// offset still bounds the lead below (0) and places inputs when the seq
// cannot. Only the time placement changes; the seq rule is the same.
func (p *Predictor) SetLeadClock(on bool) { p.lead.on, p.lead.has = on, false }

// leadClock is the replay's offset with SetLeadClock on: it follows the
// least-delayed frames, up at once and down by leadDecay a block.
type leadClock struct {
	on  bool // SetLeadClock
	off float64
	has bool
}

// offset folds one block's sample (server minus local time) in and returns
// the offset.
func (c *leadClock) offset(sample float64) float64 {
	switch {
	case !c.has || sample > c.off:
		c.off, c.has = sample, true
	default:
		c.off += (sample - c.off) * leadDecay
	}
	return c.off
}
