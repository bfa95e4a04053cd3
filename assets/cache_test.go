package assets

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"
)

func openTestCache(t testing.TB, budget int64) *Cache {
	t.Helper()
	c, err := OpenCache(t.TempDir(), budget)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// cacheFiles lists every file under the cache directory, relative to it.
func cacheFiles(t testing.TB, c *Cache) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(c.Dir(), func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !e.IsDir() {
			rel, _ := filepath.Rel(c.Dir(), p)
			out = append(out, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestOpenCacheDisabled(t *testing.T) {
	for _, dir := range []string{"", "-"} {
		if c, err := OpenCache(dir, 0); c != nil || err != nil {
			t.Errorf("OpenCache(%q) = %v, %v; want no cache", dir, c, err)
		}
	}
}

func TestCacheRoundTripWithHashedNames(t *testing.T) {
	c := openTestCache(t, 1<<20)
	ns := namespace("host:3002", "v1")
	key := "https://host:3002/games/tanks/img/../secret tiles.png"
	data := []byte("the file as served")
	if err := c.put(ns, key, data); err != nil {
		t.Fatal(err)
	}
	got, err := c.get(ns, key, 1<<20)
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("get = %q, %v", got, err)
	}
	if _, err := c.get(namespace("host:3002", "v2"), key, 1<<20); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("another game version read the entry: %v", err)
	}
	files := cacheFiles(t, c)
	if len(files) != 1 {
		t.Fatalf("files %q, want one entry and no temporary file", files)
	}
	if !regexp.MustCompile(`^[0-9a-f]{32}/[0-9a-f]{64}\` + entryExt + `$`).MatchString(filepath.ToSlash(files[0])) {
		t.Fatalf("entry %q: want <32 hex>/<64 hex>%s", files[0], entryExt)
	}
}

func TestCacheDetectsCorruption(t *testing.T) {
	ns := namespace("h", "v")
	data := bytes.Repeat([]byte("payload "), 100)
	for name, damage := range map[string]func([]byte) []byte{
		"flipped byte": func(b []byte) []byte { b[len(b)-3] ^= 0x40; return b },
		"truncated":    func(b []byte) []byte { return b[:len(b)-10] },
		"extended":     func(b []byte) []byte { return append(b, 'x') },
		"bad magic":    func(b []byte) []byte { b[0] = 'X'; return b },
		"header only":  func(b []byte) []byte { return b[:headerBytes-1] },
		"empty":        func(b []byte) []byte { return nil },
	} {
		t.Run(name, func(t *testing.T) {
			c := openTestCache(t, 1<<20)
			if err := c.put(ns, "k", data); err != nil {
				t.Fatal(err)
			}
			p := c.path(ns, "k")
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, damage(b), 0o600); err != nil {
				t.Fatal(err)
			}
			if got, err := c.get(ns, "k", 1<<20); !errors.Is(err, errCorrupt) {
				t.Fatalf("damaged entry read as %d bytes, %v", len(got), err)
			}
			if _, err := os.Stat(p); !errors.Is(err, fs.ErrNotExist) {
				t.Fatalf("damaged entry kept: %v", err)
			}
		})
	}
}

func TestCacheRefusesAnEntryOverTheLimit(t *testing.T) {
	c := openTestCache(t, 1<<20)
	ns := namespace("h", "v")
	if err := c.put(ns, "k", make([]byte, 1000)); err != nil {
		t.Fatal(err)
	}
	if _, err := c.get(ns, "k", 999); !errors.Is(err, errCorrupt) {
		t.Fatalf("an entry over the caller's limit was read: %v", err)
	}
}

// Past the budget the least recently used entries go, and a hit counts as a
// use; a file larger than the whole budget is never stored.
func TestCacheBudgetEvictsLeastRecentlyUsed(t *testing.T) {
	const size = 1000
	entry := int64(headerBytes + size)
	c := openTestCache(t, 3*entry)
	ns := namespace("h", "v")
	old := time.Now().Add(-time.Hour)
	for i, k := range []string{"a", "b", "c"} {
		if err := c.put(ns, k, bytes.Repeat([]byte{byte(i)}, size)); err != nil {
			t.Fatal(err)
		}
		at := old.Add(time.Duration(i) * time.Minute) // a before b before c
		if err := os.Chtimes(c.path(ns, k), at, at); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := c.get(ns, "a", size); err != nil { // a is used again: b is now the oldest
		t.Fatal(err)
	}
	if err := c.put(ns, "d", bytes.Repeat([]byte{3}, size)); err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]bool{"a": true, "b": false, "c": true, "d": true} {
		_, err := c.get(ns, k, size)
		if got := err == nil; got != want {
			t.Errorf("entry %s kept %v, want %v (%v)", k, got, want, err)
		}
	}
	if err := c.put(namespace("other", "v"), "huge", make([]byte, 4*entry)); err != nil {
		t.Fatal(err)
	}
	var total int64
	for _, f := range cacheFiles(t, c) {
		info, err := os.Stat(filepath.Join(c.Dir(), f))
		if err != nil {
			t.Fatal(err)
		}
		total += info.Size()
	}
	if total > 3*entry {
		t.Fatalf("cache holds %d bytes, budget %d", total, 3*entry)
	}
	if _, err := c.get(namespace("other", "v"), "huge", 8*entry); err == nil {
		t.Fatal("a file over the whole budget was stored")
	}
}

// A temporary file left by a crashed write is removed once stale, and never
// read as an entry.
func TestCacheRemovesStaleTemporaryFiles(t *testing.T) {
	c := openTestCache(t, 1<<20)
	ns := namespace("h", "v")
	if err := os.MkdirAll(filepath.Join(c.Dir(), ns), 0o700); err != nil {
		t.Fatal(err)
	}
	stale := filepath.Join(c.Dir(), ns, tempPrefix+"crashed")
	if err := os.WriteFile(stale, []byte("half"), 0o600); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-2 * staleTemp)
	if err := os.Chtimes(stale, old, old); err != nil {
		t.Fatal(err)
	}
	if err := c.put(ns, "k", []byte("x")); err != nil { // the first write counts the cache
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("stale temporary file kept: %v", err)
	}
}

// Reading an entry never panics and returns a payload only when the header
// and checksum hold.
func FuzzDecodeEntry(f *testing.F) {
	c, err := OpenCache(f.TempDir(), 1<<20)
	if err != nil {
		f.Fatal(err)
	}
	ns := namespace("h", "v")
	for _, s := range []string{"", "x", "a longer payload"} {
		if err := c.put(ns, s, []byte(s)); err != nil {
			f.Fatal(err)
		}
		b, err := os.ReadFile(c.path(ns, s))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(entryMagic))
	f.Fuzz(func(t *testing.T, b []byte) {
		payload, err := decodeEntry(b)
		if err != nil {
			return
		}
		if len(payload) != len(b)-headerBytes || string(b[:8]) != entryMagic {
			t.Fatalf("accepted %d bytes as a payload of %d", len(b), len(payload))
		}
	})
}
