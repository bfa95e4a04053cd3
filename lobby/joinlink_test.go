package lobby

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestParseJoinLink(t *testing.T) {
	for _, tc := range []struct {
		in, master, room string
	}{
		{"vimp://lobby.example.org/abc123", "https://lobby.example.org", "abc123"},
		{"vimp://lobby.example.org:8443/abc123/", "https://lobby.example.org:8443", "abc123"},
		{"VIMP://Lobby.Example.org/Native%20Room", "https://lobby.example.org", "Native Room"},
		{"vimp://127.0.0.1:3000/r1", "http://127.0.0.1:3000", "r1"},
		{"vimp://localhost:3000/r1", "http://localhost:3000", "r1"},
		{"vimp://[::1]:3000/r1", "http://[::1]:3000", "r1"},
		{"vimp://192.168.1.20:3000/r1?tls=0", "http://192.168.1.20:3000", "r1"},
		{"https://lobby.example.org/rooms/00000000", "https://lobby.example.org", "00000000"},
		{"http://10.0.0.2:3000/rooms/r%2Fx", "http://10.0.0.2:3000", "r/x"},
		{"https://example.org/vimp/rooms/abc?ref=page#top", "https://example.org/vimp", "abc"},
		{"  https://example.org/rooms/abc/  ", "https://example.org", "abc"},
		{"vimp://lobby.example.org/%E6%88%BF%E9%97%B4", "https://lobby.example.org", "房间"},
	} {
		got, err := ParseJoinLink(tc.in)
		if err != nil {
			t.Errorf("%q: %v", tc.in, err)
			continue
		}
		if got.Master != tc.master || got.Room != tc.room {
			t.Errorf("%q = %+v, want master %q room %q", tc.in, got, tc.master, tc.room)
		}
	}
}

func TestParseJoinLinkRejects(t *testing.T) {
	for _, in := range []string{
		"", "vimp:", "vimp://", "vimp://host", "vimp://host/", "vimp://host/a/b",
		"vimp:///room", "vimp://user@host/room", "ftp://host/rooms/x",
		"https://host/", "https://host/rooms/", "https://host/rooms/a/b", "https://host/servers",
		"vimp://host/%zz", "vimp://host/%00", "vimp://host/%20%20", "host/rooms/x",
		"vimp://host/" + strings.Repeat("r", maxRoomLen+1),
		"vimp://host/" + strings.Repeat("r", maxLinkLen),
		"vimp://ho st/room", "vimp://:80/room",
	} {
		if got, err := ParseJoinLink(in); err == nil {
			t.Errorf("%q accepted: %+v", in, got)
		}
	}
}

// Whatever the input, a link is refused or names an http(s) master and a
// printable, bounded room, and the master it names parses as a master.
func FuzzParseJoinLink(f *testing.F) {
	for _, s := range []string{
		"vimp://lobby.example.org/abc123", "vimp://127.0.0.1:3000/Native%20Room",
		"https://lobby.example.org/rooms/00000000", "http://h/p/rooms/x?y#z", "vimp://h/r?tls=0",
		"vimp://[::1]/r", "https://h/rooms/%2F",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		l, err := ParseJoinLink(s)
		if err != nil {
			return
		}
		if !strings.HasPrefix(l.Master, "http://") && !strings.HasPrefix(l.Master, "https://") {
			t.Fatalf("%q: master %q", s, l.Master)
		}
		if l.Room == "" || len(l.Room) > maxRoomLen || !utf8.ValidString(l.Room) {
			t.Fatalf("%q: room %q", s, l.Room)
		}
		if _, err := NewMaster(l.Master, nil); err != nil {
			t.Fatalf("%q: master %q: %v", s, l.Master, err)
		}
	})
}
