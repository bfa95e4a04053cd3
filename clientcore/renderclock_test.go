package clientcore

import (
	"math"
	"testing"
)

// A simulated network for the render clock's tests: the host makes a
// frame every frameMs of server time; the actor m1 #1 moves along x at
// speed units per ms of server time; a frame of server time t arrives at
// local time t + base + lateness(t). Local time is a fake clock advanced by
// the test, so nothing here waits on the wall clock.

const (
	frameMs = 1000.0 / 30
	tickMs  = 1000.0 / 60
)

type simNet struct {
	t      *testing.T
	s      *Schema
	c      *Core
	speed  float64
	base   float64                          // arrival − server time when nothing is late
	late   func(serverTime float64) float64 // extra lateness of each frame
	shift  float64                          // added to the server time the frames carry
	seq    uint32
	next   float64 // server time of the next frame made
	queued []simFrame
	now    float64
	// ahead counts the event frames handed out before render time reached
	// them.
	ahead int
}

type simFrame struct {
	at   float64 // local arrival time
	wire []byte
}

func newSimNet(t *testing.T, opts Options) *simNet {
	s := loadSchema(t, conformanceDir(t), "schemas/tanks.json")
	return &simNet{t: t, s: s, c: New(s, opts), speed: 0.1, base: 50, next: 10000, now: 10000 + 50,
		late: func(float64) float64 { return 0 }}
}

// x is where the actor is at server time st.
func (n *simNet) x(st float64) float64 { return st * n.speed }

func (n *simNet) frame(st float64) []byte {
	n.seq++
	f := &testFrame{port: 5, version: 5, seq: n.seq, serverTime: st}
	fields := make([]float64, len(n.s.Key("m1").Fields))
	fields[0] = n.x(st)
	f.blocks = []testBlock{{key: "m1", rows: []testRow{{id: 1, fields: fields}}}}
	return encodeFrame(n.s, f)
}

// run advances the fake clock by ms in render ticks: frames are made,
// delivered when due (in order: a frame never overtakes the one before),
// and the world sampled each tick; each is called after each sample.
func (n *simNet) run(ms float64, each func(h *Hot)) {
	end := n.now + ms
	for n.now < end {
		n.now += tickMs
		for n.next <= n.now-n.base {
			at := n.next + n.base + n.late(n.next)
			if k := len(n.queued); k > 0 {
				at = max(at, n.queued[k-1].at)
			}
			n.queued = append(n.queued, simFrame{at: at, wire: n.frame(n.next + n.shift)})
			n.next += frameMs
		}
		for len(n.queued) > 0 && n.queued[0].at <= n.now {
			if !n.c.PushFrame(n.queued[0].wire, n.queued[0].at) {
				n.t.Fatalf("frame refused: %v", n.c.LastError())
			}
			n.queued = n.queued[1:]
		}
		h := n.c.Sample(n.now)
		for _, f := range n.c.TakeFrames() {
			if f.ServerTime > n.renderTime() {
				n.ahead++
			}
		}
		if each != nil {
			each(h)
		}
	}
}

// renderTime is the render time of the last sample.
func (n *simNet) renderTime() float64 { return n.c.buf.lastRenderTime }

// shownX is the actor's x in h (false: not shown).
func shownX(h *Hot) (float64, bool) {
	for _, r := range h.Actors {
		if r.Key() == "m1" && r.ID == 1 {
			return float64(r.Fields[0]), true
		}
	}
	return 0, false
}

// stallEvery makes the frames of server time in [from+k·period,
// from+k·period+stall) wait until the end of that span: a lost TCP segment
// and its retransmission hold everything behind it.
func stallEvery(from, period, stall float64) func(float64) float64 {
	return func(st float64) float64 {
		if st < from {
			return 0
		}
		in := math.Mod(st-from, period)
		if in < stall {
			return stall - in
		}
		return 0
	}
}

