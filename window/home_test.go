package window

import (
	"context"
	"image/png"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"vimpclient/demo"
	"vimpclient/gameloop"
	"vimpclient/host"
	"vimpclient/hud/startscreen"
	"vimpclient/render"
	"vimpclient/session"
)

// homeJoin is a Home's Connect for the tests: a session to the choice's
// address (the embedded host's for startscreen.Offline) and its loop; the match
// ends by itself once it played when endAfterPlay is set.
func homeJoin(r *render.Renderer, offline string, watch *playWatch, endAfterPlay bool) func(context.Context, startscreen.Choice) (Match, error) {
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	return func(ctx context.Context, c startscreen.Choice) (Match, error) {
		addr := c.Value
		if c.Kind == startscreen.Offline {
			addr = offline
		}
		mctx, mcancel := context.WithCancel(ctx)
		sess := session.New(session.Options{Auth: session.AuthValues{Nick: "Viewer"}, AutoTeam: true, Logger: quiet})
		m := &testMatch{cancel: mcancel, done: make(chan struct{})}
		opts := gameloop.Options{Session: sess, Log: quiet, Textures: r.Textures(), Interactive: true, AutoTeam: true, Context: mctx}
		if watch != nil {
			opts.Observer = watch
		}
		m.loop = gameloop.New(opts)
		runner := &session.Runner{Session: sess, Addr: addr, Client: http.DefaultClient, OnTarget: m.loop.SetTarget}
		go func() {
			defer close(m.done)
			runner.Run(mctx)
			m.reason = "the host stopped"
		}()
		if endAfterPlay {
			go func() {
				select {
				case <-watch.playing:
					mcancel()
				case <-mctx.Done():
				}
			}()
		}
		return m, nil
	}
}

// homeTest readies a window test in a process of its own: ok is false in
// the parent process (or with no display), which has nothing more to do.
func homeTest(t *testing.T) (ctx context.Context, quiet *slog.Logger, ok bool) {
	t.Helper()
	if err := Available(); err != nil {
		t.Skip(err)
	}
	if !inOwnProcess(t) {
		return nil, nil, false
	}
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	return ctx, slog.New(slog.NewTextHandler(io.Discard, nil)), true
}

