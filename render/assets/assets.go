// Package assets downloads a game's images from the host's assetsBase with a
// bounded disk cache. Cache file names are hashes, never taken from the URL;
// every download is capped in bytes and image dimensions, and a refused or
// missing image is reported so the part draws its procedural fallback.
package assets

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"image"
	_ "image/jpeg" // host images may be JPEG
	_ "image/png"  // or PNG
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
)

// Limits bound what one host can make the client store or decode.
type Limits struct {
	MaxFileBytes  int64 // per image download
	MaxDimension  int   // per image side, pixels
	MaxPixels     int   // per image, width*height
	MaxCacheBytes int64 // whole disk cache
	MaxFiles      int   // distinct files requested per loader
	Parallel      int   // concurrent downloads
}

// DefaultLimits are generous for tile sheets and sprites.
func DefaultLimits() Limits {
	return Limits{MaxFileBytes: 16 << 20, MaxDimension: 8192, MaxPixels: 32 << 20,
		MaxCacheBytes: 256 << 20, MaxFiles: 256, Parallel: 4}
}

// Result is one finished request.
type Result struct {
	File string
	Img  image.Image // nil when Err is set
	Err  error
}

// Loader fetches images under base + "img/".
type Loader struct {
	base     *url.URL
	client   *http.Client
	cacheDir string // "" disables the disk cache
	lim      Limits
	log      *slog.Logger

	mu      sync.Mutex
	seen    map[string]bool
	total   int
	done    int
	results []Result
	sem     chan struct{}
	wg      sync.WaitGroup
}

// Options configures New.
type Options struct {
	AssetsBase string       // absolute http(s) URL of the game's assets, ending in "/"
	CacheDir   string       // cache directory; "" = no disk cache
	Client     *http.Client // nil = a client with a 30 s timeout
	Limits     Limits       // zero = DefaultLimits
	Log        *slog.Logger
}

// DefaultCacheDir is the user cache dir's vimpclient/assets.
func DefaultCacheDir() (string, error) {
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("asset cache: %w", err)
	}
	return filepath.Join(d, "vimpclient", "assets"), nil
}

