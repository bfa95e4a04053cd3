package demo

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"vimpclient/gameloop"
	"vimpclient/host"
	"vimpclient/input"
	"vimpclient/protocol"
	"vimpclient/session"
)

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// record plays a few seconds against the embedded host, the tank driving,
// and returns the recording's lines.
func record(t *testing.T) []session.RecordedLine {
	t.Helper()
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	srv, err := host.Start(ctx, host.Config{Addr: "127.0.0.1:0", Bots: 2, Seed: 5, Log: quiet()})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "rec.jsonl")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	rec := session.NewRecorder(f, "demo test", nil)
	sess := session.New(session.Options{Auth: session.AuthValues{Nick: "Rec"}, AutoTeam: true, Team: "team1", Recorder: rec, Logger: quiet()})
	play, stop := context.WithCancel(ctx)
	defer stop()
	// Three seconds of play, counted from reaching it, on the loop's clock.
	obs := gameloop.NewEntities()
	obs.OnTick = func(l *gameloop.Loop, now time.Time) {
		if at := l.Stats().PlayAt; !at.IsZero() && now.Sub(at) > 3*time.Second {
			stop()
		}
	}
	loop := gameloop.New(gameloop.Options{Session: sess, Log: quiet(), Start: time.Now(), AutoTeam: true, Observer: obs})
	loop.SetInput(gameloop.NewScript([]input.ScriptStep{
		{Offset: 200 * time.Millisecond, Action: protocol.KeyDown, Command: "forward", Line: 1},
		{Offset: 1500 * time.Millisecond, Action: protocol.KeyDown, Command: "left", Line: 2},
	}))
	runner := &session.Runner{Session: sess, Addr: srv.URL(), Client: http.DefaultClient, OnTarget: loop.SetTarget}
	gameloop.RunHeadless(play, loop, runner.Run, 60, nil)
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	rf, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer rf.Close()
	read, err := session.ReadRecording(rf, session.DefaultRecordingLimits())
	if err != nil {
		t.Fatal(err)
	}
	return read.Lines
}

func newDemo(t *testing.T, lines []session.RecordedLine) *Demo {
	t.Helper()
	d, err := New(Options{Lines: lines, Nick: "Rec", Team: "team1", Log: quiet(),
		NewLoop: func(sess *session.Session) *gameloop.Loop {
			return gameloop.New(gameloop.Options{Session: sess, Log: quiet(), NoPrediction: true, AutoTeam: true,
				Rand: func() float64 { return 0.5 }})
		}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(d.Close)
	return d
}

// actors is the world's hot actors at this moment, as text.
func actors(d *Demo) string {
	h := d.Loop().World().Hot()
	s := ""
	for _, r := range h.Actors {
		s += fmt.Sprintf("%s/%d%v ", r.Key(), r.ID, r.Fields[:3])
	}
	return s
}

// One recording against the embedded host, watched as a demo.
func TestDemo(t *testing.T) {
	lines := record(t)
	t.Run("seek is playback", func(t *testing.T) { testSeekIsPlayback(t, lines) })
	t.Run("follow", func(t *testing.T) { testFollow(t, lines) })
}

// The world at a point of the demo is the same whether it was reached by
// playing, by seeking forward, or by seeking back and forward again; pause
// holds the position and the speed scales it.
func testSeekIsPlayback(t *testing.T, lines []session.RecordedLine) {
	played := newDemo(t, lines)
	if played.Length() < 2*time.Second {
		t.Fatalf("recording of %v", played.Length())
	}
	target := lastFrameAt(lines) - 500*time.Millisecond
	wall := time.Unix(100, 0)
	for played.Position() < target {
		wall = wall.Add(time.Second / 60)
		played.Tick(wall)
		if played.Position() > target {
			// Land on the target exactly, as a seek does.
			played.Seek(target)
		}
	}
	want := actors(played)
	if want == "" {
		t.Fatal("no actors at the target")
	}
	sought := newDemo(t, lines)
	sought.Seek(target)
	if got := actors(sought); got != want {
		t.Fatalf("seeking forward:\n got %s\nwant %s", got, want)
	}
	sought.Seek(time.Second)
	first := sought.Loop()
	sought.Seek(target)
	if got := actors(sought); got != want {
		t.Fatalf("seeking back then forward:\n got %s\nwant %s", got, want)
	}
	if first == nil {
		t.Fatal("no loop after seeking back")
	}

	sought.SetPaused(true)
	at := sought.Position()
	for range 30 {
		wall = wall.Add(time.Second / 60)
		sought.Tick(wall)
	}
	if sought.Position() != at {
		t.Fatalf("paused, the position moved from %v to %v", at, sought.Position())
	}
	sought.SetPaused(false)
	sought.Seek(0)
	sought.Faster()
	sought.Tick(wall)
	wall = wall.Add(100 * time.Millisecond)
	sought.Tick(wall)
	if p := sought.Position(); p != 200*time.Millisecond || sought.Speed() != 2 {
		t.Fatalf("at 2×, 100 ms of wall time moved to %v (speed %v)", p, sought.Speed())
	}
	for range 10 {
		sought.Slower()
	}
	if sought.Speed() != 0.25 {
		t.Fatalf("slowest speed %v", sought.Speed())
	}
}

// Following another player moves the camera to that player.
func testFollow(t *testing.T, lines []session.RecordedLine) {
	d := newDemo(t, lines)
	d.Seek(lastFrameAt(lines) - 300*time.Millisecond)
	w := d.Loop().World()
	as := w.Actors(nil)
	if len(as) < 2 {
		t.Fatalf("actors %v", as)
	}
	w.Follow(as[1])
	wall := time.Unix(100, 0)
	for range 60 {
		wall = wall.Add(time.Second / 60)
		d.Tick(wall)
	}
	x, y, _ := w.Camera()
	for _, r := range w.Hot().Actors {
		if r.ID == as[1].ID && r.Key() == as[1].Key {
			if dx, dy := x-float64(r.Fields[0]), y-float64(r.Fields[1]); dx*dx+dy*dy > 1 {
				t.Fatalf("camera at %v,%v, followed actor at %v", x, y, r.Fields[:2])
			}
			return
		}
	}
	t.Fatal("the followed actor is gone")
}

// lastFrameAt is the demo position of the recording's last snapshot frame of
// its first connection: seeking a little before it lands where the world
// has actors, however long the handshake and the close took.
func lastFrameAt(lines []session.RecordedLine) time.Duration {
	conn, first, last := "", -1.0, 0.0
	for _, l := range lines {
		if l.Conn == "" || (l.Dir != "s2c" && l.Dir != "event") {
			continue
		}
		if conn == "" {
			conn = l.Conn
		}
		if l.Conn != conn {
			continue
		}
		if first < 0 && (l.Dir == "s2c" || l.Kind == "close") {
			first = l.Ms
		}
		if l.Dir == "s2c" && l.Kind == "binary" {
			last = l.Ms
		}
	}
	return time.Duration((last - first) * float64(time.Millisecond))
}
