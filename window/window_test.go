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

	"vimpclient/gameloop"
	"vimpclient/host"
	"vimpclient/render"
	"vimpclient/session"
)

// The graphics library runs its loop on the main thread, once per process:
// TestMain serves the tests' window runs there.
var mainThread = make(chan func())

func TestMain(m *testing.M) {
	code := make(chan int, 1)
	go func() { code <- m.Run() }()
	for {
		select {
		case f := <-mainThread:
			f()
		case c := <-code:
			os.Exit(c)
		}
	}
}

// onMain runs f on the main thread and waits for it.
func onMain(f func()) {
	done := make(chan struct{})
	mainThread <- func() { defer close(done); f() }
	<-done
}

// The whole window against the embedded host: the game loop ticks in the
// window's Update, the player joins team1 from the flags, and the window
// writes its screenshot and closes by itself.
func TestWindowPlaysAndScreenshots(t *testing.T) {
	if err := Available(); err != nil {
		t.Skip(err)
	}
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	srv, err := host.Start(ctx, host.Config{Addr: "127.0.0.1:0", Bots: 2, Seed: 3, Log: quiet})
	if err != nil {
		t.Fatal(err)
	}
	sess := session.New(session.Options{Auth: session.AuthValues{Nick: "Viewer"}, AutoTeam: true, Team: "team1", Logger: quiet})
	r, err := render.New(ctx, render.Options{AssetsBase: srv.URL() + "/games/tanks/", CacheDir: "-", Log: quiet})
	if err != nil {
		t.Fatal(err)
	}
	loop := gameloop.New(gameloop.Options{Session: sess, Log: quiet, Start: time.Now(), Textures: r.Textures(),
		Interactive: true, AutoTeam: true})
	runner := &session.Runner{Session: sess, Addr: srv.URL(), Client: http.DefaultClient, OnTarget: loop.SetTarget}
	runDone := make(chan struct{})
	go func() { defer close(runDone); runner.Run(ctx) }()
	shot := filepath.Join(t.TempDir(), "window.png")
	w, err := New(ctx, loop, r, Options{Title: "test", Width: 960, Height: 540, NoVsync: true,
		Screenshot: shot, ScreenshotAfter: 6 * time.Second, Log: quiet})
	if err != nil {
		t.Fatal(err)
	}
	var runErr error
	onMain(func() { runErr = w.Run() })
	cancel()
	<-runDone
	if runErr != nil {
		t.Fatalf("window: %v", runErr)
	}
	if st := sess.Stats(); st.Furthest != session.StatePlaying || !st.Player {
		t.Fatalf("the window did not get to play: %+v", st)
	}
	if loop.World().GameID() != "tanks" {
		t.Fatalf("world game %q", loop.World().GameID())
	}
	f, err := os.Open(shot)
	if err != nil {
		t.Fatalf("screenshot not written: %v", err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	// Not a blank window: the map and the HUD put many colours on screen.
	b := img.Bounds()
	colours := map[[3]uint32]bool{}
	for y := b.Min.Y; y < b.Max.Y; y += 7 {
		for x := b.Min.X; x < b.Max.X; x += 7 {
			r, g, bl, _ := img.At(x, y).RGBA()
			colours[[3]uint32{r >> 12, g >> 12, bl >> 12}] = true
		}
	}
	if len(colours) < 20 {
		t.Errorf("screenshot %v has only %d colours", b, len(colours))
	}
}
