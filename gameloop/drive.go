package gameloop

import (
	"context"
	"time"

	"vimpclient/session"
)

// maxFinishTicks bounds the ticks after the run for what is left: the
// session's queue holds at most 4096 events, 256 a tick.
const maxFinishTicks = 1024

// RunHeadless drives l without a window: run is the connection (a runner,
// or a replay) on its own goroutine, and the loop ticks tickHz times a
// second, at once whenever the session queues something, and back to back
// while work is carried over (Loop.Behind), until run returns; then it
// ticks for what is left — once only when ctx is done (the end of -for, a
// signal), so that the run ends within a tick whatever the host sent. A
// fatal problem (see Loop.Fatal) ends the connection. now is the loop's
// clock (nil: time.Now; a replay passes its recorded clock).
func RunHeadless(parent context.Context, l *Loop, run func(ctx context.Context) (*session.CloseInfo, error), tickHz int, now func() time.Time) (*session.CloseInfo, error) {
	if now == nil {
		now = time.Now
	}
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	type result struct {
		info *session.CloseInfo
		err  error
	}
	done := make(chan result, 1)
	go func() {
		info, err := run(ctx)
		done <- result{info, err}
	}()
	tk := time.NewTicker(time.Second / time.Duration(max(1, tickHz)))
	var f headlessFrame
	defer tk.Stop()
	finish := func(r result) (*session.CloseInfo, error) {
		// What is left is bounded by the session's queue and the core's:
		// a few ticks' work, unless the run was ended from outside.
		f.due = true
		f.tick(l, now)
		for i := 0; i < maxFinishTicks && l.Behind() && parent.Err() == nil; i++ {
			l.Tick(now())
		}
		return r.info, r.err
	}
	ending := parent.Done()
	for {
		if ending != nil && parent.Err() != nil {
			// The run is over: the connection closes and frames stop
			// coming, which is no freeze of the network's.
			l.Leaving()
			ending = nil
		}
		if l.Behind() {
			// Work carried over from the last tick: tick again at once
			// (a replay's queue is full from the start), but never miss
			// the end of the run.
			select {
			case r := <-done:
				return finish(r)
			case <-tk.C:
				f.due = true
			default:
			}
		} else {
			select {
			case r := <-done:
				return finish(r)
			case <-tk.C:
				f.due = true
			case <-l.sess.Queue().Ready():
			case <-ending:
			}
		}
		f.tick(l, now)
		if l.Fatal() != nil {
			cancel()
		}
	}
}

// headlessFrame is a headless run's display: each of the ticker's ticks
// presents a frame (Loop.Presented), as a window's vsync would; the ticks
// in between (a message that arrived, work carried over) add their time
// to the next frame's.
type headlessFrame struct {
	cost time.Duration
	due  bool // the ticker ticked: this tick presents
}

func (f *headlessFrame) tick(l *Loop, now func() time.Time) {
	start := time.Now()
	l.Tick(now())
	f.cost += time.Since(start)
	if f.due {
		l.Presented(f.cost)
		f.cost, f.due = 0, false
	}
}
