package tankclient

import (
	"math"
	"testing"

	"vimpclient/clientcore"
	"vimpclient/testkit/rowtest"
)

func benchGame(b *testing.B) *Game {
	g, _ := hostSchemaGame(b)
	if !g.pred.HasState() {
		b.Fatal("no state")
	}
	return g
}

// BenchmarkUpdateOverlay is the game's share of one render tick at 60 fps:
// fixed steps with wall contacts, then the overlay record.
func BenchmarkUpdateOverlay(b *testing.B) {
	g := benchGame(b)
	g.ApplyInput(1, true, "forward", 1000)
	g.ApplyInput(2, true, "left", 1000)
	tail := make([]clientcore.Record, 0, 4)
	now := 1000.0
	b.ReportAllocs()
	for b.Loop() {
		now += 1000.0 / 60
		g.Update(now)
		tail, _, _ = g.Overlay(3, true, tail[:0])
	}
	if len(tail) != 1 {
		b.Fatal("no overlay")
	}
}

// BenchmarkReplay250ms is one reconciliation with 250 ms of input the host
// has not acknowledged: rewind, then 30 fixed steps (motion and walls)
// replaying ten key changes.
func BenchmarkReplay250ms(b *testing.B) {
	g := benchGame(b)
	names := []string{"forward", "left", "right", "gunLeft", "back"}
	for i := 0; i < 10; i++ {
		g.ApplyInput(uint32(10+i), i%2 == 0, names[i%len(names)], 1000+float64(i)*25)
	}
	p := &clientcore.PlayerBlock{GameID: 3, LastInputSeq: 9, State: [8]float32{100, 100, 0.3, 50, 10, 0, 0, 1}}
	g.pred.SetLeadClock(false)
	b.ReportAllocs()
	for b.Loop() {
		g.OnServerState(p, 1000, 0, 1250)
	}
	if w := g.pred.LastWindow(); w.Count != 10 {
		b.Fatalf("replayed %d entries", w.Count)
	}
}

func TestUpdateOverlayAllocatesNothing(t *testing.T) {
	g, s := hostSchemaGame(t)
	g.ApplyInput(1, true, "forward", 1000)
	tail := make([]clientcore.Record, 0, 4)
	hot := &clientcore.Hot{Flags: clientcore.HotGame,
		Actors:   []clientcore.Record{{Schema: s.Key("m1"), ID: 5, Fields: m1Row(t, s, 300, 300, 3, 2)}},
		Dynamics: []clientcore.Record{{Schema: s.Key("c1"), ID: 0, Fields: rowtest.Row(t, s.Key("c1"), map[string]float64{"x": 500, "y": 500})}}}
	now := 1000.0
	allocs := testing.AllocsPerRun(200, func() {
		now += 1000.0 / 60
		g.Update(now)
		tail, _, _ = g.Overlay(3, true, tail[:0])
		g.ObserveHot(hot)
		g.OnServerState(&clientcore.PlayerBlock{GameID: 3, State: [8]float32{100, 100}}, now, 0, now+20)
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per tick", allocs)
	}
}

// The frame hooks cost nothing in steady state (no own shots pending).
func TestFrameHooksAllocateNothing(t *testing.T) {
	g, s := hostSchemaGame(t)
	rows := []clientcore.Row{{ID: 3, Fields: m1Row(t, s, 100, 100, 3, 1)}, {ID: 5, Fields: m1Row(t, s, 150, 100, 3, 2)}}
	tr := []clientcore.Row{tracer(t, s, 5)}
	frame := clientcore.Frame{HasPlayer: true, Player: clientcore.PlayerBlock{GameID: 3},
		Blocks: []clientcore.Block{{Schema: s.Key("m1"), Rows: rows}, {Schema: s.Key("w1"), Rows: tr}}}
	ev := clientcore.EventFrame{Blocks: frame.Blocks}
	now := 1000.0
	allocs := testing.AllocsPerRun(200, func() {
		now += 33
		g.BeginReconcile(&frame)
		g.TrackFrame(3, true, &ev)
		g.FilterFrame(&ev, 3, true, now)
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per frame", allocs)
	}
}

// Player blocks and times from the network never hang, panic or put a
// non-finite number into the drawn record.
func FuzzPlayerBlock(f *testing.F) {
	f.Add(float32(100), float32(100), float32(0.5), float32(50), float32(0), float32(1), float32(0.2), float32(1), 1000.0, 0.0, 1016.0, uint32(3))
	f.Add(float32(math.Inf(1)), float32(0), float32(math.NaN()), float32(1e30), float32(-1e30), float32(3e38), float32(0), float32(0), -1e300, 1e300, 5.0, uint32(0))
	f.Add(float32(0), float32(0), float32(1e9), float32(0), float32(0), float32(1e9), float32(0), float32(0), 1e12, -1e12, 0.0, uint32(1<<31))
	f.Fuzz(func(t *testing.T, x, y, a, vx, vy, w, gun, thr float32, serverTime, offset, now float64, seq uint32) {
		g, _ := hostSchemaGame(t)
		g.ApplyInput(1, true, "forward", now-10)
		g.ApplyInput(2, true, "left", now-5)
		p := &clientcore.PlayerBlock{GameID: 3, LastInputSeq: seq, State: [8]float32{x, y, a, vx, vy, w, gun, thr}}
		g.OnServerState(p, serverTime, offset, now)
		g.Update(now)
		g.Update(now + 50)
		tail, cam, ok := g.Overlay(3, true, nil)
		if !ok {
			return
		}
		for _, v := range append(tail[0].Fields, cam[:]...) {
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
				t.Fatalf("non-finite overlay %v from %v", tail[0].Fields, p.State)
			}
		}
	})
}
