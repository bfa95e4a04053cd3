// Package netsim is a TCP proxy that makes a loopback connection look like
// a bad network: a delay, jitter that keeps the order of the bytes (as TCP
// does), periodic stalls (how a lost segment and its retransmission look
// to an application: everything sent during the stall arrives at its end)
// and a bandwidth limit. Each direction of each connection has its own
// Link. The schedule is computed by Shaper, a pure function of the times
// it is given, so that it can be tested without a clock; the proxy itself
// is the one place that waits on the wall clock, since waiting is what it
// simulates.
package netsim

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net"
	"sync"
	"time"
)

// Link is how one direction of a connection misbehaves.
type Link struct {
	// Delay is added to every chunk; Jitter adds a uniform draw in
	// [-Jitter, +Jitter] to it (the sum never below zero). A chunk never
	// overtakes the one before it.
	Delay, Jitter time.Duration
	// Every StallEvery, counted from the connection's start plus
	// StallPhase, the link stalls for Stall: chunks read during a stall
	// are sent at its end.
	StallEvery, Stall, StallPhase time.Duration
	// BytesPerSec limits the throughput (0: none).
	BytesPerSec int
}

// Shaper schedules the chunks of one direction. Its zero value with a Link
// set is ready; it is used by one goroutine.
type Shaper struct {
	Link Link
	// Rand draws the jitter in [0, 1) (nil: no jitter).
	Rand func() float64

	last     time.Duration // when the last chunk is delivered
	linkFree time.Duration // when the link has sent the bytes before
}

// Schedule returns when a chunk of n bytes read at t (since the
// connection's start) is delivered.
func (s *Shaper) Schedule(t time.Duration, n int) time.Duration {
	l := &s.Link
	if l.StallEvery > 0 && l.Stall > 0 && t >= l.StallPhase {
		if in := (t - l.StallPhase) % l.StallEvery; in < l.Stall {
			t += l.Stall - in
		}
	}
	if l.BytesPerSec > 0 {
		start := max(t, s.linkFree)
		s.linkFree = start + time.Duration(float64(n)/float64(l.BytesPerSec)*float64(time.Second))
		t = s.linkFree
	}
	d := l.Delay
	if l.Jitter > 0 && s.Rand != nil {
		d += time.Duration((2*s.Rand() - 1) * float64(l.Jitter))
	}
	at := t + max(d, 0)
	at = max(at, s.last) // order is kept
	s.last = at
	return at
}

// Config is a proxy's.
type Config struct {
	// Listen is the address to listen on (default 127.0.0.1:0); Target
	// the address to relay to.
	Listen, Target string
	// Down is the direction from the target to the client, Up the other.
	Down, Up Link
	// Seed seeds the jitter of every connection.
	Seed uint64
	Log  *slog.Logger
}

// Proxy relays connections to its target through the links.
type Proxy struct {
	cfg Config
	ln  net.Listener
	wg  sync.WaitGroup
}

// maxQueued bounds the chunks a direction holds in flight: past it the
// proxy stops reading, as a full window would.
const maxQueued = 4096

// Start listens and relays until ctx is done.
func Start(ctx context.Context, cfg Config) (*Proxy, error) {
	if cfg.Listen == "" {
		cfg.Listen = "127.0.0.1:0"
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	ln, err := net.Listen("tcp", cfg.Listen)
	if err != nil {
		return nil, fmt.Errorf("netsim: listen: %w", err)
	}
	p := &Proxy{cfg: cfg, ln: ln}
	context.AfterFunc(ctx, func() { ln.Close() })
	p.wg.Add(1)
	go p.accept(ctx)
	return p, nil
}

// Addr is the address the proxy listens on.
func (p *Proxy) Addr() string { return p.ln.Addr().String() }

// Wait returns once the proxy stopped listening and every relay ended.
func (p *Proxy) Wait() { p.wg.Wait() }

func (p *Proxy) accept(ctx context.Context) {
	defer p.wg.Done()
	var d net.Dialer
	for n := uint64(0); ; n++ {
		c, err := p.ln.Accept()
		if err != nil {
			if !errors.Is(err, net.ErrClosed) {
				p.cfg.Log.Warn("netsim: accept", "err", err)
			}
			return
		}
		u, err := d.DialContext(ctx, "tcp", p.cfg.Target)
		if err != nil {
			p.cfg.Log.Warn("netsim: dial", "target", p.cfg.Target, "err", err)
			c.Close()
			continue
		}
		start := time.Now()
		rng := rand.New(rand.NewPCG(p.cfg.Seed, n))
		var mu sync.Mutex
		draw := func() float64 { // the two directions share the source
			mu.Lock()
			defer mu.Unlock()
			return rng.Float64()
		}
		context.AfterFunc(ctx, func() { c.Close(); u.Close() })
		p.wg.Add(2)
		go p.relay(u, c, &Shaper{Link: p.cfg.Up, Rand: draw}, start)
		go p.relay(c, u, &Shaper{Link: p.cfg.Down, Rand: draw}, start)
	}
}

type chunk struct {
	b  []byte
	at time.Time
}

// relay copies src to dst, each chunk delivered when sh says.
func (p *Proxy) relay(dst, src net.Conn, sh *Shaper, start time.Time) {
	defer p.wg.Done()
	q := make(chan chunk, maxQueued)
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer dst.Close()
		for c := range q {
			time.Sleep(time.Until(c.at)) // the simulated network holds the chunk
			if _, err := dst.Write(c.b); err != nil {
				src.Close()
				for range q { // drain so that the reader is not blocked
				}
				return
			}
		}
	}()
	buf := make([]byte, 64<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			now := time.Now()
			at := start.Add(sh.Schedule(now.Sub(start), n))
			q <- chunk{append([]byte(nil), buf[:n]...), at}
		}
		if err != nil {
			close(q)
			<-done
			return
		}
	}
}
