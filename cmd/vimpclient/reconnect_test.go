package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"sync"
	"testing"
	"time"

	"vimpclient/gameloop"
	"vimpclient/host"
	"vimpclient/session"
)

// A player's session in the window's loop (interactive, the team answered on
// screen) against the embedded host, which is stopped mid-session and
// started again on the same port: the loop shows the reconnecting screen
// with the runner's countdown and attempt, and on the new connection gives
// the player's auth answer and team again, so neither the form nor the
// team vote comes back. The player's hands are the observer: it types the
// nick into the form and picks team1 in the vote window. The deadline only
// bounds a failure.
func TestReconnectAfterHostRestartRejoins(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	hostCtx, stopHost := context.WithCancel(ctx)
	srv, err := host.Start(hostCtx, host.Config{Addr: "127.0.0.1:0", Bots: 1, Seed: 4, Log: quietLog()})
	if err != nil {
		t.Fatal(err)
	}
	addr := net.JoinHostPort("127.0.0.1", fmt.Sprint(srv.Port()))
	restart := make(chan struct{})
	restarted := make(chan struct{})
	var srv2 *host.Server
	var restartErr error
	go func() {
		select {
		case <-restart:
		case <-ctx.Done():
			return
		}
		stopHost()
		<-srv.Done()
		srv2, restartErr = host.Start(ctx, host.Config{Addr: addr, Bots: 1, Seed: 5, Log: quietLog()})
		close(restarted)
	}()

	// No nick: the session cannot answer the form, the player does.
	sess := session.New(session.Options{Logger: quietLog()})
	var (
		mu         sync.Mutex
		forms      [3]int // ticks with the form on screen, per connection
		teamVotes  [3]int // ticks with the team vote on screen
		screen     string // the reconnecting screen's first line
		attempt    int
		restarting bool
	)
	play, stop := context.WithCancel(ctx)
	defer stop()
	ents := gameloop.NewEntities()
	ents.OnTick = func(l *gameloop.Loop, _ time.Time) {
		mu.Lock()
		defer mu.Unlock()
		conn := min(sess.Stats().Connections, 2)
		h := l.HUD()
		if h.Auth != nil {
			forms[conn]++
			if !h.Auth.Done && forms[conn] == 1 {
				h.Auth.Type([]rune("Tester"))
				h.SubmitAuth()
			}
		}
		if w := h.Vote.Cur; w != nil && w.Name == "teamChange" {
			teamVotes[conn]++
			for i, o := range w.PageOptions() {
				if o == "team1" {
					h.Vote.Key(49+i, l.NowMs())
				}
			}
		}
		if h.Reconnect.Shown && screen == "" {
			screen, attempt = h.Reconnect.Text(l.NowMs()), h.Reconnect.Attempt
		}
		playing := l.Controller() != nil && l.Controller().KeySet() == 1
		switch {
		case conn == 1 && playing && !restarting:
			restarting = true
			close(restart)
		case conn == 2 && playing:
			stop()
		}
	}
	loop := gameloop.New(gameloop.Options{Session: sess, Log: quietLog(), Start: time.Now(), Interactive: true, Observer: ents})
	runner := &session.Runner{Session: sess, Addr: srv.URL(), Client: http.DefaultClient, OnTarget: loop.SetTarget,
		Sleep: func(ctx context.Context, d time.Duration) error {
			select { // the back-off ends when the new host listens
			case <-restarted:
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		}}
	gameloop.RunHeadless(play, loop, runner.Run, 60, nil)
	if ctx.Err() != nil {
		t.Fatalf("timed out: forms %v, team votes %v, screen %q", forms, teamVotes, screen)
	}
	if restartErr != nil {
		t.Fatalf("host restart on %s: %v", addr, restartErr)
	}
	defer func() { cancel(); <-srv2.Done() }()
	if forms[1] == 0 || teamVotes[1] == 0 {
		t.Errorf("first connection: form %d and team vote %d ticks; the player answered neither", forms[1], teamVotes[1])
	}
	if forms[2] != 0 || teamVotes[2] != 0 {
		t.Errorf("after the reconnect the form (%d ticks) or the team vote (%d ticks) came back", forms[2], teamVotes[2])
	}
	if attempt != 1 || screen != "Connection lost (The server is shutting down.) — reconnecting in 3 s (attempt 1)" {
		t.Errorf("reconnecting screen %q, attempt %d", screen, attempt)
	}
	if st := sess.Stats(); st.Connections != 2 {
		t.Errorf("%d connections", st.Connections)
	}
}
