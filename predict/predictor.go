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

// trajectoryLen is the number of predicted positions kept (0.5 s at 120 Hz),
// enough to find the prediction for the time of any fresh player block.
const trajectoryLen = 64

// sample is a predicted position at a time on the server's axis.
type sample struct {
	t    float64
	x, y float32
}

// entry is one input event in the history: the input after the event, the
// one-shot bits it armed, its wire seq and local time.
type entry struct {
	seq     uint32
	time    float64
	in      Input
	oneShot uint32
}

// Window is the replayed span of the last reconciliation in local time
// (for the divergence detector): From = serverTime − offset, To = the last
// replayed step − offset, Count = history entries replayed.
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

	hist  [HistoryCap]entry
	head  int // index of the oldest entry
	n     int
	base  Input
	live  Input
	shots uint32 // one-shot bits waiting for the next step

	acc      float64
	last     float64 // last Update, for the error decay
	lastStep float64 // time the accumulator is measured to
	started  bool

	active, hasState, pendingReset, frozen, model bool

	lastSeq    uint32
	hasLastSeq bool
	window     Window

	lastCorr    float64
	corrections uint64

	lead    bool
	leadOff float64
	hasLead bool

	// The predicted trajectory since the last reconciliation, on the
	// server's time axis: what the prediction said the actor would be at
	// each step time, to compare with the host's state at the same time.
	traj      [trajectoryLen]sample
	trajHead  int
	trajN     int
	stateTime float64
	lastErr   float64

	// Corrections are the sizes of old − new at each reconciliation: the
	// visible jumps the error smoothing hides (they include the jitter of
	// the clock estimate, which the time-aligned Stats do not).
	Corrections ErrorStats

	Err   VisualError
	Stats ErrorStats
}

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

// KeyEvent applies the key-bit rule of §7.3 to a KEYS_DATA message with
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
	if p.n == HistoryCap {
		p.dropOldest()
	}
	p.hist[(p.head+p.n)%HistoryCap] = entry{seq: seq, time: now, in: in, oneShot: oneShot}
	p.n++
	for p.n > 0 && p.hist[p.head].time < now-HistoryMaxAgeMs {
		p.dropOldest()
	}
}

func (p *Predictor) dropOldest() {
	p.base = p.hist[p.head].in
	p.head = (p.head + 1) % HistoryCap
	p.n--
}

func (p *Predictor) at(i int) *entry { return &p.hist[(p.head+i)%HistoryCap] }

// HistoryLen is the number of input events kept.
func (p *Predictor) HistoryLen() int { return p.n }

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

// Accepts reports whether a player block is to be taken (§7.5 step 1).
func (p *Predictor) Accepts() bool { return p.active && p.model }

// Reset is the predictor reset of §7.7 (force-reset, MAP_DATA, CLEAR):
// pending reset, history, base and live input, one-shots, error and
// accumulator cleared. keepState keeps the predicted state (snakes).
func (p *Predictor) Reset(keepState bool) {
	p.pendingReset = true
	if !keepState {
		p.hasState = false
	}
	p.head, p.n = 0, 0
	p.base, p.live, p.shots = Input{}, Input{}, 0
	p.Err = VisualError{}
	p.acc = 0
	p.hasLastSeq = false
	p.window = Window{}
	p.trajHead, p.trajN = 0, 0
}

// DecayFactor is the per-tick visual error factor max(0, 1 − 10·Δt) for an
// elapsed time in ms (negative elapsed counts as 0).
func DecayFactor(elapsedMs float64) float32 {
	return float32(max(0, 1-max(elapsedMs, 0)/1000*ErrorDecayRate))
}

