package assets

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"image"
	"image/color"
	"image/png"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// testHost is an https host serving files under /games/tanks/ and counting
// the requests it gets.
type testHost struct {
	srv *httptest.Server

	mu       sync.Mutex
	files    map[string][]byte
	handlers map[string]http.HandlerFunc
	hits     map[string]int
}

func newTestHost(t testing.TB, files map[string][]byte) *testHost {
	h := &testHost{files: files, handlers: map[string]http.HandlerFunc{}, hits: map[string]int{}}
	h.srv = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.mu.Lock()
		h.hits[r.URL.Path]++
		b, ok := h.files[r.URL.Path]
		hf := h.handlers[r.URL.Path]
		h.mu.Unlock()
		switch {
		case hf != nil:
			hf(w, r)
		case ok:
			w.Write(b)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(h.srv.Close)
	return h
}

func (h *testHost) base() string { return h.srv.URL + "/games/tanks/" }

func (h *testHost) handle(path string, f http.HandlerFunc) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.handlers[path] = f
}

func (h *testHost) hitsOf(path string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.hits[path]
}

func (h *testHost) totalHits() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for _, v := range h.hits {
		n += v
	}
	return n
}

// logBuffer collects a downloader's log lines.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logBuffer) count(s string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Count(l.buf.String(), s)
}

func newDownloader(t testing.TB, h *testHost, o Options) (*Downloader, *logBuffer) {
	t.Helper()
	lb := &logBuffer{}
	o.Client = h.srv.Client()
	if o.Base == "" {
		o.Base = h.base()
	}
	if o.Host == "" {
		o.Host = h.srv.Listener.Addr().String()
	}
	o.Log = slog.New(slog.NewTextHandler(lb, &slog.HandlerOptions{Level: slog.LevelDebug}))
	d, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	return d, lb
}

func pngBytes(t testing.TB, w, h int) []byte {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	img.Set(0, 0, color.NRGBA{10, 20, 30, 255})
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// pngHeader is the signature and IHDR chunk of a PNG claiming w×h pixels,
// and nothing else: no pixel data at all.
func pngHeader(w, h uint32) []byte {
	var ihdr [13]byte
	binary.BigEndian.PutUint32(ihdr[0:], w)
	binary.BigEndian.PutUint32(ihdr[4:], h)
	ihdr[8], ihdr[9] = 8, 6 // 8-bit RGBA
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	binary.Write(&b, binary.BigEndian, uint32(len(ihdr)))
	chunk := append([]byte("IHDR"), ihdr[:]...)
	b.Write(chunk)
	binary.Write(&b, binary.BigEndian, crc32.ChecksumIEEE(chunk))
	return b.Bytes()
}

func TestImageSoundAndMap(t *testing.T) {
	h := newTestHost(t, map[string][]byte{
		"/games/tanks/img/tiles.png":        pngBytes(t, 64, 32),
		"/games/tanks/sounds/shot.mp3":      []byte("ID3 not decoded here"),
		"/games/tanks/maps/pool mini":       []byte(`{"map":[[0]]}`),
		"/games/tanks/maps/manifest.json":   []byte(`{"version":"0123","maps":["pool mini"]}`),
		"/games/tanks/maps/broken":          []byte(`{"map":`),
		"/games/tanks/img/not-an-image.png": []byte("plain text"),
	})
	d, _ := newDownloader(t, h, Options{})
	ctx := context.Background()
	img, err := d.Image(ctx, "tiles.png")
	if err != nil || img.Bounds().Dx() != 64 || img.Bounds().Dy() != 32 {
		t.Fatalf("image %v, %v", img, err)
	}
	if b, err := d.Sounds().Fetch(ctx, "sounds/shot.mp3"); err != nil || string(b) != "ID3 not decoded here" {
		t.Fatalf("sound %q, %v", b, err)
	}
	if b, err := d.Map(ctx, "pool mini"); err != nil || string(b) != `{"map":[[0]]}` {
		t.Fatalf("map %q, %v", b, err)
	}
	if _, err := d.Fetch(ctx, JSON, "maps/manifest.json"); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Map(ctx, "broken"); err == nil || !strings.Contains(err.Error(), "maps/broken: not JSON") {
		t.Fatalf("broken map: %v", err)
	}
	if _, err := d.Map(ctx, "../img/tiles.png"); !errors.Is(err, ErrRefused) {
		t.Fatalf("map name with a slash: %v", err)
	}
	if _, err := d.Image(ctx, "not-an-image.png"); err == nil || !strings.Contains(err.Error(), "img/not-an-image.png") {
		t.Fatalf("text as an image: %v", err)
	}
	if p := d.Progress(); p != (Progress{Done: 6, Failed: 2, Total: 6}) {
		t.Fatalf("progress %+v", p)
	}
}

func TestImageOverTheByteLimit(t *testing.T) {
	big := pngBytes(t, 300, 300)
	h := newTestHost(t, map[string][]byte{"/games/tanks/img/big.png": big})
	h.handle("/games/tanks/img/chunked.png", func(w http.ResponseWriter, r *http.Request) {
		w.Write(big[:10]) // two writes and a flush: no Content-Length
		w.(http.Flusher).Flush()
		w.Write(big[10:])
	})
	lim := Limits{ImageBytes: int64(len(big)) - 1}
	d, _ := newDownloader(t, h, Options{Limits: lim})
	for _, file := range []string{"big.png", "chunked.png"} {
		_, err := d.Image(context.Background(), file)
		var le *LimitError
		if !errors.As(err, &le) || !errors.Is(err, ErrTooLarge) || le.What != "bytes" || le.Limit != lim.ImageBytes {
			t.Fatalf("%s: %v", file, err)
		}
		if msg := err.Error(); !strings.Contains(msg, "img/"+file) || !strings.Contains(msg, "limit of") {
			t.Errorf("error %q names neither the file nor the limit", msg)
		}
	}
}

// The images of one downloader share a budget of texture bytes (4 a
// pixel): one past it is refused, the ones before it kept.
func TestImagesShareATextureByteBudget(t *testing.T) {
	files := map[string][]byte{}
	for i := range 3 {
		var b bytes.Buffer
		if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, 100, 100))); err != nil {
			t.Fatal(err)
		}
		files[fmt.Sprintf("/games/tanks/img/%d.png", i)] = b.Bytes()
	}
	h := newTestHost(t, files)
	d, _ := newDownloader(t, h, Options{Limits: Limits{TextureBytes: 100000}})
	for i, ok := range []bool{true, true, false} {
		_, err := d.Image(context.Background(), fmt.Sprintf("%d.png", i))
		var le *LimitError
		if ok != (err == nil) || (!ok && (!errors.As(err, &le) || le.Got != 120000 || le.Limit != 100000)) {
			t.Errorf("image %d: %v", i, err)
		}
	}
}

