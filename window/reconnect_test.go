package window

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"slices"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"vimpclient/assets"
	"vimpclient/audio"
	"vimpclient/audio/mix"
	"vimpclient/gameloop"
	"vimpclient/host"
	"vimpclient/host/sounds"
	"vimpclient/render"
	"vimpclient/session"
)

// soakEnv opts in to the reconnect soak: the number of reconnects.
const soakEnv = "VIMP_RECONNECT_SOAK"

// soakIdleEnv, with the soak, is how long the host lets the player idle
// before it kicks (a duration; default 3s): each match lasts about that.
const soakIdleEnv = "VIMP_RECONNECT_SOAK_IDLE"

// soakProfileEnv, with the soak, names a directory for a heap profile
// after the first match and after the last (go tool pprof -base).
const soakProfileEnv = "VIMP_RECONNECT_SOAK_PROFILES"

// soakSample is what the process holds once a match has loaded.
type soakSample struct {
	rss, rssFreed, heap, gpu uint64
	// goMapped is what the Go runtime holds of the resident set at most
	// (mapped and not returned): the rest is the graphics driver's and
	// other C allocations.
	goMapped   uint64
	goroutines int
	// chunks and decals are the GPU images the renderer's map chunks and
	// decal pages hold, of gpu.
	chunks, decals int
}

// currentRSS is the process's resident set now, in bytes.
func currentRSS() (uint64, bool) {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0, false
	}
	f := bytes.Fields(b)
	if len(f) < 2 {
		return 0, false
	}
	pages, err := strconv.ParseUint(string(f[1]), 10, 64)
	if err != nil {
		return 0, false
	}
	return pages * uint64(os.Getpagesize()), true
}

// residentByKind sums the resident set by where it lies: the C heap's
// main arena ("[heap]"), anonymous mappings ("anon": the Go runtime's
// arenas, the C heap's other arenas and large allocations, thread
// stacks), and each mapped file by name.
func residentByKind() map[string]uint64 {
	b, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		return nil
	}
	out := map[string]uint64{}
	kind := ""
	for _, line := range bytes.Split(b, []byte("\n")) {
		f := bytes.Fields(line)
		switch {
		case len(f) >= 5 && bytes.Contains(f[0], []byte("-")) && len(f[1]) == 4:
			kind = "anon"
			if len(f) >= 6 {
				kind = filepath.Base(string(f[5]))
			}
		case len(f) == 3 && string(f[0]) == "Rss:":
			kb, _ := strconv.ParseUint(string(f[1]), 10, 64)
			out[kind] += kb << 10
		}
	}
	return out
}