// TestFixedClockFigures: with the engine's clock a 300 ms stall freezes the
// world from the moment render time passes the last frame before it until
// the backlog lands, and the late arrivals pull the smoothed offset, and
// with it render time, back.
func TestFixedClockFigures(t *testing.T) {
	n := newSimNet(t, Options{})
	n.run(2000, nil)
	if s := n.c.InterpStats(); s.Freezes != 0 || s.BackSteps != 0 || s.FrozenMs != 0 || s.DelayMsP50 != 100 {
		t.Fatalf("on time: %+v", s)
	}
	// Frames of server time [stallAt, stallAt+300) wait until stallAt+300,
	// arriving 50 ms later. Render time runs 150 ms behind server time
	// (the 50 ms base and the 100 ms delay), so it passes the last frame
	// before the stall, stallAt − frameMs, at local stallAt − frameMs +
	// 150 and the world stands still until the backlog lands at stallAt
	// + 350: 200 ms + frameMs.
	stallAt := n.next + 15*frameMs
	n.late = stallEvery(stallAt, 1e9, 300)
	n.run(2000, nil)
	s := n.c.InterpStats()
	if s.Freezes != 1 || s.FreezesOver100ms != 1 {
		t.Fatalf("freezes %d (over 100 ms %d), want 1 and 1: %+v", s.Freezes, s.FreezesOver100ms, s)
	}
	if want := 200 + frameMs; math.Abs(s.FrozenMs-want) > 2*tickMs {
		t.Errorf("frozen %.1f ms, want about %.1f", s.FrozenMs, want)
	}
	if s.BackSteps == 0 || s.MaxBackStepMs <= 0 {
		t.Errorf("the late backlog must pull render time back: %+v", s)
	}
	if s.LateFrames == 0 {
		t.Errorf("frames behind render time must count: %+v", s)
	}
}

// TestAdaptiveClockOnlySlews: through jitter and periodic stalls the
// adaptive clock never goes back and never runs outside 0.9–1.1× the
// local clock; its delay stays within its bounds, grows after the first
// stall and comes down by at most 1 ms a second.
func TestAdaptiveClockOnlySlews(t *testing.T) {
	n := newSimNet(t, Options{Adaptive: true})
	jitter := uint64(1)
	n.late = func(st float64) float64 {
		jitter = jitter*6364136223846793005 + 1442695040888963407
		return float64(jitter>>40) / float64(1<<24) * 40 // 0–40 ms
	}
	var last, lastDelay float64
	var has bool
	check := func(h *Hot) {
		if !n.c.buf.hasLastRender {
			return
		}
		rt, d := n.renderTime(), n.c.Delay()
		if has {
			step := rt - last
			if step < tickMs*minSpeed-1e-6 || step > tickMs*maxSpeed+1e-6 {
				t.Fatalf("at %.1f render time stepped %.3f ms in a %.3f ms tick", n.now, step, tickMs)
			}
			if d < lastDelay-tickMs*shrinkPerMs-1e-9 {
				t.Fatalf("delay fell from %.3f to %.3f in one tick", lastDelay, d)
			}
		}
		if d < MinAdaptiveDelay || d > MaxAdaptiveDelay {
			t.Fatalf("delay %.1f out of bounds", d)
		}
		last, lastDelay, has = rt, d, true
	}
	n.run(3000, check)
	before := n.c.Delay()
	stallFrom := n.next + 200
	base := n.late
	stall := stallEvery(stallFrom, 2000, 300)
	n.late = func(st float64) float64 { return base(st) + stall(st) }
	n.run(8000, check)
	s := n.c.InterpStats()
	if s.BackSteps != 0 {
		t.Errorf("render time stepped back %d times", s.BackSteps)
	}
	if after := n.c.Delay(); after <= before {
		t.Errorf("delay %.1f after stalls, %.1f before: it must grow", after, before)
	}
	// With the delay grown and 150 ms of extrapolation, a 300 ms stall
	// leaves no freeze over 100 ms once the clock has learnt it.
	if s.FreezesOver100ms > 1 {
		t.Errorf("%d freezes over 100 ms: %+v", s.FreezesOver100ms, s)
	}
}