// A few bytes claiming a huge picture are refused from the header: nothing
// is decoded (the file has no pixels at all, so decoding would fail otherwise).
func TestImageOverTheDimensionLimits(t *testing.T) {
	h := newTestHost(t, map[string][]byte{
		"/games/tanks/img/huge.png": pngHeader(100000, 100000),
		"/games/tanks/img/wide.png": pngHeader(9000, 10),
		"/games/tanks/img/many.png": pngHeader(8000, 8000),
	})
	d, _ := newDownloader(t, h, Options{})
	for file, want := range map[string]LimitError{
		"huge.png": {File: "img/huge.png", Kind: Image, What: "px a side", Got: 100000, Limit: 8192},
		"wide.png": {File: "img/wide.png", Kind: Image, What: "px a side", Got: 9000, Limit: 8192},
		"many.png": {File: "img/many.png", Kind: Image, What: "pixels", Got: 64000000, Limit: 4 << 20},
	} {
		_, err := d.Image(context.Background(), file)
		var le *LimitError
		if !errors.As(err, &le) || *le != want {
			t.Errorf("%s: %v, want %v", file, err, &want)
		}
	}
	if msg := (&LimitError{File: "img/huge.png", Kind: Image, What: "px a side", Got: 100000, Limit: 8192}).Error(); msg !=
		"img/huge.png: 100000 px a side, over the image limit of 8192" {
		t.Errorf("message %q", msg)
	}
}

func TestSoundAndJSONByteLimits(t *testing.T) {
	h := newTestHost(t, map[string][]byte{
		"/games/tanks/sounds/long.mp3":    make([]byte, 2000),
		"/games/tanks/maps/manifest.json": []byte(`{"maps":["` + strings.Repeat("m", 2000) + `"]}`),
	})
	d, _ := newDownloader(t, h, Options{Limits: Limits{SoundBytes: 1000, JSONBytes: 1000}})
	if _, err := d.Fetch(context.Background(), Sound, "sounds/long.mp3"); !errors.Is(err, ErrTooLarge) ||
		!strings.Contains(err.Error(), "sounds/long.mp3: 2000 bytes, over the sound limit of 1000") {
		t.Errorf("sound: %v", err)
	}
	if _, err := d.Fetch(context.Background(), JSON, "maps/manifest.json"); !errors.Is(err, ErrTooLarge) {
		t.Errorf("manifest: %v", err)
	}
}

