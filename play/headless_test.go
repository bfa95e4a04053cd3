package play

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"vimpclient/gameloop"
	"vimpclient/host"
	"vimpclient/session"
)

// -team red against the embedded host, which offers team1, team2 and
// spectators: the refusal is in the summary's errors and the closing note,
// and the run exits non-zero though it reached play (as a spectator). The
// deadline only bounds a failure: the run ends when the refusal is seen.
func TestHeadlessRefusedTeamFails(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	srv, err := host.Start(ctx, host.Config{Addr: "127.0.0.1:0", Bots: 1, Seed: 2, Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	sess := session.New(session.Options{Auth: session.AuthValues{Nick: "Red"}, AutoTeam: true, Team: "red", Logger: slog.New(slog.DiscardHandler)})
	ents := gameloop.NewEntities()
	play, stop := context.WithCancel(ctx)
	defer stop()
	ents.OnTick = func(l *gameloop.Loop, _ time.Time) {
		if l.Unmet() != nil && sess.Stats().Furthest == session.StatePlaying {
			stop()
		}
	}
	loop := gameloop.New(gameloop.Options{Session: sess, Log: slog.New(slog.DiscardHandler), Start: time.Now(), AutoTeam: true, Team: "red", Observer: ents})
	runner := &session.Runner{Session: sess, Addr: srv.URL(), Client: http.DefaultClient, OnTarget: loop.SetTarget}
	info, runErr := gameloop.RunHeadless(play, loop, runner.Run, 60, nil)
	if ctx.Err() != nil {
		t.Fatal("timed out before the refusal")
	}
	var out, errb bytes.Buffer
	code := finishHeadless(loop, ents, info, runErr, time.Second, true, &out, &errb)
	var s gameloop.Summary
	if err := json.Unmarshal(out.Bytes(), &s); err != nil {
		t.Fatalf("summary %q: %v", out.Bytes(), err)
	}
	if code == 0 {
		t.Errorf("exit 0 after the team was refused; stderr %q", errb.String())
	}
	if s.State != "playing" {
		t.Errorf("state %q", s.State)
	}
	found := false
	for _, e := range s.Errors {
		found = found || strings.Contains(e, "team red is not offered (offered: team1, team2, spectators)")
	}
	if !found {
		t.Errorf("errors %q", s.Errors)
	}
	if !strings.Contains(errb.String(), "did not play as asked: team red is not offered") {
		t.Errorf("closing note %q", errb.String())
	}
}

// The summary's round trip: the host times its PINGs and this client's
// PONGs and reports the figure in the player's own scoreboard row; the
// jitter is timed from the PINGs' arrivals. The run ends once two reports
// came; the deadline only bounds a failure.
func TestHeadlessSummaryHasTheRoundTrip(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	srv, err := host.Start(ctx, host.Config{Addr: "127.0.0.1:0", Bots: 1, Seed: 2, Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	sess := session.New(session.Options{Auth: session.AuthValues{Nick: "Timer"}, AutoTeam: true, Logger: slog.New(slog.DiscardHandler)})
	ents := gameloop.NewEntities()
	play, stop := context.WithCancel(ctx)
	defer stop()
	ents.OnTick = func(l *gameloop.Loop, _ time.Time) {
		if r := l.RTT(); r != nil && r.Samples >= 2 {
			stop()
		}
	}
	loop := gameloop.New(gameloop.Options{Session: sess, Log: slog.New(slog.DiscardHandler), Start: time.Now(), AutoTeam: true, Observer: ents})
	runner := &session.Runner{Session: sess, Addr: srv.URL(), Client: http.DefaultClient, OnTarget: loop.SetTarget}
	info, runErr := gameloop.RunHeadless(play, loop, runner.Run, 60, nil)
	if ctx.Err() != nil {
		t.Fatalf("no two round trips reported within 60 s (%+v)", loop.RTT())
	}
	var out, errb bytes.Buffer
	finishHeadless(loop, ents, info, runErr, time.Second, true, &out, &errb)
	var s struct {
		RTT *struct {
			Samples  int      `json:"samples"`
			P50Ms    *float64 `json:"p50Ms"`
			P95Ms    *float64 `json:"p95Ms"`
			JitterMs *float64 `json:"jitterMs"`
		} `json:"rtt"`
	}
	if err := json.Unmarshal(out.Bytes(), &s); err != nil {
		t.Fatalf("summary %q: %v", out.Bytes(), err)
	}
	if s.RTT == nil || s.RTT.Samples < 2 || s.RTT.P50Ms == nil || s.RTT.P95Ms == nil || s.RTT.JitterMs == nil {
		t.Fatalf("summary rtt %+v", s.RTT)
	}
	if *s.RTT.P50Ms <= 0 || *s.RTT.P95Ms < *s.RTT.P50Ms || *s.RTT.JitterMs < 0 {
		t.Fatalf("rtt p50 %v p95 %v jitter %v", *s.RTT.P50Ms, *s.RTT.P95Ms, *s.RTT.JitterMs)
	}
	if g := loop.NetGraph().Summary(); g.PingMs <= 0 || !g.HasPing {
		t.Fatalf("the net graph shows ping %v (measured %v)", g.PingMs, g.HasPing)
	}
	// The scoreboard knows the own row, whose latency is that round trip.
	if st := loop.HUD().Stat; st == nil || st.Own == "" {
		t.Fatal("the scoreboard does not know the player's own row")
	}
}
