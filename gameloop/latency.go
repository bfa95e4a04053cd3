package gameloop

import (
	"math"
	"runtime/metrics"
	"time"
	"vimpclient/internal/quantile"

	"vimpclient/clientcore"
	"vimpclient/snapschema"
)

// The loop's latency figures, measured from the first frame presented in
// play: how many frames a key press takes to show in the drawn predicted
// pose of the local player, what a frame costs, and the runtime's garbage
// collector pauses and allocations over the same span. A frame is what the
// window draws after one Update, or one headless tick: whoever presents
// calls Loop.Presented with the time the frame's work took. Everything
// here is bounded and allocates nothing per frame.

// maxPressFrames is how many frames a press waits to show: a press the
// pose has not followed by then (a fire key, forward against a wall, a
// dead tank) is counted unseen, not timed; so is one that a later key
// change overtakes (supersedeFrames).
const maxPressFrames = 60

// Frame times are kept in frameBucketMs-wide buckets up to frameBuckets of
// them (20.48 ms); a longer frame goes in the last bucket, whose quantile
// reads as the longest frame seen.
const (
	frameBucketMs = 0.01
	frameBuckets  = 2048
)

// histogram counts values in buckets of one width from 0, the last bucket
// holding everything past the others. Its counts are storage it was given
// (an array of its owner's): it never grows.
type histogram struct {
	width  float64
	counts []uint64
	n      uint64
	max    float64
}

// add counts v (negative and NaN values count as 0).
func (h *histogram) add(v float64) {
	if !(v > 0) {
		v = 0
	}
	i := int(min(v/h.width, float64(len(h.counts)-1)))
	h.counts[i]++
	h.n++
	h.max = max(h.max, v)
}

// quantile is the q-quantile (0 < q ≤ 1) read conservatively: the upper
// edge of the bucket that holds it, or the largest value seen when that
// is less or the bucket is the open last one; 0 with no values.
func (h *histogram) quantile(q float64) float64 {
	i := h.quantileBucket(q)
	if i < 0 {
		return 0
	}
	if i == len(h.counts)-1 {
		return h.max
	}
	return min(float64(i+1)*h.width, h.max)
}

// quantileBucket is the index of the bucket holding the q-quantile (-1
// with no values).
func (h *histogram) quantileBucket(q float64) int { return quantile.Bucket(h.counts, h.n, q) }

// pose is the drawn pose of the local player: its x, y and the fields it
// turns by (those interpolated as angles: hull, turret).
type pose struct {
	v  [maxPoseFields]float32
	n  int
	ok bool
}

const maxPoseFields = 6

// poseOf reads r's pose fields, by name and by interpolation.
func poseOf(r *clientcore.Record) pose {
	var p pose
	for i, f := range r.Schema.Fields {
		if i >= len(r.Fields) || p.n == maxPoseFields {
			break
		}
		if f.Name == "x" || f.Name == "y" || f.Interp == snapschema.InterpLerpAngle {
			p.v[p.n] = r.Fields[i]
			p.n++
		}
	}
	p.ok = p.n > 0
	return p
}

// localPose is the predicted pose the last tick gave the local player:
// the tail record of the local game id that overlays a hot actor of the
// same key (the other tail records are other predicted bodies).
func (l *Loop) localPose() pose {
	if l.core == nil {
		return pose{}
	}
	my, ok := l.core.MyGameID()
	if !ok {
		return pose{}
	}
	h := l.world.Hot()
	for i := range h.Tail {
		r := &h.Tail[i]
		if r.ID != uint32(my) {
			continue
		}
		for j := range h.Actors {
			if a := &h.Actors[j]; a.ID == r.ID && a.Schema == r.Schema {
				return poseOf(r)
			}
		}
	}
	return pose{}
}

// supersedeFrames is how long a press may wait before a later key change
// takes its place: key changes read by the press's own frame or the next
// (a key tapped and let go) still belong to it.
const supersedeFrames = 2

// latency is the loop's measure (see the top of the file).
type latency struct {
	keys     uint64 // key presses the controller handed the prediction
	seenKeys uint64 // keys at the last presented frame
	releases uint64 // key releases handed the prediction
	seenRel  uint64 // releases at the last presented frame
	started  bool   // the first frame in play was presented
	// The last two presented poses; a press is timed from a still pose
	// (the two equal), whose change can only be the press's.
	last, before pose
	pending      bool // a press waits to show
	baseline     pose // the pose presented before it
	waited       int  // frames presented since the press, the press's own first
	unseen       uint64
	press        histogram
	frame        histogram
	pressCounts  [maxPressFrames + 1]uint64
	frameCounts  [frameBuckets]uint64
	gc           gcReading // at the first frame in play
	// startMs is the loop's clock at the first frame in play; steady the
	// collector's figures and steadyFrames the frames presented once
	// settleMs had passed since (steadyTaken).
	startMs      float64
	steadyTaken  bool
	steady       gcReading
	steadyFrames uint64
}

