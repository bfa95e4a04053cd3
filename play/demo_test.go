package play

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"vimpclient/assets"
	"vimpclient/audio"
	"vimpclient/audio/mix"
	"vimpclient/parts"
	"vimpclient/session"
)

// textureSink stands in for the window's renderer: it keeps where the
// demo's images are to come from.
type textureSink struct {
	dl  *assets.Downloader
	set bool
}

func (s *textureSink) Textures() parts.Textures       { return nil }
func (s *textureSink) SetAssets(d *assets.Downloader) { s.dl, s.set = d, true }

// syncBuffer is a log sink the session's goroutines write to.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// A recording opened from the start screen's Demos page draws with the
// recorded match's images, as replay does: found in the asset cache the
// match filled, after its host is gone, and its sounds are the match's.
func TestMenuDemoFindsTheRecordedImages(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	cacheDir := t.TempDir()
	rec := filepath.Join(t.TempDir(), "match.jsonl")
	ctx := context.Background()

	// A match against the embedded host, recorded; the images it draws
	// with go into the asset cache, as a window's match puts them there.
	hctx, stopHost := context.WithCancel(ctx)
	defer stopHost()
	srv, err := startEmbedded(hctx, &Config{Game: "tanks", Bots: 1}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	p := &Config{Set: Values{}, AssetCache: cacheDir, Nick: "Rec", For: 1500 * time.Millisecond, Record: rec}
	if code := headlessConnect(ctx, p, srv.URL(), true, io.Discard, io.Discard); code != 0 {
		t.Fatalf("the recorded match exited %d", code)
	}
	read, err := session.LoadRecording(rec)
	if err != nil {
		t.Fatal(err)
	}
	target, ok := session.RecordedTarget(read.Lines, "")
	if !ok {
		t.Fatal("the recording names no assets base")
	}
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	live, err := newTargetAssets(http.DefaultClient, cacheDir, quiet).For(target)
	if err != nil || live == nil {
		t.Fatalf("the live match's assets: %v", err)
	}
	fctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	if _, err := live.Image(fctx, "tiles.png"); err != nil {
		t.Fatalf("the live match's tiles: %v", err)
	}
	if _, err := live.Sounds().Fetch(fctx, "sounds/round-start.mp3"); err != nil {
		t.Fatalf("the live match's round sound: %v", err)
	}
	stopHost()
	<-srv.Done()

	// The Demos page opens it.
	logs := &syncBuffer{}
	p = &Config{Set: Values{}, AssetCache: cacheDir}
	conn, err := newConnection(p, "window", "start screen", io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.rec.Close()
	conn.log = slog.New(slog.NewTextHandler(logs, nil))
	av := &audioOut{sounds: audio.NewManager(mix.New(mix.Options{}), audio.Options{Logger: conn.log})}
	defer av.sounds.Destroy()
	sink := &textureSink{}
	d, err := openMenuDemo(ctx, rec, p, sink, av, conn)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	switch {
	case sink.dl == nil:
		t.Errorf("the demo draws without the recorded images (renderer set %v)", sink.set)
	case sink.dl.Base() != target.AssetsBase:
		t.Errorf("the demo's images from %s, recorded from %s", sink.dl.Base(), target.AssetsBase)
	default:
		if _, err := sink.dl.Image(fctx, "tiles.png"); err != nil {
			t.Errorf("the recorded tiles do not resolve once the host is gone: %v", err)
		}
	}
	d.Seek(d.Length())
	d.Tick(time.Now())
	if _, ok := av.sounds.SoundConfig("roundStart"); !ok {
		t.Fatalf("the round's sound is unknown to the demo:\n%s", logs.String())
	}
}
