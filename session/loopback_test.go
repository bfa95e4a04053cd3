package session

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"testing"

	"vimpclient/protocol"
)

// chanTransport is an in-process transport: messages in through a channel,
// writes held until the test releases them (a host that reads slowly).
type chanTransport struct {
	in      chan Message
	release chan struct{}
	mu      sync.Mutex
	sent    []string
	notify  chan struct{} // told each write when not nil
}

func (c *chanTransport) Recv(ctx context.Context) (Message, error) {
	select {
	case m, ok := <-c.in:
		if !ok {
			return Message{}, &CloseError{Code: protocol.CloseGoingAway}
		}
		return m, nil
	case <-ctx.Done():
		return Message{}, &CloseError{Code: protocol.CloseAbnormal, Err: ctx.Err()}
	}
}

func (c *chanTransport) Send(ctx context.Context, b []byte, _ bool) error {
	select {
	case <-c.release:
	case <-ctx.Done():
		return ctx.Err()
	}
	c.mu.Lock()
	c.sent = append(c.sent, string(b))
	c.mu.Unlock()
	if c.notify != nil {
		select {
		case c.notify <- struct{}{}:
		default:
		}
	}
	return nil
}

func (c *chanTransport) Close(int, string) error { return nil }

// While the host does not read (every write blocks), the read loop keeps
// reading: PINGs coalesce into one queued PONG, input is refused loudly once
// the outbox is full, and when the host reads again it gets the latest id.
func TestSlowReadingHost(t *testing.T) {
	tr := &chanTransport{in: make(chan Message), release: make(chan struct{})}
	s := New(Options{Auth: AuthValues{Nick: "Alice"}, Queue: NewQueue(32)})
	done := make(chan *CloseInfo)
	go func() { done <- s.Run(context.Background(), tr, Target{}) }()
	feed := func(m string) { tr.in <- Message{Data: []byte(m)} }
	feed("[0," + testConfig + "]")
	feed("[1," + testAuth + "]")
	feed("[2,null]")
	for i := 1; i <= 2000; i++ {
		tr.in <- Message{Binary: true, Data: []byte{5, 5}}
		if i%10 == 0 {
			feed("[10," + strconv.Itoa(i/10) + "]")
		}
	}
	var err error
	for i := 0; i < 2*OutboxLimit && err == nil; i++ {
		_, err = s.Key(protocol.KeyDown, "forward")
	}
	if !errors.Is(err, ErrOutboxFull) {
		t.Errorf("input flood not refused: %v", err)
	}
	// At most one write is in flight; the first four replies wait (one may be
	// taken by the blocked writer), then the single coalesced PONG and the input.
	if p := s.Pending(); p > 3+1+OutboxLimit {
		t.Errorf("%d messages pending", p)
	}
	close(tr.release)
	close(tr.in)
	info := <-done
	if info.Code != protocol.CloseGoingAway {
		t.Errorf("close %+v", info)
	}
	tr.mu.Lock()
	defer tr.mu.Unlock()
	var pongs []string
	for _, m := range tr.sent {
		if m[:3] == "[8," {
			pongs = append(pongs, m)
		}
	}
	// The newest id goes last; besides it, only the PONG the blocked writer
	// may already have taken before the storm ended.
	if len(pongs) == 0 || len(pongs) > 2 || pongs[len(pongs)-1] != "[8,200]" {
		t.Errorf("pongs %v, want the latest id last and at most one older in flight", pongs)
	}
	if st := s.Stats(); st.Frames != 2000 {
		t.Errorf("frames %d", st.Frames)
	}
}
