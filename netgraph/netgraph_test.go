package netgraph

import (
	"math"
	"testing"

	"vimpclient/clientcore"
)

func TestRatesAndCounters(t *testing.T) {
	g := New()
	var c Counters
	now := 0.0
	for i := 0; i < 300; i++ { // 5 s at 60 fps, a frame every other tick
		now += 1000.0 / 60
		if i%2 == 0 {
			c.Received++
		}
		if i%30 == 0 {
			c.Late++
		}
		if i == 290 {
			c.Dropped += 2
		}
		c.Buffered = 3 + i%2
		g.Observe(now, c, Prediction{Active: true, Error: float64(i%10) / 10})
	}
	s := g.Summary()
	if math.Abs(s.FramesPerSec-30) > 1 || math.Abs(s.LatePerSec-2) > 0.5 || s.DroppedTotal != 2 || s.LateTotal != 10 {
		t.Fatalf("%+v", s)
	}
	if math.Abs(s.DroppedPerSec-2) > 0.1 || s.Buffered != 4 || !s.Predicting || s.ErrorMax != 0.9 {
		t.Fatalf("%+v", s)
	}
	if g.Len() != History {
		t.Fatalf("window %d", g.Len())
	}
	// A rebuilt core restarts its counters: no negative or huge deltas.
	g.Observe(now+16, Counters{Received: 1}, Prediction{Error: -1})
	if f := g.At(g.Len() - 1).Frames; f != 1 {
		t.Fatalf("frames after a counter reset: %d", f)
	}
	if g.Summary().ErrorNow != 0 {
		t.Fatal("no error sample must read 0")
	}
}

func TestPingJitter(t *testing.T) {
	g := New()
	g.Pong(100)
	g.Pong(120)
	g.SetJitter(2.5)
	if s := g.Summary(); s.PingMs != 120 || s.JitterMs != 2.5 {
		t.Fatalf("%+v", s)
	}
	g.Pong(math.NaN())
	g.Pong(-5)
	g.SetJitter(math.Inf(1))
	if s := g.Summary(); s.PingMs != 120 || s.JitterMs != 2.5 {
		t.Fatalf("bad samples accepted: %+v", s)
	}
}

func TestObserveAllocatesNothing(t *testing.T) {
	g := New()
	now := 0.0
	var c Counters
	allocs := testing.AllocsPerRun(500, func() {
		now += 16
		c.Received++
		g.Observe(now, c, Prediction{})
		_ = g.Summary()
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per tick", allocs)
	}
}

func TestFeeds(t *testing.T) {
	s, err := clientcore.ParseSchema([]byte(`{"version":5,"port":5,"keys":{}}`))
	if err != nil {
		t.Fatal(err)
	}
	c := clientcore.New(s, clientcore.Options{})
	if p := CorePrediction(c); p.Active || p.Error != -1 {
		t.Fatalf("a core without a predicting game: %+v", p)
	}
	c.PushFrame([]byte{1, 2, 3}, 0)
	if k := CoreCounters(c); k.Received != 1 || k.Dropped != 1 {
		t.Fatalf("%+v", k)
	}
}

// TestFreezesAndDelay: the freezes the core counted show per tick and in
// total, with the delay of the last tick.
func TestFreezesAndDelay(t *testing.T) {
	g := New()
	c := Counters{DelayMs: 100}
	for i := 0; i < 10; i++ {
		if i == 3 || i == 7 {
			c.Freezes++
		}
		c.DelayMs = 100 + float64(i)
		g.Observe(float64(i)*16, c, Prediction{Error: -1})
	}
	s := g.Summary()
	if s.FreezesTotal != 2 || s.DelayMs != 109 {
		t.Fatalf("freezes %d delay %v, want 2 and 109", s.FreezesTotal, s.DelayMs)
	}
	var marked []int
	for i := 0; i < g.Len(); i++ {
		if g.At(i).Freezes > 0 {
			marked = append(marked, i)
		}
	}
	if len(marked) != 2 || marked[0] != 3 || marked[1] != 7 {
		t.Fatalf("freeze ticks %v, want [3 7]", marked)
	}
}
