package play

import (
	"fmt"
	"log/slog"
	"net/http"
	"sync"

	"vimpclient/assets"
	"vimpclient/audio"
	"vimpclient/session"
)

// targetAssets gives each connection target one asset downloader, built
// from the connection's HTTP client (the one that trusts -ca) and sharing
// one disk cache. Reconnecting to the same host and game version keeps the
// downloader (and what it knows of failed files); a new version gets a new
// one. The runner's goroutine and the game loop both ask for it.
type targetAssets struct {
	client   *http.Client
	cacheDir string // "" or "-": no disk cache
	log      *slog.Logger

	mu     sync.Mutex
	opened bool          // the cache was opened (or failed to)
	cache  *assets.Cache // nil: none
	key    targetAssetsKey
	d      *assets.Downloader
}

type targetAssetsKey struct{ base, host, version string }

func newTargetAssets(client *http.Client, cacheDir string, log *slog.Logger) *targetAssets {
	return &targetAssets{client: client, cacheDir: cacheDir, log: log}
}

// For returns the downloader of t's assets; nil when the host announced no
// assets base (no game manifest).
func (a *targetAssets) For(t session.Target) (*assets.Downloader, error) {
	if t.AssetsBase == "" {
		return nil, nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	key := targetAssetsKey{t.AssetsBase, t.Host, t.GameVersion}
	if a.d != nil && a.key == key {
		return a.d, nil
	}
	if !a.opened {
		// Opened at the first download, so a run that fetches nothing
		// leaves no cache folder behind.
		a.opened = true
		c, err := assets.OpenCache(a.cacheDir, 0)
		if err != nil {
			a.log.Warn("assets will not be cached", "err", err)
		}
		a.cache = c
	}
	d, err := assets.New(assets.Options{Client: a.client, Base: t.AssetsBase, Host: t.Host, Version: t.GameVersion,
		Cache: a.cache, Log: a.log})
	if err != nil {
		return nil, fmt.Errorf("game assets: %w", err)
	}
	a.key, a.d = key, d
	return d, nil
}

// SoundFetcher is the game loop's source of sound files for a target.
func (a *targetAssets) SoundFetcher(t session.Target) (audio.Fetcher, error) {
	d, err := a.For(t)
	if d == nil {
		return nil, err
	}
	return d.Sounds(), nil
}

// DefaultAssetCache is the -asset-cache default: the user cache
// directory's, or none when the system has no such directory.
func DefaultAssetCache() string {
	d, err := assets.DefaultCacheDir()
	if err != nil {
		return ""
	}
	return d
}