// settleMs is how long after the first frame in play the match's loading
// (the map's bake, the game's sounds and images, the fonts a HUD line
// needs) is taken to be over: the steady figures count from then.
const settleMs = 10_000

func (m *latency) init() {
	m.press = histogram{width: 1, counts: m.pressCounts[:]}
	m.frame = histogram{width: frameBucketMs, counts: m.frameCounts[:]}
}

// keyChange counts a key message the prediction was given: a press (down)
// is what gets timed; a release only ends the wait of a press that moved
// nothing, so that what moves the pose later (a respawn) is not credited to
// a key already let go.
func (m *latency) keyChange(down bool) {
	if down {
		m.keys++
	} else {
		m.releases++
	}
}

// presented takes one frame showing p, whose work took cpu; predicting
// tells whether the game predicted the local player as the frame read its
// keys (a dead or frozen tank ignores them until it plays again).
func (m *latency) presented(p pose, cpu time.Duration, predicting bool, nowMs float64) {
	if !m.started {
		m.started, m.startMs = true, nowMs
		m.gc.read()
	}
	if !m.steadyTaken && nowMs-m.startMs >= settleMs {
		m.steadyTaken, m.steadyFrames = true, m.frame.n
		m.steady.read()
	}
	m.frame.add(float64(cpu) / float64(time.Millisecond))
	if m.releases != m.seenRel {
		m.seenRel = m.releases
		if m.pending && m.waited >= supersedeFrames {
			m.unseen++ // let go without moving anything
			m.pending = false
		}
	}
	if m.keys != m.seenKeys {
		m.seenKeys = m.keys
		if m.pending && m.waited >= supersedeFrames {
			// The player pressed again while the press waited: whatever
			// moves the pose now is this press's doing (the gun was at
			// its stop, the tank against a wall), not the old one's.
			m.unseen++
			m.pending = false
		}
		if !m.pending && predicting && m.last.ok && m.last == m.before {
			m.pending, m.baseline, m.waited = true, m.last, 0
		}
	}
	if m.pending {
		switch {
		case p.ok && p != m.baseline:
			m.press.add(float64(m.waited))
			m.pending = false
		case m.waited >= maxPressFrames:
			m.unseen++
			m.pending = false
		default:
			m.waited++
		}
	}
	m.before, m.last = m.last, p
}

// forget drops the pose and a waiting press: a new connection's player.
func (m *latency) forget() {
	m.last, m.before, m.pending = pose{}, pose{}, false
	m.seenKeys, m.seenRel = m.keys, m.releases
}

// Presented takes one presented frame: the window calls it after each
// Draw, the headless driver after each tick, with the time the frame's
// work took (the window's Update and Draw, the headless tick). Frames
// before the connection reached play are not measured.
func (l *Loop) Presented(cpu time.Duration) {
	if l.rep.playAt.IsZero() {
		l.lat.forget()
		return
	}
	m := &l.lat
	pressed := m.keys != m.seenKeys
	m.presented(l.localPose(), cpu, pressed && l.predicting(), l.clock.now)
}

// predicting reports whether the game steps the local player's prediction
// now (asked only on a press: the report is more than a flag).
func (l *Loop) predicting() bool {
	if l.core == nil {
		return false
	}
	r, ok := l.core.Prediction()
	return ok && r.Live.Active
}

// LatencySummary is the loop's latency figures from the first frame
// presented in play (see Loop.Presented).
type LatencySummary struct {
	// InputToPoseFramesP95 is the p95 of the frames a key press took to
	// show in the drawn predicted pose of the local player: 0 when the
	// frame that read the key showed it. Only presses from a still pose
	// (a moving pose changes whatever the keys do) while the game predicts
	// the player (not dead, not frozen) are timed; -1 with none.
	InputToPoseFramesP95 int `json:"inputToPoseFramesP95"`
	InputToPoseFramesMax int `json:"inputToPoseFramesMax"`
	// Presses counts the presses timed; Unseen those from a still pose
	// that did not move it within 60 frames (fire, a wall), not timed.
	Presses uint64 `json:"presses"`
	Unseen  uint64 `json:"unseen"`
	// Frames counts the frames presented; FrameCPUMsP99 and FrameCPUMsMax
	// are what their work took (0.01 ms buckets, read at the upper edge).
	Frames        uint64  `json:"frames"`
	FrameCPUMsP99 float64 `json:"frameCpuMsP99"`
	FrameCPUMsMax float64 `json:"frameCpuMsMax"`
	// GCPauseMsMax is the longest stop-the-world pause of the collector
	// (the upper edge of the runtime's histogram bucket), GCs the cycles,
	// AllocsPerFrame and AllocBytesPerFrame the heap allocations per
	// frame: all of the process (an embedded host and the network too).
	GCPauseMsMax       float64 `json:"gcPauseMsMax"`
	GCs                uint64  `json:"gcs"`
	AllocsPerFrame     float64 `json:"allocsPerFrame"`
	AllocBytesPerFrame float64 `json:"allocBytesPerFrame"`
	// Steady is the collector's figures from 10 s after the first frame in
	// play on, once the match's loading is over; nil before then.
	Steady *SteadySummary `json:"steady,omitempty"`
}