// Paths that leave the assets base are refused before any request, and so
// is a redirect to another host or out of the base.
func TestEscapesAreRefused(t *testing.T) {
	other := newTestHost(t, map[string][]byte{"/games/tanks/img/x.png": pngBytes(t, 1, 1)})
	h := newTestHost(t, map[string][]byte{"/secret.png": pngBytes(t, 1, 1)})
	h.handle("/games/tanks/img/away.png", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.srv.URL+"/games/tanks/img/x.png", http.StatusFound)
	})
	h.handle("/games/tanks/img/up.png", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/secret.png", http.StatusFound)
	})
	d, _ := newDownloader(t, h, Options{})
	for _, file := range []string{"../../secret.png", "/secret.png", other.srv.URL + "/games/tanks/img/x.png",
		"..\\..\\secret.png", "%2e%2e/%2e%2e/secret.png", "a/../../../secret.png"} {
		if _, err := d.Image(context.Background(), file); !errors.Is(err, ErrRefused) {
			t.Errorf("%q: %v, want refused", file, err)
		}
	}
	if n := h.totalHits() + other.totalHits(); n != 0 {
		t.Fatalf("refused paths made %d requests", n)
	}
	for _, file := range []string{"away.png", "up.png"} {
		if _, err := d.Image(context.Background(), file); !errors.Is(err, ErrRefused) {
			t.Errorf("redirect %s: %v, want refused", file, err)
		}
	}
	if other.totalHits() != 0 || h.hitsOf("/secret.png") != 0 {
		t.Fatal("a redirect was followed out of the assets base")
	}
	if p := d.Progress(); p != (Progress{Done: 2, Failed: 2, Total: 2}) {
		t.Fatalf("progress %+v: refused paths count as nothing, refused redirects as failures", p)
	}
}

// A fetch whose context ends returns at once; the file is not marked
// failed, so the next fetch asks again. A host slower than the per-file
// timeout fails the file.
func TestSlowHost(t *testing.T) {
	h := newTestHost(t, nil)
	arrived := make(chan struct{}, 4)
	var fast atomic.Bool
	h.handle("/games/tanks/sounds/slow.mp3", func(w http.ResponseWriter, r *http.Request) {
		if fast.Load() {
			w.Write([]byte("at last"))
			return
		}
		arrived <- struct{}{}
		<-r.Context().Done()        // never answers on its own
		panic(http.ErrAbortHandler) // and sends nothing when given up: no empty 200
	})
	d, _ := newDownloader(t, h, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := d.Fetch(ctx, Sound, "sounds/slow.mp3")
		errc <- err
	}()
	<-arrived
	if p := d.Progress(); p != (Progress{Total: 1}) {
		t.Fatalf("progress under way %+v", p)
	}
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled fetch: %v", err)
	}
	if p := d.Progress(); p != (Progress{}) {
		t.Fatalf("a cancelled fetch is still counted: %+v", p)
	}
	fast.Store(true)
	if b, err := d.Fetch(context.Background(), Sound, "sounds/slow.mp3"); err != nil || string(b) != "at last" {
		t.Fatalf("fetch after a cancel: %q, %v", b, err)
	}

	fast.Store(false)
	d2, _ := newDownloader(t, h, Options{Limits: Limits{Timeout: 50 * time.Millisecond}})
	if _, err := d2.Fetch(context.Background(), Sound, "sounds/slow.mp3"); !errors.Is(err, context.DeadlineExceeded) ||
		!strings.Contains(err.Error(), "sounds/slow.mp3") {
		t.Fatalf("timed out fetch: %v", err)
	}
	<-arrived // its one request
	if p := d2.Progress(); p != (Progress{Done: 1, Failed: 1, Total: 1}) {
		t.Fatalf("a timed out file is not failed: %+v", p)
	}
}

// A missing file is asked for once however many ask, and logged once.
func TestNotFoundOnce(t *testing.T) {
	h := newTestHost(t, nil)
	d, logs := newDownloader(t, h, Options{})
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Go(func() { _, errs[i] = d.Image(context.Background(), "missing.png") })
	}
	wg.Wait()
	errs = append(errs, nil)
	_, errs[len(errs)-1] = d.Image(context.Background(), "missing.png")
	for _, err := range errs {
		var se *StatusError
		if !errors.Is(err, ErrNotFound) || !errors.As(err, &se) || se.File != "img/missing.png" || se.Code != 404 {
			t.Fatalf("error %v", err)
		}
	}
	if n := h.hitsOf("/games/tanks/img/missing.png"); n != 1 {
		t.Fatalf("%d requests for a missing file", n)
	}
	if n := logs.count("asset unavailable"); n != 1 {
		t.Fatalf("logged %d times:\n%s", n, logs.buf.String())
	}
}

