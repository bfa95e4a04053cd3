package predict

import "math"

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

	acc     float64
	last    float64
	started bool

	active, hasState, pendingReset, frozen, model bool

	lastSeq    uint32
	hasLastSeq bool
	window     Window

	Err   VisualError
	Stats ErrorStats
}

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
}

// DecayFactor is the per-tick visual error factor max(0, 1 − 10·Δt) for an
// elapsed time in ms (negative elapsed counts as 0).
func DecayFactor(elapsedMs float64) float32 {
	return float32(max(0, 1-max(elapsedMs, 0)/1000*ErrorDecayRate))
}

// Update advances the prediction to now in fixed steps (§7.4) and returns
// the elapsed time in ms (0 on the first call) for the game's own bodies.
func (p *Predictor) Update(now float64, m Model) float64 {
	if !p.started {
		p.started, p.last = true, now
		return 0
	}
	elapsed := max(now-p.last, 0)
	p.last = now
	f := DecayFactor(elapsed)
	p.Err.X *= f
	p.Err.Y *= f
	p.Err.Angle *= f
	if !p.active || !p.hasState || !p.model || p.frozen {
		p.acc = 0
		return elapsed
	}
	p.acc = min(p.acc+elapsed, AccumulatorCap)
	for p.acc >= p.stepMs {
		in := p.live
		in.Keys |= p.shots
		p.shots = 0
		m.Step(in, p.dt)
		p.acc -= p.stepMs
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
	for t+p.stepMs <= end {
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
	}
	p.acc = end - t
	var shots uint32
	for j := i; j < p.n; j++ {
		shots |= p.at(j).oneShot
	}
	p.shots = shots
	p.window = Window{From: serverTime - offset, To: t - offset, Count: i - first, Valid: true}
	return p.window
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
		return false
	}
	p.Err.X += dx
	p.Err.Y += dy
	p.Err.Angle += dAngle
	snap := math.Hypot(float64(p.Err.X), float64(p.Err.Y)) > SnapDistance
	if snap {
		p.Err = VisualError{}
	}
	p.Stats.Add(math.Hypot(float64(dx), float64(dy)), snap)
	return snap
}

// NormalizeAngle wraps a into [−π, π] by repeated ±2π (§7.5 step 8); values
// that are not finite pass through.
func NormalizeAngle(a float32) float32 {
	if math.IsNaN(float64(a)) || math.IsInf(float64(a), 0) {
		return a
	}
	if a > 64 || a < -64 {
		a = float32(math.Remainder(float64(a), 2*math.Pi))
	}
	for a > math.Pi {
		a -= 2 * math.Pi
	}
	for a < -math.Pi {
		a += 2 * math.Pi
	}
	return a
}