// Update advances the prediction to now in fixed steps (§7.4) and returns
// the elapsed time in ms (0 on the first call) for the game's own bodies.
func (p *Predictor) Update(now float64, m Model) float64 {
	if math.IsNaN(now) || math.IsInf(now, 0) {
		return 0
	}
	if !p.started {
		p.started, p.last, p.lastStep = true, now, now
		return 0
	}
	elapsed := max(now-p.last, 0)
	stepElapsed := max(now-p.lastStep, 0)
	p.last, p.lastStep = now, now
	f := DecayFactor(elapsed)
	p.Err.X *= f
	p.Err.Y *= f
	p.Err.Angle *= f
	if !p.active || !p.hasState || !p.model || p.frozen {
		p.acc = 0
		return elapsed
	}
	p.acc = min(p.acc+stepElapsed, AccumulatorCap)
	for p.acc >= p.stepMs {
		in := p.live
		in.Keys |= p.shots
		p.shots = 0
		m.Step(in, p.dt)
		p.acc -= p.stepMs
		p.stateTime += p.stepMs
		p.track(m)
	}
	return elapsed
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

// seqLE is serial-number a ≤ b (clientcore.md §8.1).
func seqLE(a, b uint32) bool { return int32(a-b) <= 0 }

// Replay steps m from the authoritative state at serverTime to localNow +
// offset (§7.5): inputs with seq ≤ lastInputSeq are taken as applied by the
// host (seed rule); later ones are replayed at the steps their local time
// maps to. When lastInputSeq is 0 or went backwards, the selection falls
// back to time. The accumulator keeps the remainder; one-shots the replay
// did not reach are armed again, as the rewound state does not hold them.
func (p *Predictor) Replay(lastInputSeq uint32, serverTime, offset, localNow float64, m Model) Window {
	p.measure(serverTime, m)
	if p.lead {
		offset = p.leadOffset(serverTime - localNow)
	}
	useSeq := lastInputSeq != 0 && !(p.hasLastSeq && !seqLE(p.lastSeq, lastInputSeq))
	p.lastSeq, p.hasLastSeq = lastInputSeq, true
	mask := p.base
	i := 0
	if useSeq {
		for i < p.n && seqLE(p.at(i).seq, lastInputSeq) {
			mask = p.at(i).in
			i++
		}
	} else {
		for i < p.n && p.at(i).time+offset <= serverTime {
			mask = p.at(i).in
			i++
		}
	}
	first := i
	t, end := serverTime, localNow+offset
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
	for k := 0; k < steps; k++ {
		t += p.stepMs
		var shots uint32
		for i < p.n && p.at(i).time+offset <= t {
			e := p.at(i)
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
	p.acc = end - t
	if !(p.acc >= -maxReplaySpanMs && p.acc <= AccumulatorCap) { // also NaN
		p.acc = 0
	}
	p.lastStep = localNow
	var shots uint32
	for j := i; j < p.n; j++ {
		shots |= p.at(j).oneShot
	}
	p.shots = shots
	p.window = Window{From: serverTime - offset, To: t - offset, Count: i - first, Valid: true}
	return p.window
}

// track appends the actor's position after a step at stateTime.
func (p *Predictor) track(m Model) {
	x, y := m.Pos()
	if p.trajN == trajectoryLen {
		p.trajHead = (p.trajHead + 1) % trajectoryLen
		p.trajN--
	}
	p.traj[(p.trajHead+p.trajN)%trajectoryLen] = sample{t: p.stateTime, x: x, y: y}
	p.trajN++
	if tr, ok := m.(Tracker); ok {
		tr.Tracked(p.stateTime)
	}
}

func (p *Predictor) trajAt(i int) *sample { return &p.traj[(p.trajHead+i)%trajectoryLen] }

// measure compares the host's state at serverTime (the game has just set
// it) with the prediction for that same time, interpolated between the
// predicted steps around it (extrapolated from the last two beyond them),
// and starts a new trajectory at the authoritative state. The result is
// kept for Correct, which records it.
func (p *Predictor) measure(serverTime float64, m Model) {
	ax, ay := m.Pos()
	p.lastErr = -1
	if p.trajN >= 2 {
		k := 1
		for k < p.trajN-1 && p.trajAt(k).t < serverTime {
			k++
		}
		a, b := p.trajAt(k-1), p.trajAt(k)
		if b.t > a.t && serverTime >= p.trajAt(0).t {
			f := (serverTime - a.t) / (b.t - a.t)
			px := float64(a.x) + (float64(b.x)-float64(a.x))*f
			py := float64(a.y) + (float64(b.y)-float64(a.y))*f
			p.lastErr = math.Hypot(px-float64(ax), py-float64(ay))
		}
	}
	p.trajHead, p.trajN = 0, 0
	p.stateTime = serverTime
	p.track(m)
}

// LastWindow is the window of the last replay.
func (p *Predictor) LastWindow() Window { return p.window }

// Accumulator is the time not yet stepped, in ms.
func (p *Predictor) Accumulator() float64 { return p.acc }

// Correct folds old − new of the own actor into the visual error after a
// replay (§7.5 steps 7–8) and records the sample for the statistics. With no
// old state or a pending reset the error is zeroed and nothing is recorded.
// It returns true when the error snapped.
func (p *Predictor) Correct(hadState bool, dx, dy, dAngle float32) bool {
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
// clientcore.Game.Prediction returns them.
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

// leadDecay is how fast the lead clock follows slower frames down (per
// player block); it follows faster ones at once.
const leadDecay = 0.01

// SetLeadClock selects the time base of the replay. Off (the engine's
// rule), the replay ends at localNow + the core's smoothed offset, an
// average over the frames' delays: a frame that travelled faster than the
// average then carries a state newer than that end, the prediction waits for
// it, and the visible correction jumps by the jitter. On, the end follows
// the least-delayed frames (up at once, down by 1 % per block), so no
// frame is ahead of the prediction and the corrections shrink to the
// drift. Only the time placement changes; the seq rule is the same.
func (p *Predictor) SetLeadClock(on bool) { p.lead, p.hasLead = on, false }

func (p *Predictor) leadOffset(sample float64) float64 {
	switch {
	case !p.hasLead || sample > p.leadOff:
		p.leadOff, p.hasLead = sample, true
	default:
		p.leadOff += (sample - p.leadOff) * leadDecay
	}
	return p.leadOff
}
