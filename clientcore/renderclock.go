package clientcore

import (
	"math"

	"vimpclient/internal/quantile"
)

// The adaptive render clock (Options.Adaptive). The engine draws the world
// at localNow + offset − delay, the offset following every frame's arrival
// with smoothing 0.1 and the delay fixed: render time then wobbles with
// jitter and jumps back after a stall. The adaptive clock instead
//
//   - aims at the earliest arrivals: the base offset is the largest
//     serverTime − localNow of the frames that arrived over the last 2 s,
//     the line a frame that met no queue on its way lies on;
//   - sizes the delay from how late frames came against that line: one
//     frame interval plus the 99th percentile of the lateness over the
//     last 5 s plus a margin, within [MinAdaptiveDelay, MaxAdaptiveDelay];
//     it grows at once (and while the world is frozen, by how far render
//     time is past the newest frame) and shrinks by at most 1 ms a second;
//   - only slews: render time advances at 0.9–1.1× the local clock towards
//     localNow + base − delay, so it never goes back, unless the aim is
//     more than 500 ms away (a new clock on the host): then it is set at
//     once. A reset, a map change and a resync re-aim it at once too,
//     keeping the delay and the arrivals: the connection is the same.

// Bounds of the adaptive delay, in ms.
const (
	MinAdaptiveDelay = 67.0
	MaxAdaptiveDelay = 250.0
)

const (
	// minSpeed and maxSpeed bound how fast render time runs against the
	// local clock; slewMs is the error at which it runs at a bound.
	minSpeed = 0.9
	maxSpeed = 1.1
	slewMs   = 500.0
	// resetJumpMs: an aim further than this from render time is a new
	// clock, taken at once.
	resetJumpMs = 500.0
	// earlyBucketMs × earlyBuckets is the window of the earliest arrivals.
	earlyBucketMs = 250.0
	earlyBuckets  = 8
	// clockBackMs: a frame this far below the earliest-arrival line says the
	// host's clock went back; the arrivals before it are forgotten.
	clockBackMs = 1000.0
	// lateWindowMs is the window of the lateness percentile; lateSlots
	// bounds the arrivals it holds (a flood keeps the newest); lateBins are
	// its 1 ms bins, the last holding everything later.
	lateWindowMs = 5000.0
	lateSlots    = 1024
	lateBins     = 512
	latePct      = 0.99
	// delayMarginMs is added to the interval and lateness.
	delayMarginMs = 10.0
	// shrinkPerMs is how fast the delay comes down: 1 ms a second.
	shrinkPerMs = 1.0 / 1000
	// intervalSmoothing follows the server-time gap between frames.
	intervalSmoothing = 0.1
)

// earlyBucket is the largest offset of the arrivals in one 250 ms span of
// local time.
type earlyBucket struct {
	span int64 // local time / earlyBucketMs
	max  float64
	used bool
}

