package window

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"vimpclient/hud"

	"vimpclient/gameloop"
	"vimpclient/host"
	"vimpclient/render"
	"vimpclient/session"
)

// keysDisplayEnv names the display of a test window that takes key
// presses: one X server of its own, so that no other test's window (the
// suite shares one display) can hold the keyboard's focus.
const keysDisplayEnv = "VIMP_WINDOW_TEST_KEYS_DISPLAY"

// A real key press, sent through the X server's input extension to the
// focused window as a player's keyboard sends it, shows in the window's
// drawn predicted pose of the own tank at most one frame after the frame
// that read it, and the window's summary says so. The tank is alone on its
// map (no bots to push it), so a press from rest is timed; the presses are
// turns (A and D in the game's key set), which stop when let go.
//
// It runs when VIMP_KEYS_TEST=1 only: in some runs the presses after the
// first stop being timed (neither timed nor unseen: the loop never saw
// the tank at rest, or the keys stopped reaching the window), a cause not
// yet found, and a test that fails by chance would hide real failures.
func TestWindowKeyPressShowsWithinAFrame(t *testing.T) {
	if os.Getenv("VIMP_KEYS_TEST") != "1" {
		t.Skip("set VIMP_KEYS_TEST=1 to type into a window of its own")
	}
	if os.Getenv(childEnv) != t.Name() {
		display := ownXServer(t)
		// The child's display is the test's own server, which takes any
		// local client: no cookie of the shared display's.
		env := []string{childEnv + "=" + t.Name(), "DISPLAY=" + display, keysDisplayEnv + "=" + display}
		for _, kv := range os.Environ() {
			if k, _, _ := strings.Cut(kv, "="); k != "DISPLAY" && k != "XAUTHORITY" && k != childEnv {
				env = append(env, kv)
			}
		}
		cmd := exec.Command(os.Args[0], "-test.run=^"+t.Name()+"$", "-test.v")
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s in its own process: %v\n%s", t.Name(), err, out)
		}
		for _, l := range strings.Split(string(out), "\n") {
			if strings.Contains(l, "latency {") {
				t.Log(strings.TrimSpace(l))
			}
		}
		return
	}
	if os.Getenv(keysDisplayEnv) == "" {
		t.Fatal("the child runs on the parent's X server")
	}
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	srv, err := host.Start(ctx, host.Config{Addr: "127.0.0.1:0", Bots: 0, Seed: 3, Log: quiet})
	if err != nil {
		t.Fatal(err)
	}
	sess := session.New(session.Options{Auth: session.AuthValues{Nick: "Keys"}, AutoTeam: true, Team: "team1", Logger: quiet})
	// Each tick (one a frame: the window ticks the loop in its Update)
	// publishes what the driver waits on.
	var frames, timed, presses atomic.Int64
	var inPlay, predicted atomic.Bool
	tick := make(chan struct{}, 1)
	ents := gameloop.NewEntities()
	ents.OnTick = func(l *gameloop.Loop, _ time.Time) {
		if s := l.Latency(); s != nil {
			timed.Store(int64(s.Presses + s.Unseen))
			presses.Store(int64(s.Presses))
			inPlay.Store(true)
		}
		if c := l.Core(); c != nil {
			r, ok := c.Prediction()
			predicted.Store(ok && r.Live.Active)
		}
		frames.Add(1)
		select {
		case tick <- struct{}{}:
		default: // the driver has a tick to read already
		}
	}
	loop := gameloop.New(gameloop.Options{Session: sess, Log: quiet, Start: time.Now(), Interactive: true, AutoTeam: true, Observer: ents})
	runner := &session.Runner{Session: sess, Addr: srv.URL(), Client: http.DefaultClient, OnTarget: loop.SetTarget}
	runDone := make(chan struct{})
	go func() { defer close(runDone); runner.Run(ctx) }()
	const title = "vimp key presses"
	var summary bytes.Buffer
	w, err := New(ctx, loop, render.New(ctx, render.Options{Log: quiet}), Options{Title: title, Width: 960, Height: 540,
		NoVsync: true, Log: quiet, Summary: &summary})
	if err != nil {
		t.Fatal(err)
	}
	// The driver closes the window (by ending its context) when it is done.
	driveErr := make(chan error, 1)
	go func() {
		err := driveTurns(ctx, title, tick, &inPlay, &predicted, &frames, &timed, &presses)
		cancel()
		driveErr <- err
	}()
	playToEnd(t, w, cancel, runDone)
	if err := <-driveErr; err != nil {
		t.Fatal(err)
	}
	var sum gameloop.WindowSummary
	if err := json.Unmarshal(summary.Bytes(), &sum); err != nil {
		t.Fatalf("summary %q: %v", summary.Bytes(), err)
	}
	s := sum.Latency
	if s == nil {
		t.Fatal("no latency in the summary")
	}
	if s.Presses < wantPresses {
		t.Fatalf("%d presses timed (%d unseen), want %d", s.Presses, s.Unseen, wantPresses)
	}
	if s.InputToPoseFramesP95 < 0 || s.InputToPoseFramesP95 > 1 || s.InputToPoseFramesMax > 1 {
		t.Errorf("input to pose: p95 %d max %d frames, want at most 1", s.InputToPoseFramesP95, s.InputToPoseFramesMax)
	}
	t.Logf("latency %+v", *s)
}

// wantPresses is how many presses the test times; maxTries bounds the
// presses it makes for them (one made while the tank was still settling,
// or dead, is not timed).
const (
	wantPresses = 3
	maxTries    = 12
)