// TestAdaptiveClockResets: a jump of the host's clock by more than 500 ms
// either way is taken at once, and a reset forgets the clock.
func TestAdaptiveClockResets(t *testing.T) {
	for _, jump := range []float64{10000, -10000} {
		n := newSimNet(t, Options{Adaptive: true})
		n.run(1000, nil)
		n.shift = jump
		n.run(300, nil)
		want := n.now - n.base + jump - n.c.Delay()
		if got := n.renderTime(); math.Abs(got-want) > 2*frameMs {
			t.Errorf("jump %v: render time %.1f, want about %.1f", jump, got, want)
		}
	}
	// A reset re-aims render time at once, keeping the delay learnt of
	// the connection: the world starts again on the same network.
	n := newSimNet(t, Options{Adaptive: true})
	n.late = stallEvery(n.next, 1000, 200)
	n.run(3000, nil)
	learnt := n.c.Delay()
	if learnt <= MinAdaptiveDelay {
		t.Fatalf("the stalls taught no delay: %.1f", learnt)
	}
	n.c.Reset()
	n.shift = -5000 // the host's clock starts again too
	n.late = func(float64) float64 { return 0 }
	n.run(200, nil)
	if got, want := n.renderTime(), n.now-n.base-5000-n.c.Delay(); math.Abs(got-want) > 2*frameMs {
		t.Errorf("after a reset render time %.1f, want about %.1f", got, want)
	}
	if d := n.c.Delay(); d < learnt-1 {
		t.Errorf("a reset dropped the delay from %.1f to %.1f", learnt, d)
	}
}

// TestAdaptiveClockHostileTimes: server times that are NaN, infinite or
// wildly off neither panic nor leave render time non-finite once sane
// frames come again.
func TestAdaptiveClockHostileTimes(t *testing.T) {
	n := newSimNet(t, Options{Adaptive: true})
	n.run(500, nil)
	for _, st := range []float64{math.NaN(), math.Inf(1), math.Inf(-1), 1e300, -1e300, 0} {
		n.c.PushFrame(n.frame(st), n.now)
		n.c.Sample(n.now)
		n.c.TakeFrames()
	}
	n.run(1500, nil)
	if rt := n.renderTime(); math.IsNaN(rt) || math.IsInf(rt, 0) || math.Abs(rt-(n.now-n.base-n.c.Delay())) > 600 {
		t.Fatalf("render time %v at %v after hostile frames", rt, n.now)
	}
	if d := n.c.Delay(); d < MinAdaptiveDelay || d > MaxAdaptiveDelay {
		t.Fatalf("delay %v", d)
	}
}

