package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"vimpclient/audio"
	"vimpclient/audio/mix"
	"vimpclient/audio/wav"
	"vimpclient/host"
	"vimpclient/host/sounds"
	"vimpclient/internal/capturetest"
)

// realTanksMaps are the maps of the real tanks game, as its data names them.
var realTanksMaps = []string{"pool-mini", "garden", "canopy"}

// realTanksDir is what a real tanks 0.13 host sends, as the test data holds it.
func realTanksDir(t *testing.T) string {
	return filepath.Join(capturetest.SharedDir(t), "captures", "real-tanks-0.13")
}

// startRealTanksHost starts a test host that sends exactly the real data:
// its CONFIG_DATA, AUTH_DATA and the map's MAP_DATA verbatim, with frames
// the match packs for that CONFIG_DATA's schema, one bot, and the sounds
// as mp3 and webm.
func startRealTanksHost(t *testing.T, ctx context.Context, mapName string) *host.Server {
	t.Helper()
	game, auth, err := host.LoadGameData(realTanksDir(t))
	if err != nil {
		t.Fatal(err)
	}
	srv, err := host.Start(ctx, host.Config{Addr: "127.0.0.1:0", Bots: 1, Seed: 1, Map: mapName, Game: game, AuthData: auth,
		Sound: sounds.File, Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	return srv
}

// The client against a host that sends what a real tanks 0.13 host sends,
// on each of the game's three maps, as a player runs it (`vimpclient
// -headless -summary -team team1 -script testdata/scripts/drive.txt
// -audio-out F URL`): it reaches play, decodes every frame, sees both tanks
// and every crate of the map, predicts its tank through the drive with no
// snap, and its sounds (the catalog's mp3s: the only codec of the list it
// decodes) are fetched, decoded and mixed into the WAV it writes.
func TestHeadlessOnTheRealTanksMaps(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	script := filepath.Join("..", "..", "testdata", "scripts", "drive.txt")
	for _, name := range realTanksMaps {
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			srv := startRealTanksHost(t, ctx, name)
			out := filepath.Join(t.TempDir(), "sound.wav")
			var stdout, stderr bytes.Buffer
			code := run([]string{"-headless", "-for", "7s", "-summary", "-team", "team1", "-script", script, "-audio-out", out, srv.URL()},
				&stdout, &stderr)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr.String())
			}
			s := decodeSummary(t, stdout.Bytes())
			t.Logf("%s: state %s, frames %+v, entities %v, prediction %+v", name, s.State, s.Frames, s.Entities, s.Prediction)
			if s.State != "playing" || !s.Player || len(s.Errors) != 0 || s.Undecodable != nil {
				t.Fatalf("state %q player %v errors %v undecodable %+v", s.State, s.Player, s.Errors, s.Undecodable)
			}
			if f := s.Frames; f.Received < 60 || f.Decoded != uint64(f.Received) || f.Dropped != 0 {
				t.Errorf("frames %+v", f)
			}
			if s.Entities["m1"] < 2 {
				t.Errorf("tanks seen %d, want both", s.Entities["m1"])
			}
			if want := mapBodies(t, name); s.Entities["c1"] != want {
				t.Errorf("crates seen %d, the map has %d", s.Entities["c1"], want)
			}
			if p := s.Prediction; p == nil || p.Samples < 50 || p.Snaps != 0 {
				t.Errorf("prediction %+v", p)
			}
			b, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			mixed, err := wav.Decode(b)
			if err != nil {
				t.Fatal(err)
			}
			var energy float64
			for _, v := range mixed.Data {
				energy += float64(v) * float64(v)
			}
			if energy < 1 {
				t.Errorf("the sounds were not heard: energy %v in %d frames", energy, mixed.Frames())
			}
		})
	}
}

// mapBodies is how many dynamic bodies (crates) a real map has.
func mapBodies(t *testing.T, name string) int {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(realTanksDir(t), "maps", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		PhysicsDynamic []json.RawMessage `json:"physicsDynamic"`
	}
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return len(m.PhysicsDynamic)
}

// The real catalog's sounds, chosen by the client and fetched from the
// test host: mp3 is the codec chosen, and every file loads and decodes.
func TestRealTanksSoundsChosenAsMP3(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cfg, err := os.ReadFile(filepath.Join(realTanksDir(t), "config-data.json"))
	if err != nil {
		t.Fatal(err)
	}
	cat, warns, err := audio.CatalogFromConfig(cfg)
	if err != nil || len(warns) != 0 {
		t.Fatalf("catalog: %v %v", err, warns)
	}
	if codec, ok := cat.Codec("mp3", "wav"); !ok || codec != "mp3" {
		t.Fatalf("codec %q %v, want mp3", codec, ok)
	}
	srv := startRealTanksHost(t, ctx, realTanksMaps[0])
	var (
		mu      sync.Mutex
		fetched []string
	)
	m := audio.NewManager(mix.New(mix.Options{}), audio.Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	defer m.Destroy()
	loading := m.Init(ctx, cat, audio.FetchFunc(func(ctx context.Context, path string) ([]byte, error) {
		mu.Lock()
		fetched = append(fetched, path)
		mu.Unlock()
		return httpGet(ctx, srv.URL()+"/games/tanks/"+path)
	}))
	select {
	case <-loading.Done():
	case <-ctx.Done():
		t.Fatal("the sounds did not load")
	}
	mu.Lock()
	defer mu.Unlock()
	loaded, failed, total := loading.Counts()
	if total != len(cat.Sounds) || loaded != total || failed != 0 {
		t.Fatalf("loaded %d, failed %d of %d (fetched %v)", loaded, failed, total, fetched)
	}
	for _, p := range fetched {
		if filepath.Ext(p) != ".mp3" {
			t.Errorf("fetched %s, want the mp3", p)
		}
	}
}

// httpGet reads one URL whole.
func httpGet(ctx context.Context, url string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s: %s", url, resp.Status)
	}
	return io.ReadAll(resp.Body)
}
