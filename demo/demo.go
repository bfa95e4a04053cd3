// Package demo plays a recorded session back as it looked: the recorded
// server messages go through a real session and game loop, paced by a demo
// clock that can pause, run from a quarter to four times real speed, and
// seek anywhere (by re-simulating from the start, fast, without drawing).
// The window draws the loop of the demo as it draws a live one.
package demo

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"vimpclient/gameloop"
	"vimpclient/session"
)

// speedOf is the playback speed at step i (0.25× to 4×, 1× at step 2).
func speedOf(i int) float64 { return [...]float64{0.25, 0.5, 1, 2, 4}[i] }

// speedSteps is how many speeds there are.
const speedSteps = 5

// simStepMs is the tick interval of a fast re-simulation: one tick per
// snapshot period, enough for every event frame to be emitted in order.
const simStepMs = 1000.0 / 30

// Options configure a Demo.
type Options struct {
	// Lines are the recording's lines (session.ReadRecording).
	Lines []session.RecordedLine
	// Conn is the recorded connection to play ("" = the first one).
	Conn string
	// The recorded auth form is answered as the recorded client answered
	// it, with Nick (when set) for the identity field; Team answers the
	// team vote. So the session's handshake runs as it did.
	Nick, Team string
	// NewLoop builds the game loop for a session; the demo builds a new
	// session and loop whenever it restarts. It should set NoPrediction:
	// the recorded player's own inputs are not replayed.
	NewLoop func(sess *session.Session) *gameloop.Loop
	// AssetsBase is the game's assets base given to the loop's target ("":
	// none; the loop's sound fetcher decides where sounds come from).
	AssetsBase string
	Log        *slog.Logger
}

// Demo is a recording being played. It is not safe for concurrent use:
// everything runs on the goroutine that calls Tick.
type Demo struct {
	opts   Options
	lines  []session.RecordedLine // the connection's server side
	t0     float64                // ms of its first line
	length float64                // ms from the first line to the last
	pos    float64                // demo position, ms from the first line
	speed  int                    // index into speeds
	paused bool
	cur    *run
	last   time.Time // wall time of the previous Tick
}

// run is one pass through the recording: its session, feed and loop.
type run struct {
	feed   *feed
	sess   *session.Session
	loop   *gameloop.Loop
	cancel context.CancelFunc
	done   chan struct{}
	fed    int // lines released to the feed
}

// New selects the connection and starts it paused at the beginning.
func New(o Options) (*Demo, error) {
	if o.NewLoop == nil {
		return nil, errors.New("demo: no loop builder")
	}
	if o.Log == nil {
		o.Log = slog.Default()
	}
	rp, err := session.NewReplay(o.Lines, o.Conn)
	if err != nil {
		return nil, fmt.Errorf("demo: %w", err)
	}
	lines := rp.Lines()
	d := &Demo{opts: o, lines: lines, t0: lines[0].Ms, length: lines[len(lines)-1].Ms - lines[0].Ms, speed: 2}
	d.restart()
	return d, nil
}

// restart begins a new pass at the start of the recording.
func (d *Demo) restart() {
	d.stopRun()
	f := newFeed(d.lines)
	q := session.NewQueue(len(d.lines) + 64)
	auth := session.ReplayAuth(d.opts.Lines, d.opts.Conn, d.opts.Nick)
	auth.GuestNick = "Viewer"
	sess := session.New(session.Options{Auth: auth,
		AutoTeam: true, Team: d.opts.Team, Now: f.Now, Queue: q, Logger: d.opts.Log})
	ctx, cancel := context.WithCancel(context.Background())
	r := &run{feed: f, sess: sess, loop: d.opts.NewLoop(sess), cancel: cancel, done: make(chan struct{})}
	r.loop.SetTarget(session.Target{Host: "demo", AssetsBase: d.opts.AssetsBase})
	go func() {
		defer close(r.done)
		defer f.stop()
		sess.Run(ctx, f, session.Target{Host: "demo"})
	}()
	d.cur, d.pos = r, 0
}

func (d *Demo) stopRun() {
	if d.cur == nil {
		return
	}
	d.cur.cancel()
	d.cur.feed.stop()
	<-d.cur.done
	d.cur = nil
}

// Close ends playback.
func (d *Demo) Close() { d.stopRun() }

// Loop is the game loop the window draws; it changes after a seek back.
func (d *Demo) Loop() *gameloop.Loop { return d.cur.loop }

// Length is the recording's length.
func (d *Demo) Length() time.Duration { return ms(d.length) }

// Position is where playback is.
func (d *Demo) Position() time.Duration { return ms(d.pos) }

func ms(v float64) time.Duration { return time.Duration(v * float64(time.Millisecond)) }

// Speed is the playback speed (1 = as recorded).
func (d *Demo) Speed() float64 { return speedOf(d.speed) }

// Faster and Slower step the speed within 0.25× to 4×.
func (d *Demo) Faster() { d.speed = min(d.speed+1, speedSteps-1) }

// Slower steps the speed down.
func (d *Demo) Slower() { d.speed = max(d.speed-1, 0) }

// SetPaused pauses or resumes; Paused reports it.
func (d *Demo) SetPaused(p bool) { d.paused = p }

// Paused reports whether playback is paused.
func (d *Demo) Paused() bool { return d.paused }

// Ended reports whether playback reached the end of the recording.
func (d *Demo) Ended() bool { return d.pos >= d.length }

// Tick advances the demo clock by the wall time since the last Tick times
// the speed (nothing while paused) and runs one loop tick at the new
// position.
func (d *Demo) Tick(wall time.Time) {
	if !d.last.IsZero() && !d.paused {
		dt := float64(wall.Sub(d.last)) / float64(time.Millisecond)
		d.pos = min(d.length, d.pos+min(max(dt, 0), 250)*speedOf(d.speed))
	}
	d.last = wall
	d.advance(d.pos)
	d.cur.loop.Tick(d.timeAt(d.pos))
}

// timeAt is the recorded wall time at demo position p.
func (d *Demo) timeAt(p float64) time.Time {
	l := d.lines[0]
	return lineTime(l).Add(ms(p))
}

// advance releases every line up to demo position p and waits until the
// session has handled them.
func (d *Demo) advance(p float64) {
	r := d.cur
	n := r.fed
	for n < len(d.lines) && d.lines[n].Ms-d.t0 <= p {
		n++
	}
	if n > r.fed {
		r.feed.Release(n)
		r.fed = n
	}
}

// Seek moves playback to p: forwards by running the recording fast from
// here, backwards by starting over and running fast to p. The loop ticks
// once per snapshot period on the way, so every event reaches the world in
// order; nothing is drawn meanwhile.
func (d *Demo) Seek(p time.Duration) {
	target := min(max(float64(p)/float64(time.Millisecond), 0), d.length)
	if target < d.pos {
		d.restart()
	}
	for at := d.pos; at < target; {
		at = min(at+simStepMs, target)
		d.advance(at)
		d.cur.loop.Tick(d.timeAt(at))
	}
	d.pos = target
}