// TestExtrapolationBounded: past the newest frame the actor keeps its
// velocity for 150 ms, then holds; events are not emitted ahead of render
// time; when frames come again the jump is blended out over 100 ms.
func TestExtrapolationBounded(t *testing.T) {
	n := newSimNet(t, Options{Adaptive: true})
	n.run(2000, nil)
	// Stop delivering: everything made from now on waits 2 s.
	n.late = func(float64) float64 { return 2000 }
	newest := n.next - frameMs // frames already made arrive as planned
	var maxShown float64
	n.run(600, func(h *Hot) {
		x, ok := shownX(h)
		if !ok {
			t.Fatal("actor not shown")
		}
		maxShown = max(maxShown, x)
		past := n.renderTime() - newest
		if past <= 0 {
			return
		}
		want := n.x(newest + min(past, maxExtrapolateMs))
		if math.Abs(x-want) > 0.01*math.Abs(want)+1e-3 && math.Abs(x-want) > 0.05 {
			t.Fatalf("at %.1f ms past the newest frame x = %.3f, want %.3f", past, x, want)
		}
	})
	if want := n.x(newest + maxExtrapolateMs); math.Abs(maxShown-want) > 0.05 {
		t.Errorf("held at %.3f, want %.3f (150 ms of motion)", maxShown, want)
	}
	if n.ahead != 0 {
		t.Errorf("%d event frames were handed out ahead of render time", n.ahead)
	}
	s := n.c.InterpStats()
	if s.ExtrapolatedMs < 140 || s.FrozenMs < 100 {
		t.Errorf("extrapolated %.1f ms, frozen %.1f ms: %+v", s.ExtrapolatedMs, s.FrozenMs, s)
	}
	// The stalled frames land: the difference from the held position is
	// taken out over 100 ms, a sixth of it a tick at most (plus the
	// motion), not at once; after that the interpolation is exact.
	n.late = func(float64) float64 { return 0 }
	for i := range n.queued {
		n.queued[i].at = n.now
	}
	prev, _ := shownX(&n.c.hot)
	landed, steps := n.now, 0
	var errAtLanding float64
	n.run(1500, func(h *Hot) {
		x, _ := shownX(h)
		steps++
		if steps == 1 {
			errAtLanding = math.Abs(n.x(n.renderTime()) - prev)
			if errAtLanding < 10*n.speed*frameMs {
				t.Fatalf("the stall left an error of %.3f only: the test needs a large one", errAtLanding)
			}
		}
		if n.now-landed <= blendMs+tickMs {
			if d := math.Abs(x - prev); d > errAtLanding*tickMs/blendMs*1.2+n.speed*tickMs*1.2 {
				t.Fatalf("at %.1f ms after the backlog x jumped by %.3f (error %.3f)", n.now-landed, d, errAtLanding)
			}
		} else if want := n.x(n.renderTime()); math.Abs(x-want) > 0.01 {
			t.Fatalf("%.1f ms after the blend x = %.3f, want %.3f", n.now-landed, x, want)
		}
		prev = x
	})
	if n.ahead != 0 {
		t.Errorf("%d event frames were handed out ahead of render time", n.ahead)
	}
}

// TestAdaptiveSampleAllocatesNothing: pushing, sampling, extrapolating
// and blending allocate nothing once the storage has grown.
func TestAdaptiveSampleAllocatesNothing(t *testing.T) {
	n := newSimNet(t, Options{Adaptive: true})
	n.late = stallEvery(n.next+300, 600, 300)
	// The frames of 8 s are made up front: making them allocates.
	type arrival struct {
		at   float64
		wire []byte
	}
	var plan []arrival
	for st := n.next; st < n.next+8000; st += frameMs {
		at := st + n.base + n.late(st)
		if k := len(plan); k > 0 {
			at = max(at, plan[k-1].at)
		}
		plan = append(plan, arrival{at, n.frame(st)})
	}
	c, now := n.c, n.now
	play := func(ms float64) {
		for end := now + ms; now < end; {
			now += tickMs
			for len(plan) > 0 && plan[0].at <= now {
				c.PushFrame(plan[0].wire, plan[0].at)
				plan = plan[1:]
			}
			c.Sample(now)
			c.TakeFrames()
		}
	}
	play(2000)
	if a := testing.AllocsPerRun(2, func() { play(2000) }); a != 0 {
		t.Fatalf("%v allocations per 2 s of stalls", a)
	}
	if s := c.InterpStats(); s.ExtrapolatedMs == 0 {
		t.Fatalf("the run never extrapolated: %+v", s)
	}
}

// TestHoldFigures: once held, a stall that freezes the world counts
// nothing.
func TestHoldFigures(t *testing.T) {
	n := newSimNet(t, Options{})
	n.run(1000, nil)
	n.c.HoldFigures()
	before := n.c.InterpStats()
	n.late = func(float64) float64 { return 1000 }
	n.run(1000, nil)
	if after := n.c.InterpStats(); after != before {
		t.Fatalf("held figures moved: %+v, then %+v", before, after)
	}
}
