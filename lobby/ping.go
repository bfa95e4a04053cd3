package lobby

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// Ping budget. The master allows 10 ping_host a second per address, for all
// sessions from it together, and answers more with rateLimited; a browser
// re-pings a room at most every 5 s. A client stays well under both.
const (
	DefaultPingRate     = 4.0
	DefaultPingInterval = 5 * time.Second
	pingTimeout         = 3 * time.Second
	refusedPause        = 2 * time.Second
	maxLatencies        = 1024 // rooms whose latency is remembered
)

// ErrPingTimeout reports a room that did not answer a ping in time.
var ErrPingTimeout = errors.New("the room did not answer the ping")

type latencyEntry struct {
	rtt    time.Duration
	ok     bool
	at     time.Time
	inWait bool
}

// pinger sends ping_host under a token bucket and a per-room interval, and
// matches each pong_host to its ping by id.
type pinger struct {
	s        *Signal
	rate     float64
	interval time.Duration
	now      func() time.Time

	mu      sync.Mutex
	tokens  float64
	last    time.Time
	pauseTo time.Time
	nextID  int64
	waiting map[int64]chan time.Time
	rooms   map[string]*latencyEntry
}

func newPinger(s *Signal, rate float64, interval time.Duration) *pinger {
	if rate <= 0 {
		rate = DefaultPingRate
	}
	if interval <= 0 {
		interval = DefaultPingInterval
	}
	return &pinger{s: s, rate: rate, interval: interval, now: time.Now, tokens: 1,
		waiting: map[int64]chan time.Time{}, rooms: map[string]*latencyEntry{}}
}

// reserve takes a token at now and returns how long to wait before the ping
// may go (0: at once).
func (p *pinger) reserve(now time.Time) time.Duration {
	burst := max(1, p.rate)
	if !p.last.IsZero() {
		p.tokens = min(burst, p.tokens+now.Sub(p.last).Seconds()*p.rate)
	}
	p.last = now
	var wait time.Duration
	if now.Before(p.pauseTo) {
		wait = p.pauseTo.Sub(now)
	}
	p.tokens--
	if p.tokens < 0 {
		wait = max(wait, time.Duration(-p.tokens/p.rate*float64(time.Second)))
	}
	return wait
}

// ping measures one room. A room pinged less than the interval ago answers
// with its last measure (or ErrPingTimeout if that failed).
func (p *pinger) ping(ctx context.Context, room string) (time.Duration, error) {
	p.mu.Lock()
	now := p.now()
	if e := p.rooms[room]; e != nil && (e.inWait || now.Sub(e.at) < p.interval) {
		rtt, ok := e.rtt, e.ok
		p.mu.Unlock()
		if !ok {
			return 0, ErrPingTimeout
		}
		return rtt, nil
	}
	if len(p.rooms) >= maxLatencies {
		p.evictOldest()
	}
	e := &latencyEntry{at: now, inWait: true}
	p.rooms[room] = e
	wait := p.reserve(now)
	p.nextID++
	id := p.nextID
	ch := make(chan time.Time, 1)
	p.waiting[id] = ch
	p.mu.Unlock()

	defer func() {
		p.mu.Lock()
		delete(p.waiting, id)
		e.inWait = false
		p.mu.Unlock()
	}()
	if wait > 0 {
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return 0, ctx.Err()
		case <-t.C:
		}
	}
	sent := p.now()
	if err := p.s.Send(ctx, PingHostMsg(room, id)); err != nil {
		return 0, err
	}
	t := time.NewTimer(pingTimeout)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return 0, ctx.Err()
	case <-t.C:
		p.mu.Lock()
		e.at, e.ok = p.now(), false
		p.mu.Unlock()
		return 0, fmt.Errorf("room %s: %w", room, ErrPingTimeout)
	case at := <-ch:
		rtt := at.Sub(sent)
		p.mu.Lock()
		e.at, e.ok, e.rtt = at, true, rtt
		p.mu.Unlock()
		return rtt, nil
	}
}

func (p *pinger) evictOldest() {
	var oldest string
	var at time.Time
	for k, e := range p.rooms {
		if !e.inWait && (oldest == "" || e.at.Before(at)) {
			oldest, at = k, e.at
		}
	}
	if oldest != "" {
		delete(p.rooms, oldest)
	}
}

func (p *pinger) pong(m *PongHost) {
	id, ok := pingIDOf(m.PingID)
	if !ok {
		return
	}
	p.mu.Lock()
	ch := p.waiting[id]
	p.mu.Unlock()
	if ch != nil {
		select {
		case ch <- p.now():
		default:
		}
	}
}

// refused pauses pinging after the master said rateLimited.
func (p *pinger) refused() {
	p.mu.Lock()
	p.pauseTo = p.now().Add(refusedPause)
	p.mu.Unlock()
}

func (p *pinger) latency(room string) (time.Duration, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	e := p.rooms[room]
	if e == nil || !e.ok {
		return 0, false
	}
	return e.rtt, true
}
