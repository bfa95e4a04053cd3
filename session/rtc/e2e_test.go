package rtc_test

import (
	"context"
	"log/slog"
	"os"
	"sync"
	"testing"
	"time"

	"vimpclient/host"
	"vimpclient/host/lobbyroom"
	"vimpclient/lobby"
	"vimpclient/session"
	"vimpclient/session/rtc"
	"vimpclient/testkit/fakemaster"
)

var (
	keysOnce sync.Once
	keys     *fakemaster.Keys
)

// testKeys is one RSA key for the whole test binary (generating one is slow
// under the race detector).
func testKeys(t *testing.T) *fakemaster.Keys {
	keysOnce.Do(func() {
		k, err := fakemaster.NewKeys("test-key")
		if err != nil {
			t.Fatal(err)
		}
		keys = k
	})
	return keys
}

func testLog() *slog.Logger {
	if os.Getenv("VIMP_TEST_LOG") != "" {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	return slog.New(slog.DiscardHandler)
}

// hostRoom runs the embedded host and lists it on the master as name.
func hostRoom(t *testing.T, ctx context.Context, fm *fakemaster.Master, name string, cfg host.Config, wrap func(host.Peer) host.Peer) (*host.Server, *lobbyroom.Room) {
	t.Helper()
	if cfg.Log == nil {
		cfg.Log = testLog()
	}
	srv, err := host.Start(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	room, err := lobbyroom.Open(ctx, srv, lobbyroom.Config{Master: fm.URL(), Name: name, Token: testKeys(t).Token("1", "Hoster"),
		Log: cfg.Log, WrapPeer: wrap})
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = room.Run(ctx) }()
	return srv, room
}

// player is a session joined through the master.
type player struct {
	sess   *session.Session
	dialer *rtc.Dialer
	done   chan struct{}
	info   *session.CloseInfo
	err    error
	queued []session.Event // drained and not yet looked at
}

func join(t *testing.T, ctx context.Context, fm *fakemaster.Master, room, token string) *player {
	t.Helper()
	sess := session.New(session.Options{AutoTeam: true, Logger: testLog(), Queue: session.NewQueue(1 << 16)})
	d := rtc.NewDialer(rtc.Config{Addr: fm.URL(), Room: room, Tokens: lobby.TokenSources{Flag: token, FlagMaster: fm.URL()}, Session: sess, Log: testLog()})
	sess.SetPlatform(d)
	p := &player{sess: sess, dialer: d, done: make(chan struct{})}
	r := &session.Runner{Session: sess, Resolve: d.Resolve, Dial: d.Dial,
		Sleep: func(ctx context.Context, _ time.Duration) error { return ctx.Err() }}
	go func() {
		defer close(p.done)
		p.info, p.err = r.Run(ctx)
		_ = d.Close()
	}()
	return p
}

// next returns the first queued event that satisfies pred, keeping the
// events after it for the next call.
func (p *player) next(pred func(session.Event) bool) (session.Event, bool) {
	for len(p.queued) > 0 {
		e := p.queued[0]
		p.queued = p.queued[1:]
		if pred(e) {
			return e, true
		}
	}
	p.queued = p.sess.Queue().Drain(nil)
	for len(p.queued) > 0 {
		e := p.queued[0]
		p.queued = p.queued[1:]
		if pred(e) {
			return e, true
		}
	}
	return session.Event{}, false
}

// until takes the player's events until pred holds (fatal after a while).
func (p *player) until(t *testing.T, what string, pred func(session.Event) bool) session.Event {
	t.Helper()
	deadline := time.NewTimer(30 * time.Second)
	defer deadline.Stop()
	for {
		if e, ok := p.next(pred); ok {
			return e
		}
		select {
		case <-p.sess.Queue().Ready():
		case <-p.done:
			if e, ok := p.next(pred); ok {
				return e
			}
			t.Fatalf("%s: the session ended first (%+v, %v)", what, p.info, p.err)
		case <-deadline.C:
			t.Fatalf("%s: not within 30 s; stats %+v", what, p.sess.Stats())
		}
	}
}

func isState(s session.State) func(session.Event) bool {
	return func(e session.Event) bool { return e.Kind == session.EventState && e.State == s }
}

func TestJoinRoomOverWebRTC(t *testing.T) {
	for _, dialect := range []fakemaster.Dialect{fakemaster.Older, fakemaster.Newer} {
		t.Run([]string{"older", "newer"}[dialect], func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			fm := fakemaster.Start(fakemaster.Config{Dialect: dialect, Keys: testKeys(t)})
			defer fm.Close()
			hostRoom(t, ctx, fm, "Native Room", host.Config{Bots: 2, PingInterval: 50 * time.Millisecond}, nil)
			p := join(t, ctx, fm, "native room", testKeys(t).Token("2", "Alice"))
			p.until(t, "playing", isState(session.StatePlaying))
			if dialect == fakemaster.Older {
				// The host reports its player count to the master.
				wctx, wcancel := context.WithTimeout(ctx, 10*time.Second)
				defer wcancel()
				if err := fm.WaitPlayers(wctx, fm.RoomIDs()[0], 1); err != nil {
					t.Errorf("update_host with one player: %v", err)
				}
			}
			frames := 0
			p.until(t, "frames", func(e session.Event) bool {
				if e.Kind == session.EventFrame {
					frames++
				}
				return frames >= 30
			})
			st := p.sess.Stats()
			if st.Pongs == 0 || st.Ports[10] == 0 {
				t.Errorf("no PING answered: %+v", st)
			}
			cancel()
			<-p.done
		})
	}
}

func lobbyroomOpen(ctx context.Context, srv *host.Server, master, name, token string) (*lobbyroom.Room, error) {
	return lobbyroom.Open(ctx, srv, lobbyroom.Config{Master: master, Name: name, Token: token, Log: testLog()})
}
