// Package localfiletest damages a store's file the ways a player's disk
// does, for the stores' tests: each store must keep what it could read
// and never write over what it could not.
package localfiletest

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"vimpclient/internal/localfile"
)

// Damage is one way a store's file can be found.
type Damage struct {
	Name string
	// Write puts the damaged file at path, made from valid, a file the
	// store would read in full; it returns the bytes a player would want
	// back (nil for a file that holds none, as a FIFO).
	Write func(t *testing.T, path string, valid []byte) []byte
	// Partial says the store can still read valid's entries from it.
	Partial bool
}

// Damages are the damages every store is tested with: cut short, not
// its format, over the store limit, and (where the system has them) a
// FIFO in its place, which must not block the reader.
func Damages() []Damage {
	write := func(t *testing.T, path string, b []byte) []byte {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, b, 0o600); err != nil {
			t.Fatal(err)
		}
		return b
	}
	ds := []Damage{
		{Name: "truncated", Write: func(t *testing.T, path string, valid []byte) []byte {
			return write(t, path, valid[:len(valid)*2/3])
		}},
		{Name: "trailing comma", Write: func(t *testing.T, path string, valid []byte) []byte {
			i := bytes.LastIndexByte(valid, '}')
			if i < 0 {
				return write(t, path, append(bytes.Clone(valid), ",\n"...))
			}
			return write(t, path, append(append(bytes.Clone(valid[:i]), ",\n"...), valid[i:]...))
		}},
		{Name: "too large", Write: func(t *testing.T, path string, valid []byte) []byte {
			return write(t, path, append(bytes.Clone(valid), strings.Repeat(" ", localfile.StoreLimit)...))
		}},
	}
	if runtime.GOOS != "windows" {
		ds = append(ds, Damage{Name: "FIFO", Write: func(t *testing.T, path string, valid []byte) []byte {
			if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := Mkfifo(path); err != nil {
				t.Skip("no FIFO here:", err)
			}
			return nil
		}})
	}
	return ds
}

// SetAside checks that the store's damaged file at path was set aside
// with its bytes (want; nil: any file) and returns the set-aside path.
func SetAside(t *testing.T, path string, want []byte) string {
	t.Helper()
	matches, _ := filepath.Glob(path + ".bad-*")
	if len(matches) != 1 {
		t.Fatalf("set aside: %v, want one %s.bad-TIME", matches, filepath.Base(path))
	}
	if want != nil {
		got, err := os.ReadFile(matches[0])
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("the set-aside file holds %d bytes (%v), want the %d the store held", len(got), err, len(want))
		}
	}
	return matches[0]
}

// NotSetAside checks that nothing was set aside beside path.
func NotSetAside(t *testing.T, path string) {
	t.Helper()
	if matches, _ := filepath.Glob(path + ".bad-*"); len(matches) != 0 {
		t.Fatalf("set aside when nothing was wrong: %v", matches)
	}
}
