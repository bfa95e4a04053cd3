package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"image/png"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"vimpclient/internal/version"
	"vimpclient/lobby"
	"vimpclient/testkit/fakemaster"
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
		code := run([]string{"open", "-headless", "-token", token, "-token-master", fm.URL(), link}, io.Discard, &errOut)
		if code != 1 || !strings.Contains(errOut.String(), `no room "No Such Room"`) || !strings.Contains(errOut.String(), "Other Room") {
			t.Errorf("open %s: %d\n%s", link, code, errOut.String())
		}
	}
	var errOut bytes.Buffer
	if code := run([]string{"open", "-headless", "ftp://example.org/x"}, io.Discard, &errOut); code != 2 || !strings.Contains(errOut.String(), "join link") {
		t.Errorf("bad link: %d %s", code, errOut.String())
	}
}

// A join link is anyone's to write: `open LINK` sends its master no token
// of -token, -token-file or VIMP_TOKEN unless -token-master names it. The
// master never sees the token, and the player is told why.
func TestOpenSendsNoTokenToTheLinksMaster(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
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
	envToken, flagToken := keys.Token("2", "Alice"), keys.Token("3", "Bob")
	file := filepath.Join(t.TempDir(), "token.txt")
	if err := os.WriteFile(file, []byte(flagToken+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("VIMP_TOKEN", envToken)
	t.Setenv("VIMP_TOKEN_MASTER", "")
	link := "vimp://" + u.Host + "/Other%20Room"
	for _, args := range [][]string{
		{"open", "-headless", link},
		{"open", "-headless", "-token", flagToken, link},
		{"open", "-headless", "-token-file", file, link},
		{"open", "-headless", "-token", flagToken, "-token-master", "http://127.0.0.1:1", link},
	} {
		var errOut bytes.Buffer
		code := run(args, io.Discard, &errOut)
		if code == 0 || !strings.Contains(errOut.String(), "needs a sign-in") || !strings.Contains(errOut.String(), "-token-master "+fm.URL()) {
			t.Errorf("%q: exit %d\n%s", args, code, errOut.String())
		}
		noMaster := (slices.Contains(args, "-token") || slices.Contains(args, "-token-file")) && !slices.Contains(args, "-token-master")
		if noMaster != strings.Contains(errOut.String(), "they are sent to none") {
			t.Errorf("%q: said nothing of the flag's token going nowhere\n%s", args, errOut.String())
		}
		if fm.Saw(envToken) || fm.Saw(flagToken) {
			t.Fatalf("%q: the link's master got a token", args)
		}
	}
	// Parsed as the command runs it: the link's master gets no token; the
	// one -token-master names gets VIMP_TOKEN's and -token's.
	linkMaster, err := lobby.NewMaster(fm.URL(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		open bool // `open ARGS`, else the play command
		want string
	}{
		{[]string{"-headless", link}, true, ""},
		{[]string{"-headless", "-token", flagToken, link}, true, ""},
		{[]string{"-headless", "-token-master", fm.URL(), link}, true, envToken},
		{[]string{"-headless", "-token", flagToken, "-token-master", fm.URL(), link}, true, flagToken},
		// The same address written by the player names the master itself;
		// VIMP_TOKEN still needs it named for it.
		{[]string{"-headless", "-token", flagToken, "-room", "Other Room", fm.URL()}, false, flagToken},
		{[]string{"-headless", "-room", "Other Room", fm.URL()}, false, ""},
	} {
		play, fromLink := tc.args, false
		if tc.open {
			var code int
			if play, fromLink, code = openArgs(tc.args, io.Discard); code >= 0 {
				t.Fatalf("%q: exit %d", tc.args, code)
			}
		}
		p, _, _, code := parsePlay(play, fromLink, io.Discard, io.Discard)
		if code >= 0 {
			t.Fatalf("%q: exit %d", tc.args, code)
		}
		got, _, err := p.TokenSources().Token(linkMaster)
		if got != tc.want || (tc.want == "" && !errors.Is(err, lobby.ErrNoToken)) {
			t.Errorf("%q: token %v %v, want the %s one", tc.args, got != "", err, map[string]string{"": "no", envToken: "VIMP_TOKEN", flagToken: "-token"}[tc.want])
		}
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

// `serve -master` sends VIMP_TOKEN to the -master only when
// VIMP_TOKEN_MASTER (or -token-master) names it: the environment goes with
// every command, and names no master by itself.
func TestServeSendsVimpTokenOnlyToItsMaster(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	keys, err := fakemaster.NewKeys("k")
	if err != nil {
		t.Fatal(err)
	}
	fm := fakemaster.Start(fakemaster.Config{Keys: keys})
	defer fm.Close()
	token := keys.Token("1", "Hoster")
	t.Setenv("VIMP_TOKEN", token)
	t.Setenv("VIMP_TOKEN_MASTER", "")
	args := []string{"-addr", "127.0.0.1:0", "-bots", "0", "-master", fm.URL(), "-name", "Env Room"}
	var errOut bytes.Buffer
	refused, stop := context.WithCancel(context.Background())
	defer stop() // the host it started stops with it
	if code := runServe(refused, args, io.Discard, &errOut); code != 1 || !strings.Contains(errOut.String(), "needs a sign-in") {
		t.Fatalf("serve with VIMP_TOKEN for no master: exit %d\n%s", code, errOut.String())
	}
	if fm.Saw(token) {
		t.Fatal("the master got VIMP_TOKEN, which names no master")
	}

	t.Setenv("VIMP_TOKEN_MASTER", fm.URL())
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	done := make(chan int, 1)
	go func() {
		done <- runServe(ctx, args, pw, io.Discard)
		pw.Close()
	}()
	rd := bufio.NewReader(pr)
	var lines []string
	for range 2 {
		line, err := rd.ReadString('\n')
		if err != nil {
			t.Fatalf("serve stopped after %q: %v", lines, err)
		}
		lines = append(lines, line)
	}
	go io.Copy(io.Discard, rd)
	if !strings.Contains(lines[1], `vimpclient room: "Env Room"`) || !fm.Saw(token) {
		t.Errorf("serve with VIMP_TOKEN_MASTER naming the master: %q, token sent %v", lines, fm.Saw(token))
	}
	cancel()
	if code := <-done; code != 0 {
		t.Errorf("serve ended with %d", code)
	}
}
