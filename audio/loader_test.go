package audio

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"

	"vimpclient/audio/mix"
	"vimpclient/audio/synth"
)

func TestHTTPFetcherLoadsFromAssetsBase(t *testing.T) {
	var (
		mu    sync.Mutex
		paths []string
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		paths = append(paths, r.URL.Path)
		mu.Unlock()
		name := strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, "/games/tanks/sounds/"), ".wav")
		if b, ok := synth.WAV(name); ok {
			w.Write(b)
			return
		}
		http.NotFound(w, r)
	}))
	defer srv.Close()
	base, _ := url.Parse(srv.URL + "/games/tanks/")
	cat, _, _ := ParseCatalog([]byte(`{"codecList":["webm","wav"],"sounds":{"shot":{},"missing":{"file":"nothing-here"}}}`))
	lg, sink := newLogger()
	m := NewManager(mix.New(mix.Options{}), Options{Logger: lg})
	l := m.Init(context.Background(), cat, HTTPFetcher{Client: srv.Client(), Base: base})
	<-l.Done()
	if loaded, failed, _ := l.Counts(); loaded != 1 || failed != 1 {
		t.Fatalf("loaded %d failed %d; log:\n%s", loaded, failed, sink.buf.String())
	}
	if _, ok := m.SoundConfig("shot"); !ok {
		t.Fatal("shot not known")
	}
	if _, ok := m.SoundConfig("missing"); ok {
		t.Fatal("a failed file must make the name unknown")
	}
	mu.Lock()
	defer mu.Unlock()
	for _, p := range paths {
		if !strings.HasPrefix(p, "/games/tanks/sounds/") || !strings.HasSuffix(p, ".wav") {
			t.Errorf("fetched %s", p)
		}
	}
	if _, err := (HTTPFetcher{Base: base}).Fetch(context.Background(), "/etc/passwd"); err == nil {
		t.Error("absolute path accepted")
	}
}

func TestInitCancelStopsLoading(t *testing.T) {
	blocked := make(chan struct{})
	f := FetchFunc(func(ctx context.Context, path string) ([]byte, error) {
		select {
		case blocked <- struct{}{}:
		case <-ctx.Done():
		}
		<-ctx.Done()
		return nil, ctx.Err()
	})
	cat, _, _ := ParseCatalog([]byte(`{"codecList":["wav"],"sounds":{"a":{},"b":{},"c":{}}}`))
	ctx, cancel := context.WithCancel(context.Background())
	lg, sink := newLogger()
	m := NewManager(mix.New(mix.Options{}), Options{Logger: lg})
	l := m.Init(ctx, cat, f)
	<-blocked
	cancel()
	<-l.Done()
	if sink.count("sound not loaded") != 0 {
		t.Fatal("a cancelled load must not warn")
	}
}

func TestListenerZoom(t *testing.T) {
	// tanks at the 1920 px design width: scale 5, at rest → 1; zoomed out to 0.6 → 0.6
	for _, c := range []struct{ scale, zm, base, want float64 }{
		{5, 1, 5, 1}, {5, 0.6, 5, 0.6}, {2.5, 1, 5, 0.5}, {5, 1, 0, 1},
	} {
		if got := ListenerZoom(c.scale, c.zm, c.base); got != c.want {
			t.Errorf("ListenerZoom(%v, %v, %v) = %v, want %v", c.scale, c.zm, c.base, got, c.want)
		}
	}
}

// A real host serves mp3: the loader picks it from codecList, keeps the mono file mono and
// resamples 44.1 kHz to the mixer's 48 kHz, so the first impulse lands at 1000·48/44.1 frames.
func TestLoadsMP3AndResamples(t *testing.T) {
	data, err := os.ReadFile("mp3/testdata/impulse-mono.mp3")
	if err != nil {
		t.Fatal(err)
	}
	cat, _, _ := ParseCatalog([]byte(`{"codecList":["webm","mp3"],"sounds":{"imp":{"file":"impulse-mono","volume":1}}}`))
	mx := mix.New(mix.Options{Rate: 48000})
	m := NewManager(mx, Options{})
	<-m.Init(context.Background(), cat, FetchFunc(func(ctx context.Context, path string) ([]byte, error) {
		if path != "sounds/impulse-mono.mp3" {
			return nil, fmt.Errorf("unexpected %s", path)
		}
		return data, nil
	})).Done()
	b := m.entries["imp"].ready()
	if b == nil || b.Channels != 1 || b.Rate != 48000 || b.Frames() != 14400 {
		t.Fatalf("loaded %+v", b)
	}
	at, peak := 0, float32(0)
	for i, v := range b.Data[:5000] {
		if v > peak {
			at, peak = i, v
		}
	}
	if want := 1088; at < want-1 || at > want+1 || peak < 0.4 {
		t.Fatalf("impulse at %d (%.2f), want %d", at, peak, want)
	}
}
