package gameloop

import (
	"fmt"
	"testing"
	"time"

	"vimpclient/protocol"
	"vimpclient/session"
	"vimpclient/testkit/hostile"
)

// BenchmarkTickEntityFlood is one tick of the default loop while a host
// sends a frame of 500 new entities (and the 500 before them) every tick:
// the scene fills to its limits and refuses the rest, and a tick's cost
// stays flat instead of growing with the entities named so far.
func BenchmarkTickEntityFlood(b *testing.B) {
	cfg, err := protocol.ParseConfig([]byte(fmt.Sprintf(hostile.Config, "")))
	if err != nil {
		b.Fatal(err)
	}
	sess := session.New(session.Options{Logger: quiet(), Queue: session.NewQueue(4096)})
	now := time.Unix(1000, 0)
	l := New(Options{Session: sess, Log: quiet(), Start: now, AutoTeam: true, Rand: func() float64 { return 0.5 }})
	q := sess.Queue()
	q.Push(session.Event{At: now, Kind: session.EventOpen})
	q.Push(session.Event{At: now, Kind: session.EventMessage, Port: protocol.ConfigData, Msg: cfg})
	q.Push(session.Event{At: now, Kind: session.EventMessage, Port: protocol.KeysetData, Msg: protocol.Keyset(1)})
	next := hostile.EntityFrames(500, 500)
	frames := make([][]byte, 256)
	fill := func() {
		for i := range frames {
			frames[i] = next()
		}
	}
	fill()
	// Warm up past the limits: the benchmark measures the flooded steady state.
	for i := range 64 {
		q.Push(session.Event{At: now, Kind: session.EventFrame, Data: frames[i]})
		l.Tick(now)
		now = now.Add(16 * time.Millisecond)
	}
	b.ReportAllocs()
	i := 64
	for b.Loop() {
		if i == len(frames) {
			b.StopTimer()
			fill()
			i = 0
			b.StartTimer()
		}
		q.Push(session.Event{At: now, Kind: session.EventFrame, Data: frames[i]})
		l.Tick(now)
		now = now.Add(16 * time.Millisecond)
		i++
	}
	b.StopTimer()
	if r := l.World().Refused(); r.Rows == 0 {
		b.Fatalf("the flood never reached a limit: %+v", r)
	}
}
