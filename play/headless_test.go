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
