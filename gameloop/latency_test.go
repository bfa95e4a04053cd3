package gameloop

import (
	"testing"
	"time"
)

func TestHistogramQuantiles(t *testing.T) {
	var counts [10]uint64
	h := histogram{width: 0.5, counts: counts[:]}
	if got := h.quantile(0.99); got != 0 || h.quantileBucket(0.5) != -1 {
		t.Fatalf("empty: %v, bucket %d", got, h.quantileBucket(0.5))
	}
	// 100 values: 0.1 ×90, 1.2 ×9, 30 ×1 (past the last bucket's edge).
	for range 90 {
		h.add(0.1)
	}
	for range 9 {
		h.add(1.2)
	}
	h.add(30)
	if h.n != 100 || h.max != 30 {
		t.Fatalf("n %d max %v", h.n, h.max)
	}
	for _, c := range []struct{ q, want float64 }{
		{0.5, 0.5},   // the 50th value, 0.1, read at its bucket's upper edge
		{0.90, 0.5},  // the 90th is still 0.1
		{0.91, 1.5},  // the 91st is 1.2, in [1, 1.5)
		{0.99, 1.5},  // the 99th too
		{1.00, 30.0}, // the open last bucket reads the largest value
	} {
		if got := h.quantile(c.q); got != c.want {
			t.Errorf("quantile(%v) = %v, want %v", c.q, got, c.want)
		}
	}
	h.add(-3) // counts as 0
	if counts[0] != 91 {
		t.Errorf("negative value not counted in the first bucket: %v", counts[0])
	}
	// The edge is capped by the largest value seen.
	var c2 [4]uint64
	g := histogram{width: 1, counts: c2[:]}
	g.add(0.25)
	if got := g.quantile(0.95); got != 0.25 {
		t.Errorf("single value: %v", got)
	}
}

func still(x float32) pose { return pose{v: [maxPoseFields]float32{x, 0}, n: 2, ok: true} }

func TestLatencyTimesPressesFromAStillPose(t *testing.T) {
	var m latency
	m.init()
	frame := func(p pose) { m.presented(p, time.Millisecond, true, 0) }
	frame(still(0))
	frame(still(0))
	// A press whose frame shows it: 0 frames.
	m.keyChange(true)
	frame(still(1))
	// Moving: a press now is not timed (the pose changes anyway).
	m.keyChange(true)
	frame(still(2))
	frame(still(2))
	frame(still(2))
	// A press shown one frame after the frame that read it.
	m.keyChange(true)
	frame(still(2))
	frame(still(3))
	frame(still(3))
	// Key changes the press's own frame or the next reads belong to it:
	// one press, shown 2 frames after the first.
	m.keyChange(true)
	m.keyChange(true)
	frame(still(3))
	m.keyChange(true)
	frame(still(3))
	frame(still(4))
	if m.press.n != 3 || m.unseen != 0 {
		t.Fatalf("timed %d, unseen %d; want 3, 0", m.press.n, m.unseen)
	}
	if m.pressCounts[0] != 1 || m.pressCounts[1] != 1 || m.pressCounts[2] != 1 {
		t.Errorf("frames counted %v", m.pressCounts[:4])
	}
	// A press that moves nothing (the gun at its stop) and a later press
	// that moves the pose: the later one is timed, from its own frame, and
	// the first is unseen.
	frame(still(4))
	m.keyChange(true)
	frame(still(4))
	frame(still(4))
	frame(still(4))
	m.keyChange(true)
	frame(still(5))
	if m.press.n != 4 || m.unseen != 1 || m.pressCounts[0] != 2 {
		t.Fatalf("timed %d, unseen %d, counts %v; want 4, 1, two at 0 frames", m.press.n, m.unseen, m.pressCounts[:4])
	}
	// A press that moves nothing (the gun at its stop), let go, then a
	// respawn moving the pose: the press is unseen, the respawn not
	// credited to it; a release alone is never timed.
	frame(still(5))
	m.keyChange(true)
	frame(still(5))
	frame(still(5))
	m.keyChange(false)
	frame(still(5))
	frame(still(5))
	frame(still(9))
	if m.press.n != 4 || m.unseen != 2 || m.pending {
		t.Fatalf("timed %d, unseen %d, pending %v; want 4, 2, false", m.press.n, m.unseen, m.pending)
	}
	m.keyChange(false)
	frame(still(9))
	frame(still(10))
	if m.press.n != 4 || m.unseen != 2 {
		t.Fatalf("a release was timed: %d, unseen %d", m.press.n, m.unseen)
	}
	// A press that never moves the pose is unseen after maxPressFrames.
	frame(still(10))
	m.keyChange(true)
	for range maxPressFrames + 5 {
		frame(still(10))
	}
	if m.unseen != 3 || m.press.n != 4 {
		t.Errorf("unseen %d, timed %d", m.unseen, m.press.n)
	}
	// No pose (no prediction): nothing timed.
	frame(pose{})
	frame(pose{})
	m.keyChange(true)
	frame(pose{})
	frame(pose{})
	if m.press.n != 4 || m.pending {
		t.Errorf("a press without a pose was timed: %d pending %v", m.press.n, m.pending)
	}
	// A press the game does not predict (a dead tank) is not timed.
	frame(still(6))
	frame(still(6))
	m.keyChange(true)
	m.presented(still(6), time.Millisecond, false, 0)
	frame(still(7))
	if m.press.n != 4 || m.pending {
		t.Errorf("a press while not predicting was timed: %d pending %v", m.press.n, m.pending)
	}
	if m.frame.n == 0 || m.frame.quantile(0.99) != 1 {
		t.Errorf("frame times: n %d p99 %v", m.frame.n, m.frame.quantile(0.99))
	}
}

