package play

import (
	"context"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"vimpclient/gameloop"
	"vimpclient/host"
	"vimpclient/input"
	"vimpclient/session"
)

// A scripted drive against the embedded host: every press made from rest
// (forward, a turn, the gun) shows in the drawn predicted pose of the own
// tank within one frame of the tick that read it, and the summary says so.
// The deadline only bounds a failure: the run ends once the presses are
// timed.
func TestHeadlessPressShowsWithinAFrame(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	srv, err := host.Start(ctx, host.Config{Addr: "127.0.0.1:0", Bots: 0, Seed: 3, Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	// The tank gets its team about 1.5 s after play begins; each press
	// starts from rest: the turn and the gun stop at once, forward (which
	// coasts for seconds) comes last. Ten presses, of which three timed
	// are enough (a loaded machine may tick a press in a frame whose pose
	// was still settling, which the measure leaves untimed); the run ends
	// as soon as three are.
	steps, err := input.ParseScript(strings.NewReader("2.5s down left\n2.7s up left\n4s down right\n4.2s up right\n5.5s down gunLeft\n5.7s up gunLeft\n" +
		"7s down left\n7.2s up left\n8.5s down gunRight\n8.7s up gunRight\n10s down right\n10.2s up right\n11.5s down gunLeft\n11.7s up gunLeft\n" +
		"13s down left\n13.2s up left\n14.5s down gunRight\n14.7s up gunRight\n16s down forward\n16.3s up forward\n"))
	if err != nil {
		t.Fatal(err)
	}
	const want = 3
	sess := session.New(session.Options{Auth: session.AuthValues{Nick: "Driver"}, AutoTeam: true, Team: "team1", Logger: slog.New(slog.DiscardHandler)})
	ents := gameloop.NewEntities()
	play, stop := context.WithCancel(ctx)
	defer stop()
	ents.OnTick = func(l *gameloop.Loop, _ time.Time) {
		if s := l.Latency(); s != nil && s.Presses >= want {
			stop()
		}
	}
	loop := gameloop.New(gameloop.Options{Session: sess, Log: slog.New(slog.DiscardHandler), Start: time.Now(), AutoTeam: true, Team: "team1", Observer: ents})
	loop.SetInput(gameloop.NewScript(steps))
	runner := &session.Runner{Session: sess, Addr: srv.URL(), Client: http.DefaultClient, OnTarget: loop.SetTarget}
	gameloop.RunHeadless(play, loop, runner.Run, 60, nil)
	if ctx.Err() != nil {
		t.Fatalf("timed out before %d presses were timed: %+v", want, loop.Latency())
	}
	s := gameloop.Summarize(loop, ents, time.Second).Latency
	if s == nil {
		t.Fatal("no latency in the summary")
	}
	if s.Presses < want || s.Unseen != 0 {
		t.Errorf("presses %d unseen %d, want %d timed and none unseen", s.Presses, s.Unseen, want)
	}
	if s.InputToPoseFramesP95 < 0 || s.InputToPoseFramesP95 > 1 || s.InputToPoseFramesMax > 1 {
		t.Errorf("input to pose: p95 %d max %d frames, want at most 1", s.InputToPoseFramesP95, s.InputToPoseFramesMax)
	}
	if s.Frames == 0 || s.FrameCPUMsMax <= 0 {
		t.Errorf("frames %d, frame time max %v ms", s.Frames, s.FrameCPUMsMax)
	}
}
