package play

import (
	"bytes"
	"context"
	"encoding/pem"
	"image"
	"image/png"
	"io"
	"log"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"vimpclient/assets"
	"vimpclient/audio"
	"vimpclient/audio/mix"
	"vimpclient/audio/synth"
	"vimpclient/session"
)

// A host with a certificate of its own serves its images and sounds to a
// client that trusts it through -ca, and to no other; a second run reads
// them from the disk cache without a request.
func TestAssetsTrustTheCAFlag(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	var sheet bytes.Buffer
	if err := png.Encode(&sheet, image.NewNRGBA(image.Rect(0, 0, 32, 16))); err != nil {
		t.Fatal(err)
	}
	var hits atomic.Int64
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if r.URL.Path == "/games/tanks/img/tiles.png" {
			w.Write(sheet.Bytes())
			return
		}
		name, ok := strings.CutPrefix(r.URL.Path, "/games/tanks/sounds/")
		if b, found := synth.WAV(strings.TrimSuffix(name, ".wav")); ok && found {
			w.Write(b)
			return
		}
		http.NotFound(w, r)
	}))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshakes
	srv.StartTLS()
	defer srv.Close()
	caFile := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(caFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o600); err != nil {
		t.Fatal(err)
	}
	target := session.Target{Host: srv.Listener.Addr().String(), GameVersion: "v1", AssetsBase: srv.URL + "/games/tanks/"}
	cacheDir := filepath.Join(t.TempDir(), "cache")
	cat, _, err := audio.ParseCatalog([]byte(`{"codecList":["wav"],"sounds":{"shot":{},"explosion":{}}}`))
	if err != nil {
		t.Fatal(err)
	}

	// load runs what a connection does with a game's assets: the renderer's
	// image and the sound manager's catalog through one downloader.
	load := func(ca string) (assets.Progress, error, int) {
		t.Helper()
		conn, err := newConnection(&Config{CA: ca, AssetCache: cacheDir}, "test", srv.URL, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		d, err := conn.assets.For(target)
		if err != nil {
			t.Fatal(err)
		}
		if again, _ := conn.assets.For(target); again != d {
			t.Fatal("a second ask for the same target built another downloader")
		}
		_, imgErr := d.Image(context.Background(), "tiles.png")
		f, err := conn.assets.SoundFetcher(target)
		if err != nil {
			t.Fatal(err)
		}
		m := audio.NewManager(mix.New(mix.Options{}), audio.Options{Logger: conn.log})
		defer m.Destroy()
		l := m.Init(context.Background(), cat, f)
		<-l.Done()
		loaded, _, _ := l.Counts()
		return d.Progress(), imgErr, loaded
	}

	p, imgErr, loaded := load("")
	if imgErr == nil || !strings.Contains(imgErr.Error(), "certificate") || loaded != 0 {
		t.Fatalf("without -ca: image error %v, %d sounds loaded", imgErr, loaded)
	}
	if p != (assets.Progress{Done: 3, Failed: 3, Total: 3}) || hits.Load() != 0 {
		t.Fatalf("without -ca: progress %+v, %d requests", p, hits.Load())
	}

	p, imgErr, loaded = load(caFile)
	if imgErr != nil || loaded != 2 {
		t.Fatalf("with -ca: image error %v, %d sounds loaded", imgErr, loaded)
	}
	if p != (assets.Progress{Done: 3, Total: 3}) || hits.Load() != 3 {
		t.Fatalf("with -ca: progress %+v (images and sounds together), %d requests", p, hits.Load())
	}

	p, imgErr, loaded = load(caFile)
	if imgErr != nil || loaded != 2 || p != (assets.Progress{Done: 3, Total: 3}) {
		t.Fatalf("from the cache: image error %v, %d sounds, progress %+v", imgErr, loaded, p)
	}
	if n := hits.Load(); n != 3 {
		t.Fatalf("the second run made %d requests", n-3)
	}
}

// A target without an assets base (no game manifest) has no downloader and
// no sounds to fetch; "-" keeps nothing on disk.
func TestAssetsWithoutBaseOrCache(t *testing.T) {
	a := newTargetAssets(http.DefaultClient, "-", slog.New(slog.NewTextHandler(io.Discard, nil)))
	if d, err := a.For(session.Target{Host: "h"}); d != nil || err != nil {
		t.Fatalf("no base: %v, %v", d, err)
	}
	if f, err := a.SoundFetcher(session.Target{Host: "h"}); f != nil || err != nil {
		t.Fatalf("no base: sound fetcher %v, %v", f, err)
	}
	if _, err := a.For(session.Target{Host: "h", AssetsBase: "/games/tanks/"}); err == nil {
		t.Fatal("a relative assets base was accepted")
	}
	d1, err := a.For(session.Target{Host: "h", GameVersion: "1", AssetsBase: "http://h/games/tanks/"})
	if err != nil {
		t.Fatal(err)
	}
	d2, err := a.For(session.Target{Host: "h", GameVersion: "2", AssetsBase: "http://h/games/tanks/"})
	if err != nil || d2 == d1 {
		t.Fatalf("a new game version kept the downloader (%v)", err)
	}
	if a.cache != nil {
		t.Fatal(`"-" opened a cache`)
	}
}
