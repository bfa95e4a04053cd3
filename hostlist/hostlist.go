// Package hostlist keeps the hosts a player joined lately and the ones they
// marked as favourites, dedicated hosts and lobby rooms alike, in a JSON
// file under the user config directory. It is a plain model: the terminal
// and the window's server browser read and change it.
package hostlist

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"vimpclient/internal/localfile"
)

// Kind tells a dedicated host from a lobby room.
type Kind string

const (
	Dedicated Kind = "dedicated"
	Lobby     Kind = "lobby"
)

// Bounds of the list: recent entries beyond MaxRecent fall off (favourites
// stay); at most MaxFavourites favourites.
const (
	MaxRecent     = 20
	MaxFavourites = 100
	maxFile       = localfile.StoreLimit
	maxField      = 512
)

// Entry is one host. A dedicated host is its address; a lobby room is its
// master's address and what stays the room's when its host restarts: a
// newer master's roomId, else its name, game and owner's nick. Room is the
// id it was last joined under (an older master's hostId changes with
// every restart of the host).
type Entry struct {
	Kind       Kind      `json:"kind"`
	Address    string    `json:"address"`
	Room       string    `json:"room,omitempty"`
	RoomID     string    `json:"roomId,omitempty"` // a newer master's lasting roomId
	Name       string    `json:"name,omitempty"`
	GameID     string    `json:"gameId,omitempty"`
	Owner      string    `json:"owner,omitempty"` // the owner's nick, when the master listed it
	LastJoined time.Time `json:"lastJoined,omitzero"`
	Favourite  bool      `json:"favourite,omitempty"`
}

// Key identifies an entry: kind, normalised address and the room by what
// lasts (its roomId; else its name, game and owner in any case; else, for
// an entry without a name, the id it was joined under).
func (e Entry) Key() string {
	addr := strings.TrimSuffix(strings.TrimSpace(e.Address), "/")
	if u, err := url.Parse(addr); err == nil && u.Host != "" {
		u.Host = strings.ToLower(u.Host)
		u.Scheme = strings.ToLower(u.Scheme)
		addr = u.String()
	}
	room := e.Room
	switch {
	case e.Kind != Lobby:
	case e.RoomID != "":
		room = "id:" + e.RoomID
	case strings.TrimSpace(e.Name) != "":
		room = "name:" + strings.ToLower(strings.TrimSpace(e.Name)) + "|" + strings.ToLower(e.GameID) + "|" + strings.ToLower(e.Owner)
	}
	return string(e.Kind) + "|" + addr + "|" + room
}

// IsRoomID reports whether id has the shape of a newer master's roomId, 8
// characters of lower-case Crockford base32 (an older master's hostId is a
// UUID): how entries saved before roomIds were kept are told apart.
func IsRoomID(id string) bool {
	if len(id) != 8 {
		return false
	}
	for _, c := range id {
		if !strings.ContainsRune("0123456789abcdefghjkmnpqrstvwxyz", c) {
			return false
		}
	}
	return true
}

// migrate fills in what an entry saved before rooms were keyed by what
// lasts lacks: a room id of the newer master's shape is its roomId.
func (e Entry) migrate() Entry {
	if e.Kind == Lobby && e.RoomID == "" && IsRoomID(e.Room) {
		e.RoomID = e.Room
	}
	return e
}

func (e Entry) valid() bool {
	return (e.Kind == Dedicated || e.Kind == Lobby) && e.Address != "" && len(e.Address) <= maxField &&
		len(e.Room) <= maxField && len(e.Name) <= maxField && len(e.GameID) <= maxField && len(e.RoomID) <= maxField &&
		len(e.Owner) <= maxField && (e.Kind == Lobby) == (e.Room != "")
}

// List is the hosts, most recently joined first.
type List struct {
	Entries []Entry `json:"hosts"`
	// Damage says why the file the list was loaded from could not be read
	// in full ("" when it was): the list holds the entries that could be
	// read, and Save sets that file aside before writing over it.
	Damage string `json:"-"`
}

// ErrBadEntry refuses an entry without a kind and address (or a lobby
// entry without a room).
var ErrBadEntry = errors.New("host entry needs a kind, an address and, for a lobby room, a room id")

// Touch records a join of e at now: the entry moves to the front, keeping
// its favourite mark; the oldest recent entries past MaxRecent fall off.
func (l *List) Touch(e Entry, now time.Time) error {
	if !e.valid() {
		return ErrBadEntry
	}
	k := e.Key()
	if i := l.index(k); i >= 0 {
		e.Favourite = e.Favourite || l.Entries[i].Favourite
		if e.Name == "" {
			e.Name = l.Entries[i].Name
		}
		if e.GameID == "" {
			e.GameID = l.Entries[i].GameID
		}
		if e.Owner == "" {
			e.Owner = l.Entries[i].Owner
		}
		l.Entries = slices.Delete(l.Entries, i, i+1)
	}
	e.LastJoined = now
	l.Entries = slices.Insert(l.Entries, 0, e)
	l.trim()
	return nil
}

