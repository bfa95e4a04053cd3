package predict

import (
	"math"

	"vimpclient/clientcore"
)

// Input is the whole input state a step sees: the held key bits and, for
// games with a pointer channel, the aim. One-shot bits of a step are ORed
// into Keys for that step only.
type Input struct {
	Keys         uint32
	AimX, AimY   float32
	Aim          bool // an aim point is set
	PointerBoost bool
}

// Model is the game's physics: one fixed step of the predicted actor (and
// any bodies the game carries along) with the input of that step.
type Model interface {
	Step(in Input, dt float32)
	// Pos is the simulated position of the actor (no visual error), for
	// the time-aligned error statistics.
	Pos() (x, y float32)
}

// Tracker is a Model that keeps predicted state beyond its position on the
// same time axis (a level, a height): Tracked is called after every step,
// and after the rewind to each authoritative state, with the server time
// that state stands for, as the position is recorded for the error
// statistics.
type Tracker interface {
	Tracked(serverTime float64)
}

// maxReplaySpanMs bounds a replay: the history spans 2 s, so does a replay.
const maxReplaySpanMs = HistoryMaxAgeMs

// trajectoryLen is the number of predicted positions kept (1.07 s at
// 120 Hz): the prediction runs up to MaxInputLeadMs ahead of the newest
// state, and the next player block, a frame interval and some jitter later,
// must still find its time in the trajectory.
const trajectoryLen = 128

// sample is a predicted position at a time on the server's axis.
type sample struct {
	t    float64
	x, y float32
}

// entry is one input event in the history: the input after the event, the
// one-shot bits it armed, its wire seq and local time, and whether a player
// block has acknowledged it yet.
type entry struct {
	seq     uint32
	time    float64
	in      Input
	oneShot uint32
	acked   bool
}

// Window is the replayed span of the last reconciliation in local time
// (for the divergence detector): From = serverTime − shift, To = the last
// replayed step − shift, where shift = offset + input lead maps an input's
// local time to the step that takes it; Count = history entries replayed.
type Window struct {
	From, To float64
	Count    int
	Valid    bool
}

// VisualError is the offset between the simulated and the drawn pose.
type VisualError struct{ X, Y, Angle float32 }

// Predictor runs the generic prediction loop for one local actor. It is
// owned by the game loop's goroutine.
type Predictor struct {
	cfg    Config
	stepMs float64
	dt     float32

	hist  inputHistory
	live  Input
	shots uint32 // one-shot bits waiting for the next step

	steps stepClock

	active, hasState, pendingReset, frozen, model bool

	lastSeq    uint32
	hasLastSeq bool
	window     Window

	lastCorr    float64
	corrections uint64

	lead      leadClock
	inputLead inputLead
	advX      float32 // the old prediction's motion to the new state's time, for Correct
	advY      float32

	// The predicted trajectory since the last reconciliation, on the
	// server's time axis: what the prediction said the actor would be at
	// each step time, to compare with the host's state at the same time.
	traj      trajectory
	stateTime float64
	lastErr   float64

	// Corrections are the sizes of old − new at each reconciliation: the
	// visible jumps the error smoothing hides (they include the jitter of
	// the clock estimate, which the time-aligned Stats do not).
	Corrections ErrorStats

	Err   VisualError
	Stats ErrorStats
}

// inputHistory is the input events not yet dropped, oldest first, in a
// ring; base is the input before the oldest.
type inputHistory struct {
	entries [HistoryCap]entry
	head    int // index of the oldest entry
	n       int
	base    Input
}

func (h *inputHistory) dropOldest() {
	h.base = h.entries[h.head].in
	h.head = (h.head + 1) % HistoryCap
	h.n--
}

func (h *inputHistory) at(i int) *entry { return &h.entries[(h.head+i)%HistoryCap] }

// stepClock is where the fixed steps stand on the local clock: the time
// not yet stepped, the last Update (for the error decay) and the time the
// accumulator is measured to.
type stepClock struct {
	acc      float64
	last     float64
	lastStep float64
	started  bool
}

