package rtcpeer

import (
	"context"
	"io"
	"testing"
)

// frameSource plays one positional frame n times, then ends.
type frameSource struct {
	frame []byte
	left  int
}

func (f *frameSource) ReadDataChannel(p []byte) (int, bool, error) {
	if f.left == 0 {
		return 0, false, io.EOF
	}
	f.left--
	return copy(p, f.frame), false, nil
}

type nullWriter struct{}

func (nullWriter) WriteDataChannel(p []byte, _ bool) (int, error) { return len(p), nil }

// BenchmarkReceiveFrame is the transport's per-frame receive path: a
// 600-byte frame read off the state channel, copied into the slab, queued
// and taken by Recv. Steady state allocates nothing per frame (one slab
// per few hundred frames).
func BenchmarkReceiveFrame(b *testing.B) {
	p := NewPair(nil, true)
	p.endOnce.Do(func() {}) // no peer connection to close here
	src := &frameSource{frame: make([]byte, 600), left: b.N}
	go p.read(src, false)
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m, err := p.Recv(ctx)
		if err != nil || !m.Binary || len(m.Data) != 600 {
			b.Fatalf("%v %v", m, err)
		}
	}
}

// BenchmarkSendPong is the per-PING send path over state.
func BenchmarkSendPong(b *testing.B) {
	p := NewPair(nil, true)
	p.metaRW, p.stateRW = nullWriter{}, nullWriter{}
	p.metaBuf, p.stateBuf = func() uint64 { return 0 }, func() uint64 { return 0 }
	pong := []byte("[8,12345]")
	b.ReportAllocs()
	for b.Loop() {
		if err := p.Send(pong, true, true); err != nil {
			b.Fatal(err)
		}
	}
}
