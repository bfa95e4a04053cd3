package main

import (
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

	"vimpclient/assets"
	"vimpclient/audio"
	"vimpclient/audio/mix"
	"vimpclient/gameloop"
	"vimpclient/host"
	"vimpclient/host/sounds"
	"vimpclient/input"
	"vimpclient/session"
	"vimpclient/testkit/capturetest"
)

// realTanksMaps are the maps of the real tanks game, as its data names them.
var realTanksMaps = []string{"pool-mini", "garden", "canopy"}

// realTanksVersions are the real tanks releases the test data holds, each
// with its maps.
var realTanksVersions = []struct {
	version string
	maps    []string
}{
	{"0.13", realTanksMaps},
	{"0.22", []string{"downtown", "overpass", "terraces", "pool-mini", "garden", "canopy"}},
}

// realTanksDir is what a real tanks 0.13 host sends, as the test data holds it.
func realTanksDir(t *testing.T) string { return realTanksDirOf(t, "0.13") }

// realTanksDirOf is what a real host of tanks version sends.
func realTanksDirOf(t *testing.T, version string) string {
	return filepath.Join(capturetest.SharedDir(t), "captures", "real-tanks-"+version)
}

// startRealTanksHost starts a test host that sends exactly the real data:
// its CONFIG_DATA, AUTH_DATA and the map's MAP_DATA verbatim, with frames
// the match packs for that CONFIG_DATA's schema, the bots asked for, and
// the sounds as mp3 and webm.
func startRealTanksHost(t *testing.T, ctx context.Context, mapName string, bots int) *host.Server {
	return startRealTanksHostOf(t, ctx, realTanksDir(t), mapName, bots)
}

// startRealTanksHostOf is startRealTanksHost with the data of dir.
func startRealTanksHostOf(t *testing.T, ctx context.Context, dir, mapName string, bots int) *host.Server {
	t.Helper()
	game, auth, err := host.LoadGameData(dir)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := host.Start(ctx, host.Config{Addr: "127.0.0.1:0", Bots: bots, Seed: 1, Map: mapName, Data: game, AuthData: auth,
		Sound: sounds.File, Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	return srv
}

// The client against a host that sends what a real tanks host sends (0.13
// and today's 0.22), on each of the game's maps, headless as `vimpclient -headless
// -team team1 -script testdata/scripts/drive.txt URL` runs it (the same
// session, loop, key script and asset downloader), until it has reached
// play, seen both tanks and every crate of the map, predicted its tank for
// 60 samples and heard its sounds (the catalog's mp3s: the only codec of
// the list it decodes, fetched, decoded and mixed); then every frame
// decoded and no prediction snapped. The other tank is a second client's,
// in team2, that never moves or fires: a bot's shot would push the tank
// in a way no prediction can know. The deadline only bounds a failure.
func TestHeadlessOnTheRealTanksMaps(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	f, err := os.Open(filepath.Join("..", "..", "testdata", "scripts", "drive.txt"))
	if err != nil {
		t.Fatal(err)
	}
	steps, err := input.ParseScript(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	for _, v := range realTanksVersions {
		for _, name := range v.maps {
			dir := realTanksDirOf(t, v.version)
			t.Run(v.version+"/"+name, func(t *testing.T) { headlessOnARealMap(t, quiet, steps, dir, name) })
		}
	}
}

func headlessOnARealMap(t *testing.T, quiet *slog.Logger, steps []input.ScriptStep, dir, name string) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	srv := startRealTanksHostOf(t, ctx, dir, name, 0)
	dl, err := assets.New(assets.Options{Client: http.DefaultClient, Base: srv.URL() + "/games/tanks/", Log: quiet})
	if err != nil {
		t.Fatal(err)
	}
	mx := mix.New(mix.Options{})
	snd := audio.NewManager(mx, audio.Options{Logger: quiet})
	defer snd.Destroy()
	sess := session.New(session.Options{Auth: session.AuthValues{Nick: "Driver"}, AutoTeam: true, Team: "team1", Logger: quiet})
	ents := gameloop.NewEntities()
	g := gameloop.New(gameloop.Options{Session: sess, Log: quiet, Start: time.Now(), Context: ctx, AutoTeam: true, Team: "team1",
		Observer: ents, Sounds: snd, SoundFetcher: func(session.Target) (audio.Fetcher, error) { return dl.Sounds(), nil }})
	g.SetInput(gameloop.NewScript(steps))
	crates := mapBodiesIn(t, dir, name)
	var energy float64
	buf := make([]float32, 2*480)
	play, stop := context.WithCancel(ctx)
	defer stop()
	ents.OnTick = func(g *gameloop.Loop, _ time.Time) {
		clear(buf)
		mx.Mix(buf)
		for _, v := range buf {
			energy += float64(v) * float64(v)
		}
		p := g.Stats().Prediction
		if sess.Stats().Player && ents.Count("m1") >= 2 && ents.Count("c1") == crates && p != nil && p.Samples >= 60 && energy > 1 {
			stop()
		}
	}
	runner := &session.Runner{Session: sess, Addr: srv.URL(), Client: http.DefaultClient, OnTarget: g.SetTarget}
	other := session.New(session.Options{Auth: session.AuthValues{Nick: "Target"}, AutoTeam: true, Team: "team2", Logger: quiet})
	og := gameloop.New(gameloop.Options{Session: other, Log: quiet, Start: time.Now(), Context: ctx, AutoTeam: true, Team: "team2"})
	orun := &session.Runner{Session: other, Addr: srv.URL(), Client: http.DefaultClient, OnTarget: og.SetTarget}
	otherDone := make(chan struct{})
	go func() { defer close(otherDone); gameloop.RunHeadless(play, og, orun.Run, 30, nil) }()
	defer func() { <-otherDone }()
	start := time.Now()
	gameloop.RunHeadless(play, g, runner.Run, 60, nil)
	s := gameloop.Summarize(g, ents, time.Since(start))
	t.Logf("%s: state %s after %v, frames %+v, entities %v, prediction %+v, sound energy %.1f",
		name, s.State, time.Since(start).Round(time.Millisecond), s.Frames, s.Entities, s.Prediction, energy)
	if ctx.Err() != nil {
		t.Fatalf("timed out: player %v, entities %v, prediction %+v, sound energy %v", s.Player, s.Entities, s.Prediction, energy)
	}
	if s.State != "playing" || len(s.Errors) != 0 || s.Undecodable != nil {
		t.Fatalf("state %q errors %v undecodable %+v", s.State, s.Errors, s.Undecodable)
	}
	if f := s.Frames; f.Received == 0 || f.Decoded != uint64(f.Received) || f.Dropped != 0 {
		t.Errorf("frames %+v", f)
	}
	if p := s.Prediction; p.Snaps != 0 {
		t.Errorf("prediction %+v", p)
	}
	// Every class the host names is drawn by the game's own parts.
	if s.Game == nil || s.Game.Name != "tanks" {
		t.Fatalf("game %+v", s.Game)
	}
	for class, drawer := range s.Game.Parts {
		if drawer != "tanks" {
			t.Errorf("%s drawn by %q", class, drawer)
		}
	}
}

// mapBodiesIn is how many dynamic bodies a real map of the data in dir has.
func mapBodiesIn(t *testing.T, dir, name string) int {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "maps", name+".json"))
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
	srv := startRealTanksHost(t, ctx, realTanksMaps[0], 1)
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