// A window pointed at an address nothing answers at opens at once on the
// connecting screen, and its -screenshot (which waits for nothing there)
// pictures it at the window's size while the attempts go on.
func TestHomeConnectingScreenshot(t *testing.T) {
	ctx, quiet, ok := homeTest(t)
	if !ok {
		return
	}
	r := render.New(ctx, render.Options{Log: quiet})
	shot := filepath.Join(t.TempDir(), "connecting.png")
	const addr = "http://127.0.0.1:1"
	w, err := NewHome(ctx, Home{Menu: startscreen.New(nil), Connect: homeJoin(r, "", nil, false),
		Start: &startscreen.Choice{Kind: startscreen.Join, Value: addr}},
		r, Options{Title: "test", Width: 800, Height: 450, NoVsync: true, Log: quiet, Screenshot: shot, ScreenshotAfter: 500 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if !w.home.connecting || w.home.conn.Address != addr {
		t.Fatalf("before the first frame: connecting %v to %q", w.home.connecting, w.home.conn.Address)
	}
	var runErr error
	onMain(func() { runErr = w.Run() })
	if runErr != nil {
		t.Fatalf("window: %v", runErr)
	}
	if !w.home.connecting || w.play != nil {
		t.Fatalf("at the screenshot: connecting %v, play %v", w.home.connecting, w.play)
	}
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cfg, err := png.DecodeConfig(f)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Width < 800 || cfg.Height < 450 {
		t.Fatalf("screenshot %d×%d, want the window's 800×450", cfg.Width, cfg.Height)
	}
}

// Enter on the start screen plays against the offline host: the
// connecting screen, then the match once its host's configuration
// arrived; a match that ends by itself goes back to the start screen,
// which says why.
func TestHomeOfflineAndBack(t *testing.T) {
	ctx, quiet, ok := homeTest(t)
	if !ok {
		return
	}
	srv, err := host.Start(ctx, host.Config{Addr: "127.0.0.1:0", Bots: 1, Log: quiet})
	if err != nil {
		t.Fatal(err)
	}
	r := render.New(ctx, render.Options{Log: quiet})
	watch := &playWatch{playing: make(chan struct{})}
	menu := startscreen.New(nil)
	var w *Window
	pressed, sawConnecting, sawMatch, back := false, false, false, false
	// ScreenshotWhen runs on the window's goroutine every frame: the test
	// presses Enter there and watches the screens go by.
	when := func() bool {
		s := w.home
		switch {
		case !pressed:
			menu.Key(13, false, false)
			pressed = true
		case s.connecting:
			sawConnecting = true
		case w.play != nil:
			sawMatch = true
		case sawMatch && s.match == nil:
			back = true
		}
		return back
	}
	w, err = NewHome(ctx, Home{Menu: menu, Connect: homeJoin(r, srv.URL(), watch, true)},
		r, Options{Title: "test", Width: 800, Height: 450, NoVsync: true, Log: quiet,
			Screenshot: filepath.Join(t.TempDir(), "back.png"), ScreenshotWhen: when})
	if err != nil {
		t.Fatal(err)
	}
	var runErr error
	onMain(func() { runErr = w.Run() })
	if runErr != nil {
		t.Fatalf("window: %v", runErr)
	}
	if !sawConnecting || !sawMatch || !back {
		t.Fatalf("screens: connecting %v, match %v, back %v", sawConnecting, sawMatch, back)
	}
	if menu.Status != "the host stopped" || !menu.Failed {
		t.Errorf("start screen says %q (failed %v), want why the match ended", menu.Status, menu.Failed)
	}
}

// A recording chosen on the start screen plays as a demo in the window;
// closing it (Esc) goes back to the start screen and ends its session.
func TestHomeDemoAndBack(t *testing.T) {
	ctx, quiet, ok := homeTest(t)
	if !ok {
		return
	}
	path := filepath.Join("..", "testdata", "captures", "minigame-dedicated.jsonl")
	r := render.New(ctx, render.Options{Log: quiet})
	var opened *demo.Demo
	openDemo := func(ctx context.Context, p string) (*demo.Demo, error) {
		f, err := os.Open(p)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		read, err := session.ReadRecording(f, session.DefaultRecordingLimits())
		if err != nil {
			return nil, err
		}
		opened, err = demo.New(demo.Options{Lines: read.Lines, Conn: "A", Nick: "Recorder", Team: "team1", Log: quiet,
			NewLoop: func(sess *session.Session) *gameloop.Loop {
				return gameloop.New(gameloop.Options{Session: sess, Log: quiet, Context: ctx, NoPrediction: true,
					Textures: r.Textures(), Interactive: true, AutoTeam: true})
			}})
		return opened, err
	}
	var w *Window
	played, back := false, false
	when := func() bool {
		s := w.home
		switch {
		case s.demo != nil && s.demo.Position() > 0:
			played = true
			s.closeDemo(w) // what Esc does
		case played && w.play == nil && s.demo == nil:
			back = true
		}
		return back
	}
	w, err := NewHome(ctx, Home{Menu: startscreen.New(nil), Connect: homeJoin(r, "", nil, false), Demo: openDemo,
		Start: &startscreen.Choice{Kind: startscreen.Demos, Value: path}},
		r, Options{Title: "test", Width: 800, Height: 450, NoVsync: true, Log: quiet,
			Screenshot: filepath.Join(t.TempDir(), "demo.png"), ScreenshotWhen: when})
	if err != nil {
		t.Fatal(err)
	}
	if opened == nil || w.home.demo != opened {
		t.Fatal("the recording was not opened as the window's demo")
	}
	var runErr error
	onMain(func() { runErr = w.Run() })
	if runErr != nil {
		t.Fatalf("window: %v", runErr)
	}
	if !played || !back {
		t.Fatalf("demo played %v, back on the start screen %v", played, back)
	}
}

// The start screen tells what Notice has to say after why a match ended,
// each time it comes up, and nothing more once Notice is quiet.
func TestStartScreenTellsNotices(t *testing.T) {
	notes := []string{"hosts.json could not be read in full.", ""}
	s := &homeScreen{cfg: Home{Menu: startscreen.New(nil), Notice: func() string {
		n := notes[0]
		notes = notes[1:]
		return n
	}}}
	s.tell("The host closed the match.", false)
	if got := s.cfg.Menu.Status; got != "The host closed the match. hosts.json could not be read in full." || !s.cfg.Menu.Failed {
		t.Fatalf("status %q (failed %v)", got, s.cfg.Menu.Failed)
	}
	s.tell("You left.", false)
	if got := s.cfg.Menu.Status; got != "You left." || s.cfg.Menu.Failed {
		t.Fatalf("status %q (failed %v)", got, s.cfg.Menu.Failed)
	}
}
