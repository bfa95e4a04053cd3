package session

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"vimpclient/protocol"
)

// A flood of frames while the game loop never drains: the queue stays
// bounded, frames are evicted and counted, and every PING is still answered
// from the read loop.
func TestFloodWithStalledGameLoop(t *testing.T) {
	const frames, every = 20000, 1000
	q := NewQueue(64)
	fh := newFakeHost(t, func(ctx context.Context, h *hostConn) {
		h.handshake("Alice")
		frame := make([]byte, 1024)
		frame[0] = 5
		for i := 1; i <= frames; i++ {
			h.sendRaw(websocket.MessageBinary, frame)
			if i%every == 0 {
				h.send(10, itoa(i/every))
				h.expect(8, itoa(i/every))
			}
		}
		_ = h.c.Close(protocol.CloseRoomFull, "")
	})
	_, _, s := runOnce(t, fh, Options{Auth: AuthValues{Nick: "Alice"}, Queue: q})
	st := s.Stats()
	if st.Frames != frames || st.Pongs != frames/every {
		t.Errorf("frames %d pongs %d", st.Frames, st.Pongs)
	}
	evs := q.Drain(nil)
	df, de := q.Dropped()
	if len(evs) > 64 || df < frames-64 || de != 0 {
		t.Errorf("queue held %d, dropped %d frames %d events", len(evs), df, de)
	}
	if evs[len(evs)-1].Kind != EventClosed {
		t.Errorf("last event %v, want the close", evs[len(evs)-1].Kind)
	}
}

// A PING storm coalesces: the latest id is always answered, and the host
// never sees more messages in a second than its 300 limit.
func TestPingStorm(t *testing.T) {
	const pings = 5000
	var mu sync.Mutex
	var arrivals []time.Time
	fh := newFakeHost(t, func(ctx context.Context, h *hostConn) {
		h.handshake("Alice")
		done := make(chan struct{})
		go func() {
			defer close(done)
			for {
				p, pl := h.recv()
				if p < 0 {
					return
				}
				mu.Lock()
				arrivals = append(arrivals, time.Now())
				mu.Unlock()
				if p == protocol.Pong && pl == itoa(pings) {
					return
				}
			}
		}()
		for i := 1; i <= pings; i++ {
			h.send(10, itoa(i))
		}
		<-done
		_ = h.c.Close(protocol.CloseRoomFull, "")
	})
	_, _, s := runOnce(t, fh, Options{Auth: AuthValues{Nick: "Alice"}})
	mu.Lock()
	defer mu.Unlock()
	if n := maxPerSecond(arrivals); n > 300 {
		t.Errorf("%d messages within one second", n)
	}
	if st := s.Stats(); st.Pongs >= pings || st.Pongs < 1 {
		t.Errorf("pongs sent %d for %d pings", st.Pongs, pings)
	}
}

func maxPerSecond(ts []time.Time) int {
	best := 0
	for i, j := 0, 0; j < len(ts); j++ {
		for ts[j].Sub(ts[i]) >= time.Second {
			i++
		}
		best = max(best, j-i+1)
	}
	return best
}

// Input floods are refused loudly once the outbox is full, oversized
// messages are refused before the wire, and the host sees a rate well under
// its limit.
func TestInputFloodAndSizeCap(t *testing.T) {
	const keys = 200
	var mu sync.Mutex
	var arrivals []time.Time
	ready := make(chan struct{})
	fh := newFakeHost(t, func(ctx context.Context, h *hostConn) {
		h.handshake("Alice")
		close(ready)
		got := 0
		for got < keys+OutboxLimit {
			p, _ := h.recv()
			if p < 0 {
				return
			}
			mu.Lock()
			arrivals = append(arrivals, time.Now())
			mu.Unlock()
			if p == protocol.KeysData {
				got++
			}
			if got == keys {
				break
			}
		}
		_ = h.c.Close(protocol.CloseRoomFull, "")
	})
	client, _ := HTTPClient("")
	s := New(Options{Auth: AuthValues{Nick: "Alice"}})
	if _, err := s.Key(protocol.KeyDown, "forward"); !errors.Is(err, ErrNotInGame) {
		t.Errorf("key before the game: %v", err)
	}
	r := &Runner{Session: s, Addr: fh.srv.URL, Client: client, Sleep: func(context.Context, time.Duration) error { return errors.New("stop") }}
	done := make(chan struct{})
	go func() { defer close(done); _, _ = r.Run(context.Background()) }()
	<-ready
	for s.Stats().Furthest < StateMap {
		<-s.Queue().Ready()
	}
	sent := 0
	for i := 0; i < keys; i++ {
		if _, err := s.Key(protocol.KeyDown, "forward"); err != nil {
			t.Fatalf("key %d refused: %v", i, err)
		}
		sent++
	}
	if err := s.Chat(strings.Repeat("x", protocol.MaxClientMessage)); !errors.Is(err, ErrTooBig) {
		t.Errorf("oversized chat: %v", err)
	}
	var full error
	for i := 0; i < 2*OutboxLimit && full == nil; i++ {
		_, full = s.Key(protocol.KeyUp, "forward")
	}
	if !errors.Is(full, ErrOutboxFull) {
		t.Errorf("flood never refused: %v", full)
	}
	<-done
	mu.Lock()
	defer mu.Unlock()
	if n := maxPerSecond(arrivals); n > SendRate+SendBurst+1 {
		t.Errorf("%d messages within one second", n)
	}
}
