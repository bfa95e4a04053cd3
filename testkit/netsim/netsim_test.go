package netsim

import (
	"bytes"
	"context"
	"io"
	"math/rand/v2"
	"net"
	"testing"
	"time"
)

const ms = time.Millisecond

func TestShaperDelayAndOrder(t *testing.T) {
	draws := []float64{0.5, 1, 0, 0.5} // jitter 0, +40, -40, 0
	i := 0
	s := Shaper{Link: Link{Delay: 100 * ms, Jitter: 40 * ms}, Rand: func() float64 { i++; return draws[i-1] }}
	got := []time.Duration{s.Schedule(0, 10), s.Schedule(10*ms, 10), s.Schedule(20*ms, 10), s.Schedule(200*ms, 10)}
	// 0+100; 10+140; 20+60 would overtake the one before: 150; 200+100.
	want := []time.Duration{100 * ms, 150 * ms, 150 * ms, 300 * ms}
	for k := range want {
		if got[k] != want[k] {
			t.Fatalf("chunk %d at %v, want %v (all %v)", k, got[k], want[k], got)
		}
	}
}

func TestShaperJitterNeverNegative(t *testing.T) {
	s := Shaper{Link: Link{Delay: 10 * ms, Jitter: 50 * ms}, Rand: func() float64 { return 0 }}
	if at := s.Schedule(5*ms, 1); at != 5*ms {
		t.Fatalf("delivered at %v, before it was read plus nothing (5ms)", at)
	}
}

func TestShaperStalls(t *testing.T) {
	// A 300 ms stall every 2 s from 1 s: what is read in [1 s, 1.3 s)
	// leaves at 1.3 s; 150 ms later it arrives.
	s := Shaper{Link: Link{Delay: 150 * ms, StallEvery: 2000 * ms, Stall: 300 * ms, StallPhase: 1000 * ms}}
	cases := []struct{ read, want time.Duration }{
		{900 * ms, 1050 * ms},
		{1000 * ms, 1450 * ms},
		{1299 * ms, 1450 * ms},
		{1300 * ms, 1450 * ms},
		{1500 * ms, 1650 * ms},
		{3100 * ms, 3450 * ms},
	}
	for _, c := range cases {
		if got := s.Schedule(c.read, 1); got != c.want {
			t.Errorf("read at %v: delivered at %v, want %v", c.read, got, c.want)
		}
	}
}

func TestShaperBandwidth(t *testing.T) {
	// 10 000 bytes a second: 1000 bytes take 100 ms; a burst queues.
	s := Shaper{Link: Link{BytesPerSec: 10000}}
	got := []time.Duration{s.Schedule(0, 1000), s.Schedule(0, 1000), s.Schedule(500*ms, 500)}
	want := []time.Duration{100 * ms, 200 * ms, 550 * ms}
	for k := range want {
		if got[k] != want[k] {
			t.Fatalf("got %v, want %v", got, want)
		}
	}
}

// TestProxyRelaysInOrder: bytes go both ways intact and in order through
// a jittery, stalling link (127.0.0.1 only). Nothing here measures time.
func TestProxyRelaysInOrder(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() { // an echo server
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		io.Copy(c, c)
	}()
	link := Link{Delay: 2 * ms, Jitter: 2 * ms, StallEvery: 20 * ms, Stall: 5 * ms, BytesPerSec: 4 << 20}
	p, err := Start(ctx, Config{Target: ln.Addr().String(), Down: link, Up: link, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	c, err := net.Dial("tcp", p.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	sent := make([]byte, 256<<10)
	rng := rand.New(rand.NewPCG(2, 3))
	for i := range sent {
		sent[i] = byte(rng.IntN(256))
	}
	go func() {
		for off := 0; off < len(sent); off += 1000 {
			if _, err := c.Write(sent[off:min(off+1000, len(sent))]); err != nil {
				return
			}
		}
	}()
	got := make([]byte, len(sent))
	if _, err := io.ReadFull(c, got); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, sent) {
		t.Fatal("the bytes came back changed or out of order")
	}
	c.Close()
	cancel()
	p.Wait()
}
