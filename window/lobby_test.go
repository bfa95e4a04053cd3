package window

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"vimpclient/clientcore"
	"vimpclient/gameloop"
	"vimpclient/host"
	"vimpclient/hostlist"
	"vimpclient/hud/serverbrowser"
	"vimpclient/render"
	"vimpclient/session"
)

// testMatch is a session on the embedded host and its loop.
type testMatch struct {
	loop   *gameloop.Loop
	cancel context.CancelFunc
	done   chan struct{}
	reason string
}

func (m *testMatch) Loop() *gameloop.Loop  { return m.loop }
func (m *testMatch) Done() <-chan struct{} { return m.done }
func (m *testMatch) End() (string, bool)   { return m.reason, m.reason != "" }
func (m *testMatch) Stop()                 { m.cancel(); <-m.done }

// playing is closed by the loop's first tick in play.
type playWatch struct {
	once    sync.Once
	playing chan struct{}
}

func (p *playWatch) Event(*gameloop.Loop, *session.Event) {}
func (p *playWatch) Frame(*clientcore.Frame)              {}
func (p *playWatch) Tick(l *gameloop.Loop, _ time.Time) {
	if !l.Stats().PlayAt.IsZero() {
		p.once.Do(func() { close(p.playing) })
	}
}

// testBackend answers nothing and watches the browser from the window's
// goroutine.
type testBackend struct {
	mu    sync.Mutex
	kinds []serverbrowser.RequestKind
	apply func(b *serverbrowser.Browser)
}

func (t *testBackend) Do(r serverbrowser.Request) {
	t.mu.Lock()
	t.kinds = append(t.kinds, r.Kind)
	t.mu.Unlock()
}
func (t *testBackend) Apply(b *serverbrowser.Browser) { t.apply(b) }

// A window opened on the browser joins the room it is given at once, puts
// the match on screen when its host's configuration arrives, and when the
// match ends by itself shows the browser again with the reason, the lists
// asked for anew.
func TestLobbyWindowJoinsAndReturns(t *testing.T) {
	if err := Available(); err != nil {
		t.Skip(err)
	}
	if !inOwnProcess(t) {
		return
	}
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	srv, err := host.Start(ctx, host.Config{Addr: "127.0.0.1:0", Bots: 1, Log: quiet})
	if err != nil {
		t.Fatal(err)
	}
	r := render.New(ctx, render.Options{Log: quiet})
	watch := &playWatch{playing: make(chan struct{})}
	var joined []serverbrowser.Choice
	join := func(ctx context.Context, c serverbrowser.Choice) (Match, error) {
		joined = append(joined, c)
		mctx, mcancel := context.WithCancel(ctx)
		sess := session.New(session.Options{Auth: session.AuthValues{Nick: "Viewer"}, AutoTeam: true, Logger: quiet})
		m := &testMatch{cancel: mcancel, done: make(chan struct{})}
		m.loop = gameloop.New(gameloop.Options{Session: sess, Log: quiet, Textures: r.Textures(), Interactive: true,
			AutoTeam: true, Context: mctx, Observer: watch})
		runner := &session.Runner{Session: sess, Addr: c.Address, Client: http.DefaultClient, OnTarget: m.loop.SetTarget}
		go func() {
			defer close(m.done)
			runner.Run(mctx)
			m.reason = "the host stopped"
		}()
		// The match ends by itself once it played.
		go func() {
			select {
			case <-watch.playing:
				mcancel()
			case <-mctx.Done():
			}
		}()
		return m, nil
	}
	var shownAt, backAt time.Time
	var w *Window
	be := &testBackend{}
	be.apply = func(b *serverbrowser.Browser) {
		if w.play != nil && shownAt.IsZero() {
			shownAt = time.Now()
		}
		if !shownAt.IsZero() && w.play == nil && b.Joining == nil && backAt.IsZero() {
			backAt = time.Now()
			if b.Status != "the host stopped" || !b.StatusError {
				t.Errorf("browser status %q (error %v)", b.Status, b.StatusError)
			}
			cancel() // the window closes
		}
	}
	start := serverbrowser.Choice{Kind: hostlist.Dedicated, Address: srv.URL(), Name: "Embedded"}
	w, err = NewLobby(ctx, Lobby{Browser: serverbrowser.New("http://127.0.0.1:1"), Backend: be, Join: join, Start: &start},
		r, Options{Title: "test", Width: 960, Height: 540, NoVsync: true, Log: quiet})
	if err != nil {
		t.Fatal(err)
	}
	var runErr error
	onMain(func() { runErr = w.Run() })
	if runErr != nil {
		t.Fatalf("window: %v", runErr)
	}
	if len(joined) != 1 || joined[0] != start {
		t.Fatalf("joined %+v", joined)
	}
	if shownAt.IsZero() || backAt.IsZero() {
		t.Fatalf("match shown at %v, browser back at %v", shownAt, backAt)
	}
	if w.JoinTime() <= 0 {
		t.Errorf("join time %v", w.JoinTime())
	}
	be.mu.Lock()
	defer be.mu.Unlock()
	rooms := 0
	for _, k := range be.kinds {
		if k == serverbrowser.RequestRooms {
			rooms++
		}
	}
	if rooms != 2 || !strings.Contains(w.lobby.cfg.Browser.Status, "stopped") {
		t.Errorf("room lists asked %d times (want at the start and on the way back)", rooms)
	}
}
