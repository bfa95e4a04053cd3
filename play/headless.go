package play

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"vimpclient/audio"
	"vimpclient/audio/mix"
	"vimpclient/gameloop"
	"vimpclient/session"
	"vimpclient/termtext"
)

// headlessMaxFailures is how many attempts in a row a headless run without
// -for makes before giving up: with the reconnect back-off (3, 6, 12, 24 s)
// an unreachable host is given up about 45 s after the start.
const headlessMaxFailures = 5

// Headless plays with no window and no sound device: against the host at
// addr, or with addr "" a match against the embedded host started
// in-process. It returns the run's exit status: 0 when it got to play what
// was asked (see finishHeadless), 2 for what p asks that cannot be.
func Headless(ctx context.Context, p *Config, addr string, stdout, stderr io.Writer) int {
	stderr = p.redact(stderr)
	if addr == "" {
		// No address: a match against the embedded host.
		hostCtx, stopHost := context.WithCancel(ctx)
		srv, err := startEmbedded(hostCtx, p, stderr)
		if err != nil {
			fmt.Fprintf(stderr, "vimpclient: %v\n", err)
			stopHost()
			return 1
		}
		defer func() {
			stopHost()
			<-srv.Done()
		}()
		return headlessConnect(ctx, p, srv.URL(), true, stdout, stderr)
	}
	return headlessConnect(ctx, p, addr, false, stdout, stderr)
}

// headlessConnect joins a live host with no window and no sound device:
// the same game loop as the window, its input from -script. offline marks
// the embedded host: its answers are remembered per game, not per address,
// and it is not kept among the recent hosts.
func headlessConnect(ctx context.Context, p *Config, addr string, offline bool, stdout, stderr io.Writer) int {
	steps, err := loadScript(p.Script)
	if err != nil {
		fmt.Fprintf(stderr, "vimpclient: %v\n", err)
		return 2
	}
	conn, err := newConnection(p, "headless", addr, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "vimpclient: %v\n", err)
		return 2
	}
	log := conn.log
	store := conn.store
	if store != nil && offline {
		store = store.Under(offlineAuthHost)
	}
	sess := session.New(session.Options{
		Auth:     session.AuthValues{Nick: p.Nick, Set: p.Set, Store: store, GuestNick: guestNick(time.Now())},
		AutoTeam: true, Team: p.Team, Recorder: conn.rec, Logger: log,
	})
	if p.For > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, p.For)
		defer cancel()
	}
	opts := gameloop.Options{Session: sess, Log: log, LogOnce: conn.once, Start: time.Now(), Context: ctx, AutoTeam: true,
		Team: p.Team, SoundFetcher: conn.assets.SoundFetcher, FixedInterp: p.Interp.Fixed}
	if p.AudioOut != "" {
		// Sound without a device: the mix runs in real time into the WAV.
		mx := mix.New(mix.Options{})
		out, err := audio.OpenOutput(ctx, mx, audio.OutputOptions{WAVPath: p.AudioOut, Silent: true, Logger: log})
		if err != nil {
			fmt.Fprintf(stderr, "vimpclient: %v\n", err)
			return 1
		}
		defer func() {
			if err := out.Close(); err != nil {
				fmt.Fprintf(stderr, "vimpclient: %v\n", err)
			}
		}()
		opts.Sounds = audio.NewManager(mx, audio.Options{Logger: log})
		defer opts.Sounds.Destroy()
	}
	ents := gameloop.NewEntities()
	opts.Observer = ents
	loop := gameloop.New(opts)
	if steps != nil {
		loop.SetInput(gameloop.NewScript(steps))
	}
	runner := &session.Runner{Session: sess, Addr: addr, Origin: p.Origin, Client: conn.client,
		OnTarget: func(t session.Target) {
			log.Info("connecting", "ws", t.WSURL, "origin", t.Origin, "game", t.GameID, "version", t.GameVersion)
			loop.SetTarget(t)
		}}
	if p.For == 0 {
		// Nothing else ends an unattended run that never gets to play.
		runner.MaxFailures = headlessMaxFailures
	}
	if !offline {
		closeLobby, code := joinLobby(ctx, p, runner, log, stderr)
		if code != 0 {
			return code
		}
		defer closeLobby()
	}
	start := time.Now()
	info, runErr := gameloop.RunHeadless(ctx, loop, runner.Run, 60, nil)
	if err := conn.rec.Close(); err != nil {
		fmt.Fprintf(stderr, "vimpclient: %v\n", err)
	}
	return finishHeadless(loop, ents, info, runErr, time.Since(start), p.Summary, stdout, stderr)
}

// finishHeadless prints the closing note and the summary and picks the exit
// status: 0 only when the session got to play what was asked (the team of
// -team, or any team offered when none was named) and its lobby room, if
// any, lasted.
func finishHeadless(l *gameloop.Loop, ents *gameloop.Entities, info *session.CloseInfo, runErr error, d time.Duration, wantSummary bool, stdout, stderr io.Writer) int {
	s := gameloop.Summarize(l, ents, d)
	switch {
	case info != nil && !info.Local:
		fmt.Fprintf(stderr, "vimpclient: closed (%d): %s\n", info.Code, termtext.Reason(info.Reason))
	case runErr != nil && !errors.Is(runErr, context.Canceled) && !errors.Is(runErr, context.DeadlineExceeded):
		fmt.Fprintf(stderr, "vimpclient: %v\n", runErr)
	}
	if err := l.Fatal(); err != nil {
		fmt.Fprintf(stderr, "vimpclient: %v\n", err)
	}
	if err := l.Unmet(); err != nil {
		fmt.Fprintf(stderr, "vimpclient: did not play as asked: %v\n", err)
	}
	fmt.Fprintf(stderr, "vimpclient: reached %q, %d frames (%d decoded, %d dropped), %d pongs\n",
		s.State, s.Frames.Received, s.Frames.Decoded, s.Frames.Dropped, s.Pings)
	if wantSummary {
		if err := gameloop.WriteSummary(stdout, s); err != nil {
			fmt.Fprintf(stderr, "vimpclient: %v\n", err)
			return 1
		}
	}
	if s.State != session.StatePlaying.String() || l.Fatal() != nil || l.Unmet() != nil {
		return 1
	}
	if l.RoomClosed() != "" {
		// The room went away under the run (its host lost, the master
		// closed it): the match did not last as asked.
		return 1
	}
	return 0
}
