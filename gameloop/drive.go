package gameloop

import (
	"context"
	"time"

	"vimpclient/session"
)

// RunHeadless drives l without a window: run is the connection (a runner,
// or a replay) on its own goroutine, and the loop ticks tickHz times a
// second, and at once whenever the session queues something, until run
// returns; then it ticks once more for what is left. A fatal problem (see
// Loop.Fatal) ends the connection. now is the loop's clock (nil: time.Now;
// a replay passes its recorded clock).
func RunHeadless(ctx context.Context, l *Loop, run func(ctx context.Context) (*session.CloseInfo, error), tickHz int, now func() time.Time) (*session.CloseInfo, error) {
	if now == nil {
		now = time.Now
	}
	ctx, cancel := context.WithCancel(ctx)
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
	for {
		select {
		case r := <-done:
			l.Tick(now())
			return r.info, r.err
		case <-tk.C:
		case <-l.sess.Queue().Ready():
		}
		l.Tick(now())
		if l.Fatal() != nil {
			cancel()
		}
	}
}
