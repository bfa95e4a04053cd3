package clientcore

import (
	"math"

	"vimpclient/internal/quantile"
)

// The render clock's figures: how often and how long the world stood
// still because render time had passed the newest frame, how often render
// time stepped back, what delay it ran at and how long it extrapolated.

// delayBins is the number of 1 ms bins of the delay histogram; a delay
// past the last bin counts in it.
const delayBins = 1024

// maxFigureStepMs is the longest gap between two samples the figures
// count: a longer one is a paused loop, which Resync follows.
const maxFigureStepMs = 3000.0

// InterpStats are the render clock's figures since the core was built.
type InterpStats struct {
	// FrozenMs is the time render time spent past the newest frame with
	// nothing left to show: beyond the extrapolation limit, or at all
	// when the core does not extrapolate. Freezes counts those episodes,
	// FreezesOver100ms the ones that lasted longer than 100 ms.
	FrozenMs         float64
	Freezes          uint64
	FreezesOver100ms uint64
	// BackSteps counts the samples whose render time was earlier than the
	// sample before's; MaxBackStepMs is the largest such step.
	BackSteps     uint64
	MaxBackStepMs float64
	// MaxStepMs is the largest difference between how far render time
	// moved from one sample to the next and the wall time between them: a
	// render clock that slews moves a little faster or slower than the
	// wall, one that follows each frame's arrival jumps. A move of over
	// maxResetMs is a reset (a new host, a map), and a sample more than
	// maxStepSampleMs after the last a loop that stalled (a slewing clock
	// moves 10 % of any gap): neither is counted.
	MaxStepMs float64
	// LateFrames counts the frames that arrived behind render time and
	// were applied at once, never interpolated (Stats.Late).
	LateFrames uint64
	// DelayMs is the interpolation delay now; DelayMsP50 and DelayMsMax
	// are its median and largest over the samples taken (1 ms bins).
	DelayMs    float64
	DelayMsP50 float64
	DelayMsMax float64
	// ExtrapolatedMs is the time remote entities were dead-reckoned past
	// the newest frame.
	ExtrapolatedMs float64
	// Jumps and MaxJumpFrames are the remote actors' jumps on screen
	// (JumpStats).
	Jumps         uint64
	MaxJumpFrames float64
	// Samples is the number of samples that had a render time.
	Samples uint64
}

// interpFigures accumulates InterpStats sample by sample.
type interpFigures struct {
	s          InterpStats
	hasAt      bool
	at         float64 // localNow of the last sample counted
	frozen     bool    // the last sample was frozen
	frozenFor  float64 // length of the current freeze
	longFreeze bool    // the current freeze was counted as over 100 ms
	delayHist  [delayBins]uint64
	delayN     uint64 // values in delayHist
	held       bool   // HoldFigures: nothing more is counted
}

// step returns the ms since the last sample, 0 for the first, for a clock
// that went back and for a paused loop.
func (f *interpFigures) step(localNow float64) float64 {
	dt := 0.0
	if f.hasAt {
		dt = localNow - f.at
	}
	f.at, f.hasAt = localNow, true
	if !(dt > 0) || dt > maxFigureStepMs {
		return 0
	}
	return dt
}

// backStep counts render time going back from prev to now.
func (f *interpFigures) backStep(prev, now float64) {
	if f.held {
		return
	}
	// A step from or to a clock that is not finite (a hostile server
	// time) is no step anyone saw.
	if now < prev && finite(prev-now) {
		f.s.BackSteps++
		f.s.MaxBackStepMs = max(f.s.MaxBackStepMs, prev-now)
	}
}

// maxResetMs is the render time move that is a reset of the clock, not a
// step of it.
const maxResetMs = 500.0

// maxStepSampleMs is the longest sample gap MaxStepMs counts: three 60 Hz
// ticks.
const maxStepSampleMs = 50.0

// renderStep counts render time moving by moved ms over a sample dt ms
// after the last (dt 0: no step to compare, as after a pause).
func (f *interpFigures) renderStep(moved, dt float64) {
	if f.held || !(dt > 0) || dt > maxStepSampleMs || !finite(moved) {
		return
	}
	if d := math.Abs(moved - dt); d <= maxResetMs {
		f.s.MaxStepMs = max(f.s.MaxStepMs, d)
	}
}

// observe counts one sample of dt ms at delay ms: extrapolated says it
// dead-reckoned past the newest frame, frozen that it had nothing left to
// show.
func (f *interpFigures) observe(dt, delay float64, extrapolated, frozen bool) {
	if f.held {
		return
	}
	f.s.Samples++
	f.s.DelayMs = delay
	if d := delay; d >= 0 && !math.IsInf(d, 0) {
		f.s.DelayMsMax = max(f.s.DelayMsMax, d)
		f.delayHist[int(min(d, delayBins-1))]++
		f.delayN++
	}
	if extrapolated {
		f.s.ExtrapolatedMs += dt
	}
	if !frozen {
		f.frozen, f.frozenFor, f.longFreeze = false, 0, false
		return
	}
	if !f.frozen {
		f.frozen, f.frozenFor, f.longFreeze = true, 0, false
		f.s.Freezes++
	}
	f.frozenFor += dt
	f.s.FrozenMs += dt
	if f.frozenFor > 100 && !f.longFreeze {
		f.longFreeze = true
		f.s.FreezesOver100ms++
	}
}

// forget ends a freeze: the world is gone (a reset, a map change).
func (f *interpFigures) forget() {
	f.frozen, f.frozenFor, f.longFreeze = false, 0, false
	f.hasAt = false
}

// stats returns the figures with the median delay.
func (f *interpFigures) stats() InterpStats {
	s := f.s
	if b := quantile.Bucket(f.delayHist[:], f.delayN, 0.5); b >= 0 {
		s.DelayMsP50 = float64(b)
	}
	return s
}
