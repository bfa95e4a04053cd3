package lobby

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"vimpclient/internal/words"
	"vimpclient/termtext"
)

// MaxRooms bounds the rooms kept from one listing, across all its pages.
const MaxRooms = 1000

// maxRoomJSON bounds one room object as the master gave it.
const maxRoomJSON = 4 << 10

// Room is one listed room. Both generations of the master are read: ID is
// roomId, else hostId; Name is name, else the newer masters' info line.
type Room struct {
	ID             string
	Name           string
	GameID         string
	MapName        string
	CurrentPlayers int
	MaxPlayers     int
	Region         string
	Rating         *float64 // older masters only
	Status         string   // newer masters' /rooms/:id: online, migrating, handing_off
	// Stable is true when ID is a newer master's roomId, which stays the
	// room's across a change or restart of its host; an older master's
	// hostId is the host's registration and changes with it.
	Stable bool
	// Owner is the nick of the room's owner, for a master that lists it
	// (ownerNick); "" when it does not.
	Owner string
	// Raw is the room object exactly as the master sent it.
	Raw json.RawMessage
}

// ServerPage is one answer of GET /servers (or all of them).
type ServerPage struct {
	Total   int
	Servers []Room
	// Unreadable counts the entries the master sent that are not rooms
	// this client can read (no id, not an object, too long); OverLimit
	// those past MaxRooms.
	Unreadable, OverLimit int
}

// Shortfall says why fewer rooms are listed than the master counts, as
// "23 of 34 rooms, 11 not shown: 3 unreadable, 8 not sent by the master"
// ("" when every room is listed). The rooms a master counts but left off
// its pages are those of other regions, or rooms that came and went while
// the list was paged.
func (p ServerPage) Shortfall() string {
	shown := len(p.Servers)
	total := max(p.Total, shown+p.Unreadable+p.OverLimit)
	if shown >= total {
		return ""
	}
	var why []string
	if p.Unreadable > 0 {
		why = append(why, fmt.Sprintf("%d unreadable", p.Unreadable))
	}
	if p.OverLimit > 0 {
		why = append(why, fmt.Sprintf("%d past the %d-room limit", p.OverLimit, MaxRooms))
	}
	if rest := total - shown - p.Unreadable - p.OverLimit; rest > 0 {
		why = append(why, fmt.Sprintf("%d not sent by the master", rest))
	}
	return fmt.Sprintf("%d of %s, %d not shown: %s", shown, words.Count(total, "room", "rooms"), total-shown, strings.Join(why, ", "))
}

type roomWire struct {
	RoomID         string   `json:"roomId"`
	HostID         string   `json:"hostId"`
	Name           *string  `json:"name"`
	Info           *string  `json:"info"`
	GameID         *string  `json:"gameId"`
	MapName        *string  `json:"mapName"`
	CurrentPlayers *float64 `json:"currentPlayers"`
	MaxPlayers     *float64 `json:"maxPlayers"`
	Region         *string  `json:"region"`
	Rating         *float64 `json:"rating"`
	Status         string   `json:"status"`
	OwnerNick      *string  `json:"ownerNick"`
}

// ErrNotRoomList reports an answer of /servers that is not a room list.
var ErrNotRoomList = errors.New("not a vimp room list")

// ParseServerPage decodes GET /servers. A room without an id is dropped (and
// counted in dropped); a page that is not {"total", "servers": [...]} is an
// error. At most MaxRooms rooms are kept.
func ParseServerPage(b []byte) (page ServerPage, dropped int, err error) {
	var wire struct {
		Total   *float64          `json:"total"`
		Servers []json.RawMessage `json:"servers"`
	}
	if err := json.Unmarshal(b, &wire); err != nil {
		return ServerPage{}, 0, fmt.Errorf("%w: %v", ErrNotRoomList, err)
	}
	if wire.Servers == nil {
		return ServerPage{}, 0, fmt.Errorf("%w: no servers array", ErrNotRoomList)
	}
	if wire.Total != nil && *wire.Total >= 0 && *wire.Total < 1e9 {
		page.Total = int(*wire.Total)
	} else {
		page.Total = len(wire.Servers)
	}
	for i, raw := range wire.Servers {
		if len(page.Servers) >= MaxRooms {
			page.OverLimit = len(wire.Servers) - i
			dropped += page.OverLimit
			break
		}
		r, ok := parseRoom(raw)
		if !ok {
			dropped++
			page.Unreadable++
			continue
		}
		page.Servers = append(page.Servers, r)
	}
	return page, dropped, nil
}

// ParseRoom decodes one room object (the item of /servers, or /rooms/:id).
func ParseRoom(b []byte) (Room, error) {
	r, ok := parseRoom(b)
	if !ok {
		return Room{}, fmt.Errorf("%w: not a room", ErrNotRoomList)
	}
	return r, nil
}

func parseRoom(raw json.RawMessage) (Room, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' || len(raw) > maxRoomJSON {
		return Room{}, false
	}
	var w roomWire
	if json.Unmarshal(raw, &w) != nil {
		return Room{}, false
	}
	r := Room{ID: roomOf(w.RoomID, w.HostID), Rating: w.Rating, Status: w.Status, Stable: w.RoomID != "", Raw: slices.Clone(raw)}
	if r.ID == "" || len(r.ID) > 128 {
		return Room{}, false
	}
	str := func(p *string) string {
		if p == nil {
			return ""
		}
		return *p
	}
	r.Name = str(w.Name)
	if r.Name == "" {
		r.Name = str(w.Info)
	}
	r.GameID, r.MapName, r.Region, r.Owner = str(w.GameID), str(w.MapName), str(w.Region), str(w.OwnerNick)
	count := func(p *float64) int {
		if p == nil || *p < 0 || *p > 1e6 {
			return 0
		}
		return int(*p)
	}
	r.CurrentPlayers, r.MaxPlayers = count(w.CurrentPlayers), count(w.MaxPlayers)
	return r, true
}

// FindRoom picks the room a player named: an exact room (or host) id first,
// else a case-insensitive exact name. None, or several rooms of that name,
// is an error listing the candidates.
func FindRoom(rooms []Room, query string) (Room, error) {
	q := strings.TrimSpace(query)
	if q == "" {
		return Room{}, errors.New("no room named: give -room NAME or -room ID")
	}
	for _, r := range rooms {
		if r.ID == q {
			return r, nil
		}
	}
	var named []Room
	for _, r := range rooms {
		if strings.EqualFold(r.Name, q) {
			named = append(named, r)
		}
	}
	switch len(named) {
	case 1:
		return named[0], nil
	case 0:
		return Room{}, fmt.Errorf("no room %q on this master; rooms: %s", q, candidates(rooms))
	}
	return Room{}, fmt.Errorf("%d rooms are named %q; pick one by id: %s", len(named), q, candidates(named))
}

// candidates lists rooms as `"name" (id)`, at most 20 of them, their texts
// escaped and bounded (termtext): the list reaches the terminal.
func candidates(rooms []Room) string {
	if len(rooms) == 0 {
		return "none"
	}
	var b strings.Builder
	for i, r := range rooms {
		if i == 20 {
			fmt.Fprintf(&b, ", and %d more", len(rooms)-20)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, `"%s" (%s)`, termtext.Name(r.Name), termtext.Name(r.ID))
	}
	return b.String()
}
