package window

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/png"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"vimpclient/assets"
	"vimpclient/audio"
	"vimpclient/audio/mix"
	"vimpclient/gameloop"
	"vimpclient/host"
	"vimpclient/host/sounds"
	"vimpclient/render"
	"vimpclient/session"
)

// childEnv marks a test process started to run one window test alone.
const childEnv = "VIMP_WINDOW_TEST_CHILD"

// inOwnProcess runs the test t in a test process of its own (the graphics
// library runs one game per process, and other tests run their windows in
// this one) and reports whether the caller is that process: the parent
// runs the child, fails t with its output if it fails, and returns false.
func inOwnProcess(t *testing.T) bool {
	t.Helper()
	if os.Getenv(childEnv) == t.Name() {
		return true
	}
	args := []string{"-test.run=^" + t.Name() + "$"}
	if testing.Verbose() {
		args = append(args, "-test.v") // its figures shown when it passes too
	}
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), childEnv+"="+t.Name())
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s in its own process: %v\n%s", t.Name(), err, out)
	}
	if testing.Verbose() {
		t.Logf("%s in its own process:\n%s", t.Name(), out)
	}
	return false
}

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

// windowRun is one window test's run: what played and its screenshot.
type windowRun struct {
	sess    *session.Session
	loop    *gameloop.Loop
	r       *render.Renderer
	sounds  *audio.Manager
	shot    image.Image
	summary []byte // the window's -summary line
}