// trajectory is the predicted positions since the last reconciliation, the
// newest trajectoryLen of them, oldest first, in a ring.
type trajectory struct {
	samples [trajectoryLen]sample
	head    int
	n       int
}

func (t *trajectory) at(i int) *sample { return &t.samples[(t.head+i)%trajectoryLen] }

// LastError is the time-aligned prediction error of the latest
// reconciliation in world units (-1 when there was nothing to compare).
func (p *Predictor) LastError() float64 { return p.lastErr }

// LastCorrection is the size of the latest reconciliation's correction in
// world units, and how many corrections there have been (for a net graph).
func (p *Predictor) LastCorrection() (float64, uint64) { return p.lastCorr, p.corrections }

// New returns a predictor for cfg. It starts inactive and without a model.
func New(cfg Config) *Predictor {
	if cfg.StepMs <= 0 {
		cfg.StepMs = DefaultStepMs
	}
	return &Predictor{cfg: cfg, stepMs: cfg.StepMs, dt: cfg.StepSeconds(), pendingReset: true}
}

// Config returns the configuration the predictor was built with.
func (p *Predictor) Config() *Config { return &p.cfg }

// StepMs is the fixed step in milliseconds; DT the same in seconds as the
// physics use it.
func (p *Predictor) StepMs() float64 { return p.stepMs }
func (p *Predictor) DT() float32     { return p.dt }

// Lookup returns the bit of key command name.
func (p *Predictor) Lookup(name string) (KeyBit, bool) {
	kb, ok := p.cfg.Keys[name]
	return kb, ok
}

// Live is the current live input (what the next update steps use).
func (p *Predictor) Live() Input { return p.live }

// KeyEvent applies the engine's key-bit rule (held keys set and clear their bit, a one-shot
// down arms its bit for the next step) to a KEYS_DATA message with
// wire seq and records it in the history. A name not in playerKeys is
// ignored entirely; ok reports whether it was known.
func (p *Predictor) KeyEvent(seq uint32, down bool, name string, now float64) (KeyBit, bool) {
	kb, ok := p.cfg.Keys[name]
	if !ok {
		return kb, false
	}
	in := p.live
	var shot uint32
	switch {
	case !down:
		in.Keys &^= kb.Bit
	case kb.OneShot:
		shot = kb.Bit
	default:
		in.Keys |= kb.Bit
	}
	p.Record(seq, now, in, shot)
	return kb, true
}

// Record makes in the live input, arms the one-shot bits oneShot for the
// next step and appends the event to the history. Games with input rules
// beyond KeyEvent (a pointer aim) build in themselves.
func (p *Predictor) Record(seq uint32, now float64, in Input, oneShot uint32) {
	p.live = in
	p.shots |= oneShot
	if p.hist.n == HistoryCap {
		p.hist.dropOldest()
	}
	p.hist.entries[(p.hist.head+p.hist.n)%HistoryCap] = entry{seq: seq, time: now, in: in, oneShot: oneShot}
	p.hist.n++
	for p.hist.n > 0 && p.hist.entries[p.hist.head].time < now-HistoryMaxAgeMs {
		p.hist.dropOldest()
	}
}

// HistoryLen is the number of input events kept.
func (p *Predictor) HistoryLen() int { return p.hist.n }

// SetModel tells whether the game knows its model (no model, no prediction).
func (p *Predictor) SetModel(known bool) { p.model = known }

// SetActive follows KEYSET_DATA: becoming active arms a reset (the next
// player block is taken without visual error); becoming inactive drops the
// predicted state.
func (p *Predictor) SetActive(active bool) {
	if active && !p.active {
		p.pendingReset = true
	}
	if !active {
		p.hasState = false
	}
	p.active = active
}

// Active reports the key set state.
func (p *Predictor) Active() bool { return p.active }

// SetFrozen stops the steps while the own actor is dead; the error still
// decays.
func (p *Predictor) SetFrozen(frozen bool) { p.frozen = frozen }