// New returns a loader; it starts nothing until Request.
func New(o Options) (*Loader, error) {
	u, err := url.Parse(o.AssetsBase)
	if err != nil {
		return nil, fmt.Errorf("assets base: %w", err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("assets base %q: not an http(s) URL", o.AssetsBase)
	}
	if !strings.HasSuffix(u.Path, "/") {
		u.Path += "/"
	}
	if o.Limits == (Limits{}) {
		o.Limits = DefaultLimits()
	}
	if o.Limits.Parallel <= 0 {
		o.Limits.Parallel = 1
	}
	if o.Client == nil {
		o.Client = &http.Client{Timeout: 30 * time.Second}
	}
	if o.Log == nil {
		o.Log = slog.Default()
	}
	if o.CacheDir != "" {
		if err := os.MkdirAll(o.CacheDir, 0o700); err != nil {
			return nil, fmt.Errorf("asset cache: %w", err)
		}
	}
	return &Loader{base: u, client: o.Client, cacheDir: o.CacheDir, lim: o.Limits, log: o.Log,
		seen: map[string]bool{}, sem: make(chan struct{}, o.Limits.Parallel)}, nil
}

// Request starts fetching file (once per name). A name that is not a plain
// relative file name, or one past the per-loader file cap, fails at once.
func (l *Loader) Request(ctx context.Context, file string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.seen[file] {
		return
	}
	l.seen[file] = true
	l.total++
	if !safeName(file) || l.total > l.lim.MaxFiles {
		l.done++
		l.results = append(l.results, Result{File: file, Err: fmt.Errorf("asset %q refused", file)})
		return
	}
	l.wg.Add(1)
	go func() {
		defer l.wg.Done()
		img, err := l.fetch(ctx, file)
		if err != nil {
			l.log.Warn("asset unavailable, drawing a fallback", "file", file, "err", err)
		}
		l.mu.Lock()
		l.done++
		l.results = append(l.results, Result{File: file, Img: img, Err: err})
		l.mu.Unlock()
	}()
}

// Progress reports finished and requested counts.
func (l *Loader) Progress() (done, total int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.done, l.total
}

// Poll returns the results finished since the last call.
func (l *Loader) Poll(dst []Result) []Result {
	l.mu.Lock()
	defer l.mu.Unlock()
	dst = append(dst, l.results...)
	clear(l.results)
	l.results = l.results[:0]
	return dst
}

// Wait blocks until every started request has finished.
func (l *Loader) Wait() { l.wg.Wait() }

// URL returns the address of an image file.
func (l *Loader) URL(file string) string {
	return l.base.JoinPath("img", file).String()
}

func (l *Loader) fetch(ctx context.Context, file string) (image.Image, error) {
	select {
	case l.sem <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	defer func() { <-l.sem }()
	u := l.URL(file)
	cachePath := ""
	if l.cacheDir != "" {
		sum := sha256.Sum256([]byte(u))
		cachePath = filepath.Join(l.cacheDir, hex.EncodeToString(sum[:])+".img")
		if b, err := os.ReadFile(cachePath); err == nil {
			if img, err := l.decode(b); err == nil {
				now := time.Now()
				_ = os.Chtimes(cachePath, now, now) // keep recently used files
				return img, nil
			}
			_ = os.Remove(cachePath) // corrupt or over the caps: fetch again
		}
	}
	b, err := l.download(ctx, u)
	if err != nil {
		return nil, err
	}
	img, err := l.decode(b)
	if err != nil {
		return nil, fmt.Errorf("asset %s: %w", file, err)
	}
	if cachePath != "" {
		if err := l.store(cachePath, b); err != nil {
			l.log.Warn("asset cache write failed", "err", err)
		}
	}
	return img, nil
}

func (l *Loader) download(ctx context.Context, u string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, fmt.Errorf("asset request: %w", err)
	}
	resp, err := l.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("asset get: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("asset get %s: status %d", u, resp.StatusCode)
	}
	if resp.ContentLength > l.lim.MaxFileBytes {
		return nil, fmt.Errorf("asset %s: %d bytes exceeds %d", u, resp.ContentLength, l.lim.MaxFileBytes)
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, l.lim.MaxFileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("asset read %s: %w", u, err)
	}
	if int64(len(b)) > l.lim.MaxFileBytes {
		return nil, fmt.Errorf("asset %s: larger than %d bytes", u, l.lim.MaxFileBytes)
	}
	return b, nil
}

// ErrTooLarge reports an image over the dimension caps.
var ErrTooLarge = errors.New("image dimensions over the limit")

func (l *Loader) decode(b []byte) (image.Image, error) {
	if int64(len(b)) > l.lim.MaxFileBytes {
		return nil, ErrTooLarge
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("decode header: %w", err)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width > l.lim.MaxDimension || cfg.Height > l.lim.MaxDimension ||
		cfg.Width*cfg.Height > l.lim.MaxPixels {
		return nil, fmt.Errorf("%dx%d: %w", cfg.Width, cfg.Height, ErrTooLarge)
	}
	img, _, err := image.Decode(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("decode: %w", err)
	}
	return img, nil
}

// store writes a cache file atomically and evicts the least recently used
// files beyond the cache size cap.
func (l *Loader) store(path string, b []byte) error {
	tmp, err := os.CreateTemp(l.cacheDir, "tmp-*")
	if err != nil {
		return fmt.Errorf("cache temp: %w", err)
	}
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return fmt.Errorf("cache write: %w", err)
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("cache close: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("cache rename: %w", err)
	}
	return l.evict()
}

func (l *Loader) evict() error {
	l.mu.Lock() // one eviction at a time
	defer l.mu.Unlock()
	ents, err := os.ReadDir(l.cacheDir)
	if err != nil {
		return fmt.Errorf("cache list: %w", err)
	}
	type f struct {
		path string
		size int64
		mod  time.Time
	}
	var files []f
	var total int64
	for _, e := range ents {
		if !strings.HasSuffix(e.Name(), ".img") {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		files = append(files, f{filepath.Join(l.cacheDir, e.Name()), info.Size(), info.ModTime()})
		total += info.Size()
	}
	sort.Slice(files, func(i, j int) bool { return files[i].mod.Before(files[j].mod) })
	for _, x := range files {
		if total <= l.lim.MaxCacheBytes {
			break
		}
		if err := os.Remove(x.path); err == nil {
			total -= x.size
		}
	}
	return nil
}

// safeName accepts a plain relative file name (subfolders allowed).
func safeName(s string) bool {
	if s == "" || len(s) > 200 || strings.HasPrefix(s, "/") || strings.Contains(s, "..") ||
		strings.ContainsAny(s, "\\?#:%\x00") {
		return false
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f {
			return false
		}
	}
	return true
}