func (l *List) index(key string) int {
	for i, x := range l.Entries {
		if x.Key() == key {
			return i
		}
	}
	return -1
}

// trim drops recent (non-favourite) entries past MaxRecent, oldest first.
func (l *List) trim() {
	recent := 0
	out := l.Entries[:0]
	for _, e := range l.Entries {
		if !e.Favourite {
			recent++
			if recent > MaxRecent {
				continue
			}
		}
		out = append(out, e)
	}
	clear(l.Entries[len(out):])
	l.Entries = out
}

// SetFavourite marks or unmarks an entry (adding it when marked and not
// listed yet).
func (l *List) SetFavourite(e Entry, on bool) error {
	if !e.valid() {
		return ErrBadEntry
	}
	i := l.index(e.Key())
	if on && (i < 0 || !l.Entries[i].Favourite) && len(l.Favourites()) >= MaxFavourites {
		return fmt.Errorf("at most %d favourites", MaxFavourites)
	}
	if i < 0 {
		if !on {
			return nil
		}
		e.Favourite = true
		l.Entries = append(l.Entries, e)
		return nil
	}
	l.Entries[i].Favourite = on
	l.trim()
	return nil
}

// Remove forgets an entry.
func (l *List) Remove(e Entry) {
	if i := l.index(e.Key()); i >= 0 {
		l.Entries = slices.Delete(l.Entries, i, i+1)
	}
}

// Recent lists the entries by last join, newest first.
func (l *List) Recent() []Entry {
	out := slices.Clone(l.Entries)
	slices.SortStableFunc(out, func(a, b Entry) int { return b.LastJoined.Compare(a.LastJoined) })
	return out
}

// Favourites lists the favourite entries, in list order.
func (l *List) Favourites() []Entry {
	var out []Entry
	for _, e := range l.Entries {
		if e.Favourite {
			out = append(out, e)
		}
	}
	return out
}

// Parse decodes a saved list, dropping invalid entries and holding to the
// bounds. Entries saved before rooms were keyed by what lasts are migrated:
// those that now name one room (the same room under the ids of several
// host restarts) become one, the newest, a favourite if any was. An entry
// that cannot be read is left out and the list's Damage says so; a file
// that is not a host list at all is an error.
func Parse(b []byte) (*List, error) {
	var raw struct {
		Hosts []json.RawMessage `json:"hosts"`
	}
	if len(b) > maxFile {
		return nil, fmt.Errorf("host list: over %d bytes", maxFile)
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, fmt.Errorf("host list: %w", err)
	}
	l := &List{}
	seen := map[string]int{} // key → index in l.Entries
	favs, bad := 0, 0
	for _, r := range raw.Hosts {
		var e Entry
		if json.Unmarshal(r, &e) != nil || !e.valid() {
			bad++
			continue
		}
		e = e.migrate()
		if i, ok := seen[e.Key()]; ok {
			kept := &l.Entries[i]
			fav := e.Favourite || kept.Favourite
			if fav && !kept.Favourite {
				fav = favs < MaxFavourites
				if fav {
					favs++
				}
			}
			if e.LastJoined.After(kept.LastJoined) {
				*kept = e
			}
			kept.Favourite = fav
			continue
		}
		if e.Favourite {
			if favs >= MaxFavourites {
				e.Favourite = false
			} else {
				favs++
			}
		}
		seen[e.Key()] = len(l.Entries)
		l.Entries = append(l.Entries, e)
	}
	l.trim()
	if bad > 0 {
		l.Damage = fmt.Sprintf("%d of %d entries could not be read", bad, len(raw.Hosts))
	}
	return l, nil
}

// DefaultPath is the list's file in the user config directory.
func DefaultPath() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("host list: %w", err)
	}
	return filepath.Join(dir, "vimpclient", "hosts.json"), nil
}

// Load reads the list at path; a missing file is an empty list. A file
// that cannot be read in full (unreadable, too large, not a host list, a
// damaged entry) gives the entries that could be read, with Damage saying
// why, and no error: the player keeps their hosts, and Save keeps the file.
func Load(path string) (*List, error) {
	b, err := localfile.ReadStore(path, maxFile, "host list")
	if errors.Is(err, os.ErrNotExist) {
		return &List{}, nil
	}
	if err != nil {
		return &List{Damage: err.Error()}, nil
	}
	l, err := Parse(b)
	if err != nil {
		return &List{Damage: err.Error()}, nil
	}
	return l, nil
}

// Save writes the list to path (atomically, readable by its owner only).
// When the list was loaded from a damaged file, that file is set aside
// first as hosts.json.bad-TIME; if it cannot be, nothing is written.
func (l *List) Save(path string) error {
	b, err := json.MarshalIndent(struct {
		Hosts []Entry `json:"hosts"`
	}{l.Entries}, "", "  ")
	if err != nil {
		return fmt.Errorf("host list: %w", err)
	}
	if _, err := localfile.Replace(path, append(b, '\n'), 0o600, l.Damage != "", time.Now()); err != nil {
		return fmt.Errorf("host list: %w", err)
	}
	l.Damage = ""
	return nil
}