// Frozen reports whether the actor is dead.
func (p *Predictor) Frozen() bool { return p.frozen }

// HasState reports whether there is a predicted state to draw.
func (p *Predictor) HasState() bool { return p.hasState }

// Accepts reports whether a player block is to be taken  (active with a known model).
func (p *Predictor) Accepts() bool { return p.active && p.model }

// Reset is the predictor reset (a camera force-reset, MAP_DATA, CLEAR):
// pending reset, history, base and live input, one-shots, error and
// accumulator cleared. keepState keeps the predicted state (snakes).
func (p *Predictor) Reset(keepState bool) {
	p.pendingReset = true
	if !keepState {
		p.hasState = false
	}
	p.hist.head, p.hist.n = 0, 0
	p.hist.base, p.live, p.shots = Input{}, Input{}, 0
	p.Err = VisualError{}
	p.steps.acc = 0
	p.hasLastSeq = false
	p.window = Window{}
	p.traj.head, p.traj.n = 0, 0
}

// DecayFactor is the per-tick visual error factor max(0, 1 − 10·Δt) for an
// elapsed time in ms (negative elapsed counts as 0).
func DecayFactor(elapsedMs float64) float32 {
	return float32(max(0, 1-max(elapsedMs, 0)/1000*ErrorDecayRate))
}

// Update advances the prediction to now in fixed steps and returns
// the elapsed time in ms (0 on the first call) for the game's own bodies.
func (p *Predictor) Update(now float64, m Model) float64 {
	if math.IsNaN(now) || math.IsInf(now, 0) {
		return 0
	}
	if !p.steps.started {
		p.steps.started, p.steps.last, p.steps.lastStep = true, now, now
		return 0
	}
	elapsed := max(now-p.steps.last, 0)
	stepElapsed := max(now-p.steps.lastStep, 0)
	p.steps.last, p.steps.lastStep = now, now
	f := DecayFactor(elapsed)
	p.Err.X *= f
	p.Err.Y *= f
	p.Err.Angle *= f
	if !p.active || !p.hasState || !p.model || p.frozen {
		p.steps.acc = 0
		return elapsed
	}
	total := p.steps.acc + stepElapsed
	p.steps.acc = min(total, AccumulatorCap)
	// The time past the cap is not dropped: the step clock stays that far
	// behind (by at most a replay's span), so the next update, or the
	// catch-up before a reconciliation, steps it. Dropped, it left the
	// state behind the time it was said to stand for, and the next
	// reconciliation took the lag for a correction.
	if lost := total - p.steps.acc; lost > 0 {
		p.steps.lastStep = now - min(lost, maxReplaySpanMs)
	}
	p.stepAcc(m)
	return elapsed
}

// stepAcc runs the whole steps the accumulator holds with the live input.
func (p *Predictor) stepAcc(m Model) {
	for p.steps.acc >= p.stepMs {
		in := p.live
		in.Keys |= p.shots
		p.shots = 0
		m.Step(in, p.dt)
		p.steps.acc -= p.stepMs
		p.stateTime += p.stepMs
		p.track(m)
	}
}

// CatchUp steps the predicted state on to now, the arrival of the player
// block about to be reconciled; the game calls it before it rewinds to that
// block, so the old state it compares with the new one stands for the same
// moment. Without it, a loop that ran late (a stalled process, frames
// drained in a bunch) left the old state where the last update had put it
// (an update steps at most the accumulator cap and leaves the rest to
// come), or at the previous block of the same bunch: the old trajectory
// could not be carried that far, and the motion
// since then was folded into the visual error as if it were a correction:
// the drawn actor fell back by that distance, and past the snap distance
// it snapped. Between reconciliations no input is recorded that these steps
// would miss (inputs are recorded on the same goroutine), so they are what
// the old prediction said; the time-aligned error is unchanged (it compares
// the trajectory with the host's state at the block's own server time).
// The span is bounded as a replay's is; the error decay is left to Update.
func (p *Predictor) CatchUp(now float64, m Model) {
	if !p.steps.started || !p.Steppable() || !(now > p.steps.lastStep) || math.IsInf(now, 0) {
		return
	}
	p.steps.acc = min(p.steps.acc+now-p.steps.lastStep, maxReplaySpanMs)
	p.steps.lastStep = now
	p.stepAcc(m)
}