// The whole window against the embedded host (on one map) that kicks it for
// being idle a few seconds into every match (VIMP_RECONNECT_SOAK_IDLE):
// it reconnects VIMP_RECONNECT_SOAK times, and late in each match the test
// notes the resident set (as it is, and once the collector has returned
// what it can), the Go heap in use and the GPU images. The matches after
// the first may add at most 5 MB to the resident set in all. Opt-in: a
// minute and a half for 10 reconnects of 3 s matches; the soak runs in a
// test process of its own, which has go test's default ten minutes.
func TestWindowReconnectSoak(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv(soakEnv))
	if n <= 0 {
		t.Skip("set " + soakEnv + "=N to reconnect N times")
	}
	if runtime.GOOS != "linux" {
		t.Skip("the resident set is read from /proc")
	}
	if err := Available(); err != nil {
		t.Skip(err)
	}
	if !inOwnProcess(t) {
		return
	}
	idle := 3 * time.Second
	if v := os.Getenv(soakIdleEnv); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < 2*time.Second {
			t.Fatalf("%s=%q: want a duration of 2s or more", soakIdleEnv, v)
		}
		idle = d
	}
	// A match is sampled late, once what its play makes is made, yet
	// before the kick ends it.
	sampleAfter := max(time.Second, idle-2*time.Second)
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(n+2)*(idle+40*time.Second))
	defer cancel()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	srv, err := host.Start(ctx, host.Config{Addr: "127.0.0.1:0", Sound: sounds.File, Log: quiet, Bots: 2, Seed: 3, Map: "yard",
		IdleTimeout: idle, IdleCheck: 250 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	sess := session.New(session.Options{Auth: session.AuthValues{Nick: "Idler"}, AutoTeam: true, Team: "team1", Logger: quiet})
	dl, err := assets.New(assets.Options{Client: http.DefaultClient, Base: srv.URL() + "/games/tanks/", Log: quiet})
	if err != nil {
		t.Fatal(err)
	}
	r := render.New(ctx, render.Options{Assets: dl, Log: quiet})
	snd := audio.NewManager(mix.New(mix.Options{}), audio.Options{Logger: quiet})
	t.Cleanup(snd.Destroy)
	loop := gameloop.New(gameloop.Options{Session: sess, Log: quiet, Start: time.Now(), Textures: r.Textures(),
		Sounds: snd, SoundFetcher: func(session.Target) (audio.Fetcher, error) { return dl.Sounds(), nil },
		Interactive: true, AutoTeam: true})
	runner := &session.Runner{Session: sess, Addr: srv.URL(), Client: http.DefaultClient, OnTarget: loop.SetTarget}
	runDone := make(chan struct{})
	go func() { defer close(runDone); runner.Run(ctx) }()

	var playing atomic.Int64 // connections that reached play
	sess.OnPlaying(func() { playing.Add(1) })
	profiles := os.Getenv(soakProfileEnv)
	var samples []soakSample
	var firstKinds, lastKinds map[string]uint64
	sampled, loadedAt := 0, time.Time{}
	// Called on the window's goroutine every frame (as its clock): a match
	// counts as loaded once it plays with its images, sounds and textures
	// ready, and is sampled sampleAfter later (a match kicked before is
	// not); the last sample closes the window.
	sample := func() bool {
		conns := int(playing.Load())
		_, loading := r.Loading()
		ready := conns > sampled && loop.Stats().Close == nil && !loading && !loop.World().Preparing()
		switch {
		case !ready:
			loadedAt = time.Time{}
			return false
		case loadedAt.IsZero():
			loadedAt = time.Now()
			return false
		case time.Since(loadedAt) < sampleAfter:
			return false
		}
		sampled = conns
		runtime.GC()
		var s soakSample
		s.rss, _ = currentRSS()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		s.heap = ms.HeapInuse
		var d ebiten.DebugInfo
		ebiten.ReadDebugInfo(&d)
		s.gpu = uint64(d.TotalGPUImageMemoryUsageInBytes)
		_, s.chunks, _ = r.BakeStats()
		_, s.decals, _ = r.DecalStats()
		debug.FreeOSMemory()
		s.rssFreed, _ = currentRSS()
		runtime.ReadMemStats(&ms)
		s.goMapped = ms.Sys - ms.HeapReleased
		s.goroutines = runtime.NumGoroutine()
		if len(samples) == 0 {
			firstKinds = residentByKind()
		}
		lastKinds = residentByKind()
		samples = append(samples, s)
		if profiles != "" && (len(samples) == 1 || len(samples) == n+1) {
			writeHeap(t, filepath.Join(profiles, fmt.Sprintf("heap%d.pb.gz", len(samples))))
		}
		return len(samples) == n+1
	}
	clock := func() time.Time {
		if ctx.Err() == nil && sample() {
			cancel()
		}
		return time.Now()
	}
	w, err := New(ctx, loop, r, Options{Title: "soak", Width: 1280, Height: 720, NoVsync: true, Log: quiet, Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	playToEnd(t, w, cancel, runDone)
	if len(samples) != n+1 {
		t.Fatalf("%d matches sampled, want %d", len(samples), n+1)
	}
	mb := func(b uint64) float64 { return float64(b) / 1e6 }
	for i, s := range samples {
		t.Logf("match %2d: RSS %.1f MB (%.1f MB with the free heap returned, %.1f MB of it outside Go), Go heap in use %.1f MB, GPU images %.1f MB (map chunks %.1f, decals %.1f), %d goroutines",
			i+1, mb(s.rss), mb(s.rssFreed), mb(s.rssFreed)-mb(s.goMapped), mb(s.heap), mb(s.gpu), mb(uint64(s.chunks)), mb(uint64(s.decals)), s.goroutines)
	}
	first, last := samples[0], samples[n]
	t.Logf("%d reconnects: RSS %+.1f MB (%+.1f MB returned), Go heap %+.1f MB, GPU images %+.1f MB", n,
		mb(last.rss)-mb(first.rss), mb(last.rssFreed)-mb(first.rssFreed), mb(last.heap)-mb(first.heap), mb(last.gpu)-mb(first.gpu))
	// Where the resident set grew, the largest changes first.
	type change struct {
		kind  string
		delta int64
	}
	var changes []change
	for k := range lastKinds {
		changes = append(changes, change{k, int64(lastKinds[k]) - int64(firstKinds[k])})
	}
	for k := range firstKinds {
		if _, ok := lastKinds[k]; !ok {
			changes = append(changes, change{k, -int64(firstKinds[k])})
		}
	}
	slices.SortFunc(changes, func(a, b change) int { return cmp.Compare(max(b.delta, -b.delta), max(a.delta, -a.delta)) })
	for _, c := range changes[:min(len(changes), 8)] {
		t.Logf("resident in %s: %+.1f MB (%.1f MB at the last match)", c.kind, float64(c.delta)/1e6, float64(lastKinds[c.kind])/1e6)
	}
	if grown := int64(last.rssFreed) - int64(first.rssFreed); grown > 5e6 {
		t.Errorf("%d reconnects grew the resident set %.1f MB, want at most 5", n, float64(grown)/1e6)
	}
}

// writeHeap writes the heap profile to path.
func writeHeap(t *testing.T, path string) {
	f, err := os.Create(path)
	if err != nil {
		t.Error(err)
		return
	}
	defer f.Close()
	if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
		t.Error(err)
	}
}
