package main

import (
	"bytes"
	"image/png"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"vimpclient/internal/fakemaster"
	"vimpclient/internal/version"
)

func TestVersionFlagAndUsage(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"-version"}, &out, &errOut); code != 0 {
		t.Fatalf("-version: %d %s", code, errOut.String())
	}
	want := version.Get().String()
	if out.String() != want+"\n" || !strings.HasPrefix(want, "vimpclient ") || !strings.Contains(want, version.Get().Go) {
		t.Errorf("-version printed %q, want %q", out.String(), want)
	}
	out.Reset()
	errOut.Reset()
	if code := run([]string{"-h"}, &out, &errOut); code != 0 {
		t.Errorf("-h: %d", code)
	}
	if first, _, _ := strings.Cut(errOut.String(), "\n"); first != want {
		t.Errorf("-h starts %q, want the version %q", first, want)
	}
}

// `open` takes a join link to a master's room the way -room takes the room:
// the master is asked for the room the link names.
func TestOpenJoinLinkAsksTheMaster(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	t.Setenv("VIMP_TOKEN", "")
	keys, err := fakemaster.NewKeys("k")
	if err != nil {
		t.Fatal(err)
	}
	fm := fakemaster.Start(fakemaster.Config{Keys: keys})
	defer fm.Close()
	fm.AddListed("Other Room", "eu", 1, 8)
	u, err := url.Parse(fm.URL())
	if err != nil {
		t.Fatal(err)
	}
	token := keys.Token("2", "Alice")
	for _, link := range []string{"vimp://" + u.Host + "/No%20Such%20Room", fm.URL() + "/rooms/No%20Such%20Room"} {
		var errOut bytes.Buffer
		code := run([]string{"open", "-headless", "-token", token, link}, io.Discard, &errOut)
		if code != 1 || !strings.Contains(errOut.String(), `no room "No Such Room"`) || !strings.Contains(errOut.String(), "Other Room") {
			t.Errorf("open %s: %d\n%s", link, code, errOut.String())
		}
	}
	var errOut bytes.Buffer
	if code := run([]string{"open", "-headless", "ftp://example.org/x"}, io.Discard, &errOut); code != 2 || !strings.Contains(errOut.String(), "join link") {
		t.Errorf("bad link: %d %s", code, errOut.String())
	}
}

// install-desktop writes the entry (starting this very program) and icon
// under $XDG_DATA_HOME; -uninstall takes them away.
func TestInstallDesktop(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "darwin" {
		t.Skip("the freedesktop.org integration")
	}
	dir := t.TempDir()
	t.Setenv("XDG_DATA_HOME", filepath.Join(dir, "data"))
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "config"))
	t.Setenv("HOME", dir)
	var out, errOut bytes.Buffer
	if code := run([]string{"install-desktop"}, &out, &errOut); code != 0 {
		t.Fatalf("install-desktop: %d %s", code, errOut.String())
	}
	entry := filepath.Join(dir, "data", "applications", "vimpclient.desktop")
	b, err := os.ReadFile(entry)
	exe, _ := os.Executable()
	exe, _ = filepath.EvalSymlinks(exe)
	if err != nil || !strings.Contains(string(b), "\nExec="+exe+" open %u\n") || !strings.Contains(string(b), "MimeType=x-scheme-handler/vimp;") {
		t.Fatalf("entry: %v\n%s", err, b)
	}
	iconPath := filepath.Join(dir, "data", "icons", "hicolor", "256x256", "apps", "vimpclient.png")
	if f, err := os.Open(iconPath); err != nil {
		t.Fatal(err)
	} else {
		img, err := png.Decode(f)
		f.Close()
		if err != nil || img.Bounds().Dx() != 256 {
			t.Fatalf("icon: %v", err)
		}
	}
	if code := run([]string{"install-desktop", "-uninstall"}, &out, &errOut); code != 0 {
		t.Fatalf("-uninstall: %d %s", code, errOut.String())
	}
	for _, p := range []string{entry, iconPath} {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("%s left: %v", p, err)
		}
	}
	if code := run([]string{"install-desktop", "extra"}, io.Discard, io.Discard); code != 2 {
		t.Errorf("stray argument: %d", code)
	}
}
