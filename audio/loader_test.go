package audio

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
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
