package session

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"vimpclient/protocol"
)

// Outbox limits. Hosts drop everything above 300 messages in a fixed second;
// a token bucket of 100/s with a burst of 30 never exceeds 130 in any second.
const (
	SendRate     = 100 // messages per second, sustained
	SendBurst    = 30
	OutboxLimit  = 512 // queued input messages before Send refuses
	drainTimeout = time.Second
	// closeGrace bounds the close handshake, and a third of it the
	// outbox's last writes, when the client leaves (the end of -for, a
	// signal, a closed window): leaving takes well under a second whatever
	// the host does.
	closeGrace = 300 * time.Millisecond
)

// Errors returned to callers that queue a message.
var (
	ErrTooBig      = fmt.Errorf("message over the host's %d-byte limit", protocol.MaxClientMessage)
	ErrOutboxFull  = errors.New("outgoing queue full: input refused")
	ErrOutboxClose = errors.New("connection closed: message not sent")
)

// limiter is a token bucket driven by explicit times, so it can be tested
// without a clock.
type limiter struct {
	rate, burst float64
	tokens      float64
	last        time.Time
}

func newLimiter(rate, burst int) limiter {
	return limiter{rate: float64(rate), burst: float64(burst), tokens: float64(burst)}
}

// take consumes one token at now, returning how long to wait before the
// message may go (0 when a token was available).
func (l *limiter) take(now time.Time) time.Duration {
	if !l.last.IsZero() {
		l.tokens += now.Sub(l.last).Seconds() * l.rate
		if l.tokens > l.burst {
			l.tokens = l.burst
		}
	}
	l.last = now
	if l.tokens >= 1 {
		l.tokens--
		return 0
	}
	need := (1 - l.tokens) / l.rate
	l.tokens = 0
	l.last = now.Add(time.Duration(need * float64(time.Second)))
	return time.Duration(need * float64(time.Second))
}

type outMsg struct {
	data     []byte
	reliable bool
	pong     bool
}

// outbox is the single writer of a connection. Replies the read loop makes
// (handshake answers, PONG, the team vote) go in a priority lane ahead of
// queued input; each lane is FIFO. Everything passes the rate limiter.
type outbox struct {
	mu      sync.Mutex
	prio    []outMsg
	input   []outMsg
	wake    chan struct{}
	closed  bool
	sent    int
	pongs   int
	busy    int // messages taken by the writer and not yet written
	done    bool
	idle    *sync.Cond
	onSend  func(data []byte)
	sendErr error
}

func (o *outbox) counts() (sent, pongs int) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.sent, o.pongs
}

func newOutbox(onSend func([]byte)) *outbox {
	o := &outbox{wake: make(chan struct{}, 1), onSend: onSend}
	o.idle = sync.NewCond(&o.mu)
	return o
}

// waitIdle blocks until everything queued so far is written or the writer stopped.
func (o *outbox) waitIdle() {
	o.mu.Lock()
	for !o.done && len(o.prio)+len(o.input)+o.busy > 0 {
		o.idle.Wait()
	}
	o.mu.Unlock()
}

func (o *outbox) push(m outMsg, prio bool) error {
	if len(m.data) > protocol.MaxClientMessage {
		return ErrTooBig
	}
	o.mu.Lock()
	switch {
	case o.closed:
		o.mu.Unlock()
		return ErrOutboxClose
	case m.pong && o.replacePong(m):
		// A PONG still waiting is rewritten with the newer id: the host only
		// accepts the latest id, so a PING storm costs one queued message.
	case prio:
		o.prio = append(o.prio, m)
	case len(o.input) >= OutboxLimit:
		o.mu.Unlock()
		return ErrOutboxFull
	default:
		o.input = append(o.input, m)
	}
	o.mu.Unlock()
	select {
	case o.wake <- struct{}{}:
	default:
	}
	return nil
}

func (o *outbox) replacePong(m outMsg) bool {
	for i := range o.prio {
		if o.prio[i].pong {
			o.prio[i] = m
			return true
		}
	}
	return false
}

func (o *outbox) next() (outMsg, bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if len(o.prio) > 0 {
		m := o.prio[0]
		o.prio = o.prio[1:]
		o.busy++
		return m, true
	}
	if len(o.input) > 0 {
		m := o.input[0]
		o.input = o.input[1:]
		o.busy++
		return m, true
	}
	o.idle.Broadcast()
	return outMsg{}, false
}

func (o *outbox) pending() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return len(o.prio) + len(o.input)
}

// run writes queued messages until ctx ends, then (when drain is closed
// before ctx) empties the queue within drainTimeout.
func (o *outbox) run(ctx context.Context, t Transport, drain <-chan struct{}) {
	defer func() {
		o.mu.Lock()
		o.done = true
		o.idle.Broadcast()
		o.mu.Unlock()
	}()
	lim := newLimiter(SendRate, SendBurst)
	draining := false
	for {
		m, ok := o.next()
		if !ok {
			if draining {
				return
			}
			select {
			case <-ctx.Done():
				return
			case <-drain:
				draining = true
				continue
			case <-o.wake:
				continue
			}
		}
		if wait := lim.take(time.Now()); wait > 0 {
			tm := time.NewTimer(wait)
			select {
			case <-ctx.Done():
				tm.Stop()
				return
			case <-tm.C:
			}
		}
		if err := t.Send(ctx, m.data, m.reliable); err != nil {
			o.mu.Lock()
			o.sendErr = err
			o.mu.Unlock()
			return
		}
		if o.onSend != nil {
			o.onSend(m.data)
		}
		o.mu.Lock()
		o.sent++
		o.busy--
		if m.pong {
			o.pongs++
		}
		o.mu.Unlock()
	}
}

func (o *outbox) close() {
	o.mu.Lock()
	o.closed = true
	o.mu.Unlock()
}
