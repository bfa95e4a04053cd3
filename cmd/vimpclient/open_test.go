package main

import (
	"bytes"
	"io"
	"net/url"
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
	if code := run([]string{"-h"}, &out, &errOut); code != 2 {
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
