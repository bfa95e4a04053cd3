package lobby

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// A room a player joined before is found again by what lasts: a newer
// master's roomId stays the room's when its host changes or restarts; an
// older master's hostId is the host's registration, new at each restart,
// so there the room is its name, its game and (when the master lists it)
// its owner's nick.

// RoomRef is a room as a saved entry remembers it.
type RoomRef struct {
	ID     string // the id it was last joined under
	Stable bool   // ID is a newer master's roomId
	Name   string
	GameID string
	Owner  string // "" when the master did not list it
}

// Match says how a saved room was found in a listing.
type Match uint8

const (
	MatchNone  Match = iota // not there, nor any one room of its name
	MatchExact              // the same id
	MatchSame               // same name, game and owner (the one such room): the same room under a new id
	MatchLoose              // the one room of that name, but another game or owner: offered, not joined
)

// MatchRoom finds ref among rooms. n is how many rooms share its name
// (any case), for the words of a MatchNone.
func MatchRoom(rooms []Room, ref RoomRef) (r Room, how Match, n int) {
	if ref.ID != "" {
		for _, x := range rooms {
			if x.ID == ref.ID {
				return x, MatchExact, 1
			}
		}
	}
	name := strings.TrimSpace(ref.Name)
	if name == "" {
		return Room{}, MatchNone, 0
	}
	var named, same []Room
	for _, x := range rooms {
		if !strings.EqualFold(strings.TrimSpace(x.Name), name) {
			continue
		}
		named = append(named, x)
		if x.GameID == ref.GameID && (ref.Owner == "" || x.Owner == "" || strings.EqualFold(x.Owner, ref.Owner)) {
			same = append(same, x)
		}
	}
	switch {
	case len(same) == 1:
		return same[0], MatchSame, len(named)
	case len(named) == 1:
		return named[0], MatchLoose, 1
	}
	return Room{}, MatchNone, len(named)
}

// IsRoomID reports whether id has the shape of a newer master's roomId:
// 8 characters of lower-case Crockford base32 (an older master's hostId
// is a UUID).
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

// ErrNoQuickPlay reports that no room of the game has space.
var ErrNoQuickPlay = errors.New("no room with space right now")

// QuickPlay picks the room to play gameID in at once: the newer master's
// GET /quickplay/:gameId, else (an older master, which has no such path)
// the fullest room with space in the listing, the first listed among
// equals. An empty gameID takes a room of any game from the listing.
func (m *Master) QuickPlay(ctx context.Context, gameID string) (Room, error) {
	if gameID != "" {
		r, ok, err := m.quickPlayAsk(ctx, gameID)
		if err != nil {
			return Room{}, err
		}
		if ok {
			return r, nil
		}
	}
	list, err := m.AllServers(ctx, Query{})
	if err != nil {
		return Room{}, err
	}
	if r, ok := Fullest(list.Servers, gameID); ok {
		return r, nil
	}
	return Room{}, quickPlayNone(gameID)
}

func quickPlayNone(gameID string) error {
	if gameID == "" {
		return ErrNoQuickPlay
	}
	return fmt.Errorf("%s: %w", gameID, ErrNoQuickPlay)
}

// quickPlayAsk asks the newer master; ok is false when the master does not
// answer the question (404, or a page that is not its JSON), so the
// listing decides.
func (m *Master) quickPlayAsk(ctx context.Context, gameID string) (Room, bool, error) {
	body, err := m.get(ctx, "/quickplay/"+url.PathEscape(gameID), nil, nil)
	if errors.Is(err, ErrNotFound) {
		return Room{}, false, nil
	}
	if err != nil {
		return Room{}, false, err
	}
	var answer map[string]json.RawMessage
	if json.Unmarshal(body, &answer) != nil {
		return Room{}, false, nil
	}
	raw, ok := answer["room"]
	if !ok {
		return Room{}, false, nil
	}
	if string(raw) == "null" {
		return Room{}, false, quickPlayNone(gameID)
	}
	r, err := ParseRoom(raw)
	if err != nil {
		return Room{}, false, fmt.Errorf("master %s: /quickplay: %w", m.base.Host, err)
	}
	return r, true, nil
}

// Fullest is the room of gameID ("" any game) with the most players that
// still has space, the first listed among equals.
func Fullest(rooms []Room, gameID string) (Room, bool) {
	best, most := -1, -1
	for i, r := range rooms {
		if gameID != "" && r.GameID != gameID {
			continue
		}
		if r.MaxPlayers > 0 && r.CurrentPlayers < r.MaxPlayers && r.CurrentPlayers > most {
			best, most = i, r.CurrentPlayers
		}
	}
	if best < 0 {
		return Room{}, false
	}
	return rooms[best], true
}
