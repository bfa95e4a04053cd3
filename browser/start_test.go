package browser

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"vimpclient/hostlist"
	"vimpclient/hud/startscreen"
)

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
	values := func(es []startscreen.Entry) []string {
		var out []string
		for _, e := range es {
			out = append(out, e.Value)
		}
		return out
	}
	join := hostEntries(startscreen.Join, l)
	if got := values(join); !slices.Equal(got, []string{"http://a:3002", "http://b:3002"}) {
		t.Fatalf("Join lists %q", got)
	}
	if join[0].Detail != "favourite · tanks" {
		t.Errorf("favourite's detail %q", join[0].Detail)
	}
	if got := values(hostEntries(startscreen.Browse, l)); !slices.Equal(got, []string{"http://m:3000"}) {
		t.Fatalf("Browse lists %q", got)
	}
	if hostEntries(startscreen.Join, nil) != nil {
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