// Steppable reports whether Update would step (active, state, model, alive).
func (p *Predictor) Steppable() bool { return p.active && p.hasState && p.model && !p.frozen }

// Rewound marks that the game has set its state to a player block; it must
// be called between Accepts and Replay. It returns whether a predicted state
// existed before (an "old" state for the visual error).
func (p *Predictor) Rewound() (hadState bool) {
	had := p.hasState
	p.hasState = true
	return had
}

// seqLE is serial-number a ≤ b: comparisons across the 2^32 wrap stay right.
func seqLE(a, b uint32) bool { return int32(a-b) <= 0 }

// Replay steps m from the authoritative state at serverTime, which the game
// has just set, to where the host will be once it has applied this client's
// inputs: end = localNow + offset + lead (the input lead, below). Inputs
// with seq ≤ lastInputSeq are taken as applied by the host (seed rule);
// later ones are replayed at time + offset + lead, the step of the host's
// time at which it will apply them, so a key the host has not seen yet
// takes effect in the replay and the actor keeps moving through every
// reconciliation. The accumulator keeps the remainder; one-shots the replay
// did not reach are armed again, as the rewound state does not hold them.
//
// The simulation runs on the host's time axis: the state at step time τ is
// the prediction of the host's state at server time τ, which is what the
// time-aligned error compares.
//
// The input lead is estimated from the acknowledgements (ackClock): when a
// block's lastInputSeq first covers an input, the host applied it between
// the previous block's serverTime and this one's. Until a first such
// sample, the oldest pending input bounds the lead from below (the host had
// not applied it by serverTime), which keeps the actor moving from the key
// on; with nothing pending the lead is 0, the engine's rule.
//
// lastInputSeq 0: before this predictor has seen a non-zero value it means
// "nothing applied yet" (the first input of a connection is in flight), so
// every input is pending; once a non-zero value has been seen, a 0 (like
// any value that moved backwards) means the actor was created anew, whose
// inputs the seq cannot place, and the selection falls back to time:
// inputs with time + offset + lead ≤ serverTime count as applied. A host
// that never acknowledges (still 0 when the oldest input is MaxInputLeadMs
// old on its clock) gets the time selection without a lead, the engine's
// rule, until it acknowledges something.
func (p *Predictor) Replay(lastInputSeq uint32, serverTime, offset, localNow float64, m Model) Window {
	p.measure(serverTime, m)
	if p.lead.on {
		offset = p.lead.offset(serverTime - localNow)
	}
	const (
		bySeq = iota
		noneApplied
		byTime
	)
	sel := byTime
	switch {
	case lastInputSeq != 0:
		p.inputLead.acked, p.inputLead.noAck = true, false
		if !p.hasLastSeq || seqLE(p.lastSeq, lastInputSeq) {
			sel = bySeq
		}
	case !p.inputLead.acked && !p.inputLead.noAck:
		sel = noneApplied
		if p.hist.n > 0 && serverTime-(p.hist.at(0).time+offset) > MaxInputLeadMs {
			p.inputLead.noAck, sel = true, byTime
		}
	}
	p.lastSeq, p.hasLastSeq = lastInputSeq, true
	mask := p.hist.base
	i := 0
	if sel == bySeq {
		newest := -1
		for i < p.hist.n && seqLE(p.hist.at(i).seq, lastInputSeq) {
			e := p.hist.at(i)
			if !e.acked {
				e.acked, newest = true, i
			}
			mask = e.in
			i++
		}
		if newest >= 0 && p.inputLead.prevInformed {
			p.sampleAck(p.hist.at(newest).time, serverTime, offset)
		}
	}
	lead := 0.0
	switch {
	case p.inputLead.ack.has:
		lead = p.inputLead.ack.at - offset
	case sel != byTime && i < p.hist.n:
		lead = serverTime - (p.hist.at(i).time + offset)
	}
	lead = clampLead(lead)
	p.inputLead.ms = lead
	p.inputLead.prevBlock, p.inputLead.prevInformed = serverTime, sel != byTime
	shift := offset + lead
	if sel == byTime {
		for i < p.hist.n && p.hist.at(i).time+shift <= serverTime {
			mask = p.hist.at(i).in
			i++
		}
	}
	first := i
	t, end := serverTime, localNow+shift
	// The step count is bounded: a replay never covers more than the input
	// history, whatever times a hostile or broken frame carries (and a
	// count, unlike t += step on a huge t, always ends).
	steps := 0
	if span := end - t; span >= p.stepMs {
		maxSteps := int(maxReplaySpanMs/p.stepMs) + 1
		steps = maxSteps
		if span < maxReplaySpanMs {
			steps = min(int(span/p.stepMs), maxSteps)
		}
	}
	p.carryOld(serverTime+float64(steps)*p.stepMs, localNow)
	// A new trajectory starts at the authoritative state.
	p.traj.head, p.traj.n = 0, 0
	p.stateTime = serverTime
	p.track(m)
	for k := 0; k < steps; k++ {
		t += p.stepMs
		var shots uint32
		for i < p.hist.n && p.hist.at(i).time+shift <= t {
			e := p.hist.at(i)
			mask = e.in
			shots |= e.oneShot
			i++
		}
		in := mask
		in.Keys |= shots
		m.Step(in, p.dt)
		p.stateTime = t
		p.track(m)
	}
	// The remainder covers the time up to localNow: the next update adds
	// only what passed since this reconciliation (a player block arriving
	// between two render ticks would otherwise be stepped twice over).
	p.steps.acc = end - t
	if !(p.steps.acc >= -maxReplaySpanMs && p.steps.acc <= AccumulatorCap) { // also NaN
		p.steps.acc = 0
	}
	p.steps.lastStep = localNow
	var shots uint32
	for j := i; j < p.hist.n; j++ {
		shots |= p.hist.at(j).oneShot
	}
	p.shots = shots
	p.window = Window{From: serverTime - shift, To: t - shift, Count: i - first, Valid: true}
	return p.window
}

