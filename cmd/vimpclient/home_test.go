package main

import (
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"vimpclient/hostlist"
	"vimpclient/hud"
	"vimpclient/window"
)

// An address joined as a host that answers as a lobby master ends its
// match at once, naming the master; the browser built for it lists the
// master's rooms and joins -room's at once.
func TestJoinFindsMaster(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("VIMP_TOKEN", "")
	j := newJoinWorld(t)
	m, err := j.mm.join(j.ctx, hud.BrowserChoice{Address: j.fm.URL(), Name: j.fm.URL()})
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-m.Done():
	case <-time.After(20 * time.Second):
		t.Fatal("the match on a master's address did not end")
	}
	r, ok := m.(window.Redirect)
	if !ok || r.Master() != j.fm.URL() {
		t.Fatalf("redirect %v to %q, want %q", ok, r.Master(), j.fm.URL())
	}
	if reason, failed := m.End(); !failed || !strings.Contains(reason, "lobby master") {
		t.Errorf("ended with %q (failed %v)", reason, failed)
	}
	l, err := j.mm.browser(j.ctx, r.Master(), "Native Room")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if l.Browser.Master != j.master.URL() || l.Start == nil || l.Start.Room != "Native Room" || l.Start.Kind != hostlist.Lobby {
		t.Fatalf("browser for %q, start %+v", l.Browser.Master, l.Start)
	}
	if _, err := j.mm.browser(j.ctx, "http://127.0.0.1:1", ""); err == nil {
		t.Error("a browser was built for an address never found to be a master")
	}
}

// The Join page lists the dedicated hosts (favourites first, each once),
// the Browse page the masters of the rooms joined; the Demos page the
// recordings, newest first.
func TestStartEntries(t *testing.T) {
	now := time.Now()
	l := &hostlist.List{}
	for _, e := range []hostlist.Entry{
		{Kind: hostlist.Dedicated, Address: "http://a:3002", GameID: "tanks"},
		{Kind: hostlist.Dedicated, Address: "http://b:3002"},
		{Kind: hostlist.Lobby, Address: "http://m:3000", Room: "r1", Name: "Room One"},
		{Kind: hostlist.Lobby, Address: "http://m:3000", Room: "r2"},
	} {
		if err := l.Touch(e, now); err != nil {
			t.Fatal(err)
		}
		now = now.Add(time.Second)
	}
	if err := l.SetFavourite(hostlist.Entry{Kind: hostlist.Dedicated, Address: "http://a:3002"}, true); err != nil {
		t.Fatal(err)
	}
	values := func(es []hud.StartEntry) []string {
		var out []string
		for _, e := range es {
			out = append(out, e.Value)
		}
		return out
	}
	join := hostEntries(hud.StartJoin, l)
	if got := values(join); !slices.Equal(got, []string{"http://a:3002", "http://b:3002"}) {
		t.Fatalf("Join lists %q", got)
	}
	if join[0].Detail != "favourite · tanks" {
		t.Errorf("favourite's detail %q", join[0].Detail)
	}
	if got := values(hostEntries(hud.StartBrowse, l)); !slices.Equal(got, []string{"http://m:3000"}) {
		t.Fatalf("Browse lists %q", got)
	}
	if hostEntries(hud.StartJoin, nil) != nil {
		t.Error("no list listed something")
	}

	dir := t.TempDir()
	for i, name := range []string{"old.jsonl", "new.jsonl", "notes.txt"} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("{}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		at := time.Now().Add(time.Duration(i-3) * time.Hour)
		if err := os.Chtimes(p, at, at); err != nil {
			t.Fatal(err)
		}
	}
	if got := values(recordingEntries(dir)); !slices.Equal(got, []string{filepath.Join(dir, "new.jsonl"), filepath.Join(dir, "old.jsonl")}) {
		t.Fatalf("Demos lists %q", got)
	}
	t.Setenv("XDG_DATA_HOME", "/data")
	if d, err := RecordingsDir(); err != nil || d != "/data/vimpclient/recordings" {
		t.Errorf("recordings dir %q, %v", d, err)
	}
}

// The flags that say what to play skip the start screen; the window's own
// flags do not.
func TestChoosesPlay(t *testing.T) {
	for args, want := range map[string]bool{
		"":                               false,
		"-window 1280x720 -screenshot x": false,
		"-nick Probe -team team1":        true,
		"-quickplay":                     true,
		"-map bridge -bots 0":            true,
		"-fullscreen -netgraph -v":       false,
		"-room R":                        true,
		"-set name=x":                    true,
		"-record f.jsonl -asset-cache -": false,
	} {
		p := &playFlags{set: setFlag{}}
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		p.register(fs)
		if err := fs.Parse(strings.Fields(args)); err != nil {
			t.Fatal(err)
		}
		if got := choosesPlay(fs); got != want {
			t.Errorf("%q: skips the start screen %v, want %v", args, got, want)
		}
	}
}
