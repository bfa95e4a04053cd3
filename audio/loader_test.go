package audio

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"vimpclient/audio/mix"
	"vimpclient/audio/synth"
)

// expectingFiles serves synthesised WAVs and records what Init announced.
type expectingFiles struct {
	mu       sync.Mutex
	expected []string
	fetched  []string
	ctx      context.Context
}

func (e *expectingFiles) Expect(ctx context.Context, paths []string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.expected = append(e.expected, paths...)
	e.ctx = ctx
}

func (e *expectingFiles) Fetch(ctx context.Context, path string) ([]byte, error) {
	e.mu.Lock()
	e.fetched = append(e.fetched, path)
	e.mu.Unlock()
	name := strings.TrimSuffix(strings.TrimPrefix(path, "sounds/"), ".wav")
	if b, ok := synth.WAV(name); ok {
		return b, nil
	}
	return nil, fmt.Errorf("%s: not found", path)
}

// Init announces every file of the catalog, with the codec it picked, before the first fetch,
// and the announcement's context ends when a new catalog replaces the load.
func TestInitExpectsTheWholeCatalog(t *testing.T) {
	cat, _, _ := ParseCatalog([]byte(`{"codecList":["webm","wav"],"sounds":{"shot":{},"missing":{"file":"nothing-here"}}}`))
	lg, sink := newLogger()
	m := NewManager(mix.New(mix.Options{}), Options{Logger: lg})
	f := &expectingFiles{}
	l := m.Init(context.Background(), cat, f)
	<-l.Done()
	if loaded, failed, _ := l.Counts(); loaded != 1 || failed != 1 {
		t.Fatalf("loaded %d failed %d; log:\n%s", loaded, failed, sink.String())
	}
	f.mu.Lock()
	expected, fetched, ctx := slices.Sorted(slices.Values(f.expected)), slices.Sorted(slices.Values(f.fetched)), f.ctx
	f.mu.Unlock()
	want := []string{"sounds/nothing-here.wav", "sounds/shot.wav"}
	if !slices.Equal(expected, want) || !slices.Equal(fetched, want) {
		t.Fatalf("expected %q, fetched %q, want %q", expected, fetched, want)
	}
	if ctx.Err() != nil {
		t.Fatal("the load's context ended while its catalog is current")
	}
	<-m.Init(context.Background(), cat, FetchFunc(f.Fetch)).Done()
	<-ctx.Done() // a new catalog ends what the old one announced
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
