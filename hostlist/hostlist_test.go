package hostlist

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"vimpclient/testkit/localfiletest"
)

func TestTouchFavouritesAndBounds(t *testing.T) {
	var l List
	t0 := time.Unix(1_800_000_000, 0)
	ded := Entry{Kind: Dedicated, Address: "http://127.0.0.1:3002", Name: "LAN"}
	room := Entry{Kind: Lobby, Address: "https://vimp.example", Room: "abcd2345", Name: "Native Room", GameID: "tanks"}
	if err := l.Touch(ded, t0); err != nil {
		t.Fatal(err)
	}
	if err := l.Touch(room, t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if err := l.SetFavourite(ded, true); err != nil {
		t.Fatal(err)
	}
	// The same host typed differently is the same entry.
	if err := l.Touch(Entry{Kind: Dedicated, Address: "HTTP://127.0.0.1:3002/"}, t0.Add(2*time.Minute)); err != nil {
		t.Fatal(err)
	}
	if len(l.Entries) != 2 || l.Entries[0].Key() != ded.Key() || !l.Entries[0].Favourite || l.Entries[0].Name != "LAN" {
		t.Fatalf("after re-join: %+v", l.Entries)
	}
	for i := range MaxRecent + 5 {
		if err := l.Touch(Entry{Kind: Dedicated, Address: fmt.Sprintf("http://h%d:1", i)}, t0.Add(time.Hour+time.Duration(i)*time.Second)); err != nil {
			t.Fatal(err)
		}
	}
	if len(l.Entries) != MaxRecent+1 || len(l.Favourites()) != 1 || l.Favourites()[0].Key() != ded.Key() {
		t.Fatalf("bounds: %d entries, favourites %+v", len(l.Entries), l.Favourites())
	}
	if r := l.Recent(); r[0].Address != fmt.Sprintf("http://h%d:1", MaxRecent+4) || r[len(r)-1].Key() != ded.Key() {
		t.Errorf("recent order: first %s, last %s", r[0].Address, r[len(r)-1].Address)
	}
	if l.index(room.Key()) >= 0 {
		t.Error("the oldest recent room was kept past the bound")
	}
	l.Remove(ded)
	if len(l.Favourites()) != 0 {
		t.Error("removed favourite still listed")
	}
	for _, bad := range []Entry{{Kind: Lobby, Address: "http://m"}, {Kind: "x", Address: "a"}, {Kind: Dedicated}} {
		if err := l.Touch(bad, t0); err == nil {
			t.Errorf("accepted %+v", bad)
		}
	}
}

func TestSaveLoad(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "hosts.json")
	l, err := Load(path)
	if err != nil || len(l.Entries) != 0 {
		t.Fatalf("missing file: %+v %v", l, err)
	}
	_ = l.Touch(Entry{Kind: Lobby, Address: "http://127.0.0.1:3002", Room: "r1", Name: "A"}, time.Unix(5, 0))
	_ = l.SetFavourite(Entry{Kind: Dedicated, Address: "http://lan:3002"}, true)
	if err := l.Save(path); err != nil {
		t.Fatal(err)
	}
	back, err := Load(path)
	if err != nil || len(back.Entries) != 2 || back.Entries[0].Name != "A" || !back.Entries[0].LastJoined.Equal(time.Unix(5, 0)) || !back.Entries[1].Favourite {
		t.Fatalf("round trip: %+v %v", back, err)
	}
	if _, err := Parse([]byte(`{"hosts":[{"kind":"lobby","address":"m"},{"kind":"dedicated","address":"a"},{"kind":"dedicated","address":"a"}]}`)); err != nil {
		t.Fatal(err)
	}
	if l, _ := Parse([]byte(`{"hosts":[{"kind":"lobby","address":"m"},{"kind":"dedicated","address":"a"},{"kind":"dedicated","address":"a"}]}`)); len(l.Entries) != 1 {
		t.Errorf("invalid or repeated entries kept: %+v", l.Entries)
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"hosts":[{"kind":"lobby","address":"http://m:1","room":"r","favourite":true,"lastJoined":"2026-01-01T00:00:00Z"}]}`))
	f.Add([]byte(`{"hosts":[{"kind":"dedicated","address":"a"},{"kind":"dedicated","address":"A/"}]}`))
	f.Add([]byte(`{"hosts":null}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, b []byte) {
		l, err := Parse(b)
		if err != nil {
			return
		}
		if len(l.Favourites()) > MaxFavourites || len(l.Entries)-len(l.Favourites()) > MaxRecent {
			t.Fatalf("bounds: %d entries", len(l.Entries))
		}
		seen := map[string]bool{}
		for _, e := range l.Entries {
			if !e.valid() || seen[e.Key()] {
				t.Fatalf("entry %+v", e)
			}
			seen[e.Key()] = true
		}
	})
}