// No more than Parallel files are fetched at once.
func TestBoundedConcurrency(t *testing.T) {
	h := newTestHost(t, nil)
	var inFlight, most atomic.Int32
	arrived, release := make(chan struct{}, 16), make(chan struct{}, 16)
	for i := range 6 {
		h.handle("/games/tanks/sounds/"+string(rune('a'+i)), func(w http.ResponseWriter, r *http.Request) {
			n := inFlight.Add(1)
			for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
			}
			arrived <- struct{}{}
			<-release
			inFlight.Add(-1)
			w.Write([]byte("ok"))
		})
	}
	d, _ := newDownloader(t, h, Options{Limits: Limits{Parallel: 2}})
	var wg sync.WaitGroup
	for i := range 6 {
		wg.Go(func() {
			if _, err := d.Fetch(context.Background(), Sound, "sounds/"+string(rune('a'+i))); err != nil {
				t.Error(err)
			}
		})
	}
	<-arrived
	<-arrived // two are in; the others wait for a slot
	for range 6 {
		release <- struct{}{}
	}
	for range 4 {
		<-arrived
	}
	wg.Wait()
	if m := most.Load(); m != 2 {
		t.Fatalf("%d files at once, want 2", m)
	}
}

func TestExpectCountsAheadOfFetches(t *testing.T) {
	h := newTestHost(t, map[string][]byte{"/games/tanks/sounds/a.mp3": []byte("a")})
	d, _ := newDownloader(t, h, Options{})
	ended := make(chan struct{})
	d.expectEnded = func() { close(ended) }
	ctx, cancel := context.WithCancel(context.Background())
	d.Expect(ctx, Sound, "sounds/a.mp3", "sounds/b.mp3", "sounds/c.mp3", "../refused", "sounds/a.mp3")
	if p := d.Progress(); p != (Progress{Total: 3}) {
		t.Fatalf("expected %+v", p)
	}
	if _, err := d.Fetch(ctx, Sound, "sounds/a.mp3"); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Fetch(ctx, Sound, "sounds/b.mp3"); !errors.Is(err, ErrNotFound) {
		t.Fatal(err)
	}
	if p := d.Progress(); p != (Progress{Done: 2, Failed: 1, Total: 3}) || !p.Loading() || p.Fraction() != 2.0/3 {
		t.Fatalf("after two fetches %+v", p)
	}
	cancel() // the load gave up: c will never come
	<-ended
	if p := d.Progress(); p.Loading() || p.Fraction() != 1 {
		t.Fatalf("after the load ended %+v", p)
	}
}

func TestFileCountLimit(t *testing.T) {
	h := newTestHost(t, map[string][]byte{"/games/tanks/a": []byte("1"), "/games/tanks/b": []byte("2"), "/games/tanks/c": []byte("3")})
	d, _ := newDownloader(t, h, Options{Limits: Limits{Files: 2}})
	for _, p := range []string{"a", "b", "a"} {
		if _, err := d.Fetch(context.Background(), Sound, p); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := d.Fetch(context.Background(), Sound, "c"); !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), "more than 2 files") {
		t.Fatalf("third file: %v", err)
	}
}

// A second run of the same host and game version reads everything from the
// disk cache; another version does not.
func TestCacheHitsMakeNoRequest(t *testing.T) {
	h := newTestHost(t, map[string][]byte{
		"/games/tanks/img/tiles.png":   pngBytes(t, 16, 16),
		"/games/tanks/sounds/shot.mp3": []byte("mp3 bytes"),
	})
	cache := openTestCache(t, 1<<20)
	run := func(version string) {
		t.Helper()
		d, _ := newDownloader(t, h, Options{Cache: cache, Version: version})
		if img, err := d.Image(context.Background(), "tiles.png"); err != nil || img.Bounds().Dx() != 16 {
			t.Fatalf("image %v, %v", img, err)
		}
		if b, err := d.Fetch(context.Background(), Sound, "sounds/shot.mp3"); err != nil || string(b) != "mp3 bytes" {
			t.Fatalf("sound %q, %v", b, err)
		}
	}
	run("v1")
	if n := h.totalHits(); n != 2 {
		t.Fatalf("first run: %d requests", n)
	}
	run("v1")
	if n := h.totalHits(); n != 2 {
		t.Fatalf("second run made %d requests", n-2)
	}
	run("v2")
	if n := h.totalHits(); n != 4 {
		t.Fatalf("a new game version made %d requests, want 2", n-2)
	}
}