// playAndScreenshot runs the whole window against a host started with hc:
// the game loop ticks in the window's Update, the player joins team1 from
// the flags, and the window writes its screenshot, once the game plays
// and every image and sound has loaded, and closes by itself.
func playAndScreenshot(t *testing.T, hc host.Config) windowRun {
	t.Helper()
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	hc.Addr, hc.Sound, hc.Log = "127.0.0.1:0", sounds.File, quiet
	srv, err := host.Start(ctx, hc)
	if err != nil {
		t.Fatal(err)
	}
	sess := session.New(session.Options{Auth: session.AuthValues{Nick: "Viewer"}, AutoTeam: true, Team: "team1", Logger: quiet})
	// One downloader for the game's images and sounds, as the client wires it.
	dl, err := assets.New(assets.Options{Client: http.DefaultClient, Base: srv.URL() + "/games/tanks/", Log: quiet})
	if err != nil {
		t.Fatal(err)
	}
	r := render.New(ctx, render.Options{Assets: dl, Log: quiet})
	snd := audio.NewManager(mix.New(mix.Options{}), audio.Options{Logger: quiet})
	t.Cleanup(snd.Destroy)
	loop := gameloop.New(gameloop.Options{Session: sess, Log: quiet, Start: time.Now(), Textures: r.Textures(),
		Sounds: snd, SoundFetcher: func(session.Target) (audio.Fetcher, error) { return dl.Sounds(), nil },
		Interactive: true, AutoTeam: true})
	runner := &session.Runner{Session: sess, Addr: srv.URL(), Client: http.DefaultClient, OnTarget: loop.SetTarget}
	runDone := make(chan struct{})
	go func() { defer close(runDone); runner.Run(ctx) }()
	shot := filepath.Join(t.TempDir(), "window.png")
	var summary bytes.Buffer
	w, err := New(ctx, loop, r, Options{Title: "test", Width: 960, Height: 540, NoVsync: true,
		Screenshot: shot, ScreenshotAfter: 2 * time.Second, Log: quiet, Summary: &summary,
		// The sounds come in while the game plays, and the game's
		// textures and the map's chunks are made in the background: wait
		// for them too.
		ScreenshotWhen: func() bool {
			_, loading := r.Loading()
			return !loading && !loop.World().Preparing() && !loop.Stats().PlayAt.IsZero() && !r.MapUnbaked()
		}})
	if err != nil {
		t.Fatal(err)
	}
	playToEnd(t, w, cancel, runDone)
	if st := sess.Stats(); st.Furthest != session.StatePlaying || !st.Player {
		t.Fatalf("the window did not get to play: %+v", st)
	}
	if loop.World().GameID() != "tanks" {
		t.Fatalf("world game %q", loop.World().GameID())
	}
	// The window says where the screenshot went (shown for toastFor).
	if w.toast != "Screenshot saved: "+shot {
		t.Errorf("toast %q", w.toast)
	}
	// The screenshot waited for play, the images and the ten sounds of the
	// catalog, all through the one downloader.
	if p, loading := r.Loading(); loading || p.Failed != 0 || p.Total < 11 {
		t.Errorf("assets %+v (loading %v), want the images and the 10 sounds loaded", p, loading)
	}
	if _, ok := snd.SoundConfig("shot"); !ok {
		t.Error("the shot sound did not load through the downloader")
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
	return windowRun{sess: sess, loop: loop, r: r, sounds: snd, shot: img, summary: summary.Bytes()}
}

// playToEnd runs w on the main thread until it closes, then ends the
// match's context and waits for its session runner (runDone); the test
// fails if the window ended in an error.
func playToEnd(t *testing.T, w *Window, cancel context.CancelFunc, runDone <-chan struct{}) {
	t.Helper()
	var runErr error
	onMain(func() { runErr = w.Run() })
	cancel()
	<-runDone
	if runErr != nil {
		t.Fatalf("window: %v", runErr)
	}
}

// colours counts the distinct colours (4 bits a channel) of img's pixels
// in rect, sampled every step pixels.
func colours(img image.Image, rect image.Rectangle, step int) int {
	seen := map[[3]uint32]bool{}
	rect = rect.Intersect(img.Bounds())
	for y := rect.Min.Y; y < rect.Max.Y; y += step {
		for x := rect.Min.X; x < rect.Max.X; x += step {
			r, g, b, _ := img.At(x, y).RGBA()
			seen[[3]uint32{r >> 12, g >> 12, b >> 12}] = true
		}
	}
	return len(seen)
}

// The whole window against the embedded host.
func TestWindowPlaysAndScreenshots(t *testing.T) {
	if err := Available(); err != nil {
		t.Skip(err)
	}
	run := playAndScreenshot(t, host.Config{Bots: 2, Seed: 3})
	// Not a blank window: the map and the HUD put many colours on screen.
	if n := colours(run.shot, run.shot.Bounds(), 7); n < 20 {
		t.Errorf("screenshot %v has only %d colours", run.shot.Bounds(), n)
	}
	// The summary has the match's latency figures and the window's memory.
	var sum gameloop.WindowSummary
	if err := json.Unmarshal(run.summary, &sum); err != nil {
		t.Fatalf("summary %q: %v", run.summary, err)
	}
	if sum.Latency == nil || sum.Latency.Frames == 0 {
		t.Errorf("summary latency %+v", sum.Latency)
	}
	m := sum.Memory
	switch {
	case m == nil:
		t.Fatal("no memory in the summary")
	case m.GPUImageBytesMax < 960*540*4: // the screen at least
		t.Errorf("GPU images %d bytes", m.GPUImageBytesMax)
	case m.GoHeapObjectBytesMax == 0 || m.GoRuntimeBytesMax < m.GoHeapObjectBytesMax:
		t.Errorf("Go runtime %d bytes, heap objects %d", m.GoRuntimeBytesMax, m.GoHeapObjectBytesMax)
	case (runtime.GOOS == "linux" || runtime.GOOS == "darwin") && m.PeakRSSBytes < m.GoHeapObjectBytesMax:
		t.Errorf("peak RSS %d bytes, under the heap's %d", m.PeakRSSBytes, m.GoHeapObjectBytesMax)
	}
}

func TestLoadingText(t *testing.T) {
	for p, want := range map[assets.Progress]string{
		{}:                               "Preparing the game", // no file: the textures being drawn
		{Done: 3, Total: 12}:             "Loading assets: 3 / 12 files (25%)",
		{Done: 11, Failed: 2, Total: 12}: "Loading assets: 11 / 12 files (91%), 2 unavailable",
		{Done: 12, Total: 12}:            "Preparing the game", // all here: the map being baked
	} {
		if got := loadingText(p); got != want {
			t.Errorf("loadingText(%+v) = %q, want %q", p, got, want)
		}
	}
}

// While a game's assets load, the window shows the loading bar at the
// downloader's fraction with the file count under it, over a black screen.
func TestLoadingScreen(t *testing.T) {
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
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/games/tanks/img/a.png" {
			w.Write(onePixelPNG())
			return
		}
		http.NotFound(w, r)
	}))
	defer srv.Close()
	dl, err := assets.New(assets.Options{Client: srv.Client(), Base: srv.URL + "/games/tanks/", Log: quiet})
	if err != nil {
		t.Fatal(err)
	}
	// Four files asked for: one loaded, one missing, two still to come.
	dl.Expect(ctx, assets.Image, "img/a.png", "img/b.png", "img/c.png", "img/d.png")
	dl.Fetch(ctx, assets.Image, "img/a.png")
	dl.Fetch(ctx, assets.Image, "img/b.png")
	if p := dl.Progress(); p != (assets.Progress{Done: 2, Failed: 1, Total: 4}) {
		t.Fatalf("progress %+v", p)
	}
	r := render.New(ctx, render.Options{Assets: dl, Log: quiet})
	sess := session.New(session.Options{Logger: quiet})
	loop := gameloop.New(gameloop.Options{Session: sess, Log: quiet, Textures: r.Textures()})
	shot := filepath.Join(t.TempDir(), "loading.png")
	w, err := New(ctx, loop, r, Options{Title: "test", Width: 960, Height: 540, NoVsync: true,
		Screenshot: shot, ScreenshotAfter: 300 * time.Millisecond, Log: quiet,
		ScreenshotWhen: func() bool { return true }}) // the loading bar itself
	if err != nil {
		t.Fatal(err)
	}
	var runErr error
	onMain(func() { runErr = w.Run() })
	if runErr != nil {
		t.Fatalf("window: %v", runErr)
	}
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if d := os.Getenv("WINDOW_SHOT_DIR"); d != "" {
		b, _ := os.ReadFile(shot)
		os.WriteFile(filepath.Join(d, "loading.png"), b, 0o644)
	}
	b := img.Bounds()
	scale := float64(b.Dx()) / 960 // the device scale factor
	grey := func(x, y float64) uint32 {
		r, _, _, _ := img.At(int(x*scale), int(y*scale)).RGBA()
		return r >> 8
	}
	// The bar: 40% of the width, centred, 8 px high at mid-height; half full.
	barX, barW, barY := 960*0.3, 960*0.4, 540/2+4.0
	if v := grey(barX+barW*0.25, barY); v < 240 {
		t.Errorf("the done half of the bar is %d, want white", v)
	}
	if v := grey(barX+barW*0.75, barY); v < 50 || v > 80 {
		t.Errorf("the rest of the bar is %d, want dark grey", v)
	}
	if v := grey(20, 20); v != 0 {
		t.Errorf("the screen around the bar is %d, want black", v)
	}
	lit, minX, maxX := 0, 960.0, 0.0
	for y := barY + 8; y < barY+30; y++ {
		for x := 0.0; x < 960; x++ {
			if grey(x, y) > 120 {
				lit++
				minX, maxX = min(minX, x), max(maxX, x)
			}
		}
	}
	if lit < 50 || minX < barX || maxX > barX+barW || (minX+maxX)/2 < 440 || (minX+maxX)/2 > 520 {
		t.Errorf("the count under the bar: %d lit px from x %v to %v, want a centred line of text", lit, minX, maxX)
	}
}

// onePixelPNG is a valid 1×1 PNG image.
func onePixelPNG() []byte {
	var b bytes.Buffer
	img := image.NewRGBA(image.Rect(0, 0, 1, 1))
	_ = png.Encode(&b, img)
	return b.Bytes()
}