// renderClock is the adaptive render clock. Its zero value knows nothing.
type renderClock struct {
	has    bool
	t, at  float64 // render time at local time at
	delay  float64 // the delay in use
	start  float64 // the delay a new clock starts at
	frozen bool    // starved: render time is past the newest frame
	floor  float64 // delay when the starvation began

	early [earlyBuckets]earlyBucket

	lateAt       [lateSlots]float64
	lateBin      [lateSlots]uint16
	head, n      int
	hist         [lateBins]uint64
	interval     float64
	hasInterval  bool
	newest       float64
	hasNewest    bool
	hasDelayInit bool
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// init sets the delay a new clock starts at (the host's, within bounds).
func (rc *renderClock) init(delay float64) {
	if !finite(delay) {
		delay = DefaultDelay
	}
	rc.start = min(MaxAdaptiveDelay, max(MinAdaptiveDelay, delay))
	rc.delay, rc.hasDelayInit = rc.start, true
}

// restart re-aims the clock at once at the next sample (a reset, a map
// change, a resync: the world starts again), keeping what it learnt of the
// connection — the arrivals, their lateness, the delay — which still holds
// for the same host. A new host gets a new core, and a new clock.
func (rc *renderClock) restart() {
	rc.has, rc.frozen = false, false
}

// base is the earliest-arrival offset at local time now, if any arrival
// is recent enough.
func (rc *renderClock) base(now float64) (float64, bool) {
	span := int64(math.Floor(now / earlyBucketMs))
	best, ok := 0.0, false
	for i := range rc.early {
		b := &rc.early[i]
		if !b.used || b.span > span || span-b.span >= earlyBuckets {
			continue
		}
		if !ok || b.max > best {
			best, ok = b.max, true
		}
	}
	return best, ok
}

// arrive notes a frame of server time t that arrived at local time now.
func (rc *renderClock) arrive(t, now float64) {
	o := t - now
	if !finite(o) || math.Abs(now) > 1e15 {
		return
	}
	if b, ok := rc.base(now); ok && o < b-clockBackMs {
		rc.forgetArrivals()
	}
	span := int64(math.Floor(now / earlyBucketMs))
	b := &rc.early[((span%earlyBuckets)+earlyBuckets)%earlyBuckets]
	if !b.used || b.span != span {
		*b = earlyBucket{span: span, max: o, used: true}
	} else {
		b.max = max(b.max, o)
	}
	base, _ := rc.base(now)
	rc.addLate(now, base-o)
	if rc.hasNewest && t > rc.newest {
		if gap := t - rc.newest; gap <= MaxAdaptiveDelay {
			if rc.hasInterval {
				rc.interval += (gap - rc.interval) * intervalSmoothing
			} else {
				rc.interval, rc.hasInterval = gap, true
			}
		}
	}
	if !rc.hasNewest || t > rc.newest {
		rc.newest, rc.hasNewest = t, true
	}
}

// forgetArrivals drops the arrivals, keeping the delay: the host's clock
// went back.
func (rc *renderClock) forgetArrivals() {
	rc.early = [earlyBuckets]earlyBucket{}
	rc.head, rc.n = 0, 0
	rc.hist = [lateBins]uint64{}
	rc.hasNewest, rc.hasInterval, rc.interval = false, false, 0
}

// addLate adds one frame's lateness (ms behind the earliest-arrival line).
func (rc *renderClock) addLate(now, late float64) {
	rc.expire(now)
	if rc.n == lateSlots {
		rc.hist[rc.lateBin[rc.head]]--
		rc.head = (rc.head + 1) % lateSlots
		rc.n--
	}
	bin := uint16(min(max(late, 0), lateBins-1))
	i := (rc.head + rc.n) % lateSlots
	rc.lateAt[i], rc.lateBin[i] = now, bin
	rc.hist[bin]++
	rc.n++
}

// expire drops the lateness older than the window (or from a later time:
// the local clock went back).
func (rc *renderClock) expire(now float64) {
	for rc.n > 0 {
		at := rc.lateAt[rc.head]
		if now-at <= lateWindowMs && at <= now {
			return
		}
		rc.hist[rc.lateBin[rc.head]]--
		rc.head = (rc.head + 1) % lateSlots
		rc.n--
	}
}

// lateP99 is the 99th percentile of the lateness in the window (1 ms bins).
func (rc *renderClock) lateP99(now float64) float64 {
	rc.expire(now)
	if b := quantile.Bucket(rc.hist[:], uint64(rc.n), latePct); b > 0 {
		return float64(b)
	}
	return 0
}

// want is the delay the recent arrivals ask for.
func (rc *renderClock) want(now float64) float64 {
	d := rc.interval + rc.lateP99(now) + delayMarginMs
	return min(MaxAdaptiveDelay, max(MinAdaptiveDelay, d))
}

// advance moves the clock to local time now and returns render time, or
// false before any arrival.
func (rc *renderClock) advance(now float64) (float64, bool) {
	base, ok := rc.base(now)
	if !ok && rc.has {
		// No arrival for 2 s: keep the aim where it was.
		base, ok = rc.t+rc.delay-rc.at, true
	}
	if !ok || !finite(now) {
		return 0, false
	}
	if !rc.hasDelayInit {
		rc.init(DefaultDelay)
	}
	dt := 0.0
	if rc.has {
		dt = max(0, now-rc.at)
	}
	if w := rc.want(now); w >= rc.delay {
		rc.delay = w
	} else {
		rc.delay = max(w, rc.delay-dt*shrinkPerMs)
	}
	aim := now + base - rc.delay
	if !rc.has {
		rc.t, rc.at, rc.has = aim, now, true
		return rc.t, true
	}
	next := rc.t + dt
	e := aim - next
	if !finite(e) || math.Abs(e) > resetJumpMs {
		rc.t = aim
	} else {
		speed := min(maxSpeed, max(minSpeed, 1+e/slewMs))
		rc.t += dt * speed
	}
	rc.at = now
	return rc.t, true
}

// starved says render time is past the newest frame by past ms (0: not):
// the delay grows at once by as much, from where it stood when the
// starvation began.
func (rc *renderClock) starved(past float64) {
	if !(past > 0) {
		rc.frozen = false
		return
	}
	if !rc.frozen {
		rc.frozen, rc.floor = true, rc.delay
	}
	rc.delay = min(MaxAdaptiveDelay, max(rc.delay, rc.floor+past))
}
