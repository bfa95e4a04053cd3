package session

import (
	"testing"
)

// BenchmarkHandleFrame measures the read loop's per-frame path (binary frame
// in, event queued, drained by the game loop): it must not allocate.
func BenchmarkHandleFrame(b *testing.B) {
	s := New(Options{Queue: NewQueue(4096)})
	ob := newOutbox(nil)
	c := &conn{}
	frame := Message{Binary: true, Data: make([]byte, 600)}
	var evs []Event
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		s.handle(c, ob, frame)
		if i%64 == 63 {
			evs = s.Queue().Drain(evs)
		}
	}
}

// BenchmarkHandlePing measures a PING answered while a PONG is still queued
// (the coalescing path).
func BenchmarkHandlePing(b *testing.B) {
	s := New(Options{Queue: NewQueue(4096)})
	ob := newOutbox(nil)
	c := &conn{}
	ping := Message{Data: []byte("[10,12345]")}
	b.ReportAllocs()
	for b.Loop() {
		s.handle(c, ob, ping)
	}
}
