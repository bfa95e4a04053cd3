package assets

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"vimpclient/internal/localfile"
)

// DefaultCacheBytes is the disk cache's budget when none is given.
const DefaultCacheBytes = 256 << 20

// An entry on disk is a header, then the file as the host served it:
//
//	magic (8 bytes) | payload length (8 bytes, little endian) | SHA-256 of the payload (32 bytes)
//
// so a truncated, torn or altered entry is noticed and fetched again.
const (
	entryMagic  = "vimpa\x00\x01\n"
	headerBytes = 8 + 8 + sha256.Size
	entryExt    = ".asset"
	tempPrefix  = ".tmp-"
)

// staleTemp is how old a temporary file must be before eviction takes it
// for the leftover of a crashed write.
const staleTemp = time.Hour

// touchAfter is the recency granularity of eviction: a hit refreshes an
// entry's time only when it is older than this, sparing a write per hit.
const touchAfter = time.Minute

// Cache is a disk cache of downloaded files under one directory, shared by
// every downloader of a process. Entries live in a folder per host and game
// version, and every name on disk is a hash: nothing a host sends becomes a
// path. Writes are atomic (a temporary file renamed into place); when the
// total passes the budget the least recently used entries go.
type Cache struct {
	dir    string
	budget int64

	mu   sync.Mutex
	used int64 // bytes on disk as last counted plus writes since; -1: not counted yet
}

// DefaultCacheDir is the user cache directory's vimpclient/assets.
func DefaultCacheDir() (string, error) {
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("asset cache: %w", err)
	}
	return filepath.Join(d, "vimpclient", "assets"), nil
}

// OpenCache opens (creating) the cache at dir with a budget in bytes
// (<= 0: DefaultCacheBytes). An empty dir or "-" means no cache: it returns
// nil, which every downloader takes as "fetch everything".
func OpenCache(dir string, budget int64) (*Cache, error) {
	if dir == "" || dir == "-" {
		return nil, nil
	}
	if budget <= 0 {
		budget = DefaultCacheBytes
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("asset cache: %w", err)
	}
	return &Cache{dir: dir, budget: budget, used: -1}, nil
}

// Dir is the cache's directory.
func (c *Cache) Dir() string { return c.dir }