func TestLatencyPresentAllocatesNothing(t *testing.T) {
	var m latency
	m.init()
	m.presented(still(0), 0, true, 0)
	x := float32(0)
	allocs := testing.AllocsPerRun(200, func() {
		m.keyChange(true)
		x++
		m.presented(still(x), 2*time.Millisecond, true, 0)
	})
	if allocs != 0 {
		t.Errorf("%v allocs per frame", allocs)
	}
}

// The steady figures start settleMs after the first frame in play and
// count the frames from there; the collector's figures between two
// readings are per frame.
func TestLatencySteadyStartsAfterTheLoading(t *testing.T) {
	var m latency
	m.init()
	start := 2500.0
	for _, at := range []float64{0, 4000, settleMs - 1} {
		m.presented(still(0), time.Millisecond, true, start+at)
		if m.steadyTaken {
			t.Fatalf("steady at %v ms into play", at)
		}
	}
	m.presented(still(0), time.Millisecond, true, start+settleMs)
	if !m.steadyTaken || m.steadyFrames != 3 {
		t.Fatalf("steady taken %v after %d frames, want after 3", m.steadyTaken, m.steadyFrames)
	}
	m.presented(still(0), time.Millisecond, true, start+settleMs+20000)
	if got := m.frame.n - m.steadyFrames; got != 2 {
		t.Errorf("%d steady frames, want 2", got)
	}
	base := gcReading{cycles: 3, allocs: 100, allocBytes: 1000}
	now := gcReading{cycles: 5, allocs: 160, allocBytes: 1600}
	pause, cycles, allocs, bytes := now.since(&base, 4)
	if pause != 0 || cycles != 2 || allocs != 15 || bytes != 150 {
		t.Errorf("since: pause %v cycles %d allocs %v bytes %v, want 0 2 15 150", pause, cycles, allocs, bytes)
	}
	if _, _, allocs, _ := now.since(&base, 0); allocs != 0 {
		t.Errorf("allocs a frame with no frames: %v", allocs)
	}
}
