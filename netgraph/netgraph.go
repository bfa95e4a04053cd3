// Package netgraph is the model behind the net graph overlay: the client
// feeds it once per render tick (and on every pong) and it keeps a bounded
// window of what the network and the prediction did — ping and jitter,
// frames received per second, interpolation buffer depth, late and dropped
// frames, and the prediction error. It holds no graphics; package
// netgraph/view draws it.
package netgraph

import (
	"math"

	"vimpclient/clientcore"
)

// History is the number of ticks the graph keeps (about 4 s at 60 fps).
const History = 240

// Counters are the cumulative frame counts of the client core
// (clientcore.Stats and Core.Buffered), passed each tick.
type Counters struct {
	Received uint64 // frames pushed (decoded or not)
	Late     uint64 // frames behind render time
	Dropped  uint64 // frames lost: undecodable, pruned unemitted, or dropped from the event queue
	Buffered int    // frames in the interpolation buffer now
	Freezes  uint64 // times render time passed the newest frame with nothing left to show
	DelayMs  float64
}

// Prediction is the predictor's view, passed each tick.
type Prediction = clientcore.PredictionLive

// Tick is one column of the graph.
type Tick struct {
	At         float64 // local ms
	Frames     uint32  // frames received during the tick
	Late       uint32  // late frames during the tick
	Dropped    uint32  // frames lost during the tick
	Freezes    uint32  // freezes that began during the tick
	Buffered   int
	Error      float64
	Correction float64
	Visual     float64
	Predicted  bool
}

// Summary is what the overlay prints.
type Summary struct {
	PingMs        float64 // latest round trip, ms (0 before the first pong)
	JitterMs      float64 // smoothed variation of the network delay, ms
	HasPing       bool    // a round trip was measured (PingMs means something)
	HasJitter     bool    // the jitter was measured
	FramesPerSec  float64 // frames received over the last second
	Buffered      int
	LateTotal     uint64
	DroppedTotal  uint64
	LatePerSec    float64
	DroppedPerSec float64
	DelayMs       float64 // the interpolation delay now
	FreezesTotal  uint64
	ErrorNow      float64 // latest prediction error, world units
	ErrorMax      float64 // largest in the window
	Predicting    bool
}

// Graph is the net graph model. It is owned by the game loop's goroutine and
// allocates nothing after New.
type Graph struct {
	ticks     [History]Tick
	head, n   int
	last      Counters
	hasLast   bool
	ping      float64
	jitter    float64
	hasPing   bool
	hasJitter bool
	lateTotal uint64
	dropTotal uint64
	// freezeTotal and delay are the last counters' freezes and delay.
	freezeTotal uint64
	delay       float64
	generation  uint64
}

// New returns an empty graph.
func New() *Graph { return &Graph{} }

// Pong records a round trip of a PING/PONG pair, in ms.
func (g *Graph) Pong(rttMs float64) {
	if math.IsNaN(rttMs) || math.IsInf(rttMs, 0) || rttMs < 0 {
		return
	}
	g.ping, g.hasPing = rttMs, true
}

// SetJitter records the smoothed variation of the network delay, in ms
// (the loop measures it from the arrivals of the host's PINGs).
func (g *Graph) SetJitter(ms float64) {
	if math.IsNaN(ms) || math.IsInf(ms, 0) || ms < 0 {
		return
	}
	g.jitter, g.hasJitter = ms, true
}

// Observe adds one render tick at local time now (ms).
func (g *Graph) Observe(now float64, c Counters, p Prediction) {
	t := Tick{At: now, Buffered: c.Buffered, Error: p.Error, Correction: p.Correction, Visual: p.Visual, Predicted: p.Active}
	if g.hasLast {
		t.Frames = delta(c.Received, g.last.Received)
		t.Late = delta(c.Late, g.last.Late)
		t.Dropped = delta(c.Dropped, g.last.Dropped)
		t.Freezes = delta(c.Freezes, g.last.Freezes)
	}
	g.freezeTotal, g.delay = c.Freezes, c.DelayMs
	g.lateTotal = c.Late
	g.dropTotal = c.Dropped
	g.last, g.hasLast = c, true
	if g.n == History {
		g.head = (g.head + 1) % History
		g.n--
	}
	g.ticks[(g.head+g.n)%History] = t
	g.n++
	g.generation++
}

// delta is the increase of a cumulative counter; a counter that went back
// (the core was rebuilt) counts from zero.
func delta(cur, prev uint64) uint32 {
	if cur < prev {
		return uint32(min(cur, math.MaxUint32))
	}
	return uint32(min(cur-prev, math.MaxUint32))
}

// Len is the number of ticks kept; At returns tick i, oldest first.
func (g *Graph) Len() int           { return g.n }
func (g *Graph) At(i int) *Tick     { return &g.ticks[(g.head+i)%History] }
func (g *Graph) Generation() uint64 { return g.generation }

// Reset forgets the ticks and counters (a new connection).
func (g *Graph) Reset() { *g = Graph{} }

// Summary computes the printed figures over the last second of ticks.
func (g *Graph) Summary() Summary {
	s := Summary{PingMs: g.ping, JitterMs: g.jitter, HasPing: g.hasPing, HasJitter: g.hasJitter,
		LateTotal: g.lateTotal, DroppedTotal: g.dropTotal, DelayMs: g.delay, FreezesTotal: g.freezeTotal}
	if g.n == 0 {
		return s
	}
	newest := g.At(g.n - 1)
	s.Buffered, s.Predicting = newest.Buffered, newest.Predicted
	if newest.Error >= 0 {
		s.ErrorNow = newest.Error
	}
	var frames, late, dropped uint64
	from := newest.At
	for i := g.n - 1; i >= 0; i-- {
		t := g.At(i)
		s.ErrorMax = max(s.ErrorMax, t.Error)
		if newest.At-t.At >= 1000 {
			break
		}
		frames += uint64(t.Frames)
		late += uint64(t.Late)
		dropped += uint64(t.Dropped)
		from = t.At
	}
	// Rates over the span the counted ticks cover (one tick's length is
	// added back: each tick counts the frames since the one before it).
	span := newest.At - from
	if g.n >= 2 {
		span += (newest.At - g.At(0).At) / float64(g.n-1)
	}
	if span > 0 {
		s.FramesPerSec = float64(frames) * 1000 / span
		s.LatePerSec = float64(late) * 1000 / span
		s.DroppedPerSec = float64(dropped) * 1000 / span
	}
	return s
}
