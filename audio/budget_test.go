package audio

import (
	"context"
	"log/slog"
	"os"
	"strings"
	"testing"

	"vimpclient/audio/mix"
	"vimpclient/audio/wav"
)

// loadWith loads a wav catalog of the named files into a manager at 48 kHz
// with a sound budget of budget bytes and returns what loaded.
func loadWith(t *testing.T, f files, budget int64) (loaded map[string]int, failed int, log string) {
	t.Helper()
	var b strings.Builder
	b.WriteString(`{"codecList":["wav"],"sounds":{`)
	i := 0
	for name := range f {
		if i > 0 {
			b.WriteString(",")
		}
		i++
		b.WriteString(`"` + name + `":{"file":"` + name + `"}`)
	}
	b.WriteString("}}")
	r := newRig(t, b.String(), f, Options{CatalogBytes: budget})
	loaded = map[string]int{}
	for name, e := range r.m.entries {
		if buf := e.ready(); buf != nil {
			loaded[name] = len(buf.Data) * 4
		} else {
			failed++
		}
	}
	return loaded, failed, r.log.String()
}

// Three files at the mixer's rate, 19,200 bytes each decoded: a budget of
// all three loads them, one a byte short loads two.
func TestSoundBudgetBoundsTheCatalog(t *testing.T) {
	f := files{"a": dc(4800, 0.5), "b": dc(4800, 0.5), "c": dc(4800, 0.5)}
	const result = 4800 * 4
	loaded, failed, _ := loadWith(t, f, 3*result)
	if len(loaded) != 3 || failed != 0 {
		t.Fatalf("budget for all three: loaded %v, %d failed", loaded, failed)
	}
	for name, n := range loaded {
		if n != result {
			t.Errorf("%s holds %d bytes, want %d", name, n, result)
		}
	}
	loaded, failed, log := loadWith(t, f, 3*result-1)
	if len(loaded) != 2 || failed != 1 || !strings.Contains(log, "decoded together") {
		t.Fatalf("a byte short: loaded %v, %d failed, log %s", loaded, failed, log)
	}
}

// A file at 44.1 kHz needs its result at 48 kHz and its decoded samples at
// its own rate while it is resampled; once loaded it holds the result only.
func TestSoundBudgetGivesBackTheDecodeBuffer(t *testing.T) {
	const result, native = 4800 * 4, 4410 * 4
	cat, _, _ := ParseCatalog([]byte(`{"codecList":["wav"],"sounds":{"a":{"file":"a"}}}`))
	f := files{"a": wav.Encode(make([]float32, 4410), 44100, 1)}
	for _, tc := range []struct {
		budget int64
		loads  bool
	}{{result + native, true}, {result + native - 1, false}} {
		m := NewManager(mix.New(mix.Options{Rate: rate}), Options{CatalogBytes: tc.budget, Logger: slog.New(slog.DiscardHandler)})
		l := m.Init(context.Background(), cat, f)
		<-l.Done()
		got := m.entries["a"].ready() != nil
		if got != tc.loads {
			t.Fatalf("budget %d: loaded %v, want %v", tc.budget, got, tc.loads)
		}
		if want := map[bool]int64{true: result}[got]; l.budget.used.Load() != want {
			t.Errorf("budget %d: %d bytes held after the load, want %d", tc.budget, l.budget.used.Load(), want)
		}
	}
}

// A file whose header claims more than the budget is refused before it is
// decoded; the files that fit still load.
func TestSoundBudgetRefusesFromTheHeader(t *testing.T) {
	big := wav.Encode(make([]float32, 48000), 48000, 1) // 192,000 bytes decoded
	f := files{"big": big, "small": dc(4800, 0.5)}
	loaded, failed, log := loadWith(t, f, 100_000)
	if _, ok := loaded["small"]; !ok || len(loaded) != 1 || failed != 1 {
		t.Fatalf("loaded %v, %d failed", loaded, failed)
	}
	if !strings.Contains(log, "name=big") || !strings.Contains(log, "more than 100000 bytes") {
		t.Errorf("log %s", log)
	}
}

// An MP3 is held to the budget from its frame headers.
func TestSoundBudgetBoundsMP3(t *testing.T) {
	data, err := os.ReadFile("mp3/testdata/impulse-mono.mp3")
	if err != nil {
		t.Fatal(err)
	}
	cat, _, _ := ParseCatalog([]byte(`{"codecList":["mp3"],"sounds":{"imp":{"file":"impulse-mono"}}}`))
	fetch := FetchFunc(func(ctx context.Context, path string) ([]byte, error) { return data, nil })
	for _, tc := range []struct {
		budget int64
		loads  bool
	}{{1 << 20, true}, {20_000, false}} { // it takes 14,400 frames, 57,600 bytes, at 48 kHz
		m := NewManager(mix.New(mix.Options{Rate: 48000}), Options{CatalogBytes: tc.budget, Logger: slog.New(slog.DiscardHandler)})
		<-m.Init(context.Background(), cat, fetch).Done()
		if got := m.entries["imp"].ready() != nil; got != tc.loads {
			t.Errorf("budget %d: loaded %v, want %v", tc.budget, got, tc.loads)
		}
	}
}
