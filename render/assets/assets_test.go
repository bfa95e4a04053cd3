package assets

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
)

func pngBytes(t *testing.T, w, h int) []byte {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	img.Set(0, 0, color.RGBA{10, 20, 30, 255})
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func server(t *testing.T, files map[string][]byte, hits *int) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		*hits++
		b, ok := files[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Write(b)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func results(l *Loader) map[string]Result {
	l.Wait()
	out := map[string]Result{}
	for _, r := range l.Poll(nil) {
		out[r.File] = r
	}
	return out
}

func TestLoadCacheAndCaps(t *testing.T) {
	hits := 0
	files := map[string][]byte{
		"/games/tanks/img/tiles.png": pngBytes(t, 64, 32),
		"/games/tanks/img/huge.png":  pngBytes(t, 300, 2),
		"/games/tanks/img/junk.png":  []byte("not an image"),
		"/games/tanks/img/big.png":   bytes.Repeat([]byte{1}, 5000),
	}
	srv := server(t, files, &hits)
	cache := t.TempDir()
	lim := DefaultLimits()
	lim.MaxDimension, lim.MaxFileBytes = 256, 4096
	l, err := New(Options{AssetsBase: srv.URL + "/games/tanks/", CacheDir: cache, Limits: lim})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, f := range []string{"tiles.png", "tiles.png", "huge.png", "junk.png", "big.png", "missing.png", "../x.png", "http://evil/x.png"} {
		l.Request(ctx, f)
	}
	res := results(l)
	if done, total := l.Progress(); done != 7 || total != 7 {
		t.Fatalf("progress %d/%d", done, total)
	}
	if r := res["tiles.png"]; r.Err != nil || r.Img.Bounds().Dx() != 64 {
		t.Fatalf("tiles: %+v", r)
	}
	if r := res["huge.png"]; !errors.Is(r.Err, ErrTooLarge) {
		t.Fatalf("huge accepted: %v", r.Err)
	}
	for _, f := range []string{"junk.png", "big.png", "missing.png", "../x.png", "http://evil/x.png"} {
		if res[f].Err == nil {
			t.Errorf("%s accepted", f)
		}
	}
	if hits != 5 {
		t.Fatalf("server hits %d want 5 (refused names never requested)", hits)
	}
	ents, _ := os.ReadDir(cache)
	if len(ents) != 1 || !strings.HasSuffix(ents[0].Name(), ".img") || strings.Contains(ents[0].Name(), "tiles") || len(ents[0].Name()) != 64+4 {
		t.Fatalf("cache entries %v", ents)
	}
	// A second session reads the cached image without the network.
	l2, _ := New(Options{AssetsBase: srv.URL + "/games/tanks/", CacheDir: cache, Limits: lim})
	before := hits
	l2.Request(ctx, "tiles.png")
	if r := results(l2)["tiles.png"]; r.Err != nil || hits != before {
		t.Fatalf("cache miss: %v hits %d->%d", r.Err, before, hits)
	}
}

func TestEvictionKeepsCacheBounded(t *testing.T) {
	hits := 0
	files := map[string][]byte{}
	for _, n := range []string{"a", "b", "c", "d"} {
		files["/g/img/"+n+".png"] = pngBytes(t, 40, 40)
	}
	srv := server(t, files, &hits)
	cache := t.TempDir()
	lim := DefaultLimits()
	lim.MaxCacheBytes = int64(len(files["/g/img/a.png"]))*2 + 1
	lim.Parallel = 1
	l, _ := New(Options{AssetsBase: srv.URL + "/g/", CacheDir: cache, Limits: lim})
	for _, n := range []string{"a", "b", "c", "d"} {
		l.Request(context.Background(), n+".png")
		l.Wait()
	}
	var total int64
	ents, _ := os.ReadDir(cache)
	for _, e := range ents {
		info, _ := e.Info()
		total += info.Size()
	}
	if total > lim.MaxCacheBytes || len(ents) == 0 {
		t.Fatalf("cache holds %d bytes in %d files, cap %d", total, len(ents), lim.MaxCacheBytes)
	}
}

func TestFileCapAndCancel(t *testing.T) {
	hits := 0
	srv := server(t, map[string][]byte{}, &hits)
	lim := DefaultLimits()
	lim.MaxFiles = 2
	l, _ := New(Options{AssetsBase: srv.URL + "/g/", Limits: lim})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, n := range []string{"a.png", "b.png", "c.png"} {
		l.Request(ctx, n)
	}
	res := results(l)
	for _, n := range []string{"a.png", "b.png", "c.png"} {
		if res[n].Err == nil {
			t.Fatalf("%s succeeded", n)
		}
	}
	if _, err := New(Options{AssetsBase: "file:///etc/"}); err == nil {
		t.Fatal("file URL accepted")
	}
}

func FuzzDecode(f *testing.F) {
	img := image.NewRGBA(image.Rect(0, 0, 3, 2))
	var buf bytes.Buffer
	_ = png.Encode(&buf, img)
	f.Add(buf.Bytes())
	f.Add([]byte("\x89PNG\r\n\x1a\n"))
	lim := DefaultLimits()
	lim.MaxDimension, lim.MaxPixels = 512, 1<<16
	l := &Loader{lim: lim}
	f.Fuzz(func(t *testing.T, b []byte) {
		img, err := l.decode(b)
		if err != nil {
			return
		}
		if r := img.Bounds(); r.Dx() > 512 || r.Dy() > 512 || r.Dx()*r.Dy() > 1<<16 {
			t.Fatalf("decoded %v over the caps", r)
		}
	})
}