// A damaged cache entry is noticed, fetched again and replaced.
func TestCacheCorruptionIsRefetched(t *testing.T) {
	h := newTestHost(t, map[string][]byte{"/games/tanks/img/tiles.png": pngBytes(t, 16, 16)})
	cache := openTestCache(t, 1<<20)
	fetch := func() {
		t.Helper()
		d, _ := newDownloader(t, h, Options{Cache: cache, Version: "v"})
		if _, err := d.Image(context.Background(), "tiles.png"); err != nil {
			t.Fatal(err)
		}
	}
	fetch()
	files := cacheFiles(t, cache)
	if len(files) != 1 {
		t.Fatalf("cache files %q", files)
	}
	p := filepath.Join(cache.Dir(), files[0])
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)/2] ^= 0xff
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
	fetch()
	if n := h.hitsOf("/games/tanks/img/tiles.png"); n != 2 {
		t.Fatalf("%d requests, want the damaged entry fetched again", n)
	}
	fetch()
	if n := h.hitsOf("/games/tanks/img/tiles.png"); n != 2 {
		t.Fatalf("the refetched entry was not stored again (%d requests)", n)
	}
}

// An entry that checks out but is not what its kind allows (an image over
// today's limits) is dropped and fetched again.
func TestCachedEntryOverTheLimitsIsRefetched(t *testing.T) {
	h := newTestHost(t, map[string][]byte{"/games/tanks/img/tiles.png": pngBytes(t, 100, 100)})
	cache := openTestCache(t, 1<<20)
	d, _ := newDownloader(t, h, Options{Cache: cache})
	if _, err := d.Image(context.Background(), "tiles.png"); err != nil {
		t.Fatal(err)
	}
	d, _ = newDownloader(t, h, Options{Cache: cache, Limits: Limits{ImageSide: 50}})
	if _, err := d.Image(context.Background(), "tiles.png"); !errors.Is(err, ErrTooLarge) {
		t.Fatal(err)
	}
	if n := h.hitsOf("/games/tanks/img/tiles.png"); n != 2 {
		t.Fatalf("%d requests", n)
	}
	if files := cacheFiles(t, cache); len(files) != 0 {
		t.Fatalf("refused entry kept: %q", files)
	}
}

func TestCacheBudgetAcrossDownloads(t *testing.T) {
	files := map[string][]byte{}
	for i := range 10 {
		files["/games/tanks/sounds/"+string(rune('a'+i))] = bytes.Repeat([]byte{byte(i)}, 1000)
	}
	h := newTestHost(t, files)
	budget := int64(4 * (headerBytes + 1000))
	cache := openTestCache(t, budget)
	d, _ := newDownloader(t, h, Options{Cache: cache})
	for i := range 10 {
		if _, err := d.Fetch(context.Background(), Sound, "sounds/"+string(rune('a'+i))); err != nil {
			t.Fatal(err)
		}
	}
	var total int64
	for _, f := range cacheFiles(t, cache) {
		info, err := os.Stat(filepath.Join(cache.Dir(), f))
		if err != nil {
			t.Fatal(err)
		}
		total += info.Size()
	}
	if total > budget || total == 0 {
		t.Fatalf("cache holds %d bytes, budget %d", total, budget)
	}
}

func TestNewRefusesBadOptions(t *testing.T) {
	if _, err := New(Options{Base: "http://h/"}); err == nil {
		t.Error("no client accepted")
	}
	if _, err := New(Options{Client: http.DefaultClient, Base: "/games/tanks/"}); err == nil {
		t.Error("relative base accepted")
	}
}

// A hit in the disk cache costs the file's read and little else.
func BenchmarkCacheHit(b *testing.B) {
	h := newTestHost(b, map[string][]byte{"/games/tanks/sounds/shot.mp3": bytes.Repeat([]byte("x"), 64<<10)})
	d, _ := newDownloader(b, h, Options{Cache: openTestCache(b, 1<<20)})
	ctx := context.Background()
	if _, err := d.Fetch(ctx, Sound, "sounds/shot.mp3"); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := d.Fetch(ctx, Sound, "sounds/shot.mp3"); err != nil {
			b.Fatal(err)
		}
	}
	if h.totalHits() != 1 {
		b.Fatalf("%d requests", h.totalHits())
	}
}