// A room of an older master is its name, game and owner: the same room
// joined under a new hostId after its host restarted is one entry, which
// keeps its favourite mark and takes the new id.
func TestLobbyRoomLastsAcrossHostRestart(t *testing.T) {
	l := &List{}
	t0 := time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC)
	before := Entry{Kind: Lobby, Address: "http://m:3002", Room: "d3579a30-0000-4000-8000-000000000001", Name: "Rig Room", GameID: "tanks"}
	if err := l.SetFavourite(before, true); err != nil {
		t.Fatal(err)
	}
	after := before
	after.Room = "9db4140e-0000-4000-8000-000000000002"
	if err := l.Touch(after, t0); err != nil {
		t.Fatal(err)
	}
	if len(l.Entries) != 1 || l.Entries[0].Room != after.Room || !l.Entries[0].Favourite {
		t.Fatalf("entries %+v: want one favourite under the new id", l.Entries)
	}
	// A newer master's roomId is the room whatever its name becomes.
	n := Entry{Kind: Lobby, Address: "http://m:3002", Room: "0a1b2c3d", RoomID: "0a1b2c3d", Name: "Old name"}
	renamed := n
	renamed.Name = "New name"
	if n.Key() != renamed.Key() {
		t.Fatalf("a roomId entry's key follows its name: %q vs %q", n.Key(), renamed.Key())
	}
}

// Entries saved before rooms were keyed by what lasts: the ones of one
// room under several hostIds become one (the newest, a favourite if any
// was); a room id of the newer master's shape becomes the roomId.
func TestParseMigratesRoomEntries(t *testing.T) {
	saved := `{"hosts":[
	{"kind":"lobby","address":"http://m:3002","room":"9db4140e-0000-4000-8000-000000000002","name":"Rig Room","gameId":"tanks","lastJoined":"2026-12-01T21:00:00Z"},
	{"kind":"lobby","address":"http://m:3002","room":"d3579a30-0000-4000-8000-000000000001","name":"Rig Room","gameId":"tanks","lastJoined":"2026-12-01T20:00:00Z","favourite":true},
	{"kind":"lobby","address":"http://n:3002","room":"0a1b2c3d","name":"Newer","gameId":"tanks","favourite":true},
	{"kind":"lobby","address":"http://n:3002","room":"nameless-id"}
	]}`
	l, err := Parse([]byte(saved))
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Entries) != 3 {
		t.Fatalf("%d entries, want 3: %+v", len(l.Entries), l.Entries)
	}
	rig := l.Entries[0]
	if rig.Room != "9db4140e-0000-4000-8000-000000000002" || !rig.Favourite {
		t.Fatalf("merged entry %+v: want the newest id, a favourite", rig)
	}
	if l.Entries[1].RoomID != "0a1b2c3d" || !l.Entries[1].Favourite {
		t.Fatalf("newer entry %+v: want its roomId kept", l.Entries[1])
	}
	if l.Entries[2].Room != "nameless-id" {
		t.Fatalf("nameless entry %+v", l.Entries[2])
	}
}

// A damaged list keeps what it can read, and a save sets the damaged file
// aside instead of writing over it: no host the player had is lost.
func TestDamagedListIsSetAsideNotLost(t *testing.T) {
	valid := []byte(`{"hosts":[{"kind":"dedicated","address":"http://a:1","favourite":true},{"kind":"lobby","address":"http://m:2","room":"r1"}]}`)
	add := Entry{Kind: Dedicated, Address: "http://new:3"}
	now := time.Unix(1_800_000_000, 0)
	for _, d := range localfiletest.Damages() {
		t.Run(d.Name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "hosts.json")
			held := d.Write(t, path, valid)
			l, err := Load(path)
			if err != nil || l.Damage == "" {
				t.Fatalf("load: %+v, %v; want a damaged list and no error", l, err)
			}
			if err := l.Touch(add, now); err != nil {
				t.Fatal(err)
			}
			if err := l.Save(path); err != nil {
				t.Fatal(err)
			}
			localfiletest.SetAside(t, path, held)
			back, err := Load(path)
			if err != nil || back.Damage != "" || len(back.Entries) != 1 || back.Entries[0].Address != add.Address {
				t.Fatalf("saved %+v, %v", back, err)
			}
		})
	}
	t.Run("bad entry", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "hosts.json")
		held := []byte(`{"hosts":[{"kind":"dedicated","address":"http://a:1","favourite":true},{"kind":7},{"kind":"lobby","address":"http://m:2","room":"r1"}]}`)
		if err := os.WriteFile(path, held, 0o600); err != nil {
			t.Fatal(err)
		}
		l, err := Load(path)
		if err != nil || len(l.Entries) != 2 || !strings.Contains(l.Damage, "1 of 3") {
			t.Fatalf("load: %+v, %v", l, err)
		}
		if err := l.Touch(add, now); err != nil {
			t.Fatal(err)
		}
		if err := l.Save(path); err != nil {
			t.Fatal(err)
		}
		localfiletest.SetAside(t, path, held)
		back, _ := Load(path)
		if len(back.Entries) != 3 || len(back.Favourites()) != 1 {
			t.Fatalf("saved %+v: the readable hosts were not all kept", back.Entries)
		}
		// The list is whole again: the next save sets nothing more aside.
		if err := back.Save(path); err != nil {
			t.Fatal(err)
		}
		localfiletest.SetAside(t, path, held)
	})
	t.Run("intact", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "hosts.json")
		if err := os.WriteFile(path, valid, 0o600); err != nil {
			t.Fatal(err)
		}
		l, _ := Load(path)
		if l.Damage != "" || l.Save(path) != nil {
			t.Fatalf("intact list: %q", l.Damage)
		}
		localfiletest.NotSetAside(t, path)
	})
}
