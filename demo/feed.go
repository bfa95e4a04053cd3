package demo

import (
	"context"
	"sync"
	"time"

	"vimpclient/protocol"
	"vimpclient/session"
)

// feed is the transport a demo plays through: it hands the session the
// recorded server messages up to the point the demo's clock released, one at
// a time, and Release waits until the session has handled every released
// message (the session reads in lockstep: it asks for the next message only
// after the last one's events are queued). Playback is therefore a plain
// function of the demo position, whatever the speed.
type feed struct {
	lines []session.RecordedLine

	mu       sync.Mutex
	cond     *sync.Cond
	released int  // lines[:released] may be handed out
	next     int  // the next line Recv hands out
	reading  bool // Recv is waiting for a release: everything released is handled
	ended    bool // the session stopped reading
	at       time.Time
	sent     int
}

func newFeed(lines []session.RecordedLine) *feed {
	f := &feed{lines: lines}
	f.cond = sync.NewCond(&f.mu)
	if len(lines) > 0 {
		f.at = lineTime(lines[0])
	}
	return f
}

// lineTime is a line's recorded wall time.
func lineTime(l session.RecordedLine) time.Time {
	return time.UnixMilli(int64(l.T - l.Ms)).Add(time.Duration(l.Ms * float64(time.Millisecond)))
}

// Now is the recorded time of the latest message handed out: the session's
// clock, so its own timed answers follow the recording's time.
func (f *feed) Now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.at
}

// Release lets the session read lines[:n] and waits until it has handled
// them (or stopped reading).
func (f *feed) Release(n int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if n > len(f.lines) {
		n = len(f.lines)
	}
	if n <= f.released {
		return
	}
	f.released = n
	f.reading = false
	f.cond.Broadcast()
	for !f.ended && !(f.reading && f.next >= f.released) {
		f.cond.Wait()
	}
}

// stop ends the feed: a blocked Recv returns, Release no longer waits.
func (f *feed) stop() {
	f.mu.Lock()
	f.ended = true
	f.cond.Broadcast()
	f.mu.Unlock()
}

// Recv implements session.Transport.
func (f *feed) Recv(ctx context.Context) (session.Message, error) {
	stop := context.AfterFunc(ctx, f.stop)
	defer stop()
	f.mu.Lock()
	defer f.mu.Unlock()
	for {
		for !f.ended && f.next >= f.released {
			f.reading = true
			f.cond.Broadcast()
			f.cond.Wait()
		}
		if f.ended {
			return session.Message{}, &session.CloseError{Code: protocol.CloseAbnormal, Err: context.Canceled}
		}
		f.reading = false
		l := f.lines[f.next]
		f.next++
		f.at = lineTime(l)
		if l.Dir == "event" {
			return session.Message{}, &session.CloseError{Code: l.Code, Reason: l.Reason}
		}
		m, ok, err := l.Wire()
		if err != nil {
			return session.Message{}, &session.CloseError{Code: protocol.CloseAbnormal, Err: err}
		}
		if ok {
			return m, nil
		}
	}
}

// Send implements session.Transport: what the client would answer goes
// nowhere.
func (f *feed) Send(context.Context, []byte, bool) error {
	f.mu.Lock()
	f.sent++
	f.mu.Unlock()
	return nil
}

// Close implements session.Transport.
func (f *feed) Close(int, string) error { return nil }

// Lockstep asks the session to handle each message fully before reading the
// next.
func (f *feed) Lockstep() bool { return true }
