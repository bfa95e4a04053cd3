package window

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"vimpclient/gameloop"
	"vimpclient/render"
	"vimpclient/session"
	"vimpclient/testkit/hostile"
)

// A host that floods the window with thousands of new generic entities a
// frame (each a disc, a heading stroke and a label, most of them off the
// canvas) and event markers: the window keeps drawing frames, writes its
// screenshot and closes. Each of those strokes once cost the window two
// passes over offscreen images twice the canvas's size, and the first frame
// took seconds, the next minutes.
func TestWindowOutlastsAnEntityFlood(t *testing.T) {
	if err := Available(); err != nil {
		t.Skip(err)
	}
	if !inOwnProcess(t) {
		return
	}
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	h, err := hostile.New(hostile.Entities)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	sess := session.New(session.Options{Auth: session.AuthValues{Nick: "Viewer"}, Logger: quiet})
	r := render.New(ctx, render.Options{Log: quiet})
	loop := gameloop.New(gameloop.Options{Session: sess, Log: quiet, Start: time.Now(), Textures: r.Textures()})
	runner := &session.Runner{Session: sess, Addr: srv.URL, Client: http.DefaultClient, OnTarget: loop.SetTarget}
	runDone := make(chan struct{})
	go func() { defer close(runDone); runner.Run(ctx) }()
	shot := filepath.Join(t.TempDir(), "flood.png")
	var summary bytes.Buffer
	inPlay := 0 // frames asked for the screenshot since play began
	w, err := New(ctx, loop, r, Options{Title: "test", Width: 960, Height: 540, NoVsync: true,
		Screenshot: shot, ScreenshotAfter: time.Second, Log: quiet, Summary: &summary,
		ScreenshotWhen: func() bool {
			// A few frames into play, however late play began on a busy
			// machine: the figures need more than the first one.
			if !loop.Stats().PlayAt.IsZero() {
				inPlay++
			}
			return inPlay > 4
		}})
	if err != nil {
		t.Fatal(err)
	}
	playToEnd(t, w, cancel, runDone)
	if _, err := os.Stat(shot); err != nil {
		t.Fatalf("no screenshot (the window closed at its deadline instead): %v", err)
	}
	var sum gameloop.WindowSummary
	if err := json.Unmarshal(summary.Bytes(), &sum); err != nil {
		t.Fatalf("summary %q: %v", summary.Bytes(), err)
	}
	if sum.Latency == nil || sum.Latency.Frames < 2 {
		t.Errorf("summary latency %+v: the window drew too few frames in play", sum.Latency)
	}
	if st := sess.Stats(); st.Frames == 0 {
		t.Errorf("no frames from the flooding host: %+v", st)
	}
}
