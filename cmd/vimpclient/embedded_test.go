package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"vimpclient/clientcore"
	"vimpclient/host"
)

type playSummary struct {
	State    string
	Player   bool
	Frames   struct{ Received, Decoded, Dropped int }
	Pings    int
	Entities map[string]int
}

// TestEmbeddedHostTwoClients plays two headless clients against the
// embedded host: both reach "playing", every frame decodes, each sees the
// other's tank, and the scripted key moves the first client's tank.
func TestEmbeddedHostTwoClients(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv, err := host.Start(ctx, host.Config{Addr: "127.0.0.1:0", Bots: 0, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	script := filepath.Join(dir, "keys.txt")
	if err := os.WriteFile(script, []byte("# drive forward for two seconds\n0.5s down forward\n2.5s up forward\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rec := filepath.Join(dir, "alice.jsonl")
	clients := [][]string{
		{"-headless", "-for", "6s", "-summary", "-nick", "Alice", "-script", script, "-record", rec, srv.URL()},
		{"-headless", "-for", "6s", "-summary", "-nick", "Bob", srv.URL()},
	}
	sums := make([]playSummary, len(clients))
	var wg sync.WaitGroup
	for i, args := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var out, errOut bytes.Buffer
			if code := run(args, &out, &errOut); code != 0 {
				t.Errorf("client %d: exit %d: %s", i, code, errOut.String())
				return
			}
			if err := json.Unmarshal(out.Bytes(), &sums[i]); err != nil {
				t.Errorf("client %d summary: %v: %s", i, err, out.String())
			}
		}()
	}
	wg.Wait()
	for i, s := range sums {
		if s.State != "playing" || !s.Player {
			t.Errorf("client %d: state %q player %v", i, s.State, s.Player)
		}
		if s.Frames.Received == 0 || s.Frames.Dropped != 0 || s.Frames.Decoded != s.Frames.Received {
			t.Errorf("client %d: frames %+v", i, s.Frames)
		}
		if s.Entities["m1"] < 2 {
			t.Errorf("client %d saw %d tanks, want its own and the other's", i, s.Entities["m1"])
		}
	}
	moved := trackMovement(t, rec)
	t.Logf("tank moved %.1f units", moved)
	if moved < 30 {
		t.Errorf("holding forward for 2 s moved the tank %.1f units", moved)
	}
}

// trackMovement decodes the recorded frames and returns how far the player
// block's position travelled.
func trackMovement(t *testing.T, path string) float64 {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var core *clientcore.Decoder
	var fr clientcore.Frame
	var first, last [2]float32
	seen := false
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<22)
	for sc.Scan() {
		var line struct {
			Dir, Kind string
			Port      int
			Payload   json.RawMessage
			B64       string
		}
		if json.Unmarshal(sc.Bytes(), &line) != nil || line.Dir != "s2c" {
			continue
		}
		switch {
		case line.Kind == "json" && line.Port == 0:
			var cfg struct{ Snapshot json.RawMessage }
			if err := json.Unmarshal(line.Payload, &cfg); err != nil {
				t.Fatal(err)
			}
			s, err := clientcore.ParseSchema(cfg.Snapshot)
			if err != nil {
				t.Fatal(err)
			}
			core = clientcore.NewDecoder(s)
		case line.Kind == "binary" && core != nil:
			b, err := base64.StdEncoding.DecodeString(line.B64)
			if err != nil || core.Decode(b, &fr) != nil || !fr.HasPlayer {
				continue
			}
			pos := [2]float32{fr.Player.State[0], fr.Player.State[1]}
			if !seen {
				first, seen = pos, true
			}
			last = pos
		}
	}
	if !seen {
		t.Fatal("no frame with a player block in the recording")
	}
	return math.Hypot(float64(last[0]-first[0]), float64(last[1]-first[1]))
}