// carryOld notes how far the old prediction moves the actor from its last
// step to time at, the new state's, for Correct: the old state was stepped
// to the last update, the new one to localNow, and that motion is no
// correction. The old trajectory is carried on past its end, at its last
// velocity, by as much as the old state lags localNow (the time since the
// last update and the accumulator's remainder) and a step.
func (p *Predictor) carryOld(at, localNow float64) {
	p.advX, p.advY = 0, 0
	if p.traj.n == 0 {
		return
	}
	last := p.traj.at(p.traj.n - 1)
	lag := min(max(localNow-p.steps.lastStep, 0)+p.steps.acc, AccumulatorCap)
	x, y, ok := p.trajPos(at, 0, lag+p.stepMs)
	if !ok {
		return
	}
	if ax, ay := x-float64(last.x), y-float64(last.y); math.Abs(ax) <= SnapDistance && math.Abs(ay) <= SnapDistance {
		p.advX, p.advY = float32(ax), float32(ay)
	}
}

// track appends the actor's position after a step at stateTime.
func (p *Predictor) track(m Model) {
	x, y := m.Pos()
	if p.traj.n == trajectoryLen {
		p.traj.head = (p.traj.head + 1) % trajectoryLen
		p.traj.n--
	}
	p.traj.samples[(p.traj.head+p.traj.n)%trajectoryLen] = sample{t: p.stateTime, x: x, y: y}
	p.traj.n++
	if tr, ok := m.(Tracker); ok {
		tr.Tracked(p.stateTime)
	}
}

