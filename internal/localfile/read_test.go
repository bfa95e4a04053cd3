package localfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestReadRefusesWhatIsNotAPlainFile(t *testing.T) {
	dir := t.TempDir()
	if _, err := Read(dir, 10, "store"); !errors.Is(err, ErrNotRegular) {
		t.Fatalf("a directory: %v", err)
	}
	if runtime.GOOS == "windows" {
		return
	}
	if _, err := Read("/dev/zero", 1<<20, "host list"); !errors.Is(err, ErrNotRegular) {
		t.Fatalf("/dev/zero: %v", err)
	}
	link := filepath.Join(dir, "hosts.json")
	if err := os.Symlink("/dev/zero", link); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(link, 1<<20, "host list"); !errors.Is(err, ErrNotRegular) {
		t.Fatalf("a link to /dev/zero: %v", err)
	}
}

func TestReadLimit(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "s.json")
	if err := os.WriteFile(p, []byte("0123456789"), 0o600); err != nil {
		t.Fatal(err)
	}
	if b, err := Read(p, 10, "store"); err != nil || string(b) != "0123456789" {
		t.Fatalf("at the limit: %q %v", b, err)
	}
	_, err := Read(p, 9, "host list")
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "host list may hold at most 9 bytes") {
		t.Fatalf("over the limit: %v", err)
	}
	if _, err := Read(filepath.Join(dir, "none"), 9, "store"); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("missing: %v", err)
	}
}

// A file that grows while read is held to the limit all the same.
func TestLimitReaderWhileReading(t *testing.T) {
	r := LimitReader(strings.NewReader(strings.Repeat("x", 100)), 64, "f", "recording")
	b, err := io.ReadAll(r)
	if !errors.Is(err, ErrTooLarge) || len(b) != 64 {
		t.Fatalf("read %d bytes, %v", len(b), err)
	}
	r = LimitReader(strings.NewReader(strings.Repeat("x", 64)), 64, "f", "recording")
	if b, err := io.ReadAll(r); err != nil || len(b) != 64 {
		t.Fatalf("exactly the limit: %d bytes, %v", len(b), err)
	}
}

func TestReadStoreLinks(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("links need privileges there")
	}
	dir, other := t.TempDir(), t.TempDir()
	outside := filepath.Join(other, "secret")
	inside := filepath.Join(dir, "real.json")
	for _, p := range []string{outside, inside} {
		if err := os.WriteFile(p, []byte("{}"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	out, in := filepath.Join(dir, "out.json"), filepath.Join(dir, "in.json")
	if err := os.Symlink(outside, out); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("real.json", in); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadStore(out, 10, "store"); !errors.Is(err, ErrLinkOutside) {
		t.Fatalf("a link outside: %v", err)
	}
	if b, err := ReadStore(in, 10, "store"); err != nil || string(b) != "{}" {
		t.Fatalf("a link inside: %q %v", b, err)
	}
	// A path named by the player may lead anywhere.
	if b, err := Read(out, 10, "recording"); err != nil || string(b) != "{}" {
		t.Fatalf("a named file through a link: %q %v", b, err)
	}
}

func TestSetAsideAndReplace(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "tokens.json")
	now := time.Date(2026, 12, 7, 17, 30, 0, 0, time.UTC)
	if err := os.WriteFile(p, []byte("{bad"), 0o600); err != nil {
		t.Fatal(err)
	}
	aside, err := Replace(p, []byte("{}"), 0o600, true, now)
	if err != nil || filepath.Base(aside) != "tokens.json.bad-20261207-173000" {
		t.Fatalf("aside %q, %v", aside, err)
	}
	if b, _ := os.ReadFile(aside); string(b) != "{bad" {
		t.Fatalf("the set-aside file holds %q", b)
	}
	if b, _ := os.ReadFile(p); string(b) != "{}" {
		t.Fatalf("the store holds %q", b)
	}
	// The same second again: a second name, nothing overwritten.
	if err := os.WriteFile(p, []byte("{worse"), 0o600); err != nil {
		t.Fatal(err)
	}
	aside2, err := Replace(p, []byte("{}"), 0o600, true, now)
	if err != nil || aside2 == aside {
		t.Fatalf("second aside %q, %v", aside2, err)
	}
	if b, _ := os.ReadFile(aside); string(b) != "{bad" {
		t.Fatalf("the first set-aside file was overwritten: %q", b)
	}
	list := SetAsideIn(dir, now.Add(-time.Minute))
	if len(list) != 2 || list[0].Of != "tokens.json" {
		t.Fatalf("listed %+v", list)
	}
	if len(SetAsideIn(dir, now.Add(time.Hour))) != 0 {
		t.Fatal("old set-aside files listed")
	}
	// An intact store is replaced without a copy.
	if aside, err := Replace(p, []byte("[]"), 0o600, false, now); err != nil || aside != "" {
		t.Fatalf("intact: %q %v", aside, err)
	}
	if runtime.GOOS != "windows" && os.Getuid() != 0 {
		// A directory that refuses the rename: nothing is written.
		if err := os.Chmod(dir, 0o500); err != nil {
			t.Fatal(err)
		}
		defer os.Chmod(dir, 0o700)
		if _, err := Replace(p, []byte("new"), 0o600, true, now.Add(time.Hour)); err == nil {
			t.Fatal("saved over a damaged file that could not be set aside")
		}
		if b, _ := os.ReadFile(p); string(b) != "[]" {
			t.Fatalf("the store holds %q", b)
		}
	}
}
