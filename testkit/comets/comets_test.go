package comets_test

import (
	"context"
	"io"
	"log/slog"
	"math"
	"strings"
	"testing"
	"time"

	"vimpclient/gameloop"
	"vimpclient/host"
	"vimpclient/input"
	"vimpclient/registry"
	"vimpclient/session"
	"vimpclient/testkit/comets"
	"vimpclient/testkit/partstest"
)

// TestStepWrapsAndTurns checks the rules: a held turn key turns at the
// turn rate, the comet flies at its speed, and the field wraps.
func TestStepWrapsAndTurns(t *testing.T) {
	c := comets.Comet{X: comets.FieldW - 1, Y: 100, Angle: 0}
	c.Step(0.5)
	if want := float32(comets.Speed*0.5 - 1); math.Abs(float64(c.X-want)) > 1e-3 || c.Y != 100 {
		t.Errorf("after half a second east from the east edge: (%g, %g), want (%g, 100)", c.X, c.Y, want)
	}
	c = comets.Comet{X: 100, Y: 100, Turn: -1}
	for range 120 {
		c.Step(1.0 / 120)
	}
	if math.Abs(float64(c.Angle)+math.Pi/2) > 1e-4 {
		t.Errorf("a second of left turn: angle %g, want %g", c.Angle, -math.Pi/2)
	}
}

// TestCometsPlayedEndToEnd registers the game on both sides: the embedded
// host runs its match (host.Config.Games), a headless client plays it with
// the game in its registry (gameloop.Options.Games) and a key script that
// holds left. The client must pick the game, draw every comet with the
// game's own part (no generic fallback), decode every frame, and see its
// own comet turn.
func TestCometsPlayedEndToEnd(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second) // bounds a failure only
	defer cancel()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	srv, err := host.Start(ctx, host.Config{Addr: "127.0.0.1:0", Game: comets.GameID, Bots: 3, Seed: 7,
		Games: append(host.Games(), comets.HostGame()), Log: quiet})
	if err != nil {
		t.Fatal(err)
	}
	steps, err := input.ParseScript(strings.NewReader("0s down left\n"))
	if err != nil {
		t.Fatal(err)
	}
	sess := session.New(session.Options{Auth: session.AuthValues{Nick: "Probe"}, AutoTeam: true, Logger: quiet})
	ents := gameloop.NewEntities()
	loop := gameloop.New(gameloop.Options{Session: sess, Log: quiet, Start: time.Now(), AutoTeam: true, Observer: ents,
		Games: append(registry.Default(), comets.ClientGame())})
	loop.SetInput(gameloop.NewScript(steps))
	runner := &session.Runner{Session: sess, Addr: srv.URL()}

	play, stop := context.WithCancel(ctx)
	defer stop()
	var first, last float64
	var seen, turned bool
	var discs int
	ents.OnTick = func(l *gameloop.Loop, _ time.Time) {
		if l.Core() == nil || ents.Count("k1") < 4 {
			return
		}
		p, ok := l.Core().LastPlayer()
		if !ok {
			return
		}
		if !seen {
			first, seen = float64(p.State[2]), true
		}
		last = float64(p.State[2])
		// Half a turn to the left has gone by: the key reached the host.
		if d := math.Mod(first-last+4*math.Pi, 2*math.Pi); d > 1 && d < math.Pi {
			var g partstest.Gfx
			l.World().Stage("vimp").Draw(&g)
			discs = g.Kinds()["disc"]
			turned = true
			stop()
		}
	}
	gameloop.RunHeadless(play, loop, runner.Run, 60, nil)

	s := gameloop.Summarize(loop, ents, 0)
	if s.State != "playing" || s.Frames.Received == 0 || s.Frames.Dropped != 0 {
		t.Fatalf("state %q, frames %+v", s.State, s.Frames)
	}
	if id := loop.World().GameID(); id != comets.GameID {
		t.Errorf("the client picked game %q, want %q", id, comets.GameID)
	}
	if fb := loop.World().Fallbacks(); len(fb) != 0 {
		t.Errorf("drawn by the generic renderer: %v", fb)
	}
	if !turned {
		t.Fatalf("the own comet did not turn: angle %g → %g", first, last)
	}
	if discs < 4 {
		t.Errorf("%d comets drawn, want the 3 bots' and the own", discs)
	}
}
