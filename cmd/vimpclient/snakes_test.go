package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"vimpclient/testkit/fakemaster"
)

// The snakes scenario as a player runs it: `vimpclient -headless -summary
// -game snakes -bots 3 -nick Probe -script testdata/scripts/snakes-circle.txt`
// against the embedded host, shortened to the script's first circles. Every
// frame decodes, the own snake and the three bots' are seen, the crystal
// field arrives, and the predicted head stays within 2 world units of the
// host's at p95 with no snap.
func TestSnakesCircleScript(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	script := filepath.Join("..", "..", "testdata", "scripts", "snakes-circle.txt")
	var out, errb bytes.Buffer
	code := run([]string{"-headless", "-for", "10s", "-summary", "-game", "snakes", "-bots", "3", "-nick", "Probe", "-script", script}, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	s := decodeSummary(t, out.Bytes())
	t.Logf("frames %+v, entities %v, prediction %+v, local %+v", s.Frames, s.Entities, s.Prediction, s.Local)
	if s.State != "playing" || s.Frames.Received < 100 || s.Frames.Dropped != 0 || s.Frames.Decoded != uint64(s.Frames.Received) {
		t.Fatalf("state %q frames %+v errors %v", s.State, s.Frames, s.Errors)
	}
	if s.Entities["s1"] < 4 || s.Entities["cr"] == 0 {
		t.Fatalf("entities %v: want the own snake, 3 bots and crystals", s.Entities)
	}
	if s.Local == nil || s.Local.X == 0 && s.Local.Y == 0 {
		t.Fatalf("no local head: %+v", s.Local)
	}
	if p := s.Prediction; p == nil || p.Samples < 100 || p.ErrorP95 > 2 || p.Snaps != 0 {
		t.Fatalf("prediction %+v", s.Prediction)
	}
}

// Two headless clients through `serve -game snakes -bots 0` each play a
// snake and see the other's: the only s1 rows there are, two of them.
func TestServeSnakesTwoClients(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	done := make(chan int, 1)
	go func() {
		done <- runServe(ctx, []string{"-addr", "127.0.0.1:0", "-game", "snakes", "-bots", "0"}, pw, io.Discard)
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
	url := f[2]
	var wg sync.WaitGroup
	outs := make([]bytes.Buffer, 2)
	codes := make([]int, 2)
	for i, nick := range []string{"Ann", "Bob"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var errb bytes.Buffer
			codes[i] = run([]string{"-headless", "-for", "5s", "-summary", "-nick", nick, url}, &outs[i], &errb)
			if codes[i] != 0 {
				t.Errorf("%s: exit %d: %s", nick, codes[i], errb.String())
			}
		}()
	}
	wg.Wait()
	for i := range outs {
		if codes[i] != 0 {
			continue
		}
		s := decodeSummary(t, outs[i].Bytes())
		if s.State != "playing" || !s.Player || s.Entities["s1"] != 2 {
			t.Errorf("client %d: state %q player %v entities %v errors %v", i, s.State, s.Player, s.Entities, s.Errors)
		}
	}
	cancel()
	if code := <-done; code != 0 {
		t.Fatalf("serve exit code %d", code)
	}
}

// -game picks the embedded host's game: refused with an address, an
// unknown game or a map of the other game is refused with the list.
func TestGameFlag(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"-headless", "-game", "snakes", "http://127.0.0.1:1"}, &out, &errb); code != 2 || !strings.Contains(errb.String(), "-game") {
		t.Errorf("-game with an address: %d %q", code, errb.String())
	}
	errb.Reset()
	if code := run([]string{"-headless", "-game", "chess"}, &out, &errb); code != 2 || !strings.Contains(errb.String(), "tanks, snakes") {
		t.Errorf("-game chess: %d %q", code, errb.String())
	}
	errb.Reset()
	if code := run([]string{"-headless", "-game", "snakes", "-map", "bridge"}, &out, &errb); code != 2 || !strings.Contains(errb.String(), "arena") {
		t.Errorf("-game snakes -map bridge: %d %q", code, errb.String())
	}
	var serr bytes.Buffer
	if code := runServe(context.Background(), []string{"-addr", "127.0.0.1:0", "-game", "snakes", "-map", "yard"}, io.Discard, &serr); code != 2 || !strings.Contains(serr.String(), "arena") {
		t.Errorf("serve -game snakes -map yard: %d %q", code, serr.String())
	}
}

// `serve -master … -game snakes` lists a snakes room, and a headless client
// that joins it over WebRTC plays snakes.
func TestLobbySnakesRoom(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	t.Setenv("VIMP_TOKEN", "")
	keys, err := fakemaster.NewKeys("k")
	if err != nil {
		t.Fatal(err)
	}
	fm := fakemaster.Start(fakemaster.Config{Keys: keys})
	defer fm.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	serveDone := make(chan int, 1)
	go func() {
		serveDone <- runServe(ctx, []string{"-addr", "127.0.0.1:0", "-game", "snakes", "-bots", "1", "-master", fm.URL(),
			"-name", "Snake Pit", "-token", keys.Token("1", "Hoster")}, pw, io.Discard)
		pw.Close()
	}()
	rd := bufio.NewReader(pr)
	for range 2 {
		if _, err := rd.ReadString('\n'); err != nil {
			t.Fatal(err)
		}
	}
	go io.Copy(io.Discard, rd)
	var out, errOut bytes.Buffer
	if code := runServers(ctx, []string{"-json", fm.URL()}, &out, &errOut); code != 0 || !strings.Contains(out.String(), `"snakes"`) {
		t.Fatalf("servers: %d %s %s", code, out.String(), errOut.String())
	}
	out.Reset()
	code := run([]string{"-headless", "-for", "6s", "-summary", "-token", keys.Token("2", "Alice"), "-room", "Snake Pit", fm.URL()}, &out, &errOut)
	if code != 0 {
		t.Fatalf("headless join: %d\n%s", code, errOut.String())
	}
	s := decodeSummary(t, out.Bytes())
	if s.State != "playing" || s.Frames.Decoded == 0 || s.Frames.Dropped != 0 || s.Entities["s1"] < 2 {
		t.Errorf("summary %+v", s)
	}
	cancel()
	if code := <-serveDone; code != 0 {
		t.Errorf("serve exit %d", code)
	}
}