// measure compares the host's state at serverTime (the game has just set
// it) with the prediction for that same time, interpolated between the
// predicted steps around it (extrapolated from the last two beyond them).
// The result is kept for Correct, which records it.
func (p *Predictor) measure(serverTime float64, m Model) {
	ax, ay := m.Pos()
	p.lastErr = -1
	if px, py, ok := p.trajPos(serverTime, 0, math.Inf(1)); ok {
		p.lastErr = math.Hypot(px-float64(ax), py-float64(ay))
	}
}

// trajPos is the predicted position at time at, interpolated between the
// kept steps around it, or extrapolated from the first or last two by at
// most before or after ms; ok is false when the trajectory cannot tell.
func (p *Predictor) trajPos(at, before, after float64) (x, y float64, ok bool) {
	if p.traj.n < 2 || !(at >= p.traj.at(0).t-before && at <= p.traj.at(p.traj.n-1).t+after) { // also NaN
		return 0, 0, false
	}
	k := 1
	for k < p.traj.n-1 && p.traj.at(k).t < at {
		k++
	}
	a, b := p.traj.at(k-1), p.traj.at(k)
	if !(b.t > a.t) {
		return 0, 0, false
	}
	f := (at - a.t) / (b.t - a.t)
	return float64(a.x) + (float64(b.x)-float64(a.x))*f, float64(a.y) + (float64(b.y)-float64(a.y))*f, true
}

// LastWindow is the window of the last replay.
func (p *Predictor) LastWindow() Window { return p.window }

// Accumulator is the time not yet stepped, in ms.
func (p *Predictor) Accumulator() float64 { return p.steps.acc }

// Correct folds old − new of the own actor into the visual error after a
// replay (old − new, snapped past the snap distance) and records the sample for the statistics. With no
// old state or a pending reset the error is zeroed and nothing is recorded.
// It returns true when the error snapped.
//
// The old state is where the last update left the actor, the new one where
// the replay put it at localNow, a few steps later: the old prediction's
// own motion over those steps (read off its trajectory) is added to dx, dy,
// so the error and the correction figures hold only the jump at one time. Without
// that, every reconciliation pulled the drawn actor back by the steps since
// the last update, and the error decay let it catch up again: a shudder at
// the frame rate. The angle has no trajectory and is folded as given.
func (p *Predictor) Correct(hadState bool, dx, dy, dAngle float32) bool {
	dx, dy = dx+p.advX, dy+p.advY
	p.advX, p.advY = 0, 0
	if !hadState || p.pendingReset {
		p.pendingReset = false
		p.Err = VisualError{}
		p.lastErr = -1
		return false
	}
	p.Err.X += dx
	p.Err.Y += dy
	p.Err.Angle += dAngle
	snap := math.Hypot(float64(p.Err.X), float64(p.Err.Y)) > SnapDistance
	if snap {
		p.Err = VisualError{}
	}
	p.lastCorr = math.Hypot(float64(dx), float64(dy))
	p.corrections++
	p.Corrections.Add(p.lastCorr, snap)
	if p.lastErr >= 0 {
		p.Stats.Add(p.lastErr, snap)
	} else if snap {
		p.Stats.snaps++
	}
	return snap
}

// Report is the predictor's live figures and statistics, as a game's
// clientcore.PredictionReporter returns them.
func (p *Predictor) Report() clientcore.PredictionReport {
	corr, _ := p.LastCorrection()
	return clientcore.PredictionReport{
		Live: clientcore.PredictionLive{Active: p.Steppable(), Error: p.LastError(), Correction: corr,
			Visual: math.Hypot(float64(p.Err.X), float64(p.Err.Y))},
		Summary: p.Summary(),
	}
}

// Summary is the "prediction" object of the headless summary: the
// time-aligned error figures, the snaps, and the correction figures.
func (p *Predictor) Summary() Summary {
	s := p.Stats.Summary()
	c := p.Corrections.Summary()
	s.Snaps = c.Snaps
	s.CorrectionP50, s.CorrectionP95, s.CorrectionMax = c.ErrorP50, c.ErrorP95, c.ErrorMax
	return s
}
