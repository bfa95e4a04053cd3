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
	defer tk.Stop()
	finish := func(r result) (*session.CloseInfo, error) {
		// What is left is bounded by the session's queue and the core's:
		// a few ticks' work, unless the run was ended from outside.
		l.Tick(now())
		for i := 0; i < maxFinishTicks && l.Behind() && parent.Err() == nil; i++ {
			l.Tick(now())
		}
		return r.info, r.err
	}
	for {
		if l.Behind() {
			// Work carried over from the last tick: tick again at once
			// (a replay's queue is full from the start), but never miss
			// the end of the run.
			select {
			case r := <-done:
				return finish(r)
			default:
			}
		} else {
			select {
			case r := <-done:
				return finish(r)
			case <-tk.C:
			case <-l.sess.Queue().Ready():
			}
		}
		l.Tick(now())
		if l.Fatal() != nil {
			cancel()
		}
	}
}
