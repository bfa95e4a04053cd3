package gameloop_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"math"
	"strings"
	"time"

	"vimpclient/gameloop"
	"vimpclient/host"
	"vimpclient/input"
	"vimpclient/session"
)

// A headless run: a session dials a host (here the embedded one, on a
// loopback port), the loop plays it with its input from a key script, and
// the run ends when the caller's context does. The script holds forward
// from the start of play; the loop's observer watches the player block
// until the tank has moved.
func ExampleRunHeadless() {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second) // bounds a failure only
	defer cancel()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	srv, err := host.Start(ctx, host.Config{Addr: "127.0.0.1:0", Seed: 1, Log: quiet})
	if err != nil {
		fmt.Println(err)
		return
	}
	steps, err := input.ParseScript(strings.NewReader("0s down forward\n"))
	if err != nil {
		fmt.Println(err)
		return
	}

	sess := session.New(session.Options{Auth: session.AuthValues{Nick: "Probe"}, AutoTeam: true, Logger: quiet})
	ents := gameloop.NewEntities()
	loop := gameloop.New(gameloop.Options{Session: sess, Log: quiet, Start: time.Now(), AutoTeam: true, Observer: ents})
	loop.SetInput(gameloop.NewScript(steps))
	runner := &session.Runner{Session: sess, Addr: srv.URL()}

	play, stop := context.WithCancel(ctx)
	var from [2]float32
	var started, moved bool
	ents.OnTick = func(l *gameloop.Loop, _ time.Time) {
		if l.Core() == nil {
			return
		}
		p, ok := l.Core().LastPlayer()
		switch {
		case !ok:
		case !started:
			from, started = [2]float32{p.State[0], p.State[1]}, true
		case math.Hypot(float64(p.State[0]-from[0]), float64(p.State[1]-from[1])) > 30:
			moved = true
			stop()
		}
	}
	gameloop.RunHeadless(play, loop, runner.Run, 60, nil)

	s := gameloop.Summarize(loop, ents, 0)
	fmt.Println("state:", s.State)
	fmt.Println("every frame decoded:", s.Frames.Received > 0 && s.Frames.Dropped == 0)
	fmt.Println("moved by the script:", moved)
	// Output:
	// state: playing
	// every frame decoded: true
	// moved by the script: true
}