// driveTurns waits for play (inPlay), focuses the window titled title and
// taps A and D by turns while the tank is predicted, each held until the
// window's frames counted it (timed: a press timed, or unseen, which the
// loop says after 60 frames) or for 90 frames, then let go for 20 frames,
// until wantPresses presses were timed. Every wait counts the
// window's frames (frames, each signalled on tick), not the clock: a
// loaded machine draws fewer of them.
func driveTurns(ctx context.Context, title string, tick <-chan struct{}, inPlay, predicted *atomic.Bool, frames, timed, presses *atomic.Int64) error {
	try := 0
	waitFrames := func(n int64, until func() bool) error {
		end := frames.Load() + n
		for frames.Load() < end && !until() {
			select {
			case <-ctx.Done():
				return fmt.Errorf("waiting for the window's frames (in play %v, %d frames, press %d, %d timed): %w",
					inPlay.Load(), frames.Load(), try, presses.Load(), ctx.Err())
			case <-tick:
			}
		}
		return nil
	}
	never := func() bool { return false }
	if err := waitFrames(1<<40, inPlay.Load); err != nil {
		return err
	}
	if err := xdotool(ctx, "search", "--sync", "--name", "^"+title+"$", "windowfocus", "--sync"); err != nil {
		return err
	}
	for ; try < maxTries && presses.Load() < wantPresses; try++ {
		// The tank gets its team and spawns within seconds of play, and
		// again after a death; the press waits for its prediction.
		if err := waitFrames(1<<40, predicted.Load); err != nil {
			return err
		}
		// A player's hand: the key comes a moment after the last was let
		// go, when the tank has come to rest (a window without vsync may
		// draw hundreds of frames in that moment, so frames alone do not
		// measure it).
		if err := waitFrames(10, never); err != nil {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(400 * time.Millisecond):
		}
		key := [2]string{"a", "d"}[try%2]
		before := timed.Load()
		if err := xdotool(ctx, "keydown", key); err != nil {
			return err
		}
		if err := waitFrames(90, func() bool { return timed.Load() != before }); err != nil {
			return err
		}
		if err := xdotool(ctx, "keyup", key); err != nil {
			return err
		}
		if err := waitFrames(20, never); err != nil {
			return err
		}
	}
	return nil
}

// xdotool runs the xdotool command with args on the test's display.
func xdotool(ctx context.Context, args ...string) error {
	out, err := exec.CommandContext(ctx, "xdotool", args...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("xdotool %s: %v: %s", strings.Join(args, " "), err, out)
	}
	return nil
}

// ownXServer starts an X server (Xvfb) for the test alone and returns its
// display name; it stops with the test. The test is skipped where Xvfb or
// xdotool is not installed.
func ownXServer(t *testing.T) string {
	t.Helper()
	for _, tool := range []string{"Xvfb", "xdotool"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not installed: %v", tool, err)
		}
	}
	r, wr, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	// -displayfd: the server picks a free display and writes its number to
	// fd 3 once it accepts connections.
	cmd := exec.Command("Xvfb", "-displayfd", "3", "-screen", "0", "1280x720x24", "-nolisten", "tcp")
	cmd.ExtraFiles = []*os.File{wr}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	wr.Close()
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line := make(chan string, 1)
	go func() {
		s, _ := bufio.NewReader(r).ReadString('\n')
		line <- strings.TrimSpace(s)
	}()
	select {
	case n := <-line:
		if n == "" {
			t.Fatal("Xvfb exited before naming its display")
		}
		return ":" + n
	case <-time.After(30 * time.Second):
		t.Fatal("Xvfb did not name its display within 30 s")
	}
	return ""
}

// The demo's end card keeps clear of what the HUD shows in the middle of
// the screen: the middle when it is free, else below the box there, else
// above it.
func TestEndCardClearOfBanners(t *testing.T) {
	const w, ht, cw, ch, top, bottom = 1280.0, 720.0, 400.0, 110.0, 24.0, 640.0
	mid := (ht - ch) / 2
	if y := endCardY(w, ht, cw, ch, top, bottom, nil); y != mid {
		t.Fatalf("nothing shown: y %v, want the middle %v", y, mid)
	}
	off := []hud.Rect{{X: 0, Y: 100, W: 200, H: 500}} // left of the card
	if y := endCardY(w, ht, cw, ch, top, bottom, off); y != mid {
		t.Fatalf("a box beside it: y %v, want the middle %v", y, mid)
	}
	card := func(y float64) hud.Rect { return hud.Rect{X: (w - cw) / 2, Y: y, W: cw, H: ch} }
	for name, boxes := range map[string][]hud.Rect{
		"a result card in the middle":  {{X: 490, Y: 250, W: 300, H: 220}},
		"a banner and the game's line": {{X: 300, Y: 300, W: 680, H: 30}, {X: 300, Y: 338, W: 680, H: 52}},
		"a card too low to pass below": {{X: 490, Y: 300, W: 300, H: 260}},
	} {
		y := endCardY(w, ht, cw, ch, top, bottom, boxes)
		for _, b := range boxes {
			if card(y).Intersects(b) {
				t.Errorf("%s: the card at y %v sits on %+v", name, y, b)
			}
		}
		if y < top || y+ch > bottom {
			t.Errorf("%s: the card at y %v leaves %v..%v", name, y, top, bottom)
		}
	}
}
