package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"vimpclient/testkit/capturetest"
)

// `serve -game snakes -data testdata/captures/real-snakes-0.15` is a host
// that sends what a real snakes 0.15 host sends, and a headless client
// (`vimpclient -headless -for 4s -summary URL`) plays it: it reaches play
// with a snake of its own (0.15 has no vote to play), every frame decodes,
// snakes and crystals arrive, and every class the data names is drawn by
// the snakes parts, with no error.
func TestServeTheRealSnakes015Data(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	done := make(chan int, 1)
	dir := filepath.Join(capturetest.SharedDir(t), "captures", "real-snakes-0.15")
	go func() {
		done <- runServe(ctx, []string{"-addr", "127.0.0.1:0", "-game", "snakes", "-bots", "2", "-data", dir}, pw, io.Discard)
		pw.Close()
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	go io.Copy(io.Discard, pr)
	f := strings.Fields(line)
	if len(f) < 4 || f[3] != "(snakes," {
		t.Fatalf("banner %q: want the URL and the game", line)
	}
	var out, errb bytes.Buffer
	if code := run([]string{"-headless", "-for", "4s", "-summary", "-nick", "Probe", f[2]}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	s := decodeSummary(t, out.Bytes())
	if s.State != "playing" || !s.Player || len(s.Errors) != 0 {
		t.Fatalf("state %q player %v errors %v", s.State, s.Player, s.Errors)
	}
	if fr := s.Frames; fr.Received < 30 || fr.Decoded != uint64(fr.Received) || fr.Dropped != 0 {
		t.Errorf("frames %+v", fr)
	}
	if s.Entities["s1"] < 3 || s.Entities["cr"] == 0 {
		t.Errorf("entities %v: want the own snake, two bots and crystals", s.Entities)
	}
	if s.Game == nil || s.Game.Name != "snakes" || len(s.Game.Parts) != 3 {
		t.Fatalf("game %+v", s.Game)
	}
	for class, by := range s.Game.Parts {
		if by != "snakes" {
			t.Errorf("%s drawn by %q", class, by)
		}
	}
	if strings.Contains(errb.String(), "asset unavailable") {
		t.Errorf("an asset was unavailable: %s", errb.String())
	}
	cancel()
	if code := <-done; code != 0 {
		t.Fatalf("serve exit code %d", code)
	}
}