// SteadySummary is the collector's figures of the frames presented from 10 s
// into play on (see LatencySummary).
type SteadySummary struct {
	Frames             uint64  `json:"frames"`
	GCPauseMsMax       float64 `json:"gcPauseMsMax"`
	GCs                uint64  `json:"gcs"`
	AllocsPerFrame     float64 `json:"allocsPerFrame"`
	AllocBytesPerFrame float64 `json:"allocBytesPerFrame"`
}

// Latency returns the loop's latency figures; nil before a frame was
// presented in play.
func (l *Loop) Latency() *LatencySummary {
	m := &l.lat
	if !m.started {
		return nil
	}
	s := &LatencySummary{InputToPoseFramesP95: -1, InputToPoseFramesMax: -1, Presses: m.press.n, Unseen: m.unseen,
		Frames: m.frame.n, FrameCPUMsP99: round2(m.frame.quantile(0.99)), FrameCPUMsMax: round2(m.frame.max)}
	if m.press.n > 0 {
		s.InputToPoseFramesP95 = m.press.quantileBucket(0.95)
		s.InputToPoseFramesMax = int(m.press.max)
	}
	var now gcReading
	now.read()
	s.GCPauseMsMax, s.GCs, s.AllocsPerFrame, s.AllocBytesPerFrame = now.since(&m.gc, m.frame.n)
	if m.steadyTaken {
		st := &SteadySummary{Frames: m.frame.n - m.steadyFrames}
		st.GCPauseMsMax, st.GCs, st.AllocsPerFrame, st.AllocBytesPerFrame = now.since(&m.steady, st.Frames)
		s.Steady = st
	}
	return s
}

// since returns the collector's figures between base and g over frames
// frames: the longest pause in ms, the cycles, and the allocations and
// their bytes a frame (0 with no frames).
func (g *gcReading) since(base *gcReading, frames uint64) (pauseMs float64, cycles uint64, allocs, bytes float64) {
	pauseMs, cycles = round2(g.maxPauseSince(base)*1000), g.cycles-base.cycles
	if frames > 0 {
		allocs = round2(float64(g.allocs-base.allocs) / float64(frames))
		bytes = round2(float64(g.allocBytes-base.allocBytes) / float64(frames))
	}
	return pauseMs, cycles, allocs, bytes
}

func round2(v float64) float64 { return math.Round(v*100) / 100 }

// gcReading is one reading of the runtime's collector figures.
type gcReading struct {
	samples                    [4]metrics.Sample
	cycles, allocs, allocBytes uint64
}

// The runtime's metrics gcReading reads: the stop-the-world pauses of the
// collector (a histogram in seconds), its cycles, and the heap's
// allocations.
const (
	metricPauses     = "/sched/pauses/total/gc:seconds"
	metricCycles     = "/gc/cycles/total:gc-cycles"
	metricAllocs     = "/gc/heap/allocs:objects"
	metricAllocBytes = "/gc/heap/allocs:bytes"
)

func (g *gcReading) read() {
	for i, name := range [...]string{metricPauses, metricCycles, metricAllocs, metricAllocBytes} {
		g.samples[i].Name = name
	}
	metrics.Read(g.samples[:])
	g.cycles, g.allocs, g.allocBytes = uint64Of(&g.samples[1]), uint64Of(&g.samples[2]), uint64Of(&g.samples[3])
}

func uint64Of(s *metrics.Sample) uint64 {
	if s.Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s.Value.Uint64()
}

// maxPauseSince is the longest pause, in seconds, counted since base: the
// upper edge of the highest bucket that grew (its lower edge when the
// upper is infinite), 0 when none did.
func (g *gcReading) maxPauseSince(base *gcReading) float64 {
	h, b := histOf(&g.samples[0]), histOf(&base.samples[0])
	if h == nil {
		return 0
	}
	for i := len(h.Counts) - 1; i >= 0; i-- {
		grew := h.Counts[i]
		if b != nil && len(b.Counts) == len(h.Counts) {
			grew -= b.Counts[i]
		}
		if grew == 0 {
			continue
		}
		if hi := h.Buckets[i+1]; !math.IsInf(hi, 1) {
			return hi
		}
		return max(h.Buckets[i], 0)
	}
	return 0
}

func histOf(s *metrics.Sample) *metrics.Float64Histogram {
	if s.Value.Kind() != metrics.KindFloat64Histogram {
		return nil
	}
	return s.Value.Float64Histogram()
}
