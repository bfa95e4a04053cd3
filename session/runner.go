package session

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"syscall"
	"time"

	"vimpclient/protocol"
	"vimpclient/sameorigin"
)

// Back-off of the close policy: a reconnect 3 s after a close (as the
// browser does), doubling while attempts keep failing before play, capped.
const (
	ReconnectDelay    = 3 * time.Second
	MaxReconnectDelay = 60 * time.Second
)

// Runner connects a Session and applies the close policy: reconnect with
// back-off after kicks (4003/4004/4005) and drops, stay after the policy
// codes (4001/4006/4008/4009). Each attempt starts from scratch, probing
// /config again, as a reloaded browser page would.
type Runner struct {
	Session *Session
	Addr    string       // what the player typed
	Origin  string       // -origin override, "" to derive it
	Client  *http.Client // nil: http.DefaultClient
	// Dial opens a transport; DialWebSocket when nil.
	Dial func(ctx context.Context, t Target) (Transport, error)
	// Resolve finds the target; the /config probe of Addr when nil.
	Resolve func(ctx context.Context) (Target, error)
	// Sleep waits between attempts; a timer honouring ctx when nil.
	Sleep func(ctx context.Context, d time.Duration) error
	// OnTarget is told each resolved target.
	OnTarget func(Target)
	// MaxFailures ends Run after this many attempts in a row failed to
	// reach play (0: no bound). A session that reached play resets the
	// count, so a long run survives any number of drops it recovers from.
	MaxFailures int

	lastVersion string // gameVersion of the previous attempt, to notice a changed game
}

// ErrStay marks an attempt error that no retry can mend (the room is gone,
// the sign-in expired): the Runner stops with it instead of reconnecting.
var ErrStay = errors.New("not retried")

// Stay wraps err so the Runner ends with it (errors.Is(err, ErrStay)).
func Stay(err error) error {
	if err == nil || errors.Is(err, ErrStay) {
		return err
	}
	return &stayError{err}
}

type stayError struct{ err error }

func (e *stayError) Error() string   { return e.err.Error() }
func (e *stayError) Unwrap() []error { return []error{e.err, ErrStay} }

// Run connects until the policy says stay or ctx ends, and returns the last
// close. err is set when no connection could be made before ctx ended, or
// when an attempt failed with an error marked Stay.
//
// A lobby room's host change (CloseHostMigrating) is followed by the next
// attempt at once: the dial waits for the master to name the new host. So
// is a lost host whose room the master still lists (CloseHostLost).
func (r *Runner) Run(ctx context.Context) (*CloseInfo, error) {
	client := r.Client
	if client == nil {
		client = http.DefaultClient
	}
	resolve := r.Resolve
	if resolve == nil {
		resolve = func(ctx context.Context) (Target, error) { return Resolve(ctx, client, r.Addr, r.Origin) }
	}
	dial := r.Dial
	if dial == nil {
		dial = func(ctx context.Context, t Target) (Transport, error) {
			if t.Lobby {
				return nil, Stay(fmt.Errorf("%s is a lobby master: its rooms are joined over WebRTC, which this runner was not given", t.Host))
			}
			return DialWebSocket(ctx, client, t.WSURL, t.Origin)
		}
	}
	sleep := r.Sleep
	if sleep == nil {
		sleep = sleepCtx
	}
	var last *CloseInfo
	var lastErr error
	failures, retries := 0, 0
	lost := "" // the reason of the last close, kept while attempts fail
	for attempt := 1; ; attempt++ {
		if ctx.Err() != nil {
			return last, lastErr
		}
		info, err := r.attempt(ctx, attempt, resolve, dial)
		if errors.Is(err, sameorigin.ErrRedirect) {
			// The address sends the client elsewhere: only the player can
			// choose to go there.
			err = Stay(err)
		}
		if err != nil {
			lastErr = err
			r.Session.noteError("connect attempt %d: %v", attempt, err)
			if errors.Is(err, ErrStay) {
				return last, err
			}
		} else {
			last, lastErr = info, nil
			if !info.Reconnect {
				return info, nil
			}
			if info.Code == protocol.CloseHostMigrating || info.Code == protocol.CloseHostLost || info.Rejoin {
				continue
			}
		}
		if err == nil && r.Session.lastReachedPlaying() {
			failures, retries = 0, 0
		} else {
			failures++
		}
		if r.MaxFailures > 0 && failures >= r.MaxFailures {
			why := lastErr
			if why == nil {
				why = fmt.Errorf("the host closed the connection before play (%d)", last.Code)
			}
			return last, fmt.Errorf("gave up after %d failed attempts: %w", failures, why)
		}
		retries++
		if info != nil {
			lost = info.Reason
		}
		wait := Backoff(failures)
		if r.Session.holdsSeat() {
			// The host holds the seat for a while: ask for it back soon.
			wait = ResumeBackoff(max(failures, 1))
		}
		r.Session.retrying(wait, retries, lost, err)
		if sleep(ctx, wait) != nil {
			return last, lastErr
		}
	}
}

func (r *Runner) attempt(ctx context.Context, n int, resolve func(context.Context) (Target, error), dial func(context.Context, Target) (Transport, error)) (*CloseInfo, error) {
	t, err := resolve(ctx)
	if err != nil {
		return nil, err
	}
	if r.lastVersion != "" && t.GameVersion != "" && t.GameVersion != r.lastVersion {
		r.Session.noteError("the host now runs game version %s (was %s)", t.GameVersion, r.lastVersion)
	}
	if t.GameVersion != "" {
		r.lastVersion = t.GameVersion
	}
	if t.Warning != "" && n == 1 {
		r.Session.noteError("%s", t.Warning)
	}
	if r.OnTarget != nil {
		r.OnTarget(t)
	}
	rec := r.Session.opts.Recorder
	rec.SetConn(connLabel(n))
	rec.Event("connect", connectFields(t))
	tr, err := dial(ctx, t)
	if err != nil {
		rec.Event("error", map[string]any{"error": err.Error()})
		return nil, err
	}
	rec.Event("open", nil)
	return r.Session.Run(ctx, tr, t), nil
}

// Backoff is the wait before the next attempt after failures consecutive
// failed attempts (0 after a session that reached play).
func Backoff(failures int) time.Duration {
	d := ReconnectDelay
	for i := 1; i < failures && d < MaxReconnectDelay; i++ {
		d *= 2
	}
	return min(d, MaxReconnectDelay)
}

// retrying tells the game loop when the next attempt starts and why there
// is no connection, for the reconnecting screen.
func (s *Session) retrying(wait time.Duration, attempt int, lost string, err error) {
	now := s.now()
	ri := &RetryInfo{At: now.Add(wait), Wait: wait, Attempt: attempt, Reason: lost}
	if err != nil {
		ri.Failed = attemptFailure(err)
		if ri.Reason == "" {
			ri.Reason = ri.Failed
		}
	}
	s.queue.Push(Event{At: now, Kind: EventRetry, Retry: ri})
}

// attemptFailure says in words why an attempt could not connect: the
// usual network failures by name, anything else as it is.
func attemptFailure(err error) string {
	var ne net.Error
	var dns *net.DNSError
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return "the host is not accepting connections"
	case errors.As(err, &dns):
		return "the host's name is not known (" + dns.Name + ")"
	case errors.As(err, &ne) && ne.Timeout():
		return "the host did not answer in time"
	}
	return err.Error()
}

func connLabel(n int) string {
	if n == 1 {
		return "A"
	}
	return "A" + strconv.Itoa(n)
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return fmt.Errorf("wait: %w", ctx.Err())
	case <-t.C:
		return nil
	}
}
