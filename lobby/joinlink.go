package lobby

import (
	"fmt"
	"net"
	"net/url"
	"strings"
	"unicode"
)

// LinkScheme is the client's own URL scheme for join links.
const LinkScheme = "vimp"

// maxLinkLen and maxRoomLen bound what a join link may carry.
const (
	maxLinkLen = 2048
	maxRoomLen = 200
)

// JoinLink is where a join link leads: a room of a lobby master.
type JoinLink struct {
	Master string // the master's base URL, http(s)://host[:port][/prefix]
	Room   string // the room's id or exact name, as -room takes it
}

// ParseJoinLink reads a link a player opened or pasted:
//
//	vimp://MASTER/ROOM            the client's scheme: the master over https,
//	                              or over http when MASTER is a loopback address
//	vimp://MASTER/ROOM?tls=0      ... over http whatever the host
//	http(s)://MASTER/rooms/ROOM   the master's page of one room (a path
//	                              prefix before /rooms/ is kept in MASTER)
//
// ROOM is a room id or name, percent-encoded as URLs need.
func ParseJoinLink(s string) (JoinLink, error) {
	if len(s) > maxLinkLen {
		return JoinLink{}, fmt.Errorf("join link of %d bytes: at most %d", len(s), maxLinkLen)
	}
	u, err := url.Parse(strings.TrimSpace(s))
	if err != nil {
		return JoinLink{}, fmt.Errorf("join link: %w", err)
	}
	bad := func(why string) error {
		return fmt.Errorf("join link %q: %s (want vimp://MASTER/ROOM or https://MASTER/rooms/ROOM)", s, why)
	}
	if u.Host == "" || u.User != nil {
		return JoinLink{}, bad("no master host")
	}
	if _, err := url.Parse("http://" + u.Host); err != nil || u.Hostname() == "" {
		return JoinLink{}, bad("bad master host")
	}
	var base url.URL
	var room string
	switch strings.ToLower(u.Scheme) {
	case LinkScheme:
		base.Scheme = "https"
		if isLoopback(u.Hostname()) || u.Query().Get("tls") == "0" {
			base.Scheme = "http"
		}
		p := strings.Trim(u.EscapedPath(), "/")
		if p == "" || strings.Contains(p, "/") {
			return JoinLink{}, bad("want exactly one path element, the room")
		}
		room = p
	case "http", "https":
		base.Scheme = strings.ToLower(u.Scheme)
		p := strings.TrimSuffix(u.EscapedPath(), "/")
		i := strings.LastIndex(p, "/rooms/")
		if i < 0 {
			return JoinLink{}, bad("not a room page (no /rooms/ROOM)")
		}
		base.RawPath = p[:i]
		room = p[i+len("/rooms/"):]
		if room == "" || strings.Contains(room, "/") {
			return JoinLink{}, bad("want the room after /rooms/")
		}
		if base.Path, err = url.PathUnescape(base.RawPath); err != nil {
			return JoinLink{}, bad("bad path")
		}
	default:
		return JoinLink{}, bad("unknown scheme")
	}
	base.Host = strings.ToLower(u.Host)
	if room, err = url.PathUnescape(room); err != nil {
		return JoinLink{}, bad("bad room escape")
	}
	if err := checkRoom(room); err != nil {
		return JoinLink{}, bad(err.Error())
	}
	return JoinLink{Master: base.String(), Room: room}, nil
}

// checkRoom accepts a room id or name: printable, bounded, not blank.
func checkRoom(room string) error {
	if strings.TrimSpace(room) == "" {
		return fmt.Errorf("empty room")
	}
	if len(room) > maxRoomLen {
		return fmt.Errorf("room of %d bytes: at most %d", len(room), maxRoomLen)
	}
	for _, r := range room {
		if r == unicode.ReplacementChar || !unicode.IsPrint(r) {
			return fmt.Errorf("room with unprintable %U", r)
		}
	}
	return nil
}

func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