// hashName is the hex SHA-256 of the parts, separated by NUL bytes.
func hashName(parts ...string) string {
	h := sha256.New()
	for i, p := range parts {
		if i > 0 {
			h.Write([]byte{0})
		}
		h.Write([]byte(p))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Namespace is the folder name of a host's game version.
func namespace(host, version string) string { return hashName(strings.ToLower(host), version)[:32] }

func (c *Cache) path(ns, key string) string {
	return filepath.Join(c.dir, ns, hashName(key)+entryExt)
}

// errCorrupt reports an entry whose header or checksum does not match.
var errCorrupt = errors.New("corrupted cache entry")

// decodeEntry returns the payload of an entry, checked against its header.
func decodeEntry(b []byte) ([]byte, error) {
	if len(b) < headerBytes || string(b[:8]) != entryMagic {
		return nil, errCorrupt
	}
	n := binary.LittleEndian.Uint64(b[8:16])
	if n != uint64(len(b)-headerBytes) {
		return nil, errCorrupt
	}
	payload := b[headerBytes:]
	if sum := sha256.Sum256(payload); !bytes.Equal(sum[:], b[16:headerBytes]) {
		return nil, errCorrupt
	}
	return payload, nil
}

// get reads the entry for key, at most max payload bytes. A missing entry
// is a miss; a corrupted or oversized one is removed, and a miss too.
func (c *Cache) get(ns, key string, max int64) ([]byte, error) {
	p := c.path(ns, key)
	b, mod, err := readEntry(p, max)
	if errors.Is(err, errCorrupt) {
		c.remove(p)
	}
	if err != nil {
		return nil, err
	}
	if now := time.Now(); now.Sub(mod) > touchAfter {
		_ = os.Chtimes(p, now, now) // recently used: evicted last
	}
	return b, nil
}

// readEntry reads and checks the entry file at p.
func readEntry(p string, max int64) ([]byte, time.Time, error) {
	f, _, err := localfile.Open(p)
	if err != nil {
		return nil, time.Time{}, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, time.Time{}, err
	}
	if !info.Mode().IsRegular() || info.Size() > max+headerBytes {
		return nil, time.Time{}, fmt.Errorf("%w: %d bytes", errCorrupt, info.Size())
	}
	b := make([]byte, info.Size())
	if _, err := io.ReadFull(f, b); err != nil {
		return nil, time.Time{}, fmt.Errorf("%w: %v", errCorrupt, err)
	}
	payload, err := decodeEntry(b)
	if err != nil {
		return nil, time.Time{}, err
	}
	return payload, info.ModTime(), nil
}

// drop removes the entry for key (its payload was refused after reading).
func (c *Cache) drop(ns, key string) { c.remove(c.path(ns, key)) }

func (c *Cache) remove(p string) {
	info, err := os.Stat(p)
	if err != nil || os.Remove(p) != nil {
		return
	}
	c.mu.Lock()
	if c.used >= 0 {
		c.used = max(0, c.used-info.Size())
	}
	c.mu.Unlock()
}

// put stores data under key atomically, then evicts past the budget. A file
// larger than the whole budget is not stored.
func (c *Cache) put(ns, key string, data []byte) error {
	size := int64(headerBytes + len(data))
	if size > c.budget {
		return nil
	}
	dir := filepath.Join(c.dir, ns)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("asset cache: %w", err)
	}
	tmp, err := os.CreateTemp(dir, tempPrefix+"*")
	if err != nil {
		return fmt.Errorf("asset cache: %w", err)
	}
	var hdr [headerBytes]byte
	copy(hdr[:8], entryMagic)
	binary.LittleEndian.PutUint64(hdr[8:16], uint64(len(data)))
	sum := sha256.Sum256(data)
	copy(hdr[16:], sum[:])
	_, err = tmp.Write(hdr[:])
	if err == nil {
		_, err = tmp.Write(data)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), c.path(ns, key))
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("asset cache write: %w", err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.used >= 0 {
		c.used += size // a replaced entry counts twice until the next count: eviction comes early, never late
	}
	if c.used < 0 || c.used > c.budget {
		return c.evictLocked()
	}
	return nil
}

// cacheFile is one entry found by a count.
type cacheFile struct {
	path string
	size int64
	mod  time.Time
}

// evictLocked counts the cache and removes the least recently used entries
// until it fits the budget. Leftover temporary files past staleTemp go too.
func (c *Cache) evictLocked() error {
	var files []cacheFile
	var total int64
	now := time.Now()
	namespaces, err := os.ReadDir(c.dir)
	if err != nil {
		return fmt.Errorf("asset cache: %w", err)
	}
	for _, ns := range namespaces {
		if !ns.IsDir() {
			continue
		}
		dir := filepath.Join(c.dir, ns.Name())
		ents, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range ents {
			info, err := e.Info()
			if err != nil || !info.Mode().IsRegular() {
				continue
			}
			p := filepath.Join(dir, e.Name())
			switch {
			case strings.HasPrefix(e.Name(), tempPrefix):
				if now.Sub(info.ModTime()) > staleTemp {
					os.Remove(p)
				}
			case strings.HasSuffix(e.Name(), entryExt):
				files = append(files, cacheFile{p, info.Size(), info.ModTime()})
				total += info.Size()
			}
		}
		if len(ents) == 0 {
			os.Remove(dir) // an emptied version folder
		}
	}
	slices.SortFunc(files, func(a, b cacheFile) int { return a.mod.Compare(b.mod) })
	for _, f := range files {
		if total <= c.budget {
			break
		}
		if err := os.Remove(f.path); err == nil || errors.Is(err, fs.ErrNotExist) {
			total -= f.size
		}
	}
	c.used = total
	return nil
}
