package session_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"time"

	"vimpclient/host"
	"vimpclient/session"
)

// Dialing a host: the runner probes the address's /config, opens the
// WebSocket the host names, and runs the session's handshake over it,
// reconnecting by the close-code policy until its context ends. The events
// reach whoever drains the queue (the game loop, in the client); here the
// caller waits for the first snapshot frame after the handshake reached
// play, then leaves.
func ExampleRunner_Run() {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second) // bounds a failure only
	defer cancel()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	srv, err := host.Start(ctx, host.Config{Addr: "127.0.0.1:0", Seed: 1, Log: quiet})
	if err != nil {
		fmt.Println(err)
		return
	}

	sess := session.New(session.Options{Auth: session.AuthValues{Nick: "Probe"}, AutoTeam: true, Logger: quiet})
	runner := &session.Runner{Session: sess, Addr: srv.URL()}
	play, leave := context.WithCancel(ctx)
	defer leave()
	done := make(chan struct{})
	go func() {
		defer close(done)
		runner.Run(play)
	}()

	var states []string
	playing := false
	for frame := false; !frame; {
		select {
		case <-sess.Queue().Ready():
		case <-ctx.Done():
			fmt.Println("no frame:", ctx.Err())
			leave()
			<-done
			return
		}
		for _, ev := range sess.Queue().Drain(nil) {
			switch {
			case ev.Kind == session.EventState:
				states = append(states, ev.State.String())
				playing = ev.State == session.StatePlaying
			case ev.Kind == session.EventFrame && playing:
				frame = true
			}
		}
	}
	leave()
	<-done
	fmt.Println("states:", states)
	// Output:
	// states: [config auth map playing]
}
